//! Edge's Collections as markport reads them: the corpus sample (made by
//! scripts/make-edge-collections.py), what is skipped and reported, tables
//! that are not what they claim, and a card listed many times.

use std::path::{Path, PathBuf};

use markport_model::{Document, ErrorKind, ReadOptions, Severity};
use rusqlite::Connection;

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/edge/collectionsSQLite")
}

/// Each collection's title with its bookmarks' `href|title`.
fn outline(doc: &Document) -> Vec<(String, Vec<String>)> {
    doc.children(None)
        .iter()
        .map(|&f| {
            let links = doc
                .children(Some(f))
                .iter()
                .filter_map(|&id| doc.node(id).as_bookmark())
                .map(|b| format!("{}|{}", b.href, b.title.as_deref().unwrap_or("")))
                .collect();
            (doc.node(f).title().unwrap_or("").to_string(), links)
        })
        .collect()
}

/// A database of Edge's three tables (few columns), with `rows` run after.
fn database(dir: &Path, rows: &str) -> PathBuf {
    let path = dir.join("collectionsSQLite");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(&format!(
        "CREATE TABLE collections (id TEXT PRIMARY KEY, title TEXT NOT NULL, position INTEGER);
         CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT, source BLOB, type TEXT);
         CREATE TABLE collections_items_relationship (item_id TEXT, parent_id TEXT, position INTEGER);
         {rows}"
    ))
    .unwrap();
    path
}

#[test]
fn the_sample_reads_collections_in_order_with_shared_cards_and_notes() {
    let parsed = markport_edge::read_path(&sample(), &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    assert_eq!(
        outline(doc),
        [
            (
                "Trip to Lisbon".to_string(),
                vec![
                    "https://transit.example.pt/tram/28?lang=en|Tram 28 – timetable".to_string(),
                    "https://food.example.com/pasteis-de-nata|Pastéis de nata, the recipe"
                        .to_string()
                ]
            ),
            (
                "Reading list".to_string(),
                vec![
                    "https://essays.example.org/reading-slowly|On reading slowly".to_string(),
                    "https://food.example.com/pasteis-de-nata|Pastéis de nata, the recipe"
                        .to_string()
                ]
            ),
            ("Empty for now".to_string(), vec![]),
        ]
    );
    // The two notes on the card, in order, on both of its copies.
    let notes: Vec<_> = doc
        .bookmarks()
        .filter_map(|(_, b)| b.desc.as_deref())
        .collect();
    assert_eq!(
        notes,
        ["Best warm, with cinnamon.\n\nThe bakery near the tram stop opens at 8."; 2]
    );
    // Milliseconds and seconds read as the same kind of instant.
    let essay = doc
        .bookmarks()
        .find(|(_, b)| b.href.contains("essays"))
        .unwrap()
        .1;
    assert_eq!(
        essay.added.as_ref().unwrap().instant().unwrap().to_w3c(),
        "2023-11-14T22:16:40Z"
    );
    let said: Vec<(Severity, &str)> = parsed
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.message.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            (Severity::Note, "skipped what Edge marked for deletion: 1 collection, 2 cards"),
            (
                Severity::Warning,
                "collection \"Trip to Lisbon\": annotation \"Packing list\" (item \"i-note\") has no link; skipped"
            )
        ]
    );
    // From its bytes (a private copy), the same.
    let bytes = std::fs::read(sample()).unwrap();
    assert_eq!(markport_edge::detect(&bytes), Some(100));
    let again = markport_edge::read(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(&again.document, doc);
}

#[test]
fn a_database_that_is_not_edges_or_hides_a_view_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.sqlite");
    Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE collections (id TEXT, title TEXT);")
        .unwrap();
    let e = markport_edge::read_path(&path, &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::WrongFormat);
    assert!(e.message.contains("no `items` table"), "{e}");

    // A view in the place of a table would run its own query: refused.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("view.sqlite");
    Connection::open(&path)
        .unwrap()
        .execute_batch(
            "CREATE TABLE collections (id TEXT PRIMARY KEY, title TEXT NOT NULL, position INTEGER);
             CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT, source BLOB);
             CREATE VIEW collections_items_relationship AS
               WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
               SELECT 'i' AS item_id, 'c' AS parent_id, x AS position FROM n;",
        )
        .unwrap();
    let e = markport_edge::read_path(&path, &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe, "{e}");
}

#[test]
fn a_card_listed_by_many_rows_is_charged_each_time() {
    let dir = tempfile::tempdir().unwrap();
    let title = "t".repeat(1000);
    let path = database(
        dir.path(),
        &format!(
            "INSERT INTO collections VALUES ('c', 'Many', 0);
             INSERT INTO items VALUES ('i', '{title}', CAST('{{\"url\":\"https://a.example/\"}}' AS BLOB), 'website');
             WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 20000)
             INSERT INTO collections_items_relationship SELECT 'i', 'c', x FROM n;"
        ),
    );
    let mut opts = ReadOptions::default();
    opts.memory_budget = Some(4 << 20);
    let e = markport_edge::read_path(&path, &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    assert!(e.message.contains("--memory-budget"), "{e}");
    assert!(e.message.contains("collection \"Many\", item \"i\""), "{e}");
    // Within the default budget every listing is a bookmark.
    let doc = markport_edge::read_path(&path, &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().bookmarks, 20_000);
}

#[test]
fn a_card_whose_item_is_missing_or_whose_source_is_not_json_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = database(
        dir.path(),
        "INSERT INTO collections VALUES ('c', 'C', 0);
         INSERT INTO items VALUES ('bad', 'Bad', CAST('{url' AS BLOB), 'website');
         INSERT INTO collections_items_relationship VALUES ('gone', 'c', 0), ('bad', 'c', 1);",
    );
    let parsed = markport_edge::read_path(&path, &ReadOptions::default()).unwrap();
    assert_eq!(parsed.document.census().bookmarks, 0);
    let said: Vec<&str> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        said,
        [
            "collection \"C\" lists item \"gone\", which is not in `items`; skipped",
            "collection \"C\": website \"Bad\" (item \"bad\") has no link; skipped"
        ]
    );
}

#[test]
fn a_big_card_listed_many_times_is_refused_by_the_budget_not_by_sqlite() {
    // Only the listing's keys are sorted: the card's 1 MB title never goes
    // through SQLite's sorter, whose heap is capped.
    let dir = tempfile::tempdir().unwrap();
    let title = "t".repeat(1 << 20);
    let path = database(
        dir.path(),
        &format!(
            "INSERT INTO collections VALUES ('c', 'Big', 0);
             INSERT INTO items VALUES ('i', '{title}', CAST('{{\"url\":\"https://a.example/\"}}' AS BLOB), 'website');
             WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 2000)
             INSERT INTO collections_items_relationship SELECT 'i', 'c', x FROM n;"
        ),
    );
    let e = markport_edge::read_path(&path, &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    assert!(e.message.contains("--memory-budget"), "{e}");
    assert!(e.message.contains("collection \"Big\""), "{e}");
}
