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

/// The whole document, one line a node, indented by depth: `[title]` for
/// a folder, `href|title` for a bookmark (an explicit stack).
fn tree(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<(usize, markport_model::NodeId)> =
        doc.children(None).iter().rev().map(|&n| (0, n)).collect();
    while let Some((depth, id)) = stack.pop() {
        let pad = "  ".repeat(depth);
        match doc.node(id).as_bookmark() {
            Some(b) => out.push(format!(
                "{pad}{}|{}",
                b.href,
                b.title.as_deref().unwrap_or("")
            )),
            None => {
                out.push(format!("{pad}[{}]", doc.node(id).title().unwrap_or("")));
                stack.extend(doc.children(Some(id)).iter().rev().map(|&n| (depth + 1, n)));
            }
        }
    }
    out
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
    // The unnamed workspace is named by its place; a pinned tab whose
    // workspace is gone is kept under `Pinned`. The link a tab was pinned
    // on, not the issue it wandered to; the user's label before the
    // page's title. Zen's folders inside the workspace's, where Zen's
    // restore puts them: a top-level one at its placeholder tab, a nested
    // one after its previous sibling (`prevSiblingInfo`); the empty ones
    // (only their placeholder tab) made too.
    assert_eq!(
        tree(&parsed.document),
        [
            "[Essentials]",
            "  https://mail.example.com/inbox|Inbox – Example Mail",
            "  https://chat.example.org/|Team chat",
            "[Work]",
            "  https://tracker.example.com/board|Board – Tracker",
            "  [Docs]",
            "    https://docs.example.com/guide/start|Guide",
            "    [API]",
            "      https://docs.example.com/api/v2?lang=en&format=html|API v2 reference",
            "    [Drafts]",
            "  [Later]",
            "  https://status.example.com/|Status – Example",
            "[Home]",
            "  https://recipes.example.net/bread|Bread 🍞",
            "  [Ideas]",
            "[Workspace 3]",
            "[Pinned]",
            "  https://old.example.com/|A workspace deleted since",
        ]
    );
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
    // Zen before its session manager: flags as the attributes' text
    // (`"zenEssential": "true"`), `zenPinnedId` and `zenPinnedEntry`, the
    // workspaces' names and the tabs' labels not in the file.
    let json = std::fs::read_to_string(corpus("sessionstore.json")).unwrap();
    let parsed = read(&json);
    assert_eq!(
        tree(&parsed.document),
        [
            "[Essentials]",
            "  https://calendar.example.com/|Calendar",
            "[Workspace 1]",
            "  https://wiki.example.org/Caf%C3%A9|Café – Wiki",
            "  [Cooking]",
            "    https://recipes.example.net/soup|Soup – Recipes",
            "[Workspace 2]",
            "  https://code.example.dev/markport|markport – Code",
        ]
    );
    let notes: Vec<&str> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        notes,
        [
            "read 2 workspaces from 2 windows: 3 pinned tabs, 1 essential",
            "the session names no workspace (Zen before its session manager kept their names \
             in places.sqlite): 2 named by their place",
            "1 tab was renamed in Zen, but the session does not hold the name (Zen before its \
             session manager kept it in places.sqlite): the page's title is used",
            "1 ordinary (unpinned) tab was skipped",
        ]
    );
}

