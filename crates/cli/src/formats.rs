//! `markport formats`: the formats and which fields each can carry.

use std::io::Write;

use clap::Args;

use crate::exit;
use crate::failure::Failure;
use crate::files;

#[derive(Args)]
pub(crate) struct FormatsArgs {
    /// Print the matrix as Markdown (the text of docs/loss-matrix.md).
    #[arg(long)]
    markdown: bool,
}

pub(crate) fn run(a: FormatsArgs) -> u8 {
    try_formats(&a).unwrap_or_else(|f| f.report())
}

fn try_formats(a: &FormatsArgs) -> Result<u8, Failure> {
    let mut out = files::stdout()?;
    if a.markdown {
        write!(out, "{}", markport::matrix::markdown())?;
    } else {
        for f in markport::FORMATS {
            let ext = f
                .extensions
                .iter()
                .map(|e| format!(".{e}"))
                .collect::<Vec<_>>()
                .join(" ");
            let description = if f.writable() {
                f.description.to_string()
            } else {
                format!("{} (read only)", f.description)
            };
            writeln!(out, "{:<10} {:<12} {}", f.name, ext, description)?;
        }
        writeln!(out)?;
        write!(out, "{}", markport::matrix::text())?;
    }
    files::finish_stdout(out)?;
    Ok(exit::OK)
}
