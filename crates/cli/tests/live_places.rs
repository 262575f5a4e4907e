//! `convert` of a live Firefox profile: the same bookmarks as `info`, with
//! the pending changes of the `-wal` and without the uncommitted rows of
//! another program's unfinished transaction (a hot rollback `-journal`).
//! The databases are made here with rusqlite on Firefox's schema.

#[path = "../../places/tests/schema.rs"]
mod schema;

use std::path::Path;

use rusqlite::Connection;
use schema::{item, place, places, T0};
use serde_json::Value;

mod common;

use common::markport;

/// `count` bookmarks in the toolbar, numbered from `first`.
fn bookmarks(conn: &Connection, first: usize, count: usize) {
    for i in first..first + count {
        let p = place(conn, &format!("https://example.org/{i}"), None);
        item(
            conn,
            1,
            Some(p),
            3,
            i as i64,
            Some(&format!("bookmark {i}")),
            T0,
            &format!("bookmark{i:04}"),
        );
    }
}

/// How many bookmarks `info` counts in `file`.
fn info_count(file: &Path) -> u64 {
    let out = markport()
        .args(["info", "--json"])
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    info["bookmarks"].as_u64().unwrap()
}

/// How many bookmarks `convert --to json` writes for `file` (read back
/// with `info`).
fn converted_count(file: &Path) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let run = markport()
        .arg("convert")
        .arg(file)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    info_count(&out)
}

#[test]
fn convert_writes_the_bookmarks_pending_in_the_wal_as_info_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let firefox = Connection::open(&path).unwrap();
    // As Firefox keeps it: WAL, exclusive locking, six bookmarks in the
    // database file and the seventh still in the -wal.
    firefox
        .execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA wal_autocheckpoint = 0;",
        )
        .unwrap();
    places(&firefox);
    bookmarks(&firefox, 0, 6);
    firefox
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
    bookmarks(&firefox, 6, 1);
    assert!(
        std::fs::metadata(dir.path().join("places.sqlite-wal"))
            .unwrap()
            .len()
            > 0
    );

    assert_eq!(info_count(&path), 7);
    assert_eq!(
        converted_count(&path),
        7,
        "convert reads the -wal as info does"
    );
    drop(firefox);
}

#[test]
fn convert_leaves_out_the_rows_of_an_unfinished_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live");
    std::fs::create_dir(&live).unwrap();
    let path = live.join("places.sqlite");
    let writer = Connection::open(&path).unwrap();
    writer
        .execute_batch("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1;")
        .unwrap();
    places(&writer);
    bookmarks(&writer, 0, 6);
    // Another program mid-write: a transaction big enough to spill its
    // pages into the database file before it commits, its rollback
    // journal beside it.
    writer.execute_batch("BEGIN").unwrap();
    bookmarks(&writer, 6, 2_000);
    let journal = live.join("places.sqlite-journal");
    assert!(journal.exists(), "the transaction keeps a rollback journal");
    // The files as they are on disk at this moment, without the writer's
    // lock: the journal is hot.
    let copy = dir.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(&path, copy.join("places.sqlite")).unwrap();
    std::fs::copy(&journal, copy.join("places.sqlite-journal")).unwrap();
    writer.execute_batch("ROLLBACK").unwrap();
    drop(writer);

    let hot = copy.join("places.sqlite");
    assert_eq!(info_count(&hot), 6);
    assert_eq!(converted_count(&hot), 6, "no uncommitted row is exported");
}

/// `markport convert <(cat places.sqlite)`: the path is a pipe, which can
/// be read only once and has no `-wal` beside it; its bytes are read
/// (into a private copy) instead of being called "not an SQLite database".
#[cfg(unix)]
#[test]
fn a_database_through_a_pipe_path_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let conn = Connection::open(&path).unwrap();
    places(&conn);
    bookmarks(&conn, 0, 3);
    drop(conn);
    let bytes = std::fs::read(&path).unwrap();
    for (command, flags) in [
        ("convert", &["--to", "json"][..]),
        ("convert", &["--from", "places", "--to", "json"][..]),
        ("info", &["--json"][..]),
    ] {
        // /dev/stdin on a pipe is what `<(...)` gives: /dev/fd/N, a pipe.
        let out = markport()
            .arg(command)
            .arg("/dev/stdin")
            .args(flags)
            .write_stdin(bytes.clone())
            .output()
            .unwrap();
        assert!(out.status.success(), "{command} {flags:?}: {out:?}");
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        let count = match command {
            "info" => json["bookmarks"].as_u64().unwrap(),
            _ => json.to_string().matches("https://example.org/").count() as u64,
        };
        assert_eq!(count, 3, "{command} {flags:?}");
    }
}
