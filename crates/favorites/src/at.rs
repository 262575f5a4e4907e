//! Opening a tree's entries relative to their directory's open descriptor,
//! never following a link, and looking at what was opened: what the walk
//! checks is what it reads, however the tree changes meanwhile.
//!
//! Each entry is opened with `openat(dir, name, O_NOFOLLOW | O_NONBLOCK |
//! O_CLOEXEC)` and classified by `fstat` of the descriptor: a regular file
//! (read), a directory (walked), or anything else (a FIFO, a socket, a
//! device: skipped; with `O_NONBLOCK` opening a FIFO never waits for a
//! writer). A symbolic link fails to open (`ELOOP`) and is the walk's to
//! resolve; a name that is gone since the listing is [`Opened::Gone`].

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::Path;

/// An open directory.
#[derive(Debug)]
pub(crate) struct Dir {
    file: fs::File,
    /// Where it is: without descriptor-relative opening, names are opened
    /// by path (a tree that changes while it is read may then mislead).
    #[cfg(not(unix))]
    path: std::path::PathBuf,
}

impl Dir {
    fn new(file: fs::File, path: &Path) -> Dir {
        #[cfg(unix)]
        let _ = path;
        Dir {
            file,
            #[cfg(not(unix))]
            path: path.to_owned(),
        }
    }
}

/// What a name of a directory turned out to be, once opened.
#[derive(Debug)]
pub(crate) enum Opened {
    /// A regular file, open for reading.
    File(fs::File),
    /// A directory, open, and its identity (device, inode).
    Dir(Dir, (u64, u64)),
    /// A symbolic link (not opened).
    Link,
    /// Anything else, said in words ("a FIFO").
    Other(&'static str),
    /// No entry of that name any more.
    Gone,
}

/// How an entry of a listing looks before it is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Listed {
    File,
    Dir,
    Link,
    Other,
}

impl Dir {
    /// Open the directory at `path` (a link to it is followed: the user
    /// named it), and its identity.
    pub(crate) fn open(path: &Path) -> io::Result<(Dir, (u64, u64))> {
        let file = fs::File::open(path)?;
        let meta = file.metadata()?;
        if !meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ));
        }
        Ok((Dir::new(file, path), identity(&meta)))
    }

    /// Open `name` in this directory without following a link, and say
    /// what it is.
    pub(crate) fn open_at(&self, name: &OsStr) -> io::Result<Opened> {
        let file = match open_at(self, name) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Opened::Gone),
            Err(e) if is_link_error(&e) => return Ok(Opened::Link),
            // A socket cannot be opened.
            Err(e) if e.raw_os_error() == Some(ENXIO) => return Ok(Opened::Other("a socket")),
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        let kind = meta.file_type();
        Ok(if kind.is_file() {
            Opened::File(file)
        } else if kind.is_dir() {
            #[cfg(unix)]
            let at = Path::new(name);
            #[cfg(not(unix))]
            let at = &self.path.join(name);
            Opened::Dir(Dir::new(file, at), identity(&meta))
        } else {
            Opened::Other(describe(&kind))
        })
    }

    /// The directory that holds this one (`..`), and its identity.
    pub(crate) fn parent(&self) -> io::Result<(Dir, (u64, u64))> {
        match self.open_at(OsStr::new(".."))? {
            Opened::Dir(dir, id) => Ok((dir, id)),
            _ => Err(io::Error::new(
                io::ErrorKind::NotFound,
                "the directory above is gone",
            )),
        }
    }

    /// The names in this directory (not `.` and `..`) and how each looks.
    pub(crate) fn list(&self) -> io::Result<Vec<(OsString, Listed)>> {
        list(self)
    }
}

fn identity(meta: &fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        // No inode numbers: a directory is told apart by nothing stable,
        // and loops are found by the depth limit of paths instead.
        let _ = meta;
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        (0, NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

fn describe(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    let _ = kind;
    "not a file or a directory"
}

#[cfg(unix)]
const ENXIO: i32 = libc::ENXIO;
#[cfg(not(unix))]
const ENXIO: i32 = -1;

/// Whether opening failed because the name is a symbolic link (`O_NOFOLLOW`:
/// `ELOOP` on Linux and macOS, `EMLINK` on FreeBSD, `EFTYPE` on NetBSD).
fn is_link_error(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::ELOOP) | Some(libc::EMLINK))
    }
    #[cfg(not(unix))]
    {
        e.get_ref().is_some_and(|inner| inner.to_string() == LINK)
    }
}

