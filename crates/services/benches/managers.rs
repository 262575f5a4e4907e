//! Reading generated 100,000-bookmark exports of each manager (Linkwarden,
//! Karakeep, wallabag, Omnivore), in the layouts of the corpus samples.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::{Error, Parsed, ReadOptions};
use markport_services::{karakeep, linkwarden, omnivore, wallabag};

const N: usize = 100_000;

fn linkwarden_json() -> Vec<u8> {
    let collections: Vec<String> = (0..100)
        .map(|c| {
            let links: Vec<String> = (0..N / 100)
                .map(|i| {
                    let n = c * (N / 100) + i;
                    format!(
                        "{{\"name\": \"Page {n}, a title\", \"type\": \"url\", \"description\": \"Notes on page {n}\", \"url\": \"https://example.org/{c}/page-{n}?q=markport\", \"textContent\": null, \"preview\": \"archives/preview/{c}/{n}.jpeg\", \"importDate\": null, \"createdAt\": \"2024-01-15T10:21:30.000Z\", \"updatedAt\": \"2024-01-15T10:22:00.000Z\", \"tags\": [{{\"name\": \"tag{}\", \"createdAt\": \"2024-01-15T10:21:30.000Z\"}}, {{\"name\": \"reading\"}}]}}",
                        n % 50
                    )
                })
                .collect();
            format!(
                "{{\"name\": \"Collection {c}\", \"description\": \"\", \"color\": \"#0ea5e9\", \"isPublic\": false, \"createdAt\": \"2024-01-15T10:21:00.000Z\", \"updatedAt\": \"2024-02-02T09:00:00.000Z\", \"links\": [{}]}}",
                links.join(",\n")
            )
        })
        .collect();
    format!(
        "{{\"name\": \"Ada\", \"username\": \"ada\", \"collections\": [{}], \"pinnedLinks\": [], \"whitelistedUsers\": []}}",
        collections.join(",\n")
    )
    .into_bytes()
}

fn karakeep_json() -> Vec<u8> {
    let bookmarks: Vec<String> = (0..N)
        .map(|i| {
            format!(
                "{{\"createdAt\": {}, \"title\": \"Page {i}, a title\", \"tags\": [\"tag{}\", \"reading\"], \"lists\": [\"l{}\"], \"content\": {{\"type\": \"link\", \"url\": \"https://example.org/{i}/page?q=markport\"}}, \"note\": \"Notes on page {i}\", \"archived\": false}}",
                1_700_000_000 + i,
                i % 50,
                i % 20
            )
        })
        .collect();
    let lists: Vec<String> = (0..20)
        .map(|l| format!("{{\"id\": \"l{l}\", \"name\": \"List {l}\", \"description\": null, \"icon\": \"📚\", \"type\": \"manual\", \"query\": null, \"parentId\": null}}"))
        .collect();
    format!(
        "{{\"bookmarks\": [{}], \"lists\": [{}]}}",
        bookmarks.join(",\n"),
        lists.join(",\n")
    )
    .into_bytes()
}

fn wallabag_json() -> Vec<u8> {
    let entries: Vec<String> = (0..N)
        .map(|i| {
            format!(
                "{{\"is_archived\": {}, \"is_starred\": 0, \"tags\": [\"tag{}\", \"reading\"], \"is_public\": false, \"id\": {i}, \"title\": \"Page {i}, a title\", \"url\": \"https://example.org/{i}/page?q=markport\", \"content\": \"<p>The saved article of page {i}.</p>\", \"created_at\": \"2023-01-12T10:44:39+01:00\", \"updated_at\": \"2023-01-13T08:00:00+01:00\", \"annotations\": [], \"mimetype\": \"text/html\", \"language\": \"en\", \"reading_time\": 3, \"domain_name\": \"example.org\"}}",
                i % 2,
                i % 50
            )
        })
        .collect();
    format!("[{}]", entries.join(",\n")).into_bytes()
}

fn omnivore_json() -> Vec<u8> {
    let items: Vec<String> = (0..N)
        .map(|i| {
            format!(
                "{{\"id\": \"0b7b3a4e-1c2d-4e5f-8a9b-{i:012}\", \"slug\": \"page-{i}-18c1f0a2b3c\", \"title\": \"Page {i}, a title\", \"description\": \"Notes on page {i}\", \"author\": null, \"url\": \"https://example.org/{i}/page?q=markport\", \"state\": \"Succeeded\", \"readingProgress\": 35, \"thumbnail\": null, \"labels\": [\"tag{}\", \"reading\"], \"savedAt\": \"2024-01-15T10:21:30.000Z\", \"updatedAt\": \"2024-01-16T08:00:00.000Z\", \"publishedAt\": null}}",
                i % 50
            )
        })
        .collect();
    format!("[{}]", items.join(",\n")).into_bytes()
}

type Reader = fn(&[u8], &ReadOptions) -> Result<Parsed, Error>;

fn bench(c: &mut Criterion) {
    let inputs: [(&str, Vec<u8>, Reader); 4] = [
        ("linkwarden", linkwarden_json(), linkwarden::read),
        ("karakeep", karakeep_json(), karakeep::read),
        ("wallabag", wallabag_json(), wallabag::read),
        ("omnivore", omnivore_json(), omnivore::read),
    ];
    let mut group = c.benchmark_group("managers");
    group.sample_size(10);
    for (name, bytes, read) in &inputs {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("read 100,000 bookmarks: {name}"), |b| {
            // The read alone: its result checked once, and each document
            // dropped outside the timing (dropping is the caller's, not
            // the reader's).
            assert_eq!(
                read(bytes, &ReadOptions::default())
                    .unwrap()
                    .document
                    .census()
                    .bookmarks,
                N
            );
            b.iter_with_large_drop(|| read(bytes, &ReadOptions::default()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
