//! buku databases made to hang or mislead a reader: `bookmarks` as a view
//! over an endless query (with buku's `CREATE TABLE` hidden on the first
//! page in another table's default, so that it looks like buku's), as a
//! virtual table, with a computed column, and with triggers. Each is
//! refused, naming the table and what is wrong, at once (the read runs in a
//! thread and the test fails if it has not returned within a minute), or,
//! for triggers, which only a write could fire, read as the table it is.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use markport_model::{Error, ErrorKind, Parsed, ReadOptions};
use rusqlite::Connection;

/// buku's `CREATE TABLE`, as buku 5.1 runs it.
const BUKU: &str = "CREATE TABLE bookmarks (id integer PRIMARY KEY, \
    URL text NOT NULL UNIQUE, metadata text default '', tags text default ',', \
    desc text default '', flags integer default 0)";

/// How long a read may take before the test fails rather than hangs.
const BOUND: Duration = Duration::from_secs(60);

fn db(dir: &Path, name: &str, sql: &str) -> PathBuf {
    let path = dir.join(name);
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(sql).unwrap();
    drop(conn);
    path
}

/// Read `path` from its path and from its bytes, each in a thread bounded
/// by [`BOUND`]; both must give the same result.
fn read_both(path: &Path) -> (Result<Parsed, Error>, Duration) {
    let read = |from_bytes: bool| {
        let owned = path.to_path_buf();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let start = Instant::now();
            let result = if from_bytes {
                markport_buku::read(&std::fs::read(&owned).unwrap(), &ReadOptions::default())
            } else {
                markport_buku::read_path(&owned, &ReadOptions::default())
            };
            let _ = tx.send((result, start.elapsed()));
        });
        rx.recv_timeout(BOUND)
            .unwrap_or_else(|_| panic!("reading {path:?} still runs after {BOUND:?}"))
    };
    let (by_path, took) = read(false);
    let (by_bytes, _) = read(true);
    match (&by_path, &by_bytes) {
        (Ok(a), Ok(b)) => assert_eq!(a.document, b.document),
        (Err(a), Err(b)) => assert_eq!(a.message, b.message),
        _ => panic!("path and bytes disagree: {by_path:?} / {by_bytes:?}"),
    }
    (by_path, took)
}

/// The database: a view that never ends, found as buku by its
/// bytes before this was fixed.
fn endless_view(dir: &Path) -> PathBuf {
    db(
        dir,
        "bookmarks.db",
        &format!(
            "CREATE TABLE decoy (x TEXT DEFAULT '{BUKU}');
             CREATE VIEW bookmarks AS
               WITH RECURSIVE c(id, URL, metadata, tags, desc, flags) AS (
                 SELECT 1, 'https://e.example/', 't', ',a,', '', 0
                 UNION ALL
                 SELECT id + 1, URL || id, metadata, tags, desc, flags FROM c)
               SELECT * FROM c;"
        ),
    )
}

#[test]
fn a_view_over_an_endless_query_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = endless_view(dir.path());
    let (result, took) = read_both(&path);
    let err = result.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsafe);
    assert!(
        err.message
            .starts_with("`bookmarks` is a view, not a table"),
        "{}",
        err.message
    );
    // Refused from the schema, before any query: long before the time
    // limit (the message above would say so had it been reached).
    assert!(took < markport_places::open::TIME_LIMIT, "took {took:?}");
    // Nor is it taken for buku's database by its bytes: the statement on
    // its first page is text inside another table's, not a schema entry.
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(markport_buku::detect(&bytes), None);
}

#[test]
fn a_virtual_table_or_a_computed_column_in_the_place_of_buku_s_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let virt = db(
        dir.path(),
        "virtual.db",
        "CREATE VIRTUAL TABLE bookmarks USING fts5(id, URL, metadata, tags, desc, flags);
         INSERT INTO bookmarks VALUES (1, 'https://a.example/', 'A', ',', '', 0);",
    );
    let err = read_both(&virt).0.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsafe);
    assert!(
        err.message.starts_with("`bookmarks` is a virtual table"),
        "{}",
        err.message
    );

    // The title computed on every read from a URL made long.
    let computed = db(
        dir.path(),
        "computed.db",
        "CREATE TABLE bookmarks (id integer PRIMARY KEY, URL text NOT NULL UNIQUE,
           metadata text GENERATED ALWAYS AS (printf('%.*c', 100000000, 'x')) VIRTUAL,
           tags text default ',', desc text default '', flags integer default 0);
         INSERT INTO bookmarks (URL) VALUES ('https://a.example/');",
    );
    let err = read_both(&computed).0.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsafe);
    assert!(
        err.message
            .contains("table `bookmarks`: column `metadata` is computed when read"),
        "{}",
        err.message
    );
}

#[test]
fn a_table_without_buku_s_url_is_refused_naming_what_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(
        dir.path(),
        "nourl.db",
        "CREATE TABLE bookmarks (id integer PRIMARY KEY, link text, metadata text);
         INSERT INTO bookmarks VALUES (1, 'https://a.example/', 'A');",
    );
    let err = read_both(&path).0.unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    assert_eq!(
        err.message,
        "not a buku database: its `bookmarks` table has no `URL` column (it has id, link, metadata)"
    );
}

#[test]
fn triggers_never_run_and_the_file_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    // Triggers that would rewrite the table and fill another on any write.
    let path = db(
        dir.path(),
        "bookmarks.db",
        &format!(
            "{BUKU};
             CREATE TABLE log (n);
             INSERT INTO bookmarks (URL, metadata) VALUES ('https://a.example/', 'A');
             CREATE TRIGGER up AFTER UPDATE ON bookmarks BEGIN
               INSERT INTO log VALUES (1); END;
             CREATE TRIGGER ins AFTER INSERT ON bookmarks BEGIN
               UPDATE bookmarks SET metadata = 'changed'; END;
             CREATE TRIGGER del BEFORE DELETE ON bookmarks BEGIN
               SELECT raise(ABORT, 'no'); END;"
        ),
    );
    let before = std::fs::read(&path).unwrap();
    let parsed = read_both(&path).0.unwrap();
    let doc = &parsed.document;
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(
        (b.href.as_str(), b.title.as_deref()),
        ("https://a.example/", Some("A"))
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let beside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside, ["bookmarks.db"]);
}

/// Rows of a few bytes are bookmarks of a few hundred: a database of
/// 20,000 one-letter links reads within its own budget and is refused,
/// naming the row and the flag, within a smaller one.
#[test]
fn tiny_rows_are_charged_against_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let mut sql = format!("{BUKU};\nBEGIN;\n");
    for i in 0..20_000 {
        sql.push_str(&format!("INSERT INTO bookmarks (URL) VALUES ('{i}');\n"));
    }
    sql.push_str("COMMIT;");
    let path = db(dir.path(), "tiny.db", &sql);
    let (read, _) = read_both(&path);
    assert_eq!(read.unwrap().document.len(), 20_000);
    let mut small = ReadOptions::default();
    small.memory_budget = Some(1_000_000);
    let e = markport_buku::read_path(&path, &small).unwrap_err();
    assert_eq!(e.kind, markport_model::ErrorKind::Unsafe, "{e}");
    assert!(e.message.starts_with("bookmark id"), "{}", e.message);
    assert!(e.message.contains("--memory-budget"), "{}", e.message);
}
