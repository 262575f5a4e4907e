//! Where a job's output goes, and the rules of each place: a file replaced
//! only when whole and allowed, a stream that cannot take a byte back, a
//! directory swapped in whole, or nowhere (a trip, a dry run).
//!
//! A file that is replaced can always be abandoned after it is written; a
//! stream, a device or a FIFO cannot, so while a `fail-on` decision is
//! pending their output is held: in an unnamed temporary file (owner-only,
//! gone with the process however it ends), so that holding it does not add
//! the output's size to the peak memory; in memory only when no temporary
//! file can be made.

use std::io::{self, Seek as _, Write};
use std::path::{Path, PathBuf};

use markport_files::output::{same_destination, Mode, OutputError, OutputFile};
use markport_model::{Document, Error, ErrorKind, LossReport, WriteOptions};

use crate::plan::{JobError, Refusal, Stage, To};
use crate::registry::Format;

/// Where the output goes.
pub enum Target<'a> {
    /// A file prepared under [`output`](crate::output)'s rules: committed
    /// when the job succeeds and the gates allow it, abandoned otherwise
    /// (a replaced file then stays as it was).
    File(OutputFile),
    /// A stream that keeps whatever it is given (standard output, a
    /// socket, memory): flushed at the end.
    Stream(&'a mut dyn Write),
    /// A directory, for what is a tree of files ([`To::is_directory`]: a
    /// favorites tree, a site). The tree is written into a staging
    /// directory beside it and swapped in whole when the job succeeds and
    /// the gates allow it; otherwise the staging directory is removed and
    /// the directory stays as it was. A directory that is not empty and not
    /// a tree markport wrote is refused.
    Directory(PathBuf),
    /// Nowhere: the output is made (so its report is true) and dropped —
    /// a trip through a format, a dry run.
    Nowhere,
}

impl Target<'static> {
    /// The target for an output path: a directory for what is a tree of
    /// files, else a file prepared under [`output`](crate::output)'s rules.
    /// Refuses to write over any of `inputs` (the same file, or the same
    /// directory) before anything is read.
    ///
    /// ```
    /// use markport::{format, Target, To, WriteOptions};
    ///
    /// let dir = tempfile::tempdir().unwrap();
    /// let input = dir.path().join("in.xbel");
    /// std::fs::write(&input, "<xbel version=\"1.0\"/>").unwrap();
    /// let to = To::Format { format: format("netscape").unwrap(), options: WriteOptions::default() };
    /// let err = Target::open(&input, &to, &[&input]).err().unwrap();
    /// assert!(err.message.contains("over the input"));
    /// assert!(matches!(Target::open(&dir.path().join("out.html"), &to, &[&input]), Ok(Target::File(_))));
    /// ```
    pub fn open(path: &Path, to: &To, inputs: &[&Path]) -> Result<Target<'static>, OutputError> {
        let refuse = |message: &str| OutputError {
            path: path.to_path_buf(),
            message: message.to_string(),
            source: None,
        };
        let inputs = inputs.iter().filter(|i| i.as_os_str() != "-");
        if to.is_directory() {
            for input in inputs {
                let same = match (std::fs::canonicalize(input), std::fs::canonicalize(path)) {
                    (Ok(a), Ok(b)) => a == b,
                    _ => false,
                };
                if same {
                    return Err(refuse(
                        "refusing to write over the input directory; choose another output",
                    ));
                }
            }
            return Ok(Target::Directory(path.to_path_buf()));
        }
        for input in inputs {
            if same_destination(input, path) {
                return Err(refuse(
                    "refusing to write over the input file; choose another output",
                ));
            }
        }
        OutputFile::create(path).map(Target::File)
    }
}

