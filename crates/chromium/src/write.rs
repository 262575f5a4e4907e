//! The model to a `Bookmarks` file Chromium loads as it is: its layout, its
//! checksum, unique ids and valid guids.

// The three roots are indexed together in several tables.
#![allow(clippy::needless_range_loop)]

use std::collections::{BTreeMap, HashSet};

use markport_model::{
    bookmark_fields, document_fields, folder_fields, Attribute, DateValue, Document, Error, Field,
    Folder, LossReport, Node, NodeId, Role,
};

use crate::destination::{self as chromium, Link};
use crate::guid::{derived_v4_guid, valid_guid};
use crate::json::{indent, write_string};
use crate::layout::{writes, Kind, UnsetDates, DATE_KEYS, KEY_ATTR, MAP_ATTR, UNSET_DATES_ATTR};
use crate::md5::Md5;
use crate::{dates, support};

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

/// Where each top-level node of the model goes.
struct Plan {
    /// The model's folder for each standard root, if it has one.
    roots: [Option<NodeId>; 3],
    /// Top-level nodes that are no root, put into `roots[into]`.
    loose: Vec<NodeId>,
    into: usize,
    /// Other roots by key: Vivaldi `trash`, Opera `custom_root` (a map).
    others: BTreeMap<String, NodeId>,
    /// The id and guid each written node gets (by node index), and the
    /// ones of the standard roots made up for a model without them.
    ids: Vec<Option<String>>,
    guids: Vec<Option<String>>,
    made_root_ids: [String; 3],
    policy: String,
    /// The unset dates as written, counted as the reader counts them: the
    /// reader infers the policy from them, so when none shows it (every
    /// undated node was left out) the policy does not come back.
    seen: std::cell::RefCell<UnsetDates>,
}

fn attr<'a>(extra: &'a [Attribute], name: &str) -> Option<&'a str> {
    extra
        .iter()
        .find(|a| a.name == name)
        .map(|a| a.value.as_str())
}

fn folder_key(f: &Folder) -> Option<(&str, bool)> {
    attr(&f.extra, MAP_ATTR)
        .map(|k| (k, true))
        .or_else(|| attr(&f.extra, KEY_ATTR).map(|k| (k, false)))
}

fn is_written(node: &Node) -> bool {
    matches!(node, Node::Bookmark(_) | Node::Folder(_))
}

/// A Chromium id: a decimal number above 0 (the invisible root is 0).
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 18
        && id.bytes().all(|b| b.is_ascii_digit())
        && id.parse::<u64>().is_ok_and(|n| n > 0)
}

