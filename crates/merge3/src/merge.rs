//! The merge, step by step: match each edited side to the base, pair what
//! both added, refuse a stale copy's mass deletion, decide each item's fate
//! and folder, order each folder, build the document, and account for
//! every item.

use markport_model::{Document, Field, NodeId};

use crate::build::build;
use crate::decide::{decide, Settings};
use crate::items::Items;
use crate::ledger::{added_twice, ledger, said, unaccounted, ItemPaths};
use crate::order::orders;
use crate::pairing::pair;
use crate::report::{Conflict, Deleted, Report};
use crate::tree::{Side, Tree, NONE};
use crate::twins::twins;

/// How to merge.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Whose value, folder and order a conflict takes: [`Side::Ours`] (the
    /// default) or [`Side::Theirs`].
    pub prefer: Side,
    /// Merge even when a side deletes more than a fifth of the base (and
    /// at least [`MASS_DELETE_MIN`] items).
    pub allow_mass_delete: bool,
    /// For base, ours and theirs, the fields its format cannot hold: a
    /// value missing there is not taken for a deletion.
    pub uncarried: [Vec<Field>; 3],
    /// For base, ours and theirs, the link schemes its program cannot hold
    /// (`chrome` for a Firefox file): a bookmark of such a link missing
    /// there was filtered, not deleted, and stays (Floccus #1245).
    pub unheld: [Vec<String>; 3],
    /// Nodes known to be one item (a sync state's ids): (side, base node,
    /// the side's node), taken before any other match.
    pub known: Vec<(Side, NodeId, NodeId)>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            prefer: Side::Ours,
            allow_mass_delete: false,
            uncarried: Default::default(),
            unheld: Default::default(),
            known: Vec::new(),
        }
    }
}

/// A side that deletes fewer base items than this is never refused.
pub const MASS_DELETE_MIN: usize = 10;

/// The merged document and what the merge did.
#[derive(Debug)]
#[non_exhaustive]
pub struct Merged {
    /// The merged tree.
    pub document: Document,
    /// Matching, conflicts, and the ledger.
    pub report: Report,
}

