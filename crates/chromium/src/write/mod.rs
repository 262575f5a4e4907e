//! The model to a `Bookmarks` file Chromium loads as it is: its layout, its
//! checksum, unique ids and valid guids.
//!
//! [`plan`] decides where each top-level node goes and the id and guid of
//! each node, [`checksum`] sums the tree as Chromium does, [`members`] makes
//! the sorted members of one node (recording what does not come back), and
//! [`tree`] lays the nodes out as Chromium's pretty printer does. This module
//! writes the file's own keys around the roots.

// The three roots are indexed together in several tables.
#![allow(clippy::needless_range_loop)]

mod checksum;
mod members;
mod plan;
mod tree;

use markport_model::{
    document_fields, Attribute, Document, Error, Field, LossReport, Node, NodeId, Role,
};

use crate::destination as chromium;
use crate::json::{indent, write_string};
use crate::layout::{UnsetDates, MAP_ATTR, UNSET_DATES_ATTR};
use crate::support;

use checksum::checksum;
use members::{kept, Piece};
use plan::{children_of_root, plan};
use tree::{made_root, map_root, node};

/// The guids Chromium gives its three roots (`bookmark_bar`, `other`, `synced`).
pub const ROOT_GUIDS: [&str; 3] = [
    "0bc5d13f-2cba-5d74-951f-3f233fe6c908",
    "82b081ec-3dd3-529c-8475-ab6c344590dd",
    "4cf2e351-0e85-532b-bb37-df045d8f8d0f",
];
const ROOT_KEYS: [&str; 3] = ["bookmark_bar", "other", "synced"];
const ROOT_ROLES: [Role; 3] = [Role::Toolbar, Role::Unfiled, Role::Mobile];
/// The names Chromium gives its roots in English.
const ROOT_NAMES: [&str; 3] = ["Bookmarks bar", "Other bookmarks", "Mobile bookmarks"];

fn attr<'a>(extra: &'a [Attribute], name: &str) -> Option<&'a str> {
    extra
        .iter()
        .find(|a| a.name == name)
        .map(|a| a.value.as_str())
}

fn is_written(node: &Node) -> bool {
    matches!(node, Node::Bookmark(_) | Node::Folder(_))
}

/// Write `doc` as a `Bookmarks` file.
pub fn write(doc: &Document, out: &mut dyn std::io::Write) -> Result<LossReport, Error> {
    let mut loss = LossReport::new();
    loss.record_unsupported(
        doc,
        None,
        document_fields(doc),
        support,
        "Chromium has no place for it",
    );
    let p = plan(doc, &mut loss);
    let sum = checksum(doc, &p);
    let mut roots = root_texts(doc, &p, &mut loss);
    record_header(doc, &p, &mut loss);
    let mut top = top_members(doc, &p, &sum, &mut roots, &mut loss);
    roots.sort_by(|a, b| a.0.cmp(&b.0));
    // `roots` is the one key no extra member can have (those are refused
    // in `top_members`): its place in the sorted keys is marked by an empty
    // text, and its object is written from the roots' own texts, so the
    // output is not copied into one string (twice) before it is written.
    top.push(("roots".into(), String::new()));
    top.sort_by(|a, b| a.0.cmp(&b.0));
    emit(&top, &roots, out)?;
    Ok(loss)
}

/// The members of `roots` the tree makes, each key with its JSON: the
/// standard three (made when the document has none), then the other roots.
fn root_texts(doc: &Document, p: &plan::Plan, loss: &mut LossReport) -> Vec<(String, String)> {
    let mut roots: Vec<(String, String)> = Vec::new();
    for i in 0..3 {
        let subtree = match p.roots[i] {
            Some(r) => vec![r],
            None => children_of_root(doc, p, i),
        };
        let mut text = String::with_capacity(text_size(doc, subtree));
        match p.roots[i] {
            Some(r) => node(doc, r, p, Some(i), 2, &mut text, loss),
            None => made_root(doc, p, i, &mut text, loss),
        }
        roots.push((ROOT_KEYS[i].to_owned(), text));
    }
    for (key, &id) in &p.others {
        dropped_root(doc, id, loss);
        let mut text = String::new();
        let Node::Folder(f) = doc.node(id) else {
            unreachable!("roots are folders")
        };
        if attr(&f.extra, MAP_ATTR).is_some() {
            map_root(doc, id, p, &mut text, loss);
        } else {
            node(doc, id, p, None, 2, &mut text, loss);
        }
        roots.push((key.clone(), text));
    }
    roots
}

/// What the file's own members do not keep of the document's: an unset-dates
/// policy nothing shows any more, and the order of its extra keys.
fn record_header(doc: &Document, p: &plan::Plan, loss: &mut LossReport) {
    if p.seen.borrow().policy() != p.policy {
        loss.record(
            doc,
            None,
            Field::DocumentExtra,
            "chromium.unset-dates: how this file writes unset dates shows only on nodes without one, and none is left",
        );
    }
    let kept_extra = doc
        .header
        .extra
        .iter()
        .filter(|a| a.name != UNSET_DATES_ATTR);
    if !sorted_names(kept_extra.clone().filter(|a| a.name.starts_with("roots.")))
        || !sorted_names(kept_extra.filter(|a| !a.name.starts_with("roots.")))
    {
        loss.record(
            doc,
            None,
            Field::DocumentExtra,
            "JSON keys are written sorted, as Chromium writes them: their order changes",
        );
    }
}

