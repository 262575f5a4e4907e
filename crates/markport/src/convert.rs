//! The one convert pipeline: an input (a file by its path, or bytes) read
//! into the model, the requested operations applied, the output written,
//! and the `fail-on` decisions taken — for the `markport` command and every
//! program built on the library alike.
//!
//! A file is read by the path reader of a format that has one (places.sqlite
//! and its `-wal` and `-journal`), and by the bytes reader otherwise. The
//! input's bytes are dropped as soon as the document is read, so they are
//! not part of the peak while the output is made. The output goes where it
//! is going as it is made: into a file that is renamed into place only when
//! the report allows it, or into a stream directly — unless a `fail-on`
//! decision is pending and the stream cannot take back what it is given,
//! in which case the output is held until the decision: in an unnamed
//! temporary file (owner-only, and gone with the process however it ends),
//! so that holding it does not add the output's size to the peak memory; in
//! memory only when no temporary file can be made.

use std::io::{self, Read as _, Seek as _, Write};
use std::path::{Path, PathBuf};

use markport_model::{
    Diagnostic, Document, Error, ErrorKind, LossReport, ReadOptions, WriteOptions,
};

use crate::ops::{self, Operation};
use crate::output::{Mode, OutputFile};
use crate::registry::Format;
use crate::resolve::{resolve_format, Chosen, Resolved};

/// What to convert. Owned, so the pipeline can drop the bytes as soon as
/// they are read.
#[derive(Debug)]
pub enum Input {
    /// A file, read by its path: the format's path reader when it has one
    /// (a database whose pending changes live beside it), else its bytes.
    /// The extension helps choose the format when the content does not.
    Path(PathBuf),
    /// Bytes already in memory (standard input, a download).
    Bytes(Vec<u8>),
}

/// Where the output goes.
pub enum Target<'a> {
    /// A file prepared under [`output`](crate::output)'s rules: committed
    /// when the conversion succeeds and the report allows it, abandoned
    /// otherwise (a replaced file then stays as it was).
    File(OutputFile),
    /// A stream that keeps whatever it is given (standard output, a
    /// socket, memory): flushed at the end.
    Stream(&'a mut dyn Write),
    /// A directory, for a format whose collection is a tree of files
    /// ([`Format::directory`]: favorites). The tree is written into a
    /// staging directory beside it and swapped in whole when the
    /// conversion succeeds and the report allows it; otherwise the staging
    /// directory is removed and the directory stays as it was. A directory
    /// that is not empty and not a tree markport wrote is refused.
    Directory(PathBuf),
}

/// How to convert: everything but the input, the target format and the
/// destination.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ConvertOptions {
    /// The input's format; `None`: detected from the content, failing that
    /// from a path's extension ([`resolve_format`]).
    pub from: Option<&'static Format>,
    /// How to read.
    pub read: ReadOptions,
    /// What to change between reading and writing ([`ops`]); their changes
    /// are reported in [`LossReport::changes`].
    pub operations: Vec<Operation>,
    /// How to write.
    pub write: WriteOptions,
    /// Write nothing when anything would not arrive whole
    /// ([`LossReport::arrives_whole`]).
    pub fail_on_loss: bool,
    /// With [`fail_on_loss`](Self::fail_on_loss): the fields whose loss
    /// (or change at the destination) does not count, as `--allow-loss`
    /// names them (`bookmark.guid`, `bookmark.added.form`, `folder`).
    pub allow_loss: Vec<markport_model::Field>,
    /// Write nothing when anything is carried only in an extension other
    /// readers of the format ignore ([`LossReport::has_extensions`]).
    pub fail_on_extension: bool,
}

/// Why a conversion wrote nothing although it could have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// [`ConvertOptions::fail_on_loss`]: something would not arrive whole.
    Loss,
    /// [`ConvertOptions::fail_on_extension`]: something rides in an extension.
    Extension,
}

/// What [`convert`] did.
#[derive(Debug)]
#[non_exhaustive]
pub struct Converted {
    /// The format the input was read as, and how it was chosen.
    pub from: Resolved,
    /// The document as written (after the operations).
    pub document: Document,
    /// What the reader noticed.
    pub diagnostics: Vec<Diagnostic>,
    /// What the writer could not carry, and what the operations changed.
    pub loss: LossReport,
    /// `Some`: nothing was written, and why.
    pub refused: Option<Refusal>,
}

