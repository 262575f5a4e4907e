//! Delicious' v1 API XML (`/v1/posts/all`), the shape Pinboard's v1 API
//! still serves in XML: `<posts user="…">` holding one empty `<post>` a
//! bookmark, with `href`, `description` (the title), `extended` (the
//! description), `tag` (space-separated), `time` (W3C, UTC), `hash`,
//! `meta`, `shared="no"` for a private one and, on Pinboard,
//! `toread="yes"` (`docs/formats/delicious.md`).
//!
//! Attribute values are XML-unescaped once: `&amp;amp;` is the text
//! `&amp;`, as the service stored it. Delicious tagged a bookmark without
//! tags `system:unfiled`, which is no tag of the user's and is not read.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, LineIndex,
    Parsed, ReadOptions, Timestamp,
};

/// The tag Delicious gives a bookmark that has none.
const UNFILED: &str = "system:unfiled";

/// The attributes mapped to model fields; the others go to `extra`.
const MAPPED: &[&str] = &[
    "href",
    "description",
    "extended",
    "tag",
    "time",
    "shared",
    "toread",
];

/// How sure it is that `input` is a v1 posts XML: a `<posts` element
/// holding `<post href=` in the first 8 KiB.
pub fn detect(input: &[u8]) -> Option<u8> {
    let head = &input[..input.len().min(8192)];
    let text = String::from_utf8_lossy(head);
    let posts = text.find("<posts")?;
    let at = posts + text[posts..].find("<post ")?;
    text[at..].contains("href=").then_some(90)
}

/// Read a Delicious or Pinboard v1 XML export.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let lines = LineIndex::new(input);
    let mut diags = Vec::new();
    let text = crate::text(input, &mut diags);
    let bom = if input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let at = |offset: u64| lines.locate(offset as usize + bom);
    let mut reader = Reader::from_str(&text);
    reader.config_mut().check_end_names = true;
    let mut doc = Document::new();
    let mut budget = Budget::new(opts, input.len());
    let mut depth = 0usize;
    let mut seen_posts = false;
    let mut n = 0usize;
    loop {
        let offset = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| Error::syntax(format!("XML: {e}"), at(reader.error_position())))?;
        match event {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) if depth == 0 && e.name().as_ref() != b"posts" => {
                return Err(Error::new(
                    ErrorKind::WrongFormat,
                    format!(
                        "not a v1 posts export: the top element is <{}>, not <posts>",
                        String::from_utf8_lossy(e.name().as_ref())
                    ),
                    Some(at(offset)),
                ));
            }
            Event::Start(e) => {
                if depth == 0 {
                    seen_posts = true;
                } else if depth == 1 && e.name().as_ref() == b"post" {
                    n += 1;
                    if let Some(b) = post(n, &e, at(offset), &mut diags)? {
                        budget.bookmark(&b).map_err(|mut err| {
                            err.location = Some(at(offset));
                            err
                        })?;
                        doc.push(None, b);
                    }
                }
                depth += 1;
            }
            Event::Empty(e) => {
                if depth == 0 {
                    seen_posts = true;
                } else if depth == 1 && e.name().as_ref() == b"post" {
                    n += 1;
                    if let Some(b) = post(n, &e, at(offset), &mut diags)? {
                        budget.bookmark(&b).map_err(|mut err| {
                            err.location = Some(at(offset));
                            err
                        })?;
                        doc.push(None, b);
                    }
                }
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::DocType(_) => {
                // An internal subset could declare entities; the v1 API
                // never sends one, and quick-xml expands none of it.
                diags.push(Diagnostic::note(
                    "a DOCTYPE: its entities, if any, are not expanded",
                    Some(at(offset)),
                ));
            }
            _ => {}
        }
    }
    if !seen_posts {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not a v1 posts export: no <posts> element",
            Some(at(0)),
        ));
    }
    if depth != 0 {
        return Err(Error::syntax(
            "XML: the file ends inside <posts>",
            at(text.len() as u64),
        ));
    }
    Parsed::new(doc, diags).enforce(opts)
}

