//! Operations that change the shape of the tree: folders to tags, tags to
//! folders, one flat list.

use std::collections::{HashMap, HashSet};

use markport_model::{Bookmark, Document, Folder, Node, NodeId, Separator, Step};

use super::absorb::add_tags;

/// Give every bookmark the titles of the folders above it as tags, outermost
/// first, after its own tags and without duplicates (compared without
/// case; the first spelling is kept). Folders with a browser role (toolbar,
/// menu, unfiled, mobile, ...) and untitled folders give no tag. The folders
/// stay. Returns how many bookmarks gained a tag.
///
/// ```
/// use markport::ops::folders_as_tags;
/// use markport::{Bookmark, Document, Folder};
///
/// let mut doc = Document::new();
/// let dev = doc.push(None, Folder::titled("Dev"));
/// let rust = doc.push(Some(dev), Folder::titled("Rust"));
/// let mut b = Bookmark::new("https://www.rust-lang.org/");
/// b.tags = vec!["rust".into()];
/// let id = doc.push(Some(rust), b);
/// assert_eq!(folders_as_tags(&mut doc), 1);
/// assert_eq!(doc.node(id).as_bookmark().unwrap().tags, ["rust", "Dev"]);
/// ```
pub fn folders_as_tags(doc: &mut Document) -> usize {
    let steps: Vec<Step> = doc.walk().collect();
    // The distinct tags the open folders give, outermost first, and for
    // each open folder whether it added one: a bookmark costs the tags it
    // gains, not the depth it sits at.
    let mut tags: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut added: Vec<bool> = Vec::new();
    let mut gained = 0;
    for step in steps {
        match step {
            Step::Open(id) => {
                let tag = doc
                    .node(id)
                    .as_folder()
                    .filter(|f| f.role.is_none())
                    .and_then(|f| f.title.as_deref())
                    .filter(|t| !t.trim().is_empty());
                let new = tag.filter(|t| seen.insert(t.to_lowercase()));
                if let Some(t) = new {
                    tags.push(t.to_owned());
                }
                added.push(new.is_some());
            }
            Step::Close(_) => {
                if added.pop() == Some(true) {
                    let t = tags.pop().expect("pushed on open");
                    seen.remove(&t.to_lowercase());
                }
            }
            Step::Leaf(id) => {
                if let Some(b) = doc.as_bookmark_mut(id) {
                    if add_tags(&mut b.tags, tags.iter().map(String::as_str)) > 0 {
                        gained += 1;
                    }
                }
            }
        }
    }
    gained
}

/// What [`flatten`] removed or resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Flattened {
    /// Folders removed.
    pub folders: usize,
    /// Separators removed.
    pub separators: usize,
    /// Aliases of a bookmark, replaced by a copy of it (without its id).
    pub aliases_resolved: usize,
    /// Aliases of a folder or of nothing, removed.
    pub aliases_removed: usize,
}

/// Make the tree one flat list of bookmarks in document order: folders and
/// separators are removed, an alias of a bookmark becomes a copy of that
/// bookmark (without its id and guid, which stay the original's), any
/// other alias is removed.
///
/// ```
/// use markport::ops::flatten;
/// use markport::{Bookmark, Document, Folder, Separator};
///
/// let mut doc = Document::new();
/// let news = doc.push(None, Folder::titled("News"));
/// doc.push(Some(news), Bookmark::new("https://a.example/"));
/// doc.push(Some(news), Separator::new());
/// doc.push(None, Bookmark::new("https://b.example/"));
/// let done = flatten(&mut doc);
/// assert_eq!((done.folders, done.separators), (1, 1));
/// assert_eq!(doc.len(), 2);
/// assert_eq!(doc.max_depth(), 0);
/// ```
pub fn flatten(doc: &mut Document) -> Flattened {
    let mut done = Flattened::default();
    let order: Vec<NodeId> = doc.preorder().collect();
    let by_id: HashMap<&str, NodeId> = order
        .iter()
        .filter_map(|&id| Some((doc.node(id).as_bookmark()?.details().id.as_deref()?, id)))
        .collect();
    // Copies first: the bookmarks are moved out below, in any order.
    let mut copies: HashMap<NodeId, Bookmark> = HashMap::new();
    for &id in &order {
        if let Node::Alias(a) = doc.node(id) {
            if let Some(&target) = by_id.get(a.target.as_str()) {
                let mut copy = doc.node(target).as_bookmark().expect("a bookmark").clone();
                anonymous(&mut copy);
                copies.insert(id, copy);
            }
        }
    }
    drop(by_id);
    let mut old = std::mem::take(doc);
    doc.header = std::mem::take(&mut old.header);
    for id in order {
        match take(&mut old, id) {
            Node::Bookmark(b) => {
                doc.push(None, b);
            }
            Node::Folder(_) => done.folders += 1,
            Node::Separator(_) => done.separators += 1,
            Node::Alias(_) => match copies.remove(&id) {
                Some(copy) => {
                    doc.push(None, copy);
                    done.aliases_resolved += 1;
                }
                None => done.aliases_removed += 1,
            },
            _ => {}
        }
    }
    done
}

