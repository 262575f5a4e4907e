//! What an opened database may do: a query that never ends is stopped at
//! the time limit with an error that says so, one whose temporary data
//! grows is stopped at SQLite's heap limit, that data never reaches a
//! file, and nothing can write (so no trigger runs). Tables are
//! looked up in SQLite's own schema: a view, a virtual table or a computed
//! column in a table's place is refused, naming it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use markport_model::ErrorKind;
use markport_places::open::{self, sqlite_error, HEAP_BASE, TIME_LIMIT};
use rusqlite::Connection;

/// How long a test waits for a read that should end before it fails
/// instead of hanging.
const BOUND: Duration = Duration::from_secs(60);

fn db(dir: &Path, name: &str, sql: &str) -> PathBuf {
    let path = dir.join(name);
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(sql).unwrap();
    drop(conn);
    path
}

/// Run `f` in a thread; fail the test if it has not returned within
/// [`BOUND`].
fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(BOUND)
        .unwrap_or_else(|_| panic!("still running after {BOUND:?}"))
}

/// The names of this process's open files that are SQLite's temporary
/// files (`etilqs_…`, removed from their directory as soon as made, so
/// only the descriptors show them).
fn sqlite_temp_files() -> Vec<String> {
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
        return Vec::new();
    };
    fds.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p.contains("etilqs_"))
        .collect()
}

/// A query that never ends, sorting what it makes (so SQLite needs
/// temporary storage, which grows as it runs): stopped at the heap limit,
/// before the time limit, its storage never in a file. Rows of a megabyte
/// (zeros behind a random key: no time spent making them) reach the limit
/// within a second, however loaded the machine.
#[test]
fn an_endless_sort_is_stopped_at_the_heap_limit_without_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(dir.path(), "a.sqlite", "CREATE TABLE t (x);");
    let watching = Arc::new(AtomicBool::new(true));
    let seen = {
        let watching = watching.clone();
        std::thread::spawn(move || {
            let mut seen = Vec::new();
            while watching.load(Ordering::Relaxed) {
                seen.extend(sqlite_temp_files());
                std::thread::sleep(Duration::from_millis(20));
            }
            seen
        })
    };
    let (err, _) = bounded(move || {
        // The limit runs from the open on.
        let start = Instant::now();
        let opened = open::from_path(&path).unwrap();
        let err = opened
            .conn
            .query_row(
                "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) \
                 SELECT n, randomblob(16) || zeroblob(1048576) AS r FROM c ORDER BY r",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(sqlite_error)
            .unwrap_err();
        (err, start.elapsed())
    });
    watching.store(false, Ordering::Relaxed);
    let mut seen = seen.join().unwrap();
    seen.dedup();
    assert_eq!(err.kind, ErrorKind::Unsafe);
    assert!(
        err.message.contains(&format!(
            "more memory than markport lets SQLite take ({} MiB",
            HEAP_BASE >> 20
        )),
        "{}",
        err.message
    );
    // The message says the heap limit stopped it, not the time limit
    // (whose own message the next test holds): no clock is read here, as
    // a loaded machine fills the heap slower.
    // SQLite's heap never went past the limit (the other tests of this
    // process open databases of a few pages: the limit is the base's).
    let most = unsafe { rusqlite::ffi::sqlite3_memory_highwater(0) };
    assert!(
        (most as u64) <= open::heap_limit(1 << 20),
        "SQLite held {most} bytes"
    );
    assert!(seen.is_empty(), "SQLite made temporary files: {seen:?}");
}

/// A query that never ends and keeps nothing: stopped at the time limit.
#[test]
fn an_endless_query_is_stopped_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(dir.path(), "a.sqlite", "CREATE TABLE t (x);");
    let (err, took) = bounded(move || {
        // The limit runs from the open on.
        let start = Instant::now();
        let opened = open::from_path(&path).unwrap();
        let err = opened
            .conn
            .query_row(
                "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) \
                 SELECT count(*) FROM c",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(sqlite_error)
            .unwrap_err();
        (err, start.elapsed())
    });
    assert_eq!(err.kind, ErrorKind::Unsafe);
    assert!(
        err.message.contains("took too long") && err.message.contains("time limit (5 s"),
        "{}",
        err.message
    );
    assert!(took >= TIME_LIMIT, "stopped after {took:?}");
    assert!(took < TIME_LIMIT * 3, "stopped only after {took:?}");
}

