//! Nodes both edited sides added (neither is in the base) that are one
//! item: under folders that are one item, the same link and title, folders
//! of the same title, separators by their place, aliases by what they show.
//! The same link under two titles is two items (both kept, and said).

use std::collections::{HashMap, VecDeque};

use markport_model::{link_key, Node};

use crate::pairing::Pairing;
use crate::tree::{Tree, NONE};

/// The added nodes of ours and theirs that are one item.
pub(crate) struct Twins {
    /// For each node of ours, its twin in theirs or [`NONE`].
    pub(crate) o_to_t: Vec<u32>,
    /// For each node of theirs, its twin in ours or [`NONE`].
    pub(crate) t_to_o: Vec<u32>,
}

impl Twins {
    fn join(&mut self, o: u32, t: u32) {
        self.o_to_t[o as usize] = t;
        self.t_to_o[t as usize] = o;
    }
}

/// Pair the nodes `ours` and `theirs` added, looking into the folders both
/// matched to one base folder (and the top level), then into the folders
/// so paired, from a work list.
pub(crate) fn twins(ours: &Tree, theirs: &Tree, po: &Pairing, pt: &Pairing) -> Twins {
    let mut tw = Twins {
        o_to_t: vec![NONE; ours.len()],
        t_to_o: vec![NONE; theirs.len()],
    };
    let mut pairs = vec![(NONE, NONE)];
    by_ids(ours, theirs, po, pt, &mut tw, &mut pairs);
    for (&o, &t) in po.from_base.iter().zip(&pt.from_base) {
        if o != NONE && t != NONE && ours.is_folder(o) {
            pairs.push((o, t));
        }
    }
    let mut i = 0;
    while i < pairs.len() {
        let (of, tf) = pairs[i];
        i += 1;
        let new = |tree: &Tree, f: u32, p: &Pairing, twin: &[u32]| -> Vec<u32> {
            tree.children(f)
                .filter(|&n| p.to_base[n as usize] == NONE && twin[n as usize] == NONE)
                .collect()
        };
        let ok = new(ours, of, po, &tw.o_to_t);
        if ok.is_empty() {
            continue;
        }
        let tk = new(theirs, tf, pt, &tw.t_to_o);
        if tk.is_empty() {
            continue;
        }
        for key in [exact as Key, normal] {
            let found = by_key(ours, &ok, theirs, &tk, key, &tw.o_to_t, &tw.t_to_o);
            for (o, t) in found {
                tw.join(o, t);
                if ours.is_folder(o) {
                    pairs.push((o, t));
                }
            }
        }
        let seps = |tree: &Tree, ns: &[u32], twin: &[u32]| -> Vec<u32> {
            ns.iter()
                .copied()
                .filter(|&n| twin[n as usize] == NONE && matches!(tree.node(n), Node::Separator(_)))
                .collect()
        };
        let (os, ts) = (seps(ours, &ok, &tw.o_to_t), seps(theirs, &tk, &tw.t_to_o));
        for (o, t) in os.into_iter().zip(ts) {
            tw.join(o, t);
        }
    }
    tw
}

/// Added nodes with the same guid (or id) and kind that also share their
/// link or title, wherever they are: one item added on one side, synced
/// to the other and moved there (folders so paired are looked into). The content must agree because two copies
/// numbering their own additions (Floccus' ids) give different items one id.
fn by_ids(
    ours: &Tree,
    theirs: &Tree,
    po: &Pairing,
    pt: &Pairing,
    tw: &mut Twins,
    pairs: &mut Vec<(u32, u32)>,
) {
    let ids = |n: &Node| -> [Option<(u8, String)>; 2] {
        let (guid, id) = match n {
            Node::Bookmark(b) => (b.details().guid.clone(), b.details().id.clone()),
            Node::Folder(f) => (f.guid.clone(), f.id.clone()),
            _ => (None, None),
        };
        [guid.map(|g| (0, g)), id.map(|i| (1, i))]
    };
    let mut index: HashMap<(u8, String), VecDeque<u32>> = HashMap::new();
    for &o in &ours.preorder {
        if po.to_base[o as usize] == NONE {
            for key in ids(ours.node(o)).into_iter().flatten() {
                index.entry(key).or_default().push_back(o);
            }
        }
    }
    if index.is_empty() {
        return;
    }
    for &t in &theirs.preorder {
        if pt.to_base[t as usize] != NONE {
            continue;
        }
        let tn = theirs.node(t);
        for key in ids(tn).into_iter().flatten() {
            let Some(queue) = index.get_mut(&key) else {
                continue;
            };
            let alike = |o: u32| {
                let on = ours.node(o);
                tw.o_to_t[o as usize] == NONE
                    && on.kind() == tn.kind()
                    && (on.title() == tn.title()
                        || matches!((on, tn), (Node::Bookmark(x), Node::Bookmark(y)) if x.href == y.href))
            };
            // A few candidates at most: a key shared by many unlike nodes costs no more.
            if let Some(pos) = queue.iter().take(4).position(|&o| alike(o)) {
                let o = queue.remove(pos).expect("found");
                tw.join(o, t);
                if ours.is_folder(o) {
                    pairs.push((o, t));
                }
                break;
            }
        }
    }
}

/// What makes two added nodes one item, as a key; `None`: never joined.
type Key = fn(&Node) -> Option<(u8, String, Option<String>)>;

/// A bookmark by its link and title, a folder by its title, an alias by
/// what it shows.
fn exact(node: &Node) -> Option<(u8, String, Option<String>)> {
    match node {
        Node::Bookmark(b) => Some((0, b.href.clone(), b.title.clone())),
        Node::Folder(f) => Some((1, String::new(), f.title.clone())),
        Node::Alias(a) => Some((2, a.target.clone(), None)),
        _ => None,
    }
}

/// A bookmark by its normalised link and title.
fn normal(node: &Node) -> Option<(u8, String, Option<String>)> {
    let b = node.as_bookmark()?;
    Some((0, link_key(&b.href).into_owned(), b.title.clone()))
}

/// The pairs of still unpaired nodes of `ok` and `tk` with the same key,
/// in order among equals.
fn by_key(
    ours: &Tree,
    ok: &[u32],
    theirs: &Tree,
    tk: &[u32],
    key: Key,
    o_to_t: &[u32],
    t_to_o: &[u32],
) -> Vec<(u32, u32)> {
    let mut index: HashMap<_, VecDeque<u32>> = HashMap::new();
    for &o in ok.iter().filter(|&&o| o_to_t[o as usize] == NONE) {
        if let Some(k) = key(ours.node(o)) {
            index.entry(k).or_default().push_back(o);
        }
    }
    let mut found = Vec::new();
    for &t in tk.iter().filter(|&&t| t_to_o[t as usize] == NONE) {
        if let Some(o) = key(theirs.node(t))
            .and_then(|k| index.get_mut(&k))
            .and_then(VecDeque::pop_front)
        {
            found.push((o, t));
        }
    }
    found
}
