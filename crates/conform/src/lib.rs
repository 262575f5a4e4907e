//! # markport-conform
//!
//! `markport conformance`: run another implementation of a bookmark format
//! over markport's corpus and say, field by field, what it keeps, changes
//! and loses.
//!
//! For each corpus file the tool's command line runs once, with `{in}` a
//! private copy of the file and `{out}` a fresh path, both inside a
//! directory only the user can read ([`markport::files::private`]),
//! removed afterwards, on a signal too (the handler's
//! [`markport::remove_temporaries`] also ends every tool still running,
//! with everything it started). What the tool wrote (at most
//! [`output_limit`] bytes) is read as the target format and compared with
//! the file's expected model (`NAME.expected.json`) carried through what
//! the target can hold: markport's own writer for that format writes the
//! expected model and reads it back, which is what a perfect tool yields,
//! and fields the target cannot hold at all (its `support()` says `None`)
//! are not held against the tool.
//!
//! Each value of the reference is [kept, changed or lost](Tally); the checks
//! have [levels](Level) (`must`: links, titles, folder structure, order;
//! `should`: dates, tags, descriptions; `may`: ids, icons, extensions) and a
//! run [passes](Report::passed) when every `must` value was kept and the
//! tool did not fail on any file. The comparison rules are in
//! [the `compare` module](mod@compare) and `docs/conformance.md`.
//!
//! Three modes come from the command line: a self round trip (`--from X
//! --to X`), a cross conversion (`--from X --to Y`), and modify-then-reload
//! (the command holds `{url}` or `{title}`: the tool is asked to add that
//! bookmark; it must be there, and everything else must survive).
//!
//! ```no_run
//! use markport_conform::{run, Config, Corpus};
//!
//! let config = Config::new(
//!     "cp {in} {out}",
//!     markport::format("xbel").unwrap(),
//!     markport::format("xbel").unwrap(),
//!     Corpus::Dir("corpus/xbel".into()),
//! );
//! let report = run(&config).unwrap();
//! assert!(report.passed());
//! println!("{}", report.to_text());
//! ```
#![warn(missing_docs)]

pub mod cause;
pub mod compare;
pub mod corpus;
mod html;
pub mod level;
mod process;
mod report;
pub mod tool;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use markport::files::private::PrivateDir;
use markport::{write_to_vec, Format};
use markport_model::{Document, Error, ErrorKind, ReadOptions, WriteOptions};
use serde::Serialize;

pub use compare::{
    canonical_url, compare, normalize_title, CompareOptions, Comparison, Reference, Tally,
};
pub use corpus::Case;
pub use level::{level_of, Level};
pub use process::MARK;

/// Where the cases come from.
#[derive(Clone, Debug)]
pub enum Corpus {
    /// A directory of files, each with `NAME.expected.json` beside it;
    /// cases are named by their file name.
    Dir(PathBuf),
    /// A corpus laid out as the project's: the cases of `--from` are in
    /// its folders `FORMAT/` and `mistakes/FORMAT/`, named by their path
    /// under it.
    Root(PathBuf),
    /// The project's corpus, compiled into the program.
    Embedded,
    /// No files: only generated cases (`--large`).
    None,
}

/// What to run and how.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// The command line, with `{in}`, `{out}` and for modify-then-reload
    /// `{url}` and `{title}`; run by `sh -c`.
    pub command: String,
    /// The format of the inputs.
    pub from: Format,
    /// The format the tool writes.
    pub to: Format,
    /// The files.
    pub corpus: Corpus,
    /// How long the tool may take on one file before it is killed.
    pub timeout: Duration,
    /// A generated case of this many bookmarks, in the `from` format.
    pub large: Option<usize>,
    /// Compare tags as lists instead of sets.
    pub ordered_tags: bool,
    /// Called as each file starts: how many started so far (this one
    /// included), of how many, and the file's name; for a progress display.
    pub on_case: Option<fn(usize, usize, &str)>,
    /// Keep each output of the tool here, beside a copy of its input, both
    /// under the case's name (its path in the corpus).
    pub keep: Option<PathBuf>,
}

