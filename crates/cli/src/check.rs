//! `markport check`: list every problem in bookmark files, as a validator
//! or a linter does (the rules: docs/check.md, `markport_check::RULES`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use markport::model::display::{shown, MESSAGE_CHARS, VALUE_CHARS};
use serde::Serialize;

use crate::commands::format_names;
use crate::failure::Failure;
use crate::files::{display_name, input_format, read_input};
use crate::{exit, files};

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// The files to check (`-`: standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Their format (default: detected from each file's content, as convert does).
    #[arg(short, long, value_name = "FORMAT", value_parser = format_names())]
    from: Option<String>,
    /// One JSON object per problem and line: file, line, column, severity, rule, message.
    #[arg(long)]
    json: bool,
    /// Exit 1 on warnings too (without it, only an error does), after
    /// listing every problem.
    #[arg(long)]
    strict: bool,
}

/// One problem as `--json` prints it.
#[derive(Serialize)]
struct JsonProblem<'a> {
    file: &'a str,
    #[serde(flatten)]
    problem: &'a markport_check::Problem,
}

/// Check every file; exit 0 when no file has an error (with `--strict`: no
/// problem at all), 1 when one has, 2 when a file could not be read at all
/// (the others are still checked).
pub(crate) fn run(a: CheckArgs) -> u8 {
    let mut out = match files::stdout() {
        Ok(out) => out,
        Err(f) => return f.report(),
    };
    let mut code = exit::OK;
    for path in &a.files {
        let name = display_name(path);
        // A favorites tree is many files, read as convert reads it: its
        // problems are what its reader says, each in its own file.
        let checked = if !files::is_std(path) && path.is_dir() {
            tree(path, a.from.as_deref())
        } else {
            read_input(path).and_then(|bytes| {
                let format = input_format(a.from.as_deref(), path, &bytes)?;
                Ok(markport_check::check(&bytes, format))
            })
        };
        let problems = match checked {
            Ok(p) => p,
            Err(f) => {
                // Said where it happens, between the other files' lines.
                let _ = out.flush();
                f.report();
                code = exit::ERROR;
                continue;
            }
        };
        let fails =
            |p: &markport_check::Problem| a.strict || p.severity == markport_check::Severity::Error;
        if problems.iter().any(fails) && code == exit::OK {
            code = exit::DIFFERENT;
        }
        if let Err(e) = print(&mut out, &name, &problems, a.json) {
            return Failure::from(e).report();
        }
    }
    match files::finish_stdout(out) {
        Ok(()) => code,
        Err(f) => f.report(),
    }
}

/// The problems of a directory collection: its reading's error or warnings.
fn tree(path: &Path, from: Option<&str>) -> Result<Vec<markport_check::Problem>, Failure> {
    let read = markport::read_input(
        markport::Input::Path(path.to_path_buf()),
        files::named_format(from)?,
        &markport::ReadOptions::default(),
    );
    match read {
        Ok((from, parsed)) => {
            files::said_read(path, &from);
            Ok(markport_check::reading(&Ok(parsed)))
        }
        // A tree that is not read at all (a symbolic link loop) is a
        // problem found, as a file that does not parse is.
        Err(e) if e.stage == markport::Stage::Read && e.from.is_some() => {
            Ok(markport_check::reading(&Err(e.error)))
        }
        Err(e) => Err(files::read_failure(path, &e)),
    }
}

/// Where a problem is: the file checked, or the file of the tree it is in.
fn located_in(name: &str, p: &markport_check::Problem) -> String {
    match &p.file {
        Some(inner) => format!("{name}/{inner}"),
        None => name.to_owned(),
    }
}

fn print(
    out: &mut impl Write,
    name: &str,
    problems: &[markport_check::Problem],
    json: bool,
) -> std::io::Result<()> {
    for p in problems {
        if json {
            serde_json::to_writer(
                &mut *out,
                &JsonProblem {
                    file: &located_in(name, p),
                    problem: p,
                },
            )?;
            writeln!(out)?;
        } else {
            // The message quotes the file: escaped and cut, as every
            // value a person reads (JSON keeps it exact).
            writeln!(
                out,
                "{}:{}:{}: {}: {}: {}",
                shown(&located_in(name, p), VALUE_CHARS),
                p.line,
                p.column,
                p.severity.as_str(),
                p.rule,
                shown(&p.message, MESSAGE_CHARS)
            )?;
        }
    }
    Ok(())
}