/// Which half of a conversion failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading the input: the error's location is in the input.
    Read,
    /// Writing the output.
    Write,
    /// Applying a requested operation ([`ops`]): it refused the document.
    Operate,
}

/// Why [`convert`] failed, and in which half: a reader's error points into
/// the input, a writer's does not, and a program says the two differently.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ConvertError {
    /// Reading or writing.
    pub stage: Stage,
    /// What went wrong. A writing error of kind [`ErrorKind::Io`] is about
    /// the destination, and says so (`cannot write: ...`).
    pub error: Error,
    /// The format the input was being read as, once chosen.
    pub from: Option<&'static Format>,
}

impl ConvertError {
    fn new(stage: Stage, error: Error) -> ConvertError {
        ConvertError {
            stage,
            error,
            from: None,
        }
    }
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.stage {
            Stage::Read => write!(f, "reading: {}", self.error),
            Stage::Write => write!(f, "writing: {}", self.error),
            Stage::Operate => write!(f, "{}", self.error),
        }
    }
}

impl std::error::Error for ConvertError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Convert `input` to `to` into `target`, as `opts` says. Nothing is
/// written when the input cannot be read, an operation refuses the
/// document, or a `fail-on` option refuses the result ([`Converted::refused`]).
///
/// ```
/// use markport::{convert, format, ConvertOptions, Input, Target};
///
/// let xbel = br#"<?xml version="1.0"?>
/// <xbel version="1.0">
///   <folder><title>News</title>
///     <bookmark href="https://www.bbc.co.uk/"><title>BBC</title></bookmark>
///   </folder>
/// </xbel>"#;
/// let mut out = Vec::new();
/// let done = convert(
///     Input::Bytes(xbel.to_vec()),
///     format("json").unwrap(),
///     &ConvertOptions::default(),
///     Target::Stream(&mut out),
/// )
/// .unwrap();
/// assert_eq!(done.from.format.name, "xbel");
/// assert!(done.loss.is_empty());
/// assert!(String::from_utf8(out).unwrap().contains(r#""href": "https://www.bbc.co.uk/""#));
/// ```
///
/// A file is read by its path, and `fail_on_loss` keeps a stream empty:
///
/// ```
/// use markport::{convert, format, ConvertOptions, Input, Refusal, Stage, Target};
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("tagged.html");
/// std::fs::write(&path, r#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
/// <DL><DT><A HREF="https://example.org/" TAGS="demo">Example</A></DL>"#).unwrap();
/// let mut opts = ConvertOptions::default();
/// opts.write.xbel.strict = true;
/// opts.fail_on_loss = true;
/// let mut out = Vec::new();
/// let done = convert(Input::Path(path), format("xbel").unwrap(), &opts, Target::Stream(&mut out)).unwrap();
/// assert_eq!(done.refused, Some(Refusal::Loss));
/// assert!(out.is_empty());
///
/// let failed = convert(
///     Input::Bytes(b"<xbel version=\"1.0\"><folder>".to_vec()),
///     format("json").unwrap(),
///     &ConvertOptions::default(),
///     Target::Stream(&mut out),
/// )
/// .unwrap_err();
/// assert_eq!(failed.stage, Stage::Read);
/// assert!(failed.error.location.is_some() && out.is_empty());
/// ```
pub fn convert(
    input: Input,
    to: &Format,
    opts: &ConvertOptions,
    target: Target<'_>,
) -> Result<Converted, ConvertError> {
    // A read-only target is refused before the input is read, and so is a
    // directory for a format of one file, or a file for a tree.
    let write = to
        .writer()
        .map_err(|error| ConvertError::new(Stage::Write, error))?;
    let tree = match (&target, to.directory()) {
        (Target::Directory(dir), None) => {
            return Err(ConvertError::new(
                Stage::Write,
                Error::new(
                    ErrorKind::Unwritable,
                    format!(
                        "{} is one file, and {} is a directory: name a file (a directory is written only as favorites)",
                        to.name,
                        dir.display()
                    ),
                    None,
                ),
            ))
        }
        (Target::Directory(_), Some(tree)) => Some(tree),
        (_, Some(_)) => {
            return Err(ConvertError::new(
                Stage::Write,
                Error::new(
                    ErrorKind::Unwritable,
                    format!(
                        "{} is a directory of files: name one with -o DIR",
                        to.name
                    ),
                    None,
                ),
            ))
        }
        _ => None,
    };
    let (from, read) = read_input(input, opts.from, &opts.read)?;
    let diagnostics = read.diagnostics;
    let mut document = read.document;
    let changes = ops::apply(&mut document, &opts.operations)
        .map_err(|error| ConvertError::new(Stage::Operate, error))?;
    let write_failed = |mut error: Error| {
        if error.kind == ErrorKind::Io && !error.message.starts_with("cannot ") {
            error.message = format!("cannot write: {}", error.message);
        }
        ConvertError::new(Stage::Write, error)
    };
    let undecided = opts.fail_on_loss || opts.fail_on_extension;
    let decide = |loss: &LossReport| {
        if opts.fail_on_loss && !loss.arrives_whole_but(&opts.allow_loss) {
            Some(Refusal::Loss)
        } else if opts.fail_on_extension && loss.has_extensions() {
            Some(Refusal::Extension)
        } else {
            None
        }
    };
    if let (Some(tree), Target::Directory(dir)) = (tree, &target) {
        let (mut loss, staged) = (tree.stage)(&document, &opts.write, dir).map_err(write_failed)?;
        loss.extend(changes);
        let refused = decide(&loss);
        if refused.is_some() {
            // Not swapped in: the directory stays as it was.
            let _ = std::fs::remove_dir_all(staged.path());
        } else {
            staged.swap().and_then(|old| old.clean()).map_err(|e| {
                write_failed(Error::new(
                    ErrorKind::Io,
                    format!("cannot write: {e}"),
                    None,
                ))
            })?;
        }
        return Ok(Converted {
            from,
            document,
            diagnostics,
            loss,
            refused,
        });
    }
    // A file that is replaced can always be abandoned afterwards; standard
    // output, a device or a FIFO cannot take back a byte, so while a
    // decision is pending their output is held.
    let mut target = target;
    let abandonable = matches!(&target, Target::File(f) if f.destination().mode == Mode::Replace);
    let sink: &mut dyn Write = match &mut target {
        Target::File(file) => file,
        Target::Stream(stream) => &mut **stream,
        Target::Directory(_) => unreachable!("a directory is written as a tree above"),
    };
    let (mut loss, held) = write_held_or_streamed(
        write,
        &document,
        &opts.write,
        sink,
        undecided && !abandonable,
    )
    .map_err(write_failed)?;
    loss.extend(changes);
    let refused = decide(&loss);
    if refused.is_none() {
        if let Some(held) = held {
            held.copy_to(sink).map_err(|e| write_failed(Error::io(e)))?;
        }
        match target {
            Target::File(file) => file.commit(),
            Target::Stream(stream) => stream.flush(),
            Target::Directory(_) => Ok(()),
        }
        .map_err(|e| write_failed(Error::io(e)))?;
    }
    Ok(Converted {
        from,
        document,
        diagnostics,
        loss,
        refused,
    })
}

