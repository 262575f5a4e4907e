//! Plists shaped to cost far more memory than their size, and values of the
//! wrong type or given twice: each read within its memory budget or refused
//! cleanly past it, each coercion and dropped value said. The plists are
//! written by the plist crate, whose binary writer shares equal strings as
//! Apple's does. Peak memory itself is measured in
//! scripts/bench-scaling.sh, not here.

use std::io::Cursor;

use markport_model::{ErrorKind, ReadOptions};
use plist::stream::{BinaryWriter, Writer, XmlReader};

/// A store of `leaves` leaves whose `URLString` is one string of `size`
/// bytes: written once, referenced by every leaf.
fn shared_url(size: usize, leaves: usize) -> Vec<u8> {
    let url = format!("https://e.example/{}", "x".repeat(size));
    let mut out = Vec::new();
    {
        let mut w = BinaryWriter::new(&mut out);
        w.write_start_dictionary(None).unwrap();
        w.write_string("WebBookmarkType".into()).unwrap();
        w.write_string("WebBookmarkTypeList".into()).unwrap();
        w.write_string("Children".into()).unwrap();
        w.write_start_array(None).unwrap();
        for _ in 0..leaves {
            w.write_start_dictionary(None).unwrap();
            w.write_string("WebBookmarkType".into()).unwrap();
            w.write_string("WebBookmarkTypeLeaf".into()).unwrap();
            w.write_string("URLString".into()).unwrap();
            w.write_string(url.as_str().into()).unwrap();
            w.write_end_collection().unwrap();
        }
        w.write_end_collection().unwrap();
        w.write_end_collection().unwrap();
    }
    out
}

fn budget(bytes: u64) -> ReadOptions {
    let mut opts = ReadOptions::default();
    opts.memory_budget = Some(bytes);
    opts
}

/// A 100 KB link referenced by 4,000 leaves is 400 MB of links from a file
/// of about 150 KB: refused past a 16 MB budget, at the leaf.
#[test]
fn a_string_referenced_by_many_leaves_is_refused_past_the_budget() {
    let bytes = shared_url(100_000, 4000);
    assert!(bytes.len() < 200_000, "{}", bytes.len());
    let error = markport_safari::read(&bytes, &budget(16 << 20)).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unsafe, "{error}");
    assert!(
        error.message.starts_with("plist: the top level, entry 16"),
        "{error}"
    );
    assert!(error.message.contains("--memory-budget"), "{error}");
    // Sharing is no fault in itself (Apple's writer shares every equal
    // string): a shorter link shared as widely reads within the default
    // budget, twice the file plus 128 MiB.
    let doc = markport_safari::read(&shared_url(1000, 4000), &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().bookmarks, 4000);
}

fn leaf_store(leaf: &str) -> Vec<u8> {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>Children</key><array>{leaf}</array>
<key>WebBookmarkType</key><string>WebBookmarkTypeList</string>
</dict></plist>"#
    )
    .into_bytes()
}

/// A link written as an integer, data or a boolean is read as its text, and
/// a warning says what it was and what it became.
#[test]
fn a_link_that_is_not_a_string_is_read_as_its_text_with_a_warning() {
    for (value, kind, text) in [
        ("<integer>42</integer>", "an integer", "42"),
        ("<data>aHR0cHM6Ly9lLw==</data>", "data", "aHR0cHM6Ly9lLw=="),
        ("<true/>", "a boolean", "true"),
    ] {
        let xml = leaf_store(&format!(
            "<dict><key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string>\
             <key>URLString</key>{value}</dict>"
        ));
        let binary = {
            let mut out = Vec::new();
            let mut w = BinaryWriter::new(&mut out);
            for event in XmlReader::new(Cursor::new(&xml)) {
                w.write(event.unwrap()).unwrap();
            }
            out
        };
        for bytes in [xml, binary] {
            let parsed = markport_safari::read(&bytes, &ReadOptions::default()).unwrap();
            let doc = &parsed.document;
            let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
            assert_eq!(b.href, text);
            let expected = format!(
                "the top level, entry 1: URLString is {kind}, not a string; read as its text {text:?}"
            );
            assert!(
                parsed.diagnostics.iter().any(|d| d.message == expected),
                "{expected}: {:?}",
                parsed.diagnostics
            );
        }
    }
}

/// A key a dictionary gives twice keeps its last value, as Python's
/// plistlib reads it, and a warning names the key and the node.
#[test]
fn a_key_given_twice_keeps_the_last_value_with_a_warning() {
    let xml = leaf_store(
        "<dict><key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string>\
         <key>URLString</key><string>https://first.example/</string>\
         <key>URIDictionary</key><dict><key>title</key><string>one</string><key>title</key><string>two</string></dict>\
         <key>URLString</key><string>https://second.example/</string>\
         <key>URLString</key><string>https://third.example/</string></dict>",
    );
    let parsed = markport_safari::read(&xml, &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(b.href, "https://third.example/");
    assert_eq!(b.title.as_deref(), Some("two"));
    assert!(b.details().extra.is_empty(), "{:?}", b.details().extra);
    let messages: Vec<&str> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "the top level, entry 1: key URLString is given 3 times; the last value is kept, the earlier ones dropped",
            "the top level, entry 1: key URIDictionary.title is given 2 times; the last value is kept, the earlier one dropped",
        ]
    );
}
