//! `check` reads a live Firefox profile as `convert` does: the changes
//! still pending in places.sqlite's `-wal` are checked with the rest.

#[path = "../../places/tests/schema.rs"]
mod schema;

use markport::Input;
use rusqlite::Connection;
use schema::{item, place, places, T0};

#[test]
fn a_problem_only_in_the_wal_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let firefox = Connection::open(&path).unwrap();
    // As Firefox keeps it: WAL, exclusive locking, no checkpoint while it
    // runs. One good bookmark in the database file ...
    firefox
        .execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA wal_autocheckpoint = 0;",
        )
        .unwrap();
    places(&firefox);
    let p = place(&firefox, "https://example.org/", None);
    item(&firefox, 1, Some(p), 3, 0, Some("fine"), T0, "bookmark0001");
    firefox
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
    // ... and one still in the -wal whose place is missing.
    let broken = item(
        &firefox,
        1,
        Some(9999),
        3,
        1,
        Some("lost"),
        T0,
        "bookmark0002",
    );
    assert!(
        std::fs::metadata(dir.path().join("places.sqlite-wal"))
            .unwrap()
            .len()
            > 0
    );

    let checked = markport_check::check_input(Input::Path(path.clone()), None).unwrap();
    assert_eq!(checked.from.format.name, "places");
    let said = format!("bookmark {broken} has no place");
    assert!(
        checked
            .problems
            .iter()
            .any(|p| p.rule == "reader/warning" && p.message.contains(&said)),
        "{:?}",
        checked.problems
    );

    // The database file's bytes alone do not hold it: the -wal is what
    // check read.
    let bytes = std::fs::read(&path).unwrap();
    let alone = markport_check::check_input(Input::Bytes(bytes), None).unwrap();
    assert!(
        !alone.problems.iter().any(|p| p.message.contains(&said)),
        "{:?}",
        alone.problems
    );
    drop(firefox);
}
