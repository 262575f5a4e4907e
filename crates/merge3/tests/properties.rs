//! The merge's properties on generated trees (proptest): the same edit on
//! both sides is that edit; an unchanged side gives the other; swapping
//! the sides changes only whose value wins a conflict; the result is one
//! tree; merging it again changes nothing; the ledger accounts for every
//! node of the three trees.

mod gen;

use markport_merge3::{merge, Merged, Options, Side};
use markport_model::Document;
use proptest::prelude::*;

use gen::{edit, tree, Ids, Rng};

/// Generated edits may delete a lot: the guard is not what is tested here.
fn allowed(prefer: Side) -> Options {
    let mut o = Options::default();
    o.allow_mass_delete = true;
    o.prefer = prefer;
    o
}

fn run(b: &Document, o: &Document, t: &Document, prefer: Side) -> Merged {
    let m = merge(b, o, t, &allowed(prefer)).expect("the merge accounts for every item");
    // One tree: every node reached once from the top, none left over.
    assert_eq!(m.document.preorder().count(), m.document.len());
    let sides: usize = m.report.ledger.iter().map(|e| e.sides.len()).sum();
    assert_eq!(
        sides,
        b.len() + o.len() + t.len(),
        "a node of the inputs left out of the ledger"
    );
    let kept = m
        .report
        .ledger
        .iter()
        .filter(|e| e.outcome.in_result())
        .count();
    assert_eq!(kept, m.document.len());
    m
}

/// A base and two copies edited apart from one seed.
fn three(seed: u64, size: usize, edits: usize) -> (Document, Document, Document) {
    let mut rng = Rng::new(seed);
    let mut ids = Ids(0);
    let base = tree(&mut rng, &mut ids, size);
    let ours = edit(&mut rng, &mut ids, &base, edits);
    let theirs = edit(&mut rng, &mut ids, &base, edits);
    (base, ours, theirs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_same_edit_on_both_sides_is_that_edit(seed in any::<u64>(), size in 1usize..60, edits in 0usize..20) {
        let (base, ours, _) = three(seed, size, edits);
        let m = run(&base, &ours, &ours, Side::Ours);
        prop_assert_eq!(m.document, ours);
        prop_assert!(m.report.conflicts.is_empty());
    }

    #[test]
    fn an_unchanged_side_gives_the_other(seed in any::<u64>(), size in 1usize..60, edits in 0usize..20) {
        let (base, ours, theirs) = three(seed, size, edits);
        let m = run(&base, &base, &theirs, Side::Ours);
        prop_assert_eq!(&m.document, &theirs);
        prop_assert!(m.report.conflicts.is_empty(), "{:?}", m.report.conflicts);
        let m = run(&base, &ours, &base, Side::Ours);
        prop_assert_eq!(&m.document, &ours);
        prop_assert!(m.report.conflicts.is_empty(), "{:?}", m.report.conflicts);
    }

    #[test]
    fn swapping_the_sides_changes_only_the_winner(seed in any::<u64>(), size in 1usize..60, edits in 0usize..20) {
        let (base, ours, theirs) = three(seed, size, edits);
        let a = run(&base, &ours, &theirs, Side::Ours);
        let b = run(&base, &theirs, &ours, Side::Theirs);
        prop_assert_eq!(a.document, b.document);
        prop_assert_eq!(a.report.conflicts.len(), b.report.conflicts.len());
    }

    #[test]
    fn merging_the_result_again_changes_nothing(seed in any::<u64>(), size in 1usize..60, edits in 0usize..20) {
        let (base, ours, theirs) = three(seed, size, edits);
        let m = run(&base, &ours, &theirs, Side::Ours).document;
        prop_assert_eq!(&run(&m, &m, &m, Side::Ours).document, &m);
        prop_assert_eq!(&run(&base, &m, &m, Side::Ours).document, &m);
    }
}
