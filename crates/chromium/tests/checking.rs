//! The reader asked for `markport check`'s rules (`ReadOptions::checking`):
//! every rule a file breaks, tagged, at its line and column; reading on
//! past a value of the wrong kind; what was found before a fatal error
//! kept with it; and nothing of it when not asked.

use markport_model::{Diagnostic, Error, Parsed, ReadOptions};

fn read(text: &str, checking: bool) -> Result<Parsed, Error> {
    let mut opts = ReadOptions::default();
    opts.checking = checking;
    markport_chromium::read(text.as_bytes(), &opts)
}

/// (line, column, rule) of each tagged diagnostic, in order of position.
fn rules(diags: &[Diagnostic]) -> Vec<(u32, u32, String)> {
    let mut found: Vec<_> = diags
        .iter()
        .filter_map(|d| {
            let at = d.location.expect("a rule is found at a place");
            Some((at.line, at.column, d.rule.as_deref()?.to_owned()))
        })
        .collect();
    found.sort();
    found
}

fn at(line: u32, column: u32, rule: &str) -> (u32, u32, String) {
    (line, column, rule.to_owned())
}

/// A file that breaks most rules at once; without `other`. What check
/// found in it with a walk of its own, before the rules moved here, is
/// what the reader finds.
const BROKEN: &str = r#"{
"roots": {
 "bookmark_bar": {"type": "folder", "name": "Bar", "id": "1", "children": [
  5,
  {"type": "url", "id": "x", "guid": "ABC", "date_added": "yesterday", "name": 7},
  {"type": "folder", "id": "1", "name": "F", "children": {}},
  {"type": "link", "id": "2", "name": "L", "date_modified": 12},
  {"type": "url", "id": "3", "name": "ok", "url": "https://example.org/",
   "guid": "00000005-0000-4000-8000-000000000005"},
  {"type": "url", "id": "4", "name": "ok", "url": "https://example.org/",
   "guid": "00000005-0000-4000-8000-000000000005"}
 ]},
 "synced": []
},
"version": 1
}"#;

#[test]
fn checking_finds_every_rule_and_reads_on() {
    let parsed = read(BROKEN, true).unwrap();
    assert_eq!(
        rules(&parsed.diagnostics),
        [
            at(2, 10, "chromium/missing-root"),
            at(4, 3, "chromium/structure"),
            at(5, 3, "chromium/missing-key"),
            at(5, 25, "chromium/bad-id"),
            at(5, 38, "chromium/bad-guid"),
            at(5, 59, "chromium/bad-date"),
            at(5, 72, "chromium/missing-key"),
            at(6, 3, "chromium/missing-key"),
            at(6, 28, "chromium/duplicate-id"),
            at(6, 58, "chromium/structure"),
            at(7, 12, "chromium/bad-type"),
            at(7, 61, "chromium/bad-date"),
            at(11, 12, "chromium/bad-guid"),
            at(13, 12, "chromium/structure"),
        ]
    );
    let messages: Vec<&str> = parsed.diagnostics.iter().map(|d| &*d.message).collect();
    assert!(
        messages.contains(&"this url node has no name, url"),
        "{messages:#?}"
    );
    assert!(
        messages.contains(&"this folder node has no children"),
        "{messages:#?}"
    );
    assert!(
        messages.contains(
            &"id \"1\" is already the id of the node on line 3; Chromium renumbers every node"
        ),
        "{messages:#?}"
    );
    assert!(
        messages
            .contains(&"date_modified is 12, not a string of an integer (microseconds since 1601)"),
        "{messages:#?}"
    );
    // The nodes read on: the bar holds the five objects of its children.
    let doc = &parsed.document;
    let bar = doc.children(None)[0];
    assert_eq!(doc.children(Some(bar)).len(), 5);
}

#[test]
fn without_checking_the_reader_says_nothing_new() {
    // What the reader refuses it still refuses, with its own message.
    let e = read(BROKEN, false).unwrap_err();
    assert_eq!(e.message, "a bookmark node must be an object");
    assert!(e.found.is_empty());
    // A file it reads: ids, guids and dates Chromium would repair are no
    // diagnostic of a conversion.
    let readable = r#"{"roots": {
      "bookmark_bar": {"type": "folder", "name": "Bar", "id": "x", "children": [
        {"type": "url", "id": "x", "guid": "ABC", "name": "n", "url": "https://e/",
         "date_added": "yesterday"}]},
      "other": {"type": "folder", "name": "O", "id": "2", "children": []}}, "version": 1}"#;
    let quiet = read(readable, false).unwrap();
    assert_eq!(rules(&quiet.diagnostics), []);
    let checked = read(readable, true).unwrap();
    let found: Vec<String> = rules(&checked.diagnostics)
        .into_iter()
        .map(|r| r.2)
        .collect();
    assert_eq!(
        found,
        [
            "chromium/bad-id",
            "chromium/bad-id",
            "chromium/bad-guid",
            "chromium/bad-date"
        ]
    );
    assert_eq!(quiet.document, checked.document);
}

