//! Reading a generated favorites tree of 100,000 Internet Shortcuts
//! (1,000 folders of 100), the bytes of its files as the throughput; and
//! the single-file parser alone on the same shortcuts, which is what the
//! reader costs once the file system is out of the way. The tree is made
//! once in the system's temporary directory and removed at the end.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use markport_favorites::link::{read, Kind};
use markport_model::ReadOptions;

const N: usize = 100_000;

fn shortcut(i: usize) -> String {
    format!(
        "[DEFAULT]\r\nBASEURL=https://example.org/{i}/page?q=markport\r\n[InternetShortcut]\r\nURL=https://example.org/{i}/page?q=markport\r\nIDList=\r\nIconFile=https://example.org/favicon.ico\r\nIconIndex=1\r\nModified=C0A4AC5D2C1FCE0187\r\n"
    )
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = 0u64;
    for f in 0..N / 100 {
        let folder = dir.path().join(format!("Folder {f}"));
        std::fs::create_dir(&folder).unwrap();
        for i in 0..100 {
            let text = shortcut(f * 100 + i);
            bytes += text.len() as u64;
            std::fs::write(folder.join(format!("Page {i}, a title.url")), text).unwrap();
        }
    }
    let mut group = c.benchmark_group("favorites");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("read a tree of 100,000 .url files", |b| {
        b.iter(|| {
            let parsed =
                markport_favorites::read_path(dir.path(), &ReadOptions::default()).unwrap();
            assert_eq!(parsed.document.census().bookmarks, N);
        })
    });
    let files: Vec<String> = (0..N).map(shortcut).collect();
    group.bench_function("parse 100,000 .url files (no file system)", |b| {
        b.iter(|| {
            for f in &files {
                read(Kind::Url, f.as_bytes(), None).unwrap();
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
