//! Read (and check) and write a generated 100,000-bookmark XBEL file.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::{ReadOptions, WriteOptions};

mod generate;

fn bench(c: &mut Criterion) {
    let doc = generate::collection(100_000);
    let mut bytes = Vec::new();
    markport_xbel::write(&doc, &WriteOptions::default(), &mut bytes).unwrap();
    let mut g = c.benchmark_group("xbel-100k");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("read", |b| {
        b.iter(|| markport_xbel::read(&bytes, &ReadOptions::default()).unwrap())
    });
    // What `markport check` costs over reading: the rules' walk fed the
    // same events, on a file that breaks none.
    let mut checking = ReadOptions::default();
    checking.checking = true;
    g.bench_function("read-checking", |b| {
        b.iter(|| markport_xbel::read(&bytes, &checking).unwrap())
    });
    // Into one buffer, reused: the writer's own speed, not the cost of
    // fresh pages for each run's output.
    let mut out = Vec::with_capacity(bytes.len());
    g.bench_function("write", |b| {
        b.iter(|| {
            out.clear();
            markport_xbel::write(&doc, &WriteOptions::default(), &mut out).unwrap();
            out.len()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
