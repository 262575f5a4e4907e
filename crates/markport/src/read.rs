//! The one door to read a collection: [`read`] takes a path (a file, or a
//! directory of link files), bytes or standard input, chooses the format
//! once, and decides once whether the format's path reader or its bytes
//! reader runs. [`read_bytes`] is the one low-level reader below it, for
//! bytes whose format is already known.
//!
//! Every command that reads a collection goes through [`read`] (convert,
//! merge, publish, roundtrip, info, diff, check, conformance), so a live
//! places.sqlite is read with its `-wal` by all of them alike.

use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

use markport_model::{Diagnostic, Document, Error, ErrorKind, Parsed, ReadOptions};

use crate::plan::{JobError, Stage};
use crate::registry::Format;
use crate::resolve::{resolve_format, Chosen, Resolved};

/// What to read. Owned, so the bytes can be dropped as soon as they are read.
#[derive(Debug)]
pub enum Input {
    /// A file or a directory, read by its path: the format's path reader
    /// when it has one (a database whose pending changes live beside it, a
    /// tree of link files), else its bytes. The extension helps choose the
    /// format when the content does not.
    Path(PathBuf),
    /// Bytes already in memory (a download, a test).
    Bytes(Vec<u8>),
    /// This process's standard input, read to its end.
    Stdin,
}

impl From<PathBuf> for Input {
    fn from(path: PathBuf) -> Input {
        Input::Path(path)
    }
}

impl From<&Path> for Input {
    fn from(path: &Path) -> Input {
        Input::Path(path.to_path_buf())
    }
}

impl From<&PathBuf> for Input {
    fn from(path: &PathBuf) -> Input {
        Input::Path(path.clone())
    }
}

impl From<&str> for Input {
    /// A path, as `std::fs::read` takes one (bytes are `&[u8]`).
    fn from(path: &str) -> Input {
        Input::Path(PathBuf::from(path))
    }
}

impl From<String> for Input {
    /// A path, as `std::fs::read` takes one (bytes are `Vec<u8>`).
    fn from(path: String) -> Input {
        Input::Path(PathBuf::from(path))
    }
}

impl From<Vec<u8>> for Input {
    fn from(bytes: Vec<u8>) -> Input {
        Input::Bytes(bytes)
    }
}

impl From<&[u8]> for Input {
    /// The bytes are copied: [`read_bytes`] reads borrowed bytes whose
    /// format is known without a copy.
    fn from(bytes: &[u8]) -> Input {
        Input::Bytes(bytes.to_vec())
    }
}

/// A collection read: the format it was read as (and why), the document
/// and what the reader noticed.
#[derive(Debug)]
#[non_exhaustive]
pub struct Reading {
    /// The format, and how it was chosen.
    pub from: Resolved,
    /// The collection.
    pub document: Document,
    /// What the reader noticed, each with its position.
    pub diagnostics: Vec<Diagnostic>,
}

/// Read `input` into the model: the format is `from` when given, else
/// detected from the content, else taken from a path's extension; a file is
/// read by its format's path reader when it has one and is a regular file
/// (places.sqlite with its `-wal`), a directory by a directory format's
/// (a favorites tree), anything else by its bytes, which are dropped once
/// read.
///
/// ```
/// use markport::{read, Input, ReadOptions};
///
/// let xbel = br#"<xbel version="1.0"><bookmark href="https://example.org/"/></xbel>"#;
/// let got = read(Input::Bytes(xbel.to_vec()), None, &ReadOptions::default()).unwrap();
/// assert_eq!((got.from.format.name, got.document.census().bookmarks), ("xbel", 1));
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("links.txt");
/// std::fs::write(&path, xbel).unwrap();
/// let got = read(path.as_path(), None, &ReadOptions::default()).unwrap();
/// assert_eq!(got.from.format.name, "xbel");
///
/// let missing = read(dir.path().join("nope.xbel"), None, &ReadOptions::default());
/// assert_eq!(missing.unwrap_err().error.kind, markport::ErrorKind::Io);
/// ```
pub fn read(
    input: impl Into<Input>,
    from: Option<&'static Format>,
    opts: &ReadOptions,
) -> Result<Reading, JobError> {
    let (from, parsed) = read_input(input.into(), from, opts)?;
    Ok(Reading {
        from,
        document: parsed.document,
        diagnostics: parsed.diagnostics,
    })
}

/// Read `bytes` as `format`, the one low-level reader: no detection, no
/// path, the format's bytes reader alone. With `opts.strict`, the first
/// warning is an error.
///
/// ```
/// use markport::{format, read_bytes, ErrorKind, ReadOptions};
///
/// let broken = br#"<xbel version="1.0"><alias/></xbel>"#;
/// let lenient = read_bytes(broken, format("xbel").unwrap(), &ReadOptions::default()).unwrap();
/// assert!(lenient.diagnostics.iter().any(|d| d.message.contains("without ref")));
///
/// let mut strict = ReadOptions::default();
/// strict.strict = true;
/// let err = read_bytes(broken, format("xbel").unwrap(), &strict).unwrap_err();
/// assert_eq!(err.kind, ErrorKind::Strict);
/// ```
pub fn read_bytes(bytes: &[u8], format: &Format, opts: &ReadOptions) -> Result<Parsed, Error> {
    (format.read)(bytes, opts)
}

