//! Writing an output file without harming what is there: the one writer
//! of every file markport replaces (the facade's `markport::output`, the
//! desktop store's updates).
//!
//! The rules are those of the Unix tools people trust (`cp`, `sort -o`,
//! `rsync`), written down in `docs/output.md`:
//!
//! - A regular file, or a path that does not exist yet, is replaced
//!   atomically: the output is written to a temporary file beside it, synced,
//!   and renamed over it only when complete, keeping the old file's mode (and,
//!   where the process may, its owner). Until then the old file is untouched;
//!   an unfinished [`OutputFile`] removes its temporary file when dropped.
//! - A symbolic link is followed: the file it points to is replaced and the
//!   link stays a link. A dangling link creates the file it names, as `>` does.
//! - Anything else (a character device such as `/dev/null`, a FIFO, a path
//!   that names an open descriptor such as `/dev/stdout` or `/proc/self/fd/1`)
//!   is written through in place and never renamed over: renaming a file over
//!   `/dev/null` as root breaks the machine, and over a FIFO starves its reader.
//! - A target the user could not write with `>` (a read-only file, for a user
//!   who is not root) is refused before anything is written.
//!
//! The temporary file is named `.NAME.markport-PID-XXXXXX.tmp` beside the
//! target, so the one left by `kill -9`, an abort or a power cut is
//! recognisable: the next output written into the same directory removes it
//! when it is this user's and the process `PID` is gone. A program that
//! handles signals calls [`remove_unfinished`] before it exits, as the
//! `markport` command does.
//!
//! ```
//! use std::io::Write;
//! use markport_files::output::OutputFile;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let target = dir.path().join("bookmarks.xbel");
//! let mut out = OutputFile::create(&target).unwrap();
//! out.write_all(b"<xbel version=\"1.0\"/>\n").unwrap();
//! assert!(!target.exists(), "nothing is visible before commit");
//! out.commit().unwrap();
//! assert_eq!(std::fs::read(&target).unwrap(), b"<xbel version=\"1.0\"/>\n");
//! ```

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files that are written but not yet renamed into place, so a
/// signal handler can remove them ([`remove_unfinished`]), and whether it
/// has (after which no temporary file is made: the process is exiting).
struct Unfinished {
    files: Vec<PathBuf>,
    closed: bool,
}

static UNFINISHED: Mutex<Unfinished> = Mutex::new(Unfinished {
    files: Vec::new(),
    closed: false,
});

fn unfinished() -> std::sync::MutexGuard<'static, Unfinished> {
    UNFINISHED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remove every temporary file an [`OutputFile`] of this process has not yet
/// committed, and make no new one. Meant for a signal handler running in a
/// normal thread (it takes a lock, so not from inside a raw signal handler).
pub fn remove_unfinished() {
    let mut list = unfinished();
    list.closed = true;
    crate::count(false, list.files.len());
    for path in list.files.drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

fn forget_unfinished(path: &Path) {
    let mut list = unfinished();
    if let Some(i) = list.files.iter().position(|p| p == path) {
        list.files.swap_remove(i);
        crate::count(false, 1);
    }
}

/// How an output reaches its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Written to a temporary file and renamed over the destination.
    Replace,
    /// Written in place: a device, a FIFO, an open descriptor.
    Through,
}

/// Why an output cannot be written; the message names the path.
#[derive(Debug)]
pub struct OutputError {
    /// The path as the caller gave it.
    pub path: PathBuf,
    /// What went wrong, for people.
    pub message: String,
    /// The system error behind it, if any.
    pub source: Option<io::Error>,
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

fn error(path: &Path, message: impl Into<String>, source: Option<io::Error>) -> OutputError {
    OutputError {
        path: path.to_path_buf(),
        message: message.into(),
        source,
    }
}

/// Where a path leads once links are followed, and how to write there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination {
    /// The file that will hold the output (links followed).
    pub path: PathBuf,
    /// Replace it atomically, or write through.
    pub mode: Mode,
    /// Whether it exists already.
    pub exists: bool,
}

