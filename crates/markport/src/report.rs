//! The report of a finished [`Job`](crate::Job), in the one shape every
//! surface gives it: the JSON for programs (`markport convert --json` for
//! one input, `markport merge --json` for several, and `markport serve`'s
//! `report`; its shape is documented in `docs/report.md`), and the plain
//! words for people, as lines a command prints and a page shows.
//!
//! ```
//! # #[cfg(all(feature = "xbel", feature = "netscape"))] {
//! use markport::{format, report, run, Input, Job, Target, To, WriteOptions};
//!
//! let xbel = br#"<xbel version="1.0"><bookmark href="https://example.org/"
//!     added="2024-01-02T03:04:05Z"><title>Example</title></bookmark></xbel>"#;
//! let to = To::Format { format: format("netscape").unwrap(), options: WriteOptions::default() };
//! let mut out = Vec::new();
//! let done = run(Job::new(vec![Input::Bytes(xbel.to_vec())], to), Target::Stream(&mut out)).unwrap();
//! let names = ["in.xbel"];
//! let json = report::Report::new(&done, &names, "out.html", "netscape", None).to_json();
//! assert!(json.contains(r#""lost": false"#));
//! let summary = report::Summary::new(&done, &names, "out.html", "netscape", "", None);
//! assert_eq!(summary.to_string(), "wrote out.html: 1 bookmark in 0 folders\nxbel -> netscape: nothing lost\n");
//! # }
//! ```

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use crate::model::ReportEntry;
pub use crate::report_three::{
    three_way, three_way_conflicted, three_way_lines, SideInput, ThreeWayReport,
};
use crate::words::name_of;
pub use crate::words::{counted, thousands, Line, LineKind, REPORT_VERSION};
use crate::{Destination, Diagnostic, Done, Field, InputRead, LossReport, Node};

/// The JSON report of one input converted (`markport convert --json`).
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct ConvertReport<'a> {
    /// The shape's version ([`REPORT_VERSION`]).
    pub markport_report: u32,
    /// The input's name.
    pub input: String,
    /// The format it was read as.
    pub from: &'static str,
    /// The output's name.
    pub output: String,
    /// The format written.
    pub to: String,
    /// What the reader noticed.
    pub diagnostics: &'a [Diagnostic],
    /// What the output could not carry.
    pub losses: &'a [ReportEntry],
    /// Whether anything was lost.
    pub lost: bool,
    /// What only an extension other readers ignore carries (not a loss).
    pub extensions: &'a [ReportEntry],
    /// Whether anything rides in an extension.
    pub extended: bool,
    /// What the user asked to change (`--dedupe`, ...): not a loss.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub changes: &'a [ReportEntry],
    /// What the destination program drops or changes on import although
    /// the file carries it (measured with the real program).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub destination: &'a [ReportEntry],
    /// The destination `--for` named.
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    pub for_: Option<&'static str>,
}

/// A conflicting field of a merged input and on how many bookmarks.
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct Conflict {
    /// The field whose values differed.
    pub field: Field,
    /// On how many bookmarks (the earlier value kept).
    pub count: usize,
}

/// What merging did with one input's bookmarks.
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct InputReport {
    /// The input's name.
    pub input: String,
    /// The format it was read as.
    pub from: &'static str,
    /// The bookmarks it held.
    pub bookmarks: usize,
    /// Those added to the collection.
    pub added: usize,
    /// Those merged into an earlier input's.
    pub merged: usize,
    /// The fields that disagreed with the earlier bookmark.
    pub conflicts: Vec<Conflict>,
}

/// The JSON report of several inputs merged (`markport merge --json`).
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct MergeReport<'a> {
    /// The shape's version ([`REPORT_VERSION`]).
    pub markport_report: u32,
    /// Each input, in order.
    pub inputs: Vec<InputReport>,
    /// The output's name.
    pub output: String,
    /// The format written.
    pub to: String,
    /// What the output could not carry.
    pub losses: &'a [ReportEntry],
    /// Whether anything was lost.
    pub lost: bool,
    /// What only an extension other readers ignore carries (not a loss).
    pub extensions: &'a [ReportEntry],
    /// Whether anything rides in an extension.
    pub extended: bool,
    /// Folders joined with one of the same title in their own input, and
    /// what else the user asked to change.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub changes: &'a [ReportEntry],
    /// What the destination drops or changes on import.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub destination: &'a [ReportEntry],
    /// The destination `--for` named.
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    pub for_: Option<&'static str>,
}

