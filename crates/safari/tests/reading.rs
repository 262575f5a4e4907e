//! What a `Bookmarks.plist` reads as: roots and roles, leaves, the Reading
//! List's fields, dates in both encodings, values kept, errors with their
//! position. The corpus samples' full models are checked by the
//! conformance tests (`corpus_expected`), their counts against Python's
//! plistlib in `tests/tests/safari_peers.rs`.

mod common;

use std::path::PathBuf;

use common::Bplist;
use markport_model::{DateValue, Document, ErrorKind, NodeId, ReadOptions, Role, Severity};

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/safari")
        .join(name)
}

fn read(bytes: &[u8]) -> (Document, Vec<markport_model::Diagnostic>) {
    let p = markport_safari::read(bytes, &ReadOptions::default()).unwrap();
    (p.document, p.diagnostics)
}

fn w3c(d: &Option<DateValue>) -> String {
    d.as_ref().unwrap().instant().unwrap().to_w3c()
}

fn child(doc: &Document, parent: Option<NodeId>, i: usize) -> NodeId {
    doc.children(parent)[i]
}

#[test]
fn the_binary_sample_is_the_xml_sample_written_by_the_plist_crate() {
    let xml = std::fs::read(corpus("bookmarks.plist")).unwrap();
    let binary = std::fs::read(corpus("bookmarks-binary.plist")).unwrap();
    assert!(binary.starts_with(b"bplist00"));
    assert!(
        common::xml_to_binary(&xml) == binary,
        "corpus/safari/bookmarks-binary.plist is not bookmarks.plist in binary: \
         regenerate it with `MARKPORT_BLESS=1 cargo test -p markport-safari --test reading`"
    );
}

/// Writes the binary sample from the XML one when asked (MARKPORT_BLESS=1).
#[test]
fn bless_the_binary_sample() {
    if std::env::var_os("MARKPORT_BLESS").is_some() {
        let xml = std::fs::read(corpus("bookmarks.plist")).unwrap();
        std::fs::write(
            corpus("bookmarks-binary.plist"),
            common::xml_to_binary(&xml),
        )
        .unwrap();
    }
}

#[test]
fn both_samples_read_as_the_same_tree() {
    let (xml, xml_notes) = read(&std::fs::read(corpus("bookmarks.plist")).unwrap());
    let (bin, bin_notes) = read(&std::fs::read(corpus("bookmarks-binary.plist")).unwrap());
    assert_eq!(xml.census(), bin.census());
    assert_eq!(xml_notes, bin_notes);
    for (a, b) in xml.preorder().zip(bin.preorder()) {
        let (a, b) = (xml.node(a), bin.node(b));
        assert_eq!(a.title(), b.title());
        if let (Some(a), Some(b)) = (a.as_bookmark(), b.as_bookmark()) {
            assert_eq!(a.href, b.href);
            assert_eq!(a.details().guid, b.details().guid);
            // Binary dates are doubles: the same instant within a microsecond.
            for (x, y) in [
                (&a.added, &b.added),
                (&a.details().visited, &b.details().visited),
            ] {
                let (Some(x), Some(y)) = (x, y) else {
                    assert_eq!(x.is_some(), y.is_some());
                    continue;
                };
                let (x, y) = (x.instant().unwrap(), y.instant().unwrap());
                let nanos = |t: &markport_model::Timestamp| {
                    i128::from(t.unix_seconds()) * 1_000_000_000 + i128::from(t.subsec_nanos())
                };
                assert!((nanos(x) - nanos(y)).abs() < 1_000, "{x:?} {y:?}");
            }
        }
    }
}

