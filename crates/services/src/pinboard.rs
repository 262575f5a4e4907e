//! Pinboard's JSON export (`/v1/posts/all?format=json`): an array of objects
//! with `href`, `description` (the title), `extended` (the description),
//! `meta`, `hash`, `time`, `shared`, `toread` and `tags` (space-separated).

use std::borrow::Cow;

use markport_markup::json::{Event, Parser, SyntaxError};
use markport_model::rule::Rule;
use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Parsed,
    ReadOptions, Timestamp,
};

/// How sure it is that `input` is a Pinboard export: a JSON array whose
/// objects have `href` and `hash` (in the first or last 64 KiB).
pub fn detect(input: &[u8]) -> Option<u8> {
    let (first, head) = crate::record::head(input)?;
    (first == b'[' && head.contains("\"href\"") && head.contains("\"hash\"")).then_some(85)
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

/// One member's value as the parser gave it.
enum Value<'a> {
    /// A string, unescaped.
    Str(Cow<'a, str>),
    /// `null`.
    Null,
    /// Any other value, as its JSON text as written.
    Json(&'a str),
    /// An array (only `tags` is read as one): each member as a string, the
    /// ones that were not strings as their JSON text.
    List(Vec<Cow<'a, str>>, &'a str),
}

impl Value<'_> {
    /// The value as an `extra` attribute holds it.
    fn text(&self) -> &str {
        match self {
            Value::Str(s) => s,
            Value::Null => "null",
            Value::Json(t) | Value::List(_, t) => t,
        }
    }
}

/// One member: its key, where its value starts, the value.
type Member<'a> = (Cow<'a, str>, usize, Value<'a>);

/// The rules of `markport check` this reader finds (docs/check.md).
pub const RULES: &[Rule] = &[
    Rule::error(
        "pinboard/not-json",
        "the export is not JSON (checking stops at the error)",
    ),
    Rule::error(
        "pinboard/structure",
        "not an array of post objects, or a post's href, time, shared or toread not a string",
    ),
    Rule::error("pinboard/missing-href", "a post without href"),
    Rule::error(
        "pinboard/bad-date",
        "a post's time that is not a W3C date/time",
    ),
    Rule::error(
        "pinboard/bad-flag",
        "shared or toread other than yes and no",
    ),
];

/// Read a Pinboard JSON export, one post at a time.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    read_posts(input, opts).map_err(|e| {
        let rule = match e.kind {
            ErrorKind::Syntax => "pinboard/not-json",
            _ => "pinboard/structure",
        };
        e.rule(rule)
    })
}

fn read_posts(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
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
    let mut budget = Budget::new(opts, input.len());
    let mut diags = Vec::new();
    let mut members: Vec<Member<'_>> = Vec::new();
    for i in 1.. {
        let (at, event) = next(&mut p).map_err(syntax)?;
        match event {
            Event::ArrayEnd => break,
            Event::ObjectStart => {}
            other => {
                p.skip_value(at, &other).map_err(syntax)?;
                diags.push(
                    Diagnostic::warning(
                        format!("post {i} is not an object; skipped"),
                        Some(p.locate(at)),
                    )
                    .rule("pinboard/structure"),
                );
                continue;
            }
        }
        members.clear();
        // Keys until the object's end: the parser allows nothing else.
        while let (_, Event::Key(key)) = next(&mut p).map_err(syntax)? {
            let (vat, first) = next(&mut p).map_err(syntax)?;
            let value = match first {
                Event::Str(s) => Value::Str(s),
                Event::Null => Value::Null,
                Event::ArrayStart if key == "tags" => list(&mut p, input, i, vat, &mut diags)?,
                other => Value::Json(p.skip_value(vat, &other).map_err(syntax)?),
            };
            members.push((key, vat, value));
        }
        if let Some(b) = post(i, &p, at, &mut members, &mut diags) {
            budget.bookmark(&b).map_err(|mut e| {
                e.location = Some(p.locate(at));
                e
            })?;
            doc.push(None, b);
        }
    }
    // Nothing may follow the array: the parser says so if something does.
    p.next().map_err(syntax)?;
    Parsed::new(doc, diags).enforce(opts)
}

