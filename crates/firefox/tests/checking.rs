//! The reader asked for `markport check`'s rules (`ReadOptions::checking`):
//! every rule a backup breaks, tagged, at its line and column in the JSON
//! (inside the inflated text of a `.jsonlz4`); reading on past a value of
//! the wrong kind; what was found before a fatal error kept with it; and
//! nothing of it when not asked.

use markport_model::{Diagnostic, Error, Parsed, ReadOptions};

fn read(bytes: &[u8], checking: bool) -> Result<Parsed, Error> {
    let mut opts = ReadOptions::default();
    opts.checking = checking;
    markport_firefox::read(bytes, &opts)
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

/// A backup that breaks most rules at once: no unfiled root, a menu root
/// with another guid, a place without uri, types that disagree, a
/// repeated guid, a date that is a string, children that are not an
/// array and a child that is not an object, Firefox 3's trailing comma.
const BROKEN: &str = r#"{"guid": "root________", "root": "placesRoot", "typeCode": 2, "type": "text/x-moz-place-container", "children": [
 {"guid": "menu_______X", "root": "bookmarksMenuFolder", "typeCode": 2, "type": "text/x-moz-place-container", "children": [
  {"guid": "AAAAAAAAAAAA", "typeCode": 1, "type": "text/x-moz-place", "dateAdded": "1700000000000000"},
  {"guid": "AAAAAAAAAAAA", "typeCode": 1, "type": "text/x-moz-place-container", "children": 5},
  7,
  {"guid": "toolbar_____", "typeCode": 3, "type": "text/x-moz-place-separator"},
 ]},
 {"guid": "toolbar_____", "root": "toolbarFolder", "typeCode": 2, "type": "text/x-moz-place-container", "lastModified": 1.5}
]}"#;

/// What check found in [`BROKEN`] with a walk of its own, before the
/// rules moved into the reader.
fn broken_rules() -> Vec<(u32, u32, String)> {
    vec![
        at(1, 1, "firefox/root"),
        at(2, 11, "firefox/root"),
        at(3, 3, "firefox/missing-uri"),
        at(3, 84, "firefox/bad-date"),
        at(4, 12, "firefox/bad-guid"),
        at(4, 40, "firefox/type-mismatch"),
        at(4, 93, "firefox/structure"),
        at(5, 3, "firefox/structure"),
        at(6, 12, "firefox/root"),
        at(6, 80, "firefox/trailing-comma"),
        at(8, 11, "firefox/bad-guid"),
        at(8, 121, "firefox/bad-date"),
    ]
}

#[test]
fn checking_finds_every_rule_and_reads_on() {
    let parsed = read(BROKEN.as_bytes(), true).unwrap();
    assert_eq!(rules(&parsed.diagnostics), broken_rules());
    let messages: Vec<&str> = parsed.diagnostics.iter().map(|d| &*d.message).collect();
    for message in [
        "the places root has no unfiledBookmarksFolder (unfiled_____); Firefox restores into the menu, toolbar and unfiled roots",
        "the bookmarksMenuFolder root's guid is \"menu________\", not \"menu_______X\"",
        "guid \"AAAAAAAAAAAA\" is already the guid of the node on line 3",
        "guid \"toolbar_____\" is already the guid of the node on line 6",
        "typeCode 1 says text/x-moz-place but type says text/x-moz-place-container",
        "dateAdded is \"1700000000000000\", not an integer (microseconds since 1970)",
        "lastModified is 1.5, not an integer (microseconds since 1970)",
    ] {
        assert!(messages.contains(&message), "{message}: {messages:#?}");
    }
}

#[test]
fn a_jsonlz4_backup_is_checked_in_its_inflated_json() {
    let packed = markport_firefox::lz4::compress(BROKEN.as_bytes()).unwrap();
    let parsed = read(&packed, true).unwrap();
    assert_eq!(rules(&parsed.diagnostics), broken_rules());
    // Compressed data that does not inflate is fatal, under its rule.
    let mut cut = packed.clone();
    cut.truncate(20);
    let e = read(&cut, true).unwrap_err();
    assert_eq!(e.rule, Some("firefox/bad-lz4"), "{e}");
}

