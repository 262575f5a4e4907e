//! `markport merge`: one collection from several files of any formats.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use crate::exit;
use crate::failure::Failure;
use crate::files::{self, display_name};
use crate::pipeline::{self, Out, ReportOut};

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The files to merge, in order: the first wins a conflict.
    #[arg(required = true, value_name = "IN")]
    inputs: Vec<PathBuf>,
    /// Where to write (`-`: standard output). A regular file is written to a
    /// temporary file and renamed into place, never half-written; a link is
    /// followed; a device or FIFO is written through (docs/output.md).
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// The output format (default: from the -o extension; `html` is netscape).
    #[arg(short, long, value_name = "FORMAT", value_parser = crate::flags::WritableFormat)]
    to: Option<String>,
    /// Keep bookmarks whose link an earlier one has (default: merge them).
    #[arg(long)]
    keep_duplicates: bool,
    /// How alike two links must be to merge: `exact` (the default: as a URL
    /// parser reads them), `normal` (a trailing slash ignored) or `loose`
    /// (also http as https, utm_* and other tracking parameters and the
    /// #fragment ignored).
    #[arg(
        long = "match",
        value_enum,
        value_name = "LEVEL",
        conflicts_with = "keep_duplicates"
    )]
    link_match: Option<crate::operations::MatchLevel>,
    #[command(flatten)]
    job: crate::flags::JobFlags,
}

#[derive(Serialize)]
struct Conflict {
    field: markport::Field,
    count: usize,
}

#[derive(Serialize)]
struct InputReport {
    input: String,
    from: &'static str,
    bookmarks: usize,
    added: usize,
    merged: usize,
    conflicts: Vec<Conflict>,
}

#[derive(Serialize)]
struct MergeReport<'a> {
    markport_report: u32,
    inputs: Vec<InputReport>,
    output: &'a str,
    to: &'a str,
    losses: &'a [markport::model::ReportEntry],
    lost: bool,
    extensions: &'a [markport::model::ReportEntry],
    extended: bool,
    /// Folders joined with one of the same title in their own input.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    changes: &'a [markport::model::ReportEntry],
    /// What the destination drops or changes on import.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    destination: &'a [markport::model::ReportEntry],
    /// The destination `--for` named.
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    for_: Option<&'a str>,
}

pub(crate) fn run(a: MergeArgs) -> u8 {
    try_merge(&a).unwrap_or_else(|f| f.report())
}

/// `merge` is the library's one pipeline with several inputs.
fn try_merge(a: &MergeArgs) -> Result<u8, Failure> {
    if a.inputs.len() < 2 {
        return Err(Failure::new(
            "merge needs at least two input files (to convert one, use `markport convert`)",
        ));
    }
    ReportOut::check(
        a.job.report.report_file.as_deref(),
        a.output.as_deref(),
        &a.inputs,
    )?;
    let dest = a.job.destination();
    let (format, options, said) = files::output_format(
        a.to.as_deref(),
        dest,
        a.output.as_deref(),
        a.job.write.options(),
    )?;
    let to = markport::To::Format { format, options };
    let mut job = a.job.job(pipeline::inputs(&a.inputs)?, to.clone())?;
    job.keep_duplicates = a.keep_duplicates;
    if let Some(level) = a.link_match {
        job.link_match = level.into();
    }
    let out = Out::open(&to, a.output.as_deref(), &a.inputs, a.job.gates.dry_run)?;
    let report_out = ReportOut::open(
        a.job.report.report_file.as_deref(),
        a.output.as_deref(),
        &a.inputs,
    )?;
    let output_name = pipeline::output_name(a.output.as_deref());
    let (job, progress) = pipeline::with_progress(job);
    let done = out.run(job);
    drop(progress);
    let done = done.map_err(|e| pipeline::failure(&e, &a.inputs, &output_name, to.name()))?;
    let done = files::never_dropped(done);
    // As convert: the readers' notes first, so the last lines a person sees
    // say what was written.
    pipeline::say_diagnostics(&done, &a.inputs);
    let loss = &done.loss;
    let report = MergeReport {
        markport_report: crate::report::REPORT_VERSION,
        inputs: a
            .inputs
            .iter()
            .zip(&done.inputs)
            .map(|(path, read)| input_report(path, read))
            .collect(),
        output: &output_name,
        to: to.name(),
        losses: &loss.losses,
        lost: !loss.is_empty(),
        extensions: &loss.extensions,
        extended: loss.has_extensions(),
        changes: &loss.changes,
        destination: &loss.destination,
        for_: dest.map(|d| d.name),
    };
    let failed = done.refused.is_some();
    let mut text = if a.job.report.json {
        serde_json::to_string_pretty(&report).expect("a report serialises") + "\n"
    } else {
        pipeline::summary(
            &done,
            &a.inputs,
            &output_name,
            a.job.gates.dry_run,
            &said,
            dest,
        ) + &text(&report, loss, dest.map(|d| d.label))
    };
    if let (Some(line), false) = (
        pipeline::refusal_line(&done, &a.job.gates.allow_loss),
        a.job.report.json,
    ) {
        text.push_str(&line);
    }
    // Quiet means quiet: the report only when it explains the exit code.
    let quiet = crate::say::quiet() && !a.job.report.json && !failed;
    report_out.print(&text, quiet)?;
    Ok(if failed { exit::DIFFERENT } else { exit::OK })
}

fn input_report(path: &Path, read: &markport::InputRead) -> InputReport {
    let m = read.merged.clone().unwrap_or_default();
    InputReport {
        input: display_name(path).into_owned(),
        from: read.from.format.name,
        bookmarks: m.bookmarks,
        added: m.added,
        merged: m.merged,
        conflicts: m
            .conflicts
            .into_iter()
            .map(|(field, count)| Conflict { field, count })
            .collect(),
    }
}

/// `firefox.html (netscape): 120 bookmarks, 100 added, 20 merged into earlier ones
///   conflicting: bookmark.title on 5, bookmark.added on 3`
fn text(r: &MergeReport<'_>, loss: &markport::LossReport, label: Option<&str>) -> String {
    let mut s = String::new();
    for i in &r.inputs {
        s.push_str(&format!(
            "{} ({}): {}, {} added, {} merged into an earlier one\n",
            i.input,
            i.from,
            pipeline::counted(i.bookmarks, "bookmark"),
            pipeline::thousands(i.added),
            pipeline::thousands(i.merged)
        ));
        if !i.conflicts.is_empty() {
            let list: Vec<String> = i
                .conflicts
                .iter()
                .map(|c| format!("{} on {}", c.field, c.count))
                .collect();
            s.push_str(&format!(
                "  conflicting (the earlier value kept): {}\n",
                list.join(", ")
            ));
        }
    }
    s.push_str(&crate::report::plain(loss, "merged", r.to, label));
    s.push_str(&crate::report::changes_text(&loss.changes));
    s
}
