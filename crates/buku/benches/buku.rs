//! Reading a generated buku database of 100,000 bookmarks (titles, two or
//! three tags, a description on every third, an immutable title on every
//! tenth), from its path as `markport convert bookmarks.db` does and from
//! its bytes (a private copy first) as standard input is read.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rusqlite::{params, Connection};

const N: usize = 100_000;

fn generate(path: &std::path::Path) {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(
        "CREATE TABLE bookmarks (id integer PRIMARY KEY, URL text NOT NULL UNIQUE,
           metadata text default '', tags text default ',', desc text default '',
           flags integer default 0);
         BEGIN;",
    )
    .unwrap();
    let mut insert = conn
        .prepare(
            "INSERT INTO bookmarks (URL, metadata, tags, desc, flags) VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .unwrap();
    for i in 0..N {
        let tags = if i % 2 == 0 {
            format!(",reading,tag{},", i % 50)
        } else {
            format!(",reading,tag{},work,", i % 50)
        };
        let desc = if i % 3 == 0 {
            format!("Notes on page {i}, kept in buku")
        } else {
            String::new()
        };
        insert
            .execute(params![
                format!("https://example.org/{}/page-{i}?q=markport", i % 1000),
                format!("A bookmark titled {i}"),
                tags,
                desc,
                i64::from(i % 10 == 0)
            ])
            .unwrap();
    }
    drop(insert);
    conn.execute_batch("COMMIT").unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bookmarks.db");
    generate(&path);
    let bytes = std::fs::read(&path).unwrap();
    let mut group = c.benchmark_group("buku");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    group.bench_function("read_path 100,000 bookmarks", |b| {
        // The read alone (see the other benches).
        assert_eq!(
            markport_buku::read_path(&path, &Default::default())
                .unwrap()
                .document
                .census()
                .bookmarks,
            N
        );
        b.iter_with_large_drop(|| markport_buku::read_path(&path, &Default::default()).unwrap())
    });
    group.bench_function("read 100,000 bookmarks from bytes", |b| {
        // The read alone (see the other benches).
        assert_eq!(
            markport_buku::read(&bytes, &Default::default())
                .unwrap()
                .document
                .census()
                .bookmarks,
            N
        );
        b.iter_with_large_drop(|| markport_buku::read(&bytes, &Default::default()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
