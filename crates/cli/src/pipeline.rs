//! What every writing subcommand does around the library's one pipeline
//! ([`markport::run`]): the inputs named, the output prepared (a file,
//! standard output, a directory), the report's own file prepared, and the
//! pipeline's errors said in the command's words. Each subcommand maps its
//! flags onto a job and prints what came back; nothing here decides what
//! is written.

use std::io;
use std::path::{Path, PathBuf};

use markport::{Done, JobError, Target, To};

use crate::failure::Failure;
use crate::files::{self, display_name, is_std};

/// What to read for each of `paths`: standard input's bytes for `-`, else
/// the file or directory by its path (so a format whose file has
/// companions reads them).
pub(crate) fn inputs(paths: &[PathBuf]) -> Result<Vec<markport::Input>, Failure> {
    if paths.iter().filter(|p| is_std(p)).count() > 1 {
        return Err(Failure::new(
            "standard input (-) can be only one of the inputs",
        ));
    }
    Ok(paths.iter().map(|p| files::input(p)).collect())
}

/// Where the output goes, prepared before anything is read: temporary
/// files made, devices opened, permissions checked, an input refused as
/// the output.
pub(crate) enum Out {
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
    Target(Target<'static>),
    Nowhere,
}

impl Out {
    /// The output for `to` at `path` (`None` or `-`: standard output);
    /// nowhere for a dry run.
    pub(crate) fn open(
        to: &To,
        path: Option<&Path>,
        inputs: &[PathBuf],
        dry_run: bool,
    ) -> Result<Out, Failure> {
        if dry_run {
            return Ok(Out::Nowhere);
        }
        let Some(path) = path.filter(|p| !is_std(p)) else {
            if to.is_directory() {
                return Err(Failure::new(format_args!(
                    "{} is a directory of files: name one with -o DIR",
                    to.name()
                )));
            }
            return Ok(Out::Stdout(files::stdout()?));
        };
        let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        Target::open(path, to, &inputs)
            .map(Out::Target)
            .map_err(|e| Failure::in_file(e.path.display(), e.message))
    }

    /// Run `job` into this output.
    pub(crate) fn run(self, job: markport::Job) -> Result<Done, JobError> {
        match self {
            Out::Stdout(mut w) => markport::run(job, Target::Stream(&mut w)),
            Out::Target(target) => markport::run(job, target),
            Out::Nowhere => markport::run(job, Target::Nowhere),
        }
    }
}

/// The name an output goes by in messages and reports.
pub(crate) fn output_name(path: Option<&Path>) -> String {
    match path.filter(|p| !is_std(p)) {
        Some(p) => p.display().to_string(),
        None => "<stdout>".into(),
    }
}

/// A pipeline error in the command's words: a reading error located in
/// its input as `FILE:LINE:COL`, a writing error naming the output.
pub(crate) fn failure(e: &JobError, inputs: &[PathBuf], output: &str, to: &str) -> Failure {
    match e.stage {
        markport::Stage::Read | markport::Stage::Operate => {
            let path = e.input.and_then(|i| inputs.get(i));
            match path {
                Some(path) => files::read_failure(path, e),
                None => Failure::new(&e.error.message),
            }
        }
        markport::Stage::Write if e.error.kind == markport::ErrorKind::Io => {
            Failure::in_file(output, &e.error.message)
        }
        markport::Stage::Write => Failure::new(format_args!("writing {to}: {}", e.error)),
    }
}

/// Where the report goes: `--report-file`, prepared with the output
/// before either is written, or standard error.
pub(crate) struct ReportOut(Option<files::Output>);

impl ReportOut {
    /// Refuse a `--report-file` that would collide with the output or an
    /// input: before anything is opened.
    pub(crate) fn check(
        report: Option<&Path>,
        output: Option<&Path>,
        inputs: &[PathBuf],
    ) -> Result<(), Failure> {
        let Some(report) = report else {
            return Ok(());
        };
        let output = output.unwrap_or(Path::new("-"));
        let collides = if is_std(report) || is_std(output) {
            is_std(report) && is_std(output)
        } else {
            markport::output::same_destination(report, output)
        };
        if collides {
            return Err(Failure::in_file(
                report.display(),
                "--report-file is the output file; choose another",
            ));
        }
        for input in inputs.iter().filter(|i| !is_std(i)) {
            if !is_std(report) && markport::output::same_destination(report, input) {
                return Err(Failure::in_file(
                    report.display(),
                    "refusing to write the report over the input file",
                ));
            }
        }
        Ok(())
    }

