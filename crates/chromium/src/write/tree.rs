//! The nodes laid out as Chromium's `JSONWriter` pretty-prints them (three
//! spaces, sorted keys), without recursion: a node, a standard root the
//! model does not have, and Opera's `custom_root`.

use markport_model::{folder_fields, Document, Field, LossReport, Node, NodeId};

use super::members::{kept, members, Piece};
use super::plan::{children_of_root, Plan};
use super::{attr, is_written, ROOT_GUIDS, ROOT_NAMES};
use crate::json::{indent, write_string};
use crate::layout::{writes, Kind, DATE_KEYS, KEY_ATTR, MAP_ATTR};

/// Write a node at `depth` (its `{` already placed), without recursion.
pub(super) fn node(
    doc: &Document,
    id: NodeId,
    p: &Plan,
    root: Option<usize>,
    depth: usize,
    out: &mut String,
    loss: &mut LossReport,
) {
    struct Frame {
        members: std::vec::IntoIter<(String, Piece)>,
        depth: usize,
        first: bool,
        children: Option<(Vec<NodeId>, usize)>,
    }
    let mut stack = vec![Frame {
        members: members(doc, id, p, root, depth, loss).into_iter(),
        depth,
        first: true,
        children: None,
    }];
    out.push('{');
    while let Some(top) = stack.last_mut() {
        if let Some((children, next)) = &mut top.children {
            // Inside the children list: write the next written child, or close.
            while *next < children.len() && !is_written(doc.node(children[*next])) {
                let c = children[*next];
                let field = match doc.node(c) {
                    Node::Separator(_) => Field::Separator,
                    _ => Field::Alias,
                };
                loss.record(doc, Some(c), field, "Chromium has no separators or aliases");
                *next += 1;
            }
            if *next < children.len() {
                let c = children[*next];
                if *next > 0 && children[..*next].iter().any(|&s| is_written(doc.node(s))) {
                    out.push_str(", ");
                }
                *next += 1;
                let d = top.depth + 1;
                out.push('{');
                let m = members(doc, c, p, None, d, loss);
                stack.push(Frame {
                    members: m.into_iter(),
                    depth: d,
                    first: true,
                    children: None,
                });
                continue;
            }
            out.push_str(" ]");
            top.children = None;
        }
        match top.members.next() {
            Some((key, piece)) => {
                if !top.first {
                    out.push(',');
                }
                top.first = false;
                out.push('\n');
                indent(out, top.depth + 1);
                write_string(&key, out);
                out.push_str(": ");
                match piece {
                    Piece::Text(t) => out.push_str(&t),
                    Piece::Children(c) => {
                        // `[ ` here and ` ]` on closing: an empty list is
                        // `[  ]`, as Chromium writes it.
                        out.push_str("[ ");
                        top.children = Some((c, 0));
                    }
                }
            }
            None => {
                out.push('\n');
                indent(out, top.depth);
                out.push('}');
                stack.pop();
            }
        }
    }
}

/// A standard root the model does not have: empty unless loose nodes go in it.
pub(super) fn made_root(
    doc: &Document,
    p: &Plan,
    i: usize,
    out: &mut String,
    loss: &mut LossReport,
) {
    let kids = children_of_root(doc, p, i);
    // Written where it goes: a root holding most of a collection is most of
    // the output, and a copy of it doubled the peak memory.
    out.push('{');
    let mut m: Vec<(String, String)> = Vec::new();
    let w = |slot| writes(&p.policy, Kind::Folder, slot);
    for (slot, key) in DATE_KEYS.iter().enumerate() {
        p.seen.borrow_mut().saw(Kind::Folder, slot, w(slot));
        if w(slot) {
            m.push(((*key).into(), "\"0\"".into()));
        }
    }
    m.push(("guid".into(), format!("\"{}\"", ROOT_GUIDS[i])));
    m.push(("id".into(), format!("\"{}\"", p.made_root_ids[i])));
    let mut name = String::new();
    write_string(ROOT_NAMES[i], &mut name);
    m.push(("name".into(), name));
    m.push(("type".into(), "\"folder\"".into()));
    // `children` sorts first; write it through a node frame of its own.
    out.push_str("\n         \"children\": [ ");
    let mut any = false;
    for &c in &kids {
        if !is_written(doc.node(c)) {
            let field = if matches!(doc.node(c), Node::Separator(_)) {
                Field::Separator
            } else {
                Field::Alias
            };
            loss.record(doc, Some(c), field, "Chromium has no separators or aliases");
            continue;
        }
        if any {
            out.push_str(", ");
        }
        any = true;
        node(doc, c, p, None, 3, out, loss);
    }
    // After `[ `, so an empty list is `[  ]`, as Chromium writes it.
    out.push_str(" ]");
    m.sort();
    for (k, v) in m {
        out.push_str(",\n         \"");
        out.push_str(&k);
        out.push_str("\": ");
        out.push_str(&v);
    }
    out.push_str("\n      }");
}

/// Opera's `custom_root`: an object of root folders keyed by name.
pub(super) fn map_root(
    doc: &Document,
    id: NodeId,
    p: &Plan,
    out: &mut String,
    loss: &mut LossReport,
) {
    let Node::Folder(f) = doc.node(id) else {
        unreachable!("a folder")
    };
    let present: Vec<Field> = folder_fields(f)
        .filter(|f| *f != Field::FolderExtra)
        .collect();
    for field in present {
        loss.record(
            doc,
            Some(id),
            field,
            "Opera's custom_root is a map of folders: only its members are kept",
        );
    }
    let mut members: Vec<(String, String)> = Vec::new();
    let mut n = 0;
    for &c in doc.children(Some(id)) {
        let key = match doc.node(c) {
            Node::Folder(cf) => attr(&cf.extra, KEY_ATTR).map(str::to_owned),
            Node::Bookmark(b) => attr(&b.details().extra, KEY_ATTR).map(str::to_owned),
            _ => {
                loss.record(
                    doc,
                    Some(c),
                    Field::Separator,
                    "Chromium has no separators or aliases",
                );
                continue;
            }
        };
        let key = key.unwrap_or_else(|| {
            n += 1;
            format!("item{n}")
        });
        if members.iter().any(|(k, _)| *k == key) {
            loss.record(
                doc,
                Some(c),
                Field::Folder,
                "a key given twice in custom_root: dropped",
            );
            continue;
        }
        let mut text = String::new();
        node(doc, c, p, None, 3, &mut text, loss);
        members.push((key, text));
    }
    for a in &f.extra {
        if a.name == MAP_ATTR || members.iter().any(|(k, _)| *k == a.name) {
            continue;
        }
        if let Piece::Text(t) = kept(&a.value, 3) {
            members.push((a.name.clone(), t));
        }
    }
    members.sort();
    out.push('{');
    for (i, (k, v)) in members.iter().enumerate() {
        out.push_str(if i > 0 { ",\n" } else { "\n" });
        indent(out, 3);
        write_string(k, out);
        out.push_str(": ");
        out.push_str(v);
    }
    out.push('\n');
    indent(out, 2);
    out.push('}');
}
