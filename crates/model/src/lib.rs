//! # markport-model
//!
//! The one document model every markport format reads into and writes from.
//!
//! A [`Document`] holds a collection's header fields and a tree of [`Node`]s
//! (bookmarks, folders, separators, aliases). Values are kept as they were
//! meant in the source: hrefs as raw strings, titles exactly as decoded,
//! timestamps as instants with their sub-second part ([`Timestamp`]), and a
//! value that could not be understood as [`DateValue::Raw`] rather than dropped.
//! Every field documents where it comes from in XBEL, desktop, Netscape and
//! xFolk, and links to its section of [`mapping`], which says where it is
//! read from and written as in every format markport knows (a test holds
//! that page to the readers and writers).
//!
//! The tree is an arena: nodes refer to each other by [`NodeId`], so no
//! operation recurses, whatever the depth of the input. It is also compact:
//! a [`Bookmark`] keeps what most bookmarks have inline and the rest in
//! [`BookmarkDetails`] (`details()`, `details_mut()`), allocated only when used,
//! so a large collection takes a few times the size of its file.
//!
//! [`Field`] names each piece of information; [`Document::census`] counts
//! what a document holds, [`diff`] says which fields differ between two
//! documents and where, and a writer's [`LossReport`] says which fields it
//! could not carry. The census, diff and bookmark equality go through one
//! table: [`Field::get`] reads any field's [`Value`] on its [`Holder`] (the
//! document's [`Header`] or a node), so a new field is one line in that
//! table, one struct member and one arm of `get`.
//!
//! ```
//! use markport_model::{diff, Bookmark, Document, Field, Folder, Timestamp};
//!
//! let mut doc = Document::new();
//! let news = doc.push(None, Folder::titled("News"));
//! let mut bbc = Bookmark::new("https://www.bbc.co.uk/").with_title("BBC");
//! bbc.tags = vec!["news".into(), "uk".into()];
//! bbc.added = Some(Timestamp::parse_w3c("2024-05-01T09:30:00.25Z").unwrap().into());
//! let id = doc.push(Some(news), bbc);
//! assert_eq!(doc.path(id), "News/BBC");
//!
//! let census = doc.census();
//! assert_eq!((census.bookmarks, census.folders), (1, 1));
//! assert!(census.has(Field::BookmarkTags));
//!
//! let mut other = doc.clone();
//! if let markport_model::Node::Bookmark(b) = other.node_mut(id) {
//!     b.tags.clear();
//! }
//! let d = diff(&doc, &other);
//! assert_eq!(d.differences[0].field, Field::BookmarkTags);
//! assert_eq!(d.differences[0].paths, ["News/BBC"]);
//! ```
#![warn(missing_docs)]

mod assign;
pub mod budget;
mod census;
mod diag;
mod diff;
pub mod display;
mod document;
mod field;
pub mod firefox_tags;
mod format;
mod header;
mod link;
mod loss;
mod node;
mod options;
pub mod rule;
mod time;
mod value;

pub use assign::HolderMut;
pub use budget::Budget;
pub use census::{bookmark_fields, document_fields, folder_fields, separator_fields, Census};
pub use diag::{Diagnostic, Error, ErrorKind, LineIndex, Location, Severity};
pub use diff::{diff, diff_listing, Diff, Difference};
pub use document::{Document, NodeId, Step, Walk};
pub use field::{Field, Scope, Support};
pub use format::{FormatDef, PathReadFn, ReadFn, WriteFn};
pub use header::Header;
pub use link::link_key;
#[allow(deprecated)]
pub use loss::{Loss, LossReport, ReportEntry, MAX_PATHS};
pub use node::{
    Alias, Application, Attribute, Bookmark, BookmarkDetails, DesktopDetails, DesktopIcon,
    FirefoxDetails, Folder, Metadata, Node, NodeKind, Role, Separator,
};
pub use options::{
    ArcReadOptions, CsvReadOptions, DesktopWriteOptions, FirefoxWriteOptions, ReadOptions,
    WriteOptions, XbelWriteOptions, XfolkReadOptions, XfolkWriteOptions,
};
pub use time::{DateValue, Precision, Timestamp};
pub use value::{Holder, Value};

// A page, not code: kept as markdown so that it reads as a table in the
// source too; `tests/tests/field_mapping_doc.rs` holds it to the formats.
#[doc = include_str!("mapping.md")]
pub mod mapping {}

/// What a reader produces: the document and what it noticed on the way.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Parsed {
    /// The document.
    pub document: Document,
    /// Everything recovered from, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// A reader's result.
    pub fn new(document: Document, diagnostics: Vec<Diagnostic>) -> Parsed {
        Parsed {
            document,
            diagnostics,
        }
    }

    /// Apply [`ReadOptions::strict`]: the first warning becomes an
    /// [`ErrorKind::Strict`] error at its location. Every reader ends with
    /// this, so the option means the same in every format.
    ///
    /// ```
    /// use markport_model::{Diagnostic, Document, ErrorKind, Parsed, ReadOptions};
    ///
    /// let warned = || Parsed::new(Document::new(), vec![Diagnostic::warning("odd", None)]);
    /// assert!(warned().enforce(&ReadOptions::default()).is_ok());
    /// let mut strict = ReadOptions::default();
    /// strict.strict = true;
    /// assert_eq!(warned().enforce(&strict).unwrap_err().kind, ErrorKind::Strict);
    /// ```
    pub fn enforce(self, opts: &ReadOptions) -> Result<Parsed, Error> {
        if opts.strict {
            if let Some(d) = self
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Warning)
            {
                return Err(Error::new(
                    ErrorKind::Strict,
                    format!("{} (--strict)", d.message),
                    d.location,
                ));
            }
        }
        Ok(self)
    }
}
