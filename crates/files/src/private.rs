//! Private temporary directories, for copies of a user's data that a
//! reader needs on disk (a browser's database, its `-wal`): owner-only
//! (the directory 0700, its files 0600), removed when dropped, and removed
//! by [`remove_all`] when the process is interrupted.
//!
//! A copy of someone's whole browsing history must be as private as the
//! profile it came from, and must not outlive the run: an interrupted run
//! that leaves it in `$TMPDIR` leaks it to the next reader of that
//! directory and fills the disk. A program that handles SIGINT, SIGTERM or
//! SIGHUP calls [`remove_all`] before it exits, as the `markport` command
//! does. One that `kill -9` left (its name carries the id of the process
//! that made it) is removed by the next run that makes a private directory.
//!
//! ```
//! use std::io::Write;
//! use markport_files::private::PrivateDir;
//!
//! let dir = PrivateDir::new().unwrap();
//! let mut copy = dir.create_file("places.sqlite").unwrap();
//! copy.write_all(b"SQLite format 3\0").unwrap();
//! let path = dir.path().to_path_buf();
//! #[cfg(unix)]
//! {
//!     use std::os::unix::fs::PermissionsExt;
//!     let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
//!     assert_eq!(mode(&path), 0o700);
//!     assert_eq!(mode(&path.join("places.sqlite")), 0o600);
//! }
//! drop(dir);
//! assert!(!path.exists());
//! ```

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The directories this process has made and not yet removed, and whether
/// [`remove_all`] has run (after which no new one is made: the process is
/// on its way out, and a directory made now would be left behind).
struct Registry {
    dirs: Vec<PathBuf>,
    closed: bool,
    /// What [`remove_all`] does first (see [`before_remove_all`]).
    hooks: Vec<fn()>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    dirs: Vec::new(),
    closed: false,
    hooks: Vec::new(),
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remove every [`PrivateDir`] of this process, and refuse to make new
/// ones. Meant for a SIGINT/SIGTERM/SIGHUP handler running in a normal
/// thread just before the process exits (it takes a lock, so not from
/// inside a raw signal handler).
pub fn remove_all() {
    let mut registry = registry();
    registry.closed = true;
    for hook in &registry.hooks {
        hook();
    }
    crate::count(false, registry.dirs.len());
    for dir in registry.dirs.drain(..) {
        remove(&dir);
    }
}

/// Have [`remove_all`] call `hook` before it removes the directories, under
/// the lock that makes new directories: for what must stop before they go,
/// such as a process another crate started that writes into one (a tool
/// `markport conformance` runs), which would otherwise go on writing while
/// the directory is removed and outlive the run. Register a hook once (a
/// [`std::sync::Once`]); if [`remove_all`] has run already, `hook` runs now.
pub fn before_remove_all(hook: fn()) {
    let mut registry = registry();
    if registry.closed {
        hook();
    }
    registry.hooks.push(hook);
}

/// Remove `dir` and everything in it. It is first renamed, so that a
/// file another thread (SQLite, making a `-shm`) creates by its path while
/// the removal runs cannot appear in it and keep it from being removed.
fn remove(dir: &Path) {
    let mut doomed = dir.as_os_str().to_owned();
    doomed.push(".removing");
    let doomed = PathBuf::from(doomed);
    let target = if std::fs::rename(dir, &doomed).is_ok() {
        doomed.as_path()
    } else {
        dir
    };
    let _ = std::fs::remove_dir_all(target);
}

/// An owner-only temporary directory under [`std::env::temp_dir`]
/// (`$TMPDIR`), removed with everything in it when dropped.
#[derive(Debug)]
pub struct PrivateDir {
    path: PathBuf,
}

impl PrivateDir {
    /// Make a new directory, mode 0700, named `.markport-PID-XXXXXX` so one
    /// left by `kill -9` is recognisable (and, the first time in a process,
    /// remove those that runs now gone left in the same place).
    pub fn new() -> io::Result<PrivateDir> {
        static CLEANED: std::sync::Once = std::sync::Once::new();
        CLEANED.call_once(|| crate::leftovers::clean_private(&std::env::temp_dir()));
        // Made under the registry's lock: a signal handler's remove_all
        // either runs before (and this refuses) or sees it registered.
        let mut registry = registry();
        if registry.closed {
            return Err(io::Error::other("the process is exiting"));
        }
        let prefix = format!(".markport-{}-", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o700));
        }
        let path = builder.tempdir()?.keep();
        registry.dirs.push(path.clone());
        crate::count(true, 1);
        Ok(PrivateDir { path })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Make the new directory `name` inside this one (owner-only, as this
    /// one is), unless [`remove_all`] has run: a directory made after it
    /// would be left behind, since the process is exiting.
    pub fn create_dir(&self, name: &str) -> io::Result<PathBuf> {
        let registry = registry();
        if registry.closed {
            return Err(io::Error::other("the process is exiting"));
        }
        let path = self.path.join(name);
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        builder.create(&path)?;
        Ok(path)
    }

    /// Create the new file `name` in the directory, mode 0600, for writing.
    pub fn create_file(&self, name: &str) -> io::Result<File> {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        options.open(self.path.join(name))
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let mut registry = registry();
        if let Some(i) = registry.dirs.iter().position(|p| *p == self.path) {
            registry.dirs.swap_remove(i);
            crate::count(false, 1);
            remove(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_directory_is_removed_with_its_files() {
        let dir = PrivateDir::new().unwrap();
        dir.create_file("a").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let path = dir.path().to_path_buf();
        assert!(path.join("a").is_file());
        drop(dir);
        assert!(!path.exists());
    }

    #[test]
    fn a_subdirectory_is_owner_only_and_goes_with_its_parent() {
        let dir = PrivateDir::new().unwrap();
        let sub = dir.create_dir("case-0").unwrap();
        std::fs::write(sub.join("copy"), b"data").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&sub).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        let again = dir.create_dir("case-0").unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AlreadyExists);
        drop(dir);
        assert!(!sub.exists());
    }

    #[test]
    fn a_file_is_created_new_never_opened_over_another() {
        let dir = PrivateDir::new().unwrap();
        dir.create_file("a").unwrap();
        let again = dir.create_file("a").unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AlreadyExists);
    }
}
