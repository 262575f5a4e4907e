//! The order of each folder's items. The items all three trees have there
//! keep the order of the side that reordered them; when both did, each
//! pair of items takes the order of the side that changed it, which is a
//! true order only when the two reorders do not cross (checked by three
//! Kendall distances, n log n); otherwise the preferred side's order,
//! said. Every other item follows its neighbour in the side that put it
//! there, the preferred side's first.

use crate::decide::{Decisions, Pending, What};
use crate::items::{Items, ROOT};
use crate::report::ConflictClass;
use crate::tree::{Side, Tree, NONE};

/// Scratch space for one folder at a time, sized once for all items.
struct Scratch {
    /// Which of base (1), winner (2), loser (4) hold the item in the folder.
    mark: Vec<u8>,
    /// The item's position in the base's, winner's and loser's list.
    pos: [Vec<u32>; 3],
    placed: Vec<bool>,
    /// An item's rank in one order, while two are compared.
    rank: Vec<u32>,
}

/// Each folder item's children in the result, in order ([`ROOT`] for the top).
pub(crate) fn orders(
    trees: &[Tree; 3],
    items: &Items,
    d: &Decisions,
    winner: Side,
    pending: &mut Vec<Pending>,
) -> Vec<Vec<u32>> {
    let n = items.len();
    let mut by_parent: Vec<Vec<u32>> = vec![Vec::new(); n];
    for i in 1..n as u32 {
        let p = d.parent[i as usize];
        if p != NONE {
            by_parent[p as usize].push(i);
        }
    }
    let mut scratch = Scratch {
        mark: vec![0; n],
        pos: [vec![0; n], vec![0; n], vec![0; n]],
        placed: vec![false; n],
        rank: vec![0; n],
    };
    let sides = [Side::Base, winner, winner.other()];
    // The order of what neither edited list places: the base's items, then
    // the winner's, then the loser's, each in its tree's order, so that
    // swapping the sides changes nothing but the winner.
    let rank: Vec<(u8, u32)> = (0..n as u32)
        .map(|i| {
            sides
                .iter()
                .enumerate()
                .find_map(|(k, &side)| match items.member(i, side) {
                    NONE => None,
                    node => Some((k as u8, node)),
                })
                .unwrap_or((3, 0))
        })
        .collect();
    let mut kids = vec![Vec::new(); n];
    for m in 0..n as u32 {
        if by_parent[m as usize].is_empty() {
            continue;
        }
        let seqs = sides.map(|side| sequence(trees, items, d, side, m));
        let (order, crossed) = folder_order(&seqs, &by_parent[m as usize], &rank, &mut scratch);
        if crossed {
            pending.push(Pending {
                class: ConflictClass::OrderCrossed,
                item: m,
                took: Some(winner),
                what: What::Item,
            });
        }
        kids[m as usize] = order;
    }
    kids
}

/// The items `side` holds in the folder item `m`, in its order, among
/// those the result puts there.
fn sequence(trees: &[Tree; 3], items: &Items, d: &Decisions, side: Side, m: u32) -> Vec<u32> {
    let member = if m == ROOT {
        NONE
    } else {
        items.member(m, side)
    };
    if m != ROOT && member == NONE {
        return Vec::new();
    }
    trees[side.index()]
        .children(member)
        .map(|c| items.item_of[side.index()][c as usize])
        .filter(|&i| d.parent[i as usize] == m)
        .collect()
}

