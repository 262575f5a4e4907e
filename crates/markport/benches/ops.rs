//! Dedupe one 100,000-bookmark collection, and merge ten of them: both are
//! one hash lookup per bookmark, so time grows with the total size only.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use markport::model::Role;
use markport::ops::{dedupe, dedupe_by, merge, LinkMatch};
use markport::{Bookmark, Document, Folder};

/// `n` bookmarks in folders of 50 under a toolbar; every other link is the
/// same in every `variant`, the rest are the variant's own, and one in ten
/// repeats an earlier link of the same collection, spelled differently
/// (upper-case host).
fn collection(n: usize, variant: usize) -> Document {
    let mut doc = Document::new();
    let mut toolbar = Folder::titled(format!("Toolbar {variant}"));
    toolbar.role = Some(Role::Toolbar);
    let root = doc.push(None, toolbar);
    let mut folder = root;
    for i in 0..n {
        if i % 50 == 0 {
            folder = doc.push(Some(root), Folder::titled(format!("Folder {}", i / 50)));
        }
        let href = if i % 10 == 9 {
            format!("https://SITE{}.example/page/{}", i - 9, i - 9)
        } else if i % 2 == 0 {
            format!("https://site{i}.example/page/{i}")
        } else {
            format!("https://v{variant}.site{i}.example/page/{i}")
        };
        let mut b = Bookmark::new(href).with_title(format!("Page {i}"));
        b.tags = vec![format!("tag{}", i % 7)];
        doc.push(Some(folder), b);
    }
    doc
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("ops");
    g.sample_size(10);
    let one = collection(100_000, 0);
    g.throughput(Throughput::Elements(100_000));
    g.bench_function("dedupe-100k", |b| {
        b.iter_batched(
            || one.clone(),
            |mut d| dedupe(&mut d),
            BatchSize::LargeInput,
        )
    });
    // The looser levels parse and rebuild each link once: the same
    // collection, so the difference from dedupe-100k is that cost.
    for by in [LinkMatch::Normal, LinkMatch::Loose] {
        g.bench_function(format!("dedupe-{}-100k", by.name()), |b| {
            b.iter_batched(
                || one.clone(),
                |mut d| dedupe_by(&mut d, by, false),
                BatchSize::LargeInput,
            )
        });
    }
    let ten: Vec<Document> = (0..10).map(|v| collection(100_000, v)).collect();
    g.throughput(Throughput::Elements(1_000_000));
    g.bench_function("merge-10x100k", |b| {
        b.iter_batched(
            || ten.clone(),
            |docs| merge(docs, false).unwrap(),
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
