//! Plain URL lists (`--from urls`, `--to urls`): one bookmark per line.
//!
//! A line is a URL, then optionally whitespace and a title; OneTab's export
//! writes `url | title`, whose `|` is dropped. Blank lines and lines whose
//! first non-blank character is `#` are skipped. Line ends may be LF, CRLF
//! or CR, and a UTF-8 byte-order mark is ignored.
//!
//! A line that does not start with a URL (`scheme:` followed by `//`, or a
//! scheme bookmarks use without it such as `mailto:`) is still read as a
//! bookmark, its first word the link, with a warning at its line and
//! column: nothing is dropped without a word.
//!
//! ```
//! use markport_model::ReadOptions;
//!
//! let list = b"# reading\nhttps://www.rust-lang.org/ Rust\r\nhttps://example.org/ | Example | Domain\n\n";
//! let doc = markport_lists::urls::read(list, &ReadOptions::default()).unwrap().document;
//! let titles: Vec<_> = doc.ids().map(|id| doc.node(id).title().unwrap()).collect();
//! assert_eq!(titles, ["Rust", "Example | Domain"]);
//! ```

use std::io::Write;

use markport_model::{
    Bookmark, Budget, Diagnostic, Document, Error, Field, LossReport, Node, Parsed, ReadOptions,
    Scope, Support, WriteOptions,
};

use crate::{has_scheme, text, verify, Lazy};

/// How many bytes detection looks at: whole lines up to this size.
const DETECT_BYTES: usize = 1 << 20;

/// How sure it is that `input` is a URL list: low (20), and only when every
/// line it looks at (those starting in the first MiB) that is not blank or a
/// comment starts with a URL, and there is at least one.
pub fn detect(input: &[u8]) -> Option<u8> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let cut = input.len() > DETECT_BYTES;
    let head = &input[..input.len().min(DETECT_BYTES)];
    let head = match std::str::from_utf8(head) {
        Ok(s) => s,
        // Cut inside a character: the text before it.
        Err(e) if cut && e.error_len().is_none() => {
            std::str::from_utf8(&head[..e.valid_up_to()]).ok()?
        }
        Err(_) => return None,
    };
    // A line cut short by the limit is judged by its start, unless the cut
    // may fall inside its scheme.
    let head = match head.rfind(['\n', '\r']) {
        Some(end) if cut && head.len() - end < 40 => &head[..end],
        None if cut && head.len() < 40 => return None,
        _ => head,
    };
    let mut urls = 0;
    for line in head.split(['\n', '\r']) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !has_scheme(line) {
            return None;
        }
        urls += 1;
    }
    (urls > 0).then_some(20)
}

/// Read a URL list.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut diags = Vec::new();
    let src = text(input, &mut diags);
    let index = Lazy::new(&src);
    let mut doc = Document::new();
    // A line of two bytes is a bookmark of a few hundred: the budget, not
    // the file's size, bounds what a list of short lines takes.
    let mut budget = Budget::new(opts, input.len());
    let base = src.as_ptr() as usize;
    for line in src.split(['\n', '\r']) {
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let (href, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        let rest = rest.trim();
        // OneTab: `url | title`.
        let title = rest.strip_prefix('|').map_or(rest, str::trim_start);
        let at = body.as_ptr() as usize - base;
        let refused = |mut e: Error| {
            e.location = Some(index.locate(at));
            e
        };
        if !has_scheme(href) {
            let d = Diagnostic::warning(
                format!(
                    "{:?} is not a URL; kept as the link of a bookmark",
                    short(href)
                ),
                Some(index.locate(at)),
            );
            budget.diagnostic(&d).map_err(refused)?;
            diags.push(d);
        }
        let mut b = Bookmark::new(href);
        if !title.is_empty() {
            b.title = Some(title.to_string());
        }
        budget.bookmark(&b).map_err(refused)?;
        doc.push(None, b);
    }
    Parsed::new(doc, diags).enforce(opts)
}

/// At most 60 characters of `s`, for a message.
fn short(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// Write `doc` as a URL list: each bookmark's link, then a space and its
/// title when it has one, in document order (the folders flattened). A
/// title that starts with `|` is written after ` | `, so that it is not
/// read as OneTab's separator. A line break in a link or a title is
/// written as a space, so that each bookmark stays one line (and one
/// bookmark when read back): the report names the bookmarks whose link or
/// title that changed.
pub fn write(
    doc: &Document,
    _opts: &WriteOptions,
    out: &mut dyn Write,
) -> Result<LossReport, Error> {
    let mut bytes = Vec::new();
    for id in doc.preorder() {
        if let Node::Bookmark(b) = doc.node(id) {
            one_line(&mut bytes, &b.href);
            if let Some(t) = b.title.as_deref().filter(|t| !t.is_empty()) {
                bytes.extend_from_slice(if t.starts_with('|') { b" | " } else { b" " });
                one_line(&mut bytes, t);
            }
            bytes.push(b'\n');
        }
    }
    verify::finish(doc, &bytes, read, reason, out)
}

/// `s` with each CR and LF (the line ends the reader splits on) as a space.
fn one_line(out: &mut Vec<u8>, s: &str) {
    let mut rest = s.as_bytes();
    while let Some(n) = memchr::memchr2(b'\n', b'\r', rest) {
        out.extend_from_slice(&rest[..n]);
        out.push(b' ');
        rest = &rest[n + 1..];
    }
    out.extend_from_slice(rest);
}

/// Why a field does not come back from a URL list.
fn reason(field: Field) -> &'static str {
    match field {
        Field::Bookmark => "a link that is empty or starts with '#' is not a line's link",
        Field::BookmarkHref => "a link is one line's first word: a space in it ends it, and a line break is written as a space",
        Field::BookmarkTitle => "a title is the rest of the line: a line break in it is written as a space, spaces at its ends are lost, and a link holding a space pushes its rest into the title",
        Field::Folder => "a URL list is flat: folders are not kept",
        f if f.scope() == Scope::Document => "a URL list has no place for the collection's own data",
        f if f.scope() == Scope::Folder => "a URL list is flat: folders are not kept",
        Field::Separator => "a URL list has no separators",
        Field::Alias => "a URL list has no aliases",
        _ => "a URL list holds only links and titles",
    }
}

/// How well the URL-list writer carries each field.
pub fn support(field: Field) -> Support {
    match field {
        Field::Bookmark | Field::BookmarkHref => {
            Support::Partial("a space ends a link; a line break is written as a space")
        }
        Field::BookmarkTitle => Support::Partial(
            "one line: a line break is written as a space; spaces at its ends are lost",
        ),
        _ => Support::None,
    }
}

/// This format as the registry lists it (`markport::format("urls")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "urls",
    "a plain list of URLs, one per line with an optional title (OneTab too)",
    &["txt", "urls"],
    detect,
    read,
)
.writes(write, support);