/// Refuse a target of the wrong kind for `to` before anything is read.
pub(crate) fn check(to: &To, target: &Target<'_>) -> Result<(), JobError> {
    let refuse = |message: String| {
        Err(JobError::new(
            Stage::Write,
            Error::new(ErrorKind::Unwritable, message, None),
        ))
    };
    match (to, target) {
        (To::Format { format, .. }, _) => {
            format
                .writer()
                .map_err(|e| JobError::new(Stage::Write, e))?;
            match (target, format.directory()) {
                (Target::Directory(dir), None) => refuse(format!(
                    "{} is one file, and {} is a directory: name a file (a directory is written only as favorites)",
                    format.name,
                    dir.display()
                )),
                (Target::File(_) | Target::Stream(_), Some(_)) => refuse(format!(
                    "{} is a directory of files: name one with -o DIR",
                    format.name
                )),
                _ => Ok(()),
            }
        }
        #[cfg(feature = "publish")]
        (To::Site(_), Target::Directory(_) | Target::Nowhere) => Ok(()),
        #[cfg(feature = "publish")]
        (To::Site(_), _) => refuse("a site is a directory of files: name one with -o DIR".into()),
        (To::Trip { via, .. }, Target::Nowhere) => via
            .writer()
            .map(drop)
            .map_err(|e| JobError::new(Stage::Write, e)),
        (To::Trip { .. }, _) => {
            refuse("a trip through a format writes nothing: its target is Target::Nowhere".into())
        }
    }
}

/// Write `doc` as `format` into `target`, asking `decide` (given the
/// writer's report) whether it may be kept — held back meanwhile where the
/// target cannot take back a byte and a gate is set (`gated`); the
/// writer's report and the refusal, if any.
pub(crate) fn write_to_target(
    format: &Format,
    options: &WriteOptions,
    doc: &Document,
    target: Target<'_>,
    gated: bool,
    decide: impl Fn(&LossReport) -> Option<Refusal>,
) -> Result<(LossReport, Option<Refusal>), JobError> {
    let write = format
        .writer()
        .map_err(|e| JobError::new(Stage::Write, e))?;
    if let Some(tree) = format.directory() {
        // A dry run stages the tree in a private directory, so its report
        // is the real one, and drops it.
        let private;
        let dir = match &target {
            Target::Directory(dir) => dir.clone(),
            _ => {
                private = markport_files::private::PrivateDir::new()
                    .map_err(|e| JobError::write(Error::io(e)))?;
                private.path().join("tree")
            }
        };
        let (loss, staged) = (tree.stage)(doc, options, &dir).map_err(JobError::write)?;
        let refused = decide(&loss);
        if refused.is_some() || matches!(target, Target::Nowhere) {
            let _ = std::fs::remove_dir_all(staged.path());
        } else {
            staged.swap().and_then(|old| old.clean()).map_err(|e| {
                JobError::write(Error::new(
                    ErrorKind::Io,
                    format!("cannot write: {e}"),
                    None,
                ))
            })?;
        }
        return Ok((loss, refused));
    }
    let mut target = target;
    let abandonable = match &target {
        Target::File(f) => f.destination().mode == Mode::Replace,
        Target::Nowhere => true,
        _ => false,
    };
    let mut nowhere = io::sink();
    let sink: &mut dyn Write = match &mut target {
        Target::File(file) => file,
        Target::Stream(stream) => &mut **stream,
        Target::Nowhere => &mut nowhere,
        Target::Directory(_) => unreachable!("checked: a directory takes a tree"),
    };
    let hold = gated && !abandonable;
    let (loss, held) =
        write_held_or_streamed(write, doc, options, sink, hold).map_err(JobError::write)?;
    let refused = decide(&loss);
    if refused.is_none() {
        if let Some(held) = held {
            held.copy_to(sink)
                .map_err(|e| JobError::write(Error::io(e)))?;
        }
        match target {
            Target::File(file) => file.commit(),
            Target::Stream(stream) => stream.flush(),
            Target::Directory(_) | Target::Nowhere => Ok(()),
        }
        .map_err(|e| JobError::write(Error::io(e)))?;
    }
    Ok((loss, refused))
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

#[cfg(test)]
mod tests {
    use crate::{convert, ConvertOptions, Input, Target};

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