#[test]
fn firefox_s_own_session_store_in_newer_zen_is_read_once_across_windows() {
    // Newer Zen still lets Firefox write sessionstore.jsonlz4: each window
    // holds the same spaces, folders and tabs as zen-sessions.jsonlz4.
    let window = r#"{"spaces": [{"uuid": "w", "name": "Work"}],
        "folders": [{"id": "f", "name": "Docs", "parentId": null, "workspaceId": "w",
                     "prevSiblingInfo": {"type": "tab", "id": "t1"}, "emptyTabIds": ["e"]}],
        "tabs": [
          {"pinned": true, "zenWorkspace": "w", "zenSyncId": "t1", "entries": [{"url": "https://a.example/"}]},
          {"pinned": true, "zenIsEmpty": true, "groupId": "f", "zenWorkspace": "w", "zenSyncId": "e", "entries": [{"url": "about:blank"}]},
          {"pinned": true, "zenWorkspace": "w", "zenSyncId": "t2", "entries": [{"url": "https://b.example/"}]}]}"#;
    let parsed = read(&format!(r#"{{"windows": [{window}, {window}]}}"#));
    assert_eq!(
        tree(&parsed.document),
        [
            "[Work]",
            "  https://a.example/|",
            "  [Docs]",
            "  https://b.example/|"
        ]
    );
    assert_eq!(
        parsed.diagnostics[0].message,
        "read 1 workspace from 2 windows: 2 pinned tabs, 0 essentials"
    );
}

#[test]
fn split_views_unpinned_folders_and_folders_without_any_tab() {
    // A split view inside a folder is no folder; an unpinned folder holds
    // ordinary tabs; a folder no tab names (not even its placeholder) is
    // made where its previous sibling says, or at the end of its workspace.
    let parsed = read(
        r#"{"spaces": [{"uuid": "w", "name": "W"}],
        "folders": [
          {"id": "s", "splitViewGroup": true, "parentId": "a", "workspaceId": "w"},
          {"id": "u", "name": "Unpinned", "pinned": false, "workspaceId": "w"},
          {"id": "a", "name": "A", "workspaceId": "w", "prevSiblingInfo": {"type": "tab", "id": "t2"}},
          {"id": "b", "name": "B", "workspaceId": "w", "prevSiblingInfo": null},
          {"id": "c", "name": "C", "workspaceId": "w", "prevSiblingInfo": {"type": "start", "id": null}},
          {"id": "n", "name": "N", "parentId": "a", "prevSiblingInfo": {"type": "group", "id": "gone"}}],
        "tabs": [
          {"pinned": true, "zenWorkspace": "w", "zenSyncId": "t1", "entries": [{"url": "https://1.example/"}]},
          {"pinned": true, "zenWorkspace": "w", "zenSyncId": "t2", "entries": [{"url": "https://2.example/"}]},
          {"pinned": true, "zenWorkspace": "w", "zenSyncId": "t3", "groupId": "s", "entries": [{"url": "https://3.example/"}]},
          {"pinned": false, "zenWorkspace": "w", "groupId": "u", "entries": [{"url": "https://4.example/"}]}]}"#,
    );
    assert_eq!(
        tree(&parsed.document),
        [
            "[W]",
            "  [C]",
            "  https://1.example/|",
            "  https://2.example/|",
            "  [A]",
            "    [N]",
            "  https://3.example/|",
            "  [B]",
        ]
    );
    assert_eq!(
        parsed.diagnostics[1].message,
        "1 ordinary (unpinned) tab was skipped"
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

#[test]
fn a_chain_of_100000_previous_siblings_and_a_loop_of_them_are_followed_in_one_pass() {
    // Folder i comes after folder i - 1, folder 0 after the tab, listed
    // last first: the order comes from the chain, not from the file; two
    // folders each after the other are reached from nothing and come last.
    const N: usize = 100_000;
    let mut json = String::from(
        r#"{"spaces": [{"uuid": "w", "name": "W"}], "folders": [{"id": "p", "name": "P", "workspaceId": "w"},"#,
    );
    for i in (0..N).rev() {
        let prev = if i == 0 {
            r#"{"type": "tab", "id": "t"}"#.to_string()
        } else {
            format!(r#"{{"type": "group", "id": "f{}"}}"#, i - 1)
        };
        json.push_str(&format!(
            r#"{{"id": "f{i}", "name": "{i}", "parentId": "p", "prevSiblingInfo": {prev}}},"#
        ));
    }
    json.push_str(
        r#"{"id": "x", "name": "x", "parentId": "p", "prevSiblingInfo": {"type": "group", "id": "y"}},
           {"id": "y", "name": "y", "parentId": "p", "prevSiblingInfo": {"type": "group", "id": "x"}}],
        "tabs": [{"pinned": true, "zenWorkspace": "w", "groupId": "p", "zenSyncId": "t",
                  "entries": [{"url": "https://example.org/"}]}]}"#,
    );
    let doc = read(&json).document;
    let p = doc.find_folder(["W", "P"]).unwrap();
    let kids = doc.children(Some(p));
    assert_eq!(kids.len(), 1 + N + 2);
    assert!(doc.node(kids[0]).as_bookmark().is_some());
    let titles: Vec<&str> = kids[1..]
        .iter()
        .map(|&k| doc.node(k).title().unwrap())
        .collect();
    assert!(titles[..N]
        .iter()
        .enumerate()
        .all(|(i, t)| *t == i.to_string()));
    assert_eq!(titles[N..], ["x", "y"]);
}

#[test]
fn flags_written_as_text_are_read_as_zen_s_code_reads_them() {
    // Zen's older session code saved attributes: "true", or null.
    let parsed = read(
        r#"{"tabs": [
          {"pinned": "true", "zenEssential": "true", "entries": [{"url": "https://e.example/"}]},
          {"pinned": true, "zenEssential": null, "zenWorkspace": "w", "entries": [{"url": "https://p.example/"}]},
          {"pinned": null, "zenEssential": "", "entries": [{"url": "https://o.example/"}]}]}"#,
    );
    assert_eq!(
        tree(&parsed.document),
        [
            "[Essentials]",
            "  https://e.example/|",
            "[Workspace 1]",
            "  https://p.example/|"
        ]
    );
}

#[test]
fn many_empty_folders_with_their_placeholders_are_charged_against_the_budget() {
    // Each folder and each placeholder tab is charged, and the order's
    // work with them, before it is done.
    const N: usize = 20_000;
    let mut json = String::from(r#"{"spaces": [{"uuid": "w", "name": "W"}], "folders": ["#);
    for i in 0..N {
        json.push_str(&format!(
            r#"{{"id": "f{i}", "workspaceId": "w", "prevSiblingInfo": {{"type": "start"}}}},"#
        ));
    }
    json.push_str(r#"{"id": "x"}], "tabs": ["#);
    for i in 0..N {
        json.push_str(&format!(
            r#"{{"pinned": true, "zenIsEmpty": true, "groupId": "f{i}", "entries": [{{"url": "about:blank"}}]}},"#
        ));
    }
    json.push_str("{}]}");
    let mut opts = ReadOptions::default();
    opts.memory_budget = Some(8 << 20);
    let e = markport_zen::read(json.as_bytes(), &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    assert!(e.message.contains("--memory-budget"), "{e}");
    // Within the default budget each is an empty folder, none a bookmark.
    let doc = read(&json).document;
    assert_eq!(doc.census().bookmarks, 0);
    // W, the N folders; `x`, of no workspace, under `Pinned`.
    assert_eq!(doc.census().folders, 1 + N + 2);
}
