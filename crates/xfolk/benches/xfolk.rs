//! Publish a 10,000-bookmark collection as a page, and read the page back.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::{Bookmark, Document, Folder, ReadOptions, WriteOptions};

fn collection(n: usize) -> Document {
    let mut doc = Document::new();
    doc.header.title = Some("Benchmark".into());
    let mut folder = None;
    for i in 0..n {
        if i % 100 == 0 {
            folder = Some(doc.push(
                None,
                Folder::titled(format!("Folder {} — «{}»", i / 100, i % 7)),
            ));
        }
        let mut b = Bookmark::new(format!("https://example{}.org/a/{i}?x=1&y=2", i % 13));
        b.title = Some(format!("Entry {i}: <café> & \"friends\""));
        b.desc = Some(format!("Notes on {i}.\nSecond line.\n\nAnother paragraph."));
        b.tags = vec!["reading".into(), format!("topic {}", i % 20)];
        doc.push(folder, b);
    }
    doc
}

fn bench(c: &mut Criterion) {
    let doc = collection(10_000);
    let mut page = Vec::new();
    markport_xfolk::write(&doc, &WriteOptions::default(), &mut page).unwrap();
    let mut g = c.benchmark_group("xfolk-10k");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(page.len() as u64));
    g.bench_function("read", |b| {
        b.iter(|| markport_xfolk::read(&page, &ReadOptions::default()).unwrap())
    });
    g.bench_function("write", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(page.len());
            markport_xfolk::write(&doc, &WriteOptions::default(), &mut out).unwrap();
            out
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
