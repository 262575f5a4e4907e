//! Shaarli's datastore and Delicious/Pinboard v1 XML: the corpus samples
//! read as their layouts say, and hostile inputs end in a clean error at
//! their place (or within the memory budget), never a panic or a hang.

use std::io::Write;
use std::path::PathBuf;

use markport_model::{ErrorKind, ReadOptions};
use markport_services::{delicious, shaarli};

fn corpus(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A datastore as Shaarli writes one: `serialized` deflated, in base64, in
/// a PHP comment.
fn datastore(serialized: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(serialized).unwrap();
    let deflated = z.finish().unwrap();
    let mut out = b"<?php /* ".to_vec();
    out.extend(base64(&deflated));
    out.extend(b" */ ?>");
    out
}

fn base64(bytes: &[u8]) -> Vec<u8> {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i)) as usize & 63]);
            } else {
                out.push(b'=');
            }
        }
    }
    out
}

fn budget(bytes: u64) -> ReadOptions {
    let mut opts = ReadOptions::default();
    opts.memory_budget = Some(bytes);
    opts
}

#[test]
fn both_shaarli_layouts_read_with_zones_in_utc_and_notes_said() {
    let modern = shaarli::read(&corpus("shaarli/datastore.php"), &ReadOptions::default()).unwrap();
    let doc = &modern.document;
    let top = doc.children(None);
    assert_eq!(top.len(), 3, "the note is not a bookmark");
    let rust = doc.node(top[0]).as_bookmark().unwrap();
    // Noon in Paris in July is 10:00 UTC.
    let added = rust.added.as_ref().unwrap().instant().unwrap();
    assert_eq!(added.unix_seconds(), 1_593_597_600);
    assert_eq!(added.offset_seconds(), Some(0));
    assert_eq!(
        rust.desc.as_deref(),
        Some("A language *empowering* everyone.\n\n- fast\n- reliable")
    );
    assert!(rust
        .details()
        .extra
        .iter()
        .any(|a| a.name == "pinned" && a.value == "true"));
    assert_eq!(doc.node(top[1]).as_bookmark().unwrap().private, Some(true));
    assert!(
        modern
            .diagnostics
            .iter()
            .any(|d| d.message.contains("A note to self")),
        "{:?}",
        modern.diagnostics
    );

    let legacy = shaarli::read(
        &corpus("shaarli/legacy-datastore.php"),
        &ReadOptions::default(),
    )
    .unwrap();
    let doc = &legacy.document;
    let first = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(first.tags, ["opensource", "software"]);
    assert_eq!(first.private, Some(false));
    let secret = doc.node(doc.children(None)[1]).as_bookmark().unwrap();
    assert_eq!(secret.private, Some(true));
}

#[test]
fn shaarli_errors_name_their_place() {
    // A character base64 has not, at line 1 column 14.
    let e = shaarli::read(b"<?php /* QUJD!RUY= */ ?>", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((1, 14)), "{e}");
    // Data that is not deflate.
    let e = shaarli::read(b"<?php /* QUJDREVGR0g= */ ?>", &ReadOptions::default()).unwrap_err();
    assert!(e.message.contains("inflate"), "{e}");
    // Serialized text cut short: the byte of the inflated text is named.
    let e = shaarli::read(&datastore(b"a:1:{i:0;s:10:\"abc"), &ReadOptions::default()).unwrap_err();
    assert!(e.message.contains("at byte 15 of the inflated data"), "{e}");
    // Neither layout.
    let e = shaarli::read(&datastore(b"i:5;"), &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::WrongFormat);
}

/// 3 MiB of zeros deflate to about 3 KB (a thousandfold): refused as a
/// bomb as it inflates, past the first MiB (where a bomb of any size is
/// refused too: the ratio is checked as the bytes come).
#[test]
fn a_deflate_bomb_is_refused_as_it_inflates() {
    let zeros = vec![0u8; 3 << 20];
    let file = datastore(&zeros);
    assert!(file.len() < 16 << 10);
    let e = shaarli::read(&file, &ReadOptions::default()).unwrap_err();
    assert!(e.message.contains("bomb"), "{e}");
}

