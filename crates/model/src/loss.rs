//! What a writer could not carry.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::display::{shown, VALUE_CHARS};
use crate::document::{Document, NodeId};
use crate::field::Field;

/// How many node paths a report keeps per entry.
pub const MAX_PATHS: usize = 5;

/// One entry of a [`LossReport`]: a field, on how many nodes, where, and
/// why. What it means is the list it is in: a loss
/// ([`LossReport::losses`]), a field carried only in an extension
/// ([`LossReport::extensions`]), one the destination program drops
/// ([`LossReport::destination`]) or a change the user asked for
/// ([`LossReport::changes`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ReportEntry {
    /// The field.
    pub field: Field,
    /// On how many nodes (1 for a document-level field).
    pub count: usize,
    /// The first few node paths (`Toolbar/News/BBC`); empty for the document itself.
    pub paths: Vec<String>,
    /// Why: what the format cannot carry, the extension that carries it,
    /// the program that drops it, or the operation that changed it.
    pub reason: String,
}

/// The old name of [`ReportEntry`], from when a report held only losses.
#[deprecated(
    since = "0.1.0",
    note = "renamed ReportEntry: a report's entries are losses, extensions, destination drops and requested changes"
)]
pub type Loss = ReportEntry;

/// What a conversion did to a collection, in four lists of [`ReportEntry`]s,
/// each in the order it was first met: what the writer could not carry
/// (`losses`, the only list [`LossReport::is_empty`] counts), what it
/// carried only where the format's other readers do not look
/// (`extensions`), what the destination program drops (`destination`),
/// and the changes the user asked for (`changes`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LossReport {
    /// One entry per (field, reason).
    pub losses: Vec<ReportEntry>,
    /// Fields carried, but only in an extension other readers of the format
    /// ignore (XBEL: markport's own metadata block, which Floccus, KDE and
    /// GLib never read). Not a loss: markport reads them back. One entry per
    /// (field, reason), with the same shape as a loss.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<ReportEntry>,
    /// Changes the user asked for (`--dedupe`, `--flatten`, ...), one entry
    /// per (field, reason), with the same shape as a loss; the reason names
    /// the operation (`removed by --dedupe`). Not a loss: the format could
    /// carry them, the user chose to change them, so [`LossReport::is_empty`]
    /// does not count them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<ReportEntry>,
    /// What the destination program drops or changes when it takes in what
    /// was written, although the file carries it: a browser store's fields
    /// that Firefox's restore or Chromium's next save does not keep, as
    /// measured with the real browser (docs/formats/). One entry per (field,
    /// reason), the reason naming the program ("Firefox drops this on
    /// restore"). Not counted by [`LossReport::is_empty`], which holds to what
    /// a markport round trip loses; [`LossReport::arrives_whole`] counts both.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub destination: Vec<ReportEntry>,
}

/// Add one node to the entry for (field, reason) of `list`.
fn add(
    list: &mut Vec<ReportEntry>,
    doc: &Document,
    node: Option<NodeId>,
    field: Field,
    reason: &str,
) {
    let entry = match list
        .iter()
        .position(|l| l.field == field && l.reason == reason)
    {
        Some(i) => &mut list[i],
        None => {
            list.push(ReportEntry {
                field,
                count: 0,
                paths: Vec::new(),
                reason: reason.to_owned(),
            });
            list.last_mut().expect("just pushed")
        }
    };
    entry.count += 1;
    if let Some(id) = node {
        if entry.paths.len() < MAX_PATHS {
            entry.paths.push(doc.path(id));
        }
    }
}

/// Merge entries of `from` into `into`, by (field, reason).
fn merge(into: &mut Vec<ReportEntry>, from: Vec<ReportEntry>) {
    for l in from {
        match into
            .iter_mut()
            .find(|m| m.field == l.field && m.reason == l.reason)
        {
            Some(m) => {
                m.count += l.count;
                let room = MAX_PATHS.saturating_sub(m.paths.len());
                m.paths.extend(l.paths.into_iter().take(room));
            }
            None => into.push(l),
        }
    }
}

impl LossReport {
    /// An empty report.
    pub fn new() -> LossReport {
        LossReport::default()
    }

    /// Record that `field` of node `node` (`None`: the document) was not carried.
    /// Call once per node and reason.
    pub fn record(&mut self, doc: &Document, node: Option<NodeId>, field: Field, reason: &str) {
        add(&mut self.losses, doc, node, field, reason);
    }

    /// Record that `field` of node `node` was carried only in an extension
    /// other readers of the format ignore (see [`LossReport::extensions`]).
    pub fn record_extension(
        &mut self,
        doc: &Document,
        node: Option<NodeId>,
        field: Field,
        reason: &str,
    ) {
        add(&mut self.extensions, doc, node, field, reason);
    }

    /// Record that the destination program drops or changes `field` of
    /// `node` when it takes in the output, although the file carries it (see
    /// [`LossReport::destination`]). Call once per node and reason.
    pub fn record_destination(
        &mut self,
        doc: &Document,
        node: Option<NodeId>,
        field: Field,
        reason: &str,
    ) {
        add(&mut self.destination, doc, node, field, reason);
    }

