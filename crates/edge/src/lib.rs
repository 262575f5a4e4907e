//! Microsoft Edge's Collections (`collectionsSQLite`) for markport: read
//! only.
//!
//! Edge keeps its Collections in an SQLite database in each profile,
//! `Collections/collectionsSQLite`. Its tables, as Edge makes them:
//! `collections(id, date_created, date_modified, title, position, …,
//! is_marked_for_deletion)`, `items(id, date_created, date_modified,
//! title, source, …, type, …, is_marked_for_deletion)` (`source` a JSON
//! blob whose `url` is the card's link), `collections_items_relationship
//! (item_id, parent_id, position)` (an item may be in several
//! collections) and `comments(id, parent_id, text, …)` (the notes on a
//! card).
//!
//! | Edge                                   | model                                      |
//! |----------------------------------------|--------------------------------------------|
//! | a collection, by `position`            | a top-level folder: `title`, `date_created` → `folder.added`, `date_modified` → `folder.modified` |
//! | a relationship row, by `position`      | a bookmark in that folder (an item in two collections is in both) |
//! | the item's `source` JSON `url`         | `bookmark.href`                            |
//! | the item's `title`                     | `bookmark.title`                           |
//! | its comments' `text`, in order         | `bookmark.desc` (joined by a blank line)   |
//! | `date_created`, `date_modified`        | `bookmark.added`, `bookmark.modified`      |
//!
//! A date's unit is decided by its size, as the files hold seconds and
//! milliseconds both: below 10^11 seconds, below 10^14 milliseconds, below
//! 10^17 microseconds (all since 1970). A card without a link (a note, an
//! image, a text clipping) is reported and skipped; rows marked for
//! deletion (`is_marked_for_deletion`, a sync tombstone) are skipped and
//! counted in a note.
//!
//! The user's files are never written and never locked: the database is
//! opened as markport opens `places.sqlite` ([`markport_places::open`]):
//! in place with SQLite's `immutable=1`, or a private copy with its `-wal`;
//! only real tables are read (a view or a virtual table in a table's
//! place, or a computed column, is refused), nothing is written, SQLite's
//! temporary data stays in memory under a heap cap, and a time limit stops
//! any query.
//!
//! ```
//! use rusqlite::Connection;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("collectionsSQLite");
//! let conn = Connection::open(&path).unwrap();
//! conn.execute_batch(
//!     "CREATE TABLE collections (id TEXT PRIMARY KEY, date_created REAL NOT NULL,
//!        date_modified REAL NOT NULL, title TEXT NOT NULL, position INTEGER NOT NULL,
//!        is_marked_for_deletion INTEGER);
//!      CREATE TABLE items (id TEXT PRIMARY KEY, date_created REAL NOT NULL,
//!        date_modified REAL NOT NULL, title TEXT, source BLOB, type TEXT,
//!        is_marked_for_deletion INTEGER);
//!      CREATE TABLE collections_items_relationship (item_id TEXT NOT NULL,
//!        parent_id TEXT NOT NULL, position INTEGER NOT NULL);
//!      INSERT INTO collections VALUES ('c', 1700000000000, 1700000000000, 'Trip', 0, 0);
//!      INSERT INTO items VALUES ('i', 1700000000000, 1700000000000, 'Maps',
//!        CAST('{\"url\":\"https://maps.example/\"}' AS BLOB), 'website', 0);
//!      INSERT INTO collections_items_relationship VALUES ('i', 'c', 0);",
//! )
//! .unwrap();
//! drop(conn);
//!
//! assert_eq!(markport_edge::detect(&std::fs::read(&path).unwrap()), Some(100));
//! let doc = markport_edge::read_path(&path, &Default::default()).unwrap().document;
//! let trip = doc.children(None)[0];
//! assert_eq!(doc.node(trip).title(), Some("Trip"));
//! let b = doc.node(doc.children(Some(trip))[0]).as_bookmark().unwrap();
//! assert_eq!((b.href.as_str(), b.title.as_deref()), ("https://maps.example/", Some("Maps")));
//! ```

#![warn(missing_docs)]

mod rows;

use std::path::Path;

use markport_model::{Error, Parsed, ReadOptions};
use markport_places::open::{self, SQLITE_MAGIC};

pub use rows::date;

/// How much of the file detection looks at: Edge's schema (a dozen
/// tables) spills past the first page, but stays within the first few.
const SCHEMA_WINDOW: usize = 256 << 10;

/// How sure markport is that `input` is Edge's Collections database: 100
/// for an SQLite file whose first 256 KiB (where SQLite keeps the schema
/// of a new database) name `collections_items_relationship`, Edge's own
/// table; `None` otherwise. A file made to pass is still refused by the
/// read, which asks SQLite what the tables are.
///
/// ```
/// assert_eq!(markport_edge::detect(b"SQLite format 3\0"), None);
/// assert_eq!(markport_edge::detect(b"<xbel/>"), None);
/// ```
pub fn detect(input: &[u8]) -> Option<u8> {
    if !input.starts_with(SQLITE_MAGIC) {
        return None;
    }
    let window = &input[..input.len().min(SCHEMA_WINDOW)];
    memchr::memmem::find(window, b"CREATE TABLE collections_items_relationship")
        .is_some()
        .then_some(100)
}

/// Read Edge's Collections from the database's bytes (written to a
/// private temporary copy, which SQLite opens). Changes still in a `-wal`
/// file are not in the bytes: see [`read_path`].
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let opened = open::from_bytes(input)?;
    rows::read(&opened.conn, &mut opened.budget(opts))?.enforce(opts)
}

/// Read Edge's Collections database at `path` (with its `-wal` when there
/// is one) without writing or locking any of the user's files.
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<Parsed, Error> {
    let opened = open::from_path(path)?;
    rows::read(&opened.conn, &mut opened.budget(opts))?.enforce(opts)
}

/// This format as the registry lists it (`markport::format("edge")`): its
/// name, description, extensions, detector and readers, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "edge",
    "Microsoft Edge Collections (collectionsSQLite), read in place without touching it",
    &[],
    detect,
    read,
)
.reads_paths(read_path);