    /// Prepare the report's destination (checked by [`ReportOut::check`]).
    pub(crate) fn open(
        report: Option<&Path>,
        output: Option<&Path>,
        inputs: &[PathBuf],
    ) -> Result<ReportOut, Failure> {
        ReportOut::check(report, output, inputs)?;
        let Some(report) = report else {
            return Ok(ReportOut(None));
        };
        let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        Ok(ReportOut(Some(files::Output::open(Some(report), &refs)?)))
    }

    /// Print `text`: into the report file, or on standard error unless
    /// `quiet` (quiet means quiet: the report only when it explains the
    /// exit code).
    pub(crate) fn print(self, text: &str, quiet: bool) -> Result<(), Failure> {
        match self.0 {
            Some(mut f) => {
                f.write(text.as_bytes())?;
                f.finish(true)
            }
            None if quiet => Ok(()),
            None => {
                crate::say::err(format_args!("{text}"));
                Ok(())
            }
        }
    }
}

/// Each input's reader warnings, said as they come (merge, publish).
pub(crate) fn say_diagnostics(done: &Done, inputs: &[PathBuf]) {
    for (read, path) in done.inputs.iter().zip(inputs) {
        files::said_read(path, &read.from);
        for d in &read.diagnostics {
            crate::say::info(format_args!(
                "{}",
                crate::failure::diagnostic_line(display_name(path), d)
            ));
        }
    }
}

/// `nothing written: --fail-on-loss (bookmark.tags not allowed)`.
pub(crate) fn refusal_line(done: &Done, allow_loss: &[markport::Field]) -> Option<String> {
    let flag = match done.refused? {
        markport::Refusal::Loss => {
            let fields = done.loss.not_allowed(allow_loss);
            let names: Vec<_> = fields.iter().map(|f| f.name()).collect();
            format!("--fail-on-loss ({} not allowed)", names.join(", "))
        }
        markport::Refusal::Extension => "--fail-on-extension".to_string(),
        markport::Refusal::Empty => {
            let had: usize = done.inputs.iter().map(|r| r.bookmarks).sum();
            let by = done.emptied_by();
            let by = if by.is_empty() {
                String::new()
            } else {
                format!(" ({})", by.join(", "))
            };
            format!(
                "no bookmark is left of the {} read{by}; --allow-empty writes it anyway",
                thousands(had)
            )
        }
    };
    Some(format!("nothing written: {flag}\n"))
}

/// The first lines a person reads ([`markport::report::written`]): what
/// was written and what it holds (`wrote out.html: 2,419 bookmarks in 37
/// folders`), or would be with `--dry-run`, or why nothing was; and a
/// warning line for an input that holds no bookmark.
///
/// `said` ends the first line: for whom the file is (`, for Firefox's
/// Import`) or how its format was chosen; with a destination, the next
/// line says how to import the file.
pub(crate) fn summary(
    done: &Done,
    inputs: &[PathBuf],
    output: &str,
    dry_run: bool,
    said: &str,
    dest: Option<&markport::Destination>,
) -> String {
    let names: Vec<_> = inputs.iter().map(|p| display_name(p)).collect();
    crate::report::shown(&markport::report::written(
        done, &names, output, dry_run, said, dest,
    ))
}

/// `2419` as `2,419`.
pub(crate) fn thousands(n: usize) -> String {
    markport::report::thousands(n)
}

/// `job` showing a bar of its inputs as they are read (on a terminal, not
/// under `--quiet`); the bar is cleared when the guard returned goes.
pub(crate) fn with_progress(mut job: markport::Job) -> (markport::Job, ProgressGuard) {
    crate::progress::start_running(job.inputs.len(), "reading");
    job.on_input = Some(crate::progress::step_running);
    (job, ProgressGuard)
}

/// Clears the bar [`with_progress`] started.
pub(crate) struct ProgressGuard;

impl Drop for ProgressGuard {
    fn drop(&mut self) {
        crate::progress::stop_running();
    }
}
