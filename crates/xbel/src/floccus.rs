//! Files Floccus syncs: an XBEL file whose items carry integer `id`s and
//! whose top holds `<!--- highestId :N: for Floccus bookmark sync browser
//! extension -->`. Floccus finds each local bookmark again by its id, and
//! takes a bookmark whose id it cannot find for one removed (floccus#1426);
//! it numbers new items above the highest id the comment records.
//!
//! Written as Floccus would: every folder and bookmark keeps its id; one
//! with no id, an id that is not a number, or the id of an earlier item
//! gets the next number above the highest (the comment's or any item's),
//! and the comment is rewritten with the new highest. Nothing changes in a
//! file without the comment, nor in `--xbel-strict` output (where a number
//! is no valid id).

use std::collections::{HashMap, HashSet};

use markport_model::{Document, Field, LossReport, Node, NodeId};

/// What the writer changes in a Floccus file: the ids it gives, and the
/// comment with the new highest.
pub(crate) struct Plan {
    /// The nodes given a new id, with it.
    pub(crate) ids: HashMap<NodeId, String>,
    /// The index of the comment in the header, and its new text.
    pub(crate) comment: (usize, String),
}

/// An id as Floccus reads it: a decimal integer.
fn number(id: &str) -> Option<u64> {
    (!id.is_empty() && id.len() <= 18 && id.bytes().all(|b| b.is_ascii_digit()))
        .then(|| id.parse().ok())
        .flatten()
}

/// The plan for `doc`, when its header has Floccus' comment; the changes
/// it makes are recorded in `loss` (as changes, with up to the report's
/// number of paths).
pub(crate) fn plan(doc: &Document, loss: &mut LossReport) -> Option<Plan> {
    let (index, recorded) = doc.header.floccus_highest_id()?;
    let items = || {
        doc.preorder().filter_map(|id| match doc.node(id) {
            Node::Bookmark(b) => Some((id, Field::BookmarkId, b.details().id.as_deref())),
            Node::Folder(f) => Some((id, Field::FolderId, f.id.as_deref())),
            _ => None,
        })
    };
    let highest = items()
        .filter_map(|(_, _, id)| id.and_then(number))
        .fold(recorded, u64::max);
    let mut next = highest;
    let mut seen = HashSet::new();
    let mut ids = HashMap::new();
    let mut given: [(usize, Vec<String>); 2] = Default::default();
    for (node, field, id) in items() {
        if id.and_then(number).is_some_and(|n| seen.insert(n)) {
            continue;
        }
        next += 1;
        ids.insert(node, next.to_string());
        let (count, paths) = &mut given[usize::from(field == Field::FolderId)];
        *count += 1;
        if paths.len() < markport_model::MAX_PATHS {
            paths.push(doc.path(node));
        }
    }
    for (field, (count, paths)) in [Field::BookmarkId, Field::FolderId].into_iter().zip(given) {
        if count > 0 {
            loss.record_change(
                field,
                count,
                paths,
                "given a Floccus id above the file's highest (it had none, one that is not a number, or an earlier item's)",
            );
        }
    }
    let old = &doc.header.comments[index];
    if next != recorded {
        loss.record_change(
            Field::DocumentComments,
            1,
            Vec::new(),
            format!("Floccus' highestId rewritten from {recorded} to {next}"),
        );
    }
    Some(Plan {
        ids,
        comment: (index, rewrite(old, next)),
    })
}

/// The comment with `highest` in place of the number it records.
fn rewrite(comment: &str, highest: u64) -> String {
    const MARK: &str = "highestId :";
    let Some(at) = comment.find(MARK).map(|i| i + MARK.len()) else {
        return comment.to_string();
    };
    let end = comment[at..].find(':').map_or(comment.len(), |e| at + e);
    format!("{}{highest}{}", &comment[..at], &comment[end..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::{Bookmark, Folder};

    fn floccus(highest: u64) -> Document {
        let mut doc = Document::new();
        doc.header.comments.push(format!(
            "- highestId :{highest}: for Floccus bookmark sync browser extension "
        ));
        doc
    }

    #[test]
    fn new_and_clashing_items_are_numbered_above_the_highest() {
        let mut doc = floccus(7);
        let mut f = Folder::titled("Reading");
        f.id = Some("1".into());
        let folder = doc.push(None, f);
        let mut kept = Bookmark::new("https://a/");
        kept.details_mut().id = Some("9".into());
        doc.push(Some(folder), kept.clone());
        doc.push(Some(folder), Bookmark::new("https://new/"));
        doc.push(Some(folder), kept);
        doc.push(None, Folder::titled("New folder"));
        let mut loss = LossReport::new();
        let plan = plan(&doc, &mut loss).unwrap();
        let mut given: Vec<_> = plan.ids.values().cloned().collect();
        given.sort();
        assert_eq!(given, ["10", "11", "12"]);
        assert_eq!(
            plan.comment.1,
            "- highestId :12: for Floccus bookmark sync browser extension "
        );
        assert!(!loss.changes.is_empty());
    }

    #[test]
    fn a_file_without_the_comment_is_left_alone() {
        let mut doc = Document::new();
        doc.push(None, Bookmark::new("https://a/"));
        assert!(plan(&doc, &mut LossReport::new()).is_none());
    }
}
