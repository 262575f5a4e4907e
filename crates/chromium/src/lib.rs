//! # markport-chromium
//!
//! The `Bookmarks` file of Chromium and the browsers built on it (Chrome,
//! Edge, Brave, Vivaldi, Opera): a JSON object with a `roots` object.
//!
//! * Reading: the roots `bookmark_bar`, `other` and `synced` become folders
//!   with the toolbar, unfiled and mobile roles; Vivaldi's `trash` and
//!   Opera's `custom_root` are read as folders with their names (a note
//!   says so). Every key is kept: `guid`, `id`, the dates (microseconds
//!   since 1601, `"0"` for unset), `meta_info`, and any other key as the
//!   node's `extra`, the file's own keys (`sync_metadata`, ...) as the
//!   header's `extra`. A key given twice counts with its last value, as
//!   Chromium reads it, with a warning where it is repeated. Two streaming
//!   passes, no tree of JSON values and no recursion: a file nested
//!   100,000 deep reads.
//! * Checking ([`ReadOptions::checking`]): the reader finds every rule of
//!   `markport check` a file breaks ([`RULES`]: checksum, ids and guids, the
//!   keys each node type needs, dates, roots), tags each diagnostic with its
//!   rule, and reads on past a value of the wrong kind.
//! * Writing: Chromium's layout (`JSONWriter` pretty print: three spaces,
//!   sorted keys), its checksum, unique decimal ids and valid guids (kept
//!   when they are, made when not, and reported), so that Chromium loads the
//!   file without repairing it. A file markport read comes back with the
//!   same JSON values. What Chromium itself then drops or changes (a url's
//!   `date_modified`, keys it does not know, its roots' names and guids,
//!   links it canonicalises or cannot parse, as measured with the real
//!   browser) goes into the report's `destination` list.
//!
//! ```
//! use markport_model::{ReadOptions, Role, WriteOptions};
//!
//! let file = br#"{ "checksum": "", "version": 1, "roots": {
//!   "bookmark_bar": { "type": "folder", "name": "Bookmarks bar", "id": "1", "children": [
//!     { "type": "url", "name": "Rust", "url": "https://www.rust-lang.org/", "id": "4",
//!       "date_added": "13300000000000000" } ] },
//!   "other": { "type": "folder", "name": "Other bookmarks", "id": "2", "children": [] },
//!   "synced": { "type": "folder", "name": "Mobile bookmarks", "id": "3", "children": [] } } }"#;
//! let doc = markport_chromium::read(file, &ReadOptions::default()).unwrap().document;
//! let bar = doc.children(None)[0];
//! assert_eq!(doc.node(bar).as_folder().unwrap().role, Some(Role::Toolbar));
//! let rust = doc.node(doc.children(Some(bar))[0]).as_bookmark().unwrap();
//! assert_eq!(rust.added.as_ref().unwrap().instant().unwrap().to_w3c(), "2022-06-18T04:26:40Z");
//!
//! let mut out = Vec::new();
//! markport_chromium::write(&doc, &WriteOptions::default(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("{\n   \"checksum\": \""));
//! assert!(text.contains("\"url\": \"https://www.rust-lang.org/\""));
//! ```
#![warn(missing_docs)]

mod dates;
mod destination;
mod guid;
mod json;
mod layout;
pub mod md5;
mod read;
mod rules;
mod write;

use markport_model::{
    Document, Error, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

pub use layout::{KEY_ATTR, MAP_ATTR, UNSET_DATES_ATTR};
pub use read::Checksum;
pub use rules::RULES;
pub use write::ROOT_GUIDS;

/// How sure it is that `input` is a Chromium `Bookmarks` file: a JSON object
/// with two of the keys only Chromium's file has together (`roots`,
/// `bookmark_bar`, `sync_metadata`, `checksum`, `date_added`), in either of
/// its ends (the first and last 64 KiB, [`markport_markup::sniff`]), so
/// that the order of its keys does not matter: a file whose `checksum` comes
/// last, or whose roots come after a long `sync_metadata`, is found too.
pub fn detect(input: &[u8]) -> Option<u8> {
    use markport_markup::sniff::{either_end, first_byte, has_key};
    if first_byte(input)? != b'{' {
        return None;
    }
    let marks = [
        "roots",
        "bookmark_bar",
        "sync_metadata",
        "checksum",
        "date_added",
    ]
    .iter()
    .filter(|k| either_end(input, |w| has_key(w, k)))
    .count();
    (marks >= 2).then_some(90)
}

/// Read a `Bookmarks` file. See the crate documentation.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    read::read(input, opts)?.enforce(opts)
}

/// The checksum `input` stores and the one its content sums to (`None`:
/// the file stores none), from a reading of the whole file: a file that
/// does not read is its error.
///
/// ```
/// let file = br#"{ "checksum": "0123", "roots": {
///     "bookmark_bar": { "children": [], "id": "1", "name": "Bar", "type": "folder" },
///     "other": { "children": [], "id": "2", "name": "Other", "type": "folder" } },
///   "version": 1 }"#;
/// let sum = markport_chromium::checksum(file).unwrap().unwrap();
/// assert_eq!(sum.stored, "0123");
/// assert_eq!(sum.computed.len(), 32);
/// assert_ne!(sum.stored, sum.computed);
/// ```
pub fn checksum(input: &[u8]) -> Result<Option<Checksum>, Error> {
    read::read_summed(input).map(|(_, sum)| sum)
}

/// Write a `Bookmarks` file Chromium loads without repairing it; returns
/// what could not be carried or had to change.
pub fn write(
    doc: &Document,
    _opts: &WriteOptions,
    out: &mut dyn std::io::Write,
) -> Result<LossReport, Error> {
    write::write(doc, out)
}

/// What a `Bookmarks` file carries.
pub fn support(field: Field) -> Support {
    use Field::*;
    match field {
        Bookmark | BookmarkHref | BookmarkGuid | BookmarkMetaInfo | FolderGuid | FolderMetaInfo => {
            Support::Full
        }
        BookmarkTitle | FolderTitle => Support::Partial("an empty title reads back as none"),
        BookmarkId | FolderId => {
            Support::Partial("unique decimal numbers; others renumbered, missing ones given")
        }
        BookmarkAdded | BookmarkModified | BookmarkVisited | FolderAdded | FolderModified => {
            Support::Partial("microseconds since 1601")
        }
        BookmarkAddedForm | BookmarkModifiedForm | BookmarkVisitedForm | FolderAddedForm
        | FolderModifiedForm => Support::Partial("written in microseconds, UTC"),
        Folder => Support::Partial(
            "three roots (bar, other, mobile) always: top-level entries go into one of them",
        ),
        FolderRole => Support::Partial("toolbar, unfiled and mobile, on top-level folders"),
        BookmarkExtra | FolderExtra | DocumentExtra => {
            Support::Partial("as JSON keys, except Chromium's own key names")
        }
        _ => Support::None,
    }
}

/// This format as the registry lists it (`markport::format("chromium")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "chromium",
    "Chromium's Bookmarks file (Chrome, Edge, Brave, Vivaldi, Opera)",
    &[],
    detect,
    read,
)
.writes(write, support)
.with_rules(RULES);
