//! Reading inputs and writing outputs safely: `-` is standard input/output,
//! outputs go to a temporary file that is renamed into place, and the input
//! is never overwritten.

use std::io::{Read as _, Write};
use std::path::{Path, PathBuf};

use markport::{Format, ReadOptions};

/// A failure the CLI reports and exits 2 on.
pub(crate) struct Failure(pub String);

impl<T: std::fmt::Display> From<T> for Failure {
    fn from(e: T) -> Failure {
        Failure(e.to_string())
    }
}

/// The name to show for an input path.
pub(crate) fn display_name(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// Read all of `path` (`-`: standard input).
pub(crate) fn read_input(path: &str) -> Result<Vec<u8>, Failure> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Failure(format!("<stdin>: cannot read: {e}")))?;
        return Ok(buf);
    }
    std::fs::read(path).map_err(|e| Failure(format!("{path}: cannot read: {e}")))
}

/// The format to read `bytes` as: `--from`, else sniffed from content, else
/// from the extension.
pub(crate) fn input_format(
    from: Option<&str>,
    path: &str,
    bytes: &[u8],
) -> Result<&'static Format, Failure> {
    if let Some(name) = from {
        return markport::format(name).ok_or_else(|| {
            Failure(format!(
                "unknown format {name:?} for --from; choose one of: {}",
                markport::names()
            ))
        });
    }
    if let Some(f) = markport::detect(bytes) {
        return Ok(f);
    }
    let by_ext = extension(path)
        .map(markport::formats_for_extension)
        .unwrap_or_default();
    if by_ext.len() == 1 {
        return Ok(by_ext[0]);
    }
    Err(Failure(format!(
        "{}: cannot tell what format this is; say --from FORMAT (one of: {})",
        display_name(path),
        markport::names()
    )))
}

/// The format to write: `--to`, else the output's extension when exactly one
/// format claims it.
pub(crate) fn output_format(
    to: Option<&str>,
    output: Option<&str>,
) -> Result<&'static Format, Failure> {
    if let Some(name) = to {
        return markport::format(name).ok_or_else(|| {
            Failure(format!(
                "unknown format {name:?} for --to; choose one of: {}",
                markport::names()
            ))
        });
    }
    let Some(ext) = output.filter(|o| *o != "-").and_then(extension) else {
        return Err(Failure(format!(
            "say which format to write with --to FORMAT (one of: {})",
            markport::names()
        )));
    };
    match markport::formats_for_extension(ext).as_slice() {
        [one] => Ok(one),
        [] => Err(Failure(format!(
            "no format writes .{ext} files; say --to FORMAT (one of: {})",
            markport::names()
        ))),
        many => Err(Failure(format!(
            ".{ext} could be {}; say which with --to",
            many.iter().map(|f| f.name).collect::<Vec<_>>().join(" or ")
        ))),
    }
}

fn extension(path: &str) -> Option<&str> {
    Path::new(path).extension().and_then(|e| e.to_str())
}

/// Read and parse `path` as a document, with errors located as `FILE:LINE:COL`.
pub(crate) fn load(
    path: &str,
    from: Option<&str>,
    opts: &ReadOptions,
) -> Result<(&'static Format, markport::Read), Failure> {
    let bytes = read_input(path)?;
    let format = input_format(from, path, &bytes)?;
    let read = markport::read(&bytes, format, opts).map_err(|e| located(path, format, &e))?;
    Ok((format, read))
}

/// `FILE:LINE:COL: error: message (as FORMAT)`.
pub(crate) fn located(path: &str, format: &Format, e: &markport::Error) -> Failure {
    let at = match e.location {
        Some(l) => format!("{}:{}:{}", display_name(path), l.line, l.column),
        None => display_name(path).to_owned(),
    };
    Failure(format!(
        "{at}: error: {} (reading as {})",
        e.message, format.name
    ))
}

/// Where output goes: standard output, or a temporary file renamed into place.
pub(crate) enum Output {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    File {
        temp: std::io::BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
    },
}

impl Output {
    /// Open `path` (`None` or `-`: standard output). Refuses to write over `input`.
    pub(crate) fn open(path: Option<&str>, inputs: &[&str]) -> Result<Output, Failure> {
        let path = match path {
            None | Some("-") => {
                return Ok(Output::Stdout(std::io::BufWriter::new(std::io::stdout())))
            }
            Some(p) => PathBuf::from(p),
        };
        for input in inputs.iter().filter(|i| **i != "-") {
            if same_file(Path::new(input), &path) {
                return Err(Failure(format!(
                    "{}: refusing to write over the input file; choose another -o",
                    path.display()
                )));
            }
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".markport-").suffix(".tmp");
        // A temporary file is private (0600); the output must get the
        // permissions of the file it replaces, or a new file's usual ones.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).map_or(0o666, |m| m.permissions().mode());
            builder.permissions(std::fs::Permissions::from_mode(mode));
        }
        let temp = builder
            .tempfile_in(&dir)
            .map_err(|e| Failure(format!("{}: cannot write here: {e}", dir.display())))?;
        Ok(Output::File {
            temp: std::io::BufWriter::with_capacity(1 << 16, temp),
            target: path,
        })
    }

    pub(crate) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(w) => w,
            Output::File { temp, .. } => temp,
        }
    }

    /// Make the output visible: flush, or rename the finished file into place.
    /// Dropping an unfinished `Output` removes its temporary file.
    pub(crate) fn finish(self) -> Result<(), Failure> {
        match self {
            Output::Stdout(mut w) => w.flush().map_err(|e| Failure(format!("<stdout>: {e}"))),
            Output::File { temp, target } => {
                let temp = temp.into_inner().map_err(|e| {
                    Failure(format!("{}: cannot write: {}", target.display(), e.error()))
                })?;
                temp.as_file()
                    .sync_all()
                    .map_err(|e| Failure(format!("{}: {e}", target.display())))?;
                temp.persist(&target).map_err(|e| {
                    Failure(format!("{}: cannot write: {}", target.display(), e.error))
                })?;
                Ok(())
            }
        }
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
