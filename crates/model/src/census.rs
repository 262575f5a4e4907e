//! Which fields a document holds, and how many nodes hold each.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::document::Document;
use crate::field::Field;
use crate::node::{Bookmark, Folder, Node, Separator};
use crate::value::Holder;

/// Counts of what a document holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
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
pub fn bookmark_fields(b: &Bookmark) -> impl Iterator<Item = Field> + '_ {
    Holder::from(b).present()
}

/// The fields a folder holds.
pub fn folder_fields(f: &Folder) -> impl Iterator<Item = Field> + '_ {
    Holder::from(f).present()
}

/// The header fields a document has values for.
pub fn document_fields(d: &Document) -> impl Iterator<Item = Field> + '_ {
    Holder::from(&d.header).present()
}

/// The fields a separator holds.
pub fn separator_fields(s: &Separator) -> impl Iterator<Item = Field> + '_ {
    Holder::from(s).present()
}

impl Document {
    /// Count which fields are present and on how many nodes.
    pub fn census(&self) -> Census {
        let mut c = Census {
            depth: self.max_depth(),
            ..Census::default()
        };
        // Counted by position in `Field::ALL` (declaration order): a map
        // entry per field per node costs more than reading the whole file.
        let mut counts = vec![0usize; Field::ALL.len()];
        let mut add = |f: Field| counts[f as usize] += 1;
        document_fields(self).for_each(&mut add);
        for id in self.ids() {
            let node = self.node(id);
            add(match node {
                Node::Bookmark(_) => Field::Bookmark,
                Node::Folder(_) => Field::Folder,
                Node::Separator(_) => Field::Separator,
                Node::Alias(_) => Field::Alias,
            });
            Holder::from(node).present().for_each(&mut add);
        }
        c.fields = Field::ALL
            .iter()
            .zip(counts)
            .filter(|(_, n)| *n > 0)
            .map(|(f, n)| (*f, n))
            .collect();
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
