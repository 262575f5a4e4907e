//! Pinboard's JSON export (`/v1/posts/all?format=json`): an array of objects
//! with `href`, `description` (the title), `extended` (the description),
//! `meta`, `hash`, `time`, `shared`, `toread` and `tags` (space-separated).

use markport_model::{
    Attribute, Bookmark, DateValue, Diagnostic, Document, Error, ErrorKind, Location, Parsed,
    ReadOptions,
};
use serde_json::Value;

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

/// Read a Pinboard JSON export.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let value: Value = serde_json::from_slice(input).map_err(|e| {
        Error::syntax(
            format!("JSON: {e}"),
            Location {
                line: e.line().max(1) as u32,
                column: e.column().max(1) as u32,
            },
        )
    })?;
    let Value::Array(posts) = value else {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not a Pinboard export: it is not a JSON array of posts",
            Some(Location { line: 1, column: 1 }),
        ));
    };
    let mut doc = Document::new();
    let mut diags = Vec::new();
    for (i, post) in posts.into_iter().enumerate() {
        let Value::Object(post) = post else {
            diags.push(Diagnostic::warning(
                format!("post {} is not an object; skipped", i + 1),
                None,
            ));
            continue;
        };
        let s = |k: &str| match post.get(k) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Null) | None => None,
            Some(other) => Some(other.to_string()),
        };
        let Some(href) = s("href") else {
            diags.push(Diagnostic::warning(
                format!("post {} has no href; skipped", i + 1),
                None,
            ));
            continue;
        };
        let mut b = Bookmark::new(href);
        b.title = s("description").filter(|t| !t.is_empty());
        b.desc = s("extended").filter(|t| !t.is_empty());
        b.added = s("time").filter(|t| !t.is_empty()).map(|t| {
            let d = DateValue::from_w3c(&t);
            if d.instant().is_none() {
                diags.push(Diagnostic::warning(
                    format!("post {}: time {t:?} is not a date; kept as written", i + 1),
                    None,
                ));
            }
            d
        });
        let yes_no = |k: &str| match s(k).as_deref() {
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
        for (k, v) in &post {
            if !MAPPED.contains(&k.as_str()) {
                let v = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                b.details_mut().extra.push(Attribute::new(k.clone(), v));
            }
        }
        doc.push(None, b);
    }
    Parsed::new(doc, diags).enforce(opts)
}
