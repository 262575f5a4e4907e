//! What a merge says: how each side was matched, every conflict with its
//! class, both values and its path, and the ledger, which gives every item
//! of the three trees exactly one outcome.

use markport_model::{Field, NodeKind};
use serde::Serialize;

use crate::pairing::TierCounts;
use crate::tree::Side;

/// What became of one item of BASE ∪ OURS ∪ THEIRS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Outcome {
    /// In the result as the base had it.
    Kept,
    /// In the result, changed by one side or both (a field, its folder).
    Changed,
    /// Added by ours alone.
    AddedByOurs,
    /// Added by theirs alone.
    AddedByTheirs,
    /// Added by both sides as the same item, kept once.
    MergedWithDuplicate,
    /// Deleted by ours; theirs did not change it.
    DeletedByOurs,
    /// Deleted by theirs; ours did not change it.
    DeletedByTheirs,
    /// Deleted by both.
    DeletedByBoth,
    /// Its folder was deleted: moved to the nearest surviving folder.
    MovedToSurvive,
    /// Deleted by one side and changed by the other: kept, changed.
    KeptAgainstDeletion,
}

impl Outcome {
    /// Every outcome, in the order reports list them.
    pub const ALL: [Outcome; 10] = [
        Outcome::Kept,
        Outcome::Changed,
        Outcome::AddedByOurs,
        Outcome::AddedByTheirs,
        Outcome::MergedWithDuplicate,
        Outcome::DeletedByOurs,
        Outcome::DeletedByTheirs,
        Outcome::DeletedByBoth,
        Outcome::MovedToSurvive,
        Outcome::KeptAgainstDeletion,
    ];

    /// Whether the item is in the result.
    pub fn in_result(self) -> bool {
        !matches!(
            self,
            Outcome::DeletedByOurs | Outcome::DeletedByTheirs | Outcome::DeletedByBoth
        )
    }

    /// The outcome in words (`deleted by theirs`).
    pub fn words(self) -> &'static str {
        match self {
            Outcome::Kept => "kept",
            Outcome::Changed => "changed",
            Outcome::AddedByOurs => "added by ours",
            Outcome::AddedByTheirs => "added by theirs",
            Outcome::MergedWithDuplicate => "merged with a duplicate",
            Outcome::DeletedByOurs => "deleted by ours",
            Outcome::DeletedByTheirs => "deleted by theirs",
            Outcome::DeletedByBoth => "deleted by both",
            Outcome::MovedToSurvive => "moved to survive a deleted folder",
            Outcome::KeptAgainstDeletion => "kept against a deletion",
        }
    }
}

/// The classes of conflict a merge decides by rule and lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ConflictClass {
    /// The same field changed both ways: the preferred side's value.
    BothChanged,
    /// Deleted on one side, changed on the other: a bookmark, separator or
    /// alias is kept, changed; a folder stays deleted and what was changed
    /// or added in it moves to the nearest surviving folder.
    DeleteModify,
    /// Moved to different folders: the preferred side's.
    MovedApart,
    /// A folder deleted while the other side added or moved something into
    /// it: what was added moved to the nearest surviving folder.
    FolderDeleted,
    /// Moves that would make a cycle: the side that does not win keeps its
    /// folder where it was.
    Cycle,
    /// The same link added on both sides with different titles (or in
    /// different folders): both kept.
    AddedTwice,
    /// Both sides reordered a folder and the orders cross: the preferred
    /// side's order.
    OrderCrossed,
}

impl ConflictClass {
    /// The class in words.
    pub fn words(self) -> &'static str {
        match self {
            ConflictClass::BothChanged => "changed both ways",
            ConflictClass::DeleteModify => "deleted on one side, changed on the other",
            ConflictClass::MovedApart => "moved to different folders",
            ConflictClass::FolderDeleted => "added or moved into a folder the other side deleted",
            ConflictClass::Cycle => "moves that would make a cycle",
            ConflictClass::AddedTwice => "the same link added on both sides",
            ConflictClass::OrderCrossed => "reordered both ways",
        }
    }
}

/// One conflict: its class, where, the values each side had, and which
/// side's was taken.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Conflict {
    /// What kind of conflict.
    pub class: ConflictClass,
    /// The item's path (in the result when it is there, else in the tree
    /// that still has it).
    pub path: String,
    /// The field, for [`ConflictClass::BothChanged`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<Field>,
    /// The base's value (for moves: the folder's path); `null` when absent.
    pub base: serde_json::Value,
    /// Ours' value; `null` when deleted or absent.
    pub ours: serde_json::Value,
    /// Theirs' value; `null` when deleted or absent.
    pub theirs: serde_json::Value,
    /// Whose value or place the result has; `None` when both were kept.
    pub took: Option<Side>,
}

/// The ledger's line for one item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Entry {
    /// What became of it.
    pub outcome: Outcome,
    /// Bookmark, folder, separator or alias.
    #[serde(serialize_with = "kind_name")]
    pub kind: NodeKind,
    /// Its path: in the result when it is there, else where it was last.
    pub path: String,
    /// The trees that had it.
    pub sides: Vec<Side>,
}

fn kind_name<S: serde::Serializer>(kind: &NodeKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match kind {
        NodeKind::Bookmark => "bookmark",
        NodeKind::Folder => "folder",
        NodeKind::Separator => "separator",
        _ => "alias",
    })
}

/// How many base items each side deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Deleted {
    /// By ours.
    pub ours: usize,
    /// By theirs.
    pub theirs: usize,
}

/// What a merge did.
#[derive(Clone, Debug, Default, Serialize)]
#[non_exhaustive]
pub struct Report {
    /// How ours' nodes were matched to the base's.
    pub ours_matched: TierCounts,
    /// How theirs' nodes were matched to the base's.
    pub theirs_matched: TierCounts,
    /// Items both sides added, found to be one.
    pub added_by_both: usize,
    /// Base items each side deleted (before an edit on the other side kept
    /// some).
    pub deleted: Deleted,
    /// Items in the base.
    pub base_items: usize,
    /// Every conflict, in the order of the items.
    pub conflicts: Vec<Conflict>,
    /// One line per item of BASE ∪ OURS ∪ THEIRS.
    pub ledger: Vec<Entry>,
}

impl Report {
    /// How many ledger entries have each outcome, in [`Outcome::ALL`] order.
    pub fn outcomes(&self) -> Vec<(Outcome, usize)> {
        let mut counts = [0usize; 10];
        for e in &self.ledger {
            counts[e.outcome as usize] += 1;
        }
        Outcome::ALL.into_iter().zip(counts).collect()
    }

    /// How many conflicts of each class, in class order, those met only.
    pub fn conflict_classes(&self) -> Vec<(ConflictClass, usize)> {
        let mut counts: std::collections::BTreeMap<ConflictClass, usize> = Default::default();
        for c in &self.conflicts {
            *counts.entry(c.class).or_default() += 1;
        }
        counts.into_iter().collect()
    }
}
