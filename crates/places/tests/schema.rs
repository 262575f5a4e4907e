//! Places-like databases made with rusqlite, following Firefox's schema
//! (toolkit/components/places/nsPlacesTables.h), for the reader's tests.

#![allow(dead_code)]

use rusqlite::{params, Connection};

pub const SCHEMA: &str = "
CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR,
  rev_host LONGVARCHAR, visit_count INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0 NOT NULL,
  typed INTEGER DEFAULT 0 NOT NULL, frecency INTEGER DEFAULT -1 NOT NULL,
  last_visit_date INTEGER, guid TEXT, foreign_count INTEGER DEFAULT 0 NOT NULL,
  url_hash INTEGER DEFAULT 0 NOT NULL, description TEXT, preview_image_url TEXT,
  site_name TEXT, origin_id INTEGER);
CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER DEFAULT NULL,
  parent INTEGER, position INTEGER, title LONGVARCHAR, keyword_id INTEGER, folder_type TEXT,
  dateAdded INTEGER, lastModified INTEGER, guid TEXT, syncStatus INTEGER NOT NULL DEFAULT 0,
  syncChangeCounter INTEGER NOT NULL DEFAULT 1);
CREATE TABLE moz_keywords (id INTEGER PRIMARY KEY AUTOINCREMENT, keyword TEXT UNIQUE,
  place_id INTEGER, post_data TEXT);
CREATE TABLE moz_anno_attributes (id INTEGER PRIMARY KEY, name VARCHAR(32) UNIQUE NOT NULL);
CREATE TABLE moz_items_annos (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL,
  anno_attribute_id INTEGER, content LONGVARCHAR, flags INTEGER DEFAULT 0,
  expiration INTEGER DEFAULT 0, type INTEGER DEFAULT 0, dateAdded INTEGER DEFAULT 0,
  lastModified INTEGER DEFAULT 0);
CREATE TABLE moz_annos (id INTEGER PRIMARY KEY, place_id INTEGER NOT NULL,
  anno_attribute_id INTEGER, content LONGVARCHAR, flags INTEGER DEFAULT 0,
  expiration INTEGER DEFAULT 0, type INTEGER DEFAULT 0, dateAdded INTEGER DEFAULT 0,
  lastModified INTEGER DEFAULT 0);
";

/// 2023-11-14T22:13:20Z in PRTime (microseconds).
pub const T0: i64 = 1_700_000_000_000_000;

/// The schema and Firefox's six roots (ids 1 to 6, as Firefox makes them).
pub fn places(conn: &Connection) {
    conn.execute_batch(SCHEMA).unwrap();
    let roots = [
        (1, 0, 0, "", "root________"),
        (2, 1, 0, "menu", "menu________"),
        (3, 1, 1, "toolbar", "toolbar_____"),
        (4, 1, 2, "tags", "tags________"),
        (5, 1, 3, "unfiled", "unfiled_____"),
        (6, 1, 4, "mobile", "mobile______"),
    ];
    for (id, parent, position, title, guid) in roots {
        conn.execute(
            "INSERT INTO moz_bookmarks (id, type, parent, position, title, dateAdded, lastModified, guid)
             VALUES (?1, 2, ?2, ?3, ?4, ?5, ?5, ?6)",
            params![id, parent, position, title, T0, guid],
        )
        .unwrap();
    }
}

/// A place (moz_places row) for `url`; returns its id.
pub fn place(conn: &Connection, url: &str, visited: Option<i64>) -> i64 {
    conn.execute(
        "INSERT INTO moz_places (url, last_visit_date) VALUES (?1, ?2)",
        params![url, visited],
    )
    .unwrap();
    conn.last_insert_rowid()
}

/// An item under `parent` at `position`; returns its id.
#[allow(clippy::too_many_arguments)]
pub fn item(
    conn: &Connection,
    kind: i64,
    fk: Option<i64>,
    parent: i64,
    position: i64,
    title: Option<&str>,
    added: i64,
    guid: &str,
) -> i64 {
    conn.execute(
        "INSERT INTO moz_bookmarks (type, fk, parent, position, title, dateAdded, lastModified, guid)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![kind, fk, parent, position, title, added, added + 1_000_000, guid],
    )
    .unwrap();
    conn.last_insert_rowid()
}

/// Tag `place` with `tag` the way Firefox does: a folder named after the
/// tag under the tags root (made once), holding an untitled bookmark of it.
pub fn tag(conn: &Connection, place: i64, tag: &str) {
    let folder: Option<i64> = conn
        .query_row(
            "SELECT id FROM moz_bookmarks WHERE parent = 4 AND title = ?1",
            [tag],
            |r| r.get(0),
        )
        .ok();
    let folder = folder.unwrap_or_else(|| {
        let n: i64 = conn
            .query_row(
                "SELECT count(*) FROM moz_bookmarks WHERE parent = 4",
                [],
                |r| r.get(0),
            )
            .unwrap();
        item(conn, 2, None, 4, n, Some(tag), T0, &format!("tag{n:09}"))
    });
    item(
        conn,
        1,
        Some(place),
        folder,
        0,
        None,
        T0,
        &format!("te{place:05}{tag:.5}"),
    );
}

/// An item annotation (`bookmarkProperties/description`, ...).
pub fn anno(conn: &Connection, item: i64, name: &str, content: &str) {
    conn.execute(
        "INSERT OR IGNORE INTO moz_anno_attributes (name) VALUES (?1)",
        [name],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO moz_items_annos (item_id, anno_attribute_id, content)
         SELECT ?1, id, ?2 FROM moz_anno_attributes WHERE name = ?3",
        params![item, content, name],
    )
    .unwrap();
}
