//! `markport check`: list every problem in bookmark files, as a validator
//! or a linter does (the rules: docs/check.md, `markport_check::RULES`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
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
        // A favorites tree is many files: check reads one file at a time.
        let checked = if !files::is_std(path) && path.is_dir() {
            Err(Failure::in_file(
                &name,
                "a directory: check reads one file; a favorites tree's problems are the warnings of `markport info DIR`",
            ))
        } else {
            Ok(())
        };
        let checked = checked.and_then(|()| read_input(path)).and_then(|bytes| {
            let format = input_format(a.from.as_deref(), path, &bytes)?;
            Ok(markport_check::check(&bytes, format))
        });
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
                    file: name,
                    problem: p,
                },
            )?;
            writeln!(out)?;
        } else {
            writeln!(
                out,
                "{name}:{}:{}: {}: {}: {}",
                p.line,
                p.column,
                p.severity.as_str(),
                p.rule,
                p.message
            )?;
        }
    }
    Ok(())
}
