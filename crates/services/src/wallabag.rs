//! wallabag's JSON export (Export → JSON, or `wallabag:export`): an array of
//! entries with `id`, `title`, `url`, `is_archived` and `is_starred` (0 or 1),
//! `is_public`, `tags` (strings), `created_at`, `updated_at` (ISO 8601 with an
//! offset), `annotations`, the saved article as `content`, and more
//! (`docs/formats/wallabag.md`).
//!
//! wallabag is a read-later service: an entry not archived is to read. A
//! starred entry keeps `is_starred` (and `starred_at`) as extra attributes.
//! The saved article (`content`) is not copied into the model: a note says
//! how many entries had one.

use markport_model::{
    Bookmark, Budget, Diagnostic, Document, Error, LineIndex, Parsed, ReadOptions,
};

use crate::record::{
    details, each_object, head, iso_date, nothing_after, top_array, warn, Item, Record, Val,
};

/// How sure it is that `input` is a wallabag export: a JSON array whose
/// first entry has `is_archived`, `is_starred` and `url`.
pub fn detect(input: &[u8]) -> Option<u8> {
    let (first, head) = head(input)?;
    (first == b'['
        && head.contains("\"is_archived\"")
        && head.contains("\"is_starred\"")
        && head.contains("\"url\""))
    .then_some(90)
}

/// The keys mapped to model fields.
const MAPPED: &[&str] = &[
    "id",
    "title",
    "url",
    "tags",
    "created_at",
    "updated_at",
    "is_archived",
    "is_public",
];

/// Keys not carried: the saved article, counted in a note.
const DROPPED: &[&str] = &["content"];

/// Read a wallabag JSON export, one entry at a time.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let lines = LineIndex::new(input);
    let at = top_array(
        input,
        &lines,
        "not a wallabag export: it is not a JSON array of entries",
    )?;
    let mut doc = Document::new();
    let mut budget = Budget::new(opts, input.len());
    let mut diags = Vec::new();
    let mut articles = 0usize;
    let end = each_object(input, at, "entry", &lines, &mut diags, |i, rec, diags| {
        if matches!(rec.get("content"), Some(Val::Str(s)) if !s.is_empty()) {
            articles += 1;
        }
        if let Some(b) = entry(i, input, &rec, &lines, diags)? {
            budget
                .bookmark(&b)
                .map_err(crate::placed_at(&lines, rec.at))?;
            doc.push(None, b);
        }
        Ok(())
    })?;
    if articles > 0 {
        diags.push(Diagnostic::note(
            format!("{articles} entries' saved article (`content`) is not carried: markport keeps bookmarks, not pages"),
            None,
        ));
    }
    nothing_after(input, end, &lines)?;
    Parsed::new(doc, diags).enforce(opts)
}

/// One entry as a bookmark; `None` (with a warning) when it has no URL.
fn entry(
    i: usize,
    input: &[u8],
    rec: &Record<'_>,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<Bookmark>, Error> {
    let what = Item::new("entry", i);
    let Some(href) = rec.url(what, lines, diags) else {
        return Ok(None);
    };
    let mut b = Bookmark::new(href);
    b.title = rec.text("title");
    b.added = iso_date(rec, "created_at", what, lines, diags);
    b.modified = iso_date(rec, "updated_at", what, lines, diags);
    b.tags = rec.strings(input, "tags", "label", what, lines, diags)?;
    let mut kept: Vec<&str> = Vec::new();
    // Not archived is what wallabag lists as unread.
    match rec.flag("is_archived") {
        Ok(Some(archived)) => b.to_read = Some(!archived),
        Ok(None) => {}
        Err(text) => {
            flag_warning(rec, "is_archived", &text, what, lines, diags);
            kept.push("is_archived");
        }
    }
    // When in doubt a bookmark is private: only `is_public: true` shares it.
    b.private = Some(match rec.flag("is_public") {
        Ok(Some(public)) => !public,
        Ok(None) => true,
        Err(text) => {
            flag_warning(rec, "is_public", &text, what, lines, diags);
            kept.push("is_public");
            true
        }
    });
    let id = rec.get("id").map(|v| v.text().into_owned());
    let mut mapped = rec.mapped(MAPPED, &["tags"]);
    mapped.retain(|k| !kept.contains(k));
    details(&mut b, id, rec.extra(&mapped, DROPPED));
    Ok(Some(b))
}

fn flag_warning(
    rec: &Record<'_>,
    key: &str,
    text: &str,
    what: Item,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
) {
    warn(
        diags,
        lines,
        rec.offset(key).unwrap_or(rec.at),
        format!("{what}: {key} {text} is not 0, 1, true or false; kept as written"),
    );
}

/// This format as the registry lists it (`markport::format("wallabag")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "wallabag",
    "wallabag's JSON export of entries",
    &[],
    detect,
    read,
);