/// An output held until the `fail-on` decisions.
enum Held {
    /// In an unnamed temporary file.
    File(std::fs::File),
    /// In memory, when no temporary file could be made.
    Memory(Vec<u8>),
}

impl Held {
    /// Give the held output to `out`.
    fn copy_to(self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Held::File(mut file) => {
                file.seek(io::SeekFrom::Start(0))?;
                io::copy(&mut file, out).map(drop)
            }
            Held::Memory(bytes) => out.write_all(&bytes),
        }
    }
}

/// Write `doc` into `out`, or with `hold` into a [`Held`] (returned).
fn write_held_or_streamed(
    write: crate::WriteFn,
    doc: &Document,
    opts: &WriteOptions,
    out: &mut dyn Write,
    hold: bool,
) -> Result<(LossReport, Option<Held>), Error> {
    if !hold {
        return Ok((write(doc, opts, out)?, None));
    }
    // tempfile() makes the file with no name (O_TMPFILE where the system
    // has it, else unlinked at once) and mode 0600: nothing to clean up.
    match tempfile::tempfile() {
        Ok(file) => {
            // A failure here is the temporary file's, not the output's.
            let held = |mut e: Error| {
                if e.kind == ErrorKind::Io {
                    e.message = format!("cannot hold the output in a temporary file until --fail-on-loss decides (TMPDIR): {}", e.message);
                }
                e
            };
            let mut buffered = io::BufWriter::with_capacity(1 << 16, file);
            let loss = write(doc, opts, &mut buffered).map_err(held)?;
            let file = buffered
                .into_inner()
                .map_err(|e| held(Error::io(e.into_error())))?;
            Ok((loss, Some(Held::File(file))))
        }
        Err(_) => {
            let mut held = Vec::new();
            let loss = write(doc, opts, &mut held)?;
            Ok((loss, Some(Held::Memory(held))))
        }
    }
}