/// Work out where `path` leads and how it must be written, without writing.
pub fn destination(path: &Path) -> Result<Destination, OutputError> {
    if names_descriptor(path) {
        return Ok(Destination {
            path: path.to_path_buf(),
            mode: Mode::Through,
            exists: true,
        });
    }
    let final_path = follow_links(path)?;
    if final_path != path && names_descriptor(&final_path) {
        return Ok(Destination {
            path: path.to_path_buf(),
            mode: Mode::Through,
            exists: true,
        });
    }
    match std::fs::metadata(&final_path) {
        Ok(m) if m.is_file() => Ok(Destination {
            path: final_path,
            mode: Mode::Replace,
            exists: true,
        }),
        Ok(m) if m.is_dir() => Err(error(path, "is a directory", None)),
        Ok(_) => Ok(Destination {
            path: final_path,
            mode: Mode::Through,
            exists: true,
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Destination {
            path: final_path,
            mode: Mode::Replace,
            exists: false,
        }),
        Err(e) => Err(error(path, format!("cannot look at it: {e}"), Some(e))),
    }
}

/// Paths that name an already open descriptor: opening them anew is the
/// only right way to write there, and they must never be renamed over.
fn names_descriptor(path: &Path) -> bool {
    let s = path.as_os_str().as_encoded_bytes();
    s.starts_with(b"/dev/fd/")
        || matches!(s, b"/dev/stdout" | b"/dev/stderr" | b"/dev/stdin")
        || (s.starts_with(b"/proc/") && s.windows(4).any(|w| w == b"/fd/"))
}

/// Follow symbolic links by hand (at most 40, as the kernel does), so that a
/// dangling link leads to the file it would create.
fn follow_links(path: &Path) -> Result<PathBuf, OutputError> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)
                    .map_err(|e| error(path, format!("cannot read the link: {e}"), Some(e)))?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
                if names_descriptor(&current) {
                    return Ok(current);
                }
            }
            _ => return Ok(current),
        }
    }
    Err(error(path, "too many levels of symbolic links", None))
}

/// An output being written: [`Write`] into it, then [`commit`](Self::commit).
/// Dropped without a commit, it leaves the destination as it was (for a
/// replaced file) and removes its temporary file.
pub struct OutputFile {
    sink: Sink,
    destination: Destination,
}

enum Sink {
    Temp(BufWriter<tempfile::NamedTempFile>, Registered),
    Through(BufWriter<File>),
}

/// A temporary file's place in [`UNFINISHED`], left when dropped
/// (`NamedTempFile` removes the file itself).
struct Registered(PathBuf);

impl Drop for Registered {
    fn drop(&mut self) {
        forget_unfinished(&self.0);
    }
}

impl OutputFile {
    /// Prepare to write `path` under the rules of this module: follows links,
    /// refuses a directory or a file the user may not write, and creates the
    /// temporary file (or opens the device) now, so that every refusal comes
    /// before anything is written.
    pub fn create(path: &Path) -> Result<OutputFile, OutputError> {
        let destination = destination(path)?;
        let sink = match destination.mode {
            Mode::Through => {
                let file = OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(&destination.path)
                    .map_err(|e| error(path, format!("cannot write: {e}"), Some(e)))?;
                Sink::Through(BufWriter::with_capacity(1 << 16, file))
            }
            Mode::Replace => {
                // Made and registered at once: a signal handler's
                // remove_unfinished runs before (and this refuses) or
                // removes it.
                let mut list = unfinished();
                if list.closed {
                    return Err(error(path, "not written: the process is exiting", None));
                }
                let temp = temp_beside(path, &destination)?;
                list.files.push(temp.path().to_path_buf());
                crate::count(true, 1);
                drop(list);
                let registered = Registered(temp.path().to_path_buf());
                Sink::Temp(BufWriter::with_capacity(1 << 16, temp), registered)
            }
        };
        Ok(OutputFile { sink, destination })
    }

    /// Where the output goes, links followed.
    pub fn destination(&self) -> &Destination {
        &self.destination
    }

