//! buku databases made here with SQLite on buku's schema (the real buku's
//! own are read in crates/cli/tests/buku.rs): detection against Firefox's
//! places.sqlite and other SQLite files, the values of each column, old and
//! hand-made tables, and what is refused.

use std::path::{Path, PathBuf};

use markport_model::{ErrorKind, ReadOptions};
use rusqlite::Connection;

/// buku's `CREATE TABLE`, as buku 5.1 runs it.
const BUKU: &str = "CREATE TABLE if not exists bookmarks (id integer PRIMARY KEY, \
    URL text NOT NULL UNIQUE, metadata text default '', tags text default ',', \
    desc text default '', flags integer default 0)";

fn db(dir: &Path, name: &str, sql: &str) -> PathBuf {
    let path = dir.join(name);
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(sql).unwrap();
    drop(conn);
    path
}

#[test]
fn detection_tells_buku_from_places_and_other_sqlite_files() {
    let dir = tempfile::tempdir().unwrap();
    let buku = std::fs::read(db(dir.path(), "bookmarks.db", BUKU)).unwrap();
    let places = std::fs::read(db(
        dir.path(),
        "places.sqlite",
        "CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER,
           parent INTEGER, position INTEGER, title LONGVARCHAR, tags TEXT, desc TEXT,
           metadata TEXT, flags INTEGER, URL TEXT);",
    ))
    .unwrap();
    // A table called bookmarks that is not buku's.
    let other = std::fs::read(db(
        dir.path(),
        "other.db",
        "CREATE TABLE bookmarks (id INTEGER PRIMARY KEY, url TEXT, title TEXT);",
    ))
    .unwrap();
    assert_eq!(markport_buku::detect(&buku), Some(100));
    assert_eq!(markport_buku::detect(&places), None);
    assert_eq!(markport_buku::detect(&other), None);
    assert_eq!(markport_buku::detect(&buku[..16]), None);
    // The most confident wins: places claims any SQLite file at 20.
    assert!(markport_places::detect(&buku) < markport_buku::detect(&buku));
    // Only the first page is searched: the statement past it is not seen.
    let statement = BUKU.replace("if not exists ", "");
    let page = |page_size: u16, entry: &str| {
        let mut far = vec![0u8; 8192];
        far[..100].copy_from_slice(&buku[..100]);
        far[16..18].copy_from_slice(&page_size.to_be_bytes());
        far[5000..5000 + entry.len()].copy_from_slice(entry.as_bytes());
        far
    };
    // As a schema entry keeps it: type, name, table name, root page (2).
    let entry = format!("tablebookmarksbookmarks\x02{statement}");
    assert_eq!(markport_buku::detect(&page(4096, &entry)), None);
    assert_eq!(markport_buku::detect(&page(8192, &entry)), Some(100));
    // A root page of two bytes (256 and over), a name in capitals.
    let entry = format!("tablebookmarksBOOKMARKS\x01\x00{statement}");
    assert_eq!(markport_buku::detect(&page(8192, &entry)), Some(100));
    // The statement alone, as text inside another (a default value, a
    // comment), is not a schema entry.
    let entry = format!("x TEXT DEFAULT '{statement}'");
    assert_eq!(markport_buku::detect(&page(8192, &entry)), None);
}

