//! Pinboard's JSON export (`/v1/posts/all?format=json`): an array of objects
//! with `href`, `description` (the title), `extended` (the description),
//! `meta`, `hash`, `time`, `shared`, `toread` and `tags` (space-separated).

use std::borrow::Cow;

use markport_markup::json::{Event, Parser, SyntaxError};
use markport_model::{
    Attribute, Bookmark, DateValue, Diagnostic, Document, Error, ErrorKind, Parsed, ReadOptions,
};

/// How sure it is that `input` is a Pinboard export: a JSON array whose
/// first object has `href` and `hash`.
pub fn detect(input: &[u8]) -> Option<u8> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let start = input.iter().position(|b| !b.is_ascii_whitespace())?;
    if input[start] != b'[' {
        return None;
    }
    let head = String::from_utf8_lossy(&input[start..input.len().min(start + 4096)]);
    (head.contains("\"href\"") && head.contains("\"hash\"")).then_some(85)
}

/// The keys markport maps to model fields; the others go to `extra`.
const MAPPED: &[&str] = &[
    "href",
    "description",
    "extended",
    "time",
    "shared",
    "toread",
    "tags",
];

/// Read a Pinboard JSON export, one post at a time.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut p = Parser::new(input);
    let syntax = |e: SyntaxError| Error::syntax(format!("JSON: {}", e.message), e.location);
    let (at, first) = next(&mut p).map_err(syntax)?;
    if first != Event::ArrayStart {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not a Pinboard export: it is not a JSON array of posts",
            Some(p.locate(at)),
        ));
    }
    let mut doc = Document::new();
    let mut diags = Vec::new();
    let mut members = Vec::new();
    for i in 1.. {
        let (at, event) = next(&mut p).map_err(syntax)?;
        match event {
            Event::ArrayEnd => break,
            Event::ObjectStart => {}
            other => {
                p.skip_value(at, &other).map_err(syntax)?;
                diags.push(Diagnostic::warning(
                    format!("post {i} is not an object; skipped"),
                    Some(p.locate(at)),
                ));
                continue;
            }
        }
        members.clear();
        // Keys until the object's end: the parser allows nothing else.
        while let (_, Event::Key(key)) = next(&mut p).map_err(syntax)? {
            let (vat, first) = next(&mut p).map_err(syntax)?;
            let value = match first {
                Event::Str(s) => Some(s),
                Event::Null => None,
                other => Some(Cow::Borrowed(p.skip_value(vat, &other).map_err(syntax)?)),
            };
            members.push((key, value));
        }
        if let Some(b) = post(i, &mut members, &mut diags) {
            doc.push(None, b);
        }
    }
    // Nothing may follow the array: the parser says so if something does.
    p.next().map_err(syntax)?;
    Parsed::new(doc, diags).enforce(opts)
}

/// The next event. The parser reports a cut file itself; its end after a
/// whole top-level value reads as `null`, which no caller here accepts.
fn next<'a>(p: &mut Parser<'a>) -> Result<(usize, Event<'a>), SyntaxError> {
    match p.next()? {
        Some(e) => Ok(e),
        None => Ok((p.pos(), Event::Null)),
    }
}

/// One post's members as a bookmark. For a key given twice the last value
/// counts; keys markport does not map go to `extra` in key order.
fn post(
    i: usize,
    members: &mut Vec<(Cow<'_, str>, Option<Cow<'_, str>>)>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Bookmark> {
    let s = |k: &str| {
        members
            .iter()
            .rev()
            .find(|(m, _)| m == k)
            .and_then(|(_, v)| v.as_deref())
    };
    let Some(href) = s("href") else {
        diags.push(Diagnostic::warning(
            format!("post {i} has no href; skipped"),
            None,
        ));
        return None;
    };
    let mut b = Bookmark::new(href);
    b.title = s("description").filter(|t| !t.is_empty()).map(String::from);
    b.desc = s("extended").filter(|t| !t.is_empty()).map(String::from);
    b.added = s("time").filter(|t| !t.is_empty()).map(|t| {
        let d = DateValue::from_w3c(t);
        if d.instant().is_none() {
            diags.push(Diagnostic::warning(
                format!("post {i}: time {t:?} is not a date; kept as written"),
                None,
            ));
        }
        d
    });
    let yes_no = |k: &str| match s(k) {
        Some("yes") => Some(true),
        Some("no") => Some(false),
        _ => None,
    };
    b.private = yes_no("shared").map(|shared| !shared);
    b.to_read = yes_no("toread");
    b.tags = s("tags")
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect();
    // Sorted and each key once, its last value: as a JSON object's map holds them.
    members.retain(|(k, _)| !MAPPED.contains(&&**k));
    if !members.is_empty() {
        members.reverse();
        members.sort_by(|a, b| a.0.cmp(&b.0));
        members.dedup_by(|later, first| later.0 == first.0);
        b.details_mut().extra = members
            .drain(..)
            .map(|(k, v)| Attribute::new(k, v.as_deref().unwrap_or("null")))
            .collect();
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_of_a_repeated_key_counts_and_extras_come_in_key_order() {
        let json = br#"[{"href": "https://a/", "zeta": 1.50, "hash": "h", "meta": null,
            "description": "first", "description": "second", "hash": "h2", "shared": "no",
            "toread": "yes", "tags": "a  b", "list": [1, {"x": 2}]}]"#;
        let parsed = read(json, &ReadOptions::default()).unwrap();
        let doc = &parsed.document;
        let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
        assert_eq!(b.title.as_deref(), Some("second"));
        assert_eq!((b.private, b.to_read), (Some(true), Some(true)));
        assert_eq!(b.tags, ["a", "b"]);
        let extra: Vec<(&str, &str)> = b
            .details()
            .extra
            .iter()
            .map(|a| (a.name.as_str(), a.value.as_str()))
            .collect();
        assert_eq!(
            extra,
            [
                ("hash", "h2"),
                ("list", "[1, {\"x\": 2}]"),
                ("meta", "null"),
                ("zeta", "1.50"),
            ]
        );
    }
}