/// The members of the array that starts at `at` (its `[` just read), as
/// tags: a string as itself, anything else as its JSON text, with a warning.
fn list<'a>(
    p: &mut Parser<'a>,
    input: &'a [u8],
    post: usize,
    at: usize,
    diags: &mut Vec<Diagnostic>,
) -> Result<Value<'a>, Error> {
    let syntax = |e: SyntaxError| Error::syntax(format!("JSON: {}", e.message), e.location);
    let mut tags = Vec::new();
    loop {
        let (mat, event) = next(p).map_err(syntax)?;
        match event {
            Event::ArrayEnd => break,
            Event::Str(s) => tags.push(s),
            other => {
                let text = p.skip_value(mat, &other).map_err(syntax)?;
                diags.push(Diagnostic::warning(
                    format!(
                        "post {post}: a tag that is not a string ({text}); kept as its JSON text"
                    ),
                    Some(p.locate(mat)),
                ));
                tags.push(Cow::Borrowed(text));
            }
        }
    }
    // The parser checked it all: what is not a string is ASCII.
    let text = std::str::from_utf8(&input[at..p.pos()]).unwrap_or_default();
    Ok(Value::List(tags, text))
}

/// The next event. The parser reports a cut file itself; its end after a
/// whole top-level value reads as `null`, which no caller here accepts.
fn next<'a>(p: &mut Parser<'a>) -> Result<(usize, Event<'a>), SyntaxError> {
    match p.next()? {
        Some(e) => Ok(e),
        None => Ok((p.pos(), Event::Null)),
    }
}

