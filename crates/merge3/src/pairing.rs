//! Which node of an edited side is which node of the base, found in tiers
//! from the surest to the least sure, each counted: ids (and roles), the
//! same link and title under a matched folder, the same normalised link
//! there, a link found once in each whole tree (a move), the same title in
//! the same folder (a link edited), folders by title under a matched
//! folder and by most of their children.
//!
//! Every tier is a pass over child lists or over the whole tree with hash
//! lookups, and the folders are visited from a work list, never by
//! recursion: the cost is linear in the nodes, whatever the depth.

use std::collections::{HashMap, VecDeque};

use markport_model::{link_key, Node, Role};
use serde::Serialize;

use crate::tree::{Tree, NONE};

/// How a node was matched (the tiers of `docs/merge.md`, in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// The same id, guid or role (or an id pair a sync state remembered).
    Id,
    /// The same link and title, under a matched folder.
    LinkTitle,
    /// The same normalised link ([`markport_model::link_key`]), under a
    /// matched folder.
    Link,
    /// A link found once in each whole tree: moved.
    Moved,
    /// The same title in the same folder (a link edited); separators and
    /// aliases by their place among their kind.
    Place,
    /// A folder by its title under a matched folder, or by most of its
    /// children.
    Folder,
}

/// How many nodes of a side each tier matched to the base.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TierCounts {
    /// [`Tier::Id`].
    pub id: usize,
    /// [`Tier::LinkTitle`].
    pub link_title: usize,
    /// [`Tier::Link`].
    pub link: usize,
    /// [`Tier::Moved`].
    pub moved: usize,
    /// [`Tier::Place`].
    pub place: usize,
    /// [`Tier::Folder`].
    pub folder: usize,
    /// Of those, the nodes matched in order among several with the same
    /// link (and title) in one folder.
    pub duplicates: usize,
    /// Ids were found and not trusted: most bookmarks they paired differ
    /// in both link and title, as when a program numbers items by position.
    pub ids_ignored: bool,
}

impl TierCounts {
    /// All nodes matched.
    pub fn total(&self) -> usize {
        self.id + self.link_title + self.link + self.moved + self.place + self.folder
    }

    fn add(&mut self, tier: Tier) {
        *match tier {
            Tier::Id => &mut self.id,
            Tier::LinkTitle => &mut self.link_title,
            Tier::Link => &mut self.link,
            Tier::Moved => &mut self.moved,
            Tier::Place => &mut self.place,
            Tier::Folder => &mut self.folder,
        } += 1;
    }
}

/// The nodes of one edited side matched to the base's.
pub(crate) struct Pairing {
    /// For each node of the side, its base node or [`NONE`].
    pub(crate) to_base: Vec<u32>,
    /// For each base node, the side's node or [`NONE`].
    pub(crate) from_base: Vec<u32>,
    pub(crate) counts: TierCounts,
    /// The side's ids are the base's: some matched, and were trusted.
    /// Then two nodes whose guids (or ids) differ are never one item.
    trusted_ids: bool,
}

impl Pairing {
    fn new(base: usize, side: usize) -> Pairing {
        Pairing {
            to_base: vec![NONE; side],
            from_base: vec![NONE; base],
            counts: TierCounts::default(),
            trusted_ids: false,
        }
    }

    fn link(&mut self, b: u32, x: u32, tier: Tier) {
        self.to_base[x as usize] = b;
        self.from_base[b as usize] = x;
        self.counts.add(tier);
    }

    /// Link `b` and `x` by their content, unless trusted ids say they are
    /// two items; whether they were linked.
    fn link_alike(&mut self, base: &Tree, side: &Tree, b: u32, x: u32, tier: Tier) -> bool {
        if self.trusted_ids && clash(base.node(b), side.node(x)) {
            return false;
        }
        self.link(b, x, tier);
        true
    }

    fn free_b(&self, b: u32) -> bool {
        self.from_base[b as usize] == NONE
    }

    fn free_x(&self, x: u32) -> bool {
        self.to_base[x as usize] == NONE
    }
}