/// The default time a tool may take on one file.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The size up to which a tool's output is read whatever its input: 64 MiB.
pub const MAX_OUTPUT: u64 = 64 << 20;

/// How many times its input a tool's output may be, where that is more
/// than [`MAX_OUTPUT`]: a format that spells out what another abbreviates
/// (JSON from a Netscape file) is a few times larger, not sixteen.
pub const OUTPUT_PER_INPUT: u64 = 16;

/// The most a tool's output may be, in bytes, for an input of `input_len`
/// bytes: [`MAX_OUTPUT`], or [`OUTPUT_PER_INPUT`] times the input when that
/// is more. A larger output fails its file ([`FailureKind::TooLarge`])
/// without being read, so that a tool cannot make the run hold more memory
/// than a few times its corpus.
pub fn output_limit(input_len: u64) -> u64 {
    MAX_OUTPUT.max(input_len.saturating_mul(OUTPUT_PER_INPUT))
}

/// The bookmark a modify-then-reload run asks the tool to add: a link and
/// a title with characters that need quoting and more than ASCII.
pub const ADDED_URL: &str = "https://conformance.markport.invalid/added?from=markport&n=1";
/// The title of [`ADDED_URL`].
pub const ADDED_TITLE: &str = "Added by markport's conformance \u{2014} \"check\"";

impl Config {
    /// A run of `command` from `from` to `to` over `corpus`, with the
    /// default timeout, no large case, tags as sets.
    pub fn new(command: impl Into<String>, from: &Format, to: &Format, corpus: Corpus) -> Config {
        Config {
            command: command.into(),
            from: *from,
            to: *to,
            corpus,
            timeout: DEFAULT_TIMEOUT,
            large: None,
            ordered_tags: false,
            on_case: None,
            keep: None,
        }
    }

    /// The mode the command line asks for.
    pub fn mode(&self) -> Mode {
        if self.command.contains("{url}") || self.command.contains("{title}") {
            Mode::Modify
        } else if self.from.name == self.to.name {
            Mode::RoundTrip
        } else {
            Mode::Cross
        }
    }
}

/// What the run checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// `--from X --to X`: the tool reads and writes one format.
    RoundTrip,
    /// `--from X --to Y`: the tool converts.
    Cross,
    /// The command holds `{url}`/`{title}`: the tool adds one bookmark.
    Modify,
}

/// Why the tool failed on a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// It exited with a status other than 0, or was killed by a signal.
    Exit,
    /// It outlived the timeout and was killed with its process group.
    Timeout,
    /// It wrote nothing at `{out}` (no file, or an empty one).
    NoOutput,
    /// What it wrote is not a file of the target format.
    Unreadable,
    /// What it wrote is larger than [`output_limit`] allows; it is not read.
    TooLarge,
}

/// A tool's failure on one file.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// What kind.
    pub kind: FailureKind,
    /// For people: the status, the timeout, or the reader's error.
    pub message: String,
    /// The exit status, when it exited.
    pub status: Option<i32>,
    /// The end of what it wrote on standard error, as written (a report
    /// for people shows its control characters escaped).
    pub stderr: String,
    /// How many bytes of standard error came before [`stderr`](Self::stderr)
    /// and were cut.
    pub stderr_cut: u64,
}

/// One file of a run.
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    /// The case's name (its path as found, or `large-N`).
    pub file: String,
    /// How the tool failed on it, if it did.
    pub failure: Option<Failure>,
    /// How long the tool took on it.
    pub seconds: f64,
    /// Whether every `must` value of the file was kept (false on a failure).
    pub must_kept: bool,
    /// How many values of any level it changed.
    pub changed: usize,
    /// How many it lost (all of them on a failure).
    pub lost: usize,
}

