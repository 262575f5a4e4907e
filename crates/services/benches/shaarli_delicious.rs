//! Reading generated 100,000-bookmark Shaarli datastores (Shaarli's own
//! layout: a BookmarkArray of Bookmark objects with DateTime dates in a
//! named zone) and Delicious/Pinboard v1 posts XML.

use std::io::Write;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::{Error, Parsed, ReadOptions};
use markport_services::{delicious, shaarli};

const N: usize = 100_000;

fn s(out: &mut Vec<u8>, text: &str) {
    out.extend(format!("s:{}:\"{text}\";", text.len()).as_bytes());
}

fn prop(out: &mut Vec<u8>, name: &str) {
    out.extend(format!("s:{}:\"\0*\0{name}\";", name.len() + 3).as_bytes());
}

fn date(out: &mut Vec<u8>, i: usize) {
    out.extend(b"O:8:\"DateTime\":3:{");
    s(out, "date");
    s(
        out,
        &format!(
            "2020-{:02}-{:02} 12:{:02}:00.000000",
            i % 12 + 1,
            i % 28 + 1,
            i % 60
        ),
    );
    s(out, "timezone_type");
    out.extend(b"i:3;");
    s(out, "timezone");
    s(out, "Europe/Paris");
    out.push(b'}');
}

/// The serialized text of a modern datastore and the file Shaarli makes.
fn shaarli_datastore() -> (Vec<u8>, Vec<u8>) {
    let mut t = Vec::new();
    t.extend(b"O:30:\"Shaarli\\Bookmark\\BookmarkArray\":5:{");
    prop(&mut t, "bookmarks");
    t.extend(format!("a:{N}:{{").as_bytes());
    for i in 0..N {
        t.extend(format!("i:{i};O:25:\"Shaarli\\Bookmark\\Bookmark\":12:{{").as_bytes());
        prop(&mut t, "id");
        t.extend(format!("i:{i};").as_bytes());
        prop(&mut t, "shortUrl");
        s(&mut t, &format!("{i:06x}"));
        prop(&mut t, "url");
        s(&mut t, &format!("https://example.org/{i}/page?q=markport"));
        prop(&mut t, "title");
        s(&mut t, &format!("Page {i}, a title"));
        prop(&mut t, "description");
        s(&mut t, &format!("Notes on *page* {i}"));
        prop(&mut t, "tags");
        t.extend(b"a:2:{i:0;");
        s(&mut t, &format!("tag{}", i % 50));
        t.extend(b"i:1;");
        s(&mut t, "reading");
        t.push(b'}');
        prop(&mut t, "thumbnail");
        t.extend(b"N;");
        prop(&mut t, "sticky");
        t.extend(b"b:0;");
        prop(&mut t, "created");
        date(&mut t, i);
        prop(&mut t, "updated");
        t.extend(b"N;");
        prop(&mut t, "private");
        t.extend(if i % 2 == 0 { b"b:0;" } else { b"b:1;" });
        prop(&mut t, "additionalContent");
        t.extend(b"a:0:{}}");
    }
    t.push(b'}');
    for name in ["ids", "keys", "urls"] {
        prop(&mut t, name);
        t.extend(b"a:0:{}");
    }
    prop(&mut t, "position");
    t.extend(b"i:0;}");
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&t).unwrap();
    let deflated = z.finish().unwrap();
    let mut file = b"<?php /* ".to_vec();
    file.extend(base64(&deflated));
    file.extend(b" */ ?>");
    (t, file)
}

fn base64(bytes: &[u8]) -> Vec<u8> {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(bytes.len() / 3 * 4 + 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            out.push(if i <= chunk.len() {
                ABC[(n >> (18 - 6 * i)) as usize & 63]
            } else {
                b'='
            });
        }
    }
    out
}

fn delicious_xml() -> Vec<u8> {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<posts user=\"bench\" tag=\"\">\n",
    );
    for i in 0..N {
        s.push_str(&format!(
            "  <post href=\"https://example.org/{i}/page?q=markport&amp;r=1\" hash=\"{:032x}\" description=\"Page {i} &amp; a title\" extended=\"Notes on page {i}\" tag=\"tag{} reading\" time=\"2020-01-01T00:00:00Z\" shared=\"{}\" toread=\"no\" meta=\"{i:032x}\"/>\n",
            i * 7,
            i % 50,
            if i % 2 == 0 { "yes" } else { "no" },
        ));
    }
    s.push_str("</posts>\n");
    s.into_bytes()
}

type Reader = fn(&[u8], &ReadOptions) -> Result<Parsed, Error>;

fn bench(c: &mut Criterion) {
    let (serialized, datastore) = shaarli_datastore();
    let inputs: [(&str, Vec<u8>, Reader); 3] = [
        ("shaarli datastore.php", datastore, shaarli::read),
        ("shaarli serialized", serialized, shaarli::read_serialized),
        ("delicious xml", delicious_xml(), delicious::read),
    ];
    let mut group = c.benchmark_group("shaarli-delicious");
    group.sample_size(10);
    for (name, bytes, read) in &inputs {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("read 100,000 bookmarks: {name}"), |b| {
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
