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
    /// The destination `--for` named.
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    pub for_: Option<&'a str>,
    /// Who takes the file in, for the plain words (`Firefox`).
    #[serde(skip)]
    pub label: Option<&'a str>,
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
        s.push_str(&plain(&loss, self.from, self.to, self.label));
        s.push_str(&changes_text(self.changes));
        s
    }

    pub(crate) fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serialises") + "\n"
    }
}

/// What was lost, in plain words with counts (`netscape -> xbel: could
/// not carry the tags of 3 bookmarks`), what only an extension carries,
/// and what the destination will not keep (`Firefox will drop the
/// description of 192 bookmarks`); the field-level lines, with where,
/// under `--verbose`.
pub(crate) fn plain(loss: &LossReport, from: &str, to: &str, label: Option<&str>) -> String {
    let mut s = String::new();
    if !loss.destination.is_empty() {
        let (drops, changes): (Vec<_>, Vec<_>) = loss
            .destination
            .iter()
            .cloned()
            .partition(|e| is_drop(&e.reason));
        let mut parts = Vec::new();
        if !drops.is_empty() {
            parts.push(format!("drop {}", and_list(&counted_fields(&drops))));
        }
        if !changes.is_empty() {
            parts.push(format!("change {}", and_list(&counted_fields(&changes))));
        }
        match label {
            Some(who) => s.push_str(&format!("{who} will {}\n", parts.join("; and "))),
            // The program is named in each reason (-v), not known here.
            None => {
                let fields: std::collections::BTreeSet<_> =
                    loss.destination.iter().map(|e| e.field).collect();
                s.push_str(&format!(
                    "{from} -> {to}: {} field(s) written but not kept where the bookmarks go: it will {}\n",
                    fields.len(),
                    parts.join("; and ")
                ));
            }
        }
    }
    if loss.losses.is_empty() {
        s.push_str(&format!("{from} -> {to}: nothing lost\n"));
    } else {
        s.push_str(&format!(
            "{from} -> {to}: could not carry {}\n",
            and_list(&counted_fields(&loss.losses))
        ));
    }
    if !loss.extensions.is_empty() {
        s.push_str(&format!(
            "{from} -> {to}: kept only where other {to} readers do not look: {}\n",
            and_list(&counted_fields(&loss.extensions))
        ));
    }
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

/// Whether a destination entry's reason says the field is dropped rather
/// than changed: the reasons say so in words (`drops`, `does not read`,
/// `no such field`).
fn is_drop(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    [
        "drop",
        "does not",
        "no such",
        "not kept",
        "not keep",
        "not import",
        "keeps no",
        "has no",
    ]
    .iter()
    .any(|w| r.contains(w))
}

/// Each field of `entries` with its count summed over reasons, in plain
/// words (`the tags of 40 bookmarks`), in the order first met.
fn counted_fields(entries: &[markport::model::ReportEntry]) -> Vec<String> {
    let mut counts: Vec<(markport::Field, usize)> = Vec::new();
    for e in entries {
        match counts.iter_mut().find(|(f, _)| *f == e.field) {
            Some((_, n)) => *n += e.count,
            None => counts.push((e.field, e.count)),
        }
    }
    counts.into_iter().map(|(f, n)| plain_field(f, n)).collect()
}

/// A field on `n` nodes in words: `192 bookmarks`, `the tags of 40
/// bookmarks`, `the document's title`.
pub(crate) fn plain_field(field: markport::Field, n: usize) -> String {
    let name = field.name();
    let (scope, attr) = name.split_once('.').unwrap_or((name, ""));
    let n_of = |noun: &str| {
        if n == 1 {
            format!("1 {noun}")
        } else {
            let plural = if noun.ends_with('s') {
                format!("{noun}es")
            } else {
                format!("{noun}s")
            };
            format!("{} {plural}", crate::pipeline::thousands(n))
        }
    };
    if attr.is_empty() {
        return match scope {
            // A placement change: the node is put in another folder.
            "folder" => format!("the place of {}", n_of("item")),
            other => n_of(other),
        };
    }
    let (attr, form) = match attr.strip_suffix(".form") {
        Some(a) => (a, " (as written)"),
        None => (attr, ""),
    };
    let attr = match attr {
        "href" => "link",
        "desc" => "description",
        "added" => "date added",
        "modified" => "date modified",
        "visited" => "date of the last visit",
        "favicon" => "icon",
        "favicon-uri" => "icon's link",
        "post-data" => "post data",
        "feed-url" => "feed",
        "to-read" => "to-read flag",
        "private" => "private flag",
        "extra" => "other attributes",
        "meta-info" => "meta info",
        "folded" => "folded state",
        other => other,
    };
    if scope == "document" {
        format!("the document's {attr}{form}")
    } else {
        format!("the {attr}{form} of {}", n_of(scope))
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
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