/// The same from bytes (a private copy): the copy's connection is held to
/// the same rules.
#[test]
fn a_copy_is_held_to_the_same_limit_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(
        dir.path(),
        "a.sqlite",
        "CREATE TABLE t (x); CREATE TABLE log (y);
         CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN INSERT INTO log VALUES (1); END;",
    );
    let bytes = std::fs::read(&path).unwrap();
    let err = bounded(move || {
        let opened = open::from_bytes(&bytes).unwrap();
        // No statement writes, so no trigger runs.
        let write = opened
            .conn
            .execute("INSERT INTO t VALUES (1)", [])
            .unwrap_err();
        assert!(write.to_string().contains("readonly"), "{write}");
        let n: i64 = opened
            .conn
            .query_row("SELECT count(*) FROM log", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0);
        opened
            .conn
            .query_row(
                "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) \
                 SELECT count(*) FROM c",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(sqlite_error)
            .unwrap_err()
    });
    assert!(err.message.contains("took too long"), "{}", err.message);
}

#[test]
fn a_view_a_virtual_table_or_a_computed_column_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(
        dir.path(),
        "a.sqlite",
        "CREATE TABLE real (id INTEGER PRIMARY KEY, url TEXT,
           twice TEXT GENERATED ALWAYS AS (url || url) VIRTUAL,
           kept TEXT GENERATED ALWAYS AS (upper(url)) STORED);
         CREATE VIEW Looks_Like AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c)
           SELECT n AS id FROM c;
         CREATE VIRTUAL TABLE words USING fts5(body);",
    );
    let opened = open::from_path(&path).unwrap();
    let conn = &opened.conn;
    assert!(open::table(conn, "absent").unwrap().is_none());

    let view = open::table(conn, "looks_like").unwrap_err();
    assert_eq!(view.kind, ErrorKind::Unsafe);
    assert!(
        view.message
            .starts_with("`Looks_Like` is a view, not a table"),
        "{}",
        view.message
    );
    let virt = open::table(conn, "words").unwrap_err();
    assert!(
        virt.message.starts_with("`words` is a virtual table"),
        "{}",
        virt.message
    );

    let real = open::table(conn, "REAL").unwrap().unwrap();
    assert_eq!(real.name, "real");
    assert!(real.has("URL").unwrap());
    assert!(!real.has("title").unwrap());
    // Computed when written: a stored value like any other.
    assert!(real.has("kept").unwrap());
    let computed = real.has("twice").unwrap_err();
    assert_eq!(computed.kind, ErrorKind::Unsafe);
    assert!(
        computed
            .message
            .contains("table `real`: column `twice` is computed when read"),
        "{}",
        computed.message
    );
    let missing = real.require(&["id", "title"]).unwrap_err();
    assert_eq!(missing.kind, ErrorKind::WrongFormat);
    assert_eq!(
        missing.message,
        "table `real` has no `title` column (it has id, url, twice, kept)"
    );
}

/// Read a places database's bytes in a thread bounded by [`BOUND`].
fn read_places(path: &Path) -> Result<markport_model::Parsed, markport_model::Error> {
    let bytes = std::fs::read(path).unwrap();
    bounded(move || markport_places::read(&bytes, &Default::default()))
}

const ENDLESS: &str = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c)";

#[test]
fn a_places_table_that_is_a_view_or_lacks_a_column_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    // moz_bookmarks itself a view that never ends.
    let path = db(
        dir.path(),
        "view.sqlite",
        &format!(
            "CREATE VIEW moz_bookmarks AS {ENDLESS}
               SELECT n AS id, 1 AS type, n AS fk, 0 AS parent FROM c;"
        ),
    );
    let err = read_places(&path).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsafe);
    assert!(
        err.message
            .starts_with("`moz_bookmarks` is a view, not a table"),
        "{}",
        err.message
    );

    // A real moz_bookmarks, the places it joins a view (once ignored, so
    // its bookmarks read without links).
    let path = db(
        dir.path(),
        "places.sqlite",
        &format!(
            "CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER,
               parent INTEGER, position INTEGER, title TEXT);
             INSERT INTO moz_bookmarks VALUES (1, 2, NULL, 0, 0, 'root');
             INSERT INTO moz_bookmarks VALUES (2, 1, 1, 1, 0, 'b');
             CREATE VIEW moz_places AS {ENDLESS} SELECT n AS id, 'https://e.example/' AS url FROM c;"
        ),
    );
    let err = read_places(&path).unwrap_err();
    assert!(
        err.message
            .starts_with("`moz_places` is a view, not a table"),
        "{}",
        err.message
    );

    // A side table without the column its query needs.
    let path = db(
        dir.path(),
        "roots.sqlite",
        "CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, type INTEGER, parent INTEGER);
         INSERT INTO moz_bookmarks VALUES (1, 2, 0);
         CREATE TABLE moz_bookmarks_roots (folder_id INTEGER, name TEXT);",
    );
    let err = read_places(&path).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    assert_eq!(
        err.message,
        "table `moz_bookmarks_roots` has no `root_name` column (it has folder_id, name)"
    );
}
