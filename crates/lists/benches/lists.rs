//! Reading generated 100,000-bookmark files: a generic CSV (every mapped
//! column, a folder path, an extra column) and a URL list with titles.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_lists::{csv, urls};
use markport_model::{Error, Parsed, ReadOptions};

const N: usize = 100_000;

fn generic_csv() -> Vec<u8> {
    let mut s = String::from("url,title,description,tags,folder,created,private,toread,source\n");
    for i in 0..N {
        s.push_str(&format!(
            "https://example.org/{i}/page?q=markport,\"Page {i}, a title\",Notes on page {i},\"tag{},reading\",Work/Area {},2020-01-01T00:00:{:02}Z,{},false,feed\n",
            i % 50,
            i % 20,
            i % 60,
            i % 2 == 0
        ));
    }
    s.into_bytes()
}

fn url_list() -> Vec<u8> {
    let mut s = String::from("# exported links\n");
    for i in 0..N {
        s.push_str(&format!(
            "https://example.org/{i}/page?q=markport Page {i}, a title\n"
        ));
    }
    s.into_bytes()
}

type Reader = fn(&[u8], &ReadOptions) -> Result<Parsed, Error>;

fn bench(c: &mut Criterion) {
    let inputs: [(&str, Vec<u8>, Reader); 2] = [
        ("csv", generic_csv(), csv::read),
        ("urls", url_list(), urls::read),
    ];
    let mut group = c.benchmark_group("lists");
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
