//! `markport check`: list every problem in bookmark files, as a validator
//! or a linter does (the rules: docs/check.md, `markport_check::rules`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use markport::model::display::{shown, MESSAGE_CHARS, VALUE_CHARS};
use serde::Serialize;

use crate::failure::Failure;
use crate::files::display_name;
use crate::flags::format_names;
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
    /// listing every problem; a writer's habit that readers accept
    /// (Floccus' numeric ids, KDE's titled separators, Safari's top-level
    /// folders, Shaarli's links with no list) is listed element by element under the rule it breaks, not
    /// once naming the writer.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    budget: crate::flags::BudgetFlags,
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
        // Read as convert reads it: a favorites tree by its path, a live
        // places.sqlite with its -wal.
        let checked = (|| {
            let input = files::input(path);
            let from = files::named_format(a.from.as_deref())?;
            let checked = markport_check::check_input_to_the_letter(
                input,
                from,
                a.budget.memory_budget,
                a.strict,
            )
            .map_err(|e| Failure::in_file(&name, e.message))?;
            files::said_read(path, &checked.from);
            Ok::<_, Failure>(checked.problems)
        })();
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
