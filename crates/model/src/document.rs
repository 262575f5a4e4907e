//! The document: header fields plus the tree, stored as an arena.
//!
//! Nodes live in one vector and refer to their parent and children by
//! [`NodeId`]. Nothing about the tree is recursive in memory, so building,
//! walking, cloning, comparing and dropping a document nested 100,000 folders
//! deep needs no stack proportional to the depth.

use crate::header::Header;
use crate::node::{Node, NodeKind};

/// Where a node sits in its [`Document`]'s arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The position in the arena (document order for documents built by a reader).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Marks "no parent" and "no child list" in an [`Entry`].
const NONE: u32 = u32::MAX;

// Entries are kept small because there is one per bookmark: a 100,000-bookmark
// file must read in a few times its own size. Leaves, nearly all of them, carry
// no child list, only the index of one (`NONE`).
#[derive(Clone, Debug)]
struct Entry {
    node: Node,
    parent: u32,
    /// Index into [`Document::lists`], or `NONE` before the first child.
    list: u32,
}

impl Entry {
    fn parent(&self) -> Option<NodeId> {
        (self.parent != NONE).then_some(NodeId(self.parent))
    }
}

/// A bookmark collection.
#[derive(Clone, Debug, Default)]
pub struct Document {
    /// The collection's own fields.
    pub header: Header,
    entries: Vec<Entry>,
    /// The children of each folder that has any, in the order their first
    /// child was pushed.
    lists: Vec<Vec<NodeId>>,
    roots: Vec<NodeId>,
}

/// Equal documents have the same header and the same tree; how the arena
/// came to store it (which folder got its first child first) does not count.
impl PartialEq for Document {
    fn eq(&self, other: &Document) -> bool {
        self.header == other.header
            && self.roots == other.roots
            && self.entries.len() == other.entries.len()
            && self.ids().all(|id| {
                let (a, b) = (&self.entries[id.index()], &other.entries[id.index()]);
                a.parent == b.parent
                    && a.node == b.node
                    && self.children(Some(id)) == other.children(Some(id))
            })
    }
}

/// One step of a depth-first walk; see [`Document::walk`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A bookmark, separator or alias.
    Leaf(NodeId),
    /// A folder starts; its children follow, then [`Step::Close`].
    Open(NodeId),
    /// The folder opened earlier ends.
    Close(NodeId),
}

impl Document {
    /// An empty document.
    pub fn new() -> Document {
        Document::default()
    }

    /// Add `node` as the last child of `parent` (`None`: the top level).
    ///
    /// # Panics
    /// If `parent` is not a folder of this document: that is a bug in the
    /// caller, never a property of input.
    pub fn push(&mut self, parent: Option<NodeId>, node: impl Into<Node>) -> NodeId {
        let id = u32::try_from(self.entries.len())
            .ok()
            .filter(|&i| i != NONE)
            .expect("fewer than 2^32 - 1 nodes");
        let id = NodeId(id);
        match parent {
            None => self.roots.push(id),
            Some(p) => {
                let e = &mut self.entries[p.index()];
                assert!(
                    matches!(e.node, Node::Folder(_)),
                    "push: parent {p:?} is not a folder"
                );
                if e.list == NONE {
                    e.list = self.lists.len() as u32;
                    self.lists.push(Vec::new());
                }
                self.lists[e.list as usize].push(id);
            }
        }
        self.entries.push(Entry {
            node: node.into(),
            parent: parent.map_or(NONE, |p| p.0),
            list: NONE,
        });
        id
    }

    /// The children of `parent` (`None`: the top level), in order.
    pub fn children(&self, parent: Option<NodeId>) -> &[NodeId] {
        match parent {
            None => &self.roots,
            Some(p) => match self.entries[p.index()].list {
                NONE => &[],
                list => &self.lists[list as usize],
            },
        }
    }

    /// The node at `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.entries[id.index()].node
    }

    /// The node at `id`, to change it. Its kind may change only between
    /// kinds without children, or to a folder: a folder with children stays one.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.entries[id.index()].node
    }

    /// The folder that holds `id` (`None` at the top level).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.entries[id.index()].parent()
    }

    /// How many nodes the document holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the document has no nodes.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every node id, in arena order (document order for a document a reader built).
    pub fn ids(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        (0..self.entries.len() as u32).map(NodeId)
    }

    /// Every node id in document (depth-first, pre-) order.
    pub fn preorder(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.walk().filter_map(|s| match s {
            Step::Leaf(id) | Step::Open(id) => Some(id),
            Step::Close(_) => None,
        })
    }

    /// A depth-first walk with folder open and close steps, without recursion.
    pub fn walk(&self) -> Walk<'_> {
        Walk {
            doc: self,
            stack: vec![(None, 0)],
        }
    }

    /// How many folders enclose `id` (0 at the top level).
    pub fn depth(&self, id: NodeId) -> usize {
        let mut depth = 0;
        let mut at = self.parent(id);
        while let Some(p) = at {
            depth += 1;
            at = self.parent(p);
        }
        depth
    }

    /// The deepest folder nesting in the document (0 when there are no folders).
    pub fn max_depth(&self) -> usize {
        let mut depth = vec![0usize; self.entries.len()];
        let mut max = 0;
        // A parent always has a smaller index than its children (push order).
        for (i, e) in self.entries.iter().enumerate() {
            let d = e.parent().map_or(0, |p| depth[p.index()] + 1);
            depth[i] = d;
            if e.node.kind() == NodeKind::Folder {
                max = max.max(d + 1);
            }
        }
        max
    }

    /// A readable path to `id`: the titles of its folders and its own label,
    /// joined by `/` (`Toolbar/News/BBC`). A bookmark without a title is named
    /// by its href; other untitled nodes by kind and position.
    pub fn path(&self, id: NodeId) -> String {
        let mut parts = vec![self.label(id)];
        let mut at = self.parent(id);
        while let Some(p) = at {
            parts.push(self.label(p));
            at = self.parent(p);
        }
        parts.reverse();
        parts.join("/")
    }

    fn label(&self, id: NodeId) -> String {
        let node = self.node(id);
        if let Some(t) = node.title().filter(|t| !t.is_empty()) {
            return t.to_owned();
        }
        match node {
            Node::Bookmark(b) if !b.href.is_empty() => b.href.clone(),
            Node::Alias(a) => format!("(alias of {})", a.target),
            _ => {
                let siblings = self.children(self.parent(id));
                let pos = siblings.iter().position(|&s| s == id).unwrap_or(0);
                let kind = format!("{:?}", node.kind()).to_lowercase();
                format!("({kind} {})", pos + 1)
            }
        }
    }

    /// The first bookmark (in arena order) whose href is `href`.
    pub fn find_by_href(&self, href: &str) -> Option<NodeId> {
        self.ids()
            .find(|&n| self.node(n).as_bookmark().is_some_and(|b| b.href == href))
    }

    /// The node whose XBEL/Netscape id is `id`, if any.
    pub fn find_id(&self, id: &str) -> Option<NodeId> {
        self.ids().find(|&n| self.node(n).id() == Some(id))
    }
}

