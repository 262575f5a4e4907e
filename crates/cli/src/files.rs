//! Reading inputs and writing outputs safely: `-` is standard input/output,
//! output files follow the rules of [`markport::output`] (atomic replace of
//! regular files, links followed, devices written through), and the input is
//! never overwritten. Paths are `OsStr`s: any bytes a file system allows.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::Path;

use markport::output::OutputFile;
use markport::{Format, ReadOptions};

use crate::failure::Failure;

/// Whether `path` is `-`, standard input or output.
pub(crate) fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The name to show for an input path.
pub(crate) fn display_name(path: &Path) -> Cow<'_, str> {
    if is_std(path) {
        Cow::Borrowed("<stdin>")
    } else {
        path.to_string_lossy()
    }
}

/// The format to write and its options: `--to`, else the destination's
/// (`--for`), else the output's extension, as the library chooses
/// ([`markport::choose_output`]); and the words the summary's first line
/// ends with to say that choice when it was not obvious (`, for Firefox's
/// Import`; an ambiguous extension's format and how to pick another). A
/// binary output to a terminal is refused.
pub(crate) fn output_format(
    to: Option<&str>,
    dest: Option<&'static markport::Destination>,
    output: Option<&Path>,
    options: markport::WriteOptions,
) -> Result<(&'static Format, markport::WriteOptions, String), Failure> {
    let named = to.or(dest.map(|d| d.format));
    let (resolved, options) = markport::choose_output(named, output, options).map_err(|e| {
        if e.kind == markport::ErrorKind::Unwritable {
            Failure::new(e.message)
        } else {
            Failure::new(format_args!(
                "{} (--to FORMAT or --for DESTINATION)",
                e.message
            ))
        }
    })?;
    crate::say::verbose(format_args!(
        "markport: writing {} ({})\n",
        resolved.format.name,
        how(&resolved.chosen)
    ));
    // A binary form (.jsonlz4) is never poured onto a terminal.
    if output.is_none_or(is_std)
        && resolved.format.writes_binary(&options)
        && io::IsTerminal::is_terminal(&io::stdout())
    {
        return Err(Failure::new(format_args!(
            "refusing to write binary {} output to the terminal; say -o FILE or redirect it",
            resolved.format.name
        )));
    }
    let said = match dest {
        Some(d) => markport::report::for_words(d, to.is_some(), resolved.format.name),
        None => chosen_words(&resolved, output),
    };
    Ok((resolved.format, options, said))
}

/// How an output's format was taken from an extension several formats
/// could mean, in words for the first line: `, as netscape (the usual
/// meaning of .html; --to xfolk for a page, or --for DESTINATION)`.
fn chosen_words(resolved: &markport::Resolved, output: Option<&Path>) -> String {
    let ext = output
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let others = match (&resolved.chosen, ext.as_deref()) {
        (markport::Chosen::Preferred { others }, Some(ext)) => {
            let list: Vec<String> = others.iter().map(|o| format!("--to {o}")).collect();
            format!("the usual meaning of .{ext}; {}", list.join(" or "))
        }
        (markport::Chosen::Extension, Some("json")) => {
            "markport's own model; --to firefox for a Firefox backup, --to chromium for a Bookmarks file".to_string()
        }
        (markport::Chosen::Extension, Some("xbel")) => {
            "plain XBEL; --to desktop for GTK's recently-used.xbel".to_string()
        }
        _ => return String::new(),
    };
    format!(
        ", as {} ({others}, or --for DESTINATION)",
        resolved.format.name
    )
}

/// Why a format was chosen, for `--verbose`.
pub(crate) fn how(chosen: &markport::Chosen) -> &'static str {
    match chosen {
        markport::Chosen::Named => "as asked",
        markport::Chosen::Content => "detected from the content",
        markport::Chosen::Extension | markport::Chosen::Preferred { .. } => "from the extension",
    }
}

/// What to read for `path`: standard input's bytes for `-`, else the file
/// by its path (so a format whose file has companions reads them).
pub(crate) fn input(path: &Path) -> markport::Input {
    if is_std(path) {
        if io::IsTerminal::is_terminal(&io::stdin()) {
            crate::say::err(format_args!(
                "markport: reading bookmarks from the terminal; end with Ctrl-D (or name a file)\n"
            ));
        }
        markport::Input::Stdin
    } else {
        markport::Input::Path(path.to_path_buf())
    }
}

/// The format `--from` names (clap has checked the name; an unknown one is
/// refused with the list all the same).
pub(crate) fn named_format(from: Option<&str>) -> Result<Option<&'static Format>, Failure> {
    from.map(|name| {
        markport::resolve_format(Some(name), None, Some(&[]))
            .map(|r| r.format)
            .map_err(|e| Failure::new(e.message))
    })
    .transpose()
}

/// A failure of the library's reading, in the command's words: located in
/// the input as `FILE:LINE:COL`, naming the format it was read as.
pub(crate) fn read_failure(path: &Path, e: &markport::JobError) -> Failure {
    match e.from {
        Some(from) if e.stage == markport::Stage::Read => located(path, from, &e.error),
        _ => Failure::in_file(display_name(path), &e.error.message),
    }
}