/// Match `side` to `base`. `known` pairs (base node, side node) are taken
/// first, as ids.
pub(crate) fn pair(base: &Tree, side: &Tree, known: &[(u32, u32)]) -> Pairing {
    let mut p = Pairing::new(base.len(), side.len());
    for &(b, x) in known {
        let fits = (b as usize) < base.len() && (x as usize) < side.len();
        if fits && p.free_b(b) && p.free_x(x) && base.kind(b) == side.kind(x) {
            p.link(b, x, Tier::Id);
        }
    }
    by_ids(base, side, &mut p);
    by_roles(base, side, &mut p);
    let mut pairs = vec![(NONE, NONE)];
    pairs.extend(
        side.preorder
            .iter()
            .filter(|&&x| side.is_folder(x) && !p.free_x(x))
            .map(|&x| (p.to_base[x as usize], x)),
    );
    local(base, side, &mut p, &mut pairs, 0);
    moves(base, side, &mut p);
    places(base, side, &mut p, &pairs);
    let start = pairs.len();
    by_children(base, side, &mut p, &mut pairs);
    local(base, side, &mut p, &mut pairs, start);
    places(base, side, &mut p, &pairs[start..]);
    p
}

/// Whether two nodes carry guids, or ids, that differ.
fn clash(a: &Node, b: &Node) -> bool {
    keys(a)
        .into_iter()
        .zip(keys(b))
        .any(|pair| matches!(pair, (Some(x), Some(y)) if x != y))
}

/// The ids a node is known by: a browser's guid first, then its id.
fn keys(node: &Node) -> [Option<(u8, &str)>; 2] {
    match node {
        Node::Bookmark(b) => [
            b.details().guid.as_deref().map(|g| (0, g)),
            b.details().id.as_deref().map(|i| (1, i)),
        ],
        Node::Folder(f) => [
            f.guid.as_deref().map(|g| (0, g)),
            f.id.as_deref().map(|i| (1, i)),
        ],
        _ => [None, None],
    }
}

/// The first node of `queue` still free, taken from it.
fn take_free(queue: &mut VecDeque<u32>, free: impl Fn(u32) -> bool) -> Option<u32> {
    while let Some(&b) = queue.front() {
        queue.pop_front();
        if free(b) {
            return Some(b);
        }
    }
    None
}

/// Nodes with the same guid or id and kind, in document order among equals.
/// When most bookmarks so paired differ in both link and title, the ids are
/// positions, not identities, and every pair they made is undone.
fn by_ids(base: &Tree, side: &Tree, p: &mut Pairing) {
    let mut index: HashMap<(u8, &str), VecDeque<u32>> = HashMap::new();
    for &b in &base.preorder {
        if p.free_b(b) {
            for key in keys(base.node(b)).into_iter().flatten() {
                index.entry(key).or_default().push_back(b);
            }
        }
    }
    if index.is_empty() {
        return;
    }
    let mut made = Vec::new();
    for &x in &side.preorder {
        for key in keys(side.node(x)).into_iter().flatten() {
            if !p.free_x(x) {
                break;
            }
            let Some(queue) = index.get_mut(&key) else {
                continue;
            };
            let kind = side.kind(x);
            let free = |b: u32| p.from_base[b as usize] == NONE && base.kind(b) == kind;
            if let Some(b) = take_free(queue, free) {
                p.link(b, x, Tier::Id);
                made.push((b, x));
            }
        }
    }
    let (mut bookmarks, mut strangers) = (0usize, 0usize);
    for &(b, x) in &made {
        if let (Node::Bookmark(o), Node::Bookmark(n)) = (base.node(b), side.node(x)) {
            bookmarks += 1;
            strangers += usize::from(o.href != n.href && o.title != n.title);
        }
    }
    p.trusted_ids = !made.is_empty();
    if strangers >= 3 && strangers * 2 > bookmarks {
        for &(b, x) in &made {
            p.to_base[x as usize] = NONE;
            p.from_base[b as usize] = NONE;
        }
        p.counts.id -= made.len();
        p.counts.ids_ignored = true;
        p.trusted_ids = false;
    }
}

/// Folders with the same browser role (toolbar, menu, ...), in order.
fn by_roles(base: &Tree, side: &Tree, p: &mut Pairing) {
    let role = |t: &Tree, n: u32| -> Option<Role> { t.node(n).as_folder()?.role };
    let mut index: HashMap<Role, VecDeque<u32>> = HashMap::new();
    for &b in &base.preorder {
        if let Some(r) = role(base, b).filter(|_| p.free_b(b)) {
            index.entry(r).or_default().push_back(b);
        }
    }
    for &x in &side.preorder {
        let Some(queue) = role(side, x)
            .filter(|_| p.free_x(x))
            .and_then(|r| index.get_mut(&r))
        else {
            continue;
        };
        if let Some(b) = take_free(queue, |b| p.from_base[b as usize] == NONE) {
            p.link(b, x, Tier::Id);
        }
    }
}

