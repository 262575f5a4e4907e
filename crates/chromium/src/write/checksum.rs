//! The checksum Chromium stores in every `Bookmarks` file: a file whose sum
//! differs is repaired on load.

use markport_model::{Document, Node, NodeId};

use super::plan::{children_of_root, root_name, Plan};
use super::{attr, ROOT_NAMES};
use crate::layout::{KEY_ATTR, MAP_ATTR};
use crate::md5::Md5;

/// Chromium's checksum: MD5 over each node of `bookmark_bar`, `other` and
/// `synced` in order: its id (ASCII), its title (UTF-16LE), then `url` and
/// the url for a url, `folder` for a folder (before its children).
pub(super) fn checksum(doc: &Document, p: &Plan) -> String {
    let mut md5 = Md5::default();
    for i in 0..3 {
        let (id, name) = match p.roots[i] {
            Some(r) => (
                p.ids[r.index()].clone().unwrap_or_default(),
                root_name(doc, r, i),
            ),
            None => (p.made_root_ids[i].clone(), ROOT_NAMES[i].to_owned()),
        };
        md5.node(&id, &name, None);
        subtree(doc, p, &children_of_root(doc, p, i), &mut md5);
    }
    // Vivaldi's `trash` and each member of Opera's `custom_root` (in key
    // order) come after: measured on their files.
    for &id in p.others.values() {
        let Node::Folder(f) = doc.node(id) else {
            continue;
        };
        if attr(&f.extra, MAP_ATTR).is_some() {
            let mut members: Vec<(String, NodeId)> = doc
                .children(Some(id))
                .iter()
                .filter_map(|&c| match doc.node(c) {
                    Node::Folder(cf) => attr(&cf.extra, KEY_ATTR).map(|k| (k.to_owned(), c)),
                    Node::Bookmark(b) => {
                        attr(&b.details().extra, KEY_ATTR).map(|k| (k.to_owned(), c))
                    }
                    _ => None,
                })
                .collect();
            members.sort();
            let ids: Vec<NodeId> = members.into_iter().map(|(_, c)| c).collect();
            subtree(doc, p, &ids, &mut md5);
        } else {
            subtree(doc, p, &[id], &mut md5);
        }
    }
    md5.hex()
}

/// Feed `top` and everything under it to the checksum, in order.
fn subtree(doc: &Document, p: &Plan, top: &[NodeId], md5: &mut Md5) {
    {
        let mut stack: Vec<std::slice::Iter<'_, NodeId>> = Vec::new();
        let mut first = Some(top.iter());
        while let Some(mut it) = first.take().or_else(|| stack.pop()) {
            let Some(&c) = it.next() else { continue };
            stack.push(it);
            match doc.node(c) {
                Node::Bookmark(b) => {
                    let id = p.ids[c.index()].as_deref().unwrap_or("");
                    md5.node(id, b.title.as_deref().unwrap_or(""), Some(&b.href));
                }
                Node::Folder(f) => {
                    let id = p.ids[c.index()].as_deref().unwrap_or("");
                    md5.node(id, f.title.as_deref().unwrap_or(""), None);
                    first = Some(doc.children(Some(c)).iter());
                }
                _ => {}
            }
        }
    }
}
