//! A key given twice: markport reads what Chromium reads (its JSON reader
//! keeps the last value) and says where each repetition stands.

use markport_model::{Location, Parsed, ReadOptions, Role};

fn read(text: &str) -> Parsed {
    markport_chromium::read(text.as_bytes(), &ReadOptions::default()).unwrap()
}

/// The warnings about repeated keys: (line, column, key named).
fn repeated(parsed: &Parsed) -> Vec<(u32, u32, String)> {
    parsed
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("given again"))
        .map(|d| {
            let Location { line, column } = d.location.unwrap();
            let key = d.message.split('`').nth(1).unwrap().to_owned();
            (line, column, key)
        })
        .collect()
}

#[test]
fn the_last_of_a_repeated_key_counts_and_each_repetition_is_located() {
    let text = r#"{"version": 1, "x": "first", "x": "second",
"roots": {
 "bookmark_bar": {"type": "folder", "name": "old bar", "children": []},
 "bookmark_bar": {"type": "folder", "name": "Bar", "name": "Bar2", "children": [
   {"type": "url", "name": "a", "url": "https://old/", "url": "https://new/",
    "meta_info": {"k": "1", "k": "2"}, "sync": "1", "sync": "2"}
 ]},
 "other": {"type": "folder", "children": [
   {"type": "url", "name": "gone", "url": "https://gone/"}],
   "children": [{"type": "url", "name": "kept", "url": "https://kept/"}]},
 "synced": {"type": "folder", "children": []}}}"#;
    let parsed = read(text);
    let doc = &parsed.document;
    // One bar, the last one, with its last name.
    let top = doc.children(None);
    assert_eq!(top.len(), 3);
    let bar = doc.node(top[0]).as_folder().unwrap();
    assert_eq!(bar.role, Some(Role::Toolbar));
    assert_eq!(bar.title.as_deref(), Some("Bar2"));
    let a = doc
        .node(doc.children(Some(top[0]))[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(a.href, "https://new/");
    let meta: Vec<(&str, &str)> = a
        .details()
        .meta_info
        .iter()
        .map(|m| (m.name.as_str(), m.value.as_str()))
        .collect();
    assert_eq!(meta, [("k", "2")]);
    assert_eq!(
        a.details().meta_info.capacity(),
        1,
        "sized to what it holds"
    );
    let extra: Vec<(&str, &str)> = a
        .details()
        .extra
        .iter()
        .map(|m| (m.name.as_str(), m.value.as_str()))
        .collect();
    assert_eq!(extra, [("sync", "2")]);
    // The last `children` of `other`, not the first.
    let other: Vec<&str> = doc
        .children(Some(top[1]))
        .iter()
        .map(|&c| doc.node(c).as_bookmark().unwrap().href.as_str())
        .collect();
    assert_eq!(other, ["https://kept/"]);
    assert_eq!(doc.census().bookmarks, 2);
    let x: Vec<&str> = doc
        .header
        .extra
        .iter()
        .filter(|a| a.name == "x")
        .map(|a| a.value.as_str())
        .collect();
    assert_eq!(x, ["second"]);
    assert_eq!(
        repeated(&parsed),
        [
            (1, 30, "x".to_owned()),
            (4, 2, "bookmark_bar".to_owned()),
            (4, 52, "name".to_owned()),
            (5, 56, "url".to_owned()),
            (6, 29, "k".to_owned()),
            (6, 53, "sync".to_owned()),
            (10, 4, "children".to_owned()),
        ]
    );
}

#[test]
fn a_file_without_repeated_keys_has_no_such_warning() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus/chromium/chrome-2024.Bookmarks"),
    )
    .unwrap();
    assert_eq!(repeated(&read(&text)), []);
}

#[test]
fn repeated_keys_of_a_long_meta_info_keep_their_place_and_last_value() {
    // More keys than the list is searched for: past that, a map finds them.
    let keys = 40;
    let mut members: Vec<String> = (0..keys).map(|i| format!("\"k{i}\": \"a{i}\"")).collect();
    members.extend((0..keys).rev().map(|i| format!("\"k{i}\": \"b{i}\"")));
    let text = format!(
        r#"{{"version": 1, "roots": {{"bookmark_bar": {{"type": "folder", "children": [
{{"type": "url", "url": "https://x/", "meta_info": {{{}}}}}]}}}}}}"#,
        members.join(", ")
    );
    let parsed = read(&text);
    let doc = &parsed.document;
    let bar = doc.children(None)[0];
    let b = doc.node(doc.children(Some(bar))[0]).as_bookmark().unwrap();
    let meta: Vec<(String, String)> = b
        .details()
        .meta_info
        .iter()
        .map(|m| (m.name.clone(), m.value.clone()))
        .collect();
    let expected: Vec<(String, String)> = (0..keys)
        .map(|i| (format!("k{i}"), format!("b{i}")))
        .collect();
    assert_eq!(meta, expected);
    // Every bookmark of a profile has a meta_info: it holds no empty room.
    assert_eq!(b.details().meta_info.capacity(), keys);
    let named: Vec<String> = repeated(&parsed).into_iter().map(|(_, _, k)| k).collect();
    let expected: Vec<String> = (0..keys).rev().map(|i| format!("k{i}")).collect();
    assert_eq!(named, expected);
}