/// The local tiers for each pair of matched folders from `start` on,
/// following the folders they match (pushed onto `pairs`) until none is left.
fn local(base: &Tree, side: &Tree, p: &mut Pairing, pairs: &mut Vec<(u32, u32)>, start: usize) {
    let mut i = start;
    while i < pairs.len() {
        let (bf, xf) = pairs[i];
        i += 1;
        let bk: Vec<u32> = base.children(bf).filter(|&b| p.free_b(b)).collect();
        if bk.is_empty() {
            continue;
        }
        let xk: Vec<u32> = side.children(xf).filter(|&x| p.free_x(x)).collect();
        if xk.is_empty() {
            continue;
        }
        by_link_and_title(base, side, p, &bk, &xk);
        by_link(base, side, p, &bk, &xk);
        by_folder_title(base, side, p, &bk, &xk, pairs);
        by_kind_place(base, side, p, &bk, &xk);
    }
}

fn href<'t>(t: &Tree<'t>, n: u32) -> Option<&'t str> {
    t.node(n).as_bookmark().map(|b| b.href.as_str())
}

/// The nodes waiting to be matched under one key, and how many there were.
type Queue = (VecDeque<u32>, usize);

/// Bookmarks with the same link and title, in order among equals.
fn by_link_and_title(base: &Tree, side: &Tree, p: &mut Pairing, bk: &[u32], xk: &[u32]) {
    let mut index: HashMap<(&str, Option<&str>), Queue> = HashMap::new();
    for &b in bk {
        if let Some(h) = href(base, b) {
            let e = index.entry((h, base.node(b).title())).or_default();
            e.0.push_back(b);
            e.1 += 1;
        }
    }
    for &x in xk {
        let Some(h) = href(side, x) else { continue };
        if let Some((queue, had)) = index.get_mut(&(h, side.node(x).title())) {
            if let Some(b) = queue.pop_front() {
                if p.link_alike(base, side, b, x, Tier::LinkTitle) {
                    p.counts.duplicates += usize::from(*had > 1);
                }
            }
        }
    }
}

/// Bookmarks still free with the same normalised link, in order.
fn by_link(base: &Tree, side: &Tree, p: &mut Pairing, bk: &[u32], xk: &[u32]) {
    let free_b: Vec<u32> = bk.iter().copied().filter(|&b| p.free_b(b)).collect();
    if !free_b.iter().any(|&b| href(base, b).is_some()) {
        return;
    }
    let mut index: HashMap<String, Queue> = HashMap::new();
    for b in free_b {
        if let Some(h) = href(base, b) {
            let e = index.entry(link_key(h).into_owned()).or_default();
            e.0.push_back(b);
            e.1 += 1;
        }
    }
    for &x in xk {
        let Some(h) = href(side, x).filter(|_| p.free_x(x)) else {
            continue;
        };
        if let Some((queue, had)) = index.get_mut(link_key(h).as_ref()) {
            if let Some(b) = queue.pop_front() {
                if p.link_alike(base, side, b, x, Tier::Link) {
                    p.counts.duplicates += usize::from(*had > 1);
                }
            }
        }
    }
}

/// Folders still free with the same title, in order; each pair made is
/// pushed to be looked into.
fn by_folder_title(
    base: &Tree,
    side: &Tree,
    p: &mut Pairing,
    bk: &[u32],
    xk: &[u32],
    pairs: &mut Vec<(u32, u32)>,
) {
    let mut index: HashMap<Option<&str>, VecDeque<u32>> = HashMap::new();
    for &b in bk.iter().filter(|&&b| p.free_b(b) && base.is_folder(b)) {
        index.entry(base.node(b).title()).or_default().push_back(b);
    }
    if index.is_empty() {
        return;
    }
    for &x in xk {
        if !p.free_x(x) || !side.is_folder(x) {
            continue;
        }
        if let Some(b) = index
            .get_mut(&side.node(x).title())
            .and_then(VecDeque::pop_front)
        {
            if p.link_alike(base, side, b, x, Tier::Folder) {
                pairs.push((b, x));
            }
        }
    }
}