#[test]
fn what_was_found_before_a_syntax_error_is_kept_with_it() {
    // The error inside a root (the second pass reads up to it), and after
    // the roots (the second pass reads them whole, the first stopped).
    let inside = "{\"roots\": {\"bookmark_bar\": {\"type\": \"folder\", \"name\": \"B\", \"id\": \"b\",\n\"children\": [}}}";
    let after = "{\"roots\": {\"bookmark_bar\": {\"type\": \"folder\", \"name\": \"B\", \"id\": \"b\",\n\"children\": []}}, \"version\": 1 x}";
    for (text, line, column) in [(inside, 2, 14), (after, 2, 32)] {
        let e = read(text, true).unwrap_err();
        assert_eq!(e.rule, Some("chromium/not-json"), "{e}");
        let loc = e.location.unwrap();
        assert_eq!((loc.line, loc.column), (line, column), "{e}");
        assert_eq!(rules(&e.found), [at(1, 66, "chromium/bad-id")], "{text}");
        assert!(e.message.ends_with("; checking stops here"), "{e}");
    }
}

#[test]
fn a_file_cut_before_its_roots_is_not_json_rather_than_without_roots() {
    let e = read("{\n   \"checksum\": \"", true).unwrap_err();
    assert_eq!(e.rule, Some("chromium/not-json"), "{e}");
    let e = read("{\"roots\": 5, \"version\": ", true).unwrap_err();
    assert_eq!(e.rule, Some("chromium/not-json"), "{e}");
    assert_eq!(rules(&e.found), [at(1, 11, "chromium/structure")]);
}

#[test]
fn ids_are_judged_in_the_order_of_the_file() {
    // The reader takes bookmark_bar first; the file has `other` first, so
    // the bar's id is the one given again.
    let text = r#"{"roots": {
"other": {"type": "folder", "name": "O", "id": "7", "children": []},
"bookmark_bar": {"type": "folder", "name": "B", "id": "7", "children": []}
}, "version": 1}"#;
    let parsed = read(text, true).unwrap();
    assert_eq!(
        rules(&parsed.diagnostics),
        [at(3, 55, "chromium/duplicate-id")]
    );
}

#[test]
fn no_roots_is_fatal_and_named() {
    let e = read("{\"version\": 1, \"checksum\": \"\"}", true).unwrap_err();
    assert_eq!(e.rule, Some("chromium/missing-root"));
    let e = read("{\"roots\": [], \"version\": 1}", true).unwrap_err();
    assert_eq!(e.rule, Some("chromium/missing-root"));
    assert_eq!(rules(&e.found), [at(1, 11, "chromium/structure")]);
    let e = read("[]", true).unwrap_err();
    assert_eq!(e.rule, Some("chromium/structure"));
}

/// An empty folder is a few dozen bytes and a node of a few hundred: 2,000
/// of them read within the file's own budget and, past a smaller one, are
/// refused where they pass it, naming the flag.
#[test]
fn a_file_of_tiny_nodes_is_refused_past_its_budget() {
    let folders = vec![r#"{"type":"folder","children":[]}"#; 2_000].join(",\n");
    let file = format!(
        r#"{{"roots":{{"bookmark_bar":{{"type":"folder","children":[
{folders}]}}}},"version":1}}"#
    );
    let read = |budget: Option<u64>| {
        let mut opts = markport_model::ReadOptions::default();
        opts.memory_budget = budget;
        markport_chromium::read(file.as_bytes(), &opts)
    };
    assert!(read(None).unwrap().document.len() > 2_000);
    let e = read(Some(300_000)).unwrap_err();
    assert_eq!(e.kind, markport_model::ErrorKind::Unsafe, "{e}");
    assert!(e.message.contains("--memory-budget"), "{}", e.message);
    let line = e.location.expect("where it passed").line;
    assert!(line > 100 && line < 2_000, "line {line}");
}
