//! Where each top-level node goes (Chromium has exactly three roots, and
//! a few browsers' own roots beside them), and the id and guid each written
//! node gets.

use std::collections::{BTreeMap, HashSet};

use markport_model::{Document, Field, Folder, LossReport, Node, NodeId};

use super::{attr, is_written, ROOT_GUIDS, ROOT_KEYS, ROOT_NAMES, ROOT_ROLES};
use crate::destination::LOWERCASE_GUID;
use crate::guid::{derived_v4_guid, valid_guid};
use crate::layout::{UnsetDates, KEY_ATTR, MAP_ATTR, UNSET_DATES_ATTR};

/// Where each top-level node of the model goes.
pub(super) struct Plan {
    /// The model's folder for each standard root, if it has one.
    pub(super) roots: [Option<NodeId>; 3],
    /// Top-level nodes that are no root, put into `roots[into]`.
    pub(super) loose: Vec<NodeId>,
    pub(super) into: usize,
    /// Other roots by key: Vivaldi `trash`, Opera `custom_root` (a map).
    pub(super) others: BTreeMap<String, NodeId>,
    /// The id and guid each written node gets (by node index), and the
    /// ones of the standard roots made up for a model without them.
    pub(super) ids: Vec<Option<String>>,
    pub(super) guids: Vec<Option<String>>,
    pub(super) made_root_ids: [String; 3],
    pub(super) policy: String,
    /// The unset dates as written, counted as the reader counts them: the
    /// reader infers the policy from them, so when none shows it (every
    /// undated node was left out) the policy does not come back.
    pub(super) seen: std::cell::RefCell<UnsetDates>,
}

fn folder_key(f: &Folder) -> Option<(&str, bool)> {
    attr(&f.extra, MAP_ATTR)
        .map(|k| (k, true))
        .or_else(|| attr(&f.extra, KEY_ATTR).map(|k| (k, false)))
}

/// A Chromium id: a decimal number above 0 (the invisible root is 0).
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 18
        && id.bytes().all(|b| b.is_ascii_digit())
        && id.parse::<u64>().is_ok_and(|n| n > 0)
}

pub(super) fn plan(doc: &Document, loss: &mut LossReport) -> Plan {
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
            loss.record_destination(doc, Some(id), guid_field, LOWERCASE_GUID);
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

/// The collected children of a standard root: its own, then the loose ones.
pub(super) fn children_of_root(doc: &Document, p: &Plan, i: usize) -> Vec<NodeId> {
    let mut v: Vec<NodeId> = p.roots[i]
        .map(|r| doc.children(Some(r)).to_vec())
        .unwrap_or_default();
    if i == p.into {
        v.extend(&p.loose);
    }
    v
}

pub(super) fn root_name(doc: &Document, r: NodeId, i: usize) -> String {
    doc.node(r)
        .title()
        .map(str::to_owned)
        .unwrap_or_else(|| ROOT_NAMES[i].to_owned())
}