/// The JSON report of a job: convert's shape for one input, merge's for
/// several, the three-way merge's for `merge --base`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Report<'a> {
    /// One input.
    Convert(ConvertReport<'a>),
    /// Several inputs.
    Merge(MergeReport<'a>),
    /// Base, ours and theirs merged three ways.
    ThreeWay(ThreeWayReport<'a>),
}

impl<'a> Report<'a> {
    /// The report of `done`: `names` are the inputs' names as the user
    /// gave them (in order), `output` the output's, `to` the format
    /// written, `dest` the destination `--for` named.
    pub fn new<S: AsRef<str>>(
        done: &'a Done,
        names: &[S],
        output: &str,
        to: &str,
        dest: Option<&Destination>,
    ) -> Report<'a> {
        if done.three_way.is_some() {
            return Report::ThreeWay(ThreeWayReport::new(done, names, output, to, dest));
        }
        let loss = &done.loss;
        match &done.inputs[..] {
            [read] => Report::Convert(ConvertReport {
                markport_report: REPORT_VERSION,
                input: name_of(names, 0),
                from: read.from.format.name,
                output: output.to_string(),
                to: to.to_string(),
                diagnostics: &read.diagnostics,
                losses: &loss.losses,
                lost: !loss.is_empty(),
                extensions: &loss.extensions,
                extended: loss.has_extensions(),
                changes: &loss.changes,
                destination: &loss.destination,
                for_: dest.map(|d| d.name),
            }),
            reads => Report::Merge(MergeReport {
                markport_report: REPORT_VERSION,
                inputs: reads
                    .iter()
                    .enumerate()
                    .map(|(i, read)| input_report(name_of(names, i), read))
                    .collect(),
                output: output.to_string(),
                to: to.to_string(),
                losses: &loss.losses,
                lost: !loss.is_empty(),
                extensions: &loss.extensions,
                extended: loss.has_extensions(),
                changes: &loss.changes,
                destination: &loss.destination,
                for_: dest.map(|d| d.name),
            }),
        }
    }

    /// The report as pretty JSON ending with a newline, as the command
    /// prints it.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serialises") + "\n"
    }
}

