//! `markport info`: a file's format, counts, the fields it holds and what
//! the reader noticed, read through the library's one door.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::exit;
use crate::failure::Failure;
use crate::files::{self, display_name, load};

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// The file to look at (`-`: standard input).
    file: PathBuf,
    /// Its format (default: detected).
    #[arg(short, long, value_name = "FORMAT", value_parser = crate::flags::format_names())]
    from: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    read: crate::flags::ReadFlags,
}

#[derive(Serialize)]
struct Info<'a> {
    file: &'a str,
    format: &'a str,
    #[serde(flatten)]
    census: markport::model::Census,
    diagnostics: &'a [markport::Diagnostic],
}

pub(crate) fn run(a: InfoArgs) -> u8 {
    try_info(&a).unwrap_or_else(|f| f.report())
}

fn try_info(a: &InfoArgs) -> Result<u8, Failure> {
    // --strict lists every warning and then fails, rather than stopping
    // the read at the first one as convert does.
    let mut read_opts = a.read.options();
    read_opts.strict = false;
    let read = load(&a.file, a.from.as_deref(), &read_opts)?;
    let format = read.from.format;
    let warned = a.read.strict
        && read
            .diagnostics
            .iter()
            .any(|d| d.severity == markport::model::Severity::Warning);
    let code = if warned { exit::DIFFERENT } else { exit::OK };
    let read = files::never_dropped(read);
    let mut out = files::stdout()?;
    let census = read.document.census();
    let name = display_name(&a.file);
    if a.json {
        let info = Info {
            file: &name,
            format: format.name,
            census,
            diagnostics: &read.diagnostics,
        };
        serde_json::to_writer_pretty(&mut out, &info)?;
        writeln!(out)?;
        files::finish_stdout(out)?;
        return Ok(code);
    }
    writeln!(out, "{name}: {} ({})", format.name, format.description)?;
    writeln!(
        out,
        "  {}, {}, {}, {}, depth {}",
        count(census.bookmarks, "bookmark"),
        count(census.folders, "folder"),
        count(census.separators, "separator"),
        count(census.aliases, "alias"),
        census.depth
    )?;
    writeln!(out, "  fields present:")?;
    for (field, count) in &census.fields {
        writeln!(out, "    {:<26} {count}", field.name())?;
    }
    if !read.diagnostics.is_empty() {
        writeln!(out, "  diagnostics:")?;
        for d in &read.diagnostics {
            writeln!(out, "    {d}")?;
        }
    }
    files::finish_stdout(out)?;
    Ok(code)
}

/// `1 bookmark`, `2 bookmarks`, `1 alias`, `2 aliases`.
fn count(n: usize, noun: &str) -> String {
    match (n, noun.ends_with('s')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{n} {noun}es"),
        _ => format!("{n} {noun}s"),
    }
}