#[test]
fn without_checking_the_reader_says_nothing_new() {
    // What the reader refuses it still refuses, with its own message.
    let e = read(BROKEN.as_bytes(), false).unwrap_err();
    assert_eq!(e.message, "Firefox backup: children is not an array", "{e}");
    assert!(e.found.is_empty());
    let readable = r#"{"root": "placesRoot", "typeCode": 2, "children": [
      {"guid": "short", "typeCode": 1, "type": "text/x-moz-place-container"}]}"#;
    let quiet = read(readable.as_bytes(), false).unwrap();
    assert_eq!(rules(&quiet.diagnostics), []);
    let checked = read(readable.as_bytes(), true).unwrap();
    assert_eq!(rules(&checked.diagnostics).len(), 5);
    assert_eq!(quiet.document, checked.document);
}

#[test]
fn what_was_found_before_a_syntax_error_is_kept_with_it() {
    let text = "{\"root\": \"placesRoot\", \"children\": [\n{\"typeCode\": 9},\n{\"uri\": ]}";
    let e = read(text.as_bytes(), true).unwrap_err();
    assert_eq!(e.rule, Some("firefox/not-json"), "{e}");
    let loc = e.location.unwrap();
    assert_eq!((loc.line, loc.column), (3, 9));
    assert!(e.message.ends_with("; checking stops here"), "{e}");
    assert_eq!(rules(&e.found), [at(2, 14, "firefox/type-mismatch")]);
    // The top that is not an object is a structure problem, and the end.
    let e = read(b"[1]", true).unwrap_err();
    assert_eq!(e.rule, Some("firefox/structure"));
}

/// A Firefox 3 backup whose tags root gives `tags` tags of `len` bytes to
/// one link, and whose menu holds `n` bookmarks of that link.
fn shared_tags(tags: usize, len: usize, n: usize) -> Vec<u8> {
    let link = r#"{"type":"text/x-moz-place","uri":"https://example.org/"}"#;
    let tag = |i: usize| {
        format!(
            r#"{{"title":"{}{i}","type":"text/x-moz-place-container","children":[{link}]}}"#,
            "t".repeat(len)
        )
    };
    let tags: Vec<String> = (0..tags).map(tag).collect();
    let bookmarks = vec![link; n].join(",");
    format!(
        r#"{{"type":"text/x-moz-place-container","root":"placesRoot","children":[
{{"type":"text/x-moz-place-container","root":"bookmarksMenuFolder","children":[{bookmarks}]}},
{{"type":"text/x-moz-place-container","root":"tagsFolder","children":[{}]}}]}}"#,
        tags.join(",")
    )
    .into_bytes()
}

/// The tags root's tags are copied onto every bookmark of their link:
/// 1,000 tags of 1 KB on 1,000 bookmarks is a gigabyte from a file of a
/// megabyte and a half. Refused within the budget; a small such file reads
/// with every tag once on every bookmark, a tag listed twice once.
#[test]
fn tags_shared_by_many_bookmarks_are_charged_for_each_copy() {
    let file = shared_tags(1_000, 1_000, 1_000);
    assert!(file.len() < 2 << 20, "{} bytes", file.len());
    let e = markport_firefox::read(&file, &Default::default()).unwrap_err();
    assert_eq!(e.kind, markport_model::ErrorKind::Unsafe, "{e}");
    assert!(e.message.contains("--memory-budget"), "{}", e.message);

    let file = shared_tags(3, 2, 5);
    let doc = markport_firefox::read(&file, &Default::default())
        .unwrap()
        .document;
    let tagged: Vec<_> = doc
        .ids()
        .filter_map(|id| doc.node(id).as_bookmark())
        .map(|b| b.tags.clone())
        .collect();
    assert_eq!(tagged.len(), 5);
    assert!(
        tagged.iter().all(|t| t == &["tt0", "tt1", "tt2"]),
        "{tagged:?}"
    );
}
