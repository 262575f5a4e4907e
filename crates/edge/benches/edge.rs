//! Reading a generated Collections database of 100,000 cards in 100
//! collections (each with its source JSON, a note on every fifth, one in
//! twenty in a second collection too), from its path as `markport convert
//! collectionsSQLite` does and from its bytes (a private copy first).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rusqlite::{params, Connection};

const N: usize = 100_000;
const COLLECTIONS: usize = 100;

fn generate(path: &std::path::Path) {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(
        "CREATE TABLE collections (id TEXT PRIMARY KEY, date_created REAL NOT NULL,
           date_modified REAL NOT NULL, title TEXT NOT NULL, position INTEGER NOT NULL,
           is_marked_for_deletion INTEGER);
         CREATE TABLE items (id TEXT PRIMARY KEY, date_created REAL NOT NULL,
           date_modified REAL NOT NULL, title TEXT, source BLOB, type TEXT,
           is_marked_for_deletion INTEGER);
         CREATE TABLE collections_items_relationship (item_id TEXT NOT NULL,
           parent_id TEXT NOT NULL, position INTEGER NOT NULL, is_marked_for_deletion INTEGER);
         CREATE TABLE comments (id TEXT PRIMARY KEY, parent_id TEXT, text TEXT,
           properties TEXT, is_marked_for_deletion INTEGER);
         BEGIN;",
    )
    .unwrap();
    for c in 0..COLLECTIONS {
        conn.execute(
            "INSERT INTO collections VALUES (?1, 1700000000000, 1700000000000, ?2, ?3, 0)",
            params![
                format!("c{c}"),
                format!("Collection {c}"),
                (COLLECTIONS - c) as i64
            ],
        )
        .unwrap();
    }
    for i in 0..N {
        let id = format!("8d7e{i:08}-1f2a-4b3c-9d8e-7f6a5b4c3d2e");
        let url = format!("https://example.org/{}/page-{i}?q=markport", i % 1000);
        let source = format!(
            "{{\"url\":\"{url}\",\"title\":\"A card titled {i}\",\"websiteName\":\"Example\"}}"
        );
        conn.execute(
            "INSERT INTO items VALUES (?1, 1700000000000, 1700000000000, ?2, ?3, 'website', 0)",
            params![id, format!("A card titled {i}"), source.into_bytes()],
        )
        .unwrap();
        let c = i % COLLECTIONS;
        conn.execute(
            "INSERT INTO collections_items_relationship VALUES (?1, ?2, ?3, 0)",
            params![id, format!("c{c}"), i as i64],
        )
        .unwrap();
        if i % 20 == 0 {
            conn.execute(
                "INSERT INTO collections_items_relationship VALUES (?1, ?2, ?3, 0)",
                params![id, format!("c{}", (c + 1) % COLLECTIONS), i as i64],
            )
            .unwrap();
        }
        if i % 5 == 0 {
            conn.execute(
                "INSERT INTO comments VALUES (?1, ?2, ?3, '{}', 0)",
                params![format!("n{i}"), id, format!("A note on card {i}")],
            )
            .unwrap();
        }
    }
    conn.execute_batch("COMMIT").unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("collectionsSQLite");
    generate(&path);
    let bytes = std::fs::read(&path).unwrap();
    let mut group = c.benchmark_group("edge");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    let n = markport_edge::read_path(&path, &Default::default())
        .unwrap()
        .document
        .census()
        .bookmarks;
    assert_eq!(n, N + N / 20);
    group.bench_function("read_path 105,000 cards", |b| {
        b.iter_with_large_drop(|| markport_edge::read_path(&path, &Default::default()).unwrap())
    });
    group.bench_function("read 105,000 cards from bytes", |b| {
        b.iter_with_large_drop(|| markport_edge::read(&bytes, &Default::default()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
