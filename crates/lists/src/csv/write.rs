//! Writing a generic CSV: one row per bookmark, in document order.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use markport_model::{
    Bookmark, DateValue, Document, Error, Field, LossReport, Node, NodeId, Step, WriteOptions,
};

use super::columns::is_known;
use super::values::{guard, is_formula_start};
use crate::verify;

/// Why a value is reported as changed where the file goes: the `'` the
/// writer puts before a formula character.
const GUARDED: &str = "a value starting with = + - @, a tab or a carriage return is written after a ' so that a spreadsheet shows it rather than runs it as a formula: markport reads it back without the ', a spreadsheet or another program shows the '";

/// The field each of [`HEADER`]'s columns carries (the extra columns after
/// them carry `bookmark.extra`).
const FIELDS: [Field; 8] = [
    Field::BookmarkHref,
    Field::BookmarkTitle,
    Field::BookmarkDesc,
    Field::BookmarkTags,
    Field::FolderTitle,
    Field::BookmarkAdded,
    Field::BookmarkPrivate,
    Field::BookmarkToRead,
];

/// The columns every file has, in this order; the bookmarks' extra
/// attributes follow as columns of their own.
pub const HEADER: [&str; 8] = [
    "url",
    "title",
    "description",
    "tags",
    "folder",
    "created",
    "private",
    "toread",
];

/// Write `doc` as CSV: [`HEADER`], then one row per bookmark.
pub fn write(
    doc: &Document,
    _opts: &WriteOptions,
    out: &mut dyn Write,
) -> Result<LossReport, Error> {
    let extra = extra_columns(doc);
    let mut w = ::csv::WriterBuilder::new().from_writer(Vec::new());
    let mut row: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
    // Header names are cells too: a name a spreadsheet would run is
    // guarded, and each bookmark with a value in its column is told.
    let named: Vec<bool> = extra
        .iter()
        .map(|n| is_formula_start(n.chars().next()))
        .collect();
    row.extend(extra.iter().map(|n| guard(n).into_owned()));
    w.write_record(&row).map_err(csv_error)?;
    let index: HashMap<&str, usize> = extra.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut guarded = LossReport::new();
    // The folder path of where the walk is: each folder's title pushed on
    // open and cut off on close, so a deep tree costs its depth once, not
    // once per folder.
    let mut path = String::new();
    let mut cuts: Vec<usize> = Vec::new();
    let mut open: Vec<NodeId> = Vec::new();
    // The folders whose guarded path was reported, once each.
    let mut told: HashSet<NodeId> = HashSet::new();
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                cuts.push(path.len());
                open.push(id);
                if !path.is_empty() {
                    path.push('/');
                }
                path.push_str(doc.node(id).title().unwrap_or_default());
            }
            Step::Close(_) => {
                path.truncate(cuts.pop().unwrap_or(0));
                open.pop();
            }
            Step::Leaf(id) => {
                if let Node::Bookmark(b) = doc.node(id) {
                    let used = fill(&mut row, b, &path, &index);
                    // Every cell guarded, decided on the value as written.
                    let mut fields: Vec<Field> = Vec::new();
                    for (i, cell) in row.iter_mut().enumerate() {
                        if !is_formula_start(cell.chars().next()) {
                            continue;
                        }
                        cell.insert(0, '\'');
                        let field = FIELDS.get(i).copied().unwrap_or(Field::BookmarkExtra);
                        if field == Field::FolderTitle {
                            // The path starts with the first folder whose
                            // title is not empty.
                            let first = open
                                .iter()
                                .copied()
                                .find(|&f| doc.node(f).title().is_some_and(|t| !t.is_empty()));
                            if let Some(f) = first.filter(|&f| told.insert(f)) {
                                guarded.record_destination(doc, Some(f), field, GUARDED);
                            }
                        } else if !fields.contains(&field) {
                            fields.push(field);
                        }
                    }
                    if !fields.contains(&Field::BookmarkExtra) && used.iter().any(|&i| named[i]) {
                        fields.push(Field::BookmarkExtra);
                    }
                    for field in fields {
                        guarded.record_destination(doc, Some(id), field, GUARDED);
                    }
                    w.write_record(&row).map_err(csv_error)?;
                }
            }
        }
    }
    let bytes = w.into_inner().map_err(|e| Error::io(e.into_error()))?;
    let mut report = verify::finish(doc, &bytes, super::read, reason, out)?;
    report.destination = guarded.destination;
    Ok(report)
}

