//! `markport merge`: one collection from several files of any formats.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use markport::ops::MergedInput;

use crate::exit;
use crate::failure::Failure;
use crate::files::{self, display_name, Output};

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The files to merge, in order: the first wins a conflict.
    #[arg(required = true, value_name = "IN")]
    inputs: Vec<PathBuf>,
    /// Where to write (`-`: standard output).
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// The output format (default: from the -o extension).
    #[arg(short, long, value_name = "FORMAT", value_parser = crate::commands::WritableFormat)]
    to: Option<String>,
    /// Keep bookmarks whose link an earlier one has (default: merge them).
    #[arg(long)]
    keep_duplicates: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Exit 1 when the output format cannot carry something, and write nothing.
    #[arg(long)]
    fail_on_loss: bool,
    /// With --fail-on-loss (which it turns on): these fields may be lost,
    /// as the report names them (`bookmark.guid`; `folder` for placement).
    #[arg(long, value_name = "FIELD,...", value_delimiter = ',', value_parser = crate::commands::field_name)]
    allow_loss: Vec<markport::Field>,
    #[command(flatten)]
    operations: crate::operations::OperationFlags,
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
}

pub(crate) fn run(a: MergeArgs) -> u8 {
    try_merge(&a).unwrap_or_else(|f| f.report())
}

fn try_merge(a: &MergeArgs) -> Result<u8, Failure> {
    if a.inputs.len() < 2 {
        return Err(Failure::new(
            "merge needs at least two input files (to convert one, use `markport convert`)",
        ));
    }
    if a.inputs.iter().filter(|p| files::is_std(p)).count() > 1 {
        return Err(Failure::new(
            "standard input (-) can be only one of the inputs",
        ));
    }
    let to = files::output_format(a.to.as_deref(), a.output.as_deref())?;
    let operations = a.operations.operations()?;
    let (docs, formats) = files::load_all(&a.inputs)?;
    let (mut doc, merged) =
        markport::ops::merge_keeping(docs, a.keep_duplicates, a.operations.keep_empty())
            .map_err(|e| Failure::new(e.message))?;
    let requested =
        markport::ops::apply(&mut doc, &operations).map_err(|e| Failure::new(e.message))?;
    let (bytes, written) = markport::write_to_vec(&doc, to, &markport::WriteOptions::default())
        .map_err(|e| Failure::new(format_args!("writing {}: {}", to.name, e)))?;
    // What joining folders could not keep is lost as surely as what the
    // format cannot carry: one report, which --fail-on-loss reads.
    let mut loss = markport::LossReport::new();
    for m in &merged {
        loss.extend(m.report.clone());
    }
    loss.extend(requested);
    loss.extend(written);
    let failed =
        (a.fail_on_loss || !a.allow_loss.is_empty()) && !loss.arrives_whole_but(&a.allow_loss);
    let inputs: Vec<&Path> = a.inputs.iter().map(PathBuf::as_path).collect();
    let mut out = Output::open(a.output.as_deref(), &inputs)?;
    if !failed {
        out.write(&bytes)?;
    }
    out.finish(!failed)?;
    let output_name = match a.output.as_deref().filter(|o| !files::is_std(o)) {
        Some(o) => o.to_string_lossy().into_owned(),
        None => "<stdout>".into(),
    };
    let report = MergeReport {
        markport_report: crate::report::REPORT_VERSION,
        inputs: a
            .inputs
            .iter()
            .zip(formats)
            .zip(merged)
            .map(|((path, from), m)| input_report(path, from, m))
            .collect(),
        output: &output_name,
        to: to.name,
        losses: &loss.losses,
        lost: !loss.is_empty(),
        extensions: &loss.extensions,
        extended: loss.has_extensions(),
        changes: &loss.changes,
    };
    let mut text = if a.json {
        serde_json::to_string_pretty(&report).expect("a report serialises") + "\n"
    } else {
        text(&report, &loss)
    };
    if failed && !a.json {
        let names: Vec<_> = loss
            .not_allowed(&a.allow_loss)
            .iter()
            .map(|f| f.name())
            .collect();
        text.push_str(&format!(
            "nothing written: --fail-on-loss ({} not allowed)\n",
            names.join(", ")
        ));
    }
    // Quiet means quiet: the report only when it explains the exit code.
    if a.json || !crate::say::quiet() || failed {
        crate::say::err(format_args!("{text}"));
    }
    Ok(if failed { exit::DIFFERENT } else { exit::OK })
}

fn input_report(path: &Path, from: &'static str, m: MergedInput) -> InputReport {
    InputReport {
        input: display_name(path).into_owned(),
        from,
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
fn text(r: &MergeReport<'_>, loss: &markport::LossReport) -> String {
    let mut s = String::new();
    for i in &r.inputs {
        s.push_str(&format!(
            "{} ({}): {} bookmarks, {} added, {} merged into an earlier one\n",
            i.input, i.from, i.bookmarks, i.added, i.merged
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
    if loss.is_empty() {
        s.push_str(&format!("merged -> {}: nothing lost\n", r.to));
    } else {
        s.push_str(&format!(
            "merged -> {}: {} field(s) lost\n",
            r.to,
            loss.fields().len()
        ));
    }
    s.push_str(&loss.to_string());
    s
}
