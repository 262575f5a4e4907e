//! Arc's sidebar as markport reads it: the corpus sample, which half of
//! the file is read, and hostile sidebars (deep lists, loops, one item
//! listed everywhere, many tiny items).

use std::path::PathBuf;

use markport_model::{Document, ErrorKind, ReadOptions, Severity};

fn sample() -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/arc/StorableSidebar.json"),
    )
    .unwrap()
}

fn read(json: &str) -> markport_model::Parsed {
    markport_arc::read(json.as_bytes(), &ReadOptions::default()).unwrap()
}

/// Each top-level folder's title with the `href|title` of every bookmark
/// below it, in order.
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

/// A sidebar of one space whose pinned container `P` holds `items`
/// (`(id, parent, children, data)` JSON snippets joined), plus `extra`
/// members of the container object.
fn sidebar(items: &str, extra: &str) -> String {
    format!(
        r#"{{"sidebar": {{"containers": [{{"global": {{}}}}, {{
        "spaces": ["S", {{"id": "S", "title": "Space", "containerIDs": ["pinned", "P"]}}],
        "items": ["P", {{"id": "P", "childrenIds": [], "data": {{"itemContainer": {{}}}}}}, {items}]{extra}}}]}}}}"#
    )
}

#[test]
fn the_sample_reads_favorites_then_spaces_with_renames_and_empty_folders() {
    let parsed = markport_arc::read(&sample(), &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    let got = outline(doc);
    let titles: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(titles, ["Favorites", "Work", "Space 2"]);
    assert_eq!(
        got[0].1,
        [
            "https://mail.example.com/inbox|Inbox (3) - Example Mail",
            "https://calendar.example.com/week|Calendar"
        ]
    );
    // The user's rename ("Deploy") before the saved title.
    assert_eq!(
        got[1].1[0],
        "https://docs.example.com/apps/deployment/web|Deploy"
    );
    // An empty folder is kept.
    let someday = doc.find_folder(["Work", "Projects", "Someday"]).unwrap();
    assert!(doc.children(Some(someday)).is_empty());
    // A tab its container's childrenIds forgot is placed after the listed ones.
    assert_eq!(got[2].1[1], "https://garden.example.net/|Garden");
    let notes: Vec<(Severity, &str)> = parsed
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.message.as_str()))
        .collect();
    assert_eq!(
        notes,
        [
            (Severity::Note, "read `sidebar`: 2 spaces, 7 bookmarks"),
            (
                Severity::Note,
                "2 unpinned Today tabs skipped (--arc-today keeps them)"
            )
        ]
    );
}

#[test]
fn the_today_tabs_are_kept_on_request_in_a_folder_of_their_space_in_the_sidebar_s_order() {
    let mut opts = ReadOptions::default();
    opts.arc.keep_today = true;
    let parsed = markport_arc::read(&sample(), &opts).unwrap();
    let doc = &parsed.document;
    // After the space's pinned items, in its unpinned container's order.
    let work = doc.find_folder(["Work"]).unwrap();
    let last = *doc.children(Some(work)).last().unwrap();
    assert_eq!(doc.node(last).title(), Some(markport_arc::TODAY));
    let today: Vec<&str> = doc
        .children(Some(last))
        .iter()
        .map(|&id| doc.node(id).as_bookmark().unwrap().href.as_str())
        .collect();
    assert_eq!(
        today,
        [
            "https://news.example.com/today",
            "https://search.example.com/?q=arc+export"
        ]
    );
    // The untitled space's unpinned container is empty: no empty folder.
    let space2 = doc.find_folder(["Space 2"]).unwrap();
    assert!(doc
        .children(Some(space2))
        .iter()
        .all(|&id| doc.node(id).title() != Some(markport_arc::TODAY)));
    // Everything the plain reading keeps is kept the same way.
    let plain = markport_arc::read(&sample(), &ReadOptions::default()).unwrap();
    assert_eq!(
        doc.census().bookmarks,
        plain.document.census().bookmarks + 2
    );
    let notes: Vec<&str> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        notes,
        [
            "read `sidebar`: 2 spaces, 9 bookmarks",
            "2 unpinned Today tabs kept, in the folder \"Today\" of their space"
        ]
    );
}