#[test]
fn roots_roles_leaves_and_the_reading_list() {
    let (doc, diags) = read(&std::fs::read(corpus("bookmarks.plist")).unwrap());
    let roots: Vec<_> = doc
        .children(None)
        .iter()
        .map(|&id| {
            let f = doc.node(id).as_folder().unwrap();
            (f.title.clone().unwrap(), f.role)
        })
        .collect();
    assert_eq!(
        roots,
        [
            ("BookmarksBar".to_string(), Some(Role::Toolbar)),
            ("BookmarksMenu".to_string(), Some(Role::Menu)),
            ("com.apple.ReadingList".to_string(), Some(Role::ReadingList)),
        ]
    );
    // History is a proxy: no node, one note.
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].severity, Severity::Note);
    assert!(diags[0].message.contains("WebBookmarkTypeProxy"));

    let bar = child(&doc, None, 0);
    let rust = doc.node(child(&doc, Some(bar), 0)).as_bookmark().unwrap();
    assert_eq!(rust.href, "https://doc.rust-lang.org/book/");
    assert_eq!(rust.title.as_deref(), Some("The Rust Programming Language"));
    assert_eq!(
        rust.details().guid.as_deref(),
        Some("7B2E3C11-9F0A-4C55-8E21-0D6A7F3B1002")
    );
    let food = child(&doc, Some(bar), 1);
    let cafe = doc.node(child(&doc, Some(food), 0)).as_bookmark().unwrap();
    assert_eq!(cafe.title.as_deref(), Some("Café & Crêpes — Menü"));
    assert_eq!(cafe.href, "https://example.org/caf%C3%A9?q=1&r=2");

    let menu = child(&doc, None, 1);
    let apple = doc.node(child(&doc, Some(menu), 0)).as_bookmark().unwrap();
    // A key Safari does not write is kept, not lost.
    assert_eq!(apple.details().extra[0].name, "previewText");

    let list = child(&doc, None, 2);
    let item = doc.node(child(&doc, Some(list), 0)).as_bookmark().unwrap();
    assert_eq!(w3c(&item.added), "2024-02-08T15:31:07.123456789Z");
    assert_eq!(w3c(&item.details().visited), "2024-02-09T08:00:00Z");
    assert!(item.desc.as_deref().unwrap().starts_with("The Rust team"));
    let extra: Vec<_> = item
        .details()
        .extra
        .iter()
        .map(|a| (a.name.as_str(), a.value.as_str()))
        .collect();
    assert_eq!(
        extra,
        [
            ("ReadingListNonSync.AddedLocally", "true"),
            ("ReadingListNonSync.FetchResult", "1"),
            (
                "imageURL",
                "https://blog.rust-lang.org/images/rust-logo.png"
            ),
        ]
    );
    let later = doc.node(child(&doc, Some(list), 1)).as_bookmark().unwrap();
    // Data in base64, as XML plists write it.
    assert_eq!(later.details().extra[0].value, "AAECAw==");
    assert_eq!(w3c(&later.added), "2001-01-01T00:00:00.5Z");

    // The top dictionary's own keys are the header's.
    let header: Vec<_> = doc.header.extra.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        header,
        ["Title", "WebBookmarkFileVersion", "WebBookmarkUUID"]
    );
}

/// A store with one Reading List item whose `DateAdded` is `added`.
fn binary_with_date(added: f64) -> Vec<u8> {
    let mut p = Bplist::default();
    let (kind, leaf_type, url, href) = (
        p.string("WebBookmarkType"),
        p.string("WebBookmarkTypeLeaf"),
        p.string("URLString"),
        p.string("https://example.org/"),
    );
    let (rl, date_added, date) = (
        p.string("ReadingList"),
        p.string("DateAdded"),
        p.date(added),
    );
    let reading = p.dict(&[(date_added, date)]);
    let leaf = p.dict(&[(kind, leaf_type), (url, href), (rl, reading)]);
    let array = p.array(&[leaf]);
    let children = p.string("Children");
    let root = p.dict(&[(children, array)]);
    p.finish(root)
}

