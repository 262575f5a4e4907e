//! Writing a tree of files into a directory as a whole (a published site,
//! a favorites tree). The files go to a
//! temporary sibling `DIR.markport-tmp-PID-N`, which is then swapped in:
//! on Linux one atomic exchange of the two names (`renameat2` with
//! `RENAME_EXCHANGE`), elsewhere two renames. A reader of `DIR` sees the
//! old site or the new one, never half of one; a publish killed at any
//! step leaves the old or the new site whole at `DIR` (on Linux) and a
//! leftover sibling that the next publish removes.
//!
//! Every site holds a manifest, [`MANIFEST`], listing its files. A
//! directory is replaced only when it is empty or every file in it is in
//! its manifest: files markport did not write are never deleted.
//!
//! One publish into a directory at a time: each holds an exclusive lock on
//! the file `DIR.markport-lock` beside it (an advisory `flock`, released by
//! the system when the process ends, however it ends) from the check of
//! `DIR` to the removal of the old site. A second publish waits for the
//! first, so it never removes a staging directory that is still being
//! written, and the leftovers it removes are those of runs that died.
//!
//! The new site gets the old directory's mode (setgid bit included) and
//! group before any file is written into it, so a private (0700) site stays
//! private and a shared (2775) one stays shared.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

/// One file of a tree written whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// Its path inside the tree, `/`-separated.
    pub path: String,
    /// Its content.
    pub bytes: Vec<u8>,
}

/// The manifest's file name inside a published directory.
pub const MANIFEST: &str = ".markport-publish.json";

#[derive(Serialize, Deserialize)]
struct Manifest {
    markport_publish: u32,
    files: Vec<String>,
}

/// Why a site was not published.
#[derive(Debug)]
pub struct PublishError {
    /// The path it is about.
    pub path: PathBuf,
    /// What went wrong, for people.
    pub message: String,
}

impl fmt::Display for PublishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for PublishError {}

fn fail(path: &Path, message: impl fmt::Display) -> PublishError {
    PublishError {
        path: path.to_owned(),
        message: message.to_string(),
    }
}

fn io_fail(path: &Path, e: io::Error) -> PublishError {
    fail(path, e)
}

/// Write `files` to `dir` as a whole (see the module documentation).
pub fn publish(files: &[File], dir: &Path) -> Result<(), PublishError> {
    let staged = stage(files, dir)?;
    let old = staged.swap()?;
    old.clean()
}

