//! buku's database (`bookmarks.db`) for markport: read only.
//!
//! [buku](https://github.com/jarun/buku) keeps its bookmarks in one SQLite
//! table, `bookmarks(id, URL, metadata, tags, desc, flags)`:
//!
//! | column     | model                          | note                                                   |
//! |------------|--------------------------------|--------------------------------------------------------|
//! | `id`       | `bookmark.id`                  | buku's index (`buku -p N`); rows are read in its order |
//! | `URL`      | `bookmark.href`                | as stored                                              |
//! | `metadata` | `bookmark.title`               | empty is no title                                      |
//! | `tags`     | `bookmark.tags`                | stored `,a,b,`: split on commas, empty pieces skipped  |
//! | `desc`     | `bookmark.desc`                | empty is no description                                |
//! | `flags`    | `bookmark.extra` `immutable`   | bit 0 (`FLAG_IMMUTABLE`, `--immutable 1`): buku never refetches the title; other bits kept as `flags` |
//!
//! buku has no folders, dates or privacy: the bookmarks are one flat list.
//!
//! The user's files are never written and never locked: the database is
//! opened exactly as markport opens Firefox's `places.sqlite`
//! ([`markport_places::open`]): [`read_path`] opens the file itself with
//! SQLite's `immutable=1`, or, when a `-wal` or `-journal` is beside it,
//! a private copy of the three; [`read`] takes bytes and opens a private
//! copy of them. SQLite is the bundled one (`rusqlite`), so a program that
//! does not want SQLite leaves this crate out.
//!
//! Only a real table is read: a `bookmarks` that is a view (which would run
//! its own query, endless or not), a virtual table, or a column computed
//! when read is refused before any query runs; the connection cannot write
//! (no trigger fires), keeps SQLite's temporary data in memory, and stops
//! at a time limit ([`markport_places::open::time_limit`]).
//!
//! ```
//! use rusqlite::Connection;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("bookmarks.db");
//! let conn = Connection::open(&path).unwrap();
//! conn.execute_batch(
//!     "CREATE TABLE bookmarks (id integer PRIMARY KEY, URL text NOT NULL UNIQUE,
//!        metadata text default '', tags text default ',', desc text default '',
//!        flags integer default 0);
//!      INSERT INTO bookmarks (URL, metadata, tags, desc, flags)
//!        VALUES ('https://www.rust-lang.org/', 'Rust', ',lang,systems,', 'A language', 1);",
//! )
//! .unwrap();
//! drop(conn);
//!
//! let bytes = std::fs::read(&path).unwrap();
//! assert_eq!(markport_buku::detect(&bytes), Some(100));
//! let doc = markport_buku::read_path(&path, &Default::default()).unwrap().document;
//! let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
//! assert_eq!(b.title.as_deref(), Some("Rust"));
//! assert_eq!(b.tags, ["lang", "systems"]);
//! assert_eq!(b.details().extra[0].name, "immutable");
//! ```

#![warn(missing_docs)]

mod rows;
mod schema;

use std::path::Path;

use markport_model::{Error, Parsed, ReadOptions};
use markport_places::open;

pub use schema::detect;

/// Read a buku database from its bytes (written to a private temporary
/// copy, which SQLite opens). Changes still in a `-wal` file are not in
/// the bytes: see [`read_path`].
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let opened = open::from_bytes(input)?;
    rows::read(&opened.conn, &mut opened.budget(opts))?.enforce(opts)
}

/// Read the buku database at `path` (with its `-wal` when there is one)
/// without writing or locking any of the user's files.
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<Parsed, Error> {
    let opened = open::from_path(path)?;
    rows::read(&opened.conn, &mut opened.budget(opts))?.enforce(opts)
}

/// This format as the registry lists it (`markport::format("buku")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "buku",
    "buku's bookmarks.db (SQLite), read in place without touching it",
    &["db"],
    detect,
    read,
)
.reads_paths(read_path);
