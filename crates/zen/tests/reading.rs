//! Zen's sessions as markport reads them: the corpus samples (each
//! `.jsonlz4` is its `.json` compressed: `MARKPORT_BLESS=1` makes them
//! again), what each rule of the reading keeps and skips, and hostile
//! sessions.

use std::path::PathBuf;

use markport_model::{Document, ErrorKind, ReadOptions, Severity};

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/zen")
        .join(name)
}

fn read(json: &str) -> markport_model::Parsed {
    markport_zen::read(json.as_bytes(), &ReadOptions::default()).unwrap()
}

/// Each top-level folder's title with its bookmarks' `href|title`.
fn outline(doc: &Document) -> Vec<(String, Vec<String>)> {
    doc.children(None)
        .iter()
        .map(|&f| {
            let links = doc
                .descendants(f)
                .filter_map(|id| doc.node(id).as_bookmark())
                .map(|b| format!("{}|{}", b.href, b.title.as_deref().unwrap_or("")))
                .collect();
            (doc.node(f).title().unwrap_or("").to_string(), links)
        })
        .collect()
}

#[test]
fn the_compressed_samples_are_their_json_compressed() {
    for name in ["zen-sessions", "sessionstore"] {
        let json = std::fs::read(corpus(&format!("{name}.json"))).unwrap();
        let path = corpus(&format!("{name}.jsonlz4"));
        if std::env::var_os("MARKPORT_BLESS").is_some() {
            std::fs::write(&path, markport_firefox::lz4::compress(&json).unwrap()).unwrap();
        }
        let lz4 = std::fs::read(&path).unwrap();
        assert_eq!(
            markport_firefox::lz4::decompress(&lz4).unwrap(),
            json,
            "{name}"
        );
        // Zen's claim beats Firefox's on every mozLz40 file.
        assert_eq!(markport_zen::detect(&lz4), Some(99));
        assert_eq!(markport_firefox::detect(&lz4), Some(95));
        let a = markport_zen::read(&lz4, &ReadOptions::default()).unwrap();
        let b = markport_zen::read(&json, &ReadOptions::default()).unwrap();
        assert_eq!(a.document, b.document);
    }
}

#[test]
fn essentials_then_workspaces_in_order_with_their_folders() {
    let json = std::fs::read_to_string(corpus("zen-sessions.json")).unwrap();
    let parsed = read(&json);
    let got = outline(&parsed.document);
    let titles: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
    // The unnamed workspace is named by its place; a pinned tab whose
    // workspace is gone is kept under `Pinned`.
    assert_eq!(
        titles,
        ["Essentials", "Work", "Home", "Workspace 3", "Pinned"]
    );
    // The link a tab was pinned on, not the issue it wandered to; the
    // user's label before the page's title.
    assert_eq!(
        got[1].1,
        [
            "https://tracker.example.com/board|Board – Tracker",
            "https://docs.example.com/guide/start|Guide",
            "https://docs.example.com/api/v2?lang=en&format=html|API v2 reference"
        ]
    );
    assert_eq!(got[0].1[1], "https://chat.example.org/|Team chat");
    // Zen's folders nest inside the workspace's.
    let doc = &parsed.document;
    let docs = doc.find_folder(["Work", "Docs", "API"]);
    assert!(docs.is_some(), "Work/Docs/API");
    let notes: Vec<&str> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        notes.contains(&"2 ordinary (unpinned) tabs were skipped"),
        "{notes:?}"
    );
    assert!(parsed
        .diagnostics
        .iter()
        .all(|d| d.severity == Severity::Note));
}

#[test]
fn the_older_session_store_reads_each_pinned_tab_once_across_windows() {
    let json = std::fs::read_to_string(corpus("sessionstore.json")).unwrap();
    let got = outline(&read(&json).document);
    assert_eq!(
        got,
        [
            (
                "Essentials".to_string(),
                vec!["https://calendar.example.com/|Calendar".to_string()]
            ),
            (
                "Reading".to_string(),
                vec!["https://wiki.example.org/Caf%C3%A9|Coffee".to_string()]
            ),
            (
                "Projects".to_string(),
                vec!["https://code.example.dev/markport|markport – Code".to_string()]
            ),
        ]
    );
}

