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
    /// The format to go through.
    #[arg(long, value_name = "FORMAT", value_parser = WritableFormat)]
    via: String,
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
}

pub(crate) fn run(a: RoundtripArgs) -> u8 {
    try_roundtrip(&a).unwrap_or_else(|f| f.report())
}

fn try_roundtrip(a: &RoundtripArgs) -> Result<u8, Failure> {
    let via = markport::format(&a.via).expect("clap checked the name");
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
        };
        out = serde_json::to_string_pretty(&r).expect("a report serialises") + "\n";
    } else {
        out.push_str(&format!(
            "{name}: {} -> {} -> {}\n",
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