/// The file's top-level members but `roots` (`checksum`, `version`, the
/// document's extra keys), each with its JSON; an extra key named
/// `roots.NAME` joins `roots` instead.
fn top_members(
    doc: &Document,
    p: &plan::Plan,
    sum: &str,
    roots: &mut Vec<(String, String)>,
    loss: &mut LossReport,
) -> Vec<(String, String)> {
    let mut top: Vec<(String, String)> = vec![("checksum".into(), format!("\"{sum}\""))];
    let mut lost_extra = false;
    let mut dropped_by_chromium = false;
    for a in &doc.header.extra {
        if a.name == UNSET_DATES_ATTR {
            continue;
        }
        let (list, name, depth) = match a.name.strip_prefix("roots.") {
            Some(k) => (&mut *roots, k.to_owned(), 2),
            None => (&mut top, a.name.clone(), 1),
        };
        if list.iter().any(|(k, _)| *k == name) || (depth == 1 && name == "roots") {
            lost_extra = true;
            continue;
        }
        let text = if name == "version"
            && markport_markup::json::Parser::new(a.value.as_bytes())
                .skip_all()
                .is_ok()
        {
            a.value.clone()
        } else {
            match kept(&a.value, depth) {
                Piece::Text(t) => t,
                Piece::Children(_) => unreachable!("kept values are text"),
            }
        };
        if !chromium::keeps_top_key(&a.name, &a.value) {
            dropped_by_chromium = true;
        }
        list.push((name, text));
    }
    if dropped_by_chromium {
        loss.record_destination(doc, None, Field::DocumentExtra, chromium::DROPS_KEY);
    }
    if p.policy != UnsetDates::DEFAULT {
        loss.record_destination(doc, None, Field::DocumentExtra, chromium::UNSET_DATES);
    }
    if lost_extra {
        loss.record(
            doc,
            None,
            Field::DocumentExtra,
            "its name is one of Chromium's own keys, or given twice",
        );
    }
    if !top.iter().any(|(k, _)| k == "version") {
        top.push(("version".into(), "1".into()));
    }
    top
}

/// Write the sorted members `top` (the empty text of `roots` standing for
/// the object of `roots`' members) as Chromium's pretty printer lays them
/// out, each root's text straight from its own string.
fn emit(
    top: &[(String, String)],
    roots: &[(String, String)],
    out: &mut dyn std::io::Write,
) -> Result<(), Error> {
    let mut glue = String::from("{");
    for (i, (k, v)) in top.iter().enumerate() {
        glue.push_str(if i > 0 { ",\n" } else { "\n" });
        indent(&mut glue, 1);
        write_string(k, &mut glue);
        glue.push_str(": ");
        if k != "roots" {
            glue.push_str(v);
            continue;
        }
        glue.push('{');
        for (j, (rk, rv)) in roots.iter().enumerate() {
            glue.push_str(if j > 0 { ",\n" } else { "\n" });
            indent(&mut glue, 2);
            write_string(rk, &mut glue);
            glue.push_str(": ");
            out.write_all(glue.as_bytes()).map_err(Error::io)?;
            glue.clear();
            out.write_all(rv.as_bytes()).map_err(Error::io)?;
        }
        glue.push_str("\n   }");
    }
    glue.push_str("\n}\n");
    out.write_all(glue.as_bytes()).map_err(Error::io)
}

/// Record that Chromium drops the root `id` (Vivaldi's `trash`, Opera's
/// `custom_root`) with everything in it.
fn dropped_root(doc: &Document, id: NodeId, loss: &mut LossReport) {
    let mut todo = vec![id];
    while let Some(n) = todo.pop() {
        let field = match doc.node(n) {
            Node::Bookmark(_) => Field::Bookmark,
            Node::Folder(_) => Field::Folder,
            _ => continue,
        };
        loss.record_destination(doc, Some(n), field, chromium::DROPS_ROOT);
        todo.extend(doc.children(Some(n)).iter().rev());
    }
}

/// About how many bytes the JSON of the nodes `from` and everything in them
/// takes, so that a root's text is allocated once: grown by doubling, the
/// text of a root holding most of a collection left its smaller copies
/// behind in the heap.
fn text_size(doc: &Document, from: Vec<NodeId>) -> usize {
    // A node's keys, dates, guid, id and indentation; then its strings.
    const PER_NODE: usize = 256;
    let mut size = 0usize;
    let mut todo = from;
    while let Some(id) = todo.pop() {
        size = size.saturating_add(PER_NODE);
        if let Some(b) = doc.node(id).as_bookmark() {
            size = size.saturating_add(b.href.len() + b.title.as_ref().map_or(0, String::len));
        }
        todo.extend_from_slice(doc.children(Some(id)));
    }
    size
}

/// Whether the attributes are in the order Chromium's sorted keys put them.
fn sorted_names<'a>(attrs: impl Iterator<Item = &'a Attribute>) -> bool {
    let names: Vec<&str> = attrs.map(|a| a.name.as_str()).collect();
    names.windows(2).all(|w| w[0] <= w[1])
}

#[cfg(test)]
mod tests {
    use markport_model::{Bookmark, Document, Folder, Role};

    #[test]
    fn an_empty_list_is_two_spaces_between_brackets_as_chromium_writes_it() {
        let mut doc = Document::new();
        let mut bar = Folder::titled("Bookmarks bar");
        bar.role = Some(Role::Toolbar);
        let bar = doc.push(None, bar);
        doc.push(Some(bar), Folder::titled("empty"));
        doc.push(Some(bar), Bookmark::new("https://example.org/"));
        let mut other = Folder::titled("Other bookmarks");
        other.role = Some(Role::Unfiled);
        doc.push(None, other);
        let mut out = Vec::new();
        super::write(&doc, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // The empty folder, the empty `other` read back and the made `synced`.
        assert_eq!(text.matches("\"children\": [  ],").count(), 3, "{text}");
        assert!(text.contains("\"children\": [ {"), "{text}");
        assert!(!text.contains("[   ]"), "{text}");
    }
}
