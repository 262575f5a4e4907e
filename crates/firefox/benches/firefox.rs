//! Read and write a generated 100,000-bookmark Firefox backup, plain and
//! compressed; and write 20,000 bookmarks of one link, each with its own
//! tag, whose restore report (the shared tag rules,
//! `markport_model::firefox_tags`) must stay linear.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::{
    Bookmark, DateValue, Document, Folder, NodeId, ReadOptions, Role, Timestamp, WriteOptions,
};

/// `n` bookmarks in folders of 50 under the toolbar, with titles in several
/// scripts, tags, keywords on every tenth and descriptions on every third.
fn collection(n: usize) -> Document {
    let mut doc = Document::new();
    let mut toolbar = Folder::titled("toolbar");
    toolbar.role = Some(Role::Toolbar);
    let root = doc.push(None, toolbar);
    let titles = [
        "Rust & Go <news>",
        "Café crème — «recettes»",
        "書籍とノート",
        "Новости и статьи",
        "\"Quoted\" 'stuff'",
    ];
    let mut folder: NodeId = root;
    for i in 0..n {
        if i % 50 == 0 {
            folder = doc.push(Some(root), Folder::titled(format!("Folder {}", i / 50)));
        }
        let mut b = Bookmark::new(format!("https://example{}.org/path/{i}?q=x&r=y", i % 97))
            .with_title(format!("{} {i}", titles[i % titles.len()]));
        b.added = Timestamp::from_unix(1_600_000_000 + i as i64, (i as u32 % 1000) * 1000)
            .map(DateValue::Instant);
        b.tags = vec!["rust".into(), format!("t{}", i % 13)];
        if i % 3 == 0 {
            b.desc = Some(format!("A description of bookmark {i}, with some words."));
        }
        if i % 10 == 0 {
            b.details_mut().firefox_mut().keyword = Some(format!("k{i}"));
        }
        doc.push(Some(folder), b);
    }
    doc
}

fn bench(c: &mut Criterion) {
    let doc = collection(100_000);
    let mut plain = Vec::new();
    markport_firefox::write(&doc, &WriteOptions::default(), &mut plain).unwrap();
    let mut opts = WriteOptions::default();
    opts.firefox.compress = true;
    let mut lz4 = Vec::new();
    markport_firefox::write(&doc, &opts, &mut lz4).unwrap();
    let mut g = c.benchmark_group("firefox-100k");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(plain.len() as u64));
    g.bench_function("read", |b| {
        b.iter_with_large_drop(|| markport_firefox::read(&plain, &ReadOptions::default()).unwrap())
    });
    // Throughput counts the decompressed JSON, to compare with plain reading.
    g.bench_function("read-jsonlz4", |b| {
        b.iter_with_large_drop(|| markport_firefox::read(&lz4, &ReadOptions::default()).unwrap())
    });
    g.bench_function("write", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(plain.len());
            markport_firefox::write(&doc, &WriteOptions::default(), &mut out).unwrap();
            out
        })
    });
    g.finish();
    // Firefox gives every bookmark of a link the tags of all of them: a
    // link's list must be made once, not once per bookmark.
    let mut one = Document::new();
    for i in 0..20_000 {
        let mut b = Bookmark::new("https://example.org/");
        b.tags = vec![format!("t{i}")];
        one.push(None, b);
    }
    let mut g = c.benchmark_group("firefox-one-link-20k");
    g.sample_size(10);
    g.bench_function("write", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            markport_firefox::write(&one, &WriteOptions::default(), &mut out).unwrap();
            out
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