#[test]
fn binary_dates_count_seconds_from_2001() {
    // 2001-01-01T00:00:00Z is Unix 978307200.
    for (since_2001, want) in [
        (0.0, "2001-01-01T00:00:00Z"),
        (1.5, "2001-01-01T00:00:01.5Z"),
        (-1.0, "2000-12-31T23:59:59Z"),
        (729_099_067.0, "2024-02-08T15:31:07Z"),
    ] {
        let (doc, _) = read(&binary_with_date(since_2001));
        let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
        assert_eq!(w3c(&b.added), want, "{since_2001}");
        let t = b.added.as_ref().unwrap().instant().unwrap();
        assert_eq!(t.unix_seconds() - 978_307_200, since_2001.floor() as i64);
    }
}

#[test]
fn a_binary_date_out_of_range_is_an_error_with_its_offset() {
    let err =
        markport_safari::read(&binary_with_date(f64::NAN), &ReadOptions::default()).unwrap_err();
    assert!(err.message.contains("at byte "), "{err}");
}

#[test]
fn xml_dates_with_and_without_a_fraction() {
    for (text, want) in [
        (
            "2023-07-10T14:01:42.517568945Z",
            "2023-07-10T14:01:42.517568945Z",
        ),
        ("2023-07-10T14:01:42.5Z", "2023-07-10T14:01:42.5Z"),
        ("2023-07-10T14:01:42Z", "2023-07-10T14:01:42Z"),
    ] {
        let xml = common::store_xml(std::iter::once(format!(
            "<dict><key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string>\
             <key>URLString</key><string>https://e/</string>\
             <key>ReadingList</key><dict><key>DateAdded</key><date>{text}</date></dict></dict>"
        )));
        let (doc, _) = read(xml.as_bytes());
        let bar = doc.children(None)[0];
        let b = doc.node(doc.children(Some(bar))[0]).as_bookmark().unwrap();
        assert_eq!(w3c(&b.added), want);
    }
}

#[test]
fn the_reading_list_is_found_by_its_title_or_its_sync_record() {
    let store = |title: &str, server: &str| {
        format!(
            "<plist version=\"1.0\"><dict><key>Children</key><array><dict>\
             <key>Title</key><string>{title}</string>\
             <key>WebBookmarkType</key><string>WebBookmarkTypeList</string>\
             <key>Sync</key><dict><key>ServerID</key><string>{server}</string></dict>\
             </dict></array></dict></plist>"
        )
    };
    let role = |xml: String| {
        let (doc, _) = read(xml.as_bytes());
        doc.node(doc.children(None)[0]).as_folder().unwrap().role
    };
    assert_eq!(
        role(store("com.apple.ReadingList", "x")),
        Some(Role::ReadingList)
    );
    assert_eq!(
        role(store("Others", "Reading List")),
        Some(Role::ReadingList)
    );
    assert_eq!(role(store("Others", "Favorites Bar")), None);
}

#[test]
fn odd_nodes_are_kept_with_a_warning() {
    let xml = common::store_xml(
        [
            // No type but a URL: a bookmark.
            "<dict><key>URLString</key><string>https://e/untyped</string></dict>",
            // An unknown type without a URL: a folder, the type kept.
            "<dict><key>WebBookmarkType</key><string>WebBookmarkTypeFuture</string><key>Title</key><string>F</string></dict>",
            // Not a dictionary at all.
            "<string>stray</string>",
        ]
        .into_iter()
        .map(String::from),
    );
    let (doc, diags) = read(xml.as_bytes());
    let bar = doc.children(None)[0];
    let kids = doc.children(Some(bar));
    assert_eq!(kids.len(), 2);
    assert_eq!(
        doc.node(kids[0]).as_bookmark().unwrap().href,
        "https://e/untyped"
    );
    let f = doc.node(kids[1]).as_folder().unwrap();
    assert_eq!(f.extra[0].value, "WebBookmarkTypeFuture");
    assert_eq!(diags.len(), 3);
    assert!(diags.iter().all(|d| d.severity == Severity::Warning));
    assert!(diags[2].message.contains("entry 3"), "{}", diags[2].message);
}