/// One folder's order from the base's, winner's and loser's lists; whether
/// the two reorders crossed.
fn folder_order(
    seqs: &[Vec<u32>; 3],
    all: &[u32],
    rank: &[(u8, u32)],
    s: &mut Scratch,
) -> (Vec<u32>, bool) {
    for (k, seq) in seqs.iter().enumerate() {
        for (p, &i) in seq.iter().enumerate() {
            s.mark[i as usize] |= 1 << k;
            s.pos[k][i as usize] = p as u32;
        }
    }
    let common = |k: usize| -> Vec<u32> {
        seqs[k]
            .iter()
            .copied()
            .filter(|&i| s.mark[i as usize] == 7)
            .collect()
    };
    let (cb, cw, cl) = (common(0), common(1), common(2));
    let (merged, crossed) = if cw == cb {
        (cl, false)
    } else if cl == cb || cw == cl {
        (cw, false)
    } else {
        match reorders([&cb, &cw, &cl], &s.pos, &mut s.rank) {
            Some(order) => (order, false),
            None => (cw, true),
        }
    };
    let order = place_the_rest(&merged, seqs, all, rank, s);
    for seq in seqs {
        for &i in seq {
            s.mark[i as usize] = 0;
        }
    }
    for &i in all {
        s.placed[i as usize] = false;
    }
    (order, crossed)
}

/// The common items, and each of the others after its neighbour in the
/// winner's list, then the loser's: what a side put after its last common
/// item (appended) at the end; what neither list holds (moved here to
/// survive a deleted folder) after all.
fn place_the_rest(
    merged: &[u32],
    seqs: &[Vec<u32>; 3],
    all: &[u32],
    rank: &[(u8, u32)],
    s: &mut Scratch,
) -> Vec<u32> {
    // after[k][j]: what follows common item j - 1 (j = 0: the start) in list k.
    let mut after: [Vec<Vec<u32>>; 2] = [
        vec![Vec::new(); merged.len() + 1],
        vec![Vec::new(); merged.len() + 1],
    ];
    for (j, &i) in merged.iter().enumerate() {
        s.placed[i as usize] = true;
        // Where each common item stands in the merged order.
        s.pos[0][i as usize] = j as u32;
    }
    // What a side put after its last common item goes at the end.
    let mut tail: [Vec<u32>; 2] = Default::default();
    for k in 0..2 {
        let mut anchor = 0usize;
        for &i in &seqs[k + 1] {
            if s.mark[i as usize] == 7 {
                anchor = s.pos[0][i as usize] as usize + 1;
            } else if !s.placed[i as usize] {
                s.placed[i as usize] = true;
                after[k][anchor].push(i);
            }
        }
        if anchor > 0 {
            tail[k] = std::mem::take(&mut after[k][anchor]);
        }
    }
    let mut out = Vec::with_capacity(all.len());
    for j in 0..=merged.len() {
        if j > 0 {
            out.push(merged[j - 1]);
        }
        out.extend_from_slice(&after[0][j]);
        out.extend_from_slice(&after[1][j]);
    }
    out.extend(tail.into_iter().flatten());
    let start = out.len();
    for &i in all {
        if !s.placed[i as usize] {
            s.placed[i as usize] = true;
            out.push(i);
        }
    }
    out[start..].sort_by_key(|&i| rank[i as usize]);
    out
}

/// Both sides reordered the common items: each pair in the order of the
/// side that changed it. `None` when that is no order (the reorders cross).
fn reorders(c: [&[u32]; 3], pos: &[Vec<u32>; 3], rank: &mut [u32]) -> Option<Vec<u32>> {
    let (b, w, l) = (&pos[0], &pos[1], &pos[2]);
    let before = |x: u32, y: u32| {
        let (x, y) = (x as usize, y as usize);
        let by_w = w[x] < w[y];
        if by_w != (b[x] < b[y]) {
            by_w
        } else {
            l[x] < l[y]
        }
    };
    let merged = merge_sort(c[0].to_vec(), before);
    // Kendall distances between the orders, each by counting inversions.
    let mut dist = |p: &[u32], q: &[u32]| -> u64 {
        for (j, &i) in q.iter().enumerate() {
            rank[i as usize] = j as u32;
        }
        let ranks: Vec<u32> = p.iter().map(|&i| rank[i as usize]).collect();
        inversions(&ranks)
    };
    let (dw, dl, dwl) = (dist(c[1], c[0]), dist(c[2], c[0]), dist(c[2], c[1]));
    let both = (dw + dl - dwl) / 2;
    let ok = dist(&merged, c[0]) == dw + dl - both
        && dist(&merged, c[1]) == dl - both
        && dist(&merged, c[2]) == dw - both;
    ok.then_some(merged)
}

