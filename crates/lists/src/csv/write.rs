//! Writing a generic CSV: one row per bookmark, in document order.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use markport_model::{
    Bookmark, DateValue, Document, Error, Field, LossReport, Node, Step, WriteOptions,
};

use super::columns::is_known;
use super::values::guard;
use crate::verify;

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
    row.extend(extra.iter().map(|n| n.to_string()));
    w.write_record(&row).map_err(csv_error)?;
    let index: HashMap<&str, usize> = extra.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    // The folder path of where the walk is: each folder's title pushed on
    // open and cut off on close, so a deep tree costs its depth once, not
    // once per folder.
    let mut path = String::new();
    let mut cuts: Vec<usize> = Vec::new();
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                cuts.push(path.len());
                if !path.is_empty() {
                    path.push('/');
                }
                path.push_str(doc.node(id).title().unwrap_or_default());
            }
            Step::Close(_) => path.truncate(cuts.pop().unwrap_or(0)),
            Step::Leaf(id) => {
                if let Node::Bookmark(b) = doc.node(id) {
                    fill(&mut row, b, &path, &index);
                    w.write_record(&row).map_err(csv_error)?;
                }
            }
        }
    }
    let bytes = w.into_inner().map_err(|e| Error::io(e.into_error()))?;
    verify::finish(doc, &bytes, super::read, reason, out)
}

/// One bookmark's cells.
fn fill(row: &mut [String], b: &Bookmark, folder: &str, extra: &HashMap<&str, usize>) {
    for cell in row.iter_mut() {
        cell.clear();
    }
    let flag = |v: Option<bool>| match v {
        Some(true) => "true",
        Some(false) => "false",
        None => "",
    };
    row[0].push_str(&b.href);
    row[1].push_str(&guard(b.title.as_deref().unwrap_or_default()));
    row[2].push_str(&guard(b.desc.as_deref().unwrap_or_default()));
    row[3].push_str(&guard(&b.tags.join(",")));
    row[4].push_str(&guard(folder));
    match &b.added {
        Some(DateValue::Instant(t)) => t.push_w3c(&mut row[5]),
        Some(DateValue::Raw(r)) => row[5].push_str(r),
        None => {}
    }
    row[6].push_str(flag(b.private));
    row[7].push_str(flag(b.to_read));
    for a in &b.details().extra {
        if let Some(&i) = extra.get(a.name.as_str()) {
            let cell = &mut row[HEADER.len() + i];
            if cell.is_empty() {
                cell.push_str(&a.value);
            }
        }
    }
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
        BookmarkTitle | BookmarkDesc => "an empty text is no text in CSV, and one starting with ' before = + - @ loses that ' (the writer puts one there so spreadsheets do not run formulas)",
        BookmarkAdded | BookmarkAddedForm => "created is written in ISO 8601: a date kept as written that reads as a date comes back as one",
        BookmarkExtra => "an extra attribute gets a column of its own only if its name is not one the reader maps to a field, once per bookmark, and while the table stays in proportion to the bookmarks",
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
