//! The report of a three-way merge (`markport merge --base`, `git-merge`,
//! `sync`): the JSON shape for programs and the plain words for people,
//! re-exported by [`crate::report`].

use serde::Serialize;

use crate::model::ReportEntry;
use crate::words::{counted, name_of, thousands, Line, LineKind, REPORT_VERSION};
use crate::{Destination, Done};

/// One input of a three-way merge.
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct SideInput {
    /// The input's name.
    pub input: String,
    /// The format it was read as.
    pub from: &'static str,
    /// The bookmarks it held.
    pub bookmarks: usize,
}

/// The JSON report of a three-way merge (`markport merge --base --json`,
/// `git-merge`'s sidecar, `sync --json`): the merge's own report
/// ([`markport_merge3::Report`]: matching, conflicts, the ledger) with the
/// inputs and what the output could not carry.
#[derive(Debug, Serialize)]
#[non_exhaustive]
pub struct ThreeWayReport<'a> {
    /// The shape's version ([`REPORT_VERSION`]).
    pub markport_report: u32,
    /// The common tree.
    pub base: SideInput,
    /// The copy merged into.
    pub ours: SideInput,
    /// The other copy.
    pub theirs: SideInput,
    /// The output's name.
    pub output: String,
    /// The format written.
    pub to: String,
    /// Whether a conflict of any class was met (the exit code 1).
    pub conflicted: bool,
    /// Each outcome and how many items had it (those met).
    pub outcomes: std::collections::BTreeMap<markport_merge3::Outcome, usize>,
    /// Matching, conflicts and the ledger.
    #[serde(flatten)]
    pub merge: &'a markport_merge3::Report,
    /// What the output could not carry.
    pub losses: &'a [ReportEntry],
    /// Whether anything was lost.
    pub lost: bool,
    /// What only an extension other readers ignore carries (not a loss).
    pub extensions: &'a [ReportEntry],
    /// What the user asked to change, and what the writer changed.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub changes: &'a [ReportEntry],
    /// What the destination drops or changes on import.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub destination: &'a [ReportEntry],
    /// The destination `--for` named.
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    pub for_: Option<&'static str>,
}

impl<'a> ThreeWayReport<'a> {
    /// The report of `done`, a job with [`Job::three_way`](crate::Job::three_way)
    /// (arguments as [`Report::new`](crate::report::Report::new)'s).
    ///
    /// # Panics
    /// When `done` is not a three-way merge's.
    pub fn new<S: AsRef<str>>(
        done: &'a Done,
        names: &[S],
        output: &str,
        to: &str,
        dest: Option<&Destination>,
    ) -> ThreeWayReport<'a> {
        let loss = &done.loss;
        let merge = done.three_way.as_ref().expect("a three-way merge's job");
        let side = |i: usize| SideInput {
            input: name_of(names, i),
            from: done.inputs[i].from.format.name,
            bookmarks: done.inputs[i].bookmarks,
        };
        ThreeWayReport {
            markport_report: REPORT_VERSION,
            base: side(0),
            ours: side(1),
            theirs: side(2),
            output: output.to_string(),
            to: to.to_string(),
            conflicted: three_way_conflicted(done),
            outcomes: merge
                .outcomes()
                .into_iter()
                .filter(|&(_, n)| n > 0)
                .collect(),
            merge,
            losses: &loss.losses,
            lost: !loss.is_empty(),
            extensions: &loss.extensions,
            changes: &loss.changes,
            destination: &loss.destination,
            for_: dest.map(|d| d.name),
        }
    }
}

/// Whether a three-way merge met a conflict of any class: one the merge
/// decided by its rule, or something the output format cannot hold.
pub fn three_way_conflicted(done: &Done) -> bool {
    done.three_way
        .as_ref()
        .is_some_and(|m| !m.conflicts.is_empty() || !done.loss.is_empty())
}

/// How many conflicts a plain summary lists one by one.
const CONFLICTS_SHOWN: usize = 20;

/// A three-way merge in plain words: how each side was matched, the
/// outcomes, and each conflict with its rule's decision (the first
/// [`CONFLICTS_SHOWN`]; the JSON report has them all, and the ledger).
pub fn three_way(done: &Done) -> Vec<Line> {
    done.three_way
        .as_ref()
        .map_or_else(Vec::new, three_way_lines)
}

/// A three-way merge's report in plain words (as [`three_way`], for a
/// merge run outside a job: `sync`).
pub fn three_way_lines(m: &markport_merge3::Report) -> Vec<Line> {
    let mut lines = Vec::new();
    for (side, c) in [("ours", &m.ours_matched), ("theirs", &m.theirs_matched)] {
        let tiers = [
            (c.id, "by id"),
            (c.link_title, "by link and title"),
            (c.link, "by link"),
            (c.moved, "moved"),
            (c.place, "by place"),
            (c.folder, "folders by title or contents"),
        ];
        let said: Vec<String> = tiers
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, w)| format!("{} {w}", thousands(*n)))
            .collect();
        let mut text = format!(
            "{side}: {} matched to the base ({})",
            thousands(c.total()),
            if said.is_empty() {
                "none".to_string()
            } else {
                said.join(", ")
            }
        );
        if c.duplicates > 0 {
            text.push_str(&format!(
                "; {} duplicate links matched in order",
                thousands(c.duplicates)
            ));
        }
        if c.ids_ignored {
            text.push_str("; its ids were not trusted (most pair different links and titles)");
        }
        lines.push(Line::new(LineKind::Matched, text));
    }
    let outcomes: Vec<String> = m
        .outcomes()
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(o, n)| format!("{} {}", thousands(n), o.words()))
        .collect();
    lines.push(Line::new(
        LineKind::Outcomes,
        format!("items: {}", outcomes.join(", ")),
    ));
    if m.conflicts.is_empty() {
        lines.push(Line::new(
            LineKind::MergeConflict,
            "no conflict".to_string(),
        ));
        return lines;
    }
    lines.push(Line::new(
        LineKind::MergeConflict,
        format!(
            "{}, each decided by its rule:",
            counted(m.conflicts.len(), "conflict")
        ),
    ));
    for c in m.conflicts.iter().take(CONFLICTS_SHOWN) {
        lines.push(Line::detail(LineKind::MergeConflict, conflict_words(c)));
    }
    if m.conflicts.len() > CONFLICTS_SHOWN {
        lines.push(Line::detail(
            LineKind::MergeConflict,
            format!(
                "and {} more (--json lists them all)",
                thousands(m.conflicts.len() - CONFLICTS_SHOWN)
            ),
        ));
    }
    lines
}

/// One conflict: `Menu/BBC: changed both ways: bookmark.title: ours "A",
/// theirs "B"; ours' kept`.
fn conflict_words(c: &markport_merge3::Conflict) -> String {
    let show = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "none".to_string(),
        serde_json::Value::String(s) => format!("{:?}", crate::model::display::shown(s, 80)),
        other => crate::model::display::shown(&other.to_string(), 80).into_owned(),
    };
    let field = c.field.map(|f| format!(": {f}")).unwrap_or_default();
    let took = match c.took {
        Some(side) => format!("{}' kept", side.name()),
        None => "both kept".to_string(),
    };
    format!(
        "{}: {}{field}: ours {}, theirs {}; {took}",
        crate::model::display::shown(&c.path, 200),
        c.class.words(),
        show(&c.ours),
        show(&c.theirs)
    )
}
