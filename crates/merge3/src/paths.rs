//! Readable paths for reports (`Toolbar/News/BBC`), each folder's worked
//! out once and shared, and cut to their last characters: a path asked
//! of every node of a 100,000-deep tree costs linear time and memory.

use std::rc::Rc;

use markport_model::{Document, Node, NodeId};

/// How many characters of a folder's path are kept (its end).
const KEEP: usize = 240;

/// The paths of one document's nodes.
pub(crate) struct Paths<'a> {
    doc: &'a Document,
    folders: Vec<Option<Rc<str>>>,
}

impl<'a> Paths<'a> {
    pub(crate) fn new(doc: &'a Document) -> Paths<'a> {
        Paths {
            doc,
            folders: vec![None; doc.len()],
        }
    }

    /// The path of `id`: its folders' titles and its own label.
    pub(crate) fn path(&mut self, id: NodeId) -> String {
        let label = label(self.doc.node(id));
        match self.doc.parent(id) {
            None => label,
            Some(p) => {
                let folder = self.folder(p);
                format!("{folder}/{label}")
            }
        }
    }

    /// The path of the folder `id`, worked out for it and every folder
    /// above it not yet known, from the top down.
    fn folder(&mut self, id: NodeId) -> Rc<str> {
        let mut chain = Vec::new();
        let mut at = Some(id);
        while let Some(f) = at {
            if self.folders[f.index()].is_some() {
                break;
            }
            chain.push(f);
            at = self.doc.parent(f);
        }
        for f in chain.into_iter().rev() {
            let label = label(self.doc.node(f));
            let path = match self.doc.parent(f) {
                None => label,
                Some(p) => {
                    let above = self.folders[p.index()].as_deref().expect("worked out");
                    cut(format!("{above}/{label}"))
                }
            };
            self.folders[f.index()] = Some(path.into());
        }
        self.folders[id.index()].clone().expect("worked out")
    }
}

/// A node's own name: its title, a bookmark's link, or its kind.
pub(crate) fn label(node: &Node) -> String {
    if let Some(t) = node.title().filter(|t| !t.is_empty()) {
        return t.to_owned();
    }
    match node {
        Node::Bookmark(b) if !b.href.is_empty() => b.href.clone(),
        Node::Bookmark(_) => "(bookmark)".into(),
        Node::Folder(_) => "(folder)".into(),
        Node::Separator(_) => "(separator)".into(),
        Node::Alias(a) => format!("(alias of {})", a.target),
        _ => "(node)".into(),
    }
}

/// `path` cut to its last [`KEEP`] characters, after `…`.
fn cut(path: String) -> String {
    let chars = path.chars().count();
    if chars <= KEEP {
        return path;
    }
    let start = path.char_indices().nth(chars - KEEP).map_or(0, |(i, _)| i);
    format!("…{}", &path[start..])
}
