//! The three trees as the merge reads them: each document with its nodes
//! numbered by arena index, its parents as numbers, and which side it is.

use markport_model::{Document, NodeId, NodeKind};
use serde::Serialize;

/// "No node": the top level as a parent, an unmatched node as a match.
pub(crate) const NONE: u32 = u32::MAX;

/// One of the three trees of a merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The last tree both copies had in common.
    Base,
    /// The copy being merged into (git's `%A`, `merge`'s OURS).
    Ours,
    /// The other copy (git's `%B`, `merge`'s THEIRS).
    Theirs,
}

impl Side {
    /// The three sides, base first.
    pub const ALL: [Side; 3] = [Side::Base, Side::Ours, Side::Theirs];

    /// The side's name in reports: `base`, `ours`, `theirs`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Base => "base",
            Side::Ours => "ours",
            Side::Theirs => "theirs",
        }
    }

    /// The other edited side: ours for theirs and back; base for base.
    pub fn other(self) -> Side {
        match self {
            Side::Base => Side::Base,
            Side::Ours => Side::Theirs,
            Side::Theirs => Side::Ours,
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A document as the merge reads it.
pub(crate) struct Tree<'a> {
    pub(crate) doc: &'a Document,
    /// Node ids by arena index.
    pub(crate) ids: Vec<NodeId>,
    /// Each node's parent by arena index, [`NONE`] at the top level.
    pub(crate) parent: Vec<u32>,
    /// Arena indices in document (pre-) order.
    pub(crate) preorder: Vec<u32>,
}

impl<'a> Tree<'a> {
    pub(crate) fn new(doc: &'a Document) -> Tree<'a> {
        let ids: Vec<NodeId> = doc.ids().collect();
        let parent = ids
            .iter()
            .map(|&id| doc.parent(id).map_or(NONE, |p| p.index() as u32))
            .collect();
        let preorder = doc.preorder().map(|id| id.index() as u32).collect();
        Tree {
            doc,
            ids,
            parent,
            preorder,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The children of `folder` ([`NONE`]: the top level), as arena indices.
    pub(crate) fn children(&self, folder: u32) -> impl Iterator<Item = u32> + '_ {
        let parent = (folder != NONE).then(|| self.ids[folder as usize]);
        self.doc.children(parent).iter().map(|c| c.index() as u32)
    }

    pub(crate) fn node(&self, n: u32) -> &'a markport_model::Node {
        self.doc.node(self.ids[n as usize])
    }

    pub(crate) fn kind(&self, n: u32) -> NodeKind {
        self.node(n).kind()
    }

    pub(crate) fn is_folder(&self, n: u32) -> bool {
        self.kind(n) == NodeKind::Folder
    }
}
