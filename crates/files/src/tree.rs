//! Writing a tree of files into a directory as a whole (a published site,
//! a favorites tree). The files go to a
//! temporary sibling `DIR.markport-tmp-PID-N`, which is then swapped in:
//! on Linux one atomic exchange of the two names (`renameat2` with
//! `RENAME_EXCHANGE`), elsewhere two renames. A reader of `DIR` sees the
//! old site or the new one, never half of one; a publish killed at any
//! step leaves the old or the new site whole at `DIR` (on Linux) and a
//! leftover sibling that the next publish removes.
//!
//! The staging directory, and the old site once swapped out, are this
//! process's temporaries: [`remove_unfinished`] (called by a program's
//! signal handler) removes them, and so does dropping a [`Staged`] that was
//! not swapped in or a [`Replaced`] that was not cleaned. What a run that
//! could not clean up left (`kill -9`) is removed by the next write of the same
//! tree, under its lock: only when its name carries the id of a process that is
//! gone, it is this user's, and it holds nothing but its manifest's files.
//!
//! Every site holds a manifest, [`MANIFEST`], listing its files. A
//! directory is replaced only when it is empty or every file in it is in
//! its manifest: files markport did not write are never deleted.
//!
//! What the owner keeps at the top of the directory stays there, and is
//! not in the way: a dot file or directory (`.git`, `.nojekyll`,
//! `.github/`, `.well-known/`) and `CNAME`, so that a site can be a git
//! checkout published by GitHub Pages ([`kept`]). The swap moves each of
//! them from the old directory into the new one (a rename beside it), under
//! the same lock a signal handler takes, so an interrupted publish never
//! removes them with the old site. One the new tree writes itself is not
//! kept: it is refused as any foreign file is, unless the old manifest
//! lists it.
//!
//! One publish into a directory at a time: each holds an exclusive lock on
//! the file `DIR.markport-lock` beside it (an advisory `flock`, released by
//! the system when the process ends, however it ends) from the check of
//! `DIR` to the removal of the old site. A second publish waits for the
//! first, so it never removes a staging directory that is still being
//! written, and the leftovers it removes are those of runs that died.
//! A run that refuses `DIR` removes the lock file it made, and a lock file
//! whose `DIR` does not exist and that no process holds is removed by the
//! next run beside it: each run checks, once it holds the lock, that the
//! file it locked is still the one at that name, and starts again if not.
//!
//! The new site gets the old directory's mode (setgid bit included) and
//! group before any file is written into it, so a private (0700) site stays
//! private and a shared (2775) one stays shared.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

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

/// The staging and old directories of this process not yet swapped in or
/// removed, and whether [`remove_unfinished`] has run (after which nothing
/// more is staged or written: the process is on its way out).
struct Registry {
    dirs: Vec<PathBuf>,
    closed: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    dirs: Vec::new(),
    closed: false,
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    fn forget(&mut self, path: &Path) -> bool {
        match self.dirs.iter().position(|p| p == path) {
            Some(i) => {
                self.dirs.swap_remove(i);
                crate::count(false, 1);
                true
            }
            None => false,
        }
    }

    fn open(&self, path: &Path) -> Result<(), PublishError> {
        if self.closed {
            Err(fail(path, "not written: the process is exiting"))
        } else {
            Ok(())
        }
    }
}

/// Remove every staging directory of this process not yet swapped in, and
/// every old tree swapped out and not yet removed; then stage nothing more.
/// Meant for a signal handler running in a normal thread just before the
/// process exits (it takes a lock, so not from inside a raw signal
/// handler). A file being written into a staging directory is finished
/// first; no other is written after.
pub fn remove_unfinished() {
    let mut registry = registry();
    registry.closed = true;
    crate::count(false, registry.dirs.len());
    for dir in registry.dirs.drain(..) {
        let _ = fs::remove_dir_all(&dir);
    }
}

/// Write `files` to `dir` as a whole (see the module documentation).
pub fn publish(files: &[File], dir: &Path) -> Result<(), PublishError> {
    let staged = stage(files, dir)?;
    let old = staged.swap()?;
    old.clean()
}