fn plan(doc: &Document, loss: &mut LossReport) -> Plan {
    let mut roots = [None; 3];
    let mut loose = Vec::new();
    let mut others = BTreeMap::new();
    for &id in doc.children(None) {
        if let Node::Folder(f) = doc.node(id) {
            let std = f.role.and_then(|r| ROOT_ROLES.iter().position(|x| *x == r));
            if let Some(i) = std {
                if roots[i].is_none() && attr(&f.extra, MAP_ATTR).is_none() {
                    roots[i] = Some(id);
                    continue;
                }
            }
            if let Some((key, _)) = folder_key(f) {
                if f.role.is_none() && !ROOT_KEYS.contains(&key) && !others.contains_key(key) {
                    others.insert(key.to_owned(), id);
                    continue;
                }
            }
        }
        loose.push(id);
    }
    // Keep the order of what is written: a root that stands after a loose
    // entry (Firefox's export has the toolbar folder after the menu's
    // entries) is written as an ordinary folder among the loose ones.
    let top = doc.children(None);
    if let Some(first) = top
        .iter()
        .position(|id| loose.contains(id) && is_written(doc.node(*id)))
    {
        for r in roots.iter_mut() {
            if let Some(id) = *r {
                if top.iter().position(|t| *t == id).is_some_and(|i| i > first) {
                    *r = None;
                }
            }
        }
        loose = top
            .iter()
            .copied()
            .filter(|id| !roots.contains(&Some(*id)) && !others.values().any(|o| o == id))
            .collect();
    }
    // Chromium's own HTML export puts "Other bookmarks" after the bar folder
    // at the top level: with a bar, the rest is `other`. Without one, the
    // whole collection goes into the bar, as Chromium's first import does.
    let into = if roots[0].is_some() { 1 } else { 0 };
    let folders_moved: Vec<NodeId> = loose
        .iter()
        .copied()
        .filter(|&id| is_written(doc.node(id)))
        .collect();
    for &id in &folders_moved {
        loss.record(
            doc,
            Some(id),
            Field::Folder,
            &format!(
                "not in one of Chromium's roots: moved into `{}`",
                ROOT_KEYS[into]
            ),
        );
    }
    let missing = roots.iter().filter(|r| r.is_none()).count();
    let mut order: Vec<NodeId> = roots.iter().flatten().copied().collect();
    order.extend(others.values().copied());
    let source: Vec<NodeId> = doc
        .children(None)
        .iter()
        .copied()
        .filter(|id| order.contains(id))
        .collect();
    if missing > 0 {
        // One folder added per missing root: counted as `diff` counts them.
        for (i, _) in roots.iter().enumerate().filter(|(_, r)| r.is_none()) {
            loss.record(
                doc,
                None,
                Field::Folder,
                &format!(
                    "Chromium always has its three roots: `{}` added",
                    ROOT_KEYS[i]
                ),
            );
        }
    } else if folders_moved.is_empty() && source != order {
        loss.record(
            doc,
            None,
            Field::Folder,
            "roots are written in Chromium's order",
        );
    }
    let policy = attr(&doc.header.extra, UNSET_DATES_ATTR)
        .unwrap_or(UnsetDates::DEFAULT)
        .to_owned();
    let mut p = Plan {
        roots,
        loose,
        into,
        others,
        ids: vec![None; doc.len()],
        guids: vec![None; doc.len()],
        made_root_ids: Default::default(),
        policy,
        seen: Default::default(),
    };
    assign_ids(doc, &mut p, loss);
    p
}

/// Keep each valid id the first time it is met, number the rest after the
/// largest; the same for guids, made where missing.
fn assign_ids(doc: &Document, p: &mut Plan, loss: &mut LossReport) {
    let written: Vec<NodeId> = doc
        .preorder()
        .filter(|&id| match doc.node(id) {
            Node::Bookmark(_) => true,
            Node::Folder(f) => attr(&f.extra, MAP_ATTR).is_none() || doc.parent(id).is_some(),
            _ => false,
        })
        .collect();
    let mut used_ids = HashSet::new();
    let mut used_guids: HashSet<String> = HashSet::new();
    let mut next = 1u64;
    for &id in &written {
        let node = doc.node(id);
        if let Some(s) = node.id().filter(|s| valid_id(s)) {
            if used_ids.insert(s.to_owned()) {
                p.ids[id.index()] = Some(s.to_owned());
                next = next.max(s.parse::<u64>().unwrap_or(0).saturating_add(1));
            }
        }
        let guid = match node {
            Node::Bookmark(b) => b.details().guid.as_deref(),
            Node::Folder(f) => f.guid.as_deref(),
            _ => None,
        };
        if let Some(g) = guid.filter(|g| valid_guid(g)) {
            if used_guids.insert(g.to_ascii_lowercase()) {
                p.guids[id.index()] = Some(g.to_owned());
            }
        }
    }
    for (i, made) in p.made_root_ids.iter_mut().enumerate() {
        if p.roots[i].is_none() {
            *made = next.to_string();
            next += 1;
            used_guids.insert(ROOT_GUIDS[i].to_owned());
        }
    }
    let mut counter = 0u64;
    for &id in &written {
        let node = doc.node(id);
        let (id_field, guid_field) = match node {
            Node::Bookmark(_) => (Field::BookmarkId, Field::BookmarkGuid),
            _ => (Field::FolderId, Field::FolderGuid),
        };
        if p.ids[id.index()].is_none() {
            p.ids[id.index()] = Some(next.to_string());
            next += 1;
            let why = match node.id() {
                Some(_) => "Chromium ids are unique decimal numbers: renumbered",
                None => "Chromium needs an id: one is given",
            };
            loss.record(doc, Some(id), id_field, why);
        }
        if p.guids[id.index()]
            .as_deref()
            .is_some_and(|g| g.bytes().any(|c| c.is_ascii_uppercase()))
        {
            loss.record_destination(doc, Some(id), guid_field, chromium::LOWERCASE_GUID);
        }
        if p.guids[id.index()].is_none() {
            let root = p.roots.iter().position(|r| *r == Some(id));
            let had = match node {
                Node::Bookmark(b) => b.details().guid.is_some(),
                Node::Folder(f) => f.guid.is_some(),
                _ => false,
            };
            let guid = match root {
                Some(i) if used_guids.insert(ROOT_GUIDS[i].to_owned()) => ROOT_GUIDS[i].to_owned(),
                _ => loop {
                    let seed = format!("{}\u{0}{}", node.title().unwrap_or(""), id.index());
                    let g = derived_v4_guid(&seed, counter);
                    counter += 1;
                    if used_guids.insert(g.clone()) {
                        break g;
                    }
                },
            };
            p.guids[id.index()] = Some(guid);
            let why = if had {
                "Chromium guids are unique UUIDs: a new one is given"
            } else {
                "Chromium needs a guid: one is given (as Chromium would on load)"
            };
            loss.record(doc, Some(id), guid_field, why);
        }
    }
}