#[test]
fn a_pinned_tab_without_any_link_is_reported() {
    let parsed = read(r#"{"tabs": [{"pinned": true, "entries": []}]}"#);
    assert_eq!(parsed.document.census().bookmarks, 0);
    let d = &parsed.diagnostics[1];
    assert_eq!(
        (d.severity, d.message.as_str()),
        (Severity::Warning, "1 pinned tab has no link; skipped")
    );
    let mut strict = ReadOptions::default();
    strict.strict = true;
    let e = markport_zen::read(br#"{"tabs": [{"pinned": true}]}"#, &strict).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Strict);
}

#[test]
fn broken_and_foreign_sessions_are_refused_with_their_place() {
    let e = markport_zen::read(
        b"{\"tabs\": [\n  {\"pinned\": tru}]}",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.location.unwrap().to_string(), "2:14");
    let e = markport_zen::read(b"[1, 2]", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::WrongFormat);
    let e = markport_zen::read(b"mozLz40\0\xff\xff\xff\x7f", &ReadOptions::default()).unwrap_err();
    assert!(e.message.contains("Mozilla LZ4"), "{e}");
}

#[test]
fn folders_nested_100000_deep_and_in_a_loop_read_without_recursion() {
    const N: usize = 100_000;
    let mut json = String::from(r#"{"spaces": [{"uuid": "w", "name": "W"}], "folders": ["#);
    for i in 0..N {
        let parent = if i == 0 {
            "null".to_string()
        } else {
            format!("\"f{}\"", i - 1)
        };
        json.push_str(&format!(
            r#"{{"id": "f{i}", "name": "{i}", "parentId": {parent}}},"#
        ));
    }
    // Two folders each the other's parent.
    json.push_str(r#"{"id": "a", "parentId": "b"}, {"id": "b", "parentId": "a"}], "tabs": ["#);
    for g in [format!("f{}", N - 1), "f0".into(), "a".into(), "b".into()] {
        json.push_str(&format!(
            r#"{{"pinned": true, "zenWorkspace": "w", "groupId": "{g}", "entries": [{{"url": "https://example.org/{g}"}}]}},"#
        ));
    }
    json.push_str(r#"{"pinned": false}]}"#);
    let doc = read(&json).document;
    assert_eq!(doc.census().bookmarks, 4);
    assert_eq!(doc.max_depth(), N + 1);
    // Each Zen folder is made once, however many tabs ask for it.
    assert_eq!(doc.census().folders, 1 + N + 2);
}

#[test]
fn a_session_of_many_tiny_pinned_tabs_stops_at_the_memory_budget() {
    let mut json = String::from(r#"{"tabs": ["#);
    for _ in 0..20_000 {
        json.push_str(r#"{"pinned":true,"entries":[{"url":"a:"}]},"#);
    }
    json.push_str("{}]}");
    let mut opts = ReadOptions::default();
    opts.memory_budget = Some(1 << 20);
    let e = markport_zen::read(json.as_bytes(), &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    assert!(e.message.contains("--memory-budget"), "{e}");
    // At the place of the item that took it past.
    assert_eq!(e.location.unwrap().line, 1);
    assert!(e.location.unwrap().column > 1000, "{e}");
    // Within the default budget (twice the input plus an allowance) it reads.
    assert_eq!(read(&json).document.census().bookmarks, 20_000);
}

#[test]
fn json_nested_100000_deep_in_a_value_nobody_reads_is_skipped() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let json = format!(
        r#"{{"extra": {deep}, "tabs": [{{"pinned": true, "junk": {deep}, "entries": [{{"url": "https://a.example/"}}]}}]}}"#
    );
    assert_eq!(read(&json).document.census().bookmarks, 1);
}
