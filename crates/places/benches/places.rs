//! Reading a generated places database of 100,000 bookmarks (in 1,000
//! folders, a tenth of them tagged), from bytes as `markport convert` does.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rusqlite::{params, Connection};

fn generate() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR,
           last_visit_date INTEGER, guid TEXT);
         CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER,
           parent INTEGER, position INTEGER, title LONGVARCHAR, keyword_id INTEGER,
           dateAdded INTEGER, lastModified INTEGER, guid TEXT);
         CREATE TABLE moz_keywords (id INTEGER PRIMARY KEY, keyword TEXT UNIQUE, place_id INTEGER, post_data TEXT);
         BEGIN;
         INSERT INTO moz_bookmarks VALUES (1, 2, NULL, 0, 0, '', NULL, 1, 1, 'root________');
         INSERT INTO moz_bookmarks VALUES (2, 2, NULL, 1, 0, 'menu', NULL, 1, 1, 'menu________');
         INSERT INTO moz_bookmarks VALUES (3, 2, NULL, 1, 1, 'tags', NULL, 1, 1, 'tags________');
         INSERT INTO moz_bookmarks VALUES (4, 2, NULL, 3, 0, 'reading', NULL, 1, 1, 'tagreading00');",
    )
    .unwrap();
    let t0: i64 = 1_700_000_000_000_000;
    let mut next = 5;
    for f in 0..1_000 {
        let folder = next;
        next += 1;
        conn.execute(
            "INSERT INTO moz_bookmarks VALUES (?1, 2, NULL, 2, ?2, ?3, NULL, ?4, ?4, ?5)",
            params![
                folder,
                f,
                format!("Folder {f}"),
                t0,
                format!("folder{f:06}")
            ],
        )
        .unwrap();
        for b in 0..100 {
            let n = f * 100 + b;
            conn.execute(
                "INSERT INTO moz_places (id, url, title) VALUES (?1, ?2, ?3)",
                params![
                    n,
                    format!("https://example.org/{f}/page-{b}?q=markport"),
                    format!("Page {n}")
                ],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO moz_bookmarks VALUES (?1, 1, ?2, ?3, ?4, ?5, NULL, ?6, ?6, ?7)",
                params![
                    next,
                    n,
                    folder,
                    b,
                    format!("A bookmark titled {n}"),
                    t0 + n,
                    format!("bm{n:010}")
                ],
            )
            .unwrap();
            next += 1;
            if n % 10 == 0 {
                conn.execute(
                    "INSERT INTO moz_bookmarks VALUES (?1, 1, ?2, 4, ?3, NULL, NULL, ?4, ?4, ?5)",
                    params![next, n, n, t0, format!("tg{n:010}")],
                )
                .unwrap();
                next += 1;
            }
        }
    }
    conn.execute_batch("COMMIT").unwrap();
    drop(conn);
    std::fs::read(path).unwrap()
}

fn bench(c: &mut Criterion) {
    let bytes = generate();
    let mut group = c.benchmark_group("places");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    group.bench_function("read 100,000 bookmarks", |b| {
        b.iter(|| {
            let parsed = markport_places::read(&bytes, &Default::default()).unwrap();
            assert_eq!(parsed.document.census().bookmarks, 100_000);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