/// Chromium's checksum: MD5 over each node of `bookmark_bar`, `other` and
/// `synced` in order: its id (ASCII), its title (UTF-16LE), then `url` and
/// the url for a url, `folder` for a folder (before its children).
fn checksum(doc: &Document, p: &Plan) -> String {
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

/// The collected children of a standard root: its own, then the loose ones.
fn children_of_root(doc: &Document, p: &Plan, i: usize) -> Vec<NodeId> {
    let mut v: Vec<NodeId> = p.roots[i]
        .map(|r| doc.children(Some(r)).to_vec())
        .unwrap_or_default();
    if i == p.into {
        v.extend(&p.loose);
    }
    v
}

fn root_name(doc: &Document, r: NodeId, i: usize) -> String {
    doc.node(r)
        .title()
        .map(str::to_owned)
        .unwrap_or_else(|| ROOT_NAMES[i].to_owned())
}

/// A member's value, ready to write.
enum Piece {
    /// JSON text (already laid out for its depth).
    Text(String),
    /// The `children` list.
    Children(Vec<NodeId>),
}

fn string(s: &str) -> Piece {
    let mut out = String::new();
    write_string(s, &mut out);
    Piece::Text(out)
}

/// A kept value: `true`, `false` and `null` as themselves (Edge's
/// `show_icon`), anything else as a string. Chromium's own values are
/// strings, numbers (`sync_transaction_version`) and JSON text (the roots'
/// `meta_info` of 2014) among them, so a string is the safer reading of a
/// kept value that looks like a number or an object.
fn kept(value: &str, _depth: usize) -> Piece {
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

/// Record on `id` a date `field` whose value does not come back the same.
fn date(
    members: &mut Vec<(String, Piece)>,
    key: &str,
    value: Option<&DateValue>,
    write_unset: bool,
    ctx: (
        &Document,
        NodeId,
        &mut LossReport,
        Field,
        &std::cell::RefCell<UnsetDates>,
    ),
) {
    let (doc, id, loss, field, seen) = ctx;
    if value.is_none() {
        let kind = if field.scope() == markport_model::Scope::Folder {
            Kind::Folder
        } else {
            Kind::Url
        };
        seen.borrow_mut()
            .saw(kind, UnsetDates::slot(key), write_unset);
        if !write_unset {
            return;
        }
    }
    let text = dates::format(value);
    if let Some(v) = value {
        match dates::parse(&text) {
            Some(back) if back.same(v) => {
                if !back.same_form(v) {
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
    }
    members.push((key.to_owned(), string(&text)));
}

/// The members of a node; losses recorded.
fn members(
    doc: &Document,
    id: NodeId,
    p: &Plan,
    root: Option<usize>,
    depth: usize,
    loss: &mut LossReport,
) -> Vec<(String, Piece)> {
    let mut m: Vec<(String, Piece)> = Vec::new();
    let ids = (
        p.ids[id.index()].clone().unwrap_or_default(),
        p.guids[id.index()].clone().unwrap_or_default(),
    );
    let (extra, meta, extra_field, meta_field) = match doc.node(id) {
        Node::Bookmark(b) => {
            let d = b.details();
            let present: Vec<Field> = bookmark_fields(b).collect();
            loss.record_unsupported(
                doc,
                Some(id),
                present,
                support,
                "Chromium has no place for it",
            );
            if b.title.as_deref() == Some("") {
                loss.record(
                    doc,
                    Some(id),
                    Field::BookmarkTitle,
                    "an empty name reads back as no title",
                );
            }
            let w = |slot| writes(&p.policy, Kind::Url, slot);
            let dates = [
                (&b.added, Field::BookmarkAdded),
                (&b.modified, Field::BookmarkModified),
                (&d.visited, Field::BookmarkVisited),
            ];
            for (slot, (value, field)) in dates.into_iter().enumerate() {
                let key = DATE_KEYS[slot];
                date(
                    &mut m,
                    key,
                    value.as_ref(),
                    w(slot),
                    (doc, id, loss, field, &p.seen),
                );
            }
            if b.modified.is_some() {
                loss.record_destination(
                    doc,
                    Some(id),
                    Field::BookmarkModified,
                    chromium::DROPS_MODIFIED,
                );
            }
            if !b.title.as_deref().is_none_or(chromium::keeps_title) {
                loss.record_destination(
                    doc,
                    Some(id),
                    Field::BookmarkTitle,
                    chromium::TITLE_SPACES,
                );
            }
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
            m.push(("name".into(), string(b.title.as_deref().unwrap_or(""))));
            m.push(("type".into(), string("url")));
            m.push(("url".into(), string(&b.href)));
            (
                &d.extra,
                &d.meta_info,
                Field::BookmarkExtra,
                Field::BookmarkMetaInfo,
            )
        }
        Node::Folder(f) => {
            let present: Vec<Field> = folder_fields(f).collect();
            loss.record_unsupported(
                doc,
                Some(id),
                present,
                support,
                "Chromium has no place for it",
            );
            let name = match root {
                Some(i) => {
                    if f.title.is_none() {
                        loss.record(
                            doc,
                            Some(id),
                            Field::FolderTitle,
                            "Chromium's roots have a name: the English one is given",
                        );
                    }
                    let name = root_name(doc, id, i);
                    if f.title.is_some() && name != ROOT_NAMES[i] {
                        loss.record_destination(
                            doc,
                            Some(id),
                            Field::FolderTitle,
                            chromium::RENAMES_ROOTS,
                        );
                    }
                    if f.guid.is_some() && ids.1 != ROOT_GUIDS[i] {
                        loss.record_destination(
                            doc,
                            Some(id),
                            Field::FolderGuid,
                            chromium::ROOT_GUIDS,
                        );
                    }
                    name
                }
                None => {
                    if !f.title.as_deref().is_none_or(chromium::keeps_title) {
                        loss.record_destination(
                            doc,
                            Some(id),
                            Field::FolderTitle,
                            chromium::TITLE_SPACES,
                        );
                    }
                    if f.title.as_deref() == Some("") {
                        loss.record(
                            doc,
                            Some(id),
                            Field::FolderTitle,
                            "an empty name reads back as no title",
                        );
                    }
                    f.title.clone().unwrap_or_default()
                }
            };
            if f.role.is_some() && root.is_none() {
                loss.record(
                    doc,
                    Some(id),
                    Field::FolderRole,
                    "only Chromium's three roots have a role",
                );
            }
            let w = |slot| writes(&p.policy, Kind::Folder, slot);
            let dates = [
                (&f.added, Field::FolderAdded),
                (&f.modified, Field::FolderModified),
            ];
            for (slot, (value, field)) in dates.into_iter().enumerate() {
                let key = DATE_KEYS[slot];
                date(
                    &mut m,
                    key,
                    value.as_ref(),
                    w(slot),
                    (doc, id, loss, field, &p.seen),
                );
            }
            if attr(&f.extra, DATE_KEYS[2]).is_none() {
                p.seen.borrow_mut().saw(Kind::Folder, 2, w(2));
                if w(2) {
                    m.push((DATE_KEYS[2].into(), string("0")));
                }
            }
            m.push(("name".into(), string(&name)));
            m.push(("type".into(), string("folder")));
            let children = match root {
                Some(i) => children_of_root(doc, p, i),
                None => doc.children(Some(id)).to_vec(),
            };
            m.push(("children".into(), Piece::Children(children)));
            (
                &f.extra,
                &f.meta_info,
                Field::FolderExtra,
                Field::FolderMetaInfo,
            )
        }
        _ => unreachable!("only bookmarks and folders are written"),
    };
    m.push(("id".into(), string(&ids.0)));
    m.push(("guid".into(), string(&ids.1)));
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
    m.sort_by(|a, b| a.0.cmp(&b.0));
    m
}

/// Write a node at `depth` (its `{` already placed), without recursion.
fn node(
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

    // `roots`: the standard ones, the other roots, the kept non-object members.
    let mut roots: Vec<(String, String)> = Vec::new();
    for i in 0..3 {
        let subtree = match p.roots[i] {
            Some(r) => vec![r],
            None => children_of_root(doc, &p, i),
        };
        let mut text = String::with_capacity(text_size(doc, subtree));
        match p.roots[i] {
            Some(r) => node(doc, r, &p, Some(i), 2, &mut text, &mut loss),
            None => made_root(doc, &p, i, &mut text, &mut loss),
        }
        roots.push((ROOT_KEYS[i].to_owned(), text));
    }
    for (key, &id) in &p.others {
        dropped_root(doc, id, &mut loss);
        let mut text = String::new();
        let Node::Folder(f) = doc.node(id) else {
            unreachable!("roots are folders")
        };
        if attr(&f.extra, MAP_ATTR).is_some() {
            map_root(doc, id, &p, &mut text, &mut loss);
        } else {
            node(doc, id, &p, None, 2, &mut text, &mut loss);
        }
        roots.push((key.clone(), text));
    }
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
    let mut top: Vec<(String, String)> = vec![("checksum".into(), format!("\"{sum}\""))];
    let mut lost_extra = false;
    let mut dropped_by_chromium = false;
    for a in &doc.header.extra {
        if a.name == UNSET_DATES_ATTR {
            continue;
        }
        let (list, name, depth) = match a.name.strip_prefix("roots.") {
            Some(k) => (&mut roots, k.to_owned(), 2),
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
    roots.sort_by(|a, b| a.0.cmp(&b.0));
    // `roots` is the one key no extra member can have (those are refused
    // above): its place in the sorted keys is marked by an empty text, and
    // its object is written from the roots' own texts, so the output is not
    // copied into one string (twice) before it is written.
    top.push(("roots".into(), String::new()));
    top.sort_by(|a, b| a.0.cmp(&b.0));
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
    out.write_all(glue.as_bytes()).map_err(Error::io)?;
    Ok(loss)
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

/// A standard root the model does not have: empty unless loose nodes go in it.
fn made_root(doc: &Document, p: &Plan, i: usize, out: &mut String, loss: &mut LossReport) {
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
fn map_root(doc: &Document, id: NodeId, p: &Plan, out: &mut String, loss: &mut LossReport) {
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