#[cfg(unix)]
fn open_at(dir: &Dir, name: &OsStr) -> io::Result<fs::File> {
    let dir = &dir.file;
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::os::unix::ffi::OsStrExt;
    let c = CString::new(name.as_bytes())?;
    // SAFETY: `dir` is an open descriptor and `c` a NUL-terminated string,
    // both alive across the call; openat takes no other pointer.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            c.as_ptr(),
            libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: openat returned a new descriptor that nothing else owns.
    Ok(unsafe { fs::File::from_raw_fd(fd) })
}

#[cfg(not(unix))]
fn open_at(dir: &Dir, name: &OsStr) -> io::Result<fs::File> {
    let path = dir.path.join(name);
    if fs::symlink_metadata(&path)?.file_type().is_symlink() {
        return Err(io::Error::other(LINK));
    }
    fs::File::open(path)
}

/// The error that says a name is a link, where no errno says it.
#[cfg(not(unix))]
const LINK: &str = "a symbolic link";

#[cfg(unix)]
fn list(dir: &Dir) -> io::Result<Vec<(OsString, Listed)>> {
    use std::os::fd::{AsRawFd, IntoRawFd};
    use std::os::unix::ffi::OsStrExt;
    // A descriptor of its own for the stream, which closes it: the listing
    // starts at the beginning however often the directory is listed.
    let own = dir.file.try_clone()?;
    // SAFETY: `own` is an open directory descriptor whose ownership passes
    // to the stream (closedir closes it).
    let stream = unsafe { libc::fdopendir(own.as_raw_fd()) };
    if stream.is_null() {
        return Err(io::Error::last_os_error());
    }
    let _ = own.into_raw_fd();
    // The stream's own offset may be shared with `dir` (a duplicate
    // descriptor): start from the beginning.
    // SAFETY: `stream` is the open stream made above.
    unsafe { libc::rewinddir(stream) };
    let mut out = Vec::new();
    let result = loop {
        clear_errno();
        // SAFETY: `stream` is open.
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            // The end of the listing leaves errno as it was (0); an error
            // sets it.
            let e = io::Error::last_os_error();
            break match e.raw_os_error() {
                Some(0) | None => Ok(()),
                Some(_) => Err(e),
            };
        }
        // SAFETY: readdir returned a valid entry, alive until the next
        // readdir or closedir on this stream; its name is NUL-terminated.
        let (name, kind) = unsafe {
            let name = std::ffi::CStr::from_ptr((*entry).d_name.as_ptr());
            (name.to_bytes(), (*entry).d_type)
        };
        if name == b"." || name == b".." {
            continue;
        }
        let name = OsStr::from_bytes(name).to_owned();
        let listed = match kind {
            libc::DT_REG => Listed::File,
            libc::DT_DIR => Listed::Dir,
            libc::DT_LNK => Listed::Link,
            libc::DT_UNKNOWN => match dir.open_at(&name) {
                // The file system does not say: open it to see.
                Ok(Opened::File(_)) => Listed::File,
                Ok(Opened::Dir(..)) => Listed::Dir,
                Ok(Opened::Link) => Listed::Link,
                Ok(Opened::Gone) => continue,
                Ok(Opened::Other(_)) | Err(_) => Listed::Other,
            },
            _ => Listed::Other,
        };
        out.push((name, listed));
    };
    // SAFETY: `stream` is open and closed once, here.
    unsafe { libc::closedir(stream) };
    result.map(|()| out)
}

/// Set errno to 0, so that what readdir leaves in it tells an error from
/// the end.
#[cfg(unix)]
fn clear_errno() {
    // SAFETY: each returns the calling thread's errno, always valid.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    unsafe {
        *libc::__errno_location() = 0;
    }
    #[cfg(any(
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "dragonfly"
    ))]
    unsafe {
        *libc::__error() = 0;
    }
}

#[cfg(not(unix))]
fn list(dir: &Dir) -> io::Result<Vec<(OsString, Listed)>> {
    let mut out = Vec::new();
    for e in fs::read_dir(&dir.path)? {
        let e = e?;
        let kind = e.file_type()?;
        let listed = if kind.is_symlink() {
            Listed::Link
        } else if kind.is_dir() {
            Listed::Dir
        } else if kind.is_file() {
            Listed::File
        } else {
            Listed::Other
        };
        out.push((e.file_name(), listed));
    }
    Ok(out)
}
