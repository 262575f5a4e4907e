//! The members of one node, as JSON texts sorted by key, with what does not
//! come back the same recorded: the model's fields, the kept keys and
//! `meta_info`.

use std::collections::BTreeMap;

use markport_model::{
    bookmark_fields, folder_fields, Attribute, DateValue, Document, Field, LossReport, Node, NodeId,
};

use super::plan::{children_of_root, root_name, Plan};
use super::{attr, sorted_names, ROOT_GUIDS, ROOT_NAMES};
use crate::destination::{self as chromium, Link};
use crate::json::{indent, write_string};
use crate::layout::{writes, Kind, DATE_KEYS, KEY_ATTR, MAP_ATTR};
use crate::{dates, support};

/// A member's value, ready to write.
pub(super) enum Piece {
    /// JSON text (already laid out for its depth).
    Text(String),
    /// The `children` list.
    Children(Vec<NodeId>),
}

pub(super) fn string(s: &str) -> Piece {
    let mut out = String::new();
    write_string(s, &mut out);
    Piece::Text(out)
}

/// A kept value: `true`, `false` and `null` as themselves (Edge's
/// `show_icon`), anything else as a string. Chromium's own values are
/// strings, numbers (`sync_transaction_version`) and JSON text (the roots'
/// `meta_info` of 2014) among them, so a string is the safer reading of a
/// kept value that looks like a number or an object.
pub(super) fn kept(value: &str, _depth: usize) -> Piece {
    match value {
        "true" | "false" | "null" => Piece::Text(value.to_owned()),
        _ => string(value),
    }
}

/// `meta_info`: an object of strings with sorted keys; duplicate keys after the first are returned.
fn object(attrs: &[Attribute], depth: usize) -> (String, usize) {
    let mut sorted: BTreeMap<&str, &str> = BTreeMap::new();
    let mut dropped = 0;
    for a in attrs {
        if sorted.contains_key(a.name.as_str()) {
            dropped += 1;
        } else {
            sorted.insert(&a.name, &a.value);
        }
    }
    let mut out = String::from("{");
    for (i, (k, v)) in sorted.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('\n');
        indent(&mut out, depth + 1);
        write_string(k, &mut out);
        out.push_str(": ");
        // Chromium's meta_info is a map of strings.
        write_string(v, &mut out);
    }
    out.push('\n');
    indent(&mut out, depth);
    out.push('}');
    (out, dropped)
}

/// A date key of a node.
#[derive(Clone, Copy)]
enum Date<'a> {
    /// The model's date `field`, unset when `None`.
    Field(Option<&'a DateValue>, Field),
    /// A date the model has no field for (a folder's `date_last_used`).
    Unset,
    /// Written by a kept key of the same name instead.
    Kept,
}

/// What a bookmark and a folder both write, taken from either.
struct Shape<'a> {
    kind: Kind,
    title: Option<&'a str>,
    /// The fields the node has, for those Chromium has no place for.
    present: Vec<Field>,
    /// By slot of [`DATE_KEYS`].
    dates: [Date<'a>; 3],
    extra: &'a [Attribute],
    meta: &'a [Attribute],
    title_field: Field,
    extra_field: Field,
    meta_field: Field,
}