/// [`read`], returning the reader's [`Parsed`] as it is (the pipeline's
/// own use).
pub(crate) fn read_input(
    input: Input,
    from: Option<&'static Format>,
    opts: &ReadOptions,
) -> Result<(Resolved, Parsed), JobError> {
    let named = |format| Resolved {
        format,
        chosen: Chosen::Named,
    };
    let (path, bytes) = match input {
        Input::Path(path) => {
            let meta = std::fs::metadata(&path).map_err(cannot_read)?;
            if meta.is_dir() {
                let resolved = match from {
                    Some(format) => named(format),
                    None => resolve_format(None, Some(&path), Some(&[]))
                        .map_err(|error| JobError::new(Stage::Read, error))?,
                };
                return read_directory(&path, resolved, opts);
            }
            // A named format that reads paths needs no bytes here: a
            // database is opened where it is, a pipe copied as it is read.
            if let Some(format) = from {
                if let Some(path_reader) = format.path_reader {
                    let read = path_reader(&path, opts).map_err(read_failed(format))?;
                    return Ok((named(format), read));
                }
            }
            let bytes = load_file(&path).map_err(cannot_read)?;
            (Some(path), bytes)
        }
        Input::Bytes(bytes) => (None, bytes),
        Input::Stdin => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(cannot_read)?;
            (None, bytes)
        }
    };
    let resolved = match from {
        Some(format) => named(format),
        None => resolve_format(None, path.as_deref(), Some(&bytes))
            .map_err(|error| JobError::new(Stage::Read, error))?,
    };
    let format = resolved.format;
    // A pipe (`<(cat places.sqlite)`) cannot be read again by its path:
    // its bytes are all there is.
    let read = match (
        path.as_deref().filter(|p| is_regular_file(p)),
        format.path_reader,
    ) {
        (Some(path), Some(path_reader)) => {
            drop(bytes);
            path_reader(path, opts)
        }
        _ => {
            let read = (format.read)(&bytes, opts);
            drop(bytes);
            read
        }
    }
    .map_err(read_failed(format))?;
    Ok((resolved, read))
}

/// A directory is a tree of files (favorites), read by its path.
fn read_directory(
    path: &Path,
    resolved: Resolved,
    opts: &ReadOptions,
) -> Result<(Resolved, Parsed), JobError> {
    let format = resolved.format;
    let Some(read_path) = format.path_reader.filter(|_| format.directory().is_some()) else {
        return Err(JobError::new(
            Stage::Read,
            Error::new(
                ErrorKind::WrongFormat,
                format!(
                    "a directory, and {} is one file (a directory reads as favorites)",
                    format.name
                ),
                None,
            ),
        ));
    };
    let read = read_path(path, opts).map_err(read_failed(format))?;
    Ok((resolved, read))
}

fn cannot_read(e: io::Error) -> JobError {
    let mut err = Error::io(e);
    err.message = format!("cannot read: {}", err.message);
    JobError::new(Stage::Read, err)
}

fn read_failed(from: &'static Format) -> impl Fn(Error) -> JobError {
    move |error| JobError {
        stage: Stage::Read,
        error,
        from: Some(from),
        input: None,
    }
}

/// Whether `path` is a regular file, which can be read again by its path
/// (a pipe's bytes are gone once read).
pub(crate) fn is_regular_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// All of the file at `path`, in one buffer the size of the file whose
/// memory the kernel is asked to back with huge pages: readers borrow from
/// the whole input, and faulting it in 4 KiB at a time was a tenth of
/// reading a large file.
fn load_file(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut buf = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
    advise_huge_pages(&buf);
    file.read_to_end(&mut buf)?;
    Ok(buf)
}

/// Ask for huge pages under `buf`'s allocation (nothing for a small one).
#[cfg(target_os = "linux")]
fn advise_huge_pages(buf: &Vec<u8>) {
    const HUGE: usize = 2 << 20;
    if buf.capacity() < 2 * HUGE {
        return;
    }
    let start = buf.as_ptr() as usize;
    let Some(first) = start.checked_next_multiple_of(HUGE) else {
        return;
    };
    let end = (start + buf.capacity()) / HUGE * HUGE;
    if end > first {
        // SAFETY: MADV_HUGEPAGE is advice about how to back a range of
        // this process's own memory: [first, end) lies inside the vector's
        // allocation (rounded inward to 2 MiB boundaries, which are page
        // boundaries). It changes no byte and no mapping's validity, and
        // when the kernel declines (no THP, an old kernel) it only fails.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &Vec<u8>) {}
