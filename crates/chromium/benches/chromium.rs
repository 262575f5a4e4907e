//! Read and write a generated 100,000-bookmark Chromium `Bookmarks` file.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::{
    Attribute, Bookmark, DateValue, Document, Folder, NodeId, ReadOptions, Role, Timestamp,
    WriteOptions,
};

/// `n` bookmarks in folders of 50, split between the bar and "Other
/// bookmarks", with titles in several scripts, added dates everywhere, a
/// last-used date and `meta_info` on every fifth.
fn collection(n: usize) -> Document {
    let mut doc = Document::new();
    let mut bar = Folder::titled("Bookmarks bar");
    bar.role = Some(Role::Toolbar);
    let bar = doc.push(None, bar);
    let mut other = Folder::titled("Other bookmarks");
    other.role = Some(Role::Unfiled);
    let other = doc.push(None, other);
    let titles = [
        "Rust & Go <news>",
        "Café crème — «recettes»",
        "書籍とノート",
        "Новости и статьи",
        "\"Quoted\" 'stuff' 🔖",
    ];
    let mut folder: NodeId = bar;
    for i in 0..n {
        if i % 50 == 0 {
            let root = if i < n / 2 { bar } else { other };
            folder = doc.push(Some(root), Folder::titled(format!("Folder {}", i / 50)));
        }
        let mut b = Bookmark::new(format!("https://example{}.org/path/{i}?q=x&r=y", i % 97))
            .with_title(format!("{} {i}", titles[i % titles.len()]));
        b.added = Timestamp::from_unix(1_600_000_000 + i as i64, (i as u32 % 1000) * 1000)
            .map(DateValue::Instant);
        if i % 5 == 0 {
            b.details_mut().visited =
                Timestamp::from_unix(1_700_000_000 + i as i64, 0).map(DateValue::Instant);
            b.details_mut()
                .meta_info
                .push(Attribute::new("last_visited_desktop", "13350000000000000"));
        }
        doc.push(Some(folder), b);
    }
    doc
}

fn bench(c: &mut Criterion) {
    let doc = collection(100_000);
    let mut file = Vec::new();
    markport_chromium::write(&doc, &WriteOptions::default(), &mut file).unwrap();
    let mut g = c.benchmark_group("chromium-100k");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(file.len() as u64));
    g.bench_function("read", |b| {
        b.iter_with_large_drop(|| markport_chromium::read(&file, &ReadOptions::default()).unwrap())
    });
    g.bench_function("write", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(file.len());
            markport_chromium::write(&doc, &WriteOptions::default(), &mut out).unwrap();
            out
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
