//! The migration operations' flags (`convert`, `roundtrip`) and their
//! order: what to keep first, then duplicates, then the tree's shape.

use clap::{Args, ValueEnum};

use markport::model::Timestamp;
use markport::ops::{LinkMatch, Operation, TagStyle};

use crate::failure::Failure;

/// `--tags-as-folders[=all]`: which of a bookmark's tags put it in a
/// folder (the library's `ops::TagFolders` is what the operation made).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum TagFolderPlacement {
    /// Each bookmark in the folder of its first tag.
    First,
    /// A copy in the folder of every tag.
    All,
}

/// Requested changes, applied between reading and writing and reported
/// as changes, not losses (docs/operations.md).
#[derive(Args, Clone, Default)]
pub(crate) struct OperationFlags {
    /// Keep only what is inside this folder, which becomes the top level
    /// (titles joined by `/`; `\/` is a slash in a title).
    #[arg(long, value_name = "PATH")]
    only_folder: Option<String>,
    /// Leave out this folder and everything in it (repeatable).
    #[arg(long, value_name = "PATH")]
    exclude_folder: Vec<String>,
    /// Keep only bookmarks with this tag (repeatable: any of them).
    #[arg(long, value_name = "TAG")]
    only_tag: Vec<String>,
    /// Drop private bookmarks.
    #[arg(long)]
    public_only: bool,
    /// Keep only bookmarks added at or after DATE (W3C: 2024, 2024-05-01, ...).
    #[arg(long, value_name = "DATE", value_parser = date)]
    since: Option<Timestamp>,
    /// Keep only bookmarks added before DATE.
    #[arg(long, value_name = "DATE", value_parser = date)]
    until: Option<Timestamp>,
    /// Remove later duplicates of a link; the first gains their tags and
    /// dates. Links compare `exact` (the default: as a URL parser reads
    /// them), `normal` (a trailing slash ignored) or `loose` (also http as
    /// https, utm_* and other tracking parameters and the #fragment ignored).
    #[arg(
        long,
        value_enum,
        value_name = "LEVEL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "exact"
    )]
    dedupe: Option<MatchLevel>,
    /// Keep the folders --dedupe or merge leave empty (default: removed,
    /// and reported; a folder empty to begin with always stays).
    #[arg(long)]
    keep_empty: bool,
    /// Give every bookmark the titles of the folders above it as tags.
    #[arg(long)]
    folders_as_tags: bool,
    /// Write tags the way a tag-based service takes them: `hyphen`
    /// (`New-folder`), `underscore`, `lower-hyphen` (`new-folder`), `keep`.
    #[arg(long, value_enum, value_name = "STYLE")]
    tag_style: Option<TagStyleFlag>,
    /// Leave out attributes and keys only the source browser understands
    /// (Netscape `ID=`, unknown attributes, Chromium's meta_info). A file
    /// Floccus syncs keeps its ids: they are how Floccus finds its items.
    #[arg(long)]
    drop_extra: bool,
    /// One flat list: folders and separators removed, aliases resolved.
    #[arg(long, conflicts_with = "tags_as_folders")]
    flatten: bool,
    /// A top-level folder per tag, each bookmark in its first tag's folder
    /// (`=all`: a copy in every tag's folder).
    #[arg(
        long,
        value_enum,
        value_name = "all",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "first"
    )]
    tags_as_folders: Option<TagFolderPlacement>,
}

/// `--dedupe=LEVEL`, `merge --match LEVEL`: the library's [`LinkMatch`].
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum MatchLevel {
    /// The link as a URL parser reads it (scheme and host case, default
    /// port, percent-encoding case do not count).
    Exact,
    /// Also a trailing slash ignored.
    Normal,
    /// Also http as https, tracking parameters and the fragment ignored.
    Loose,
}

impl From<MatchLevel> for LinkMatch {
    fn from(level: MatchLevel) -> LinkMatch {
        match level {
            MatchLevel::Exact => LinkMatch::Exact,
            MatchLevel::Normal => LinkMatch::Normal,
            MatchLevel::Loose => LinkMatch::Loose,
        }
    }
}

/// `--tag-style`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum TagStyleFlag {
    /// As they are.
    Keep,
    /// White space as hyphens.
    Hyphen,
    /// White space as underscores.
    Underscore,
    /// Lower case, white space as hyphens.
    LowerHyphen,
}

fn date(text: &str) -> Result<Timestamp, String> {
    Timestamp::parse_w3c(text).ok_or_else(|| {
        format!("{text:?} is not a W3C date (2024, 2024-05-01, 2024-05-01T09:30:00Z)")
    })
}

impl OperationFlags {
    /// The operations asked for, in the order they apply.
    pub(crate) fn operations(&self) -> Result<Vec<Operation>, Failure> {
        let mut ops = Vec::new();
        if let Some(path) = &self.only_folder {
            ops.push(Operation::OnlyFolder(path.clone()));
        }
        for path in &self.exclude_folder {
            ops.push(Operation::ExcludeFolder(path.clone()));
        }
        if !self.only_tag.is_empty() {
            ops.push(Operation::OnlyTags(self.only_tag.clone()));
        }
        if self.public_only {
            ops.push(Operation::PublicOnly);
        }
        if self.since.is_some() || self.until.is_some() {
            if let (Some(s), Some(u)) = (&self.since, &self.until) {
                if (s.unix_seconds(), s.subsec_nanos()) >= (u.unix_seconds(), u.subsec_nanos()) {
                    return Err(Failure::new("--since must be before --until"));
                }
            }
            ops.push(Operation::AddedBetween(self.since, self.until));
        }
        match self.dedupe.map(LinkMatch::from) {
            None => {}
            // Bare --dedupe is named and reported as it always was.
            Some(LinkMatch::Exact) if self.keep_empty => ops.push(Operation::DedupeKeepingEmpty),
            Some(LinkMatch::Exact) => ops.push(Operation::Dedupe),
            Some(by) => ops.push(Operation::DedupeBy {
                by,
                keep_empty: self.keep_empty,
            }),
        }
        if self.folders_as_tags {
            ops.push(Operation::FoldersAsTags);
        }
        if let Some(style) = self.tag_style {
            ops.push(Operation::TagStyle(match style {
                TagStyleFlag::Keep => TagStyle::Keep,
                TagStyleFlag::Hyphen => TagStyle::Hyphen,
                TagStyleFlag::Underscore => TagStyle::Underscore,
                TagStyleFlag::LowerHyphen => TagStyle::LowerHyphen,
            }));
        }
        if self.flatten {
            ops.push(Operation::Flatten);
        }
        if let Some(t) = self.tags_as_folders {
            ops.push(Operation::TagsAsFolders(t == TagFolderPlacement::All));
        }
        if self.drop_extra {
            ops.push(Operation::DropExtra);
        }
        Ok(ops)
    }

    /// `--keep-empty`: merge keeps the folders it empties.
    pub(crate) fn keep_empty(&self) -> bool {
        self.keep_empty
    }
}
