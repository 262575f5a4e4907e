//! The items of a merge: each node of the three trees belongs to exactly
//! one item, and an item has at most one node in each tree. Item 0 is the
//! top level, which every tree has.

use crate::pairing::Pairing;
use crate::tree::{Side, Tree, NONE};
use crate::twins::Twins;

/// The root item: the top level of every tree.
pub(crate) const ROOT: u32 = 0;

pub(crate) struct Items {
    /// Each item's node in base, ours and theirs, or [`NONE`].
    pub(crate) members: Vec<[u32; 3]>,
    /// For each side, each node's item.
    pub(crate) item_of: [Vec<u32>; 3],
}

impl Items {
    /// The items: the base's nodes in document order, then the nodes ours
    /// added, then those only theirs added.
    pub(crate) fn new(trees: &[Tree; 3], po: &Pairing, pt: &Pairing, tw: &Twins) -> Items {
        let [base, ours, theirs] = trees;
        let mut members = vec![[NONE; 3]];
        let mut item_of = [
            vec![NONE; base.len()],
            vec![NONE; ours.len()],
            vec![NONE; theirs.len()],
        ];
        let mut add = |m: [u32; 3], item_of: &mut [Vec<u32>; 3]| {
            let item = members.len() as u32;
            for (side, &n) in m.iter().enumerate() {
                if n != NONE {
                    item_of[side][n as usize] = item;
                }
            }
            members.push(m);
        };
        for &b in &base.preorder {
            let m = [b, po.from_base[b as usize], pt.from_base[b as usize]];
            add(m, &mut item_of);
        }
        for &o in &ours.preorder {
            if po.to_base[o as usize] == NONE {
                add([NONE, o, tw.o_to_t[o as usize]], &mut item_of);
            }
        }
        for &t in &theirs.preorder {
            if pt.to_base[t as usize] == NONE && tw.t_to_o[t as usize] == NONE {
                add([NONE, NONE, t], &mut item_of);
            }
        }
        Items { members, item_of }
    }

    pub(crate) fn len(&self) -> usize {
        self.members.len()
    }

    /// The item's node in `side`, or [`NONE`].
    pub(crate) fn member(&self, item: u32, side: Side) -> u32 {
        self.members[item as usize][side.index()]
    }

    /// The item of the folder holding `side`'s node `n` ([`ROOT`] at the top).
    pub(crate) fn parent_item(&self, trees: &[Tree; 3], side: Side, n: u32) -> u32 {
        match trees[side.index()].parent[n as usize] {
            NONE => ROOT,
            p => self.item_of[side.index()][p as usize],
        }
    }
}