/// Read an input into the model as [`convert`] reads it: the format chosen
/// (`from`, else by content, else by a path's extension), a file read by
/// its format's path reader when it has one (places.sqlite with its `-wal`)
/// and is a regular file, the bytes dropped once read. Every command that
/// reads a collection reads it this way, so they all see the same bookmarks.
///
/// ```
/// use markport::{read_input, Input, ReadOptions};
///
/// let (from, parsed) = read_input(
///     Input::Bytes(br#"<xbel version="1.0"><bookmark href="https://example.org/"/></xbel>"#.to_vec()),
///     None,
///     &ReadOptions::default(),
/// )
/// .unwrap();
/// assert_eq!((from.format.name, parsed.document.census().bookmarks), ("xbel", 1));
/// ```
pub fn read_input(
    input: Input,
    from: Option<&'static Format>,
    read_opts: &ReadOptions,
) -> Result<(Resolved, markport_model::Parsed), ConvertError> {
    let read_failed = |from: &'static Format| {
        move |error| ConvertError {
            stage: Stage::Read,
            error,
            from: Some(from),
        }
    };
    let named = |format| Resolved {
        format,
        chosen: Chosen::Named,
    };
    let (path, bytes) = match input {
        Input::Path(path) => {
            let cannot_read = |e: io::Error| {
                let mut err = Error::io(e);
                err.message = format!("cannot read: {}", err.message);
                ConvertError::new(Stage::Read, err)
            };
            // A directory is a tree of files (favorites), read by its path.
            if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                let resolved = match from {
                    Some(format) => named(format),
                    None => resolve_format(None, Some(&path), Some(&[]))
                        .map_err(|error| ConvertError::new(Stage::Read, error))?,
                };
                let format = resolved.format;
                let read_path = format.path_reader.filter(|_| format.directory().is_some());
                let Some(read_path) = read_path else {
                    return Err(ConvertError::new(
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
                let read = read_path(&path, read_opts).map_err(read_failed(format))?;
                return Ok((resolved, read));
            }
            // A named format that reads paths needs no bytes here: a
            // database is opened where it is, a pipe copied as it is read.
            if let Some(format) = from {
                if let Some(path_reader) = format.path_reader {
                    std::fs::metadata(&path).map_err(cannot_read)?;
                    let read = path_reader(&path, read_opts).map_err(read_failed(format))?;
                    return Ok((named(format), read));
                }
            }
            let bytes = read_bytes(&path).map_err(cannot_read)?;
            (Some(path), bytes)
        }
        Input::Bytes(bytes) => (None, bytes),
    };
    let resolved = match from {
        Some(format) => named(format),
        None => resolve_format(None, path.as_deref(), Some(&bytes))
            .map_err(|error| ConvertError::new(Stage::Read, error))?,
    };
    let format = resolved.format;
    let read = match (
        path.as_deref().filter(|p| is_regular_file(p)),
        format.path_reader,
    ) {
        (Some(path), Some(path_reader)) => {
            drop(bytes);
            path_reader(path, read_opts)
        }
        _ => {
            let read = (format.read)(&bytes, read_opts);
            drop(bytes);
            read
        }
    }
    .map_err(read_failed(format))?;
    Ok((resolved, read))
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
pub fn read_bytes(path: &Path) -> io::Result<Vec<u8>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_output_arrives_whole_once_the_decision_allows_it() {
        let mut xbel = String::from("<xbel version=\"1.0\">");
        for i in 0..5_000 {
            xbel.push_str(&format!(
                "<bookmark href=\"https://example.org/{i}\"><title>t{i}</title></bookmark>"
            ));
        }
        xbel.push_str("</xbel>");
        let json = crate::format("json").unwrap();
        let run = |opts: &ConvertOptions| {
            let mut out = Vec::new();
            let done = convert(
                Input::Bytes(xbel.clone().into_bytes()),
                json,
                opts,
                Target::Stream(&mut out),
            )
            .unwrap();
            (done.refused, out)
        };
        let (_, streamed) = run(&ConvertOptions::default());
        let opts = ConvertOptions {
            fail_on_loss: true,
            fail_on_extension: true,
            ..ConvertOptions::default()
        };
        let (refused, held) = run(&opts);
        assert_eq!(refused, None);
        assert!(streamed.len() > 100_000);
        assert!(held == streamed, "the held output is the streamed one");
    }
}
