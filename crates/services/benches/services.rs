//! Reading generated 100,000-bookmark exports of each service.

use std::io::{Cursor, Write};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_model::{Error, Parsed, ReadOptions};
use markport_services::{instapaper, pinboard, pocket, raindrop};

const N: usize = 100_000;

fn pocket_csv() -> Vec<u8> {
    let mut s = String::from("title,url,time_added,tags,status\n");
    for i in 0..N {
        let status = if i % 3 == 0 { "archive" } else { "unread" };
        s.push_str(&format!(
            "\"Page {i}, a title\",https://example.org/{i}/page?q=markport,{},tag{}|reading,{status}\n",
            1_600_000_000 + i,
            i % 50
        ));
    }
    s.into_bytes()
}

fn pocket_html() -> Vec<u8> {
    let mut s = String::from("<!DOCTYPE html>\n<html><head><title>Pocket Export</title></head><body>\n<h1>Unread</h1>\n<ul>\n");
    for i in 0..N {
        s.push_str(&format!(
            "<li><a href=\"https://example.org/{i}/page?q=markport\" time_added=\"{}\" tags=\"tag{},reading\">Page {i} &amp; a title</a></li>\n",
            1_600_000_000 + i,
            i % 50
        ));
    }
    s.push_str("</ul>\n</body></html>\n");
    s.into_bytes()
}

fn pinboard_json() -> Vec<u8> {
    let posts: Vec<String> = (0..N)
        .map(|i| {
            format!(
                "{{\"href\":\"https:\\/\\/example.org\\/{i}\\/page\",\"description\":\"Page {i}\",\"extended\":\"Notes on page {i}\",\"meta\":\"{i:032x}\",\"hash\":\"{:032x}\",\"time\":\"2020-01-01T00:00:00Z\",\"shared\":\"{}\",\"toread\":\"no\",\"tags\":\"tag{} reading\"}}",
                i * 7,
                if i % 2 == 0 { "yes" } else { "no" },
                i % 50
            )
        })
        .collect();
    format!("[{}]", posts.join(",\n")).into_bytes()
}

fn instapaper_csv() -> Vec<u8> {
    let mut s = String::from("URL,Title,Selection,Folder,Timestamp\n");
    for i in 0..N {
        s.push_str(&format!(
            "https://example.org/{i}/page,\"Page {i}, a title\",,Folder {},{}\n",
            i % 20,
            1_600_000_000 + i
        ));
    }
    s.into_bytes()
}

/// Pocket's export ZIP: the 100,000 rows of the cursor generation in
/// parts of 10,000, as Pocket mailed them, deflated; and the bytes of CSV
/// they inflate to, which its throughput counts (the archive is about a
/// seventh of that, and a rate over it would flatter the reader).
fn pocket_zip() -> (Vec<u8>, u64) {
    let mut inflated = 0;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for part in 0..N / 10_000 {
        zip.start_file(format!("part_{part:06}.csv"), options)
            .unwrap();
        let mut s = String::from("title,url,time_added,cursor,tags,status\n");
        for i in part * 10_000..(part + 1) * 10_000 {
            let status = if i % 3 == 0 { "archive" } else { "unread" };
            s.push_str(&format!(
                "\"Page {i}, a title\",https://example.org/{i}/page?q=markport,{},{i:x},tag{}|reading,{status}\n",
                1_600_000_000 + i,
                i % 50
            ));
        }
        zip.write_all(s.as_bytes()).unwrap();
        inflated += s.len() as u64;
    }
    (zip.finish().unwrap().into_inner(), inflated)
}

fn instapaper_tags_csv() -> Vec<u8> {
    let mut s = String::from("URL,Title,Selection,Folder,Timestamp,Tags\n");
    for i in 0..N {
        s.push_str(&format!(
            "https://example.org/{i}/page,\"Page {i}, a title\",Some selected words,Work/Folder {},{},\"[\"\"tag{}\"\",\"\"reading\"\"]\"\n",
            i % 20,
            1_600_000_000 + i,
            i % 50
        ));
    }
    s.into_bytes()
}

fn raindrop_csv() -> Vec<u8> {
    let mut s =
        String::from("id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n");
    for i in 0..N {
        s.push_str(&format!(
            "{},\"Page {i}, a title\",A note,An excerpt of the page,https://example.org/{i}/page,Work/Folder {},\"tag{}, reading\",2024-03-01T10:20:30.123Z,https://example.org/{i}/cover.png,,{}\n",
            800_000_000 + i,
            i % 20,
            i % 50,
            i % 2 == 0
        ));
    }
    s.into_bytes()
}

type Reader = fn(&[u8], &ReadOptions) -> Result<Parsed, Error>;

fn bench(c: &mut Criterion) {
    let (zip, zip_inflated) = pocket_zip();
    let inputs: [(&str, Vec<u8>, Reader); 7] = [
        ("pocket csv", pocket_csv(), pocket::read),
        ("pocket zip", zip, pocket::read),
        ("pocket html", pocket_html(), pocket::read),
        ("pinboard json", pinboard_json(), pinboard::read),
        ("instapaper csv", instapaper_csv(), instapaper::read),
        (
            "instapaper csv with tags",
            instapaper_tags_csv(),
            instapaper::read,
        ),
        ("raindrop csv", raindrop_csv(), raindrop::read),
    ];
    let mut group = c.benchmark_group("services");
    group.sample_size(10);
    for (name, bytes, read) in &inputs {
        let size = if *name == "pocket zip" {
            zip_inflated
        } else {
            bytes.len() as u64
        };
        group.throughput(Throughput::Bytes(size));
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
