//! Firefox's `places.sqlite` for markport: read only.
//!
//! Firefox keeps bookmarks in an SQLite database (`moz_bookmarks`,
//! `moz_places`, `moz_keywords`, tags as folders under the tags root,
//! descriptions and other item annotations in `moz_items_annos`). This crate
//! reads it through SQLite itself (`rusqlite`, bundled: no system SQLite).
//!
//! The user's files are never written and never locked:
//! - [`read`] takes bytes, as every markport reader does: they are written to
//!   a private temporary directory and that copy is opened. A running
//!   Firefox's pending changes sit in the `-wal` file beside the database,
//!   which bytes alone cannot include: use [`read_path`] for a live profile.
//! - [`read_path`] opens the file itself with SQLite's `immutable=1` (no
//!   lock, no `-wal`/`-shm` created) when no `-wal` is beside it; when one is
//!   (Firefox is running, or crashed; even an empty one), the database and
//!   its `-wal` (and a hot `-journal`, which SQLite rolls back in the copy,
//!   so another program's uncommitted rows are not read) are copied to a
//!   temporary directory and the copy is opened, so the pending frames are
//!   read and nothing of the user's is touched. A path that is not a regular
//!   file (a pipe, as `<(cat places.sqlite)` gives) is copied as it is read.
//!
//! Every copy is made in a [`markport_files::private::PrivateDir`]: the
//! directory is the owner's alone (0700, its files 0600), and it is removed
//! when the read ends, however it ends; a program that handles SIGINT,
//! SIGTERM or SIGHUP removes it with
//! [`remove_all`](markport_files::private::remove_all) before exiting.
//!
//! ```no_run
//! let parsed = markport_places::read_path(
//!     "/home/me/.mozilla/firefox/abcd.default/places.sqlite".as_ref(),
//!     &Default::default(),
//! )
//! .unwrap();
//! println!("{} bookmarks", parsed.document.census().bookmarks);
//! ```
#![warn(missing_docs)]

pub mod open;
mod tree;

use std::path::Path;

use markport_model::{Error, Parsed, ReadOptions};

pub use open::{check_header, SQLITE_MAGIC};

/// How sure markport is that `input` is a places database: 100 for an SQLite
/// file naming `moz_bookmarks`, 20 for any other SQLite file (so that reading
/// it says what it is instead of "unknown format"), `None` otherwise.
///
/// ```
/// assert_eq!(markport_places::detect(b"<xbel/>"), None);
/// ```
pub fn detect(input: &[u8]) -> Option<u8> {
    if !input.starts_with(SQLITE_MAGIC) {
        return None;
    }
    // The schema lives in the database's first pages; a database whose
    // schema is still only in its -wal shows no table name at all, which is
    // why any SQLite file is claimed, less confidently.
    if memchr::memmem::find(input, b"moz_bookmarks").is_some() {
        Some(100)
    } else {
        Some(20)
    }
}

/// Read a places database from its bytes (written to a private temporary
/// copy, which SQLite opens). Pending changes in a `-wal` file are not in
/// the bytes: see [`read_path`].
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let conn = open::from_bytes(input)?;
    tree::read(&conn.conn, &mut conn.budget(opts))?.enforce(opts)
}

/// Read the places database at `path`, with the pending changes of its
/// `-wal` when there is one, without writing or locking any of the
/// profile's files.
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<Parsed, Error> {
    let conn = open::from_path(path)?;
    tree::read(&conn.conn, &mut conn.budget(opts))?.enforce(opts)
}

/// This format as the registry lists it (`markport::format("places")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "places",
    "Firefox's places.sqlite, read in place without touching the profile",
    &["sqlite"],
    detect,
    read,
)
.reads_paths(read_path);
