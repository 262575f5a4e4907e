//! Reading a generic CSV: the header decides the delimiter and the columns,
//! then one record at a time becomes one bookmark.

use std::borrow::Cow;
use std::collections::HashMap;

use markport_model::{
    Attribute, Bookmark, DateValue, Diagnostic, Document, Error, ErrorKind, Folder, Location,
    NodeId, Parsed, ReadOptions,
};

use super::columns::{assign, Target};
use super::values::{date, flag, split_tags, unguard, SeparatorVote};
use crate::text as utf8_text;
use crate::Lazy;

/// The delimiter the header line uses: the most frequent of `,`, `;` and
/// tab outside quotes (a comma when it has none of them).
pub(crate) fn delimiter(header_line: &str) -> u8 {
    let (mut counts, mut quoted) = ([0usize; 3], false);
    for b in header_line.bytes() {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => counts[0] += 1,
            b';' if !quoted => counts[1] += 1,
            b'\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let best = (0..3).fold(0, |best, i| if counts[i] > counts[best] { i } else { best });
    [b',', b';', b'\t'][best]
}

/// The first line of `text`, without its line end.
pub(crate) fn first_line(text: &str) -> &str {
    let end = memchr::memchr2(b'\n', b'\r', text.as_bytes()).unwrap_or(text.len());
    &text[..end]
}

/// Read a generic CSV file.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut diags = Vec::new();
    let src = utf8_text(input, &mut diags);
    // Made when a position is first needed: most files need none, and
    // indexing costs a pass over the whole text.
    let index = Lazy::new(&src);
    let delim = delimiter(first_line(&src));
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .from_reader(src.as_bytes());
    let mut records = reader.byte_records();
    let header: Vec<String> = match records.next() {
        Some(Ok(h)) => h
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect(),
        Some(Err(e)) => return Err(csv_error(&e, &index)),
        None => {
            return Err(Error::new(
                ErrorKind::WrongFormat,
                "empty file: a bookmark CSV starts with a header naming its url column",
                Some(Location { line: 1, column: 1 }),
            ))
        }
    };
    open_quote(&src, 0, delim, &index)?;
    let columns = assign(&header, &opts.csv.map)?;
    if opts.csv.explain {
        explain(&header, &columns, delim, &mut diags);
    }
    let mut rows = Rows {
        doc: Document::new(),
        folders: HashMap::new(),
        paths: HashMap::new(),
        tags: Vec::new(),
        vote: SeparatorVote::default(),
    };
    let mut last = 0;
    for record in records {
        let record = record.map_err(|e| csv_error(&e, &index))?;
        let mut start = record.position().map_or(0, |p| p.byte() as usize);
        // After a CRLF the `csv` crate starts the next record at the LF.
        while matches!(src.as_bytes().get(start), Some(b'\r' | b'\n')) {
            start += 1;
        }
        last = start;
        if record.len() == 1 && record[0].is_empty() {
            continue; // a blank line
        }
        rows.row(
            &record,
            &header,
            &columns,
            || index.locate(start),
            &mut diags,
        );
    }
    open_quote(&src, last, delim, &index)?;
    let doc = rows.finish(opts.csv.explain, &mut diags);
    Parsed::new(doc, diags).enforce(opts)
}

/// What the records build up.
struct Rows {
    doc: Document,
    /// Folders by (parent, title): a path is made once, then found.
    folders: HashMap<(Option<NodeId>, String), NodeId>,
    /// Each folder cell met and where it led: a row's folder is one
    /// lookup, without a copy of the cell.
    paths: HashMap<String, Option<NodeId>>,
    /// Each bookmark's tags cell, split once the file's separator is known.
    tags: Vec<(NodeId, String)>,
    vote: SeparatorVote,
}

impl Rows {
    fn row(
        &mut self,
        record: &::csv::ByteRecord,
        header: &[String],
        columns: &[Option<Target>],
        at: impl Fn() -> Location,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut b = Bookmark::new(String::new());
        let mut parent = None;
        let mut tags = None;
        let mut lossy = false;
        let (mut private, mut public) = (false, false);
        for (i, raw) in record.iter().enumerate() {
            // Borrowed from the record; copied only into what is kept.
            let cell = match std::str::from_utf8(raw) {
                Ok(s) => Cow::Borrowed(s),
                Err(_) => {
                    lossy = true;
                    String::from_utf8_lossy(raw)
                }
            };
            let Some(target) = columns.get(i).copied().flatten() else {
                if !cell.is_empty() {
                    let name = match header.get(i) {
                        Some(h) if !h.trim().is_empty() => h.clone(),
                        Some(_) => format!("column {}", i + 1),
                        None => {
                            diags.push(Diagnostic::warning(
                                format!(
                                    "field {} is beyond the header's {} columns; kept as \"column {}\"",
                                    i + 1,
                                    header.len(),
                                    i + 1
                                ),
                                Some(at()),
                            ));
                            format!("column {}", i + 1)
                        }
                    };
                    b.details_mut()
                        .extra
                        .push(Attribute::new(name, cell.into_owned()));
                }
                continue;
            };
            match target {
                Target::Url => b.href = cell.into_owned(),
                Target::Title => b.title = text(unguard(&cell)),
                Target::Description => b.desc = text(unguard(&cell)),
                Target::Tags => {
                    let cell = unguard(&cell);
                    if !cell.trim().is_empty() {
                        self.vote.count(cell);
                        tags = Some(cell.to_string());
                    }
                }
                Target::Folder => parent = self.folder(unguard(&cell)),
                Target::Created => {
                    if !cell.trim().is_empty() {
                        b.added = Some(date(&cell).unwrap_or_else(|| {
                            diags.push(Diagnostic::warning(
                                format!(
                                    "{:?} is not a date in Unix seconds, milliseconds or ISO 8601; kept as written",
                                    header[i]
                                ),
                                Some(at()),
                            ));
                            DateValue::Raw(cell.as_ref().into())
                        }));
                    }
                }
                Target::Private | Target::Shared | Target::ToRead => match flag(&cell) {
                    Ok(None) => {}
                    Ok(Some(yes)) => match target {
                        Target::Private => (private, public) = (private || yes, public || !yes),
                        Target::Shared => (private, public) = (private || !yes, public || yes),
                        _ => b.to_read = Some(yes),
                    },
                    Err(()) => {
                        diags.push(Diagnostic::warning(
                            format!(
                                "{:?} of column {:?} is not yes or no: the bookmark is read as private and the value kept",
                                cell, header[i]
                            ),
                            Some(at()),
                        ));
                        private = true;
                        b.details_mut()
                            .extra
                            .push(Attribute::new(header[i].clone(), cell.into_owned()));
                    }
                },
            }
        }
        if lossy {
            diags.push(Diagnostic::warning(
                "invalid UTF-8 read as U+FFFD",
                Some(at()),
            ));
        }
        if private || public {
            b.private = Some(private);
        }
        if b.href.is_empty() {
            diags.push(Diagnostic::warning(
                "a row without a link: kept as a bookmark with an empty link",
                Some(at()),
            ));
        }
        let id = self.doc.push(parent, b);
        if let Some(t) = tags {
            self.tags.push((id, t));
        }
    }

