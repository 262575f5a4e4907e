//! How much a difference matters: every check has a level, and the run
//! passes when every `must` check kept every value.

use markport_model::Field;
use serde::Serialize;

/// How much losing or changing a check's values matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The collection is not the same without it: links, titles, folder
    /// structure, order. A run passes only when all of these are kept.
    Must,
    /// People notice when it goes: dates, tags, descriptions, privacy,
    /// separators, roles.
    Should,
    /// Nice to keep: ids, icons, extensions, how dates were written.
    May,
}

impl Level {
    /// The level's name: `must`, `should` or `may`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Must => "must",
            Level::Should => "should",
            Level::May => "may",
        }
    }
}

/// Checks that are not a model field: where a node stands and what a
/// modify-then-reload tool was asked to add.
pub mod extra {
    /// Which folder holds a bookmark (folders are paired by path, roots by role).
    pub const PLACEMENT: &str = "placement";
    /// The order of the nodes in each folder.
    pub const ORDER: &str = "order";
    /// Modify-then-reload: the bookmark the tool was asked to add.
    pub const ADDED: &str = "added";
    /// A bookmark's title as written, white space and all, where
    /// `bookmark.title` (compared after normalising white space) is kept.
    pub const BOOKMARK_TITLE_FORM: &str = "bookmark.title.form";
    /// A folder's title as written, likewise.
    pub const FOLDER_TITLE_FORM: &str = "folder.title.form";
}

/// The level of a check, by its name (a [`Field`] name or one of [`extra`]).
pub fn level_of(check: &str) -> Level {
    use Field::*;
    if [extra::PLACEMENT, extra::ORDER, extra::ADDED].contains(&check) {
        return Level::Must;
    }
    let Ok(field) = check.parse::<Field>() else {
        return Level::May;
    };
    match field {
        Bookmark | BookmarkHref | BookmarkTitle | Folder | FolderTitle => Level::Must,
        DocumentTitle | DocumentDesc | DocumentAdded | DocumentModified | BookmarkDesc
        | BookmarkAdded | BookmarkModified | BookmarkVisited | BookmarkTags | BookmarkPrivate
        | BookmarkToRead | FolderDesc | FolderAdded | FolderModified | FolderRole | Separator
        | Alias => Level::Should,
        _ => Level::May,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_s_levels() {
        for must in [
            "bookmark",
            "bookmark.href",
            "bookmark.title",
            "folder",
            "order",
        ] {
            assert_eq!(level_of(must), Level::Must, "{must}");
        }
        for should in ["bookmark.added", "bookmark.tags", "bookmark.desc"] {
            assert_eq!(level_of(should), Level::Should, "{should}");
        }
        for may in [
            "bookmark.id",
            "bookmark.icon",
            "bookmark.extra",
            "bookmark.added.form",
        ] {
            assert_eq!(level_of(may), Level::May, "{may}");
        }
    }
}