/// One check over a whole run.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The check: a field name (`bookmark.tags`) or `placement`, `order`, `added`.
    pub check: &'static str,
    /// How much it matters.
    pub level: Level,
    /// How many files had a value of it.
    pub files: usize,
    /// The counts and the first paths.
    #[serde(flatten)]
    pub tally: Tally,
}

/// The numbers behind the verdict.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// How many files were run.
    pub files: usize,
    /// How many `must` values the tool changed, over all files.
    pub must_changed: usize,
    /// How many it lost (those of a file it failed on included).
    pub must_lost: usize,
    /// On how many files it changed or lost a `must` value, or failed.
    pub files_must_not_kept: usize,
    /// On how many files the tool itself failed.
    pub files_failed: usize,
}

/// Changed values that share a likely cause, over every check.
#[derive(Clone, Debug, Serialize)]
pub struct CauseReport {
    /// The cause ([`cause`]'s names: `character encoding`, `letter case`, ...).
    pub cause: &'static str,
    /// How many values it changed.
    pub values: usize,
    /// How many of them are `must` values.
    pub must: usize,
    /// The checks it changed, with how many values each, `must` first.
    pub checks: Vec<(&'static str, usize)>,
}

/// A file the run could not use (markport itself cannot write its model in the target).
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// The case's name.
    pub file: String,
    /// Why.
    pub reason: String,
}

/// What a run found.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Report {
    /// The command line as given.
    pub command: String,
    /// The input format.
    pub from: &'static str,
    /// The output format.
    pub to: &'static str,
    /// The mode.
    pub mode: Mode,
    /// Whether every `must` value was kept and no file failed.
    pub passed: bool,
    /// Every check that had a value, `must` first.
    pub checks: Vec<CheckReport>,
    /// Every file, in the order run.
    pub files: Vec<FileReport>,
    /// Files not run, and why.
    pub skipped: Vec<Skipped>,
    /// The numbers the verdict is made of.
    pub summary: Summary,
    /// The likely causes of the changed values, what to fix first first.
    pub causes: Vec<CauseReport>,
    /// The time the tool took, over all files.
    pub tool_seconds: f64,
    /// The time the whole run took.
    pub total_seconds: f64,
}

impl Report {
    /// Whether every `must` value was kept and the tool failed on no file.
    pub fn passed(&self) -> bool {
        self.passed
    }
}

/// What a perfect tool writes for `expected`: markport's writer for `to`
/// and its reader, with what the writer made up told apart.
pub fn reference(expected: Document, to: &Format) -> Result<Reference, Error> {
    let (bytes, _) = write_to_vec(&expected, to, &WriteOptions::default())?;
    let doc = markport::read_bytes(&bytes, to, &ReadOptions::default())?.document;
    Ok(Reference::new(doc, expected))
}

