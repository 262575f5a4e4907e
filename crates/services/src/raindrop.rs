//! Raindrop.io's CSV export:
//! `id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite`.
//! Columns are found by name, in any order; one Raindrop adds later is kept
//! as an extra attribute of its name.
//!
//! - `folder` is the collection's path (`Work/Reading`): nested folders;
//!   an empty one puts the bookmark at the top level.
//! - `tags` are separated by `", "`.
//! - `created` is ISO 8601 (`2024-03-01T10:20:30.123Z`).
//! - `note` (the person's own words) and `excerpt` (the page's summary) are
//!   both the description: the note, a blank line, then the excerpt, or
//!   whichever of them is there.
//! - `id` is the bookmark's id; `cover`, `highlights` and `favorite` have no
//!   field of their own and are kept as extra attributes of their names.
//!
//! Raindrop's HTML export is Netscape bookmark HTML and reads as `netscape`.

use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Error, Parsed, ReadOptions,
};

use crate::folders::Paths;
use crate::{table, text};

const REQUIRED: &[&str] = &[
    "id", "title", "note", "excerpt", "url", "folder", "tags", "created",
];
const OPTIONAL: &[&str] = &["cover", "highlights", "favorite"];

/// How sure it is that `input` is a Raindrop.io CSV export: a header with
/// its columns.
pub fn detect(input: &[u8]) -> Option<u8> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let line = input.split(|b| *b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let names: Vec<&str> = line
        .trim_end_matches('\r')
        .split(',')
        .map(|n| n.trim().trim_matches('"'))
        .collect();
    let has = |r: &&str| names.iter().any(|n| n.eq_ignore_ascii_case(r));
    REQUIRED.iter().all(has).then_some(90)
}

/// Read a Raindrop.io CSV export.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut diags = Vec::new();
    let src = text(input, &mut diags);
    struct State {
        doc: markport_model::Document,
        folders: Paths,
        columns: [usize; 8],
        /// The optional and unknown columns, kept as extra attributes.
        kept: Vec<(usize, String)>,
        budget: Budget,
    }
    let budget = Budget::new(opts, input.len());
    let start = |t: &table::Table| {
        let col = |n| t.column(n).expect("required columns are checked");
        State {
            doc: markport_model::Document::new(),
            folders: Paths::default(),
            columns: [
                col("id"),
                col("title"),
                col("note"),
                col("excerpt"),
                col("url"),
                col("folder"),
                col("tags"),
                col("created"),
            ],
            kept: t.others(REQUIRED),
            budget,
        }
    };
    let each = |s: &mut State, at, mut row: Vec<String>, diags: &mut Vec<Diagnostic>| {
        let [id, title, note, excerpt, url, folder, tags, created] = s.columns;
        let parent = s.folders.get(&mut s.doc, &row[folder], &mut s.budget)?;
        let mut b = Bookmark::new(std::mem::take(&mut row[url]));
        b.title = Some(std::mem::take(&mut row[title])).filter(|t| !t.is_empty());
        let (note, excerpt) = (row[note].trim(), row[excerpt].trim());
        b.desc = match (note.is_empty(), excerpt.is_empty()) {
            (true, true) => None,
            (false, true) => Some(note.to_string()),
            (true, false) => Some(excerpt.to_string()),
            (false, false) => Some(format!("{note}\n\n{excerpt}")),
        };
        b.tags = row[tags]
            .split(", ")
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect();
        let date = row[created].trim();
        if !date.is_empty() {
            let value = DateValue::from_w3c(date);
            if matches!(value, DateValue::Raw(_)) {
                diags.push(Diagnostic::warning(
                    format!("created {date:?} is not an ISO 8601 date; kept as written"),
                    Some(at),
                ));
            }
            b.added = Some(value);
        }
        let id = std::mem::take(&mut row[id]);
        if !id.is_empty() {
            b.details_mut().id = Some(id);
        }
        for (i, name) in &s.kept {
            if !row[*i].is_empty() {
                b.details_mut()
                    .extra
                    .push(Attribute::new(name.clone(), std::mem::take(&mut row[*i])));
            }
        }
        s.budget.bookmark(&b)?;
        s.doc.push(parent, b);
        Ok(())
    };
    let columns = table::Columns {
        service: "Raindrop CSV",
        required: REQUIRED,
        optional: OPTIONAL,
        open: true,
        url: "url",
    };
    // Raindrop's export has no rules of check's: it is read as convert
    // reads it, whatever the options.
    let part = table::Part {
        text: &src,
        lossy: matches!(src, std::borrow::Cow::Owned(_)),
        checking: false,
    };
    let State { doc, .. } = table::read(part, columns, &mut diags, start, each)?;
    Parsed::new(doc, diags).enforce(opts)
}

/// This format as the registry lists it (`markport::format("raindrop")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "raindrop",
    "Raindrop.io's CSV export; collection paths as folders (its HTML is netscape)",
    &[],
    detect,
    read,
);
