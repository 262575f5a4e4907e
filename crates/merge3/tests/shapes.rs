//! Input shapes that would make a careless merge recurse or go quadratic:
//! a tree 100,000 folders deep, a folder of 20,000 items reordered on both
//! sides, 20,000 copies of one link, thousands of added items sharing one
//! guid. Each runs to the end (no stack overflow, no minutes of work);
//! times are measured in scripts/bench-merge3.sh, not here.

use markport_merge3::{merge, ConflictClass, Options, Outcome};
use markport_model::{Bookmark, Document, Folder, NodeId};

fn allowed() -> Options {
    let mut o = Options::default();
    o.allow_mass_delete = true;
    o
}

#[test]
fn a_tree_100_000_deep_merges_without_recursion() {
    const DEPTH: usize = 100_000;
    let mut base = Document::new();
    let mut chain: Vec<NodeId> = Vec::with_capacity(DEPTH);
    let mut parent = None;
    for i in 0..DEPTH {
        let id = base.push(parent, Folder::titled(format!("f{i}")));
        chain.push(id);
        parent = Some(id);
    }
    // Ours adds a bookmark at the bottom; theirs deletes the lower half.
    let mut ours = base.clone();
    ours.push(
        Some(chain[DEPTH - 1]),
        Bookmark::new("https://deep.example/"),
    );
    let mut theirs = base.clone();
    theirs.remove(chain[DEPTH / 2]);
    let m = merge(&base, &ours, &theirs, &allowed()).expect("merged");
    // The bookmark moved to the nearest surviving folder.
    let (id, _) = m.document.bookmarks().next().expect("kept");
    assert_eq!(m.document.depth(id), DEPTH / 2);
    assert_eq!(m.document.len(), DEPTH / 2 + 1);
    let rescued = m.report.outcomes()[Outcome::MovedToSurvive as usize].1;
    assert_eq!(rescued, 1);
    assert!(m
        .report
        .conflicts
        .iter()
        .any(|c| c.class == ConflictClass::FolderDeleted && c.path.starts_with('…')));
}

/// A folder of the bookmarks `0..N` in the order given.
fn folder_of(order: &[usize]) -> Document {
    let mut d = Document::new();
    for &i in order {
        d.push(
            None,
            Bookmark::new(format!("https://e.example/{i}")).with_title(format!("{i}")),
        );
    }
    d
}

/// `0..n` with every `step`th item moved to the end, in order.
fn moved_to_end(n: usize, step: usize) -> Vec<usize> {
    let (moved, stay): (Vec<usize>, Vec<usize>) = (0..n).partition(|i| i % step == 0);
    stay.into_iter().chain(moved).collect()
}

#[test]
fn a_folder_of_20_000_reordered_on_both_sides_merges() {
    const N: usize = 20_000;
    let base = folder_of(&(0..N).collect::<Vec<_>>());
    // Ours moves every tenth item to the end; theirs every seventh: the
    // reorders cross, so ours' order holds, said once.
    let ours = folder_of(&moved_to_end(N, 10));
    let theirs = folder_of(&moved_to_end(N, 7));
    let m = merge(&base, &ours, &theirs, &allowed()).expect("merged");
    assert_eq!(m.document, ours);
    assert_eq!(m.report.conflicts.len(), 1);
    assert_eq!(m.report.conflicts[0].class, ConflictClass::OrderCrossed);
    // Moves that do not cross are both kept: ours moves the last item to
    // the front, theirs the first to the end.
    let mut o: Vec<usize> = (0..N).collect();
    o.rotate_right(1);
    let mut t: Vec<usize> = (0..N).collect();
    t.rotate_left(1);
    let m = merge(&base, &folder_of(&o), &folder_of(&t), &allowed()).expect("merged");
    assert!(m.report.conflicts.is_empty(), "{:?}", m.report.conflicts);
    let mut want: Vec<usize> = vec![N - 1];
    want.extend(1..N - 1);
    want.push(0);
    assert_eq!(m.document, folder_of(&want));
}

#[test]
fn twenty_thousand_copies_of_one_link_match_in_order() {
    const N: usize = 20_000;
    let mut base = Document::new();
    let f = base.push(None, Folder::titled("Same"));
    for _ in 0..N {
        base.push(
            Some(f),
            Bookmark::new("https://same.example/").with_title("Same"),
        );
    }
    let mut ours = base.clone();
    let kids: Vec<NodeId> = ours.children(Some(f)).to_vec();
    ours.remove(kids[0]);
    let theirs = base.clone();
    let m = merge(&base, &ours, &theirs, &allowed()).expect("merged");
    assert_eq!(m.document.len(), N);
    assert_eq!(m.report.ours_matched.duplicates, N - 1);
}

#[test]
fn many_additions_sharing_one_guid_pair_in_linear_time() {
    const N: usize = 5_000;
    let base = Document::new();
    let side = |href: &str| {
        let mut d = Document::new();
        for i in 0..N {
            let mut b = Bookmark::new(format!("{href}{i}")).with_title(format!("{href}{i}"));
            b.details_mut().guid = Some("same-guid".into());
            d.push(None, b);
        }
        d
    };
    let (ours, theirs) = (side("https://o.example/"), side("https://t.example/"));
    let m = merge(&base, &ours, &theirs, &allowed()).expect("merged");
    assert_eq!(m.document.len(), 2 * N);
    assert_eq!(m.report.added_by_both, 0);
}