/// Run the tool over every case and compare.
///
/// When [`markport::remove_temporaries`] runs meanwhile (a signal handler),
/// the tool is ended and the run returns an I/O error of kind
/// [`Interrupted`](std::io::ErrorKind::Interrupted) instead of a report:
/// what the tool did after it was killed is not its failure.
pub fn run(config: &Config) -> Result<Report, Error> {
    let started = Instant::now();
    config.to.writer()?;
    let mut cases = match &config.corpus {
        Corpus::Dir(dir) => corpus::cases_in(dir)?,
        Corpus::Root(root) => corpus::cases_under(root, config.from.name)?,
        Corpus::Embedded => corpus::embedded_cases(config.from.name)?,
        Corpus::None => Vec::new(),
    };
    if let Some(n) = config.large {
        cases.push(corpus::large(n, &config.from)?);
    }
    if cases.is_empty() {
        return Err(Error::new(
            ErrorKind::Io,
            "no cases: the corpus has no file with NAME.expected.json beside it",
            None,
        ));
    }
    let dir = PrivateDir::new()
        .map_err(|e| Error::new(ErrorKind::Io, format!("a private directory: {e}"), None))?;
    let interrupted = || Error::io(process::stopping_error());
    let mode = config.mode();
    let opts = CompareOptions {
        ordered_tags: config.ordered_tags,
        added: (mode == Mode::Modify).then(|| (ADDED_URL.to_owned(), ADDED_TITLE.to_owned())),
        titles_as_input: config.from.name == config.to.name,
    };
    // Removing a file's copies costs as much as a quick tool on some file
    // systems (ext4 with online discard: milliseconds a file): a thread does
    // it while the next file runs.
    let (to_remove, removals) = std::sync::mpsc::channel::<PathBuf>();
    let remover = std::thread::spawn(move || {
        for case_dir in removals {
            let _ = std::fs::remove_dir_all(case_dir);
        }
    });
    let mut totals: Vec<(&'static str, usize, Tally)> = Vec::new();
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut tool_time = Duration::ZERO;
    let mut next = match cases.first() {
        Some(first) => Some(prepare(config, &dir, 0, first)?),
        None => None,
    };
    for i in 0..cases.len() {
        let expected = std::mem::take(&mut cases[i].expected);
        let (case, following) = (&cases[i], cases.get(i + 1));
        if let Some(on_case) = config.on_case {
            on_case(i + 1, cases.len(), &case.name);
        }
        let prepared = next.take().expect("each case is prepared before it runs");
        // While the tool runs: this file's reference, the next file's copy.
        let (outcome, seconds, (reference, prepared_next)) =
            run_case(config, &opts, prepared, &to_remove, || {
                let next = following.map(|c| prepare(config, &dir, i + 1, c));
                (reference(expected, &config.to), next)
            })?;
        // A signal ended the tool: what it did is not the tool's failure,
        // and no report is made of it.
        if process::stopping() {
            return Err(interrupted());
        }
        next = prepared_next.transpose()?;
        let reference = match reference {
            Ok(r) => r,
            Err(e) => {
                skipped.push(Skipped {
                    file: case.name.clone(),
                    reason: format!("markport cannot write it as {}: {e}", config.to.name),
                });
                continue;
            }
        };
        tool_time += seconds;
        let comparison = match &outcome {
            Ok(got) => compare(&reference, got, config.to.support, &opts),
            Err(_) => compare::all_lost(&reference, config.to.support, &opts),
        };
        let prefix = format!("{}: ", case.name);
        let mut must_kept = outcome.is_ok();
        let (mut changed, mut lost) = (0, 0);
        for (&check, tally) in &comparison.checks {
            changed += tally.changed;
            lost += tally.lost;
            if level_of(check) == Level::Must && !tally.all_kept() {
                must_kept = false;
            }
            let at = match totals.iter().position(|t| t.0 == check) {
                Some(at) => at,
                None => {
                    totals.push((check, 0, Tally::default()));
                    totals.len() - 1
                }
            };
            totals[at].1 += usize::from(tally.values > 0);
            totals[at].2.absorb(tally, &prefix);
        }
        files.push(FileReport {
            file: case.name.clone(),
            failure: outcome.err(),
            seconds: seconds.as_secs_f64(),
            must_kept,
            changed,
            lost,
        });
    }
    drop(to_remove);
    let _ = remover.join();
    totals.sort_by_key(|t| report::rank(t.0));
    let checks: Vec<CheckReport> = totals
        .into_iter()
        .map(|(check, files, tally)| CheckReport {
            check,
            level: level_of(check),
            files,
            tally,
        })
        .collect();
    let must = || checks.iter().filter(|c| c.level == Level::Must);
    let summary = Summary {
        files: files.len(),
        must_changed: must().map(|c| c.tally.changed).sum(),
        must_lost: must().map(|c| c.tally.lost).sum(),
        files_must_not_kept: files.iter().filter(|f| !f.must_kept).count(),
        files_failed: files.iter().filter(|f| f.failure.is_some()).count(),
    };
    let causes = report::causes(&checks);
    let passed = files.iter().all(|f| f.failure.is_none())
        && checks
            .iter()
            .filter(|c| c.level == Level::Must)
            .all(|c| c.tally.all_kept());
    Ok(Report {
        command: config.command.clone(),
        from: config.from.name,
        to: config.to.name,
        mode,
        passed,
        checks,
        files,
        skipped,
        summary,
        causes,
        tool_seconds: tool_time.as_secs_f64(),
        total_seconds: started.elapsed().as_secs_f64(),
    })
}

fn io_error(what: &str, e: std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("{what}: {e}"), None)
}

