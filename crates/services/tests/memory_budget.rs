//! Exports shaped to cost far more memory than their size: each read is
//! refused cleanly past its memory budget (naming it and how to raise it),
//! or reads within it. The budgets here are small so that what the shapes
//! would have cost (tens of MB) is clearly over them; peak memory itself is
//! measured in scripts/bench-scaling.sh, not here.

use std::io::{Cursor, Write};

use markport_model::{ErrorKind, ReadOptions};
use markport_services::{instapaper, omnivore, pocket};
use zip::write::SimpleFileOptions;

fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in entries {
        zip.start_file(*name, SimpleFileOptions::default()).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn budget(bytes: u64) -> ReadOptions {
    let mut opts = ReadOptions::default();
    opts.memory_budget = Some(bytes);
    opts
}

fn replace_all(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i + from.len() <= out.len() {
        if &out[i..i + from.len()] == from {
            out[i..i + from.len()].copy_from_slice(to);
            i += from.len();
        } else {
            i += 1;
        }
    }
    out
}

/// One article's highlights (100 KB) for the 1,000 rows that list its URL:
/// 100 MB of copies, refused past an 8 MB budget naming the article.
#[test]
fn pocket_highlights_copied_to_many_rows_are_refused_past_the_budget() {
    let mut csv = String::from("title,url,time_added\n");
    for i in 0..1000 {
        csv.push_str(&format!("t{i},https://e.example/article,1700000000\n"));
    }
    let quote = "q".repeat(100_000);
    let notes = format!(
        r#"[{{"url": "https://e.example/article", "title": "t", "highlights": [{{"quote": "{quote}"}}]}}]"#
    );
    let bytes = zip(&[
        ("part_000000.csv", csv.as_bytes()),
        ("annotations/part_000000.json", notes.as_bytes()),
    ]);
    let error = pocket::read(&bytes, &budget(8 << 20)).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unsafe);
    for words in [
        "annotations/part_000000.json",
        "article 1 (https://e.example/article)",
        "1000 bookmarks",
        "8.4 MB",
        "--memory-budget",
    ] {
        assert!(error.message.contains(words), "{words}: {}", error.message);
    }
    // Within the budget every row gets its copy.
    let doc = pocket::read(&bytes, &budget(200 << 20)).unwrap().document;
    let with = doc
        .preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .filter(|b| b.desc.as_deref() == Some(&*quote))
        .count();
    assert_eq!(with, 1000);
}

/// 200,000 rows of a few bytes (1.5 MB) are 200,000 bookmarks of about
/// 400 bytes: refused past a 16 MB budget at the row that passes it.
#[test]
fn pocket_tiny_rows_are_refused_past_the_budget_at_their_row() {
    let mut csv = String::from("title,url,time_added\n");
    for i in 0..200_000 {
        csv.push_str(&format!(",{i},\n"));
    }
    let bytes = zip(&[("part_000000.csv", csv.as_bytes())]);
    let error = pocket::read(&bytes, &budget(16 << 20)).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unsafe, "{error}");
    assert!(error.message.contains("--memory-budget"), "{error}");
    assert!(
        error.message.starts_with("ZIP entry part_000000.csv:"),
        "{error}"
    );
    // The row where the budget ran out: about 16 MB / 410 bytes a row in.
    let line: usize = error.message["ZIP entry part_000000.csv:".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((30_000..60_000).contains(&line), "{error}");
    // The same rows as a plain CSV file: refused the same way.
    let error = pocket::read(csv.as_bytes(), &budget(16 << 20)).unwrap_err();
    assert!(error.location.is_some_and(|l| l.line > 30_000), "{error}");
    // With the default budget (twice what was read, plus 128 MiB) they read.
    let doc = pocket::read(&bytes, &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().bookmarks, 200_000);
}

/// 2,000 entries over one compressed part would read as 2,000 parts.
#[test]
fn pocket_parts_sharing_one_piece_of_data_are_refused_naming_them() {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    zip.start_file("part_000000.csv", SimpleFileOptions::default())
        .unwrap();
    zip.write_all(b"title,url,time_added\na,https://e/1,1\nb,https://e/2,1\nc,https://e/3,1\n")
        .unwrap();
    for i in 1..2000 {
        zip.shallow_copy_file("part_000000.csv", &format!("part_{i:06}.csv"))
            .unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();
    let error = pocket::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert!(
        error.message.contains("overlaps entry \"part_000000.csv\""),
        "{error}"
    );
}

/// Two parts of one name: the first's rows are not read, and a warning
/// says so with where each copy is.
#[test]
fn pocket_part_name_given_twice_is_warned_with_where_each_copy_is() {
    let built = zip(&[
        (
            "part_000000.csv",
            b"title,url,time_added\nfirst,https://e/1,1700000000\n",
        ),
        (
            "part_000009.csv",
            b"title,url,time_added\nsecond,https://e/2,1700000000\n",
        ),
    ]);
    let bytes = replace_all(&built, b"part_000009.csv", b"part_000000.csv");
    let parsed = pocket::read(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(parsed.document.census().bookmarks, 1);
    let second_at = bytes
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == b"PK\x03\x04")
        .nth(1)
        .unwrap()
        .0;
    let warning = parsed
        .diagnostics
        .iter()
        .find(|d| d.message.contains("2 times"))
        .unwrap_or_else(|| panic!("{:?}", parsed.diagnostics));
    assert!(
        warning.message.contains(&format!(
            "part_000000.csv is in the archive 2 times (entry 1 at byte 0, entry 2 at byte {second_at}): only the last is read"
        )),
        "{}",
        warning.message
    );
    assert!(pocket::read(&bytes, &{
        let mut o = ReadOptions::default();
        o.strict = true;
        o
    })
    .is_err());
}

/// Omnivore items of a dozen bytes each: a bookmark each, charged.
#[test]
fn omnivore_tiny_items_are_refused_past_the_budget() {
    let items: Vec<String> = (0..100_000)
        .map(|i| format!(r#"{{"url":"{i}"}}"#))
        .collect();
    let metadata = format!("[{}]", items.join(","));
    let bytes = zip(&[("metadata_0_to_100000.json", metadata.as_bytes())]);
    let error = omnivore::read(&bytes, &budget(8 << 20)).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unsafe, "{error}");
    assert!(error.message.contains("--memory-budget"), "{error}");
    assert!(
        error
            .message
            .starts_with("ZIP entry metadata_0_to_100000.json:1:"),
        "{error}"
    );
    let doc = omnivore::read(&bytes, &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().bookmarks, 100_000);
}

/// One folder path of 200,000 one-letter parts (400 KB): 200,000 folders
/// and their keys, refused past a 16 MB budget.
#[test]
fn instapaper_deep_folder_path_is_refused_past_the_budget() {
    let csv = format!(
        "URL,Title,Selection,Folder\nhttps://e/,t,,{}\n",
        vec!["f"; 200_000].join("/")
    );
    let error = instapaper::read(csv.as_bytes(), &budget(16 << 20)).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unsafe, "{error}");
    assert_eq!(error.location.map(|l| l.line), Some(2), "{error}");
}