    /// Finish: flush, and for a replaced file sync and rename it into place.
    pub fn commit(self) -> io::Result<()> {
        match self.sink {
            Sink::Through(mut w) => w.flush(),
            Sink::Temp(w, _registered) => {
                let temp = w.into_inner().map_err(|e| e.into_error())?;
                temp.as_file().sync_all()?;
                temp.persist(&self.destination.path)
                    .map(drop)
                    .map_err(|e| e.error)
            }
        }
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Temp(w, _) => w.write(buf),
            Sink::Through(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Temp(w, _) => w.write_all(buf),
            Sink::Through(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Temp(w, _) => w.flush(),
            Sink::Through(w) => w.flush(),
        }
    }
}

/// The temporary file that will replace `dest`, in the same directory (so
/// the rename is atomic), with the permissions the result must have.
fn temp_beside(asked: &Path, dest: &Destination) -> Result<tempfile::NamedTempFile, OutputError> {
    let existing = if dest.exists {
        // What `>` would check: may this user open the file for writing?
        // Opening without truncation changes nothing.
        OpenOptions::new()
            .write(true)
            .open(&dest.path)
            .map_err(|e| error(asked, format!("cannot write: {e}"), Some(e)))?;
        std::fs::metadata(&dest.path).ok()
    } else {
        None
    };
    let dir = match dest.path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // What runs now gone left here goes first (see leftovers.rs).
    crate::leftovers::clean_beside(&dir, None);
    let mut prefix = OsString::from(".");
    prefix.push(dest.path.file_name().unwrap_or_default());
    prefix.push(format!(".markport-{}-", std::process::id()));
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // A temporary file is private (0600); the output must get the
    // permissions of the file it replaces, or a new file's usual ones.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = existing
            .as_ref()
            .map_or(0o666, |m| m.permissions().mode() & 0o7777);
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    if !dir.is_dir() {
        return Err(error(
            asked,
            format!("cannot write: no directory {}", dir.display()),
            None,
        ));
    }
    let temp = builder.tempfile_in(&dir).map_err(|e| {
        // tempfile's message names its random path; the kind is what matters.
        let kind = io::Error::from(e.kind());
        error(
            asked,
            format!(
                "cannot create a temporary file in {} to replace it atomically: {kind}",
                dir.display()
            ),
            Some(e),
        )
    })?;
    #[cfg(unix)]
    if let Some(m) = &existing {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        // Keep the owner where the process may (root replacing a user's
        // file); elsewhere the new file is the writer's, as with `cp`.
        let _ = std::os::unix::fs::fchown(temp.as_file(), Some(m.uid()), Some(m.gid()));
        // The umask applied at creation; the old mode is kept exactly.
        let _ = temp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(m.mode() & 0o7777));
    }
    Ok(temp)
}

/// Whether `a` and `b` lead to the same file (links followed; for paths
/// that do not exist yet, the same directory and name).
pub fn same_destination(a: &Path, b: &Path) -> bool {
    let (Ok(x), Ok(y)) = (destination(a), destination(b)) else {
        return false;
    };
    #[cfg(unix)]
    if let (Ok(ma), Ok(mb)) = (std::fs::metadata(&x.path), std::fs::metadata(&y.path)) {
        use std::os::unix::fs::MetadataExt;
        return ma.dev() == mb.dev() && ma.ino() == mb.ino();
    }
    normalise(&x.path) == normalise(&y.path)
}

fn normalise(p: &Path) -> PathBuf {
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (dir.canonicalize(), p.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => p.to_path_buf(),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut out = OutputFile::create(path).map_err(io::Error::other)?;
        out.write_all(bytes)?;
        out.commit()
    }

    #[test]
    fn a_symlink_is_followed_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.xbel");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.xbel");
        symlink("real.xbel", &link).unwrap();
        write(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
    }

    #[test]
    fn a_dangling_link_creates_what_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.xbel");
        symlink("made.xbel", &link).unwrap();
        write(&link, b"new").unwrap();
        assert_eq!(std::fs::read(dir.path().join("made.xbel")).unwrap(), b"new");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn a_replaced_file_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("out.html");
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&f, b"new").unwrap();
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn devices_and_descriptors_are_written_through() {
        assert_eq!(
            destination(Path::new("/dev/null")).unwrap().mode,
            Mode::Through
        );
        assert_eq!(
            destination(Path::new("/dev/stdout")).unwrap().mode,
            Mode::Through
        );
        assert_eq!(
            destination(Path::new("/proc/self/fd/1")).unwrap().mode,
            Mode::Through
        );
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = OutputFile::create(dir.path()).err().unwrap();
        assert!(e.message.contains("directory"), "{e}");
    }

    #[test]
    fn an_uncommitted_output_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("out.xbel");
        std::fs::write(&f, "old").unwrap();
        let mut out = OutputFile::create(&f).unwrap();
        out.write_all(b"half").unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        let ours = || {
            UNFINISHED
                .lock()
                .unwrap()
                .files
                .iter()
                .filter(|p| p.starts_with(dir.path()))
                .count()
        };
        assert_eq!(ours(), 1);
        drop(out);
        assert_eq!(ours(), 0);
        assert_eq!(std::fs::read(&f).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn same_destination_sees_through_links_and_new_paths() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("a.xbel");
        std::fs::write(&real, "x").unwrap();
        let link = dir.path().join("b.xbel");
        symlink(&real, &link).unwrap();
        assert!(same_destination(&real, &link));
        let new = dir.path().join("c.json");
        let via_dot = dir.path().join(".").join("c.json");
        assert!(same_destination(&new, &via_dot));
        assert!(!same_destination(&real, &new));
    }
}
