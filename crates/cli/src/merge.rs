//! `markport merge`: one collection from several files of any formats.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::exit;
use crate::failure::Failure;
use crate::files::{self, display_name};
use crate::pipeline::{self, Out, ReportOut};

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The files to merge, in order: the first wins a conflict. With
    /// --base: OURS and THEIRS.
    #[arg(required = true, value_name = "IN")]
    inputs: Vec<PathBuf>,
    /// Merge three ways: BASE is the last tree both inputs had in common,
    /// the inputs are OURS and THEIRS, each change of both is kept and each
    /// conflict said; exit 1 when one was met (docs/merge.md).
    #[arg(long, value_name = "BASE", conflicts_with_all = ["keep_duplicates", "link_match"])]
    base: Option<PathBuf>,
    /// With --base: whose value, folder and order a conflict takes.
    #[arg(long, value_enum, default_value = "ours", requires = "base")]
    prefer: crate::three_way::Prefer,
    /// With --base: merge even when a side deletes more than a fifth of
    /// the base (at least 10 items), as a stale copy does.
    #[arg(long, requires = "base")]
    allow_mass_delete: bool,
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

pub(crate) fn run(a: MergeArgs) -> u8 {
    let done = match &a.base {
        Some(base) => try_three_way(&a, base),
        None => try_merge(&a),
    };
    done.unwrap_or_else(|f| f.report())
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
    let names: Vec<_> = a.inputs.iter().map(|p| display_name(p)).collect();
    let failed = done.refused.is_some();
    let mut text = if a.job.report.json {
        markport::report::Report::new(&done, &names, &output_name, to.name(), dest).to_json()
    } else {
        let mut s = pipeline::summary(
            &done,
            &a.inputs,
            &output_name,
            a.job.gates.dry_run,
            &said,
            dest,
        );
        s.push_str(&crate::report::shown(&markport::report::merged_inputs(
            &done, &names,
        )));
        s.push_str(&crate::report::plain(
            loss,
            "merged",
            to.name(),
            dest.map(|d| d.label),
        ));
        s.push_str(&crate::report::changes_text(&loss.changes));
        s
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

/// `merge --base BASE OURS THEIRS`: the library's one pipeline with three
/// inputs merged three ways, written in OURS' format unless `--to` or
/// `--for` says another.
fn try_three_way(a: &MergeArgs, base: &Path) -> Result<u8, Failure> {
    let [ours, theirs] = &a.inputs[..] else {
        return Err(Failure::new(format_args!(
            "merge --base takes two inputs, OURS and THEIRS; got {}",
            a.inputs.len()
        )));
    };
    let inputs = [base.to_path_buf(), ours.clone(), theirs.clone()];
    ReportOut::check(
        a.job.report.report_file.as_deref(),
        a.output.as_deref(),
        &inputs,
    )?;
    let dest = a.job.destination();
    let ours_format = match (&a.to, dest) {
        (None, None) if !files::is_std(ours) => Some(crate::three_way::format_of(ours)?),
        _ => None,
    };
    let (format, options, said) = files::output_format(
        a.to.as_deref().or(ours_format),
        dest,
        a.output.as_deref(),
        a.job.write.options(),
    )?;
    let to = markport::To::Format { format, options };
    let mut job = a.job.job(pipeline::inputs(&inputs)?, to.clone())?;
    job.three_way = Some(crate::three_way::options(a.prefer, a.allow_mass_delete));
    let out = Out::open(&to, a.output.as_deref(), &inputs, a.job.gates.dry_run)?;
    let report_out = ReportOut::open(
        a.job.report.report_file.as_deref(),
        a.output.as_deref(),
        &inputs,
    )?;
    let output_name = pipeline::output_name(a.output.as_deref());
    let (job, progress) = pipeline::with_progress(job);
    let done = out.run(job);
    drop(progress);
    let done = done.map_err(|e| crate::three_way::failure(&e, &inputs, &output_name, to.name()))?;
    let done = files::never_dropped(done);
    pipeline::say_diagnostics(&done, &inputs);
    let names: Vec<_> = inputs.iter().map(|p| display_name(p)).collect();
    let mut text = if a.job.report.json {
        markport::report::Report::new(&done, &names, &output_name, to.name(), dest).to_json()
    } else {
        let mut s = pipeline::summary(
            &done,
            &inputs,
            &output_name,
            a.job.gates.dry_run,
            &said,
            dest,
        );
        s.push_str(&crate::three_way::text(&done, to.name()));
        s
    };
    if let (Some(line), false) = (
        pipeline::refusal_line(&done, &a.job.gates.allow_loss),
        a.job.report.json,
    ) {
        text.push_str(&line);
    }
    let code = crate::three_way::exit_code(&done);
    let quiet = crate::say::quiet() && !a.job.report.json && code == exit::OK;
    report_out.print(&text, quiet)?;
    Ok(code)
}