#[test]
fn broken_xml_is_an_error_with_its_line_and_column() {
    let xml = std::fs::read(corpus("bookmarks.plist")).unwrap();
    let text = String::from_utf8(xml).unwrap();
    // An unknown element on line 9.
    let broken = text.replacen("<string>History</string>", "<strin>History</strin>", 1);
    let line = broken.lines().position(|l| l.contains("<strin>")).unwrap() + 1;
    let err = markport_safari::read(broken.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location.map(|l| l.line), Some(line as u32), "{err}");

    // Cut short: an error, no document.
    let cut = &text.as_bytes()[..text.len() / 2];
    assert!(markport_safari::read(cut, &ReadOptions::default()).is_err());
}

#[test]
fn a_plist_that_is_not_a_store() {
    let array = b"<plist version=\"1.0\"><array><string>x</string></array></plist>";
    let err = markport_safari::read(array, &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    assert!(markport_safari::detect(array).is_none());
    // A binary plist that is not Safari's (a .webloc) is not detected.
    let mut p = Bplist::default();
    let (k, v) = (p.string("URL"), p.string("https://e/"));
    let root = p.dict(&[(k, v)]);
    assert!(markport_safari::detect(&p.finish(root)).is_none());
    assert!(markport_safari::detect(b"bplist00").is_none());
}

#[test]
fn truncated_binary_plists_are_errors() {
    let bytes = std::fs::read(corpus("bookmarks-binary.plist")).unwrap();
    for len in [8, 40, bytes.len() / 2, bytes.len() - 1] {
        let err = markport_safari::read(&bytes[..len], &ReadOptions::default()).unwrap_err();
        assert!(err.message.starts_with("binary plist: "), "{len}: {err}");
    }
}

/// Where an XML plist's error is: (line, column) of what is wrong.
fn error_at(xml: &str) -> (u32, u32) {
    let err = markport_safari::read(xml.as_bytes(), &ReadOptions::default()).unwrap_err();
    let at = err.location.unwrap_or_else(|| panic!("no position: {err}"));
    (at.line, at.column)
}

#[test]
fn xml_errors_point_at_the_token_not_past_it() {
    let head = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n  <key>Title</key>\n";
    let at = |body: &str| error_at(&format!("{head}{body}\n</dict></plist>"));
    // The crate's errors: at the unknown element's `<`, the end tag that
    // does not match, the value that does not parse, the stray text.
    assert_eq!(at("  <strin>x</strin>"), (5, 3));
    assert_eq!(at("  <string>x</key>"), (5, 12));
    assert_eq!(at("  <integer>x1</integer>"), (5, 12));
    assert_eq!(at("  <date>yesterday</date>"), (5, 9));
    assert_eq!(at("  <string>x</string>&bogus;"), (5, 21));
    // The reader's own errors had no position: a key that is a
    // dictionary, a value after the top dictionary, a file cut short.
    let key = format!("{head}  <string>x</string>\n  <dict/>\n</dict></plist>");
    assert_eq!(error_at(&key), (6, 3));
    let after = format!("{head}  <string>x</string>\n</dict>\n<string>more</string></plist>");
    assert_eq!(error_at(&after), (7, 1));
    let cut = format!("{head}  <string>x</string>\n");
    assert_eq!(error_at(&cut), (6, 1));
}

#[test]
fn a_header_only_binary_plist_is_said_to_be_cut_short() {
    for bytes in [&b"bplist00"[..], b"bplist00\x00\x01\x02"] {
        let err = markport_safari::read(bytes, &ReadOptions::default()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Syntax);
        assert!(
            err.message.starts_with(&format!(
                "binary plist: cut short at byte {}: ",
                bytes.len()
            )),
            "{err}"
        );
        assert!(!err.message.contains("io("), "{err}");
    }
}