/// Say (`--verbose`) what `path` was read as and why.
pub(crate) fn said_read(path: &Path, from: &markport::Resolved) {
    crate::say::verbose(format_args!(
        "markport: reading {} as {} ({})\n",
        display_name(path),
        from.format.name,
        how(&from.chosen)
    ));
}

/// Read `path` through the library's one door ([`markport::read`]), as
/// every subcommand reads, with errors located as `FILE:LINE:COL`.
pub(crate) fn load(
    path: &Path,
    from: Option<&str>,
    opts: &ReadOptions,
) -> Result<markport::Reading, Failure> {
    let read = markport::read(input(path), named_format(from)?, opts)
        .map_err(|e| read_failure(path, &e))?;
    said_read(path, &read.from);
    Ok(read)
}

/// `FILE:LINE:COL: error: message (reading as FORMAT)`.
pub(crate) fn located(path: &Path, format: &Format, e: &markport::Error) -> Failure {
    let e = markport::Error::new(
        e.kind,
        format!("{} (reading as {})", e.message, format.name),
        e.location,
    );
    Failure::located(display_name(path), &e)
}

/// Standard output, checked open: Rust's standard library quietly drops what
/// is written to a closed descriptor 1, and a command run with `>&-` must
/// fail rather than succeed with nothing written.
pub(crate) fn stdout() -> Result<io::BufWriter<io::StdoutLock<'static>>, Failure> {
    #[cfg(unix)]
    if stdout_was_closed() {
        return Err(Failure::in_file("<stdout>", "standard output is closed"));
    }
    Ok(io::BufWriter::with_capacity(1 << 16, io::stdout().lock()))
}

/// Whether the process started with descriptor 1 closed (`>&-`). The
/// standard library then opens `/dev/null` read-write on it before `main`,
/// so writes succeed and vanish; a shell's `>/dev/null` opens it write-only,
/// which tells the two apart.
#[cfg(unix)]
fn stdout_was_closed() -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    // SAFETY: F_GETFL only reads the descriptor's flags; it takes no
    // pointer and changes nothing.
    let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
    if flags == -1 {
        return true;
    }
    if flags & libc::O_ACCMODE != libc::O_RDWR {
        return false;
    }
    let (Ok(fd1), Ok(null)) = (
        std::fs::metadata("/proc/self/fd/1").or_else(|_| std::fs::metadata("/dev/fd/1")),
        std::fs::metadata("/dev/null"),
    ) else {
        return false;
    };
    fd1.file_type().is_char_device() && fd1.rdev() == null.rdev()
}

/// Flush a writer to standard output, naming it in the error.
pub(crate) fn finish_stdout(mut w: impl Write) -> Result<(), Failure> {
    w.flush()
        .map_err(|e| Failure::in_file("<stdout>", format_args!("cannot write: {e}")))
}

/// A collection the command uses to its end, kept from being dropped:
/// freeing every string of a large collection one by one takes longer than
/// the process's exit, which gives all the memory back at once.
pub(crate) fn never_dropped<T>(value: T) -> std::mem::ManuallyDrop<T> {
    std::mem::ManuallyDrop::new(value)
}

/// Where a report or a generated text goes: standard output or a file,
/// made visible or abandoned by [`Output::finish`]. (A job's output goes
/// through the library's [`markport::Target`]: `crate::pipeline`.)
pub(crate) struct Output {
    sink: Sink,
    name: String,
}

enum Sink {
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
    File(OutputFile),
}

impl Output {
    /// Open `path` (`None` or `-`: standard output). Refuses to write over
    /// any of `inputs`.
    pub(crate) fn open(path: Option<&Path>, inputs: &[&Path]) -> Result<Output, Failure> {
        let Some(path) = path.filter(|p| !is_std(p)) else {
            return Ok(Output {
                sink: Sink::Stdout(stdout()?),
                name: "<stdout>".into(),
            });
        };
        for input in inputs.iter().filter(|i| !is_std(i)) {
            if markport::output::same_destination(input, path) {
                return Err(Failure::in_file(
                    path.display(),
                    "refusing to write over the input file; choose another output",
                ));
            }
        }
        let file =
            OutputFile::create(path).map_err(|e| Failure::in_file(e.path.display(), e.message))?;
        Ok(Output {
            sink: Sink::File(file),
            name: path.display().to_string(),
        })
    }

    /// Write `bytes`. What reaches standard output or a device cannot be
    /// taken back, so a caller that may abandon the output writes only once
    /// it has decided.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write_all(bytes),
            Sink::File(f) => f.write_all(bytes),
        }
        .map_err(|e| Failure::in_file(&self.name, format_args!("cannot write: {e}")))
    }

    /// Make the output visible (flush, or rename the finished file into
    /// place), or with `keep == false` abandon it: a replaced file stays as
    /// it was.
    pub(crate) fn finish(self, keep: bool) -> Result<(), Failure> {
        if !keep {
            return Ok(());
        }
        let name = self.name;
        let fail = |e: io::Error| Failure::in_file(&name, format_args!("cannot write: {e}"));
        match self.sink {
            Sink::Stdout(mut w) => w.flush().map_err(fail),
            Sink::File(f) => f.commit().map_err(fail),
        }
    }
}
