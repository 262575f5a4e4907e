//! Reading a generated zen-sessions.jsonlz4 of 100,000 pinned tabs in 20
//! workspaces (each with three history entries and its pinned entry, a
//! label on every third, one in ten in a Zen folder and one in ten in a
//! folder nested in it, placed by `prevSiblingInfo`, each folder with its
//! placeholder tab) and 10,000 ordinary tabs, compressed as Zen writes it,
//! and the same JSON uncompressed.

use std::fmt::Write;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 100_000;
const SPACES: usize = 20;

fn generate() -> Vec<u8> {
    let mut out = String::from("{\"spaces\": [");
    for s in 0..SPACES {
        write!(out, "{{\"uuid\": \"{{w{s}}}\", \"name\": \"Workspace {s}\", \"icon\": \"x\", \"position\": {s}}},").unwrap();
    }
    out.pop();
    out.push_str("], \"folders\": [");
    for s in 0..SPACES {
        write!(out, "{{\"id\": \"f{s}\", \"name\": \"Folder {s}\", \"parentId\": null, \"workspaceId\": \"{{w{s}}}\", \"prevSiblingInfo\": {{\"type\": \"start\", \"id\": null}}, \"emptyTabIds\": [\"ef{s}\"]}},").unwrap();
        write!(out, "{{\"id\": \"g{s}\", \"name\": \"Nested {s}\", \"parentId\": \"f{s}\", \"workspaceId\": \"{{w{s}}}\", \"prevSiblingInfo\": {{\"type\": \"tab\", \"id\": \"ef{s}\"}}, \"emptyTabIds\": [\"eg{s}\"]}},").unwrap();
    }
    out.pop();
    out.push_str("], \"tabs\": [");
    for s in 0..SPACES {
        for f in ["f", "g"] {
            write!(out, "{{\"entries\": [{{\"url\": \"about:blank\"}}], \"index\": 1, \"pinned\": true, \"zenIsEmpty\": true, \"groupId\": \"{f}{s}\", \"zenWorkspace\": \"{{w{s}}}\", \"zenSyncId\": \"e{f}{s}\"}},").unwrap();
        }
    }
    for i in 0..N + N / 10 {
        let s = i % SPACES;
        let url = format!("https://example.org/{}/page-{i}?q=markport", i % 1000);
        let entries = (0..3)
            .map(|k| format!("{{\"url\": \"{url}&step={k}\", \"title\": \"A page titled {i}, step {k}\", \"charset\": \"UTF-8\", \"ID\": {k}}}"))
            .collect::<Vec<_>>()
            .join(", ");
        let pinned = i < N;
        let label = if i % 3 == 0 {
            ", \"zenStaticLabel\": \"Renamed\""
        } else {
            ""
        };
        let group = match i % 10 {
            0 => format!(", \"groupId\": \"f{s}\""),
            5 => format!(", \"groupId\": \"g{s}\""),
            _ => String::new(),
        };
        write!(
            out,
            "{{\"entries\": [{entries}], \"index\": 3, \"pinned\": {pinned}, \"zenWorkspace\": \"{{w{s}}}\", \"zenSyncId\": \"{i}\", \"lastAccessed\": 1764000001000{label}{group}, \"_zenPinnedInitialState\": {{\"entry\": {{\"url\": \"{url}\", \"title\": \"A page titled {i}\"}}}}}},"
        )
        .unwrap();
    }
    out.pop();
    out.push_str("]}");
    out.into_bytes()
}

fn bench(c: &mut Criterion) {
    let json = generate();
    let lz4 = markport_firefox::lz4::compress(&json).unwrap();
    let mut group = c.benchmark_group("zen");
    group.sample_size(10);
    for (name, bytes) in [("jsonlz4", &lz4), ("json", &json)] {
        let parsed = markport_zen::read(bytes, &Default::default()).unwrap();
        assert_eq!(parsed.document.census().bookmarks, N);
        // Throughput in the JSON's bytes, whichever form is read.
        group.throughput(Throughput::Bytes(json.len() as u64));
        group.bench_function(format!("read 100,000 pinned tabs ({name})"), |b| {
            b.iter_with_large_drop(|| markport_zen::read(bytes, &Default::default()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