/// One post's members (it starts at `at`) as a bookmark. For a key given
/// twice the last value counts; keys markport does not map go to `extra`
/// in key order, and so does a `shared` or `toread` value it does not
/// understand.
fn post(
    i: usize,
    p: &Parser<'_>,
    at: usize,
    members: &mut Vec<Member<'_>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Bookmark> {
    let last = |k: &str| members.iter().rev().find(|(m, _, _)| m == k);
    let s = |k: &str| match last(k) {
        Some((_, _, Value::Str(s))) => Some(&**s),
        _ => None,
    };
    // Pinboard writes a link and a time as strings: another value is
    // reported where it stands, as a note (the link is then missing, the
    // time kept as an extra), so --strict reads as it did.
    for key in ["href", "time"] {
        if let Some((_, vat, v)) = last(key).filter(|(_, _, v)| !matches!(v, Value::Str(_))) {
            diags.push(
                Diagnostic::note(
                    format!("post {i}: `{key}` is {}, not a string", v.text()),
                    Some(p.locate(*vat)),
                )
                .rule("pinboard/structure"),
            );
        }
    }
    let Some(href) = s("href") else {
        diags.push(
            Diagnostic::warning(
                format!("post {i} has no href; skipped (importers skip it)"),
                Some(p.locate(at)),
            )
            .rule("pinboard/missing-href"),
        );
        return None;
    };
    if href.trim().is_empty() {
        diags.push(
            Diagnostic::note(
                format!("post {i} has an empty href: importers skip it"),
                Some(p.locate(at)),
            )
            .rule("pinboard/missing-href"),
        );
    }
    let mut b = Bookmark::new(href);
    b.title = s("description").filter(|t| !t.is_empty()).map(String::from);
    b.desc = s("extended").filter(|t| !t.is_empty()).map(String::from);
    b.added = s("time").filter(|t| !t.is_empty()).map(|t| {
        let d = DateValue::from_w3c(t);
        // Pinboard writes the W3C profile exactly (2023-11-14T22:13:20Z);
        // a looser form is read, and said.
        if Timestamp::parse_w3c_strict(t).is_none() {
            let at = last("time").map(|(_, vat, _)| p.locate(*vat));
            let said = match d.instant() {
                None => Diagnostic::warning(
                    format!("post {i}: time {t:?} is not a date; kept as written"),
                    at,
                ),
                Some(_) => Diagnostic::note(
                    format!(
                        "post {i}: time {t:?} is not a date as Pinboard writes them (2023-11-14T22:13:20Z); read as one"
                    ),
                    at,
                ),
            };
            diags.push(said.rule("pinboard/bad-date"));
        }
        d
    });
    // Pinboard writes exactly "yes" or "no". When in doubt a bookmark is
    // private: only "yes" publishes it (JSON `true` or `1` too are doubt,
    // as Pinboard never writes them); a value not understood is kept.
    let mut kept: Vec<&str> = Vec::new();
    b.private = Some(match last("shared") {
        Some((_, _, Value::Str(s))) if s == "yes" => false,
        Some((_, _, Value::Str(s))) if s == "no" => true,
        Some((_, vat, v)) => {
            // A string Pinboard does not write breaks the flag's rule; a
            // value that is not a string, the post's structure.
            let rule = match v {
                Value::Str(_) => "pinboard/bad-flag",
                _ => "pinboard/structure",
            };
            diags.push(
                Diagnostic::warning(
                    format!(
                        "post {i}: shared {} is not \"yes\" or \"no\"; read as private (kept as written)",
                        v.text()
                    ),
                    Some(p.locate(*vat)),
                )
                .rule(rule),
            );
            kept.push("shared");
            true
        }
        None => {
            diags.push(Diagnostic::warning(
                format!("post {i} has no `shared`; read as private"),
                Some(p.locate(at)),
            ));
            true
        }
    });
    b.to_read = match last("toread") {
        Some((_, _, Value::Str(s))) if s == "yes" => Some(true),
        Some((_, _, Value::Str(s))) if s == "no" => Some(false),
        None => None,
        Some((_, vat, v)) => {
            // A string Pinboard does not write breaks the flag's rule; a
            // value that is not a string, the post's structure.
            let rule = match v {
                Value::Str(_) => "pinboard/bad-flag",
                _ => "pinboard/structure",
            };
            diags.push(
                Diagnostic::warning(
                    format!(
                        "post {i}: toread {} is not \"yes\" or \"no\"; kept as written",
                        v.text()
                    ),
                    Some(p.locate(*vat)),
                )
                .rule(rule),
            );
            kept.push("toread");
            None
        }
    };
    b.tags = match last("tags") {
        Some((_, _, Value::List(tags, _))) => tags.iter().map(|t| t.to_string()).collect(),
        Some((_, _, Value::Str(s))) => s.split_whitespace().map(String::from).collect(),
        Some((_, _, Value::Null)) | None => Vec::new(),
        Some((_, vat, v)) => {
            diags.push(Diagnostic::warning(
                format!(
                    "post {i}: tags {} is neither a string nor an array; kept as written",
                    v.text()
                ),
                Some(p.locate(*vat)),
            ));
            kept.push("tags");
            Vec::new()
        }
    };
    // Sorted and each key once, its last value: as a JSON object's map holds them.
    members.retain(|(k, _, _)| !MAPPED.contains(&&**k) || kept.contains(&&**k));
    if !members.is_empty() {
        members.reverse();
        members.sort_by(|a, b| a.0.cmp(&b.0));
        members.dedup_by(|later, first| later.0 == first.0);
        b.details_mut().extra = members
            .drain(..)
            .map(|(k, _, v)| Attribute::new(k, v.text()))
            .collect();
    }
    Some(b)
}

/// This format as the registry lists it (`markport::format("pinboard")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "pinboard",
    "Pinboard's JSON export (posts/all)",
    &[],
    detect,
    read,
)
.with_rules(RULES);

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