/// The iterator of [`Document::walk`].
pub struct Walk<'a> {
    doc: &'a Document,
    /// (folder, index of its next child to visit)
    stack: Vec<(Option<NodeId>, usize)>,
}

impl Iterator for Walk<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        let (folder, next) = self.stack.last_mut()?;
        let folder = *folder;
        let children = self.doc.children(folder);
        if *next < children.len() {
            let id = children[*next];
            *next += 1;
            if self.doc.node(id).kind() == NodeKind::Folder {
                self.stack.push((Some(id), 0));
                Some(Step::Open(id))
            } else {
                Some(Step::Leaf(id))
            }
        } else {
            self.stack.pop();
            folder.map(Step::Close)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Bookmark, Folder, Separator};

    fn sample() -> Document {
        let mut d = Document::new();
        let toolbar = d.push(None, Folder::titled("Toolbar"));
        let news = d.push(Some(toolbar), Folder::titled("News"));
        d.push(
            Some(news),
            Bookmark::new("https://bbc.co.uk/").with_title("BBC"),
        );
        d.push(Some(toolbar), Separator::default());
        d.push(None, Bookmark::new("https://example.org/"));
        d
    }

    #[test]
    fn walk_visits_in_document_order_with_open_and_close() {
        let d = sample();
        let steps: Vec<String> = d
            .walk()
            .map(|s| match s {
                Step::Open(id) => format!("<{}", d.path(id)),
                Step::Close(id) => format!(">{}", d.path(id)),
                Step::Leaf(id) => d.path(id),
            })
            .collect();
        assert_eq!(
            steps,
            [
                "<Toolbar",
                "<Toolbar/News",
                "Toolbar/News/BBC",
                ">Toolbar/News",
                "Toolbar/(separator 2)",
                ">Toolbar",
                "https://example.org/"
            ]
        );
        assert_eq!(d.max_depth(), 2);
    }

    #[test]
    fn documents_are_equal_when_their_trees_are() {
        let build = |b_gets: &str| {
            let mut d = Document::new();
            let a = d.push(None, Folder::titled("a"));
            let b = d.push(None, Folder::titled("b"));
            d.push(Some(b), Bookmark::new(b_gets));
            d.push(Some(a), Bookmark::new("1"));
            d
        };
        assert_eq!(build("2"), build("2"));
        assert_eq!(build("2"), build("2").clone());
        assert_ne!(build("2"), build("3"));
        let d = build("2");
        let (a, b) = (d.children(None)[0], d.children(None)[1]);
        assert_eq!(d.path(d.children(Some(a))[0]), "a/1");
        assert_eq!(d.path(d.children(Some(b))[0]), "b/2");
        assert!(d.children(Some(d.children(Some(a))[0])).is_empty());
    }

    #[test]
    #[should_panic(expected = "is not a folder")]
    fn pushing_under_a_bookmark_is_a_bug() {
        let mut d = Document::new();
        let b = d.push(None, Bookmark::new("x"));
        d.push(Some(b), Bookmark::new("y"));
    }

    #[test]
    fn a_hundred_thousand_levels_build_walk_clone_compare_and_drop() {
        let mut d = Document::new();
        let mut parent = None;
        for i in 0..100_000 {
            parent = Some(d.push(parent, Folder::titled(format!("f{i}"))));
        }
        d.push(parent, Bookmark::new("https://deep.example/"));
        assert_eq!(d.walk().count(), 200_001);
        assert_eq!(d.max_depth(), 100_000);
        let copy = d.clone();
        assert_eq!(copy, d);
        assert!(d
            .path(NodeId(100_000))
            .ends_with("/f99999/https://deep.example/"));
        drop(copy);
    }
}

#[cfg(all(test, target_pointer_width = "64"))]
mod size_tests {
    use super::Entry;
    use crate::{DateValue, Node};
    use std::mem::size_of;

    /// A file must read in under three times its size: with the strings it
    /// holds, that leaves about 200 bytes per node of the arena.
    #[test]
    fn a_node_of_the_arena_stays_small() {
        assert_eq!(size_of::<Option<DateValue>>(), 24);
        assert!(size_of::<Node>() <= 184, "{}", size_of::<Node>());
        assert!(size_of::<Entry>() <= 192, "{}", size_of::<Entry>());
    }
}
