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
    #[cfg(unix)]
    file: fs::File,
    /// Without descriptor-relative opening, names are opened by path (a
    /// tree that changes while it is read may then mislead).
    #[cfg(not(unix))]
    path: std::path::PathBuf,
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
        sys::open_dir(path)
    }

    /// Open `name` in this directory without following a link, and say
    /// what it is.
    pub(crate) fn open_at(&self, name: &OsStr) -> io::Result<Opened> {
        sys::open_at(self, name)
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
        sys::list(self)
    }
}

#[cfg(unix)]
mod sys {
    use super::*;
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd};
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::{FileTypeExt, MetadataExt};

    fn identity(meta: &fs::Metadata) -> (u64, u64) {
        (meta.dev(), meta.ino())
    }

    pub(super) fn open_dir(path: &Path) -> io::Result<(Dir, (u64, u64))> {
        let file = fs::File::open(path)?;
        let meta = file.metadata()?;
        if !meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ));
        }
        Ok((Dir { file }, identity(&meta)))
    }

    pub(super) fn open_at(dir: &Dir, name: &OsStr) -> io::Result<Opened> {
        let c = CString::new(name.as_bytes())?;
        // SAFETY: `dir.file` is an open descriptor and `c` a NUL-terminated
        // string, both alive across the call; openat takes no other pointer.
        let fd = unsafe {
            libc::openat(
                dir.file.as_raw_fd(),
                c.as_ptr(),
                libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            let e = io::Error::last_os_error();
            return match e.raw_os_error() {
                Some(libc::ENOENT) => Ok(Opened::Gone),
                // O_NOFOLLOW on a link: ELOOP (Linux, macOS), EMLINK (FreeBSD).
                Some(libc::ELOOP) | Some(libc::EMLINK) => Ok(Opened::Link),
                // A socket cannot be opened.
                Some(libc::ENXIO) => Ok(Opened::Other("a socket")),
                _ => Err(e),
            };
        }
        // SAFETY: openat returned a new descriptor that nothing else owns.
        let file = unsafe { fs::File::from_raw_fd(fd) };
        let meta = file.metadata()?;
        let kind = meta.file_type();
        Ok(if kind.is_file() {
            Opened::File(file)
        } else if kind.is_dir() {
            Opened::Dir(Dir { file }, identity(&meta))
        } else if kind.is_fifo() {
            Opened::Other("a FIFO")
        } else if kind.is_socket() {
            Opened::Other("a socket")
        } else if kind.is_char_device() || kind.is_block_device() {
            Opened::Other("a device")
        } else {
            Opened::Other("not a file or a directory")
        })
    }

    pub(super) fn list(dir: &Dir) -> io::Result<Vec<(OsString, Listed)>> {
        // A descriptor of its own for the stream, which closes it.
        let own = dir.file.try_clone()?;
        // SAFETY: `own` is an open directory descriptor whose ownership
        // passes to the stream (closedir closes it).
        let stream = unsafe { libc::fdopendir(own.as_raw_fd()) };
        if stream.is_null() {
            return Err(io::Error::last_os_error());
        }
        let _ = own.into_raw_fd();
        // The duplicate shares its offset with `dir`: start from the top
        // however often the directory was listed.
        // SAFETY: `stream` is the open stream made above.
        unsafe { libc::rewinddir(stream) };
        let mut out = Vec::new();
        let result = loop {
            clear_errno();
            // SAFETY: `stream` is open.
            let entry = unsafe { libc::readdir(stream) };
            if entry.is_null() {
                // The end of the listing leaves errno as it was (0); an
                // error sets it.
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
                libc::DT_UNKNOWN => match open_at(dir, &name) {
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

    /// Set errno to 0, so that what readdir leaves in it tells an error
    /// from the end.
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
}

#[cfg(not(unix))]
mod sys {
    use super::*;

    /// No inode numbers to tell directories apart: the canonical path.
    fn identity(path: &Path) -> io::Result<(u64, u64)> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        fs::canonicalize(path)?.hash(&mut h);
        Ok((0, h.finish()))
    }

    pub(super) fn open_dir(path: &Path) -> io::Result<(Dir, (u64, u64))> {
        if !fs::metadata(path)?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ));
        }
        let id = identity(path)?;
        Ok((
            Dir {
                path: path.to_owned(),
            },
            id,
        ))
    }

    pub(super) fn open_at(dir: &Dir, name: &OsStr) -> io::Result<Opened> {
        let path = dir.path.join(name);
        let meta = match fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Opened::Gone),
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            Ok(Opened::Link)
        } else if kind.is_dir() {
            let id = identity(&path)?;
            Ok(Opened::Dir(Dir { path }, id))
        } else if kind.is_file() {
            Ok(Opened::File(fs::File::open(&path)?))
        } else {
            Ok(Opened::Other("not a file or a directory"))
        }
    }

    pub(super) fn list(dir: &Dir) -> io::Result<Vec<(OsString, Listed)>> {
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
}
