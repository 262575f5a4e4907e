//! One collection from several.

use std::collections::{BTreeMap, HashMap};

use markport_model::{Document, Error, ErrorKind, Field, Node, NodeId, Role, Separator, Step};

use super::absorb::{absorb, conflicts};
use super::link::link_key;

/// What [`merge`] did with one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MergedInput {
    /// The input's bookmarks.
    pub bookmarks: usize,
    /// Bookmarks added to the collection.
    pub added: usize,
    /// Bookmarks merged into an earlier one with the same link.
    pub merged: usize,
    /// Fields a merged bookmark had set differently from the earlier one
    /// (whose value was kept), with on how many bookmarks.
    pub conflicts: BTreeMap<Field, usize>,
}

/// Make one collection from `inputs`, in order. Folders with the same role
/// are one folder (Firefox's toolbar and Chrome's bookmarks bar), where the
/// first input put it, with its title; folders with the same title in the
/// same (merged) folder are one folder. Unless `keep_duplicates`, a
/// bookmark whose link (by [`link_key`](super::link_key)) an earlier one
/// has, in any input, is merged into it as [`dedupe`](super::dedupe) does
/// (the earlier one wins a conflict). The header is the first input's.
/// Returns the collection and what happened to each input. Linear in the
/// total size: one hash lookup per folder and bookmark, no recursion.
///
/// # Errors
/// [`ErrorKind::Invalid`] with fewer than two inputs.
///
/// ```
/// use markport::ops::merge;
/// use markport::model::Role;
/// use markport::{Bookmark, Document, Folder};
///
/// let mut firefox = Document::new();
/// let mut toolbar = Folder::titled("Bookmarks Toolbar");
/// toolbar.role = Some(Role::Toolbar);
/// let t = firefox.push(None, toolbar);
/// firefox.push(Some(t), Bookmark::new("https://www.rust-lang.org/").with_title("Rust"));
///
/// let mut chrome = Document::new();
/// let mut bar = Folder::titled("Bookmarks bar");
/// bar.role = Some(Role::Toolbar);
/// let b = chrome.push(None, bar);
/// chrome.push(Some(b), Bookmark::new("https://WWW.rust-lang.org").with_title("Rust lang"));
/// chrome.push(Some(b), Bookmark::new("https://crates.io/"));
///
/// let (doc, report) = merge(vec![firefox, chrome], false).unwrap();
/// assert_eq!(doc.census().folders, 1);
/// assert_eq!(doc.census().bookmarks, 2);
/// assert_eq!((report[1].added, report[1].merged), (1, 1));
/// assert_eq!(report[1].conflicts.keys().collect::<Vec<_>>(), [&markport::Field::BookmarkTitle]);
/// ```
pub fn merge(
    inputs: Vec<Document>,
    keep_duplicates: bool,
) -> Result<(Document, Vec<MergedInput>), Error> {
    if inputs.len() < 2 {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("merge needs at least two inputs, got {}", inputs.len()),
            None,
        ));
    }
    let mut out = Document::new();
    let mut by_role: HashMap<Role, NodeId> = HashMap::new();
    let mut by_title: HashMap<(Option<NodeId>, String), NodeId> = HashMap::new();
    let mut by_link: HashMap<String, NodeId> = HashMap::new();
    let mut report = Vec::with_capacity(inputs.len());
    for (i, mut doc) in inputs.into_iter().enumerate() {
        if i == 0 {
            out.header = std::mem::take(&mut doc.header);
        }
        let mut done = MergedInput::default();
        let steps: Vec<Step> = doc.walk().collect();
        let mut parents: Vec<Option<NodeId>> = vec![None];
        for step in steps {
            let parent = *parents.last().expect("the top level is never closed");
            match step {
                Step::Open(id) => {
                    let Node::Folder(f) = take(&mut doc, id) else {
                        unreachable!("walk opens folders only")
                    };
                    let key = (parent, f.title.clone().unwrap_or_default());
                    let target = match f.role {
                        Some(role) => *by_role.entry(role).or_insert_with(|| out.push(parent, *f)),
                        None => *by_title.entry(key).or_insert_with(|| out.push(parent, *f)),
                    };
                    parents.push(Some(target));
                }
                Step::Close(_) => {
                    parents.pop();
                }
                Step::Leaf(id) => match take(&mut doc, id) {
                    Node::Bookmark(b) => {
                        done.bookmarks += 1;
                        let key = link_key(&b.href).into_owned();
                        let earlier = (!keep_duplicates).then(|| by_link.get(&key)).flatten();
                        match earlier {
                            Some(&survivor) => {
                                let s = out.as_bookmark_mut(survivor).expect("a bookmark");
                                for field in conflicts(s, &b) {
                                    *done.conflicts.entry(field).or_default() += 1;
                                }
                                absorb(s, b);
                                done.merged += 1;
                            }
                            None => {
                                let n = out.push(parent, b);
                                by_link.entry(key).or_insert(n);
                                done.added += 1;
                            }
                        }
                    }
                    node => {
                        out.push(parent, node);
                    }
                },
            }
        }
        report.push(done);
    }
    Ok((out, report))
}

fn take(doc: &mut Document, id: NodeId) -> Node {
    std::mem::replace(doc.node_mut(id), Separator::new().into())
}