/// One `<post>` as a bookmark; `None` (with a warning) when it has no href.
fn post(
    n: usize,
    e: &BytesStart<'_>,
    at: markport_model::Location,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<Bookmark>, Error> {
    // Names and values borrowed from the input; a value is copied only
    // when it had a reference to decode.
    let mut attrs: Vec<(Cow<'_, str>, Cow<'_, str>)> = Vec::with_capacity(12);
    for a in e.attributes() {
        let a = a.map_err(|err| Error::syntax(format!("XML: post {n}: {err}"), at))?;
        let value = a
            .unescape_value()
            .map_err(|err| Error::syntax(format!("XML: post {n}: {err}"), at))?;
        attrs.push((String::from_utf8_lossy(a.key.0), value));
    }
    let get = |k: &str| {
        attrs
            .iter()
            .rev()
            .find(|(name, _)| name == k)
            .map(|(_, v)| &**v)
    };
    let Some(href) = get("href") else {
        diags.push(Diagnostic::warning(
            format!("post {n} has no href; skipped"),
            Some(at),
        ));
        return Ok(None);
    };
    let mut b = Bookmark::new(href);
    b.title = get("description")
        .filter(|t| !t.is_empty())
        .map(String::from);
    b.desc = get("extended").filter(|t| !t.is_empty()).map(String::from);
    b.tags = get("tag")
        .unwrap_or_default()
        .split_whitespace()
        .filter(|t| *t != UNFILED)
        .map(String::from)
        .collect();
    b.added = get("time").filter(|t| !t.is_empty()).map(|t| {
        // The API's own form first: one parse for nearly every post.
        if let Some(strict) = Timestamp::parse_w3c_strict(t) {
            return DateValue::Instant(strict);
        }
        let d = DateValue::from_w3c(t);
        if d.instant().is_none() {
            diags.push(Diagnostic::warning(
                format!("post {n}: time {t:?} is not a date; kept as written"),
                Some(at),
            ));
        } else {
            diags.push(Diagnostic::note(
                format!("post {n}: time {t:?} is not written as the API writes it (2011-03-01T10:00:00Z); read as a date"),
                Some(at),
            ));
        }
        d
    });
    let mut kept: Vec<&str> = Vec::new();
    // Delicious wrote `shared="no"` on private posts only; Pinboard writes
    // it on every post, "yes" or "no".
    b.private = match get("shared") {
        None | Some("yes") => Some(false),
        Some("no") => Some(true),
        Some(other) => {
            diags.push(Diagnostic::warning(
                format!("post {n}: shared {other:?} is not \"yes\" or \"no\"; read as private (kept as written)"),
                Some(at),
            ));
            kept.push("shared");
            Some(true)
        }
    };
    b.to_read = match get("toread") {
        None => None,
        Some("yes") => Some(true),
        Some("no") => Some(false),
        Some(other) => {
            diags.push(Diagnostic::warning(
                format!("post {n}: toread {other:?} is not \"yes\" or \"no\"; kept as written"),
                Some(at),
            ));
            kept.push("toread");
            None
        }
    };
    // Each other attribute once (XML forbids a repeat), in key order.
    let mut extra: Vec<Attribute> = attrs
        .iter()
        .filter(|(k, _)| !MAPPED.contains(&&**k) || kept.contains(&&**k))
        .map(|(k, v)| Attribute::new(&**k, &**v))
        .collect();
    if !extra.is_empty() {
        extra.sort_by(|a, b| a.name.cmp(&b.name));
        b.details_mut().extra = extra;
    }
    Ok(Some(b))
}

/// This format as the registry lists it (`markport::format("delicious")`).
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "delicious",
    "Delicious' and Pinboard's v1 posts XML (posts/all)",
    &[],
    detect,
    read,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_are_decoded_once_and_unfiled_is_no_tag() {
        let xml = br#"<?xml version="1.0"?><posts user="u">
<post href="https://a/?x=1&amp;y=2" description="A &amp;amp; B" tag="system:unfiled" time="2011-03-01T10:00:00Z" shared="no" toread="yes" hash="h"/>
</posts>"#;
        let doc = read(xml, &ReadOptions::default()).unwrap().document;
        let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
        assert_eq!(b.href, "https://a/?x=1&y=2");
        assert_eq!(b.title.as_deref(), Some("A &amp; B"));
        assert!(b.tags.is_empty());
        assert_eq!((b.private, b.to_read), (Some(true), Some(true)));
        assert_eq!(b.details().extra[0].name, "hash");
    }

    #[test]
    fn broken_xml_is_an_error_at_its_place() {
        let xml = b"<posts>\n<post href=\"https://a/\" description=\"x\">\n</posts>";
        let e = read(xml, &ReadOptions::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert_eq!(e.location.map(|l| l.line), Some(3), "{e}");
    }
}