/// Whether a name at the top of a tree's directory is the owner's, kept
/// across a swap: a dot file or directory other than the manifest (`.git`,
/// `.nojekyll`, `.github`, `.well-known`, `.DS_Store`), or `CNAME`, where
/// GitHub Pages keeps a site's own domain. A git checkout or a Pages setup
/// is these and nothing else; no file a site writes is named so.
///
/// ```
/// use markport_files::tree::kept;
/// assert!(kept(".git") && kept(".nojekyll") && kept("CNAME"));
/// assert!(!kept(".markport-publish.json") && !kept("index.html") && !kept("cname"));
/// ```
pub fn kept(name: &str) -> bool {
    name == "CNAME" || (name.starts_with('.') && name != MANIFEST && name != "." && name != "..")
}

/// The files of the directory under `root`, relative, `/`-separated,
/// sorted, but the top-level entries `skip` names (and what is under them);
/// without recursion (an explicit stack).
fn list_files(root: &Path, skip: &dyn Fn(&str) -> bool) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![(root.to_owned(), String::new())];
    while let Some((dir, rel)) = stack.pop() {
        for e in fs::read_dir(&dir)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            if rel.is_empty() && skip(&name) {
                continue;
            }
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

/// Whether `dir` holds only what its manifest lists, besides the
/// top-level entries `skip` names. `Ok(Err(why))` when it has no manifest
/// and other files, or files its manifest does not list.
fn only_manifest_files(dir: &Path, skip: &dyn Fn(&str) -> bool) -> io::Result<Result<(), String>> {
    let present = list_files(dir, skip)?;
    if present.is_empty() {
        return Ok(Ok(()));
    }
    let Ok(text) = fs::read(dir.join(MANIFEST)) else {
        return Ok(Err(format!(
            "it holds {} file(s) ({}) and no {MANIFEST}: not a site markport published",
            present.len(),
            first_few(&present)
        )));
    };
    let Ok(manifest) = serde_json::from_slice::<Manifest>(&text) else {
        return Ok(Err(format!("its {MANIFEST} is not markport's")));
    };
    let listed: std::collections::HashSet<&str> =
        manifest.files.iter().map(String::as_str).collect();
    let foreign: Vec<&str> = present
        .iter()
        .map(String::as_str)
        .filter(|p| *p != MANIFEST && !listed.contains(p))
        .collect();
    if foreign.is_empty() {
        Ok(Ok(()))
    } else {
        Ok(Err(format!(
            "it holds {} file(s) markport did not write ({})",
            foreign.len(),
            first_few(&foreign)
        )))
    }
}

/// The first three of `paths`, `, ...` when there are more.
fn first_few<S: AsRef<str>>(paths: &[S]) -> String {
    let shown: Vec<&str> = paths.iter().take(3).map(AsRef::as_ref).collect();
    let more = if paths.len() > 3 { ", ..." } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// A new site written beside `dir`, not yet visible there. It holds the
/// lock on `dir` until it is swapped in or dropped.
/// Dropped without [`Staged::swap`], the staging directory is removed.
#[derive(Debug)]
pub struct Staged {
    dir: PathBuf,
    tmp: PathBuf,
    lock: Option<fs::File>,
    /// Top-level names of the old tree its manifest lists: markport's,
    /// never kept, whatever their names.
    ours: Vec<String>,
}

/// The site that was at `dir` before the swap, now at a temporary name.
/// It holds the lock on `dir` until it is cleaned or dropped; dropped
/// without [`Replaced::clean`], the old site is removed all the same.
#[derive(Debug)]
pub struct Replaced {
    old: Option<PathBuf>,
    // Held, never read: dropping it releases the lock.
    _lock: fs::File,
}

/// The lock of a directory, and whether this run made its file.
struct Lock {
    file: fs::File,
    path: PathBuf,
    made: bool,
}

impl Lock {
    /// Give up the lock after refusing the directory: a lock file this run
    /// made is removed (under the lock; a run waiting on it sees it gone
    /// and starts again).
    fn refuse(self) {
        if self.made {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Whether `file` is the file at `path` (not one removed since it was opened).
fn still_there(file: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

/// Take the lock of `dir` (see the module documentation), waiting for a
/// publish that holds it.
fn lock(dir: &Path) -> Result<Lock, PublishError> {
    let path = sibling_named(dir, ".markport-lock")?;
    loop {
        let made = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path);
        let (file, made) = match made {
            Ok(f) => (f, true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let existing = fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&path)
                    .or_else(|e| match e.kind() {
                        // Someone else's lock file in a shared directory:
                        // reading is enough to lock it.
                        io::ErrorKind::PermissionDenied => fs::File::open(&path),
                        _ => Err(e),
                    });
                match existing {
                    Ok(f) => (f, false),
                    // Removed since: make it anew.
                    Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(io_fail(&path, e)),
                }
            }
            Err(e) => return Err(io_fail(&path, e)),
        };
        file.lock().map_err(|e| io_fail(&path, e))?;
        // A run that refused the directory, or found the lock stale, may
        // have removed the file while this one waited: a lock on it would
        // exclude no one.
        if still_there(&file, &path) {
            return Ok(Lock { file, path, made });
        }
    }
}

/// Remove the lock file `path` of the tree `tree` when the tree does not
/// exist and no process holds the lock (see the module documentation).
/// This module's rules for the leftovers beside a tree.
pub(crate) const RULES: crate::leftovers::TreeRules = crate::leftovers::TreeRules {
    only_ours,
    remove_stale_lock,
};

pub(crate) fn remove_stale_lock(path: &Path, tree: &Path) {
    if fs::symlink_metadata(tree).is_ok() {
        return;
    }
    let Ok(file) = fs::OpenOptions::new().read(true).open(path) else {
        return;
    };
    if file.try_lock().is_ok() && still_there(&file, path) && fs::symlink_metadata(tree).is_err() {
        let _ = fs::remove_file(path);
    }
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
    stage_with_dirs(files, &[], dir)
}

/// [`stage`], with directories `dirs` (inside the tree, `/`-separated) made
/// whether or not a file implies them: the empty folders of a favorites tree.
pub fn stage_with_dirs(
    files: &[File],
    dirs: &[String],
    dir: &Path,
) -> Result<Staged, PublishError> {
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
    let existing = match check(&dir, files, dirs) {
        Ok(existing) => existing,
        Err(e) => {
            lock.refuse();
            return Err(e);
        }
    };
    // Under the lock no live run stages into `dir`: what is beside it with
    // the name of a run that is gone is a leftover.
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = dir.file_name().and_then(|n| n.to_str());
    crate::leftovers::clean_beside(parent, name, &RULES);
    let tmp = sibling(&dir, "tmp")?;
    // Owner-only until it has the old directory's permissions.
    let mut builder = fs::DirBuilder::new();
    #[cfg(unix)]
    if existing.is_some() {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    {
        // Made and registered at once: a signal handler's
        // remove_unfinished either runs before (and this refuses) or
        // removes it.
        let mut registry = registry();
        registry.open(&tmp)?;
        builder.create(&tmp).map_err(|e| io_fail(&tmp, e))?;
        registry.dirs.push(tmp.clone());
        crate::count(true, 1);
    }
    let staged = Staged {
        ours: existing
            .as_ref()
            .map(|e| e.ours.clone())
            .unwrap_or_default(),
        dir,
        tmp,
        lock: Some(lock.file),
    };
    if let Some(e) = &existing {
        keep_permissions(&staged.tmp, &e.meta)?;
    }
    // The manifest first: a leftover of a killed publish is then provably ours.
    let manifest = Manifest {
        markport_publish: 1,
        files: files.iter().map(|f| f.path.clone()).collect(),
    };
    let text = serde_json::to_vec_pretty(&manifest).expect("a manifest serialises");
    staged.write(|| fs::write(staged.tmp.join(MANIFEST), &text), &staged.tmp)?;
    for f in files {
        let path = staged.tmp.join(&f.path);
        staged.write(
            || {
                if let Some(p) = path.parent() {
                    fs::create_dir_all(p)?;
                }
                fs::write(&path, &f.bytes)
            },
            &path,
        )?;
    }
    for d in dirs {
        let path = staged.tmp.join(d);
        staged.write(|| fs::create_dir_all(&path), &path)?;
    }
    Ok(staged)
}

/// The directory a tree replaces, as [`check`] found it.
struct Existing {
    meta: fs::Metadata,
    /// Its manifest's top-level names.
    ours: Vec<String>,
}

/// The first segment of a `/`-separated path inside a tree.
fn top(path: &str) -> &str {
    path.split('/').next().unwrap_or(path)
}

/// Check `dir` before staging `files` and `dirs` into its place: absent,
/// empty, or a tree markport wrote, besides what the owner keeps at its top
/// ([`kept`]) and the new tree does not write.
fn check(dir: &Path, files: &[File], dirs: &[String]) -> Result<Option<Existing>, PublishError> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => Err(fail(
            dir,
            "is a symbolic link: markport publishes a site by swapping whole directories and does not follow links; give the link's target",
        )),
        Ok(m) if !m.is_dir() => Err(fail(dir, "exists and is not a directory")),
        Ok(meta) => {
            let claimed: std::collections::HashSet<&str> = files
                .iter()
                .map(|f| top(&f.path))
                .chain(dirs.iter().map(|d| top(d)))
                .collect();
            let skip = |name: &str| kept(name) && !claimed.contains(name);
            if let Err(why) = only_manifest_files(dir, &skip).map_err(|e| io_fail(dir, e))? {
                return Err(fail(
                    dir,
                    format!("refusing to replace it: {why}; only dot files and CNAME at its top are kept"),
                ));
            }
            let ours = fs::read(dir.join(MANIFEST))
                .ok()
                .and_then(|t| serde_json::from_slice::<Manifest>(&t).ok())
                .map(|m| {
                    let mut tops: Vec<String> =
                        m.files.iter().map(|f| top(f).to_owned()).collect();
                    tops.sort();
                    tops.dedup();
                    tops
                })
                .unwrap_or_default();
            Ok(Some(Existing { meta, ours }))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_fail(dir, e)),
    }
}

/// Whether the directory `path`, a staging or old sibling, holds nothing
/// but the files its manifest lists (or nothing at all: a run killed before
/// it wrote the manifest).
pub(crate) fn only_ours(path: &Path) -> bool {
    // Nothing skipped: a leftover holding what an owner keeps (`.git`, moved
    // out of an old site when a run was killed) is not removed.
    matches!(only_manifest_files(path, &|_| false), Ok(Ok(())))
}

impl Staged {
    /// Where the new site is written, until the swap.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Run `write`, one file's or directory's writing into the staging
    /// directory, unless the process is exiting; on failure the staging
    /// directory goes (when `self` is dropped).
    fn write(
        &self,
        write: impl FnOnce() -> io::Result<()>,
        path: &Path,
    ) -> Result<(), PublishError> {
        // Under the registry's lock: once a signal handler has removed the
        // staging directory, no write makes it again.
        let registry = registry();
        registry.open(path)?;
        write().map_err(|e| io_fail(path, e))
    }

    /// Step 2: make the new site the one at `dir`, and move what the owner
    /// keeps at the top of the old one ([`kept`]) into it.
    pub fn swap(mut self) -> Result<Replaced, PublishError> {
        let lock = self.lock.take().expect("a staged tree holds its lock");
        // Under the registry's lock: a signal handler then removes the
        // staging directory before the swap, or the old site after it,
        // never a directory in the middle of being renamed.
        let mut registry = registry();
        registry.open(&self.dir)?;
        if fs::symlink_metadata(&self.dir).is_err() {
            fs::rename(&self.tmp, &self.dir).map_err(|e| io_fail(&self.dir, e))?;
            registry.forget(&self.tmp);
            return Ok(Replaced {
                old: None,
                _lock: lock,
            });
        }
        let old = self.swap_in(&mut registry)?;
        if let Err(e) = move_kept(&old, &self.dir, &self.ours) {
            // What the owner keeps is still (partly) in the old tree: it
            // must not be removed with it, now or by a signal.
            registry.forget(&old);
            return Err(e);
        }
        Ok(Replaced {
            old: Some(old),
            _lock: lock,
        })
    }

    /// Put the new tree at `dir` and the old one at a temporary name, which
    /// is returned, registered (it is the old tree that goes if the
    /// process must).
    fn swap_in(&mut self, registry: &mut Registry) -> Result<PathBuf, PublishError> {
        #[cfg(target_os = "linux")]
        if exchange(&self.tmp, &self.dir).is_ok() {
            return Ok(std::mem::take(&mut self.tmp));
        }
        // No atomic exchange here: between these two renames `dir` is
        // missing for a moment; the old site is whole at its new name.
        let old = sibling(&self.dir, "old")?;
        fs::rename(&self.dir, &old).map_err(|e| io_fail(&self.dir, e))?;
        if let Err(e) = fs::rename(&self.tmp, &self.dir) {
            let _ = fs::rename(&old, &self.dir);
            return Err(io_fail(&self.dir, e));
        }
        registry.forget(&self.tmp);
        registry.dirs.push(old.clone());
        crate::count(true, 1);
        Ok(old)
    }
}

/// Move what the owner keeps ([`kept`]) from the old tree at `old` into the
/// new one at `dir`, but the names of the old manifest (`ours`): each a
/// rename between siblings, so `.git` moves whole, whatever it holds.
fn move_kept(old: &Path, dir: &Path, ours: &[String]) -> Result<(), PublishError> {
    let stuck = |name: &std::ffi::OsStr, why: String| {
        fail(
            dir,
            format!(
                "the new site is in place, but {} of the old one could not be moved into it ({why}); it is in {}, which is left as it is: move it back",
                Path::new(name).display(),
                old.display()
            ),
        )
    };
    for e in fs::read_dir(old).map_err(|e| io_fail(old, e))? {
        let e = e.map_err(|e| io_fail(old, e))?;
        let name = e.file_name();
        // Lossy as `list_files` reads it, so what the check let stay is
        // exactly what moves.
        let shown = name.to_string_lossy();
        if !kept(&shown) || ours.iter().any(|o| *o == shown) {
            continue;
        }
        let to = dir.join(&name);
        if fs::symlink_metadata(&to).is_ok() {
            return Err(stuck(&name, "the new site has one".to_owned()));
        }
        fs::rename(e.path(), &to).map_err(|err| stuck(&name, err.to_string()))?;
    }
    Ok(())
}

impl Drop for Staged {
    fn drop(&mut self) {
        let mut registry = registry();
        if registry.forget(&self.tmp) {
            let _ = fs::remove_dir_all(&self.tmp);
        }
    }
}

impl Replaced {
    /// Where the old site is until [`Replaced::clean`].
    pub fn path(&self) -> Option<&Path> {
        self.old.as_deref()
    }

    /// Step 3: remove the old site (checked to be only its manifest's
    /// files before it was replaced).
    pub fn clean(mut self) -> Result<(), PublishError> {
        match self.old.take() {
            Some(old) => {
                let removed = fs::remove_dir_all(&old).map_err(|e| io_fail(&old, e));
                registry().forget(&old);
                removed
            }
            None => Ok(()),
        }
    }
}

impl Drop for Replaced {
    fn drop(&mut self) {
        if let Some(old) = self.old.take() {
            let mut registry = registry();
            if registry.forget(&old) {
                let _ = fs::remove_dir_all(&old);
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut n: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    }

    fn one() -> Vec<File> {
        vec![File {
            path: "a/index.html".into(),
            bytes: b"<p>a</p>".to_vec(),
        }]
    }

    #[test]
    fn a_refused_directory_leaves_no_lock_file_it_made() {
        let tmp = tempfile::tempdir().unwrap();
        // A file where the tree would go, and a directory of someone's own.
        fs::write(tmp.path().join("file"), b"x").unwrap();
        fs::create_dir(tmp.path().join("mine")).unwrap();
        fs::write(tmp.path().join("mine/notes.txt"), b"x").unwrap();
        for refused in ["file", "mine"] {
            let e = stage(&one(), &tmp.path().join(refused)).unwrap_err();
            assert!(
                e.message.contains("not a directory") || e.message.contains("refusing"),
                "{e}"
            );
        }
        assert_eq!(names(tmp.path()), ["file", "mine"]);
        // A lock file that was there before stays: another run may hold it.
        fs::write(tmp.path().join("mine.markport-lock"), b"").unwrap();
        stage(&one(), &tmp.path().join("mine")).unwrap_err();
        assert_eq!(names(tmp.path()), ["file", "mine", "mine.markport-lock"]);
    }

    #[test]
    fn a_dropped_stage_and_an_unclean_replacement_leave_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("site");
        let staged = stage(&one(), &dir).unwrap();
        assert!(staged.path().join("a/index.html").is_file());
        drop(staged);
        assert_eq!(names(tmp.path()), ["site.markport-lock"]);
        publish(&one(), &dir).unwrap();
        let old = stage(&one(), &dir).unwrap().swap().unwrap();
        let at = old.path().unwrap().to_owned();
        assert!(at.join("a/index.html").is_file());
        drop(old);
        assert_eq!(names(tmp.path()), ["site", "site.markport-lock"]);
        assert!(dir.join("a/index.html").is_file());
    }

    #[test]
    fn empty_directories_are_staged_too() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("tree");
        let staged = stage_with_dirs(&one(), &["b/c".to_owned()], &dir).unwrap();
        staged.swap().unwrap().clean().unwrap();
        assert!(dir.join("b/c").is_dir());
        assert!(dir.join("a/index.html").is_file());
    }

    #[cfg(unix)]
    #[test]
    fn a_dead_runs_staging_beside_the_tree_goes_and_a_live_ones_stays() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("site");
        let dead = crate::leftovers::dead_pid();
        // What `kill -9` left while staging: the manifest, part of its files.
        let left = tmp.path().join(format!("site.markport-tmp-{dead}-0"));
        fs::create_dir_all(left.join("a")).unwrap();
        fs::write(
            left.join(MANIFEST),
            br#"{"markport_publish":1,"files":["a/index.html","b.html"]}"#,
        )
        .unwrap();
        fs::write(left.join("a/index.html"), b"half").unwrap();
        // A name that could be this process's own staging (it is alive).
        let live = tmp
            .path()
            .join(format!("site.markport-tmp-{}-999", std::process::id()));
        fs::create_dir(&live).unwrap();
        publish(&one(), &dir).unwrap();
        assert_eq!(
            names(tmp.path()),
            [
                "site".to_owned(),
                "site.markport-lock".to_owned(),
                format!("site.markport-tmp-{}-999", std::process::id()),
            ]
        );
    }

    fn file(path: &str) -> File {
        File {
            path: path.into(),
            bytes: path.as_bytes().to_vec(),
        }
    }

    /// A dot name the new tree writes itself is not the owner's to keep:
    /// a foreign one there is refused (so the swap never deletes it), and
    /// one markport wrote before and no longer writes goes with the old tree.
    #[test]
    fn a_dot_name_the_tree_writes_is_not_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("tree");
        fs::create_dir_all(dir.join(".well-known")).unwrap();
        fs::write(dir.join(".well-known/security.txt"), b"mine").unwrap();
        let claims = [file("index.html"), file(".well-known/other.txt")];
        let e = publish(&claims, &dir).unwrap_err();
        assert!(e.message.contains(".well-known/security.txt"), "{e}");
        assert_eq!(
            fs::read(dir.join(".well-known/security.txt")).unwrap(),
            b"mine"
        );
        // Not claimed: kept, and the tree is written around it.
        publish(&[file("index.html"), file(".hidden/a")], &dir).unwrap();
        assert_eq!(
            fs::read(dir.join(".well-known/security.txt")).unwrap(),
            b"mine"
        );
        assert!(dir.join(".hidden/a").is_file());
        // `.hidden` was markport's: gone once no longer written.
        publish(&one(), &dir).unwrap();
        assert!(!dir.join(".hidden").exists() && !dir.join("index.html").exists());
        assert!(dir.join("a/index.html").is_file());
        assert_eq!(
            fs::read(dir.join(".well-known/security.txt")).unwrap(),
            b"mine"
        );
    }

    /// A leftover of a dead run that holds what an owner keeps (a run
    /// killed between the swap and the move of `.git`) is not removed.
    #[cfg(unix)]
    #[test]
    fn a_leftover_holding_an_owners_git_stays() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("site");
        let dead = crate::leftovers::dead_pid();
        let left = tmp.path().join(format!("site.markport-tmp-{dead}-0"));
        fs::create_dir_all(left.join(".git")).unwrap();
        fs::write(left.join(".git/HEAD"), b"ref: refs/heads/main\n").unwrap();
        fs::write(left.join(MANIFEST), br#"{"markport_publish":1,"files":[]}"#).unwrap();
        publish(&one(), &dir).unwrap();
        assert!(left.join(".git/HEAD").is_file());
    }
}