/// A stable bottom-up merge sort by `before`, which need not be an order:
/// it ends, with every item once, whatever `before` says.
fn merge_sort(mut v: Vec<u32>, before: impl Fn(u32, u32) -> bool) -> Vec<u32> {
    let n = v.len();
    let mut buf = vec![0u32; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                if before(v[j], v[i]) {
                    buf[k] = v[j];
                    j += 1;
                } else {
                    buf[k] = v[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&v[i..mid]);
            k += mid - i;
            buf[k..k + (end - j)].copy_from_slice(&v[j..end]);
            start = end;
        }
        std::mem::swap(&mut v, &mut buf);
        width *= 2;
    }
    v
}

/// Pairs out of order in a list of distinct ranks `0..n` (a Fenwick tree).
fn inversions(ranks: &[u32]) -> u64 {
    let n = ranks.len();
    let mut tree = vec![0u32; n + 1];
    let mut count = 0u64;
    for &r in ranks.iter().rev() {
        let mut i = r as usize;
        while i > 0 {
            count += u64::from(tree[i]);
            i &= i - 1;
        }
        let mut i = r as usize + 1;
        while i <= n {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(b: &[u32], w: &[u32], l: &[u32]) -> (Vec<u32>, bool) {
        let n = 1 + *b.iter().chain(w).chain(l).max().unwrap() as usize;
        let mut s = Scratch {
            mark: vec![0; n],
            pos: [vec![0; n], vec![0; n], vec![0; n]],
            placed: vec![false; n],
            rank: vec![0; n],
        };
        let mut all: Vec<u32> = b.iter().chain(w).chain(l).copied().collect();
        all.sort();
        all.dedup();
        let rank: Vec<(u8, u32)> = (0..n as u32).map(|i| (0, i)).collect();
        folder_order(&[b.to_vec(), w.to_vec(), l.to_vec()], &all, &rank, &mut s)
    }

    #[test]
    fn reorders_that_do_not_cross_are_both_kept() {
        // base abcdef; winner moves a to the end, loser moves f to the start.
        let (order, crossed) = run(
            &[1, 2, 3, 4, 5, 6],
            &[2, 3, 4, 5, 6, 1],
            &[6, 1, 2, 3, 4, 5],
        );
        assert!(!crossed);
        assert_eq!(order, [6, 2, 3, 4, 5, 1]);
    }

    #[test]
    fn the_canonical_move_move_crosses_and_keeps_the_winners_order() {
        // spork#121: base abc, left bac, right acb.
        let (order, crossed) = run(&[1, 2, 3], &[2, 1, 3], &[1, 3, 2]);
        assert!(crossed);
        assert_eq!(order, [2, 1, 3]);
    }

    #[test]
    fn insertions_follow_their_neighbours() {
        // base a b c; winner inserts x after a; loser inserts y after b.
        let (order, crossed) = run(&[1, 2, 3], &[1, 10, 2, 3], &[1, 2, 11, 3]);
        assert!(!crossed);
        assert_eq!(order, [1, 10, 2, 11, 3]);
    }

    #[test]
    fn inversions_and_merge_sort() {
        assert_eq!(inversions(&[0, 1, 2]), 0);
        assert_eq!(inversions(&[2, 1, 0]), 3);
        assert_eq!(inversions(&[1, 0, 3, 2]), 2);
        // A comparator that is no order still gives every item once.
        let v = merge_sort((0..50).collect(), |x, y| (x * 7 + y) % 3 == 0);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}
