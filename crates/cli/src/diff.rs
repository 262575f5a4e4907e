//! `markport diff`: two bookmark files (any formats) compared field by
//! field, each read through the library's one door.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use markport::ReadOptions;

use crate::exit;
use crate::failure::Failure;
use crate::files::{self, display_name, load};

#[derive(Args)]
pub(crate) struct DiffArgs {
    /// The first file.
    a: PathBuf,
    /// The second file.
    b: PathBuf,
    /// The first file's format (default: detected).
    #[arg(long, value_name = "FORMAT", value_parser = crate::flags::format_names())]
    from_a: Option<String>,
    /// The second file's format (default: detected).
    #[arg(long, value_name = "FORMAT", value_parser = crate::flags::format_names())]
    from_b: Option<String>,
    /// Show the two values of each differing field (long ones shortened).
    #[arg(long)]
    values: bool,
    /// List every node that differs (default: the first five of each file).
    #[arg(long)]
    all: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    budget: crate::flags::BudgetFlags,
}

fn print_diff(out: &mut dyn Write, d: &markport::Diff, json: bool) -> std::io::Result<()> {
    if json {
        serde_json::to_writer_pretty(&mut *out, d)?;
        return writeln!(out);
    }
    for x in &d.differences {
        writeln!(out, "{x}")?;
    }
    Ok(())
}

pub(crate) fn run(a: DiffArgs) -> u8 {
    try_diff(&a).unwrap_or_else(|f| f.report())
}

fn try_diff(a: &DiffArgs) -> Result<u8, Failure> {
    let mut opts = ReadOptions::default();
    opts.memory_budget = a.budget.memory_budget;
    let ra = load(&a.a, a.from_a.as_deref(), &opts)?;
    let rb = load(&a.b, a.from_b.as_deref(), &opts)?;
    let mut out = files::stdout()?;
    let max_paths = if a.all {
        usize::MAX
    } else {
        markport::model::MAX_PATHS
    };
    let d = markport::diff_listing(&ra.document, &rb.document, max_paths);
    let (name_a, name_b) = (display_name(&a.a), display_name(&a.b));
    if a.values {
        let (left, right) = (&ra.document, &rb.document);
        let differences: Vec<_> = d
            .differences
            .iter()
            .map(|x| WithValues {
                difference: x,
                values: markport::values(left, right, x),
            })
            .collect();
        if a.json {
            let mut differences = differences;
            for v in differences.iter_mut().flat_map(|x| &mut x.values) {
                shorten(&mut v.left, JSON_VALUE_CHARS);
                shorten(&mut v.right, JSON_VALUE_CHARS);
            }
            serde_json::to_writer_pretty(&mut out, &DiffWithValues { differences })?;
            writeln!(out)?;
        } else {
            for x in &differences {
                writeln!(out, "{}", x.difference)?;
                for v in &x.values {
                    let indent = match &v.path {
                        Some(path) if v.only_second => {
                            writeln!(out, "  {path} (only in {name_b})")?;
                            "    "
                        }
                        Some(path) => {
                            writeln!(out, "  {path}")?;
                            "    "
                        }
                        None => "  ",
                    };
                    writeln!(out, "{indent}{name_a}: {}", shown(&v.left))?;
                    writeln!(out, "{indent}{name_b}: {}", shown(&v.right))?;
                }
            }
        }
    } else {
        print_diff(&mut out, &d, a.json)?;
    }
    if d.is_empty() && !a.json {
        writeln!(out, "{name_a} and {name_b} carry the same bookmarks")?;
    }
    files::finish_stdout(out)?;
    Ok(if d.is_empty() {
        exit::OK
    } else {
        exit::DIFFERENT
    })
}

/// `diff --values --json`: each difference with its values.
#[derive(Serialize)]
struct DiffWithValues<'a> {
    differences: Vec<WithValues<'a>>,
}

#[derive(Serialize)]
struct WithValues<'a> {
    #[serde(flatten)]
    difference: &'a markport::Difference,
    values: Vec<markport::Values>,
}

/// How much of a value `diff --values` prints: a line's worth as text, more
/// as JSON, where a program may want it but a favicon's data URI would still
/// drown the rest.
const TEXT_VALUE_CHARS: usize = 100;
const JSON_VALUE_CHARS: usize = 500;

/// A value on one line, as JSON (a string quoted, its control characters
/// escaped, so nothing in a file can move the terminal's cursor), shortened.
fn shown(v: &serde_json::Value) -> String {
    if v.is_null() {
        return "(not set)".into();
    }
    // JSON quotes a string and escapes what JSON must; `shown` escapes the
    // rest a terminal would act on (DEL, C1, bidi controls) and cuts it.
    markport::model::display::shown(&v.to_string(), TEXT_VALUE_CHARS).into_owned()
}

/// Shorten every string in `v` to `max` characters (and a `…`). The model's
/// values nest a few levels at most; the walk keeps its own stack anyway.
fn shorten(v: &mut serde_json::Value, max: usize) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::String(s) => {
                if let Some((cut, _)) = s.char_indices().nth(max) {
                    s.truncate(cut);
                    s.push('…');
                }
            }
            serde_json::Value::Array(items) => stack.extend(items.iter_mut()),
            serde_json::Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
}