    /// The folder a `/` path names, made as needed (empty parts skipped,
    /// each part trimmed); `None` for the top level.
    fn folder(&mut self, cell: &str) -> Option<NodeId> {
        if let Some(id) = self.paths.get(cell) {
            return *id;
        }
        let mut parent = None;
        for part in cell.split('/').map(str::trim).filter(|p| !p.is_empty()) {
            let key = (parent, part.to_string());
            parent = Some(match self.folders.get(&key) {
                Some(id) => *id,
                None => {
                    let id = self.doc.push(parent, Folder::titled(part));
                    self.folders.insert(key, id);
                    id
                }
            });
        }
        self.paths.insert(cell.to_string(), parent);
        parent
    }

    /// The document, with every tags cell split on the file's separator.
    fn finish(mut self, explain: bool, diags: &mut Vec<Diagnostic>) -> Document {
        let sep = self.vote.separator();
        if explain && !self.tags.is_empty() {
            diags.push(Diagnostic::note(
                format!("tags are split on {sep:?}, the separator most tags cells hold"),
                None,
            ));
        }
        for (id, cell) in std::mem::take(&mut self.tags) {
            if let Some(b) = self.doc.as_bookmark_mut(id) {
                b.tags = split_tags(&cell, sep);
            }
        }
        self.doc
    }
}

/// The notes `--verbose` prints: the delimiter and which column is which field.
fn explain(header: &[String], columns: &[Option<Target>], delim: u8, diags: &mut Vec<Diagnostic>) {
    let name = match delim {
        b'\t' => "tab",
        b';' => "';'",
        _ => "','",
    };
    diags.push(Diagnostic::note(
        format!("CSV delimiter {name} (from the header)"),
        None,
    ));
    for (i, (h, c)) in header.iter().zip(columns).enumerate() {
        let to = match c {
            Some(t) => format!("is {}", t.name()),
            None => "is kept with each bookmark (bookmark.extra)".to_string(),
        };
        diags.push(Diagnostic::note(
            format!("column {} {h:?} {to}", i + 1),
            None,
        ));
    }
}

/// An error at a quote that opens a field of the record starting at byte
/// `start` and is never closed: the `csv` crate then reads the rest of the
/// file into that field without a word. Fields are read as RFC 4180 says
/// (a quote opens a field only at its start, `""` inside is one quote);
/// linear in the record's length.
fn open_quote(text: &str, start: usize, delim: u8, index: &Lazy<'_>) -> Result<(), Error> {
    let b = text.as_bytes();
    let mut i = start;
    while i <= b.len() {
        if b.get(i) == Some(&b'"') {
            let open = i;
            i += 1;
            loop {
                match memchr::memchr(b'"', &b[i.min(b.len())..]) {
                    None => {
                        return Err(Error::syntax(
                            "unclosed quote: the quoted field that opens here has no closing quote",
                            index.locate(open),
                        ))
                    }
                    Some(n) if b.get(i + n + 1) == Some(&b'"') => i += n + 2,
                    Some(n) => {
                        i += n + 1;
                        break;
                    }
                }
            }
        }
        match memchr::memchr3(delim, b'\n', b'\r', &b[i.min(b.len())..]) {
            Some(n) if b[i + n] == delim => i += n + 1,
            _ => return Ok(()),
        }
    }
    Ok(())
}

fn csv_error(e: &::csv::Error, index: &Lazy<'_>) -> Error {
    let at = e.position().map_or(Location { line: 1, column: 1 }, |p| {
        index.locate(p.byte() as usize)
    });
    Error::syntax(format!("CSV: {e}"), at)
}

/// A text cell as a model value: none when empty.
fn text(cell: &str) -> Option<String> {
    (!cell.is_empty()).then(|| cell.to_string())
}
