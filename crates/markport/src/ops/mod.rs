//! Migration operations: what people do to a collection between exporting
//! it from one tool and importing it into another (folders as tags, tags as
//! folders, one flat list, no duplicates, one folder, some tags, public
//! bookmarks only, a range of dates, several collections as one).
//!
//! Each is a function on a [`Document`]. [`apply`] runs a list of
//! [`Operation`]s and records what each changed, by construction: the
//! document is compared ([`diff`]) before and after each step, and every
//! difference goes into [`LossReport::changes`] with the operation's flag as
//! its reason. Requested changes are not losses: [`LossReport::is_empty`]
//! does not count them. `docs/operations.md` defines each operation.
//!
//! ```
//! use markport::ops::{apply, Operation};
//! use markport::{Bookmark, Document, Field};
//!
//! let mut doc = Document::new();
//! doc.push(None, Bookmark::new("https://example.org/"));
//! doc.push(None, Bookmark::new("https://EXAMPLE.org"));
//! let report = apply(&mut doc, &[Operation::Dedupe]).unwrap();
//! assert_eq!(doc.len(), 1);
//! assert_eq!(report.changes[0].field, Field::Bookmark);
//! assert_eq!(report.changes[0].reason, "removed by --dedupe");
//! assert!(report.is_empty());
//! ```

mod absorb;
mod dedupe;
mod emptied;
mod join;
mod link;
mod links;
mod merge;
mod select;
mod shape;
mod tidy;

pub use dedupe::{dedupe, dedupe_by, dedupe_keeping};
pub use link::{link_key, LinkMatch, TRACKING};
pub use links::{move_links, remove_links, tag_links, update_links};
pub use merge::{merge, merge_by, merge_keeping, MergedInput};
pub use select::{added_between, exclude_folder, folder_path, only_folder, only_tags, public_only};
pub use shape::{flatten, folders_as_tags, tags_as_folders, Flattened, TagFolders};
pub use tidy::{drop_extra, restyle_tags, TagStyle};

use markport_model::{diff, Document, Error, Field, LossReport, Timestamp};

/// One requested change, as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Operation {
    /// `--only-folder PATH`: [`only_folder`].
    OnlyFolder(String),
    /// `--exclude-folder PATH`: [`exclude_folder`].
    ExcludeFolder(String),
    /// `--only-tag TAG...`: [`only_tags`].
    OnlyTags(Vec<String>),
    /// `--public-only`: [`public_only`].
    PublicOnly,
    /// `--since` / `--until`: [`added_between`].
    AddedBetween(Option<Timestamp>, Option<Timestamp>),
    /// `--dedupe`: [`dedupe`], which removes the folders it leaves empty.
    Dedupe,
    /// `--dedupe --keep-empty`: [`dedupe_keeping`] the folders it empties.
    DedupeKeepingEmpty,
    /// `--dedupe=LEVEL [--keep-empty]`: [`dedupe_by`]. At
    /// [`LinkMatch::Exact`] it is [`Dedupe`](Self::Dedupe) (or
    /// [`DedupeKeepingEmpty`](Self::DedupeKeepingEmpty)), named the same.
    DedupeBy {
        /// How alike two links must be.
        by: LinkMatch,
        /// Keep the folders it empties.
        keep_empty: bool,
    },
    /// `--tag-style STYLE`: [`restyle_tags`].
    TagStyle(TagStyle),
    /// `--drop-extra`: [`drop_extra`].
    DropExtra,
    /// `--folders-as-tags`: [`folders_as_tags`].
    FoldersAsTags,
    /// `--flatten`: [`flatten`].
    Flatten,
    /// `--tags-as-folders` (`true`: `=all`): [`tags_as_folders`].
    TagsAsFolders(bool),
    /// `--update-redirects` (`markport links`): [`update_links`], each href
    /// to the link it moved to for good.
    UpdateLinks(std::collections::BTreeMap<String, String>),
    /// `--tag-dead TAG`: [`tag_links`].
    TagLinks {
        /// The hrefs found dead.
        links: std::collections::BTreeSet<String>,
        /// The tag they get.
        tag: String,
    },
    /// `--move-dead FOLDER`: [`move_links`].
    MoveLinks {
        /// The hrefs found dead.
        links: std::collections::BTreeSet<String>,
        /// Where they go ([`folder_path`]).
        folder: String,
    },
    /// `--remove-dead`: [`remove_links`].
    RemoveLinks(std::collections::BTreeSet<String>),
}

