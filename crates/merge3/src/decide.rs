//! Which items are in the result, and in which folder: deletions applied
//! only where the other side did not change the item, moves merged, what a
//! deleted folder held moved to the nearest surviving folder, and cycles
//! broken by keeping the losing side's folder where it was.

use markport_model::Field;

use crate::fields::differs;
use crate::items::{Items, ROOT};
use crate::report::{ConflictClass, Outcome};
use crate::tree::{Side, Tree, NONE};

/// How the merge decides.
pub(crate) struct Settings<'a> {
    /// Whose value, place and order a conflict takes.
    pub(crate) winner: Side,
    /// For each side, the fields its format cannot hold: their absence
    /// there is no change.
    pub(crate) uncarried: &'a [Vec<Field>; 3],
    /// For each side, the link schemes its program cannot hold.
    pub(crate) unheld: &'a [Vec<String>; 3],
}

/// A conflict met while deciding, its values said once the result is built.
pub(crate) struct Pending {
    pub(crate) class: ConflictClass,
    pub(crate) item: u32,
    pub(crate) took: Option<Side>,
    /// For moves, the folder item each side put it in ([`NONE`]: none);
    /// for a field, which one.
    pub(crate) what: What,
}

/// What a pending conflict's values are.
pub(crate) enum What {
    /// The folders (as items) base, ours and theirs had it in.
    Folders([u32; 3]),
    /// The item itself, as each side has it (deleted: `null`).
    Item,
}

/// The decisions for every item.
pub(crate) struct Decisions {
    pub(crate) outcome: Vec<Outcome>,
    /// Each item's folder in the result (an item; [`ROOT`] at the top),
    /// [`NONE`] for an item not in the result.
    pub(crate) parent: Vec<u32>,
    pub(crate) pending: Vec<Pending>,
}

impl Decisions {
    pub(crate) fn alive(&self, item: u32) -> bool {
        item == ROOT || self.outcome[item as usize].in_result()
    }
}

/// Decide every item's fate and folder.
pub(crate) fn decide(trees: &[Tree; 3], items: &Items, s: &Settings) -> Decisions {
    let mut d = Decisions {
        outcome: vec![Outcome::Kept; items.len()],
        parent: vec![NONE; items.len()],
        pending: Vec::new(),
    };
    existence(trees, items, s, &mut d);
    let mut from = vec![Side::Base; items.len()];
    let mut revertible = vec![false; items.len()];
    for i in 1..items.len() as u32 {
        if d.alive(i) {
            let (parent, side, revert) = place(trees, items, s, i, &mut d.pending);
            d.parent[i as usize] = parent;
            from[i as usize] = side;
            revertible[i as usize] = revert;
        }
    }
    let surv = [
        Vec::new(),
        survivors(trees, items, &d, Side::Ours),
        survivors(trees, items, &d, Side::Theirs),
    ];
    rescue(items, &surv, &from, &mut d);
    break_cycles(trees, items, s, &surv, &mut revertible, &mut d);
    d
}

/// The parents, as items, each side gives the item ([`NONE`] where absent).
fn parents(trees: &[Tree; 3], items: &Items, i: u32) -> [u32; 3] {
    Side::ALL.map(|side| match items.member(i, side) {
        NONE => NONE,
        n => items.parent_item(trees, side, n),
    })
}

/// Whether `side` changed the item from the base: a field its format holds,
/// or its folder.
fn changed(trees: &[Tree; 3], items: &Items, s: &Settings, i: u32, side: Side) -> bool {
    let (b, x) = (items.member(i, Side::Base), items.member(i, side));
    if b == NONE || x == NONE {
        return false;
    }
    let p = parents(trees, items, i);
    p[0] != p[side.index()]
        || differs(
            trees[0].node(b),
            trees[side.index()].node(x),
            &s.uncarried[side.index()],
        )
}

/// Which items are in the result. A deletion holds only where the base
/// had the item and the other side did not change it; a folder's deletion
/// holds in any case (what was changed in it survives on its own).
fn existence(trees: &[Tree; 3], items: &Items, s: &Settings, d: &mut Decisions) {
    for i in 1..items.len() as u32 {
        let m = items.members[i as usize];
        let has = m.map(|n| n != NONE);
        let folder = (0..3).any(|k| has[k] && trees[k].is_folder(m[k]));
        d.outcome[i as usize] = match has {
            [true, true, true] => {
                let c = changed(trees, items, s, i, Side::Ours)
                    || changed(trees, items, s, i, Side::Theirs);
                if c {
                    Outcome::Changed
                } else {
                    Outcome::Kept
                }
            }
            [true, true, false] | [true, false, true] => {
                let (keeper, deleted) = if has[1] {
                    (Side::Ours, Outcome::DeletedByTheirs)
                } else {
                    (Side::Theirs, Outcome::DeletedByOurs)
                };
                if unheld(trees, s, m[0], keeper.other()) {
                    Outcome::Kept
                } else if !changed(trees, items, s, i, keeper) {
                    deleted
                } else {
                    d.pending.push(Pending {
                        class: ConflictClass::DeleteModify,
                        item: i,
                        took: Some(if folder { keeper.other() } else { keeper }),
                        what: What::Item,
                    });
                    if folder {
                        deleted
                    } else {
                        Outcome::KeptAgainstDeletion
                    }
                }
            }
            [true, false, false] => Outcome::DeletedByBoth,
            [false, true, true] => Outcome::MergedWithDuplicate,
            [false, true, false] => Outcome::AddedByOurs,
            _ => Outcome::AddedByTheirs,
        };
    }
}

