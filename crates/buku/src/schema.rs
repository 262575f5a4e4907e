//! Is it buku's database? By its bytes (the schema's text on the first
//! page) for detection, and by SQLite's own account of the table's columns
//! when reading.

use std::collections::HashSet;

use markport_model::{Error, ErrorKind};
use markport_places::open::{self, SQLITE_MAGIC};
use rusqlite::Connection;

/// The columns buku's `bookmarks` table has, in buku's order.
pub(crate) const COLUMNS: [&str; 6] = ["id", "URL", "metadata", "tags", "desc", "flags"];

/// How far past `CREATE TABLE bookmarks` the column names are looked for:
/// buku's statement is under 200 bytes.
const STATEMENT_WINDOW: usize = 512;

/// How sure markport is that `input` is a buku database: 100 for an SQLite
/// file whose first page holds, as a schema entry (not as text inside
/// another), `CREATE TABLE bookmarks (` followed by buku's column names;
/// `None` otherwise (Firefox's places.sqlite, whose table is
/// `moz_bookmarks`, included; any other SQLite file is claimed, weakly, by
/// the places reader, which says what it is).
///
/// The schema (the `sqlite_master` table) starts on the first page, whose
/// size the header gives: only that page is searched, so detection costs
/// at most 64 KiB whatever the file's size.
///
/// ```
/// assert_eq!(markport_buku::detect(b"SQLite format 3\0"), None);
/// assert_eq!(markport_buku::detect(b"<xbel/>"), None);
/// ```
pub fn detect(input: &[u8]) -> Option<u8> {
    if !input.starts_with(SQLITE_MAGIC) || input.len() < 18 {
        return None;
    }
    let raw = usize::from(u16::from_be_bytes([input[16], input[17]]));
    let page = if raw == 1 { 65536 } else { raw.max(512) };
    let first = &input[..input.len().min(page)];
    let finder = memchr::memmem::Finder::new(b"CREATE TABLE ");
    finder
        .find_iter(first)
        .any(|at| is_schema_entry(&first[..at]) && is_buku_table(&first[at + 13..]))
        .then_some(100)
}

/// Whether the bytes before a `CREATE TABLE` end as a schema entry's do
/// before its statement: SQLite keeps a table's entry as its type
/// (`table`), name and table name, then its root page (an integer of one to
/// four bytes, never 0 or 1), then the statement. Text that only quotes
/// buku's statement (another table's default value, say) is not preceded
/// so. This is a cheap look at bytes, not a proof: a file made to pass it
/// is still refused by the read, which asks SQLite what `bookmarks` is.
fn is_schema_entry(before: &[u8]) -> bool {
    const ENTRY: &[u8] = b"tablebookmarksbookmarks";
    (1..=4).any(|root_page_len| {
        before
            .len()
            .checked_sub(root_page_len + ENTRY.len())
            .is_some_and(|start| before[start..start + ENTRY.len()].eq_ignore_ascii_case(ENTRY))
    })
}

/// Whether `rest` (what follows `CREATE TABLE `) names the table
/// `bookmarks` and, within the statement, each of buku's columns.
fn is_buku_table(rest: &[u8]) -> bool {
    let name_end = rest
        .iter()
        .position(|&b| b == b'(' || b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let name = rest[..name_end].trim_ascii();
    let name = name
        .strip_prefix(b"\"")
        .and_then(|n| n.strip_suffix(b"\""))
        .or_else(|| name.strip_prefix(b"`").and_then(|n| n.strip_suffix(b"`")))
        .or_else(|| name.strip_prefix(b"[").and_then(|n| n.strip_suffix(b"]")))
        .unwrap_or(name);
    if !name.eq_ignore_ascii_case(b"bookmarks") {
        return false;
    }
    let body = &rest[name_end..rest.len().min(name_end + STATEMENT_WINDOW)];
    let lower = body.to_ascii_lowercase();
    COLUMNS
        .iter()
        .all(|c| memchr::memmem::find(&lower, c.to_ascii_lowercase().as_bytes()).is_some())
}

/// The columns of `bookmarks` that buku's reader uses, checked against
/// SQLite's own description of the table ([`open::table`]): no `bookmarks`
/// table, or one without `URL`, is not buku's database
/// ([`ErrorKind::WrongFormat`]); a view or a virtual table in its place, or
/// a column computed when read, is refused ([`ErrorKind::Unsafe`]). The
/// other columns may be missing (a database from an old buku, or made by
/// hand); each missing one reads as empty.
pub(crate) fn columns(conn: &Connection) -> Result<HashSet<String>, Error> {
    let Some(table) = open::table(conn, "bookmarks")? else {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not a buku database: it has no `bookmarks` table",
            None,
        ));
    };
    if table.columns().next().is_none() {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not a buku database: its `bookmarks` table has no columns",
            None,
        ));
    }
    let mut found = HashSet::new();
    for c in COLUMNS {
        // SQLite's column names are case-insensitive: matched so, but
        // buku's spelling is kept for the query.
        if table.has(c)? {
            found.insert(c.to_string());
        }
    }
    if !found.contains("URL") {
        let has: Vec<&str> = table.columns().collect();
        return Err(Error::new(
            ErrorKind::WrongFormat,
            format!(
                "not a buku database: its `bookmarks` table has no `URL` column (it has {})",
                has.join(", ")
            ),
            None,
        ));
    }
    Ok(found)
}
