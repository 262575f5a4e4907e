//! Reading a generated 100,000-bookmark Safari store, binary (as Safari
//! keeps it) and XML.

use std::io::Cursor;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::ReadOptions;
use plist::stream::{BinaryWriter, Writer, XmlReader};

const N: usize = 100_000;

/// A store with N leaves in 100 folders of the bar, each leaf as Safari
/// writes it (URIDictionary, UUID, a Sync record).
fn xml() -> Vec<u8> {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>Children</key><array>\n\
         <dict><key>Title</key><string>BookmarksBar</string><key>WebBookmarkType</key><string>WebBookmarkTypeList</string>\n<key>Children</key><array>\n",
    );
    for f in 0..100 {
        s.push_str(&format!(
            "<dict><key>Title</key><string>Folder {f}</string><key>WebBookmarkType</key><string>WebBookmarkTypeList</string><key>Children</key><array>\n"
        ));
        for j in 0..N / 100 {
            let i = f * (N / 100) + j;
            s.push_str(&format!(
                "<dict><key>URIDictionary</key><dict><key>title</key><string>Page {i} &amp; more</string></dict>\
                 <key>URLString</key><string>https://example.org/{i}/page?q=markport</string>\
                 <key>Sync</key><dict><key>ServerID</key><string>{i:08X}-AAAA-4BBB-8CCC-DDDDDDDDDDDD</string></dict>\
                 <key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string>\
                 <key>WebBookmarkUUID</key><string>{i:08X}-0000-4000-8000-000000000000</string></dict>\n"
            ));
        }
        s.push_str("</array></dict>\n");
    }
    s.push_str("</array></dict>\n</array>\n<key>WebBookmarkType</key><string>WebBookmarkTypeList</string>\n</dict>\n</plist>\n");
    s.into_bytes()
}

fn binary(xml: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = BinaryWriter::new(&mut out);
        for event in XmlReader::new(Cursor::new(xml)) {
            w.write(event.unwrap()).unwrap();
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let xml = xml();
    let bin = binary(&xml);
    let mut group = c.benchmark_group("safari");
    group.sample_size(10);
    for (name, bytes) in [("binary", &bin), ("xml", &xml)] {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("read 100,000 bookmarks: {name}"), |b| {
            // The read alone: its result checked once, and each document
            // dropped outside the timing (dropping is the caller's, not
            // the reader's).
            assert_eq!(
                markport_safari::read(bytes, &ReadOptions::default())
                    .unwrap()
                    .document
                    .census()
                    .bookmarks,
                N
            );
            b.iter_with_large_drop(|| {
                markport_safari::read(bytes, &ReadOptions::default()).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