/// A count no input could hold is refused before anything is made for it;
/// nesting past the bound is refused without recursion.
#[test]
fn lying_counts_and_deep_nesting_are_refused() {
    let e = shaarli::read_serialized(b"a:4000000000:{}", &ReadOptions::default()).unwrap_err();
    assert!(e.message.contains("more than the"), "{e}");
    let deep = "a:1:{i:0;".repeat(1_000_000) + "N;" + &"}".repeat(1_000_000);
    let e = shaarli::read_serialized(deep.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert!(e.message.contains("deeper than 64"), "{e}");
}

/// Tiny bookmarks (`i:N;a:1:{s:3:"url";s:1:"a";}`, 30 bytes each) are
/// charged as the document keeps them; the values inside one bookmark (a
/// list of 200,000 tags) are charged while it is read. Past a 4 MB budget
/// each is refused, naming the budget.
#[test]
fn tiny_bookmarks_and_huge_ones_are_charged_to_the_budget() {
    let n = 100_000;
    let mut text = format!("a:{n}:{{").into_bytes();
    for i in 0..n {
        text.extend(format!("i:{i};a:1:{{s:3:\"url\";s:1:\"a\";}}").as_bytes());
    }
    text.push(b'}');
    let e = shaarli::read_serialized(&text, &budget(4 << 20)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    assert!(e.message.contains("--memory-budget"), "{e}");
    let doc = shaarli::read_serialized(&text, &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.len(), n);

    let tags = 200_000;
    let mut text =
        format!("a:1:{{i:0;a:2:{{s:3:\"url\";s:1:\"a\";s:4:\"tags\";a:{tags}:{{").into_bytes();
    for i in 0..tags {
        text.extend(format!("i:{i};N;").as_bytes());
    }
    text.extend(b"}}}");
    let e = shaarli::read_serialized(&text, &budget(4 << 20)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe, "{e}");
}

/// 300,000 entries that are not bookmarks: each read and dropped at
/// once, one warning for them all.
#[test]
fn entries_that_are_not_bookmarks_cost_nothing_kept() {
    let n = 300_000;
    let mut text = format!("a:{n}:{{").into_bytes();
    for i in 0..n {
        text.extend(format!("i:{i};N;").as_bytes());
    }
    text.push(b'}');
    let parsed = shaarli::read_serialized(&text, &budget(4 << 20)).unwrap();
    assert_eq!(parsed.document.len(), 0);
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
}

#[test]
fn delicious_sample_reads_as_the_api_wrote_it() {
    let parsed =
        delicious::read(&corpus("delicious/posts-all.xml"), &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    let b = |i: usize| doc.node(doc.children(None)[i]).as_bookmark().unwrap();
    assert_eq!(b(0).tags, ["lang", "systems"]);
    assert_eq!(b(0).private, Some(false));
    assert_eq!(b(1).title.as_deref(), Some("Kernel &amp; userspace news"));
    assert!(b(1).tags.is_empty(), "system:unfiled is no tag");
    assert_eq!(b(1).private, Some(true));
    assert_eq!(b(2).title.as_deref(), Some("Café élève \"quoted\""));
    assert_eq!(b(2).to_read, Some(true));
}

/// 16-byte posts are charged: refused past a small budget at the post
/// that passes it, with its line.
#[test]
fn tiny_posts_are_refused_past_the_budget_at_their_line() {
    let mut xml = b"<posts>\n".to_vec();
    for _ in 0..50_000 {
        xml.extend(b"<post href=\"a\"/>\n");
    }
    xml.extend(b"</posts>\n");
    let e = delicious::read(&xml, &budget(4 << 20)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    let line = e.location.expect("the post is located").line;
    assert!(line > 1000 && line < 50_000, "{e}");
    let doc = delicious::read(&xml, &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.len(), 50_000);
}

#[test]
fn delicious_deep_nesting_and_foreign_xml() {
    let deep =
        "<posts>".to_string() + &"<x>".repeat(200_000) + &"</x>".repeat(200_000) + "</posts>";
    let doc = delicious::read(deep.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.len(), 0);
    let e = delicious::read(b"<rss><post href=\"a\"/></rss>", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::WrongFormat);
    let e = delicious::read(
        b"<posts><post href=\"&bogus;\"/></posts>",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.location.map(|l| l.line), Some(1), "{e}");
}
