//! The private directory a run works in, and what a signal handler must
//! undo: the directories still there and the tools still running.
//!
//! Each run makes one directory readable by its owner only (mode 0700):
//! copies of the corpus files and the tool's outputs live there, and it is
//! removed when the run ends, on error, and (through [`remove_temporaries`],
//! which the `markport` command calls from its SIGINT/SIGTERM/SIGHUP
//! handler) on a signal.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Directories of runs in progress.
static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Process groups of tools running now.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// Set by [`remove_temporaries`]: from then on no directory is made and no
/// tool started (the run's thread may go on for a moment before the exit).
static STOPPING: AtomicBool = AtomicBool::new(false);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kill every tool a run of this process started and that still runs (its
/// whole process group), and remove every private directory of a run in
/// progress. For a signal handler running in a normal thread (it takes
/// locks); the process should exit afterwards.
pub fn remove_temporaries() {
    // Both locks are held while the flag is set, so a directory or a tool
    // is either made before (and removed or killed here) or refused after.
    let dirs = lock(&DIRS);
    let groups = lock(&GROUPS);
    STOPPING.store(true, Ordering::SeqCst);
    for &group in groups.iter() {
        kill_group(group);
    }
    for dir in dirs.iter() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

fn stopping() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "stopping on a signal")
}

/// Make a directory inside a run's private directory, unless the run is
/// stopping on a signal.
pub(crate) fn create_dir(path: &Path) -> io::Result<()> {
    let _dirs = lock(&DIRS);
    if STOPPING.load(Ordering::SeqCst) {
        return Err(stopping());
    }
    std::fs::create_dir(path)
}

/// Send SIGKILL to a process group.
pub(crate) fn kill_group(group: i32) {
    #[cfg(unix)]
    // SAFETY: kill takes no pointer; a negative pid names the group.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// Note a tool's process group while it runs; on a signal already
/// received, kill it at once.
pub(crate) fn track_group(group: i32) {
    let mut groups = lock(&GROUPS);
    if STOPPING.load(Ordering::SeqCst) {
        kill_group(group);
    }
    groups.push(group);
}

/// Forget a tool's process group once it is reaped.
pub(crate) fn untrack_group(group: i32) {
    let mut groups = lock(&GROUPS);
    if let Some(i) = groups.iter().position(|&g| g == group) {
        groups.swap_remove(i);
    }
}

/// A run's private directory: owner-only, removed on drop.
#[derive(Debug)]
pub struct PrivateDir {
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
}

impl PrivateDir {
    /// Make one in the system's temporary directory.
    pub fn new() -> io::Result<PrivateDir> {
        let mut dirs = lock(&DIRS);
        if STOPPING.load(Ordering::SeqCst) {
            return Err(stopping());
        }
        let dir = tempfile::Builder::new()
            .prefix("markport-conformance-")
            .tempdir()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))?;
        }
        let path = dir.path().to_path_buf();
        dirs.push(path.clone());
        Ok(PrivateDir {
            dir: Some(dir),
            path,
        })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let _ = dir.close();
        }
        let mut dirs = lock(&DIRS);
        if let Some(i) = dirs.iter().position(|p| *p == self.path) {
            dirs.swap_remove(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_only_and_gone_after_drop() {
        let dir = PrivateDir::new().unwrap();
        let path = dir.path().to_path_buf();
        std::fs::write(path.join("copy"), b"data").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        assert!(lock(&DIRS).contains(&path));
        drop(dir);
        assert!(!path.exists());
        assert!(!lock(&DIRS).contains(&path));
    }
}