#[test]
fn dates_count_from_2001() {
    let d = markport_arc::date("719151798.50738").unwrap();
    assert_eq!(d.instant().unwrap().to_w3c(), "2023-10-16T12:23:18.50738Z");
    assert_eq!(
        markport_arc::date("0").unwrap().instant().unwrap().to_w3c(),
        "2001-01-01T00:00:00Z"
    );
    assert!(markport_arc::date("1e300").unwrap().instant().is_none());
}

#[test]
fn sync_state_is_read_only_when_sidebar_holds_nothing() {
    let json = r#"{"sidebar": {"containers": [{"global": {}}]},
      "sidebarSyncState": {
        "container": {"value": {"orderedSpaceIDs": ["B", "A"], "topAppsContainerIDs": ["default", "F"]}},
        "spaceModels": [
          "A", {"value": {"id": "A", "title": "Alpha", "newContainerIDs": [{"pinned": {}}, "PA"]}},
          "B", {"value": {"id": "B", "title": "Beta", "newContainerIDs": [{"pinned": {}}, "PB"]}}],
        "items": [
          "PA", {"value": {"id": "PA", "childrenIds": ["t1"], "data": {"itemContainer": {}}}},
          "t1", {"value": {"id": "t1", "parentID": "PA", "data": {"tab": {"savedURL": "https://a.example/"}}}},
          "PB", {"value": {"id": "PB", "childrenIds": ["t2"], "data": {"itemContainer": {}}}},
          "t2", {"value": {"id": "t2", "parentID": "PB", "data": {"tab": {"savedURL": "https://b.example/"}}}},
          "F", {"value": {"id": "F", "childrenIds": ["t3"], "data": {"itemContainer": {}}}},
          "t3", {"value": {"id": "t3", "data": {"tab": {"savedURL": "https://f.example/", "savedTitle": "Fav"}}}}]}}"#;
    let parsed = read(json);
    let got = outline(&parsed.document);
    // Spaces in the order the sync state gives, not the models' order.
    assert_eq!(
        got,
        [
            (
                "Favorites".to_string(),
                vec!["https://f.example/|Fav".to_string()]
            ),
            ("Beta".to_string(), vec!["https://b.example/|".to_string()]),
            ("Alpha".to_string(), vec!["https://a.example/|".to_string()]),
        ]
    );
    assert!(parsed.diagnostics[0]
        .message
        .contains("read `sidebarSyncState`"));
    // The sample's sync state (an older copy) is not read: sidebar has data.
    let sample = markport_arc::read(&sample(), &ReadOptions::default()).unwrap();
    assert!(!outline(&sample.document)
        .iter()
        .any(|(t, _)| t.contains("older copy")));
}

#[test]
fn an_item_without_a_link_is_reported_at_its_line() {
    let parsed = read(&sidebar(
        "\"x\",\n{\"id\": \"x\", \"parentID\": \"P\", \"data\": {\"easel\": {}}}",
        "",
    ));
    let w = parsed
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Warning)
        .unwrap();
    assert_eq!(w.message, "easel x holds no link; skipped");
    assert_eq!(w.location.unwrap().line, 4);
}

