//! The merged document, built in one walk of the decided tree (an explicit
//! stack, no recursion): each item's node merged field by field, and the
//! header likewise.

use markport_model::{Document, Field, Header, Holder, HolderMut, Node, NodeId, NodeKind, Scope};

use crate::fields::{scope, FieldConflict, Merge, Put};
use crate::items::{Items, ROOT};
use crate::tree::{Side, Tree, NONE};

/// The merged document and where each item went.
pub(crate) struct Built {
    pub(crate) document: Document,
    /// Each item's node in the document, for the items in it.
    pub(crate) out: Vec<Option<NodeId>>,
    /// The fields changed both ways, with their items ([`ROOT`]: the header).
    pub(crate) fields: Vec<(u32, FieldConflict)>,
}

/// Build the document of the items `kids` holds, from the top level down.
pub(crate) fn build(
    trees: &[Tree; 3],
    items: &Items,
    kids: &[Vec<u32>],
    winner: Side,
    uncarried: &[Vec<Field>; 3],
) -> Built {
    let mut built = Built {
        document: Document::new(),
        out: vec![None; items.len()],
        fields: Vec::new(),
    };
    built.document.header = header(trees, winner, uncarried, &mut built.fields);
    let mut stack: Vec<(u32, usize)> = vec![(ROOT, 0)];
    while let Some(top) = stack.last_mut() {
        let (folder, next) = *top;
        let Some(&child) = kids[folder as usize].get(next) else {
            stack.pop();
            continue;
        };
        top.1 += 1;
        let node = merged_node(trees, items, child, winner, uncarried, &mut built.fields);
        let is_folder = node.kind() == NodeKind::Folder;
        let parent = built.out[folder as usize];
        let id = built.document.push(parent, node);
        built.out[child as usize] = Some(id);
        if is_folder {
            stack.push((child, 0));
        }
    }
    built
}

/// One item's node: the winner's (or the only side's) copy with each field
/// the other side changed.
fn merged_node(
    trees: &[Tree; 3],
    items: &Items,
    i: u32,
    winner: Side,
    uncarried: &[Vec<Field>; 3],
    conflicts: &mut Vec<(u32, FieldConflict)>,
) -> Node {
    let m = items.members[i as usize];
    let start = [winner, winner.other(), Side::Base]
        .into_iter()
        .find(|s| m[s.index()] != NONE)
        .expect("an item has a node");
    let node_of = |s: Side| (m[s.index()] != NONE).then(|| trees[s.index()].node(m[s.index()]));
    let mut node = node_of(start).expect("the start side has it").clone();
    if let Node::Alias(_) = node {
        // An alias is what it shows: whole, from the side that changed it.
        if let (Some(b), Some(other)) = (node_of(Side::Base), node_of(start.other())) {
            if node == *b && other != b && start != Side::Base {
                node = other.clone();
            }
        }
        return node;
    }
    let merge = Merge {
        holders: Side::ALL.map(|s| node_of(s).map(Holder::from)),
        start,
        winner,
        uncarried,
    };
    let scope = scope(&node);
    let found = merge.each(scope, &mut |field, what| match what {
        Put::From(from) => {
            field.copy(from, HolderMut::from(&mut node));
        }
        Put::Tags(tags) => {
            if let Some(b) = node.as_bookmark_mut() {
                b.tags = tags;
            }
        }
    });
    conflicts.extend(found.into_iter().map(|c| (i, c)));
    node
}

/// The header, field by field. Floccus' highestId comment counts the
/// highest of the three, so that two sides numbering apart is no change.
fn header(
    trees: &[Tree; 3],
    winner: Side,
    uncarried: &[Vec<Field>; 3],
    conflicts: &mut Vec<(u32, FieldConflict)>,
) -> Header {
    let highest = trees
        .iter()
        .filter_map(|t| t.doc.header.floccus_highest_id())
        .map(|(_, n)| n)
        .max();
    let headers: Vec<Header> = trees
        .iter()
        .map(|t| match highest {
            Some(n) => with_highest(&t.doc.header, n),
            None => t.doc.header.clone(),
        })
        .collect();
    let start = winner;
    let mut out = headers[start.index()].clone();
    let merge = Merge {
        holders: [0, 1, 2].map(|k| Some(Holder::from(&headers[k]))),
        start,
        winner,
        uncarried,
    };
    let found = merge.each(Scope::Document, &mut |field, what| {
        if let Put::From(from) = what {
            field.copy(from, HolderMut::from(&mut out));
        }
    });
    conflicts.extend(found.into_iter().map(|c| (ROOT, c)));
    out
}

/// `h` with Floccus' comment recording `highest`.
fn with_highest(h: &Header, highest: u64) -> Header {
    let mut h = h.clone();
    if let Some((i, _)) = h.floccus_highest_id() {
        const MARK: &str = "highestId :";
        let c = &h.comments[i];
        if let Some(at) = c.find(MARK).map(|a| a + MARK.len()) {
            let end = c[at..].find(':').map_or(c.len(), |e| at + e);
            h.comments[i] = format!("{}{highest}{}", &c[..at], &c[end..]);
        }
    }
    h
}