/// Why a merge made nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeError {
    /// A side deleted more than a fifth of the base (and at least
    /// [`MASS_DELETE_MIN`] items), as a stale copy seems to; refused unless
    /// [`Options::allow_mass_delete`].
    MassDelete {
        /// The side.
        side: Side,
        /// How many base items it deleted.
        deleted: usize,
        /// How many the base has.
        base: usize,
    },
    /// The ledger did not account for every item: a bug in the merge,
    /// caught before anything is written.
    Unaccounted {
        /// How many items.
        items: usize,
    },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::MassDelete {
                side,
                deleted,
                base,
            } => write!(
                f,
                "{} deletes {deleted} of the base's {base} items (more than a fifth): a stale copy? nothing merged",
                side.name()
            ),
            MergeError::Unaccounted { items } => write!(
                f,
                "the merge did not account for {items} items; nothing merged (a bug in markport)"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// Merge `ours` and `theirs`, both edited from `base`.
///
/// ```
/// use markport_merge3::{merge, Options};
/// use markport_model::{Bookmark, Document};
///
/// let mut base = Document::new();
/// base.push(None, Bookmark::new("https://example.org/").with_title("Example"));
/// let mut ours = base.clone();
/// ours.as_bookmark_mut(ours.children(None)[0]).unwrap().title = Some("Renamed".into());
/// let mut theirs = base.clone();
/// theirs.as_bookmark_mut(theirs.children(None)[0]).unwrap().href = "https://example.org/new".into();
/// let merged = merge(&base, &ours, &theirs, &Options::default()).unwrap();
/// let (_, b) = merged.document.bookmarks().next().unwrap();
/// assert_eq!((b.title.as_deref(), b.href.as_str()), (Some("Renamed"), "https://example.org/new"));
/// assert!(merged.report.conflicts.is_empty());
/// ```
pub fn merge(
    base: &Document,
    ours: &Document,
    theirs: &Document,
    opts: &Options,
) -> Result<Merged, MergeError> {
    let trees = [Tree::new(base), Tree::new(ours), Tree::new(theirs)];
    let known = |side: Side| -> Vec<(u32, u32)> {
        opts.known
            .iter()
            .filter(|k| k.0 == side)
            .map(|&(_, b, x)| (b.index() as u32, x.index() as u32))
            .collect()
    };
    let po = pair(&trees[0], &trees[1], &known(Side::Ours));
    let pt = pair(&trees[0], &trees[2], &known(Side::Theirs));
    let deleted = [&po, &pt].map(|p| p.from_base.iter().filter(|&&x| x == NONE).count());
    if !opts.allow_mass_delete {
        for (side, &gone) in [Side::Ours, Side::Theirs].into_iter().zip(&deleted) {
            if gone >= MASS_DELETE_MIN && gone * 5 > base.len() {
                return Err(MergeError::MassDelete {
                    side,
                    deleted: gone,
                    base: base.len(),
                });
            }
        }
    }
    let tw = twins(&trees[1], &trees[2], &po, &pt);
    let items = Items::new(&trees, &po, &pt, &tw);
    let settings = Settings {
        winner: opts.prefer,
        uncarried: &opts.uncarried,
        unheld: &opts.unheld,
    };
    let mut d = decide(&trees, &items, &settings);
    let mut pending = std::mem::take(&mut d.pending);
    let kids = orders(&trees, &items, &d, opts.prefer, &mut pending);
    d.pending = pending;
    let built = build(&trees, &items, &kids, opts.prefer, &opts.uncarried);
    let missing = unaccounted(&items, &d, &built);
    if missing > 0 {
        return Err(MergeError::Unaccounted { items: missing });
    }
    let mut paths = ItemPaths::new(&trees, &built.document);
    let mut conflicts = said(&trees, &items, &built, &d.pending, &mut paths);
    conflicts.extend(added_twice(&trees, &items, &d, &built, &mut paths));
    for (item, c) in &built.fields {
        let [b, o, t] = c.values.clone();
        conflicts.push(Conflict {
            class: crate::report::ConflictClass::BothChanged,
            path: paths.of(&trees, &items, &built, *item),
            field: Some(c.field),
            base: b,
            ours: o,
            theirs: t,
            took: Some(c.took),
        });
    }
    let ledger = ledger(&trees, &items, &d, &built, &mut paths);
    let report = Report {
        ours_matched: po.counts,
        theirs_matched: pt.counts,
        added_by_both: tw.o_to_t.iter().filter(|&&t| t != NONE).count(),
        deleted: Deleted {
            ours: deleted[0],
            theirs: deleted[1],
        },
        base_items: base.len(),
        conflicts,
        ledger,
    };
    drop(paths);
    Ok(Merged {
        document: built.document,
        report,
    })
}

/// Which node of `side` each node of `base` is, as a merge matches them
/// (every tier): for a program that remembers the ids a file gave the
/// base's items, as `markport sync` does. Indexed by the base's node
/// index.
///
/// ```
/// use markport_merge3::matches;
/// use markport_model::{Bookmark, Document};
///
/// let mut base = Document::new();
/// base.push(None, Bookmark::new("https://example.org/").with_title("Example"));
/// let mut side = Document::new();
/// side.push(None, Bookmark::new("https://example.net/"));
/// let b = side.push(None, Bookmark::new("https://example.org/").with_title("Example"));
/// assert_eq!(matches(&base, &side), [Some(b)]);
/// ```
pub fn matches(base: &Document, side: &Document) -> Vec<Option<NodeId>> {
    let (bt, st) = (Tree::new(base), Tree::new(side));
    pair(&bt, &st, &[])
        .from_base
        .iter()
        .map(|&x| (x != NONE).then(|| st.ids[x as usize]))
        .collect()
}
