//! Names for each piece of information a document can carry.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! fields {
    ($($variant:ident => $name:literal, $about:literal;)*) => {
        /// One piece of information a document can carry: the unit of
        /// [`census`](crate::Document::census), [`diff`](crate::diff) and loss reports.
        ///
        /// Each has a stable dotted name (`bookmark.tags`) used in reports and docs.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Field {
            $(#[doc = $about] $variant,)*
        }

        impl Field {
            /// Every field, in a stable order (the order of reports and the loss matrix).
            pub const ALL: &'static [Field] = &[$(Field::$variant,)*];

            /// The stable dotted name, such as `bookmark.tags`.
            pub fn name(self) -> &'static str {
                match self { $(Field::$variant => $name,)* }
            }

            /// A short description for people.
            pub fn about(self) -> &'static str {
                match self { $(Field::$variant => $about,)* }
            }
        }
    };
}

fields! {
    DocumentTitle => "document.title", "The collection's title.";
    DocumentDesc => "document.desc", "The collection's description.";
    DocumentId => "document.id", "The collection's id.";
    DocumentAdded => "document.added", "When the collection was created.";
    DocumentAddedForm => "document.added.form", "How the collection's creation date was written (precision and offset; the instant is document.added).";
    DocumentModified => "document.modified", "When the collection last changed.";
    DocumentModifiedForm => "document.modified.form", "How the collection's change date was written (precision and offset).";
    DocumentMetadata => "document.metadata", "Foreign metadata blocks on the collection.";
    DocumentExtra => "document.extra", "Unmodelled attributes of the collection.";
    DocumentComments => "document.comments", "Comments at the top of the file (Floccus keeps its sync state in one).";
    Bookmark => "bookmark", "The bookmarks themselves (entries present, one per link).";
    BookmarkHref => "bookmark.href", "A bookmark's link.";
    BookmarkTitle => "bookmark.title", "A bookmark's title.";
    BookmarkDesc => "bookmark.desc", "A bookmark's description.";
    BookmarkId => "bookmark.id", "A bookmark's id.";
    BookmarkAdded => "bookmark.added", "When a bookmark was added.";
    BookmarkAddedForm => "bookmark.added.form", "How a bookmark's added date was written (precision and offset; the instant is bookmark.added).";
    BookmarkModified => "bookmark.modified", "When a bookmark last changed.";
    BookmarkModifiedForm => "bookmark.modified.form", "How a bookmark's change date was written (precision and offset).";
    BookmarkVisited => "bookmark.visited", "When a bookmark was last visited.";
    BookmarkVisitedForm => "bookmark.visited.form", "How a bookmark's visit date was written (precision and offset).";
    BookmarkIcon => "bookmark.icon", "A bookmark's icon reference (XBEL 1.1).";
    BookmarkFavicon => "bookmark.favicon", "A bookmark's favicon data.";
    BookmarkFaviconUri => "bookmark.favicon-uri", "Where a bookmark's favicon came from.";
    BookmarkTags => "bookmark.tags", "A bookmark's tags.";
    BookmarkKeyword => "bookmark.keyword", "A bookmark's address-bar keyword.";
    BookmarkPostData => "bookmark.post-data", "Form data a keyword bookmark posts.";
    BookmarkFeedUrl => "bookmark.feed-url", "The feed a bookmark subscribes to.";
    BookmarkCharset => "bookmark.charset", "The charset a bookmark's page last used.";
    BookmarkPrivate => "bookmark.private", "Whether a bookmark is private.";
    BookmarkToRead => "bookmark.to-read", "Whether a bookmark is marked to read later.";
    BookmarkMimeType => "bookmark.mime-type", "A bookmark target's MIME type.";
    BookmarkGroups => "bookmark.groups", "A desktop bookmark's groups.";
    BookmarkApplications => "bookmark.applications", "Applications that registered a desktop bookmark.";
    BookmarkDesktopIcon => "bookmark.desktop-icon", "A desktop bookmark's icon.";
    BookmarkMetadata => "bookmark.metadata", "Foreign metadata blocks on a bookmark.";
    BookmarkExtra => "bookmark.extra", "Unmodelled attributes of a bookmark.";
    Folder => "folder", "The folder structure: which folders exist and what they hold.";
    FolderTitle => "folder.title", "A folder's title.";
    FolderDesc => "folder.desc", "A folder's description.";
    FolderId => "folder.id", "A folder's id.";
    FolderAdded => "folder.added", "When a folder was created.";
    FolderAddedForm => "folder.added.form", "How a folder's creation date was written (precision and offset).";
    FolderModified => "folder.modified", "When a folder last changed.";
    FolderModifiedForm => "folder.modified.form", "How a folder's change date was written (precision and offset).";
    FolderFolded => "folder.folded", "Whether a folder is shown closed.";
    FolderIcon => "folder.icon", "A folder's icon reference (XBEL 1.1).";
    FolderRole => "folder.role", "A folder's browser role (toolbar, menu, ...).";
    FolderMetadata => "folder.metadata", "Foreign metadata blocks on a folder.";
    FolderExtra => "folder.extra", "Unmodelled attributes of a folder.";
    Separator => "separator", "Separators and where they stand.";
    SeparatorTitle => "separator.title", "A separator's label.";
    SeparatorMetadata => "separator.metadata", "Foreign metadata blocks on a separator.";
    SeparatorExtra => "separator.extra", "Unmodelled attributes of a separator.";
    Alias => "alias", "Aliases and what they point at.";
    AliasExtra => "alias.extra", "Unmodelled attributes of an alias.";
}

impl Field {
    /// For a date field, the field of its written form (precision and
    /// offset): `bookmark.added` -> `bookmark.added.form`.
    pub fn form(self) -> Option<Field> {
        use Field::*;
        Some(match self {
            DocumentAdded => DocumentAddedForm,
            DocumentModified => DocumentModifiedForm,
            BookmarkAdded => BookmarkAddedForm,
            BookmarkModified => BookmarkModifiedForm,
            BookmarkVisited => BookmarkVisitedForm,
            FolderAdded => FolderAddedForm,
            FolderModified => FolderModifiedForm,
            _ => return None,
        })
    }

    /// For the form field of a date, the date field itself:
    /// `bookmark.added.form` -> `bookmark.added`.
    pub fn date_of_form(self) -> Option<Field> {
        Field::ALL.iter().copied().find(|d| d.form() == Some(self))
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Field {
    type Err = String;
    fn from_str(s: &str) -> Result<Field, String> {
        Field::ALL
            .iter()
            .copied()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown field {s:?}"))
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Field, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// How well a writer carries a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Every value is written and read back unchanged.
    Full,
    /// Written, but some values cannot be (the note says which).
    Partial(&'static str),
    /// Not written at all.
    None,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for f in Field::ALL {
            assert!(seen.insert(f.name()), "duplicate {}", f.name());
            assert_eq!(f.name().parse::<Field>().unwrap(), *f);
        }
        assert!("bookmark.nope".parse::<Field>().is_err());
    }

    #[test]
    fn every_date_field_has_a_form_field_and_back() {
        let dates = Field::ALL.iter().filter(|f| f.form().is_some()).count();
        assert_eq!(dates, 7);
        for f in Field::ALL {
            if let Some(form) = f.form() {
                assert_eq!(form.date_of_form(), Some(*f));
                assert_eq!(form.name(), format!("{}.form", f.name()));
            }
        }
    }
}
