//! The conversion report, as text for people (stderr) or JSON for programs.
//! The JSON shape is stable and documented in `docs/report.md`.

use serde::Serialize;

use markport::{Diagnostic, LossReport};

/// Version of the JSON report's shape.
pub(crate) const REPORT_VERSION: u32 = 1;

#[derive(Serialize)]
pub(crate) struct Report<'a> {
    pub markport_report: u32,
    pub input: &'a str,
    pub from: &'a str,
    pub output: &'a str,
    pub to: &'a str,
    pub diagnostics: &'a [Diagnostic],
    pub losses: &'a [markport::model::ReportEntry],
    pub lost: bool,
    /// What only an extension other readers ignore carries (not a loss).
    pub extensions: &'a [markport::model::ReportEntry],
    pub extended: bool,
    /// What the user asked to change (`--dedupe`, ...): not a loss.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub changes: &'a [markport::model::ReportEntry],
    /// What the destination program drops or changes on import although
    /// the file carries it (measured with the real browser).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub destination: &'a [markport::model::ReportEntry],
}

impl Report<'_> {
    /// The report for people: the reader's warnings as they came, then
    /// `summary` (what was written), then what was lost.
    pub(crate) fn text(&self, summary: &str) -> String {
        let mut s = String::new();
        for d in self.diagnostics {
            s.push_str(&crate::failure::diagnostic_line(self.input, d));
        }
        s.push_str(summary);
        let mut loss = LossReport::new();
        loss.losses = self.losses.to_vec();
        loss.extensions = self.extensions.to_vec();
        loss.destination = self.destination.to_vec();
        if self.losses.is_empty() {
            s.push_str(&format!("{} -> {}: nothing lost\n", self.from, self.to));
        } else {
            s.push_str(&format!(
                "{} -> {}: {} field(s) could not be carried\n",
                self.from,
                self.to,
                loss.fields().len()
            ));
        }
        if !self.extensions.is_empty() {
            let fields: std::collections::BTreeSet<_> =
                self.extensions.iter().map(|l| l.field).collect();
            s.push_str(&format!(
                "{} -> {}: {} field(s) kept only where other {} readers do not look\n",
                self.from,
                self.to,
                fields.len(),
                self.to
            ));
        }
        if !self.destination.is_empty() {
            let fields: std::collections::BTreeSet<_> =
                self.destination.iter().map(|l| l.field).collect();
            s.push_str(&format!(
                "{} -> {}: {} field(s) written but not kept where the bookmarks go\n",
                self.from,
                self.to,
                fields.len(),
            ));
        }
        s.push_str(&loss.to_string());
        s.push_str(&changes_text(self.changes));
        s
    }

    pub(crate) fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serialises") + "\n"
    }
}

/// The requested changes, in their own section: `removed by --dedupe:
/// bookmark on 12 nodes (paths)`.
pub(crate) fn changes_text(changes: &[markport::model::ReportEntry]) -> String {
    let mut s = String::new();
    if changes.is_empty() {
        return s;
    }
    s.push_str("requested changes (not losses):\n");
    for c in changes {
        let nodes = if c.count == 1 { "node" } else { "nodes" };
        s.push_str(&format!(
            "  {}: {} on {} {nodes}",
            c.reason, c.field, c.count
        ));
        if !c.paths.is_empty() {
            let more = if c.count > c.paths.len() { ", ..." } else { "" };
            s.push_str(&format!(" ({}{more})", c.paths.join(", ")));
        }
        s.push('\n');
    }
    s
}