impl Operation {
    /// The command-line flag, as reports name the operation.
    pub fn flag(&self) -> &'static str {
        match self {
            Operation::OnlyFolder(_) => "--only-folder",
            Operation::ExcludeFolder(_) => "--exclude-folder",
            Operation::DedupeKeepingEmpty => "--dedupe --keep-empty",
            Operation::TagStyle(_) => "--tag-style",
            Operation::DropExtra => "--drop-extra",
            Operation::OnlyTags(_) => "--only-tag",
            Operation::PublicOnly => "--public-only",
            Operation::AddedBetween(Some(_), None) => "--since",
            Operation::AddedBetween(None, Some(_)) => "--until",
            Operation::AddedBetween(..) => "--since/--until",
            Operation::Dedupe => "--dedupe",
            Operation::DedupeBy { by, keep_empty } => match (by, keep_empty) {
                (LinkMatch::Normal, false) => "--dedupe=normal",
                (LinkMatch::Normal, true) => "--dedupe=normal --keep-empty",
                (LinkMatch::Loose, false) => "--dedupe=loose",
                (LinkMatch::Loose, true) => "--dedupe=loose --keep-empty",
                (_, false) => "--dedupe",
                (_, true) => "--dedupe --keep-empty",
            },
            Operation::FoldersAsTags => "--folders-as-tags",
            Operation::Flatten => "--flatten",
            Operation::TagsAsFolders(false) => "--tags-as-folders",
            Operation::TagsAsFolders(true) => "--tags-as-folders=all",
            Operation::UpdateLinks(_) => "--update-redirects",
            Operation::TagLinks { .. } => "--tag-dead",
            Operation::MoveLinks { .. } => "--move-dead",
            Operation::RemoveLinks(_) => "--remove-dead",
        }
    }

    /// Apply the operation to `doc`.
    ///
    /// # Errors
    /// What [`only_folder`] and [`only_tags`] refuse; `doc` is then unchanged.
    pub fn run(&self, doc: &mut Document) -> Result<(), Error> {
        match self {
            Operation::OnlyFolder(path) => {
                only_folder(doc, path)?;
            }
            Operation::ExcludeFolder(path) => {
                exclude_folder(doc, path)?;
            }
            Operation::DedupeKeepingEmpty => {
                dedupe_keeping(doc, true);
            }
            Operation::DedupeBy { by, keep_empty } => {
                dedupe_by(doc, *by, *keep_empty);
            }
            Operation::TagStyle(style) => {
                restyle_tags(doc, *style);
            }
            Operation::DropExtra => {
                drop_extra(doc);
            }
            Operation::OnlyTags(tags) => {
                only_tags(doc, tags)?;
            }
            Operation::PublicOnly => {
                public_only(doc);
            }
            Operation::AddedBetween(since, until) => {
                added_between(doc, *since, *until);
            }
            Operation::Dedupe => {
                dedupe(doc);
            }
            Operation::FoldersAsTags => {
                folders_as_tags(doc);
            }
            Operation::Flatten => {
                flatten(doc);
            }
            Operation::TagsAsFolders(all) => {
                tags_as_folders(doc, *all);
            }
            Operation::UpdateLinks(moved) => update_links(doc, moved),
            Operation::TagLinks { links, tag } => tag_links(doc, links, tag),
            Operation::MoveLinks { links, folder } => move_links(doc, links, folder),
            Operation::RemoveLinks(links) => remove_links(doc, links),
        }
        Ok(())
    }

    /// The reason a change of `field` by this operation is reported with:
    /// `removed by --dedupe`, `added by --folders-as-tags`.
    pub fn reason(&self, field: Field) -> String {
        let structure = matches!(
            field,
            Field::Bookmark | Field::Folder | Field::Separator | Field::Alias
        );
        let verb = match self {
            Operation::Dedupe | Operation::DedupeKeepingEmpty | Operation::DedupeBy { .. }
                if field == Field::Bookmark =>
            {
                "removed"
            }
            Operation::Dedupe
            | Operation::DedupeBy {
                keep_empty: false, ..
            } if field == Field::Folder => "removed (left empty)",
            Operation::Dedupe | Operation::DedupeKeepingEmpty | Operation::DedupeBy { .. } => {
                "merged"
            }
            Operation::TagStyle(_) => "restyled",
            Operation::DropExtra => "dropped",
            Operation::FoldersAsTags => "added",
            Operation::Flatten if field == Field::Bookmark => "added (aliases resolved)",
            Operation::Flatten if structure => "removed",
            Operation::TagsAsFolders(true) if field == Field::Bookmark => "copied",
            Operation::TagsAsFolders(_) if structure => "rearranged",
            Operation::OnlyFolder(_)
            | Operation::ExcludeFolder(_)
            | Operation::OnlyTags(_)
            | Operation::PublicOnly
            | Operation::AddedBetween(..)
                if structure =>
            {
                "dropped"
            }
            Operation::UpdateLinks(_) => "updated",
            Operation::TagLinks { .. } => "added",
            Operation::MoveLinks { .. } if structure => "moved",
            Operation::RemoveLinks(_) if structure => "removed",
            _ => "changed",
        };
        format!("{verb} by {}", self.flag())
    }
}

/// Apply `ops` to `doc` in order and return what each changed, in
/// [`LossReport::changes`]: the differences between the document before
/// and after each step, reasoned by the step's flag.
///
/// # Errors
/// The first operation that refuses; the steps before it stay applied.
pub fn apply(doc: &mut Document, ops: &[Operation]) -> Result<LossReport, Error> {
    let mut report = LossReport::new();
    for op in ops {
        let before = doc.clone();
        op.run(doc)?;
        report.record_changes(&diff(&before, doc), |f| op.reason(f));
    }
    Ok(report)
}

#[cfg(test)]
mod tests;
