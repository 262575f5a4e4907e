//! Removing later duplicates of a link.

use std::collections::HashMap;

use markport_model::{Document, Node, NodeId};

use super::absorb::Survivors;
use super::link::LinkMatch;

/// Remove every bookmark whose link (compared by [`link_key`](super::link_key))
/// an earlier bookmark has. The earliest keeps its place, href and title, and
/// gains from each duplicate the union of tags, the earliest added date, the
/// latest visited and modified dates, a description if it had none, and
/// private if any was. An alias of a removed duplicate shows the survivor
/// (which takes the duplicate's id if it had none). A folder left empty
/// goes too ([`dedupe_keeping`] keeps it). Returns how many bookmarks were
/// removed. Linear: one hash lookup per bookmark.
///
/// ```
/// use markport::ops::dedupe;
/// use markport::{Bookmark, Document, Folder};
///
/// let mut doc = Document::new();
/// let mut first = Bookmark::new("https://Example.org").with_title("Example");
/// first.tags = vec!["a".into()];
/// doc.push(None, first);
/// let f = doc.push(None, Folder::titled("Old"));
/// let mut later = Bookmark::new("https://example.org/").with_title("Copy");
/// later.tags = vec!["b".into()];
/// doc.push(Some(f), later);
/// assert_eq!(dedupe(&mut doc), 1);
/// let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
/// assert_eq!((b.href.as_str(), b.title.as_deref()), ("https://Example.org", Some("Example")));
/// assert_eq!(b.tags, ["a", "b"]);
/// ```
pub fn dedupe(doc: &mut Document) -> usize {
    dedupe_keeping(doc, false)
}

/// [`dedupe`], which removes the folders it leaves empty (a folder empty
/// before stays); with `keep_empty` they stay too (`--keep-empty`).
/// Returns how many bookmarks were removed.
///
/// ```
/// use markport::ops::dedupe_keeping;
/// use markport::{Bookmark, Document, Folder};
///
/// let build = || {
///     let mut doc = Document::new();
///     doc.push(None, Bookmark::new("https://example.org/"));
///     let old = doc.push(None, Folder::titled("Old"));
///     doc.push(Some(old), Bookmark::new("https://example.org/"));
///     doc.push(None, Folder::titled("Empty before"));
///     doc
/// };
/// let mut pruned = build();
/// dedupe_keeping(&mut pruned, false);
/// assert_eq!(pruned.census().folders, 1, "Old goes, the folder empty before stays");
/// let mut kept = build();
/// dedupe_keeping(&mut kept, true);
/// assert_eq!(kept.census().folders, 2);
/// ```
pub fn dedupe_keeping(doc: &mut Document, keep_empty: bool) -> usize {
    dedupe_by(doc, LinkMatch::Exact, keep_empty)
}

/// [`dedupe_keeping`], comparing links at the level `by` (`--dedupe=LEVEL`):
/// a bookmark is removed when an earlier one's link has the same
/// [`LinkMatch::key`]. Each link is normalised once, into one hash map.
/// Returns how many bookmarks were removed.
///
/// ```
/// use markport::ops::{dedupe_by, LinkMatch};
/// use markport::{Bookmark, Document};
///
/// let build = || {
///     let mut doc = Document::new();
///     doc.push(None, Bookmark::new("https://example.org/post"));
///     doc.push(None, Bookmark::new("https://example.org/post/"));
///     doc.push(None, Bookmark::new("http://example.org/post?utm_source=pocket_mylist"));
///     doc
/// };
/// assert_eq!(dedupe_by(&mut build(), LinkMatch::Exact, false), 0);
/// assert_eq!(dedupe_by(&mut build(), LinkMatch::Normal, false), 1);
/// assert_eq!(dedupe_by(&mut build(), LinkMatch::Loose, false), 2);
/// ```
pub fn dedupe_by(doc: &mut Document, by: LinkMatch, keep_empty: bool) -> usize {
    let order: Vec<NodeId> = doc
        .preorder()
        .filter(|&id| doc.node(id).as_bookmark().is_some())
        .collect();
    let mut first: HashMap<String, NodeId> = HashMap::with_capacity(order.len());
    let mut gone = vec![false; doc.len()];
    let mut removed = 0;
    let mut retarget: HashMap<String, String> = HashMap::new();
    let mut survivors = Survivors::default();
    for id in order {
        let key = by
            .key(&doc.node(id).as_bookmark().expect("a bookmark").href)
            .into_owned();
        match first.get(&key) {
            Some(&survivor) => {
                let dup = std::mem::take(doc.as_bookmark_mut(id).expect("a bookmark"));
                let s = doc.as_bookmark_mut(survivor).expect("a bookmark");
                // An alias of the duplicate shows the survivor from now on,
                // which takes the duplicate's id if it has none.
                if let Some(dup_id) = dup.details().id.clone() {
                    match s.details().id.clone() {
                        Some(own) => {
                            retarget.insert(dup_id, own);
                        }
                        None => s.details_mut().id = Some(dup_id),
                    }
                }
                survivors.absorb(survivor, s, dup);
                gone[id.index()] = true;
                removed += 1;
            }
            None => {
                first.insert(key, id);
            }
        }
    }
    if !retarget.is_empty() {
        let aliases: Vec<NodeId> = doc.ids().collect();
        for id in aliases {
            if let Node::Alias(a) = doc.node_mut(id) {
                if let Some(to) = retarget.get(&a.target) {
                    a.target.clone_from(to);
                }
            }
        }
    }
    if removed > 0 {
        if !keep_empty {
            super::emptied::mark_emptied(doc, &mut gone, |f| !doc.children(Some(f)).is_empty());
        }
        doc.retain(|_, id| !gone[id.index()]);
    }
    removed
}
