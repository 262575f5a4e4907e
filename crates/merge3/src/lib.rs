//! # markport-merge3
//!
//! The three-way merge of bookmark trees: given the last tree two copies
//! had in common (BASE) and the two copies edited apart (OURS, THEIRS),
//! one tree that keeps the changes of both.
//!
//! - **Matching before merging**, in tiers, each counted ([`TierCounts`]):
//!   ids, guids and roles; the same link and title under a matched folder;
//!   the same normalised link there ([`markport_model::link_key`]); a link
//!   found once in each whole tree (a move); the same title in the same
//!   folder (a link edited); folders by title and by most of their
//!   children. Duplicate links are matched in order and counted.
//! - **Field by field**: a title changed on one side and a link on the
//!   other keeps both; tags merge as sets; the order of a folder keeps both
//!   sides' insertions near their neighbours and both reorders where they
//!   do not cross.
//! - **Every conflict said** ([`ConflictClass`]), decided by its rule, the
//!   preferred side ([`Options::prefer`]) winning where a rule needs one.
//! - **Nothing lost**: a deletion holds only where the base had the item
//!   and the other side did not change it; the [`Report::ledger`] gives
//!   every item of the three trees one [`Outcome`], checked against the
//!   result before it is returned.
//! - **A stale copy refused**: a side deleting more than a fifth of the
//!   base is [`MergeError::MassDelete`] unless allowed.
//!
//! The work is linear in the nodes (n log n where both sides reordered
//! one folder) and nothing recurses on the depth of the trees.
//!
//! ```
//! use markport_merge3::{merge, Options, Outcome};
//! use markport_model::{Bookmark, Document, Folder};
//!
//! let mut base = Document::new();
//! let news = base.push(None, Folder::titled("News"));
//! base.push(Some(news), Bookmark::new("https://bbc.co.uk/").with_title("BBC"));
//! let mut ours = base.clone();
//! let f = ours.children(None)[0];
//! ours.push(Some(f), Bookmark::new("https://lwn.net/").with_title("LWN"));
//! let mut theirs = base.clone();
//! let f = theirs.children(None)[0];
//! theirs.push(Some(f), Bookmark::new("https://apnews.com/").with_title("AP"));
//! let merged = merge(&base, &ours, &theirs, &Options::default()).unwrap();
//! let titles: Vec<_> = merged.document.bookmarks().map(|(_, b)| b.title.clone().unwrap()).collect();
//! assert_eq!(titles, ["BBC", "LWN", "AP"]);
//! assert!(merged.report.conflicts.is_empty());
//! assert_eq!(merged.report.outcomes()[2], (Outcome::AddedByOurs, 1));
//! ```
#![warn(missing_docs)]

mod build;
mod decide;
mod fields;
mod items;
mod ledger;
mod merge;
mod order;
mod pairing;
mod paths;
mod report;
mod tree;
mod twins;

pub use merge::{matches, merge, MergeError, Merged, Options, MASS_DELETE_MIN};
pub use pairing::{Tier, TierCounts};
pub use report::{Conflict, ConflictClass, Deleted, Entry, Outcome, Report};
pub use tree::Side;
