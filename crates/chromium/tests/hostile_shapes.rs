//! Files shaped to make the reader slow or big: what they read as, content
//! asserted. (Times and peak memory are measured in
//! scripts/bench-scaling.sh, not here.)

use markport_model::{ErrorKind, Location, ReadOptions};

const DEPTH: usize = 200_000;

fn read(text: &str) -> Result<markport_model::Parsed, markport_model::Error> {
    markport_chromium::read(text.as_bytes(), &ReadOptions::default())
}

fn file_with(key: &str, value: &str) -> String {
    format!(
        "{{\"roots\": {{\"bookmark_bar\": {{\"type\": \"folder\", \"children\": [\
         {{\"type\": \"url\", \"url\": \"https://a/\", \"{key}\": {value}}}]}}}}, \"version\": 1}}"
    )
}

#[test]
fn nested_brackets_instead_of_a_file_are_refused_where_they_start() {
    let text = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
    let e = read(&text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.location, Some(Location { line: 1, column: 1 }));
    assert!(e.message.contains("JSON object"), "{}", e.message);
    // Cut short: refused where it ends.
    let e = read(&"{\"roots\": [".repeat(3)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
}

#[test]
fn nested_brackets_in_a_value_are_kept_as_its_text() {
    let brackets = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
    let doc = read(&file_with("deep", &brackets)).unwrap().document;
    let bar = doc.children(None)[0];
    let b = doc.node(doc.children(Some(bar))[0]).as_bookmark().unwrap();
    let deep = &b.details().extra[0];
    assert_eq!((deep.name.as_str(), deep.value.len()), ("deep", 2 * DEPTH));
    assert_eq!(deep.value, brackets);
    // Objects nested as deep, in the file's own keys and in meta_info.
    let objects = format!("{}1{}", "{\"k\": ".repeat(DEPTH), "}".repeat(DEPTH));
    let compact = format!("{}1{}", "{\"k\":".repeat(DEPTH), "}".repeat(DEPTH));
    let text = file_with("meta_info", &format!("{{\"m\": {objects}}}")).replacen(
        "\"version\": 1",
        &format!("\"sync_metadata\": {objects}"),
        1,
    );
    let doc = read(&text).unwrap().document;
    assert_eq!(doc.header.extra[0].value, compact);
    let b = doc
        .node(doc.children(Some(doc.children(None)[0]))[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(b.details().meta_info[0].value, compact);
}

#[test]
fn a_url_node_with_deep_children_keeps_them_as_text() {
    // `children` of a url is not Chromium's: kept as its JSON, however deep.
    let mut children = String::new();
    for _ in 0..DEPTH {
        children.push_str("[{\"type\": \"folder\", \"children\": ");
    }
    children.push_str("[]");
    children.push_str(&"}]".repeat(DEPTH));
    let doc = read(&file_with("children", &children)).unwrap().document;
    assert_eq!(doc.census().bookmarks, 1);
    assert_eq!(doc.census().folders, 1);
    let b = doc
        .node(doc.children(Some(doc.children(None)[0]))[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(b.details().extra[0].name, "children");
    assert!(b.details().extra[0]
        .value
        .starts_with("[{\"type\":\"folder\",\"children\":[{"));
}

#[test]
fn many_members_and_many_repeated_keys_read_in_one_pass() {
    let n = 100_000;
    let mut members = String::new();
    for i in 0..n {
        members.push_str(&format!("\"k{i}\": \"v\", \"k{i}\": \"w{i}\", "));
    }
    let text = file_with("last", "0").replacen("\"last\"", &format!("{members}\"last\""), 1);
    let parsed = read(&text).unwrap();
    let doc = &parsed.document;
    let b = doc
        .node(doc.children(Some(doc.children(None)[0]))[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(b.details().extra.len(), n + 1);
    assert_eq!(b.details().extra[n - 1].value, format!("w{}", n - 1));
    assert_eq!(parsed.diagnostics.len(), n);
}
