//! `markport roundtrip`: what survives FILE -> FORMAT -> back: the
//! library's one pipeline making a trip through a format.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use markport::Field;

use crate::exit;
use crate::failure::Failure;
use crate::files::{self, display_name};
use crate::flags::{JobFlags, WritableFormat};
use crate::pipeline::{self, Out};

#[derive(Args)]
pub(crate) struct RoundtripArgs {
    /// The file to send through another format.
    file: PathBuf,
    /// The format to go through (with --for, the file its import takes:
    /// the report then also says what that program will not keep).
    #[arg(long, value_name = "FORMAT", value_parser = WritableFormat, required_unless_present = "destination")]
    via: Option<String>,
    #[command(flatten)]
    job: JobFlags,
}

#[derive(Serialize)]
struct Roundtrip<'a> {
    file: &'a str,
    from: &'a str,
    via: &'a str,
    reported: &'a [markport::model::ReportEntry],
    differences: &'a [markport::Difference],
    report_is_true: bool,
    /// What the operations changed before the trip (not losses).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    changes: &'a [markport::model::ReportEntry],
    /// The destination `--for` named.
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    destination_name: Option<&'a str>,
    /// What the destination's import drops or changes of what went out.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    destination: &'a [markport::model::ReportEntry],
}

pub(crate) fn run(a: RoundtripArgs) -> u8 {
    try_roundtrip(&a).unwrap_or_else(|f| f.report())
}

fn try_roundtrip(a: &RoundtripArgs) -> Result<u8, Failure> {
    let dest = a.job.destination();
    // --for alone goes through the file its import takes; a --via that is
    // not that file is refused by the pipeline, never silently ignored.
    let via = match (&a.via, dest) {
        (Some(via), _) => markport::format(via).expect("clap checked the name"),
        (None, Some(d)) => d.format(),
        (None, None) => unreachable!("clap requires --via or --for"),
    };
    let inputs = [a.file.clone()];
    let report_file = a.job.report.report_file.as_deref();
    let report_out = match report_file {
        Some(path) => Some(pipeline::ReportOut::open(Some(path), None, &inputs)?),
        None => None,
    };
    let options = a.job.write.options();
    let to = markport::To::Trip { via, options };
    let job = a.job.job(pipeline::inputs(&inputs)?, to)?;
    let name = display_name(&a.file);
    let done = Out::Nowhere.run(job).map_err(|e| match e.stage {
        markport::Stage::Write => {
            Failure::in_file(&name, format_args!("via {}: {}", via.name, e.error))
        }
        _ => pipeline::failure(&e, &inputs, "", via.name),
    })?;
    let done = files::never_dropped(done);
    let from = done.inputs[0].from.format;
    files::said_read(&a.file, &done.inputs[0].from);
    let trip = done.trip.as_ref().expect("a trip job reports its trip");
    let (d, loss) = (&trip.diff, &trip.loss);
    let true_report = trip.exact();
    let changes = &done.loss.changes;
    let mut out = String::new();
    if a.job.report.json {
        let r = Roundtrip {
            file: &name,
            from: from.name,
            via: via.name,
            reported: &loss.losses,
            differences: &d.differences,
            report_is_true: true_report,
            changes,
            destination_name: dest.map(|d| d.name),
            destination: &done.loss.destination,
        };
        out = serde_json::to_string_pretty(&r).expect("a report serialises") + "\n";
    } else {
        let said = dest.map_or(String::new(), |d| {
            markport::report::for_words(d, false, via.name)
        });
        out.push_str(&format!(
            "{name}: {} -> {} -> {}{said}\n",
            from.name, via.name, from.name
        ));
        if d.is_empty() {
            out.push_str("everything survived\n");
        } else {
            out.push_str("did not survive:\n");
            for x in &d.differences {
                out.push_str(&format!("{x}\n"));
            }
        }
        if !loss.is_empty() {
            out.push_str(&format!("the {} writer reported:\n{loss}", via.name));
        }
        if let Some(d) = dest {
            out.push_str(&destination_text(d, &done.loss.destination));
        }
        out.push_str(&crate::report::changes_text(changes));
        if !true_report {
            let names = |v: Vec<Field>| v.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ");
            out.push_str(&format!(
                "error: the loss report is not exact (unreported: [{}]; reported but kept: [{}])\n",
                names(trip.unreported()),
                names(trip.reported_but_kept())
            ));
        }
    }
    match report_out {
        Some(r) => r.print(&out, false)?,
        None => {
            let mut stdout = files::stdout()?;
            std::io::Write::write_all(&mut stdout, out.as_bytes())?;
            files::finish_stdout(stdout)?;
        }
    }
    // A report that is not exact is a bug in markport: never exit 0 on it.
    Ok(if !true_report || done.refused.is_some() {
        exit::DIFFERENT
    } else {
        exit::OK
    })
}

/// What the destination's import will not keep of the file that went out:
/// the summary's plain words (`Firefox will drop ...`), then each field
/// with where, or that it keeps everything.
fn destination_text(
    dest: &markport::Destination,
    entries: &[markport::model::ReportEntry],
) -> String {
    if entries.is_empty() {
        return format!("{} keeps everything that went through\n", dest.taker);
    }
    let mut only = markport::model::LossReport::new();
    only.destination = entries.to_vec();
    let mut out = String::new();
    for line in markport::report::losses(&only, "", "", Some(dest.label)) {
        if line.kind == markport::report::LineKind::Destination {
            out.push_str(&line.text);
            out.push(':');
            out.push('\n');
        }
    }
    out.push_str(&only.to_string());
    out
}