#[test]
fn broken_and_foreign_files_are_refused_with_their_place() {
    let e = markport_arc::read(
        b"{\"sidebar\": {\n  \"containers\": [tru]}}",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        (e.kind, e.location.unwrap().to_string()),
        (ErrorKind::Syntax, "2:18".to_string())
    );
    let e = markport_arc::read(b"{\"roots\": {}}", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::WrongFormat);
    let e = markport_arc::read(b"{\"sidebar\": {", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
}

#[test]
fn lists_nested_100000_deep_read_without_recursion() {
    const N: usize = 100_000;
    let mut items = String::new();
    for i in 0..N {
        let parent = if i == 0 {
            "P".to_string()
        } else {
            format!("l{}", i - 1)
        };
        items.push_str(&format!(
            r#""l{i}", {{"id": "l{i}", "parentID": "{parent}", "title": "{i}", "data": {{"list": {{}}}}}},"#
        ));
    }
    items.push_str(&format!(
        r#""t", {{"id": "t", "parentID": "l{}", "data": {{"tab": {{"savedURL": "https://deep.example/"}}}}}}"#,
        N - 1
    ));
    let doc = read(&sidebar(&items, "")).document;
    assert_eq!(doc.census().bookmarks, 1);
    assert_eq!(doc.max_depth(), N + 1);
}

#[test]
fn loops_and_an_item_listed_everywhere_are_placed_once() {
    // `a` lists itself and `b`; `b` lists `a`; the container lists `t`
    // 100,000 times, and so do `a` and `b`.
    let many = vec!["\"t\""; 100_000].join(",");
    let items = format!(
        r#""a", {{"id": "a", "parentID": "P", "childrenIds": ["a", "b", {many}], "data": {{"list": {{}}}}}},
        "b", {{"id": "b", "parentID": "a", "childrenIds": ["a", {many}], "data": {{"list": {{}}}}}},
        "t", {{"id": "t", "parentID": "b", "data": {{"tab": {{"savedURL": "https://once.example/"}}}}}}"#
    );
    let json = sidebar(&items, "").replace(
        r#""P", "childrenIds": []"#,
        &format!(r#""P", "childrenIds": ["a", {many}]"#),
    );
    let doc = read(&json).document;
    assert_eq!(doc.census().bookmarks, 1);
    assert_eq!(doc.census().folders, 3);
}

#[test]
fn many_tiny_items_stop_at_the_memory_budget() {
    let mut items = String::new();
    for i in 0..20_000 {
        items.push_str(&format!(
            r#""{i}",{{"id":"{i}","parentID":"P","data":{{"tab":{{"savedURL":"a:"}}}}}},"#
        ));
    }
    items.push_str(r#""z",{"id":"z"}"#);
    let json = sidebar(&items, "");
    let mut opts = ReadOptions::default();
    opts.memory_budget = Some(1 << 20);
    let e = markport_arc::read(json.as_bytes(), &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    assert!(e.message.contains("--memory-budget"), "{e}");
    // At the place of the item that took it past.
    assert!(e.location.unwrap().column > 1000, "{e}");
    assert_eq!(read(&json).document.census().bookmarks, 20_000);
}

#[test]
fn many_spaces_with_and_without_today_tabs_keep_them_in_one_pass() {
    // Every other space has an empty unpinned container: its "Today"
    // folder goes, without a walk of the document per space.
    const N: usize = 40_000;
    let (mut spaces, mut items) = (String::new(), String::new());
    for i in 0..N {
        spaces.push_str(&format!(
            r#""s{i}", {{"id": "s{i}", "title": "S{i}", "containerIDs": ["pinned", "p{i}", "unpinned", "u{i}"]}},"#
        ));
        let today = if i % 2 == 0 {
            format!(r#""t{i}""#)
        } else {
            String::new()
        };
        items.push_str(&format!(
            r#""p{i}", {{"id": "p{i}", "childrenIds": [], "data": {{"itemContainer": {{}}}}}},
            "u{i}", {{"id": "u{i}", "childrenIds": [{today}], "data": {{"itemContainer": {{}}}}}},
            "t{i}", {{"id": "t{i}", "data": {{"tab": {{"savedURL": "https://example.org/{i}"}}}}}},"#
        ));
    }
    let json = format!(
        r#"{{"sidebar": {{"containers": [{{"spaces": [{spaces} 0], "items": [{items} 0]}}]}}}}"#
    );
    let mut opts = ReadOptions::default();
    opts.arc.keep_today = true;
    let doc = markport_arc::read(json.as_bytes(), &opts).unwrap().document;
    assert_eq!(doc.census().bookmarks, N / 2);
    // Each space, then one "Today" folder for each space that had a tab.
    assert_eq!(doc.census().folders, N + N / 2);
    let last = *doc.children(None).last().unwrap();
    assert_eq!(doc.node(last).title(), Some(format!("S{}", N - 1).as_str()));
    assert!(doc.children(Some(last)).is_empty());
    let first = doc.children(None)[0];
    let today = doc.children(Some(first))[0];
    assert_eq!(doc.node(today).title(), Some(markport_arc::TODAY));
}