/// What [`run_case`] found: what markport reads in the tool's output (or
/// how the tool failed), how long the tool took, and `meanwhile`'s result.
type CaseRun<T> = (Result<Document, Failure>, Duration, T);

/// A case's directory with its input's copy, ready for the tool.
struct Prepared {
    case_dir: PathBuf,
    input: PathBuf,
    input_len: u64,
    output: PathBuf,
    /// Where the output is kept (`--keep`), its input's copy already there.
    keep_as: Option<PathBuf>,
}

/// Make the directory of case `index` and copy its input there. One
/// directory per file: the copy, the output and whatever the tool leaves
/// beside it (a tool's own database) go together.
fn prepare(
    config: &Config,
    dir: &PrivateDir,
    index: usize,
    case: &Case,
) -> Result<Prepared, Error> {
    let case_dir = dir
        .create_dir(&format!("case-{index}"))
        .map_err(|e| io_error("the private directory", e))?;
    let input = case_dir.join(&case.file_name);
    std::fs::write(&input, &case.bytes).map_err(|e| io_error("the input's copy", e))?;
    let stem = std::path::Path::new(&case.file_name)
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let output = case_dir.join(corpus::output_name(&format!("{stem}-out"), &config.to));
    let keep_as = match &config.keep {
        Some(keep) => Some(keep_input(keep, case, &stem, &config.to)?),
        None => None,
    };
    Ok(Prepared {
        case_dir,
        input,
        input_len: case.bytes.len() as u64,
        output,
        keep_as,
    })
}

/// Copy `case`'s input under `keep` at its name in the corpus, and say where
/// its output goes: `NAME-out.EXT` beside it, whatever name the tool had to
/// write (Chromium's `Bookmarks` would otherwise be one name for all).
fn keep_input(
    keep: &std::path::Path,
    case: &Case,
    stem: &str,
    to: &Format,
) -> Result<PathBuf, Error> {
    let relative = std::path::Path::new(&case.name);
    // A name is a path under the corpus; anything else keeps its file name.
    let safe = relative.is_relative()
        && relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
    let input = if safe {
        keep.join(relative)
    } else {
        keep.join(&case.file_name)
    };
    let dir = input.parent().unwrap_or(keep);
    std::fs::create_dir_all(dir).map_err(|e| io_error(&dir.display().to_string(), e))?;
    std::fs::write(&input, &case.bytes).map_err(|e| io_error(&input.display().to_string(), e))?;
    Ok(dir.join(format!("{stem}-out.{}", corpus::default_extension(to))))
}

