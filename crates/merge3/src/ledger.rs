//! The ledger and the conflicts as the report says them: every item with
//! its one outcome and its path, every conflict with its values. The
//! ledger is checked against the document built: an item of the inputs
//! with no outcome, or an outcome the document does not bear out, fails
//! the merge.

use std::collections::HashMap;

use markport_model::{link_key, Document, Node};

use crate::build::Built;
use crate::decide::{Decisions, Pending, What};
use crate::items::{Items, ROOT};
use crate::paths::{label, Paths};
use crate::report::{Conflict, ConflictClass, Entry, Outcome};
use crate::tree::{Side, Tree, NONE};

/// Each item's path: in the result when it is there, else in the first
/// tree that has it.
pub(crate) struct ItemPaths<'a> {
    out: Paths<'a>,
    sides: [Paths<'a>; 3],
}

impl<'a> ItemPaths<'a> {
    pub(crate) fn new(trees: &[Tree<'a>; 3], out: &'a Document) -> ItemPaths<'a> {
        ItemPaths {
            out: Paths::new(out),
            sides: [0, 1, 2].map(|k| Paths::new(trees[k].doc)),
        }
    }

    pub(crate) fn of(&mut self, trees: &[Tree; 3], items: &Items, built: &Built, i: u32) -> String {
        if i == ROOT {
            return "(the collection)".into();
        }
        if let Some(id) = built.out[i as usize] {
            return self.out.path(id);
        }
        self.side(trees, items, i, None).unwrap_or_default()
    }

    /// The item's path in `side` (`None`: the first that has it).
    fn side(
        &mut self,
        trees: &[Tree; 3],
        items: &Items,
        i: u32,
        side: Option<Side>,
    ) -> Option<String> {
        let sides = match side {
            Some(s) => vec![s],
            None => Side::ALL.to_vec(),
        };
        sides.into_iter().find_map(|s| {
            let n = items.member(i, s);
            (n != NONE).then(|| self.sides[s.index()].path(trees[s.index()].ids[n as usize]))
        })
    }
}

/// One entry per item but the top level, each with its outcome and path.
pub(crate) fn ledger(
    trees: &[Tree; 3],
    items: &Items,
    d: &Decisions,
    built: &Built,
    paths: &mut ItemPaths,
) -> Vec<Entry> {
    (1..items.len() as u32)
        .map(|i| {
            let m = items.members[i as usize];
            let k = (0..3).find(|&k| m[k] != NONE).expect("an item has a node");
            Entry {
                outcome: d.outcome[i as usize],
                kind: trees[k].kind(m[k]),
                path: paths.of(trees, items, built, i),
                sides: Side::ALL
                    .into_iter()
                    .filter(|s| m[s.index()] != NONE)
                    .collect(),
            }
        })
        .collect()
}

/// How many items the ledger does not account for: a node of an input in
/// no item, an item in the result with an outcome that says it is not
/// (or the reverse), a result with another number of nodes.
pub(crate) fn unaccounted(items: &Items, d: &Decisions, built: &Built) -> usize {
    let orphans: usize = (0..3)
        .map(|k| items.item_of[k].iter().filter(|&&i| i == NONE).count())
        .sum();
    let wrong = (1..items.len())
        .filter(|&i| d.outcome[i].in_result() != built.out[i].is_some())
        .count();
    let placed = built.out.iter().filter(|o| o.is_some()).count();
    orphans + wrong + placed.abs_diff(built.document.len())
}

/// The pending conflicts with their values and paths.
pub(crate) fn said(
    trees: &[Tree; 3],
    items: &Items,
    built: &Built,
    pending: &[Pending],
    paths: &mut ItemPaths,
) -> Vec<Conflict> {
    pending
        .iter()
        .map(|p| {
            let values = match p.what {
                What::Folders(f) => f.map(|folder| match folder {
                    NONE => serde_json::Value::Null,
                    folder => paths.of(trees, items, built, folder).into(),
                }),
                What::Item => Side::ALL.map(|s| match items.member(p.item, s) {
                    NONE => serde_json::Value::Null,
                    n => label(trees[s.index()].node(n)).into(),
                }),
            };
            let [base, ours, theirs] = values;
            Conflict {
                class: p.class,
                path: paths.of(trees, items, built, p.item),
                field: None,
                base,
                ours,
                theirs,
                took: p.took,
            }
        })
        .collect()
}

/// The same link added by both sides as two items (under two titles, or
/// in two folders): one conflict for each such link, both kept.
pub(crate) fn added_twice(
    trees: &[Tree; 3],
    items: &Items,
    d: &Decisions,
    built: &Built,
    paths: &mut ItemPaths,
) -> Vec<Conflict> {
    let mut ours: HashMap<String, u32> = HashMap::new();
    for i in 1..items.len() as u32 {
        if d.outcome[i as usize] != Outcome::AddedByOurs {
            continue;
        }
        if let Node::Bookmark(b) = trees[1].node(items.member(i, Side::Ours)) {
            ours.entry(link_key(&b.href).into_owned()).or_insert(i);
        }
    }
    let mut out = Vec::new();
    if ours.is_empty() {
        return out;
    }
    for i in 1..items.len() as u32 {
        if d.outcome[i as usize] != Outcome::AddedByTheirs {
            continue;
        }
        let Node::Bookmark(b) = trees[2].node(items.member(i, Side::Theirs)) else {
            continue;
        };
        if let Some(o) = ours.remove(link_key(&b.href).as_ref()) {
            out.push(Conflict {
                class: ConflictClass::AddedTwice,
                path: paths.of(trees, items, built, i),
                field: None,
                base: serde_json::Value::Null,
                ours: paths.of(trees, items, built, o).into(),
                theirs: paths.of(trees, items, built, i).into(),
                took: None,
            });
        }
    }
    out
}
