//! Which fields a document holds, and how many nodes hold each.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::document::Document;
use crate::field::Field;
use crate::node::{Bookmark, Folder, Node, Separator};

/// Counts of what a document holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Census {
    /// Number of bookmarks.
    pub bookmarks: usize,
    /// Number of folders.
    pub folders: usize,
    /// Number of separators.
    pub separators: usize,
    /// Number of aliases.
    pub aliases: usize,
    /// Deepest folder nesting.
    pub depth: usize,
    /// For each field present, on how many nodes (1 for document fields).
    pub fields: BTreeMap<Field, usize>,
}

impl Census {
    /// Whether `field` is present anywhere.
    pub fn has(&self, field: Field) -> bool {
        self.fields.contains_key(&field)
    }
}

/// The fields a bookmark holds.
pub fn bookmark_fields(b: &Bookmark) -> impl Iterator<Item = Field> {
    let more = b.details();
    let present = [
        (Field::BookmarkHref, !b.href.is_empty()),
        (Field::BookmarkTitle, b.title.is_some()),
        (Field::BookmarkDesc, b.desc.is_some()),
        (Field::BookmarkId, more.id.is_some()),
        (Field::BookmarkAdded, b.added.is_some()),
        (Field::BookmarkModified, b.modified.is_some()),
        (Field::BookmarkVisited, more.visited.is_some()),
        (Field::BookmarkIcon, more.icon.is_some()),
        (Field::BookmarkFavicon, b.favicon.is_some()),
        (Field::BookmarkFaviconUri, more.favicon_uri.is_some()),
        (Field::BookmarkTags, !b.tags.is_empty()),
        (Field::BookmarkKeyword, more.keyword.is_some()),
        (Field::BookmarkPostData, more.post_data.is_some()),
        (Field::BookmarkFeedUrl, more.feed_url.is_some()),
        (Field::BookmarkCharset, more.charset.is_some()),
        (Field::BookmarkPrivate, b.private.is_some()),
        (Field::BookmarkToRead, b.to_read.is_some()),
        (Field::BookmarkMimeType, more.mime_type.is_some()),
        (Field::BookmarkGroups, !more.groups.is_empty()),
        (Field::BookmarkApplications, !more.applications.is_empty()),
        (Field::BookmarkDesktopIcon, more.desktop_icon.is_some()),
        (Field::BookmarkMetadata, !more.metadata.is_empty()),
        (Field::BookmarkExtra, !more.extra.is_empty()),
    ];
    present.into_iter().filter(|p| p.1).map(|p| p.0)
}

/// The fields a folder holds.
pub fn folder_fields(f: &Folder) -> impl Iterator<Item = Field> {
    let present = [
        (Field::FolderTitle, f.title.is_some()),
        (Field::FolderDesc, f.desc.is_some()),
        (Field::FolderId, f.id.is_some()),
        (Field::FolderAdded, f.added.is_some()),
        (Field::FolderModified, f.modified.is_some()),
        (Field::FolderFolded, f.folded.is_some()),
        (Field::FolderIcon, f.icon.is_some()),
        (Field::FolderRole, f.role.is_some()),
        (Field::FolderMetadata, !f.metadata.is_empty()),
        (Field::FolderExtra, !f.extra.is_empty()),
    ];
    present.into_iter().filter(|p| p.1).map(|p| p.0)
}

/// The header fields a document has values for.
pub fn document_fields(d: &Document) -> impl Iterator<Item = Field> {
    let present = [
        (Field::DocumentTitle, d.title.is_some()),
        (Field::DocumentDesc, d.desc.is_some()),
        (Field::DocumentId, d.id.is_some()),
        (Field::DocumentAdded, d.added.is_some()),
        (Field::DocumentModified, d.modified.is_some()),
        (Field::DocumentMetadata, !d.metadata.is_empty()),
        (Field::DocumentExtra, !d.extra.is_empty()),
        (Field::DocumentComments, !d.comments.is_empty()),
    ];
    present.into_iter().filter(|p| p.1).map(|p| p.0)
}

/// The fields a separator holds.
pub fn separator_fields(s: &Separator) -> impl Iterator<Item = Field> {
    let present = [
        (Field::SeparatorTitle, s.title.is_some()),
        (Field::SeparatorMetadata, !s.metadata.is_empty()),
        (Field::SeparatorExtra, !s.extra.is_empty()),
    ];
    present.into_iter().filter(|p| p.1).map(|p| p.0)
}

impl Document {
    /// Count which fields are present and on how many nodes.
    pub fn census(&self) -> Census {
        let mut c = Census {
            depth: self.max_depth(),
            ..Census::default()
        };
        let mut add = |f: Field| *c.fields.entry(f).or_insert(0) += 1;
        let doc = [
            (Field::DocumentTitle, self.title.is_some()),
            (Field::DocumentDesc, self.desc.is_some()),
            (Field::DocumentId, self.id.is_some()),
            (Field::DocumentAdded, self.added.is_some()),
            (Field::DocumentModified, self.modified.is_some()),
            (Field::DocumentMetadata, !self.metadata.is_empty()),
            (Field::DocumentExtra, !self.extra.is_empty()),
            (Field::DocumentComments, !self.comments.is_empty()),
        ];
        doc.into_iter().filter(|p| p.1).for_each(|p| add(p.0));
        for id in self.ids() {
            match self.node(id) {
                Node::Bookmark(b) => {
                    add(Field::Bookmark);
                    bookmark_fields(b).for_each(&mut add);
                }
                Node::Folder(f) => {
                    add(Field::Folder);
                    folder_fields(f).for_each(&mut add);
                }
                Node::Separator(s) => {
                    add(Field::Separator);
                    separator_fields(s).for_each(&mut add);
                }
                Node::Alias(a) => {
                    add(Field::Alias);
                    if !a.extra.is_empty() {
                        add(Field::AliasExtra);
                    }
                }
            }
        }
        for id in self.ids() {
            match self.node(id) {
                Node::Bookmark(_) => c.bookmarks += 1,
                Node::Folder(_) => c.folders += 1,
                Node::Separator(_) => c.separators += 1,
                Node::Alias(_) => c.aliases += 1,
            }
        }
        c
    }
}