/// Run the tool on one prepared case, doing `meanwhile` while it runs; the
/// case's directory goes to `remove` once its output is read.
fn run_case<T>(
    config: &Config,
    opts: &CompareOptions,
    prepared: Prepared,
    remove: &std::sync::mpsc::Sender<PathBuf>,
    meanwhile: impl FnOnce() -> T,
) -> Result<CaseRun<T>, Error> {
    let Prepared {
        case_dir,
        input,
        input_len,
        output,
        keep_as,
    } = prepared;
    let (in_s, out_s) = (input.to_string_lossy(), output.to_string_lossy());
    let mut values = vec![("{in}", in_s.as_ref()), ("{out}", out_s.as_ref())];
    if let Some((url, title)) = &opts.added {
        values.push(("{url}", url));
        values.push(("{title}", title));
    }
    let command = tool::expand(&config.command, &values);
    let (done, extra) = tool::run_while(&command, config.timeout, meanwhile)
        .map_err(|e| io_error("running the tool with sh", e))?;
    let fail = |kind, message: String| Failure {
        kind,
        message,
        status: done.status.and_then(|s| s.code()),
        stderr: done.stderr_tail.clone(),
        stderr_cut: done.stderr_cut,
    };
    let result = if done.timed_out {
        Err(fail(
            FailureKind::Timeout,
            format!(
                "killed after {} s (--timeout)",
                config.timeout.as_secs_f64()
            ),
        ))
    } else if !done.status.is_some_and(|s| s.success()) {
        let status = done.status.expect("not timed out");
        let message = match status.code() {
            Some(code) => format!("exit status {code}"),
            None => format!("killed by a signal ({status})"),
        };
        Err(fail(FailureKind::Exit, message))
    } else {
        match read_output(&output, output_limit(input_len)) {
            Ok(bytes) if !bytes.is_empty() => {
                // The bytes read under the size limit are what is parsed:
                // the file is not opened again.
                match markport::read(
                    bytes,
                    markport::format(config.to.name),
                    &ReadOptions::default(),
                )
                .map_err(|e| e.error)
                {
                    Ok(read) => Ok(read.document),
                    Err(e) => {
                        let at = e
                            .location
                            .map(|l| format!("{}:{}: ", l.line, l.column))
                            .unwrap_or_default();
                        Err(fail(
                            FailureKind::Unreadable,
                            format!("{{out}} is not {}: {at}{}", config.to.name, e.message),
                        ))
                    }
                }
            }
            Err(Refused::TooLarge { size, limit }) => Err(fail(
                FailureKind::TooLarge,
                format!(
                    "{{out}} is {size} bytes, over the limit of {limit} ({} MiB, or {OUTPUT_PER_INPUT} times the input when that is more): not read",
                    MAX_OUTPUT >> 20
                ),
            )),
            Err(Refused::NotAFile(what)) => Err(fail(
                FailureKind::Unreadable,
                format!("{{out}} is {what}, not a regular file: not read"),
            )),
            _ => Err(fail(
                FailureKind::NoOutput,
                "the tool exited 0 but wrote nothing at {out}".to_owned(),
            )),
        }
    };
    if let Some(keep_as) = &keep_as {
        if output.is_file() {
            std::fs::copy(&output, keep_as)
                .map_err(|e| io_error(&keep_as.display().to_string(), e))?;
        }
    }
    // The copies and the output go as soon as they are read (the private
    // directory's removal takes what is left, signals too).
    if remove.send(case_dir.clone()).is_err() {
        let _ = std::fs::remove_dir_all(&case_dir);
    }
    Ok((result, done.elapsed, extra))
}

/// Why a tool's output was not read.
enum Refused {
    /// No file there, or it could not be opened or read.
    Missing,
    /// Something other than a regular file (a FIFO would block the read,
    /// a device never end).
    NotAFile(&'static str),
    /// More than the limit.
    TooLarge {
        /// Its size as found (at least `limit + 1` when it grew while read).
        size: u64,
        /// The limit.
        limit: u64,
    },
}

/// Read the tool's output, at most `limit` bytes: its size is checked
/// before a byte is read, and the read stops past the limit in case it
/// grows meanwhile (something the tool left may still write).
fn read_output(path: &std::path::Path, limit: u64) -> Result<Vec<u8>, Refused> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO must not block the open.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|_| Refused::Missing)?;
    let meta = file.metadata().map_err(|_| Refused::Missing)?;
    if !meta.is_file() {
        return Err(Refused::NotAFile(if meta.is_dir() {
            "a directory"
        } else {
            "a FIFO, socket or device"
        }));
    }
    if meta.len() > limit {
        return Err(Refused::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|_| Refused::Missing)?;
    if bytes.len() as u64 > limit {
        return Err(Refused::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}