#[test]
fn each_column_reads_into_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(
        dir.path(),
        "bookmarks.db",
        &format!(
            "{BUKU};
             INSERT INTO bookmarks VALUES (4, 'https://a.example/', 'A', ',x,y z,', 'Desc', 1);
             INSERT INTO bookmarks VALUES (2, 'https://b.example/', '', ',', '', 0);
             INSERT INTO bookmarks VALUES (9, 'https://c.example/', 'C', 'p,q', NULL, 3);
             INSERT INTO bookmarks VALUES (11, 'https://d.example/', X'4869FF', ',,t,,', 'd', 'odd');"
        ),
    );
    let parsed = markport_buku::read_path(&path, &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    let b: Vec<_> = doc
        .children(None)
        .iter()
        .map(|&id| doc.node(id).as_bookmark().unwrap())
        .collect();
    // In buku's order: its index.
    let ids: Vec<_> = b
        .iter()
        .map(|b| b.details().id.as_deref().unwrap())
        .collect();
    assert_eq!(ids, ["2", "4", "9", "11"]);
    let (b2, b4, b9, b11) = (b[0], b[1], b[2], b[3]);
    assert_eq!(b4.href, "https://a.example/");
    assert_eq!(b4.title.as_deref(), Some("A"));
    assert_eq!(b4.desc.as_deref(), Some("Desc"));
    assert_eq!(b4.tags, ["x", "y z"]);
    let extra = |b: &markport_model::Bookmark| -> Vec<(String, String)> {
        b.details()
            .extra
            .iter()
            .map(|a| (a.name.clone(), a.value.clone()))
            .collect()
    };
    assert_eq!(extra(b4), [("immutable".into(), "1".into())]);
    // Empty title, tags and description are none.
    assert_eq!((b2.title.as_ref(), b2.desc.as_ref()), (None, None));
    assert!(b2.tags.is_empty() && extra(b2).is_empty());
    // Tags without the outer commas; a bit buku does not define is kept.
    assert_eq!(b9.tags, ["p", "q"]);
    assert_eq!(
        extra(b9),
        [
            ("immutable".into(), "1".into()),
            ("flags".into(), "3".into())
        ]
    );
    // A blob title with a bad byte, empty tag pieces, flags not a number.
    assert_eq!(b11.title.as_deref(), Some("Hi\u{FFFD}"));
    assert_eq!(b11.tags, ["t"]);
    assert_eq!(extra(b11), [("flags".into(), "odd".into())]);
    let warnings: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].starts_with("bookmark id 9: flags 3"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].starts_with("bookmark id 11: flags \"odd\""),
        "{warnings:?}"
    );

    // Bytes read the same as the path.
    let bytes = std::fs::read(&path).unwrap();
    let from_bytes = markport_buku::read(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(from_bytes.document, parsed.document);
}

#[test]
fn an_old_table_without_flags_or_a_missing_url_still_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(
        dir.path(),
        "bookmarks.db",
        "CREATE TABLE bookmarks (id integer PRIMARY KEY, URL text, metadata text, tags text, desc text);
         INSERT INTO bookmarks VALUES (1, 'https://a.example/', 'A', ',t,', '');
         INSERT INTO bookmarks VALUES (2, NULL, 'no link', ',', '');",
    );
    let parsed = markport_buku::read_path(&path, &ReadOptions::default()).unwrap();
    assert_eq!(parsed.document.census().bookmarks, 1);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(
        parsed.diagnostics[0].message,
        "bookmark id 2 has no URL; skipped"
    );
    // --strict makes the warning an error.
    let mut strict = ReadOptions::default();
    strict.strict = true;
    assert!(markport_buku::read_path(&path, &strict).is_err());
}

#[test]
fn what_is_not_a_buku_database_is_refused_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let none = db(dir.path(), "none.db", "CREATE TABLE notes (x);");
    let err = markport_buku::read_path(&none, &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    assert!(
        err.message.contains("no `bookmarks` table"),
        "{}",
        err.message
    );

    let no_url = db(dir.path(), "nourl.db", "CREATE TABLE bookmarks (id, link);");
    let err = markport_buku::read_path(&no_url, &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    assert!(
        err.message.contains("no `URL` column (it has id, link)"),
        "{}",
        err.message
    );

    let err = markport_buku::read(b"plain text", &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    let bytes = std::fs::read(db(dir.path(), "b.db", BUKU)).unwrap();
    let err =
        markport_buku::read(&bytes[..bytes.len() / 2 + 7], &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Syntax);
}

#[test]
fn many_rows_and_long_values_read_whole() {
    // The hostile shapes (rows, one long tag list, a long URL) are timed in
    // scripts/bench-scaling.sh; here their values are checked.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bookmarks.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(BUKU).unwrap();
    conn.execute_batch("BEGIN").unwrap();
    for i in 0..5000 {
        conn.execute(
            "INSERT INTO bookmarks (URL, tags) VALUES (?1, ?2)",
            rusqlite::params![format!("https://example.org/{i}"), format!(",t{},", i % 7)],
        )
        .unwrap();
    }
    let tags: String = (0..20_000).map(|i| format!(",tag{i}")).collect::<String>() + ",";
    let long = format!("https://example.org/{}", "a".repeat(1 << 20));
    conn.execute(
        "INSERT INTO bookmarks (URL, tags) VALUES (?1, ?2)",
        rusqlite::params![long, tags],
    )
    .unwrap();
    conn.execute_batch("COMMIT").unwrap();
    drop(conn);
    let doc = markport_buku::read_path(&path, &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().bookmarks, 5001);
    let last = doc
        .node(*doc.children(None).last().unwrap())
        .as_bookmark()
        .unwrap();
    assert_eq!(last.href.len(), long.len());
    assert_eq!(last.tags.len(), 20_000);
    assert_eq!(last.tags[19_999], "tag19999");
}