/// Whether the base node `b` is a bookmark whose link `side` cannot hold:
/// missing there, it was filtered, not deleted.
fn unheld(trees: &[Tree; 3], s: &Settings, b: u32, side: Side) -> bool {
    let schemes = &s.unheld[side.index()];
    let Some(bm) = trees[0].node(b).as_bookmark() else {
        return false;
    };
    let scheme = bm.href.split(':').next().unwrap_or_default();
    !schemes.is_empty()
        && bm.href.contains(':')
        && schemes.iter().any(|x| x.eq_ignore_ascii_case(scheme))
}

/// The item's folder before rescue and cycles: the side that moved it,
/// the winner's when both moved it apart. Returns the folder, the side it
/// came from, and whether it may be reverted to the winner's folder (it
/// came from the loser while the winner has the item elsewhere).
fn place(
    trees: &[Tree; 3],
    items: &Items,
    s: &Settings,
    i: u32,
    pending: &mut Vec<Pending>,
) -> (u32, Side, bool) {
    let p = parents(trees, items, i);
    let (w, l) = (s.winner, s.winner.other());
    let (pb, pw, pl) = (p[0], p[w.index()], p[l.index()]);
    match (pw != NONE, pl != NONE) {
        (true, true) if pw == pl => (pw, w, false),
        (true, true) if pb != NONE && pw == pb => (pl, l, true),
        (true, true) if pb != NONE && pl == pb => (pw, w, false),
        (true, true) => {
            pending.push(Pending {
                class: ConflictClass::MovedApart,
                item: i,
                took: Some(w),
                what: What::Folders(p),
            });
            (pw, w, false)
        }
        (true, false) => (pw, w, false),
        _ => (pl, l, false),
    }
}

/// For each node of `side`, the nearest folder above it that is in the
/// result, as an item; one pass in document order.
fn survivors(trees: &[Tree; 3], items: &Items, d: &Decisions, side: Side) -> Vec<u32> {
    let tree = &trees[side.index()];
    let mut surv = vec![ROOT; tree.len()];
    for &n in &tree.preorder {
        let p = tree.parent[n as usize];
        if p != NONE {
            let pi = items.item_of[side.index()][p as usize];
            surv[n as usize] = if d.alive(pi) { pi } else { surv[p as usize] };
        }
    }
    surv
}

/// Items whose folder is not in the result go to the nearest surviving
/// folder above it in the tree that put them there.
fn rescue(items: &Items, surv: &[Vec<u32>; 3], from: &[Side], d: &mut Decisions) {
    for i in 1..items.len() as u32 {
        let p = d.parent[i as usize];
        if p == NONE || d.alive(p) {
            continue;
        }
        let side = from[i as usize];
        let n = items.member(i, side);
        d.parent[i as usize] = surv[side.index()][n as usize];
        let outcome = &mut d.outcome[i as usize];
        if *outcome != Outcome::KeptAgainstDeletion {
            *outcome = Outcome::MovedToSurvive;
        }
        let mut folders = [NONE; 3];
        folders[side.index()] = p;
        d.pending.push(Pending {
            class: ConflictClass::FolderDeleted,
            item: i,
            took: Some(side),
            what: What::Folders(folders),
        });
    }
}

/// The winner's folder for an item it has: its parent, or the nearest
/// surviving folder above it.
fn winners_folder(
    trees: &[Tree; 3],
    items: &Items,
    surv: &[Vec<u32>; 3],
    d: &Decisions,
    w: Side,
    i: u32,
) -> u32 {
    let n = items.member(i, w);
    let p = items.parent_item(trees, w, n);
    if d.alive(p) {
        p
    } else {
        surv[w.index()][n as usize]
    }
}

/// Undo the loser's moves that close a cycle, a few rounds at most; then,
/// if one is still left, every item the winner has goes into the winner's
/// folder (the winner's tree has no cycle, so none is left).
fn break_cycles(
    trees: &[Tree; 3],
    items: &Items,
    s: &Settings,
    surv: &[Vec<u32>; 3],
    revertible: &mut [bool],
    d: &mut Decisions,
) {
    let w = s.winner;
    for _ in 0..4 {
        let cycles = find_cycles(&d.parent);
        if cycles.is_empty() {
            return;
        }
        for cycle in cycles {
            for i in cycle {
                if !revertible[i as usize] {
                    continue;
                }
                revertible[i as usize] = false;
                let was = d.parent[i as usize];
                d.parent[i as usize] = winners_folder(trees, items, surv, d, w, i);
                let mut folders = [NONE; 3];
                folders[w.index()] = d.parent[i as usize];
                folders[w.other().index()] = was;
                d.pending.push(Pending {
                    class: ConflictClass::Cycle,
                    item: i,
                    took: Some(w),
                    what: What::Folders(folders),
                });
            }
        }
    }
    for i in 1..items.len() as u32 {
        if d.alive(i) && items.member(i, w) != NONE {
            d.parent[i as usize] = winners_folder(trees, items, surv, d, w, i);
        }
    }
}

/// The cycles among the items' folders, each as its items; one pass.
pub(crate) fn find_cycles(parent: &[u32]) -> Vec<Vec<u32>> {
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; parent.len()];
    let mut cycles = Vec::new();
    let mut path: Vec<u32> = Vec::new();
    for start in 1..parent.len() as u32 {
        if parent[start as usize] == NONE || state[start as usize] != 0 {
            continue;
        }
        let mut at = start;
        while at != ROOT && at != NONE && state[at as usize] == 0 {
            state[at as usize] = 1;
            path.push(at);
            at = parent[at as usize];
        }
        if at != ROOT && at != NONE && state[at as usize] == 1 {
            let from = path.iter().rposition(|&p| p == at).expect("on the path");
            cycles.push(path[from..].to_vec());
        }
        for p in path.drain(..) {
            state[p as usize] = 2;
        }
    }
    cycles
}