/// A copy of a bookmark must not claim the original's identity.
fn anonymous(copy: &mut Bookmark) {
    if !copy.details().is_empty() {
        let d = copy.details_mut();
        d.id = None;
        d.guid = None;
    }
}

/// Move the node out of a document about to be dropped.
fn take(doc: &mut Document, id: NodeId) -> Node {
    std::mem::replace(doc.node_mut(id), Separator::new().into())
}

/// What [`tags_as_folders`] made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TagFolders {
    /// The folders made, one per tag (tags that differ only in case are one).
    pub folders: usize,
    /// Copies placed in the folders of bookmarks' other tags (with `every_tag`).
    pub copies: usize,
    /// What flattening the tree first removed.
    pub flattened: Flattened,
}

/// Replace the folders by one top-level folder per tag, ordered by tag
/// (without case, then as written), holding the bookmarks whose first tag
/// it is; untagged bookmarks follow at the top level, in document order.
/// Bookmarks keep their tags. With `every_tag`, a bookmark also gets a copy
/// (without its id and guid) in the folder of each of its other tags,
/// carrying that one tag, so the output grows with the number of tags. The
/// tree is [`flatten`]ed first, so the old folders, separators and aliases go.
///
/// ```
/// use markport::ops::tags_as_folders;
/// use markport::{Bookmark, Document};
///
/// let mut doc = Document::new();
/// let mut b = Bookmark::new("https://www.rust-lang.org/");
/// b.tags = vec!["rust".into(), "lang".into()];
/// doc.push(None, b);
/// doc.push(None, Bookmark::new("https://untagged.example/"));
/// let made = tags_as_folders(&mut doc, true);
/// assert_eq!((made.folders, made.copies), (2, 1));
/// let top: Vec<String> = doc.children(None).iter().map(|&id| doc.path(id)).collect();
/// assert_eq!(top, ["lang", "rust", "https://untagged.example/"]);
/// ```
pub fn tags_as_folders(doc: &mut Document, every_tag: bool) -> TagFolders {
    let flattened = flatten(doc);
    let mut made = TagFolders {
        flattened,
        ..TagFolders::default()
    };
    let mut old = std::mem::take(doc);
    doc.header = std::mem::take(&mut old.header);
    // Tag (lowercased) -> (first spelling, bookmarks), in order of appearance.
    let mut groups: HashMap<String, (String, Vec<Bookmark>)> = HashMap::new();
    let mut untagged = Vec::new();
    let ids: Vec<NodeId> = old.children(None).to_vec();
    for id in ids {
        let Node::Bookmark(mut b) = take(&mut old, id) else {
            continue;
        };
        let Some(first) = b.tags.first().cloned() else {
            untagged.push(b);
            continue;
        };
        if every_tag {
            // A copy carries the one tag its folder stands for: copies of
            // the whole list would make the output grow with the square of
            // a bookmark's tags (4,000 tags, 16 million strings).
            let tags = std::mem::take(&mut b.tags);
            let mut seen = HashSet::from([first.to_lowercase()]);
            for tag in tags.iter().skip(1) {
                let key = tag.to_lowercase();
                if seen.contains(&key) {
                    continue;
                }
                let mut copy = b.clone();
                copy.tags = vec![tag.clone()];
                anonymous(&mut copy);
                group(&mut groups, tag, key.clone()).push(copy);
                seen.insert(key);
                made.copies += 1;
            }
            b.tags = tags;
        }
        group(&mut groups, &first, first.to_lowercase()).push(b);
    }
    let mut groups: Vec<(String, (String, Vec<Bookmark>))> = groups.into_iter().collect();
    groups.sort_by(|a, b| (&a.0, &a.1 .0).cmp(&(&b.0, &b.1 .0)));
    made.folders = groups.len();
    for (_, (title, bookmarks)) in groups {
        let folder = doc.push(None, Folder::titled(title));
        for b in bookmarks {
            doc.push(Some(folder), b);
        }
    }
    for b in untagged {
        doc.push(None, b);
    }
    made
}

fn group<'a>(
    groups: &'a mut HashMap<String, (String, Vec<Bookmark>)>,
    spelling: &str,
    key: String,
) -> &'a mut Vec<Bookmark> {
    &mut groups
        .entry(key)
        .or_insert_with(|| (spelling.to_owned(), Vec::new()))
        .1
}
