//! Read a generated Google Bookmarks export of 100,000 links, each under
//! one to three of 200 labels (about 200,000 listings), as Google wrote it.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::ReadOptions;
use markport_netscape::google;

const LINKS: usize = 100_000;
const LABELS: usize = 200;

fn page() -> Vec<u8> {
    // Each label's folder lists the links that have it: link i has labels
    // i % 200, (i * 7) % 200 and, for every other link, (i * 13) % 200.
    let mut by_label: Vec<Vec<usize>> = vec![Vec::new(); LABELS];
    for i in 0..LINKS {
        let mut labels = vec![i % LABELS, (i * 7) % LABELS];
        if i % 2 == 0 {
            labels.push((i * 13) % LABELS);
        }
        labels.sort_unstable();
        labels.dedup();
        for l in labels {
            by_label[l].push(i);
        }
    }
    let mut s = String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>");
    for (l, links) in by_label.iter().enumerate() {
        s.push_str(&format!(
            "<DT><H3 ADD_DATE=\"1316018418437000\">label {l}</H3><DL><p>"
        ));
        for i in links {
            s.push_str(&format!(
                "<DT><A HREF=\"https://example.org/{i}/page?q=markport\" ADD_DATE=\"{}\">Page {i} &amp; a title</A>",
                1_316_018_418_437_000u64 + *i as u64
            ));
        }
        s.push_str("</DL><p>");
    }
    s.push_str("</DL><p>");
    s.into_bytes()
}

fn bench(c: &mut Criterion) {
    let bytes = page();
    assert_eq!(
        google::read(&bytes, &ReadOptions::default())
            .unwrap()
            .document
            .census()
            .bookmarks,
        LINKS
    );
    let mut g = c.benchmark_group("google-100k");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("read", |b| {
        b.iter_with_large_drop(|| google::read(&bytes, &ReadOptions::default()).unwrap())
    });
    // The same page read plainly (a folder per label): what the layout's
    // reading adds is the difference.
    g.bench_function("read as netscape", |b| {
        b.iter_with_large_drop(|| markport_netscape::read(&bytes, &ReadOptions::default()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
