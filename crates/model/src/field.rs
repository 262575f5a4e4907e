//! Names for each piece of information a document can carry.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! fields {
    ($($variant:ident => $scope:ident, $name:literal, $about:literal;)*) => {
        /// One piece of information a document can carry: the unit of
        /// [`census`](crate::Document::census), [`diff`](crate::diff) and loss reports.
        ///
        /// Each has a stable dotted name (`bookmark.tags`) used in reports and docs;
        /// [`mapping`](crate::mapping) has a section of that name for each, saying
        /// where every format reads it from and writes it as.
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

            /// What the field belongs to: the document's header or a kind of node.
            pub fn scope(self) -> Scope {
                match self { $(Field::$variant => Scope::$scope,)* }
            }

            /// A short description for people.
            pub fn about(self) -> &'static str {
                match self { $(Field::$variant => $about,)* }
            }
        }
    };
}

fields! {
    DocumentTitle => Document, "document.title", "The collection's title.";
    DocumentDesc => Document, "document.desc", "The collection's description.";
    DocumentId => Document, "document.id", "The collection's id.";
    DocumentAdded => Document, "document.added", "When the collection was created.";
    DocumentAddedForm => Document, "document.added.form", "How the collection's creation date was written (precision and offset; the instant is document.added).";
    DocumentModified => Document, "document.modified", "When the collection last changed.";
    DocumentModifiedForm => Document, "document.modified.form", "How the collection's change date was written (precision and offset).";
    DocumentMetadata => Document, "document.metadata", "Foreign metadata blocks on the collection.";
    DocumentExtra => Document, "document.extra", "Unmodelled attributes of the collection.";
    DocumentComments => Document, "document.comments", "Comments at the top of the file (Floccus keeps its sync state in one).";
    Bookmark => Bookmark, "bookmark", "The bookmarks themselves (entries present, one per link).";
    BookmarkHref => Bookmark, "bookmark.href", "A bookmark's link.";
    BookmarkTitle => Bookmark, "bookmark.title", "A bookmark's title.";
    BookmarkDesc => Bookmark, "bookmark.desc", "A bookmark's description.";
    BookmarkId => Bookmark, "bookmark.id", "A bookmark's id.";
    BookmarkAdded => Bookmark, "bookmark.added", "When a bookmark was added.";
    BookmarkAddedForm => Bookmark, "bookmark.added.form", "How a bookmark's added date was written (precision and offset; the instant is bookmark.added).";
    BookmarkModified => Bookmark, "bookmark.modified", "When a bookmark last changed.";
    BookmarkModifiedForm => Bookmark, "bookmark.modified.form", "How a bookmark's change date was written (precision and offset).";
    BookmarkVisited => Bookmark, "bookmark.visited", "When a bookmark was last visited.";
    BookmarkVisitedForm => Bookmark, "bookmark.visited.form", "How a bookmark's visit date was written (precision and offset).";
    BookmarkIcon => Bookmark, "bookmark.icon", "A bookmark's icon reference (XBEL 1.1).";
    BookmarkFavicon => Bookmark, "bookmark.favicon", "A bookmark's favicon data.";
    BookmarkFaviconUri => Bookmark, "bookmark.favicon-uri", "Where a bookmark's favicon came from.";
    BookmarkTags => Bookmark, "bookmark.tags", "A bookmark's tags.";
    BookmarkKeyword => Bookmark, "bookmark.keyword", "A bookmark's address-bar keyword.";
    BookmarkPostData => Bookmark, "bookmark.post-data", "Form data a keyword bookmark posts.";
    BookmarkFeedUrl => Bookmark, "bookmark.feed-url", "The feed a bookmark subscribes to.";
    BookmarkCharset => Bookmark, "bookmark.charset", "The charset a bookmark's page last used.";
    BookmarkPrivate => Bookmark, "bookmark.private", "Whether a bookmark is private.";
    BookmarkToRead => Bookmark, "bookmark.to-read", "Whether a bookmark is marked to read later.";
    BookmarkMimeType => Bookmark, "bookmark.mime-type", "A bookmark target's MIME type.";
    BookmarkGroups => Bookmark, "bookmark.groups", "A desktop bookmark's groups.";
    BookmarkApplications => Bookmark, "bookmark.applications", "Applications that registered a desktop bookmark.";
    BookmarkDesktopIcon => Bookmark, "bookmark.desktop-icon", "A desktop bookmark's icon.";
    BookmarkMetadata => Bookmark, "bookmark.metadata", "Foreign metadata blocks on a bookmark.";
    BookmarkExtra => Bookmark, "bookmark.extra", "Unmodelled attributes of a bookmark.";
    BookmarkGuid => Bookmark, "bookmark.guid", "A browser's globally unique id for a bookmark.";
    BookmarkMetaInfo => Bookmark, "bookmark.meta-info", "A browser's key/value annotations on a bookmark (Chromium meta_info).";
    Folder => Folder, "folder", "The folder structure: which folders exist and what they hold.";
    FolderTitle => Folder, "folder.title", "A folder's title.";
    FolderDesc => Folder, "folder.desc", "A folder's description.";
    FolderId => Folder, "folder.id", "A folder's id.";
    FolderAdded => Folder, "folder.added", "When a folder was created.";
    FolderAddedForm => Folder, "folder.added.form", "How a folder's creation date was written (precision and offset).";
    FolderModified => Folder, "folder.modified", "When a folder last changed.";
    FolderModifiedForm => Folder, "folder.modified.form", "How a folder's change date was written (precision and offset).";
    FolderFolded => Folder, "folder.folded", "Whether a folder is shown closed.";
    FolderIcon => Folder, "folder.icon", "A folder's icon reference (XBEL 1.1).";
    FolderRole => Folder, "folder.role", "A folder's browser role (toolbar, menu, ...).";
    FolderMetadata => Folder, "folder.metadata", "Foreign metadata blocks on a folder.";
    FolderExtra => Folder, "folder.extra", "Unmodelled attributes of a folder.";
    FolderGuid => Folder, "folder.guid", "A browser's globally unique id for a folder.";
    FolderMetaInfo => Folder, "folder.meta-info", "A browser's key/value annotations on a folder.";
    Separator => Separator, "separator", "Separators and where they stand.";
    SeparatorTitle => Separator, "separator.title", "A separator's label.";
    SeparatorMetadata => Separator, "separator.metadata", "Foreign metadata blocks on a separator.";
    SeparatorExtra => Separator, "separator.extra", "Unmodelled attributes of a separator.";
    Alias => Alias, "alias", "Aliases and what they point at.";
    AliasExtra => Alias, "alias.extra", "Unmodelled attributes of an alias.";
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

/// What a [`Field`] belongs to: the document's [`Header`](crate::Header) or
/// one kind of node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scope {
    /// The document's own fields.
    Document,
    /// [`Bookmark`](crate::Bookmark)s.
    Bookmark,
    /// [`Folder`](crate::Folder)s.
    Folder,
    /// [`Separator`](crate::Separator)s.
    Separator,
    /// [`Alias`](crate::Alias)es.
    Alias,
}