/// One bookmark's cells, as they are before guarding; the extra columns
/// it gave a value, by their index among the extra columns.
fn fill(
    row: &mut [String],
    b: &Bookmark,
    folder: &str,
    extra: &HashMap<&str, usize>,
) -> Vec<usize> {
    for cell in row.iter_mut() {
        cell.clear();
    }
    let flag = |v: Option<bool>| match v {
        Some(true) => "true",
        Some(false) => "false",
        None => "",
    };
    row[0].push_str(&b.href);
    row[1].push_str(b.title.as_deref().unwrap_or_default());
    row[2].push_str(b.desc.as_deref().unwrap_or_default());
    row[3].push_str(&b.tags.join(","));
    row[4].push_str(folder);
    match &b.added {
        Some(DateValue::Instant(t)) => t.push_w3c(&mut row[5]),
        Some(DateValue::Raw(r)) => row[5].push_str(r),
        None => {}
    }
    row[6].push_str(flag(b.private));
    row[7].push_str(flag(b.to_read));
    let mut used = Vec::new();
    for a in &b.details().extra {
        if let Some(&i) = extra.get(a.name.as_str()) {
            let cell = &mut row[HEADER.len() + i];
            if cell.is_empty() {
                cell.push_str(&a.value);
                used.push(i);
            }
        }
    }
    used
}

/// The extra attributes' names that get a column, in the order first met:
/// not a name the reader maps to a field, not blank, without `;`, tab,
/// `"` or a line break, and only as many as
/// keep the table within ten times the cells the bookmarks fill (one
/// bookmark's attribute each would otherwise make the output the square of
/// the input). What gets no column is reported lost.
fn extra_columns(doc: &Document) -> Vec<&str> {
    let (mut names, mut seen) = (Vec::new(), HashSet::new());
    let (mut rows, mut cells) = (0usize, 0usize);
    for id in doc.ids() {
        if let Node::Bookmark(b) = doc.node(id) {
            rows += 1;
            for a in &b.details().extra {
                cells += 1;
                let name = a.name.as_str();
                // A `;`, tab, quote or line break in the header could make
                // the reader take another delimiter or cut the header short.
                if !name.trim().is_empty()
                    && !name.contains([';', '\t', '"', '\r', '\n'])
                    && !is_known(name)
                    && seen.insert(name.to_ascii_lowercase())
                {
                    names.push(name);
                }
            }
        }
    }
    let room = (10 * (cells + rows) + 100_000) / rows.max(1);
    names.truncate(room);
    names
}

/// Why a field does not come back from a CSV file.
fn reason(field: Field) -> &'static str {
    use Field::*;
    match field {
        Folder => "a CSV has folders only as the path of the bookmarks in them: empty folders and a second folder of the same path are not kept",
        FolderTitle => "a folder path cannot carry a title that is empty, holds a '/' or has spaces at its ends",
        BookmarkTags => "tags are one cell split on ',' (or the separator most of the file's tags cells hold): a tag holding a separator, or empty, or with spaces at its ends, does not come back",
        BookmarkTitle | BookmarkDesc => "an empty text is no text in CSV, and one starting with ' before = + - @, a tab or a carriage return loses that ' (the writer puts one there so spreadsheets do not run formulas)",
        BookmarkHref => "a link starting with ' before = + - @, a tab or a carriage return loses that ' (the writer puts one there so spreadsheets do not run formulas)",
        BookmarkAdded | BookmarkAddedForm => "created is written in ISO 8601: a date kept as written that reads as a date comes back as one, and one starting with ' before a formula character loses that '",
        BookmarkExtra => "an extra attribute gets a column of its own only if its name is not one the reader maps to a field, once per bookmark, and while the table stays in proportion to the bookmarks; a value or name starting with ' before a formula character loses that '",
        Bookmark => "a bookmark whose link starts a comment or is one the reader splits differently does not come back as it was",
        Separator => "a CSV has no separators",
        Alias => "a CSV has no aliases",
        f if f.scope() == markport_model::Scope::Document => "a CSV has no place for the collection's own data",
        f if f.scope() == markport_model::Scope::Folder => "a CSV row carries a folder's path only, not its other data",
        _ => "a CSV row has no column for this",
    }
}

fn csv_error(e: ::csv::Error) -> Error {
    Error::new(markport_model::ErrorKind::Io, e.to_string(), None)
}