/// Separators by their place among the folder's free separators; aliases
/// by what they show, in order.
fn by_kind_place(base: &Tree, side: &Tree, p: &mut Pairing, bk: &[u32], xk: &[u32]) {
    let seps = |t: &Tree, ns: &[u32], free: &dyn Fn(u32) -> bool| -> Vec<u32> {
        ns.iter()
            .copied()
            .filter(|&n| free(n) && matches!(t.node(n), Node::Separator(_)))
            .collect()
    };
    let bs = seps(base, bk, &|b| p.free_b(b));
    let xs = seps(side, xk, &|x| p.free_x(x));
    for (b, x) in bs.into_iter().zip(xs) {
        p.link_alike(base, side, b, x, Tier::Place);
    }
    let mut aliases: HashMap<&str, VecDeque<u32>> = HashMap::new();
    for &b in bk.iter().filter(|&&b| p.free_b(b)) {
        if let Node::Alias(a) = base.node(b) {
            aliases.entry(&a.target).or_default().push_back(b);
        }
    }
    for &x in xk {
        if !p.free_x(x) {
            continue;
        }
        if let Node::Alias(a) = side.node(x) {
            if let Some(b) = aliases
                .get_mut(a.target.as_str())
                .and_then(VecDeque::pop_front)
            {
                p.link_alike(base, side, b, x, Tier::Place);
            }
        }
    }
}

/// Bookmarks still free whose link is found once in the whole base and
/// once in the whole side: the same bookmark, moved.
fn moves(base: &Tree, side: &Tree, p: &mut Pairing) {
    // (times in base, the base node, times in the side, the side node)
    let mut seen: HashMap<&str, (u32, u32, u32, u32)> = HashMap::new();
    for b in 0..base.len() as u32 {
        if let Some(h) = href(base, b) {
            let e = seen.entry(h).or_insert((0, NONE, 0, NONE));
            e.0 += 1;
            e.1 = b;
        }
    }
    for x in 0..side.len() as u32 {
        if let Some(e) = href(side, x).and_then(|h| seen.get_mut(h)) {
            e.2 += 1;
            e.3 = x;
        }
    }
    for (b, x) in seen.into_values().filter_map(|(nb, b, nx, x)| {
        let once = nb == 1 && nx == 1;
        once.then_some((b, x))
    }) {
        if p.free_b(b) && p.free_x(x) {
            p.link_alike(base, side, b, x, Tier::Moved);
        }
    }
}

/// In each pair of matched folders, free bookmarks with the same title:
/// the same bookmark, its link edited.
fn places(base: &Tree, side: &Tree, p: &mut Pairing, pairs: &[(u32, u32)]) {
    for &(bf, xf) in pairs {
        let mut index: HashMap<&str, VecDeque<u32>> = HashMap::new();
        for b in base.children(bf).filter(|&b| p.free_b(b)) {
            let title = base.node(b).title().filter(|t| !t.is_empty());
            if let (Some(_), Some(t)) = (href(base, b), title) {
                index.entry(t).or_default().push_back(b);
            }
        }
        if index.is_empty() {
            continue;
        }
        for x in side.children(xf) {
            if !p.free_x(x) {
                continue;
            }
            let title = side.node(x).title().filter(|t| !t.is_empty());
            if let (Some(_), Some(t)) = (href(side, x), title) {
                if let Some(b) = index.get_mut(t).and_then(VecDeque::pop_front) {
                    p.link_alike(base, side, b, x, Tier::Place);
                }
            }
        }
    }
}

/// Folders still free whose children are mostly the children of one free
/// base folder: with the same title, more than half of both; under
/// another title, four in five and at least two. Inner folders first, so
/// that a folder matched counts for the one around it.
fn by_children(base: &Tree, side: &Tree, p: &mut Pairing, pairs: &mut Vec<(u32, u32)>) {
    for &x in side.preorder.iter().rev() {
        if !side.is_folder(x) || !p.free_x(x) {
            continue;
        }
        let mut tally: HashMap<u32, usize> = HashMap::new();
        let mut size_x = 0usize;
        for c in side.children(x) {
            size_x += 1;
            let b = p.to_base[c as usize];
            if b == NONE {
                continue;
            }
            let bp = base.parent[b as usize];
            if bp != NONE && p.free_b(bp) {
                *tally.entry(bp).or_default() += 1;
            }
        }
        let Some((bp, count)) = tally
            .into_iter()
            .max_by_key(|&(bp, count)| (count, std::cmp::Reverse(bp)))
        else {
            continue;
        };
        let size = size_x.max(base.children(bp).count());
        let titled = base.node(bp).title() == side.node(x).title();
        let most = (titled && count * 2 > size) || (count >= 2 && count * 5 >= size * 4);
        if most && p.link_alike(base, side, bp, x, Tier::Folder) {
            pairs.push((bp, x));
        }
    }
}