impl Field {
    /// The fields of `scope`, in [`Field::ALL`] order.
    pub fn of(scope: Scope) -> impl Iterator<Item = Field> {
        Field::table(scope).iter().copied()
    }

    /// The fields of `scope`, as [`Field::of`] gives them.
    pub(crate) fn table(scope: Scope) -> &'static [Field] {
        // Asked for every node of every census and report: filter once.
        static BY_SCOPE: std::sync::OnceLock<[Vec<Field>; 5]> = std::sync::OnceLock::new();
        let table = BY_SCOPE.get_or_init(|| {
            [
                Scope::Document,
                Scope::Bookmark,
                Scope::Folder,
                Scope::Separator,
                Scope::Alias,
            ]
            .map(|s| {
                Field::ALL
                    .iter()
                    .copied()
                    .filter(|f| f.scope() == s)
                    .collect()
            })
        });
        &table[scope as usize]
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
    fn all_is_in_declaration_order_and_of_partitions_it() {
        // The census indexes counts by `field as usize`.
        for (i, f) in Field::ALL.iter().enumerate() {
            assert_eq!(*f as usize, i, "{}", f.name());
        }
        let scopes = [
            Scope::Document,
            Scope::Bookmark,
            Scope::Folder,
            Scope::Separator,
            Scope::Alias,
        ];
        let total: usize = scopes.iter().map(|s| Field::of(*s).count()).sum();
        assert_eq!(total, Field::ALL.len());
        for s in scopes {
            assert!(Field::of(s).all(|f| f.scope() == s));
        }
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
