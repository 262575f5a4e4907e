//! Pinboard's `shared`, `toread` and `tags` as markport reads them: a post
//! is public only when its export says exactly `"shared": "yes"`; any value
//! markport does not understand is private, kept, and warned about where it
//! stands.

use markport_model::{Bookmark, Location, Parsed, ReadOptions};
use markport_services::pinboard;

fn read(json: &str) -> Parsed {
    pinboard::read(json.as_bytes(), &ReadOptions::default()).unwrap()
}

fn only(parsed: &Parsed) -> &Bookmark {
    let doc = &parsed.document;
    assert_eq!(doc.children(None).len(), 1);
    doc.node(doc.children(None)[0]).as_bookmark().unwrap()
}

fn extra<'a>(b: &'a Bookmark, name: &str) -> Option<&'a str> {
    b.details()
        .extra
        .iter()
        .find(|a| a.name == name)
        .map(|a| a.value.as_str())
}

/// A JSON string's text (these have no escapes); other values as written.
fn unquoted(json: &str) -> &str {
    json.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(json)
}

/// One post with `key` set to `value` (JSON text) after the usual keys.
fn post(key: &str, value: &str) -> String {
    let mut members = vec![
        r#""href": "https://a/""#.to_owned(),
        r#""hash": "h""#.to_owned(),
    ];
    for (k, v) in [("shared", r#""yes""#), ("toread", r#""no""#)] {
        if k != key {
            members.push(format!("\"{k}\": {v}"));
        }
    }
    members.push(format!("\"{key}\": {value}"));
    format!("[{{{}}}]", members.join(",\n "))
}

#[test]
fn only_exactly_yes_is_shared() {
    let parsed = read(&post("shared", r#""yes""#));
    assert_eq!(only(&parsed).private, Some(false));
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let parsed = read(&post("shared", r#""no""#));
    assert_eq!(only(&parsed).private, Some(true));
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
}

#[test]
fn any_other_shared_value_is_private_kept_and_warned_about_where_it_is() {
    for value in [
        "false",
        r#""NO""#,
        "0",
        "null",
        r#""""#,
        "true",
        "1",
        r#""yes ""#,
        r#""Yes""#,
        r#"["yes"]"#,
        r#"{"a": 1}"#,
        r#""true""#,
    ] {
        let parsed = read(&post("shared", value));
        let b = only(&parsed);
        assert_eq!(b.private, Some(true), "shared {value} must be private");
        assert_eq!(
            parsed.diagnostics.len(),
            1,
            "{value}: {:?}",
            parsed.diagnostics
        );
        let d = &parsed.diagnostics[0];
        assert!(d.message.contains("shared"), "{}", d.message);
        assert!(d.message.contains("private"), "{}", d.message);
        // The value is on line 4, after `"shared": `.
        assert_eq!(
            d.location,
            Some(Location {
                line: 4,
                column: 12
            }),
            "{value}"
        );
        // Nothing is lost: the value stays with the bookmark (a string as
        // itself, anything else as its JSON text).
        assert_eq!(extra(b, "shared"), Some(unquoted(value)), "{value}");
    }
}

#[test]
fn a_post_without_shared_is_private_with_a_warning() {
    let parsed = read(r#"[{"href": "https://a/", "hash": "h", "toread": "no"}]"#);
    assert_eq!(only(&parsed).private, Some(true));
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert!(parsed.diagnostics[0].message.contains("no `shared`"));
    assert_eq!(
        parsed.diagnostics[0].location,
        Some(Location { line: 1, column: 2 })
    );
}

#[test]
fn toread_is_yes_or_no_and_anything_else_is_kept_with_a_warning() {
    assert_eq!(only(&read(&post("toread", r#""yes""#))).to_read, Some(true));
    assert_eq!(only(&read(&post("toread", r#""no""#))).to_read, Some(false));
    for value in ["true", r#""YES""#, "1", "null", r#""""#] {
        let parsed = read(&post("toread", value));
        let b = only(&parsed);
        assert_eq!(b.to_read, None, "toread {value}");
        assert_eq!(b.private, Some(false));
        assert_eq!(
            parsed.diagnostics.len(),
            1,
            "{value}: {:?}",
            parsed.diagnostics
        );
        assert!(parsed.diagnostics[0].message.contains("toread"));
        assert_eq!(
            parsed.diagnostics[0].location,
            Some(Location {
                line: 4,
                column: 12
            })
        );
        assert_eq!(extra(b, "toread"), Some(unquoted(value)));
    }
}

#[test]
fn a_tags_array_is_read_as_tags() {
    let parsed = read(&post("tags", r#"["rust", "c++", "two words"]"#));
    assert_eq!(only(&parsed).tags, ["rust", "c++", "two words"]);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    // A member that is not a string is kept as its JSON text, with a warning.
    let parsed = read(&post("tags", r#"["a", 7, ["b"]]"#));
    assert_eq!(only(&parsed).tags, ["a", "7", "[\"b\"]"]);
    assert_eq!(parsed.diagnostics.len(), 2, "{:?}", parsed.diagnostics);
    assert_eq!(
        parsed.diagnostics[0].location,
        Some(Location {
            line: 5,
            column: 16
        })
    );
    // The string form is still space-separated.
    let parsed = read(&post("tags", r#""a  b""#));
    assert_eq!(only(&parsed).tags, ["a", "b"]);
}
