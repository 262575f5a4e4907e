//! # markport-netscape
//!
//! Netscape bookmark HTML, the file every browser exports and imports, for
//! markport: a reader and a writer around [`markport_model::Document`].
//!
//! * Reads the exports of Chrome, Firefox (all eras), Safari, Internet
//!   Explorer, Netscape 4, iCab, Epiphany, and of Pinboard, Delicious,
//!   Shaarli, linkding and Google Bookmarks (whose layout [`google`] reads
//!   as one bookmark per link, labels as tags): with or without DOCTYPE, `<p>`,
//!   `<DT>` or closing `</DL>`, upper or lower case, on one line or many.
//! * Charset: byte order mark, then a `<META>` charset before the first
//!   bookmark (Mac names included), then UTF-8, then windows-1252 with a
//!   warning; `--encoding` overrides.
//! * Every known attribute goes to its model field (dates in seconds,
//!   milliseconds, microseconds or nanoseconds; `TAGS` split on commas;
//!   `PRIVATE`, `TOREAD`, roles, `ALIASOF` aliases); unknown attributes are
//!   kept in order and written back. `<DD>` descriptions are the source text
//!   up to the next item, so markup in them never becomes a bookmark.
//! * Streaming and linear: the markup layer's tokenizer, with byte offsets
//!   (so every diagnostic has a line and column), and a folder stack, no
//!   recursion.
//!   Broken input gives diagnostics and the rest of the file; a page that is
//!   not a bookmark file at all gives an error that says what it looks like.
//! * Writes what Chrome and Firefox write: DOCTYPE, UTF-8 `<META>`, `<TITLE>`,
//!   `<H1>`, `<DL><p>` nesting, one element per line, four-space indent.
//! * Checks, when asked ([`ReadOptions::checking`]): every rule of
//!   `markport check` ([`RULES`]) the file breaks, found on the tokens it
//!   reads and tagged with the rule at its line and column.
//!
//! ```
//! use markport_model::{Field, ReadOptions, WriteOptions};
//!
//! let input = br#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
//! <TITLE>Bookmarks</TITLE>
//! <H1>Bookmarks</H1>
//! <DL><p>
//!     <DT><H3 ADD_DATE="1700000000" PERSONAL_TOOLBAR_FOLDER="true">Toolbar</H3>
//!     <DL><p>
//!         <DT><A HREF="https://www.rust-lang.org/" ADD_DATE="1700000001" TAGS="rust, lang">Rust</A>
//!         <DD>A language &amp; its <b>community</b>
//!     </DL><p>
//! </DL><p>
//! "#;
//! let read = markport_netscape::read(input, &ReadOptions::default()).unwrap();
//! let doc = &read.document;
//! let toolbar = doc.children(None)[0];
//! let rust = doc.node(doc.children(Some(toolbar))[0]).as_bookmark().unwrap();
//! assert_eq!(rust.tags, ["rust", "lang"]);
//! assert_eq!(rust.desc.as_deref(), Some("A language & its <b>community</b>"));
//!
//! let mut out = Vec::new();
//! let loss = markport_netscape::write(doc, &WriteOptions::default(), &mut out).unwrap();
//! assert!(loss.is_empty());
//! let again = markport_netscape::read(&out, &ReadOptions::default()).unwrap();
//! assert!(markport_model::diff(doc, &again.document).is_empty());
//! # let _ = Field::BookmarkTags;
//! ```
#![warn(missing_docs)]

mod dates;
pub mod google;
mod read;
mod rules;
mod scan;
mod write;

