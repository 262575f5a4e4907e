//! `markport convert`: one file to another format, and what was lost.

use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::failure::Failure;
use crate::files;
use crate::flags::{JobFlags, WritableFormat};
use crate::pipeline::{self, Out, ReportOut};

#[derive(Args)]
pub(crate) struct ConvertArgs {
    /// The file to convert (`-`: standard input).
    #[arg(default_value = "-")]
    input: PathBuf,
    /// Where to write (`-`: standard output). A regular file is written to a
    /// temporary file and renamed into place, never half-written; a link is
    /// followed; a device or FIFO is written through (docs/output.md).
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// A second file is not taken as the output: said, with the -o to use.
    #[arg(hide = true)]
    second: Option<PathBuf>,
    /// The output format (default: from the -o extension; `html` is netscape).
    #[arg(short, long, value_name = "FORMAT", value_parser = WritableFormat)]
    to: Option<String>,
    /// The report's style (the older spelling of --json).
    #[arg(long, value_enum, default_value = "text", hide = true)]
    report: ReportStyle,
    #[command(flatten)]
    job: JobFlags,
}

/// How to print a report (`--report`, the older spelling of `--json`).
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub(crate) enum ReportStyle {
    /// For people.
    Text,
    /// Stable JSON for programs (see docs/report.md).
    Json,
}

pub(crate) fn run(a: ConvertArgs) -> u8 {
    try_convert(&a).unwrap_or_else(|f| f.report())
}

/// `convert` is the library's one pipeline with one input: this maps the
/// flags, prepares the destinations, and prints the report.
fn try_convert(a: &ConvertArgs) -> Result<u8, Failure> {
    if let Some(second) = &a.second {
        return Err(Failure::new(format_args!(
            "convert takes one input file; to write {0}, say `-o {0}`",
            second.display()
        )));
    }
    let inputs = [a.input.clone()];
    ReportOut::check(
        a.job.report.report_file.as_deref(),
        a.output.as_deref(),
        &inputs,
    )?;
    // A read-only target is refused before the input is read.
    let dest = a.job.destination();
    let (to, options, said) = files::output_format(
        a.to.as_deref(),
        dest,
        a.output.as_deref(),
        a.job.write.options(),
    )?;
    let to = markport::To::Format {
        format: to,
        options,
    };
    let job = a.job.job(pipeline::inputs(&inputs)?, to.clone())?;
    // Both destinations are prepared (temporary files made, devices opened,
    // permissions checked) before either is written, so a report that cannot
    // be written never leaves a replaced output behind.
    let out = Out::open(&to, a.output.as_deref(), &inputs, a.job.gates.dry_run)?;
    let report_out = ReportOut::open(
        a.job.report.report_file.as_deref(),
        a.output.as_deref(),
        &inputs,
    )?;
    let output_name = pipeline::output_name(a.output.as_deref());
    let done = out
        .run(job)
        .map_err(|e| pipeline::failure(&e, &inputs, &output_name, to.name()))?;
    // The document is used to the end of the process: freeing it string by
    // string would take longer than the exit.
    let done = files::never_dropped(done);
    let read = &done.inputs[0];
    files::said_read(&a.input, &read.from);
    let json = a.job.report.json || a.report == ReportStyle::Json;
    let mut text = crate::report::OneInput {
        input: &a.input,
        output: &output_name,
        to: to.name(),
        dry_run: a.job.gates.dry_run,
        said: &said,
        dest,
        json,
    }
    .text(&done);
    if let (Some(line), false) = (pipeline::refusal_line(&done, &a.job.gates.allow_loss), json) {
        text.push_str(&line);
    }
    let quiet = crate::say::quiet() && done.refused.is_none() && !json;
    report_out.print(&text, quiet)?;
    Ok(if done.refused.is_some() {
        exit::DIFFERENT
    } else {
        exit::OK
    })
}
