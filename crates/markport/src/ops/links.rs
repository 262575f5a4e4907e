//! Writing back what a link check found (`markport links`): each an
//! operation on the model, so its changes are reported like every other's.
//! The links are given as the hrefs of the collection, exactly as written.

use std::collections::{BTreeMap, BTreeSet};

use markport_model::{Document, Folder, Node, NodeId};

use super::select::folder_path;

/// `--update-redirects`: each bookmark whose href is a key of `moved` gets
/// the value as its href, and keeps every other field.
pub fn update_links(doc: &mut Document, moved: &BTreeMap<String, String>) {
    let ids: Vec<NodeId> = doc
        .bookmarks()
        .filter(|(_, b)| moved.contains_key(&b.href))
        .map(|(id, _)| id)
        .collect();
    for id in ids {
        if let Some(b) = doc.as_bookmark_mut(id) {
            if let Some(to) = moved.get(&b.href) {
                b.href = to.clone();
            }
        }
    }
}

/// `--tag-dead TAG`: each bookmark whose href is in `links` gets `tag`,
/// unless it has it already.
pub fn tag_links(doc: &mut Document, links: &BTreeSet<String>, tag: &str) {
    let ids: Vec<NodeId> = doc
        .bookmarks()
        .filter(|(_, b)| links.contains(&b.href) && !b.tags.iter().any(|t| t == tag))
        .map(|(id, _)| id)
        .collect();
    for id in ids {
        if let Some(b) = doc.as_bookmark_mut(id) {
            b.tags.push(tag.to_owned());
        }
    }
}

/// `--move-dead FOLDER`: each bookmark whose href is in `links` moves, in
/// order, to the end of the folder at `path` ([`folder_path`]: `/`
/// between titles), made at the end of each level where it is missing.
pub fn move_links(doc: &mut Document, links: &BTreeSet<String>, path: &str) {
    let ids: Vec<NodeId> = doc
        .bookmarks()
        .filter(|(_, b)| links.contains(&b.href))
        .map(|(id, _)| id)
        .collect();
    if ids.is_empty() {
        return;
    }
    let mut at: Option<NodeId> = None;
    for title in folder_path(path) {
        let found = doc.children(at).iter().copied().find(|&c| {
            matches!(doc.node(c), Node::Folder(f) if f.title.as_deref().unwrap_or("") == title)
        });
        at = Some(match found {
            Some(f) => f,
            None => doc.push(at, Folder::titled(title)),
        });
    }
    for id in ids {
        if doc.parent(id) != at {
            // A bookmark is never an ancestor of a folder: the move holds.
            let _ = doc.move_to(id, at);
        }
    }
}

/// `--remove-dead`: the bookmarks whose href is in `links` are removed
/// (the folders around them stay, even emptied: they are the user's).
pub fn remove_links(doc: &mut Document, links: &BTreeSet<String>) {
    doc.retain(|d, id| !matches!(d.node(id), Node::Bookmark(b) if links.contains(&b.href)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{apply, Operation};
    use markport_model::{Bookmark, Field};

    fn sample() -> Document {
        let mut doc = Document::new();
        let news = doc.push(None, Folder::titled("News"));
        let mut a = Bookmark::new("http://old.example/a");
        a.title = Some("A".into());
        a.desc = Some("kept".into());
        a.tags = vec!["x".into()];
        doc.push(Some(news), a);
        doc.push(None, Bookmark::new("http://dead.example/"));
        doc.push(Some(news), Bookmark::new("http://dead.example/"));
        doc
    }

    #[test]
    fn each_write_back_changes_only_what_it_says_and_is_reported() {
        let dead: BTreeSet<String> = ["http://dead.example/".to_string()].into();
        let moved: BTreeMap<String, String> = [(
            "http://old.example/a".to_string(),
            "https://new.example/a".to_string(),
        )]
        .into();
        let mut doc = sample();
        let report = apply(
            &mut doc,
            &[
                Operation::UpdateLinks(moved),
                Operation::TagLinks {
                    links: dead.clone(),
                    tag: "dead".into(),
                },
                Operation::MoveLinks {
                    links: dead.clone(),
                    folder: "Attic/Dead".into(),
                },
            ],
        )
        .unwrap();
        let a = doc.bookmarks().next().unwrap().1;
        assert_eq!(a.href, "https://new.example/a");
        assert_eq!(
            (a.title.as_deref(), a.desc.as_deref()),
            (Some("A"), Some("kept"))
        );
        assert_eq!(a.tags, ["x"]);
        let attic = doc.find_folder(["Attic", "Dead"]).unwrap();
        assert_eq!(doc.children(Some(attic)).len(), 2);
        for &id in doc.children(Some(attic)) {
            assert_eq!(doc.node(id).as_bookmark().unwrap().tags, ["dead"]);
        }
        let reasons: Vec<&str> = report.changes.iter().map(|c| c.reason.as_str()).collect();
        assert!(
            reasons.contains(&"updated by --update-redirects"),
            "{reasons:?}"
        );
        assert!(reasons.contains(&"added by --tag-dead"), "{reasons:?}");
        assert!(
            reasons.iter().any(|r| r.ends_with("by --move-dead")),
            "{reasons:?}"
        );

        let mut doc = sample();
        let report = apply(&mut doc, &[Operation::RemoveLinks(dead)]).unwrap();
        assert_eq!(doc.bookmarks().count(), 1);
        let removed: usize = report
            .changes
            .iter()
            .filter(|c| c.field == Field::Bookmark && c.reason == "removed by --remove-dead")
            .map(|c| c.count)
            .sum();
        assert_eq!(removed, 2, "{:?}", report.changes);
    }
}
