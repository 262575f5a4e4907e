//! The conversion report for people (standard error): the library's plain
//! words ([`markport::report`]) with what only the command adds: the
//! reader's warnings in its `markport: FILE:LINE:COL:` form, and the
//! field-level listing under `--verbose`. The JSON for programs is the
//! library's ([`markport::report::Report`], documented in `docs/report.md`).

use markport::report::{self as words, Line};
use markport::{Diagnostic, LossReport};

/// Version of the JSON report's shape.
pub(crate) use markport::report::REPORT_VERSION;

/// `lines` as the command prints them.
pub(crate) fn shown(lines: &[Line]) -> String {
    lines.iter().map(Line::to_string).collect()
}

/// The report of one input for people: the reader's warnings as they
/// came, then `summary` (what was written), then what was lost, then the
/// requested changes.
pub(crate) fn text(
    input: &str,
    diagnostics: &[Diagnostic],
    summary: &str,
    loss: &LossReport,
    from: &str,
    to: &str,
    label: Option<&str>,
) -> String {
    let mut s = String::new();
    for d in diagnostics {
        s.push_str(&crate::failure::diagnostic_line(input, d));
    }
    s.push_str(summary);
    s.push_str(&plain(loss, from, to, label));
    s.push_str(&changes_text(&loss.changes));
    s
}

/// The report of a run over one input, as `--json` asks or for people
/// (warnings, what was written, what was lost, the requested changes):
/// what convert and links print.
pub(crate) struct OneInput<'a> {
    pub(crate) input: &'a std::path::Path,
    pub(crate) output: &'a str,
    pub(crate) to: &'a str,
    pub(crate) dry_run: bool,
    pub(crate) said: &'a str,
    pub(crate) dest: Option<&'a markport::Destination>,
    pub(crate) json: bool,
}

impl OneInput<'_> {
    /// The report's text for `done`.
    pub(crate) fn text(&self, done: &markport::Done) -> String {
        let name = crate::files::display_name(self.input);
        let report = markport::report::Report::new(
            done,
            std::slice::from_ref(&name),
            self.output,
            self.to,
            self.dest,
        );
        if self.json {
            return report.to_json();
        }
        let read = &done.inputs[0];
        text(
            &name,
            &read.diagnostics,
            &crate::pipeline::summary(
                done,
                &[self.input.to_path_buf()],
                self.output,
                self.dry_run,
                self.said,
                self.dest,
            ),
            &done.loss,
            read.from.format.name,
            self.to,
            self.dest.map(|d| d.label),
        )
    }
}

/// What was lost, what only an extension carries and what the destination
/// will not keep, in plain words ([`markport::report::losses`]); then the
/// field-level lines, with where, under `--verbose`, or a hint that `-v`
/// lists them.
pub(crate) fn plain(loss: &LossReport, from: &str, to: &str, label: Option<&str>) -> String {
    let mut s = shown(&words::losses(loss, from, to, label));
    let listed =
        !loss.losses.is_empty() || !loss.extensions.is_empty() || !loss.destination.is_empty();
    if crate::say::verbose_on() {
        // The requested changes have their own section (changes_text).
        let mut listed = loss.clone();
        listed.changes.clear();
        s.push_str(&listed.to_string());
    } else if listed {
        s.push_str("  (-v lists each field, why, and where)\n");
    }
    s
}

/// The requested changes, in their own section
/// ([`markport::report::changes`]).
pub(crate) fn changes_text(changes: &[markport::model::ReportEntry]) -> String {
    shown(&words::changes(changes))
}