fn input_report(input: String, read: &InputRead) -> InputReport {
    let m = read.merged.clone().unwrap_or_default();
    InputReport {
        input,
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

/// The plain summary of a job, in the order a person reads it: what was
/// written, each merged input, what the destination will not keep, what
/// was lost, and the requested changes. Shown, each line ends with a
/// newline and a detail is indented by two spaces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// The lines, in order.
    pub lines: Vec<Line>,
}

impl Summary {
    /// The summary of `done` as written to `output` in `to` (arguments as
    /// [`Report::new`]'s); `said` ends the first line (`, for Firefox's
    /// Import`, see [`written`]).
    pub fn new<S: AsRef<str>>(
        done: &Done,
        names: &[S],
        output: &str,
        to: &str,
        said: &str,
        dest: Option<&Destination>,
    ) -> Summary {
        let mut lines = written(done, names, output, false, said, dest);
        let from = if done.inputs.len() == 1 {
            done.inputs[0].from.format.name
        } else {
            lines.extend(merged_inputs(done, names));
            "merged"
        };
        lines.extend(losses(&done.loss, from, to, dest.map(|d| d.label)));
        lines.extend(changes(&done.loss.changes));
        Summary { lines }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.lines.iter().try_for_each(|l| l.fmt(f))
    }
}

/// The first lines a person reads: a warning for each input that holds
/// no bookmark, then what was written and what it holds (`wrote out.html:
/// 2,419 bookmarks in 37 folders`), or would be with `dry_run`, or why
/// nothing was; with a destination, how to import the file.
///
/// `said` ends the first line: for whom the file is (`, for Firefox's
/// Import`) or how its format was chosen.
pub fn written<S: AsRef<str>>(
    done: &Done,
    names: &[S],
    output: &str,
    dry_run: bool,
    said: &str,
    dest: Option<&Destination>,
) -> Vec<Line> {
    let mut lines = Vec::new();
    for (i, read) in done.inputs.iter().enumerate() {
        if read.bookmarks == 0 {
            lines.push(Line::new(
                LineKind::Empty,
                format!("warning: {} holds no bookmarks", name_of(names, i)),
            ));
        }
    }
    let (mut bookmarks, mut folders) = (0usize, 0usize);
    for id in done.document.preorder() {
        match done.document.node(id) {
            Node::Bookmark(_) => bookmarks += 1,
            Node::Folder(_) => folders += 1,
            _ => {}
        }
    }
    let holds = format!(
        "{} in {}",
        counted(bookmarks, "bookmark"),
        counted(folders, "folder")
    );
    if done.refused.is_some() {
        lines.push(Line::new(
            LineKind::Written,
            format!("not written: {output} would hold {holds}{said}"),
        ));
    } else {
        let verb = if dry_run { "would write" } else { "wrote" };
        lines.push(Line::new(
            LineKind::Written,
            format!("{verb} {output}: {holds}{said}"),
        ));
        if let Some(d) = dest {
            lines.push(Line::detail(LineKind::Import, d.how.to_string()));
        }
    }
    lines
}

/// How the first line ([`written`]) ends for a file written for `dest`:
/// `, for Firefox's Import` when the destination chose the format, `, for
/// Firefox (xbel as asked)` when the format `to` was named.
pub fn for_words(dest: &Destination, named: bool, to: &str) -> String {
    if named {
        format!(", for {} ({to} as asked)", dest.label)
    } else {
        format!(", for {}", dest.taker)
    }
}

/// Each merged input's counts (`firefox.html (netscape): 120 bookmarks,
/// 100 added, 20 merged into an earlier one`) and the fields on which it
/// disagreed with an earlier input.
pub fn merged_inputs<S: AsRef<str>>(done: &Done, names: &[S]) -> Vec<Line> {
    let mut lines = Vec::new();
    for (i, read) in done.inputs.iter().enumerate() {
        let r = input_report(name_of(names, i), read);
        lines.push(Line::new(
            LineKind::Input,
            format!(
                "{} ({}): {}, {} added, {} merged into an earlier one",
                r.input,
                r.from,
                counted(r.bookmarks, "bookmark"),
                thousands(r.added),
                thousands(r.merged)
            ),
        ));
        if !r.conflicts.is_empty() {
            let list: Vec<String> = r
                .conflicts
                .iter()
                .map(|c| format!("{} on {}", c.field, c.count))
                .collect();
            lines.push(Line::detail(
                LineKind::Conflicts,
                format!("conflicting (the earlier value kept): {}", list.join(", ")),
            ));
        }
    }
    lines
}

/// What was lost, in plain words with counts (`netscape -> xbel: could
/// not carry the tags of 3 bookmarks`), what only an extension carries,
/// and, first, what the destination will not keep (`Firefox will drop the
/// description of 192 bookmarks`). `label` names the destination program
/// (`Firefox`); without it, its reasons name it. The field-level entries
/// are the report's ([`LossReport`]'s `Display` lists them with where).
pub fn losses(loss: &LossReport, from: &str, to: &str, label: Option<&str>) -> Vec<Line> {
    let mut lines = Vec::new();
    if !loss.destination.is_empty() {
        let (drops, changes): (Vec<&ReportEntry>, Vec<&ReportEntry>) =
            loss.destination.iter().partition(|e| is_drop(&e.reason));
        let mut parts = Vec::new();
        if !drops.is_empty() {
            parts.push(format!("drop {}", and_list(&counted_fields(&drops))));
        }
        if !changes.is_empty() {
            parts.push(format!("change {}", and_list(&counted_fields(&changes))));
        }
        let text = match label {
            Some(who) => format!("{who} will {}", parts.join("; and ")),
            None => {
                let fields: BTreeSet<_> = loss.destination.iter().map(|e| e.field).collect();
                format!(
                    "{from} -> {to}: {} field(s) written but not kept where the bookmarks go: it will {}",
                    fields.len(),
                    parts.join("; and ")
                )
            }
        };
        lines.push(Line::new(LineKind::Destination, text));
    }
    if loss.losses.is_empty() {
        lines.push(Line::new(
            LineKind::Kept,
            format!("{from} -> {to}: nothing lost"),
        ));
    } else {
        let lost: Vec<&ReportEntry> = loss.losses.iter().collect();
        lines.push(Line::new(
            LineKind::Lost,
            format!(
                "{from} -> {to}: could not carry {}",
                and_list(&counted_fields(&lost))
            ),
        ));
    }
    if !loss.extensions.is_empty() {
        let kept: Vec<&ReportEntry> = loss.extensions.iter().collect();
        lines.push(Line::new(
            LineKind::Extension,
            format!(
                "{from} -> {to}: kept only where other {to} readers do not look: {}",
                and_list(&counted_fields(&kept))
            ),
        ));
    }
    lines
}

/// The requested changes, in their own section: `requested changes (not
/// losses):`, then `removed by --dedupe: bookmark on 12 nodes (paths)`.
pub fn changes(changes: &[ReportEntry]) -> Vec<Line> {
    let mut lines = Vec::new();
    if changes.is_empty() {
        return lines;
    }
    lines.push(Line::new(
        LineKind::Changes,
        "requested changes (not losses):".into(),
    ));
    for c in changes {
        let nodes = if c.count == 1 { "node" } else { "nodes" };
        let mut text = format!("{}: {} on {} {nodes}", c.reason, c.field, c.count);
        if !c.paths.is_empty() {
            let more = if c.count > c.paths.len() { ", ..." } else { "" };
            text.push_str(&format!(" ({}{more})", c.paths.join(", ")));
        }
        lines.push(Line::detail(LineKind::Change, text));
    }
    lines
}

/// Whether a destination entry's reason says the field is dropped rather
/// than changed: the reasons say so in words (`drops`, `does not read`,
/// `no such field`).
pub fn is_drop(reason: &str) -> bool {
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
fn counted_fields(entries: &[&ReportEntry]) -> Vec<String> {
    let mut counts: Vec<(Field, usize)> = Vec::new();
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
///
/// ```
/// use markport::{report::plain_field, Field};
/// assert_eq!(plain_field(Field::BookmarkTags, 2419), "the tags of 2,419 bookmarks");
/// ```
pub fn plain_field(field: Field, n: usize) -> String {
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
            format!("{} {plural}", thousands(n))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_lists_read_as_words() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(
            and_list(&["a".into(), "b".into(), "c".into()]),
            "a, b and c"
        );
        assert_eq!(plain_field(Field::Separator, 3), "3 separators");
        assert_eq!(
            plain_field(Field::BookmarkDesc, 1),
            "the description of 1 bookmark"
        );
    }

    #[test]
    fn a_destination_line_parts_drops_from_changes() {
        let mut doc = crate::Document::new();
        let mut ids = Vec::new();
        for i in 0..3 {
            ids.push(doc.push(
                None,
                crate::Bookmark::new(format!("https://example.org/{i}")),
            ));
        }
        let mut loss = LossReport::new();
        for &id in &ids {
            loss.record_destination(&doc, Some(id), Field::BookmarkDesc, "Firefox drops it");
        }
        for &id in &ids[..2] {
            loss.record_destination(&doc, Some(id), Field::BookmarkTitle, "shortened to 4096");
        }
        let lines = losses(&loss, "xbel", "netscape", Some("Firefox"));
        assert_eq!(lines[0].kind, LineKind::Destination);
        assert_eq!(
            lines[0].text,
            "Firefox will drop the description of 3 bookmarks; and change the title of 2 bookmarks"
        );
        assert_eq!(lines[1].kind, LineKind::Kept);
    }
}