impl<'a> Shape<'a> {
    fn of(node: &'a Node) -> Shape<'a> {
        match node {
            Node::Bookmark(b) => {
                let d = b.details();
                Shape {
                    kind: Kind::Url,
                    title: b.title.as_deref(),
                    present: bookmark_fields(b).collect(),
                    dates: [
                        Date::Field(b.added.as_ref(), Field::BookmarkAdded),
                        Date::Field(b.modified.as_ref(), Field::BookmarkModified),
                        Date::Field(d.visited.as_ref(), Field::BookmarkVisited),
                    ],
                    extra: &d.extra,
                    meta: &d.meta_info,
                    title_field: Field::BookmarkTitle,
                    extra_field: Field::BookmarkExtra,
                    meta_field: Field::BookmarkMetaInfo,
                }
            }
            Node::Folder(f) => Shape {
                kind: Kind::Folder,
                title: f.title.as_deref(),
                present: folder_fields(f).collect(),
                dates: [
                    Date::Field(f.added.as_ref(), Field::FolderAdded),
                    Date::Field(f.modified.as_ref(), Field::FolderModified),
                    match attr(&f.extra, DATE_KEYS[2]) {
                        Some(_) => Date::Kept,
                        None => Date::Unset,
                    },
                ],
                extra: &f.extra,
                meta: &f.meta_info,
                title_field: Field::FolderTitle,
                extra_field: Field::FolderExtra,
                meta_field: Field::FolderMetaInfo,
            },
            _ => unreachable!("only bookmarks and folders are written"),
        }
    }
}

/// Push the date of `slot`; record on `id` a date whose value does not come
/// back the same, and count an unset one as the reader will.
fn date(
    m: &mut Vec<(String, Piece)>,
    slot: usize,
    date: Date<'_>,
    kind: Kind,
    p: &Plan,
    (doc, id, loss): (&Document, NodeId, &mut LossReport),
) {
    let (value, field) = match date {
        Date::Kept => return,
        Date::Unset => (None, None),
        Date::Field(value, field) => (value, Some(field)),
    };
    let key = DATE_KEYS[slot];
    let (Some(value), Some(field)) = (value, field) else {
        let write_unset = writes(&p.policy, kind, slot);
        p.seen.borrow_mut().saw(kind, slot, write_unset);
        if write_unset {
            m.push((key.to_owned(), string(&dates::format(None))));
        }
        return;
    };
    let text = dates::format(Some(value));
    match dates::parse(&text) {
        Some(back) if back.same(value) => {
            if !back.same_form(value) {
                let form = field.form().expect("a date field");
                loss.record(
                    doc,
                    Some(id),
                    form,
                    "written in microseconds since 1601 (UTC)",
                );
            }
        }
        _ => loss.record(
            doc,
            Some(id),
            field,
            "Chromium keeps microseconds since 1601 as a number: this one cannot be",
        ),
    }
    if text.parse::<i64>().is_err() {
        loss.record_destination(doc, Some(id), field, chromium::UNREADABLE_DATE);
    }
    m.push((key.to_owned(), string(&text)));
}

/// The name a node is written with: a root's own or its English one, the
/// title of any other node; what Chromium or a reading back changes in it
/// recorded.
fn name(
    doc: &Document,
    id: NodeId,
    s: &Shape<'_>,
    (root, guid): (Option<usize>, &str),
    loss: &mut LossReport,
) -> String {
    let Some(i) = root else {
        if !s.title.is_none_or(chromium::keeps_title) {
            loss.record_destination(doc, Some(id), s.title_field, chromium::TITLE_SPACES);
        }
        if s.title == Some("") {
            loss.record(
                doc,
                Some(id),
                s.title_field,
                "an empty name reads back as no title",
            );
        }
        return s.title.unwrap_or_default().to_owned();
    };
    if s.title.is_none() {
        loss.record(
            doc,
            Some(id),
            Field::FolderTitle,
            "Chromium's roots have a name: the English one is given",
        );
    }
    let name = root_name(doc, id, i);
    if s.title.is_some() && name != ROOT_NAMES[i] {
        loss.record_destination(doc, Some(id), Field::FolderTitle, chromium::RENAMES_ROOTS);
    }
    let had_guid = matches!(doc.node(id), Node::Folder(f) if f.guid.is_some());
    if had_guid && guid != ROOT_GUIDS[i] {
        loss.record_destination(doc, Some(id), Field::FolderGuid, chromium::ROOT_GUIDS);
    }
    name
}

/// The members of a node (`root`: which standard root it is); losses
/// recorded.
pub(super) fn members(
    doc: &Document,
    id: NodeId,
    p: &Plan,
    root: Option<usize>,
    depth: usize,
    loss: &mut LossReport,
) -> Vec<(String, Piece)> {
    let node = doc.node(id);
    let s = Shape::of(node);
    let ids = (
        p.ids[id.index()].clone().unwrap_or_default(),
        p.guids[id.index()].clone().unwrap_or_default(),
    );
    loss.record_unsupported(
        doc,
        Some(id),
        s.present.iter().copied(),
        support,
        "Chromium has no place for it",
    );
    if let Node::Bookmark(b) = node {
        if b.modified.is_some() {
            loss.record_destination(
                doc,
                Some(id),
                Field::BookmarkModified,
                chromium::DROPS_MODIFIED,
            );
        }
    }
    let name = name(doc, id, &s, (root, &ids.1), loss);
    if let Node::Folder(f) = node {
        if f.role.is_some() && root.is_none() {
            loss.record(
                doc,
                Some(id),
                Field::FolderRole,
                "only Chromium's three roots have a role",
            );
        }
    }
    let mut m: Vec<(String, Piece)> = Vec::new();
    for (slot, d) in s.dates.into_iter().enumerate() {
        date(&mut m, slot, d, s.kind, p, (doc, id, loss));
    }
    m.push(("name".into(), string(&name)));
    match node {
        Node::Bookmark(b) => {
            match chromium::link(&b.href) {
                Link::Kept => {}
                Link::Rewritten => loss.record_destination(
                    doc,
                    Some(id),
                    Field::BookmarkHref,
                    chromium::CANONICAL_URL,
                ),
                Link::Dropped => {
                    loss.record_destination(doc, Some(id), Field::Bookmark, chromium::NOT_ABSOLUTE)
                }
            }
            m.push(("type".into(), string("url")));
            m.push(("url".into(), string(&b.href)));
        }
        _ => {
            m.push(("type".into(), string("folder")));
            let children = match root {
                Some(i) => children_of_root(doc, p, i),
                None => doc.children(Some(id)).to_vec(),
            };
            m.push(("children".into(), Piece::Children(children)));
        }
    }
    m.push(("id".into(), string(&ids.0)));
    m.push(("guid".into(), string(&ids.1)));
    kept_members(&mut m, &s, depth, (doc, id, loss));
    m.sort_by(|a, b| a.0.cmp(&b.0));
    m
}

/// `meta_info` and the kept keys of a node after its own members `m`: a key
/// of Chromium's own, or given twice, is recorded instead.
fn kept_members(
    m: &mut Vec<(String, Piece)>,
    s: &Shape<'_>,
    depth: usize,
    (doc, id, loss): (&Document, NodeId, &mut LossReport),
) {
    let Shape {
        meta,
        extra,
        meta_field,
        extra_field,
        ..
    } = *s;
    if !meta.is_empty() {
        let (text, dropped) = object(meta, depth + 1);
        if !sorted_names(meta.iter()) {
            loss.record(
                doc,
                Some(id),
                meta_field,
                "keys are written sorted, as Chromium writes them: their order changes",
            );
        }
        if dropped > 0 {
            loss.record(
                doc,
                Some(id),
                meta_field,
                "a key given twice: the first is kept",
            );
        }
        m.push(("meta_info".into(), Piece::Text(text)));
    }
    let mut lost_extra = false;
    if !sorted_names(
        extra
            .iter()
            .filter(|a| a.name != KEY_ATTR && a.name != MAP_ATTR),
    ) {
        loss.record(
            doc,
            Some(id),
            extra_field,
            "JSON keys are written sorted, as Chromium writes them: their order changes",
        );
    }
    let mut dropped_by_chromium = false;
    let folder = extra_field == Field::FolderExtra;
    for a in extra {
        if a.name == KEY_ATTR || a.name == MAP_ATTR {
            continue;
        }
        if m.iter().any(|(k, _)| *k == a.name) || a.name == "meta_info" {
            lost_extra = true;
            continue;
        }
        dropped_by_chromium |= !chromium::keeps_node_key(&a.name, folder);
        m.push((a.name.clone(), kept(&a.value, depth + 1)));
    }
    if dropped_by_chromium {
        loss.record_destination(doc, Some(id), extra_field, chromium::DROPS_KEY);
    }
    if lost_extra {
        loss.record(
            doc,
            Some(id),
            extra_field,
            "its name is one of Chromium's own keys, or given twice",
        );
    }
}
