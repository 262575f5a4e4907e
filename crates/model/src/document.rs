//! The document: header fields plus the tree, stored as an arena.
//!
//! Nodes live in one vector and refer to their parent and children by
//! [`NodeId`]. Nothing about the tree is recursive in memory, so building,
//! walking, cloning, comparing and dropping a document nested 100,000 folders
//! deep needs no stack proportional to the depth.

use crate::diag::{Error, ErrorKind};
use crate::header::Header;
use crate::node::{Bookmark, Node, NodeKind};

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
/// came to store it (in which order nodes were pushed or moved) does not count.
impl PartialEq for Document {
    fn eq(&self, other: &Document) -> bool {
        self.header == other.header
            && self.len() == other.len()
            && self.walk().zip(other.walk()).all(|(x, y)| {
                std::mem::discriminant(&x) == std::mem::discriminant(&y)
                    && match (x, y) {
                        (Step::Leaf(a), Step::Leaf(b)) | (Step::Open(a), Step::Open(b)) => {
                            self.node(a) == other.node(b)
                        }
                        _ => true,
                    }
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
                assert!(
                    matches!(self.entries[p.index()].node, Node::Folder(_)),
                    "push: parent {p:?} is not a folder"
                );
                self.child_list(p).push(id);
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

    /// The nodes themselves, moved out in document (pre-) order: a folder
    /// comes before what it holds, which follows without it. For a reader
    /// that makes a flat list of another's tree without copying a string.
    pub fn into_preorder(self) -> impl Iterator<Item = Node> {
        let order: Vec<NodeId> = self.preorder().collect();
        let mut nodes: Vec<Option<Node>> = self.entries.into_iter().map(|e| Some(e.node)).collect();
        order
            .into_iter()
            .filter_map(move |id| nodes[id.index()].take())
    }

    /// Everything inside the folder `id` (its children, theirs, and so on),
    /// in document order, without `id` itself; nothing for a node that is
    /// not a folder. No recursion: a folder 100,000 levels deep is walked
    /// with a heap stack.
    ///
    /// ```
    /// use markport_model::{Bookmark, Document, Folder};
    ///
    /// let mut doc = Document::new();
    /// let news = doc.push(None, Folder::titled("News"));
    /// let daily = doc.push(Some(news), Folder::titled("Daily"));
    /// doc.push(Some(daily), Bookmark::new("https://bbc.co.uk/"));
    /// doc.push(None, Bookmark::new("https://example.org/"));
    /// let inside: Vec<String> = doc.descendants(news).map(|id| doc.path(id)).collect();
    /// assert_eq!(inside, ["News/Daily", "News/Daily/https://bbc.co.uk/"]);
    /// ```
    pub fn descendants(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        Walk {
            doc: self,
            stack: vec![(Some(id), 0)],
        }
        .filter_map(|s| match s {
            Step::Leaf(id) | Step::Open(id) => Some(id),
            Step::Close(_) => None,
        })
    }

    /// Every bookmark in document order, with its id: the loop most
    /// programs start with.
    ///
    /// ```
    /// use markport_model::{Bookmark, Document, Folder};
    ///
    /// let mut doc = Document::new();
    /// let news = doc.push(None, Folder::titled("News"));
    /// doc.push(Some(news), Bookmark::new("https://bbc.co.uk/"));
    /// doc.push(None, Bookmark::new("https://example.org/"));
    /// let hrefs: Vec<&str> = doc.bookmarks().map(|(_, b)| b.href.as_str()).collect();
    /// assert_eq!(hrefs, ["https://bbc.co.uk/", "https://example.org/"]);
    /// ```
    pub fn bookmarks(&self) -> impl Iterator<Item = (NodeId, &Bookmark)> + '_ {
        self.preorder()
            .filter_map(|id| Some((id, self.node(id).as_bookmark()?)))
    }

    /// The folder at `path`, a list of folder titles from the top level
    /// down; at each level the first folder with that title is followed (a
    /// folder without a title matches `""`). `None` when a title is not
    /// found, and for an empty path. Titles are compared exactly, so a title
    /// with a `/` in it is one element: split a path string yourself.
    ///
    /// ```
    /// use markport_model::{Bookmark, Document, Folder};
    ///
    /// let mut doc = Document::new();
    /// let bar = doc.push(None, Folder::titled("Toolbar"));
    /// let acdc = doc.push(Some(bar), Folder::titled("AC/DC"));
    /// assert_eq!(doc.find_folder(["Toolbar", "AC/DC"]), Some(acdc));
    /// assert_eq!(doc.find_folder("Toolbar".split('/')), Some(bar));
    /// assert_eq!(doc.find_folder(["AC/DC"]), None);
    /// ```
    pub fn find_folder<I>(&self, path: I) -> Option<NodeId>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let mut at = None;
        for title in path {
            let title = title.as_ref();
            at = Some(self.children(at).iter().copied().find(|&c| {
                matches!(self.node(c), Node::Folder(f) if f.title.as_deref().unwrap_or("") == title)
            })?);
        }
        at
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
        // Not by arena order: after `move_to` a parent may come after its children.
        let (mut depth, mut max) = (0usize, 0usize);
        for step in self.walk() {
            match step {
                Step::Open(_) => {
                    depth += 1;
                    max = max.max(depth);
                }
                Step::Close(_) => depth -= 1,
                Step::Leaf(_) => {}
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

    /// The bookmark at `id`, to change it; `None` when `id` is not a bookmark.
    pub fn as_bookmark_mut(&mut self, id: NodeId) -> Option<&mut Bookmark> {
        self.node_mut(id).as_bookmark_mut()
    }

    /// Move `id` (with its contents, if a folder) to the end of `parent`
    /// (`None`: the top level). Node ids stay valid. Costs the length of the
    /// two child lists and the depth of `parent`.
    ///
    /// # Errors
    /// [`ErrorKind::Invalid`] when `parent` is not a folder, or is `id`
    /// itself or inside it (the tree would become a cycle); nothing moves.
    pub fn move_to(&mut self, id: NodeId, parent: Option<NodeId>) -> Result<(), Error> {
        if let Some(p) = parent {
            if self.node(p).kind() != NodeKind::Folder {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "cannot move {} into {}: not a folder",
                        self.path(id),
                        self.path(p)
                    ),
                    None,
                ));
            }
            let mut at = Some(p);
            while let Some(a) = at {
                if a == id {
                    return Err(Error::new(
                        ErrorKind::Invalid,
                        format!("cannot move {} into itself", self.path(id)),
                        None,
                    ));
                }
                at = self.parent(a);
            }
        }
        let old = self.parent(id);
        let siblings = self.children_mut(old);
        if let Some(i) = siblings.iter().position(|&s| s == id) {
            siblings.remove(i);
        }
        match parent {
            None => self.roots.push(id),
            Some(p) => self.child_list(p).push(id),
        }
        self.entries[id.index()].parent = parent.map_or(NONE, |p| p.0);
        Ok(())
    }

    /// Remove `id` and, if it is a folder, everything in it.
    ///
    /// The arena is rebuilt in document order, so every [`NodeId`] taken
    /// before is invalid afterwards. Linear in the document's size: to
    /// remove many nodes, use [`Document::retain`] once.
    pub fn remove(&mut self, id: NodeId) {
        self.retain(|_, n| n != id);
    }

    /// Keep only the nodes for which `keep` is true; a folder that is not
    /// kept goes with everything in it (`keep` is not asked about its contents).
    /// `keep` sees the nodes in document order, before anything is removed.
    ///
    /// The arena is rebuilt in document order, so every [`NodeId`] taken
    /// before is invalid afterwards. One pass, no recursion, whatever the depth.
    pub fn retain(&mut self, mut keep: impl FnMut(&Document, NodeId) -> bool) {
        let steps: Vec<Step> = self.walk().collect();
        let mut kept = vec![false; self.entries.len()];
        let mut skip = 0usize;
        for &step in &steps {
            match step {
                Step::Open(id) => {
                    if skip > 0 || !keep(self, id) {
                        skip += 1;
                    } else {
                        kept[id.index()] = true;
                    }
                }
                Step::Close(_) if skip > 0 => skip -= 1,
                Step::Close(_) => {}
                Step::Leaf(id) => kept[id.index()] = skip == 0 && keep(self, id),
            }
        }
        let mut nodes: Vec<Option<Node>> = std::mem::take(&mut self.entries)
            .into_iter()
            .map(|e| Some(e.node))
            .collect();
        self.lists.clear();
        self.roots.clear();
        let mut parents: Vec<Option<NodeId>> = vec![None];
        for step in steps {
            let parent = *parents.last().expect("the top level is never closed");
            match step {
                Step::Open(id) if kept[id.index()] => {
                    let node = nodes[id.index()].take().expect("visited once");
                    parents.push(Some(self.push(parent, node)));
                }
                Step::Close(id) if kept[id.index()] => {
                    parents.pop();
                }
                Step::Leaf(id) if kept[id.index()] => {
                    let node = nodes[id.index()].take().expect("visited once");
                    self.push(parent, node);
                }
                _ => {}
            }
        }
    }

    fn children_mut(&mut self, parent: Option<NodeId>) -> &mut Vec<NodeId> {
        match parent {
            None => &mut self.roots,
            Some(p) => self.child_list(p),
        }
    }

    /// The child list of folder `p`, created when it has none yet.
    fn child_list(&mut self, p: NodeId) -> &mut Vec<NodeId> {
        let e = &mut self.entries[p.index()];
        if e.list == NONE {
            e.list = self.lists.len() as u32;
            self.lists.push(Vec::new());
        }
        &mut self.lists[e.list as usize]
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

    /// A chain of `depth` folders titled "f", with a bookmark in each and
    /// one beside the chain.
    fn deep(depth: usize) -> (Document, Vec<NodeId>) {
        let mut d = Document::new();
        let mut folders = Vec::with_capacity(depth);
        let mut at = None;
        for i in 0..depth {
            let f = d.push(at, Folder::titled("f"));
            d.push(Some(f), Bookmark::new(format!("https://{i}.example/")));
            folders.push(f);
            at = Some(f);
        }
        d.push(None, Bookmark::new("https://outside.example/"));
        (d, folders)
    }

    #[test]
    fn tree_helpers_walk_a_100000_deep_tree_without_recursion() {
        let depth = 100_000;
        let (d, folders) = deep(depth);
        // Inside folder k: the depth-k-1 folders below it and a bookmark in each of the depth-k.
        let k = 10;
        let inside: Vec<NodeId> = d.descendants(folders[k]).collect();
        assert_eq!(inside.len(), (depth - k - 1) + (depth - k));
        // Document order: each folder's bookmark comes before its subfolder.
        assert_eq!(
            d.path(inside[0]),
            format!("{}/https://{k}.example/", vec!["f"; k + 1].join("/"))
        );
        assert_eq!(inside[1], folders[k + 1]);
        assert!(!inside.contains(&folders[k]));
        // Counted independently on a shallower chain (the count is
        // quadratic): every node whose ancestors include folders[k].
        let (small, small_folders) = deep(300);
        let inside: Vec<NodeId> = small.descendants(small_folders[k]).collect();
        let d = &small;
        let by_parents: Vec<NodeId> = d
            .ids()
            .filter(|&id| {
                let mut at = d.parent(id);
                while let Some(p) = at {
                    if p == folders[k] {
                        return true;
                    }
                    at = d.parent(p);
                }
                false
            })
            .collect();
        assert_eq!(inside.len(), by_parents.len());
        assert!(by_parents.iter().all(|id| inside.contains(id)));
        let (d, _) = deep(depth);

        let marks: Vec<&str> = d.bookmarks().map(|(_, b)| b.href.as_str()).collect();
        assert_eq!(marks.len(), depth + 1);
        assert_eq!(marks[0], "https://0.example/");
        assert_eq!(marks[depth], "https://outside.example/");
        assert!(d
            .bookmarks()
            .all(|(id, _)| d.node(id).as_bookmark().is_some()));

        assert_eq!(d.find_folder(vec!["f"; depth]), Some(folders[depth - 1]));
        assert_eq!(d.find_folder(vec!["f"; depth + 1]), None);
        assert_eq!(d.find_folder(["f", "f", "f"]), Some(folders[2]));
        assert_eq!(d.find_folder(Vec::<&str>::new()), None);
    }

    #[test]
    fn descendants_of_a_leaf_and_find_folder_take_the_first_match() {
        let d = sample();
        let bbc = d.find_by_href("https://bbc.co.uk/").unwrap();
        assert_eq!(d.descendants(bbc).count(), 0);
        let toolbar = d.find_folder(["Toolbar"]).unwrap();
        let paths: Vec<String> = d.descendants(toolbar).map(|id| d.path(id)).collect();
        assert_eq!(
            paths,
            ["Toolbar/News", "Toolbar/News/BBC", "Toolbar/(separator 2)"]
        );
        // A bookmark titled like a folder is not a folder.
        assert_eq!(d.find_folder(["Toolbar", "News", "BBC"]), None);
        let mut twice = Document::new();
        let first = twice.push(None, Folder::titled("A"));
        twice.push(None, Folder::titled("A"));
        let untitled = twice.push(Some(first), Folder::new());
        assert_eq!(twice.find_folder(["A"]), Some(first));
        assert_eq!(twice.find_folder(["A", ""]), Some(untitled));
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

    fn titles(d: &Document) -> Vec<String> {
        d.preorder().map(|id| d.path(id)).collect()
    }

    #[test]
    fn retain_drops_folders_with_their_contents_in_one_pass() {
        let mut d = sample();
        let mut asked = Vec::new();
        d.retain(|d, id| {
            asked.push(d.path(id));
            d.node(id).title() != Some("News")
        });
        // News's bookmark was never asked about: it went with News.
        assert_eq!(
            asked,
            [
                "Toolbar",
                "Toolbar/News",
                "Toolbar/(separator 2)",
                "https://example.org/"
            ]
        );
        assert_eq!(
            titles(&d),
            ["Toolbar", "Toolbar/(separator 1)", "https://example.org/"]
        );
        assert_eq!(d.len(), 3);
        assert_eq!(d.census().bookmarks, 1);
    }

    #[test]
    fn remove_takes_one_node_and_renumbers_in_document_order() {
        let mut d = sample();
        let sep = d.children(Some(d.children(None)[0]))[1];
        d.remove(sep);
        assert_eq!(
            titles(&d),
            [
                "Toolbar",
                "Toolbar/News",
                "Toolbar/News/BBC",
                "https://example.org/"
            ]
        );
        assert_eq!(
            d.preorder().map(NodeId::index).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        let toolbar = d.children(None)[0];
        d.remove(toolbar);
        assert_eq!(titles(&d), ["https://example.org/"]);
    }

    #[test]
    fn move_to_relinks_keeps_ids_and_refuses_cycles() {
        let mut d = sample();
        let toolbar = d.children(None)[0];
        let news = d.children(Some(toolbar))[0];
        let bare = d.children(None)[1];
        d.move_to(bare, Some(news)).unwrap();
        assert_eq!(d.path(bare), "Toolbar/News/https://example.org/");
        d.move_to(news, None).unwrap();
        assert_eq!(
            titles(&d),
            [
                "Toolbar",
                "Toolbar/(separator 1)",
                "News",
                "News/BBC",
                "News/https://example.org/"
            ]
        );
        // Equal to the same tree built in order: arena order does not count.
        let mut built = Document::new();
        let t = built.push(None, Folder::titled("Toolbar"));
        built.push(Some(t), Separator::default());
        let n = built.push(None, Folder::titled("News"));
        built.push(
            Some(n),
            Bookmark::new("https://bbc.co.uk/").with_title("BBC"),
        );
        built.push(Some(n), Bookmark::new("https://example.org/"));
        assert_eq!(d, built);
        assert_eq!(d.max_depth(), 1);

        let before = d.clone();
        assert!(d.move_to(toolbar, Some(toolbar)).is_err());
        let inner = d.push(Some(news), Folder::titled("Inner"));
        assert!(d.move_to(news, Some(inner)).is_err());
        assert!(d.move_to(news, Some(bare)).is_err(), "not a folder");
        d.remove(inner);
        assert_eq!(d, before);
    }

    #[test]
    fn as_bookmark_mut_edits_bookmarks_only() {
        let mut d = sample();
        let bare = d.children(None)[1];
        d.as_bookmark_mut(bare).unwrap().title = Some("Example".into());
        assert_eq!(d.path(bare), "Example");
        assert!(d.as_bookmark_mut(d.children(None)[0]).is_none());
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
        // Editing is as flat: move the deepest link to the top, then cut
        // the chain in the middle.
        d.move_to(NodeId(100_000), None).unwrap();
        assert_eq!(d.max_depth(), 100_000);
        d.retain(|_, id| id != NodeId(50_000));
        assert_eq!(d.len(), 50_001);
        assert_eq!(d.max_depth(), 50_000);
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