    /// Record the differences of one requested change: each field of `diff`
    /// with its count and paths, its reason given by `reason`.
    ///
    /// ```
    /// use markport_model::{diff, Bookmark, Document, Field, LossReport};
    ///
    /// let mut before = Document::new();
    /// before.push(None, Bookmark::new("https://a.example/"));
    /// before.push(None, Bookmark::new("https://a.example/"));
    /// let mut after = before.clone();
    /// after.remove(after.children(None)[1]);
    /// let mut report = LossReport::new();
    /// report.record_changes(&diff(&before, &after), |_| "removed by --dedupe".into());
    /// assert_eq!(report.changes[0].field, Field::Bookmark);
    /// assert_eq!(report.changes[0].count, 1);
    /// assert!(report.is_empty(), "a requested change is not a loss");
    /// ```
    pub fn record_changes(&mut self, diff: &crate::Diff, reason: impl Fn(Field) -> String) {
        let entries = diff
            .differences
            .iter()
            .map(|d| ReportEntry {
                field: d.field,
                count: d.count,
                paths: d.paths.clone(),
                reason: reason(d.field),
            })
            .collect();
        merge(&mut self.changes, entries);
    }

    /// Record `count` requested changes of `field` with their first `paths`.
    pub fn record_change(
        &mut self,
        field: Field,
        count: usize,
        paths: Vec<String>,
        reason: impl Into<String>,
    ) {
        merge(
            &mut self.changes,
            vec![ReportEntry {
                field,
                count,
                paths: paths.into_iter().take(MAX_PATHS).collect(),
                reason: reason.into(),
            }],
        );
    }

    /// Whether the user asked for any change.
    pub fn has_changes(&self) -> bool {
        !self.changes.is_empty()
    }

    /// Whether anything was carried only in an extension.
    pub fn has_extensions(&self) -> bool {
        !self.extensions.is_empty()
    }

    /// Record, on `node`, each of the `present` fields that the format's
    /// `support` says it cannot carry at all: what every writer reports for
    /// the fields it has no place for.
    pub fn record_unsupported(
        &mut self,
        doc: &Document,
        node: Option<NodeId>,
        present: impl IntoIterator<Item = Field>,
        support: fn(Field) -> crate::Support,
        why: &str,
    ) {
        for f in present {
            if support(f) == crate::Support::None {
                self.record(doc, node, f, why);
            }
        }
    }

    /// Whether nothing was lost by the writer.
    pub fn is_empty(&self) -> bool {
        self.losses.is_empty()
    }

    /// Whether nothing was lost by the writer and the destination program
    /// keeps everything the file carries.
    pub fn arrives_whole(&self) -> bool {
        self.losses.is_empty() && self.destination.is_empty()
    }

    /// Whether everything arrives whole but the fields in `allowed`: what
    /// `--fail-on-loss --allow-loss FIELD,...` decides on. A loss or a
    /// destination entry of any other field means no.
    ///
    /// ```
    /// use markport_model::{Document, Field, LossReport};
    ///
    /// let doc = Document::new();
    /// let mut report = LossReport::new();
    /// report.record(&doc, None, Field::BookmarkGuid, "no guid in HTML");
    /// assert!(!report.arrives_whole());
    /// assert!(report.arrives_whole_but(&[Field::BookmarkGuid]));
    /// assert!(!report.arrives_whole_but(&[Field::BookmarkTags]));
    /// ```
    pub fn arrives_whole_but(&self, allowed: &[Field]) -> bool {
        self.losses
            .iter()
            .chain(&self.destination)
            .all(|l| allowed.contains(&l.field))
    }

    /// The fields lost or changed at the destination that `allowed` does
    /// not name, in report order without repeats.
    pub fn not_allowed(&self, allowed: &[Field]) -> Vec<Field> {
        let mut out = Vec::new();
        for l in self.losses.iter().chain(&self.destination) {
            if !allowed.contains(&l.field) && !out.contains(&l.field) {
                out.push(l.field);
            }
        }
        out
    }

    /// Whether the destination program drops or changes anything.
    pub fn has_destination(&self) -> bool {
        !self.destination.is_empty()
    }

    /// The fields that were lost.
    pub fn fields(&self) -> BTreeSet<Field> {
        self.losses.iter().map(|l| l.field).collect()
    }

    /// Add another report's entries.
    pub fn extend(&mut self, other: LossReport) {
        merge(&mut self.losses, other.losses);
        merge(&mut self.extensions, other.extensions);
        merge(&mut self.changes, other.changes);
        merge(&mut self.destination, other.destination);
    }
}

/// One line per entry: `lost bookmark.tags on 2 nodes: why (paths)`, then
/// `only in an extension: bookmark.tags on 2 nodes: why (paths)`, then the
/// requested changes: `changed bookmark on 12 nodes: removed by --dedupe (paths)`.
/// Paths are titles from a file: shown escaped and cut ([`crate::display::shown`]).
impl fmt::Display for LossReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = self
            .losses
            .iter()
            .map(|l| ("lost", l))
            .chain(self.extensions.iter().map(|l| ("only in an extension:", l)))
            .chain(self.destination.iter().map(|l| ("at the destination:", l)))
            .chain(self.changes.iter().map(|l| ("changed", l)));
        for (what, l) in lines {
            let nodes = if l.count == 1 { "node" } else { "nodes" };
            write!(
                f,
                "{what} {} on {} {}: {}",
                l.field, l.count, nodes, l.reason
            )?;
            if !l.paths.is_empty() {
                write!(f, " (")?;
                for (i, p) in l.paths.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    f.write_str(&shown(p, VALUE_CHARS))?;
                }
                if l.count > l.paths.len() {
                    write!(f, ", ...")?;
                }
                write!(f, ")")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