/// The files of the directory under `root`, relative, `/`-separated,
/// sorted; without recursion (an explicit stack).
fn list_files(root: &Path) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![(root.to_owned(), String::new())];
    while let Some((dir, rel)) = stack.pop() {
        for e in fs::read_dir(&dir)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            if e.file_type()?.is_dir() {
                stack.push((e.path(), path));
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Whether `dir` holds only what its manifest lists. `Ok(false)` when it
/// has no manifest or other files.
fn only_manifest_files(dir: &Path) -> io::Result<Result<(), String>> {
    let present = list_files(dir)?;
    let Ok(text) = fs::read(dir.join(MANIFEST)) else {
        return Ok(Err(format!(
            "it holds {} file(s) and no {MANIFEST}: not a site markport published",
            present.len()
        )));
    };
    let Ok(manifest) = serde_json::from_slice::<Manifest>(&text) else {
        return Ok(Err(format!("its {MANIFEST} is not markport's")));
    };
    let listed: std::collections::HashSet<&str> =
        manifest.files.iter().map(String::as_str).collect();
    let foreign: Vec<&String> = present
        .iter()
        .filter(|p| p.as_str() != MANIFEST && !listed.contains(p.as_str()))
        .collect();
    if foreign.is_empty() {
        Ok(Ok(()))
    } else {
        let shown: Vec<&str> = foreign.iter().take(3).map(|s| s.as_str()).collect();
        Ok(Err(format!(
            "it holds {} file(s) markport did not write ({}{})",
            foreign.len(),
            shown.join(", "),
            if foreign.len() > 3 { ", ..." } else { "" }
        )))
    }
}

/// A new site written beside `dir`, not yet visible there. It holds the
/// lock on `dir` until it is swapped in or dropped.
#[derive(Debug)]
pub struct Staged {
    dir: PathBuf,
    tmp: PathBuf,
    lock: fs::File,
}

/// The site that was at `dir` before the swap, now at a temporary name.
/// It holds the lock on `dir` until it is cleaned or dropped.
#[derive(Debug)]
pub struct Replaced {
    old: Option<PathBuf>,
    // Held, never read: dropping it releases the lock.
    _lock: fs::File,
}

/// Take the lock of `dir` (see the module documentation), waiting for a
/// publish that holds it.
fn lock(dir: &Path) -> Result<fs::File, PublishError> {
    let path = sibling_named(dir, ".markport-lock")?;
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .or_else(|e| match e.kind() {
            // Someone else's lock file in a shared directory: reading is
            // enough to lock it.
            io::ErrorKind::PermissionDenied => fs::File::open(&path),
            _ => Err(e),
        })
        .map_err(|e| io_fail(&path, e))?;
    file.lock().map_err(|e| io_fail(&path, e))?;
    Ok(file)
}

/// Give the staging directory `tmp` the mode and group of the directory it
/// replaces, before anything is written into it.
#[cfg(unix)]
fn keep_permissions(tmp: &Path, old: &fs::Metadata) -> Result<(), PublishError> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let now = fs::metadata(tmp).map_err(|e| io_fail(tmp, e))?;
    if now.gid() != old.gid() {
        std::os::unix::fs::chown(tmp, None, Some(old.gid())).map_err(|e| {
            fail(
                tmp,
                format!(
                    "cannot give the new site the group of the old one (gid {}): {e}",
                    old.gid()
                ),
            )
        })?;
    }
    // After the group: changing a group may clear the setgid bit.
    fs::set_permissions(tmp, fs::Permissions::from_mode(old.mode() & 0o7777))
        .map_err(|e| io_fail(tmp, e))
}

#[cfg(not(unix))]
fn keep_permissions(tmp: &Path, old: &fs::Metadata) -> Result<(), PublishError> {
    fs::set_permissions(tmp, old.permissions()).map_err(|e| io_fail(tmp, e))
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn sibling(dir: &Path, what: &str) -> Result<PathBuf, PublishError> {
    sibling_named(
        dir,
        &format!(
            ".markport-{what}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ),
    )
}

/// `DIR` + `suffix`, beside `DIR`.
fn sibling_named(dir: &Path, suffix: &str) -> Result<PathBuf, PublishError> {
    let name = dir
        .file_name()
        .ok_or_else(|| fail(dir, "not a directory name"))?;
    let mut s = name.to_owned();
    s.push(suffix);
    Ok(dir.with_file_name(s))
}

/// Step 1: check `dir` and write `files` to a temporary sibling. `dir` is
/// not touched.
pub fn stage(files: &[File], dir: &Path) -> Result<Staged, PublishError> {
    let dir = if dir.file_name().is_none() {
        // `site/.` or `.`: name the directory itself.
        std::path::absolute(dir).map_err(|e| io_fail(dir, e))?
    } else {
        dir.to_owned()
    };
    let dir = dir.components().collect::<PathBuf>();
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| io_fail(parent, e))?;
    }
    let lock = lock(&dir)?;
    let existing = match fs::symlink_metadata(&dir) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(fail(
                &dir,
                "is a symbolic link: markport publishes a site by swapping whole directories and does not follow links; give the link's target",
            ))
        }
        Ok(m) if !m.is_dir() => return Err(fail(&dir, "exists and is not a directory")),
        Ok(m) => {
            if let Err(why) = only_manifest_files(&dir).map_err(|e| io_fail(&dir, e))? {
                if fs::read_dir(&dir).map_err(|e| io_fail(&dir, e))?.next().is_some() {
                    return Err(fail(&dir, format!("refusing to replace it: {why}")));
                }
            }
            Some(m)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_fail(&dir, e)),
    };
    // Under the lock, every staging sibling is a dead run's.
    remove_leftovers(&dir);
    let tmp = sibling(&dir, "tmp")?;
    // Owner-only until it has the old directory's permissions.
    let mut builder = fs::DirBuilder::new();
    #[cfg(unix)]
    if existing.is_some() {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(&tmp).map_err(|e| io_fail(&tmp, e))?;
    if let Some(m) = &existing {
        if let Err(e) = keep_permissions(&tmp, m) {
            let _ = fs::remove_dir_all(&tmp);
            return Err(e);
        }
    }
    // The manifest first: a leftover of a killed publish is then provably ours.
    let manifest = Manifest {
        markport_publish: 1,
        files: files.iter().map(|f| f.path.clone()).collect(),
    };
    let text = serde_json::to_vec_pretty(&manifest).expect("a manifest serialises");
    let staged = Staged { dir, tmp, lock };
    let result = (|| {
        fs::write(staged.tmp.join(MANIFEST), text).map_err(|e| io_fail(&staged.tmp, e))?;
        for f in files {
            let path = staged.tmp.join(&f.path);
            if let Some(p) = path.parent() {
                fs::create_dir_all(p).map_err(|e| io_fail(p, e))?;
            }
            fs::write(&path, &f.bytes).map_err(|e| io_fail(&path, e))?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_dir_all(&staged.tmp);
        return Err(e);
    }
    Ok(staged)
}

/// Siblings `DIR.markport-tmp-*` and `DIR.markport-old-*` that a killed
/// publish left, removed when they hold only their manifest's files.
fn remove_leftovers(dir: &Path) {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return;
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let prefix = format!("{}.markport-", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let ours = n
            .strip_prefix(&prefix)
            .is_some_and(|rest| rest.starts_with("tmp-") || rest.starts_with("old-"));
        if ours && e.file_type().is_ok_and(|t| t.is_dir()) {
            let path = e.path();
            if matches!(only_manifest_files(&path), Ok(Ok(()))) {
                let _ = fs::remove_dir_all(&path);
            }
        }
    }
}

impl Staged {
    /// Where the new site is written, until the swap.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Step 2: make the new site the one at `dir`.
    pub fn swap(self) -> Result<Replaced, PublishError> {
        if fs::symlink_metadata(&self.dir).is_err() {
            fs::rename(&self.tmp, &self.dir).map_err(|e| io_fail(&self.dir, e))?;
            return Ok(Replaced {
                old: None,
                _lock: self.lock,
            });
        }
        #[cfg(target_os = "linux")]
        if exchange(&self.tmp, &self.dir).is_ok() {
            // The old site now has the temporary name.
            return Ok(Replaced {
                old: Some(self.tmp),
                _lock: self.lock,
            });
        }
        // No atomic exchange here: between these two renames `dir` is
        // missing for a moment; the old site is whole at its new name.
        let old = sibling(&self.dir, "old")?;
        fs::rename(&self.dir, &old).map_err(|e| io_fail(&self.dir, e))?;
        if let Err(e) = fs::rename(&self.tmp, &self.dir) {
            let _ = fs::rename(&old, &self.dir);
            return Err(io_fail(&self.dir, e));
        }
        Ok(Replaced {
            old: Some(old),
            _lock: self.lock,
        })
    }
}

impl Replaced {
    /// Where the old site is until [`Replaced::clean`].
    pub fn path(&self) -> Option<&Path> {
        self.old.as_deref()
    }

    /// Step 3: remove the old site (checked to be only its manifest's
    /// files before it was replaced).
    pub fn clean(self) -> Result<(), PublishError> {
        match self.old {
            Some(old) => fs::remove_dir_all(&old).map_err(|e| io_fail(&old, e)),
            None => Ok(()),
        }
    }
}

/// Exchange two paths atomically (Linux 3.15+; file systems that do not
/// support it fail, and the caller falls back to two renames).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(a.as_os_str().as_bytes())?;
    let cb = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both pointers are valid NUL-terminated strings that live
    // across the call; AT_FDCWD resolves them like open(2) would.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