use markport_model::{
    Document, Error, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

pub use rules::RULES;
pub use write::MAX_INDENT_DEPTH;

/// The document `extra` entry that keeps the `<H1>` heading when it differs
/// from the `<TITLE>` (a name no HTML attribute can have).
pub const H1_EXTRA: &str = "<H1>";

/// The `<A>` attribute markport writes on an untitled bookmark, whose text
/// is then its link (an empty `<A>` is invisible in every browser): an `<A>`
/// with it whose text is exactly its `HREF` reads back without a title.
/// Other readers ignore it and take the link for the title.
pub const UNTITLED: &str = "MARKPORT_UNTITLED";

/// What markport's writer puts in `<META NAME="generator" CONTENT=...>`:
/// the file is markport's, so the attributes it carries from other formats
/// (any name) are its own writing, not another producer's.
pub const GENERATOR: &str = "markport";

/// The attributes markport's writer gives `element` (upper case: `A`,
/// `H3`, `H1`, `HR`) of its own, beside the source's extra attributes it
/// carries under their names; what `markport check` knows markport writes.
///
/// ```
/// assert!(markport_netscape::written_attributes("A").contains(&markport_netscape::UNTITLED));
/// assert!(markport_netscape::written_attributes("DL").is_empty());
/// ```
pub fn written_attributes(element: &str) -> &'static [&'static str] {
    write::written_attributes(element)
}

/// The folder `ID` Safari gives its reading list.
pub const READING_LIST_ID: &str = "com.apple.ReadingList";

/// How sure it is that `input` is Netscape bookmark HTML: its DOCTYPE, or
/// `<DT>` items with links or headings.
pub fn detect(input: &[u8]) -> Option<u8> {
    let head = &input[..input.len().min(8192)];
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    if lower.contains("<!doctype netscape-bookmark-file") {
        Some(90)
    } else if lower.contains("<dt>") && (lower.contains("<a ") || lower.contains("<h3")) {
        Some(60)
    } else if lower.contains("<dl") && lower.contains("<a ") {
        Some(40)
    } else if lower.contains("<a ") && lower.contains("time_added=") {
        // A Pocket export: claimed so that reading it says what it is
        // (the reader names Pocket) instead of "unknown format".
        Some(30)
    } else {
        None
    }
}

/// Read Netscape bookmark HTML. See the crate documentation for what is read.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    read::read(input, opts)?.enforce(opts)
}

/// Write Netscape bookmark HTML; returns what could not be carried.
pub fn write(
    doc: &Document,
    opts: &WriteOptions,
    out: &mut dyn std::io::Write,
) -> Result<LossReport, Error> {
    write::write(doc, opts, out)
}

/// What Netscape bookmark HTML carries.
pub fn support(field: Field) -> Support {
    const TRIMMED: &str = "trimmed of surrounding whitespace; empty reads as none";
    const SECONDS: &str = "whole seconds";
    const NAMES: &str = "attribute names upper-case";
    use Field::*;
    match field {
        DocumentTitle | DocumentDesc | BookmarkDesc | FolderDesc => Support::Partial(TRIMMED),
        BookmarkTitle | FolderTitle => {
            Support::Partial("a line break at either end is dropped; empty reads as none")
        }
        DocumentAdded | DocumentModified | BookmarkAdded | BookmarkModified | BookmarkVisited
        | FolderAdded | FolderModified => Support::Partial(SECONDS),
        DocumentAddedForm | DocumentModifiedForm | BookmarkAddedForm | BookmarkModifiedForm
        | BookmarkVisitedForm | FolderAddedForm | FolderModifiedForm => {
            Support::Partial("Unix seconds: dates written to the second in UTC only")
        }
        DocumentExtra | BookmarkExtra | FolderExtra | SeparatorExtra | AliasExtra => {
            Support::Partial(NAMES)
        }
        BookmarkTags => Support::Partial("comma-separated: no commas in tags"),
        FolderFolded => Support::Partial("folded folders only (FOLDED)"),
        FolderRole => {
            Support::Partial("toolbar, menu, unfiled, places root, reading list; not mobile")
        }
        Alias => Support::Partial("aliases of bookmarks (Netscape 4 ALIASOF)"),
        DocumentId | DocumentMetadata | DocumentComments | BookmarkIcon | BookmarkMimeType
        | BookmarkGroups | BookmarkApplications | BookmarkDesktopIcon | BookmarkMetadata
        | FolderIcon | FolderMetadata | SeparatorMetadata | BookmarkGuid | BookmarkMetaInfo
        | FolderGuid | FolderMetaInfo => Support::None,
        _ => Support::Full,
    }
}

/// This format as the registry lists it (`markport::format("netscape")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "netscape",
    "Netscape bookmark HTML, every browser's export (Pinboard/Delicious extensions)",
    &["html", "htm"],
    detect,
    read,
)
.writes(write, support)
.with_rules(RULES);
