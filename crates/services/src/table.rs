//! CSV exports (RFC 4180, through the `csv` crate): the header checked
//! against the columns a service writes, every error located as line:col.
//!
//! A CSV file can be shaped to cost a reader far more than its size says:
//! 100,000 columns make every row a 100,000-field record and any per-column
//! search quadratic, and one 50 MB field is no bookmark. Both are refused
//! with their position ([`MAX_COLUMNS`], [`MAX_FIELD`]); columns are found
//! through a map, never by searching the header for each one.

use std::collections::HashSet;

use markport_model::{Diagnostic, Error, ErrorKind, LineIndex, Location};

/// Most columns a service's header may have: every export markport reads
/// has a dozen, and a reader that keeps unknown columns keeps each one per
/// row.
pub(crate) const MAX_COLUMNS: usize = 1000;

/// Most bytes one field may hold: a title, a note or a highlight is never
/// near this, and a field this size is a broken or hostile file.
pub(crate) const MAX_FIELD: usize = 16 << 20;

/// What columns a service writes.
#[derive(Clone, Copy)]
pub(crate) struct Columns<'a> {
    /// The service, for messages ("Pocket CSV").
    pub(crate) service: &'a str,
    /// Columns every export has.
    pub(crate) required: &'a [&'a str],
    /// Columns some exports have.
    pub(crate) optional: &'a [&'a str],
    /// Whether a column of neither kind is read (the reader keeps or
    /// reports it: the service adds columns over time) rather than refused.
    pub(crate) open: bool,
}

/// A CSV file's header (its records are handed over one at a time, never
/// held all at once).
pub(crate) struct Table {
    /// The header's column names, as written.
    pub(crate) header: Vec<String>,
}

impl Table {
    /// The index of column `name` (ASCII case-insensitive).
    pub(crate) fn column(&self, name: &str) -> Option<usize> {
        self.header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    }

    /// The columns that are none of `known`, with their indexes, in order.
    pub(crate) fn others(&self, known: &[&str]) -> Vec<(usize, String)> {
        self.header
            .iter()
            .enumerate()
            .filter(|(_, h)| !known.iter().any(|k| k.eq_ignore_ascii_case(h.trim())))
            .map(|(i, h)| (i, h.trim().to_string()))
            .collect()
    }
}

/// Read `text` as CSV whose header must hold every one of the `required`
/// columns (the `optional` ones may be there too; any other column is an
/// error unless the columns are `open`, as the file is then not the export
/// it claims to be). `start` makes the reader's state from the header;
/// `row` gets each record's fields and where it starts, in order. Returns
/// the state.
pub(crate) fn read<S>(
    text: &str,
    columns: Columns<'_>,
    diags: &mut Vec<Diagnostic>,
    start: impl FnOnce(&Table) -> S,
    mut row: impl FnMut(&mut S, Location, Vec<String>, &mut Vec<Diagnostic>) -> Result<(), Error>,
) -> Result<S, Error> {
    let Columns {
        service,
        required,
        optional,
        open,
    } = columns;
    let index = LineIndex::new(text.as_bytes());
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.byte_records();
    let expected = || {
        let mut all: Vec<&str> = required.to_vec();
        all.extend(optional.iter().copied());
        all.join(",")
    };
    let header: Vec<String> = match records.next() {
        Some(Ok(h)) => {
            unclosed(text, 0, &index)?;
            too_large(&h, 0, &index)?;
            h.iter()
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .collect()
        }
        Some(Err(e)) => return Err(csv_error(&e, &index)),
        None => {
            return Err(Error::new(
                ErrorKind::WrongFormat,
                format!(
                    "empty file: a {service} export starts with the header {}",
                    expected()
                ),
                Some(Location { line: 1, column: 1 }),
            ))
        }
    };
    let known = |h: &str| {
        required
            .iter()
            .chain(optional)
            .any(|c| c.eq_ignore_ascii_case(h.trim()))
    };
    let mut column = 1;
    let mut seen = HashSet::new();
    for (i, h) in header.iter().enumerate() {
        if i == MAX_COLUMNS {
            return Err(Error::syntax(
                format!(
                    "more than {MAX_COLUMNS} columns: no {service} export has so many (its header is {})",
                    expected()
                ),
                Location { line: 1, column },
            ));
        }
        if !seen.insert(h.trim().to_ascii_lowercase()) {
            return Err(Error::syntax(
                format!("column {h:?} appears twice in the header"),
                Location { line: 1, column },
            ));
        }
        if !open && !known(h) {
            return Err(Error::syntax(
                format!(
                    "column {h:?} is not one a {service} export has (its header is {})",
                    expected()
                ),
                Location { line: 1, column },
            ));
        }
        column += h.chars().count() as u32 + 1;
    }
    if let Some(missing) = required
        .iter()
        .find(|r| !header.iter().any(|h| h.trim().eq_ignore_ascii_case(r)))
    {
        return Err(Error::syntax(
            format!(
                "the header has no {missing} column (a {service} export's header is {})",
                expected()
            ),
            Location { line: 1, column: 1 },
        ));
    }
    let table = Table { header };
    let header = &table.header;
    let mut state = start(&table);
    // Where the last record starts: a quote that is not closed takes the
    // rest of the file into its field, so that record is the last one.
    let mut last = 0;
    for record in records {
        let record = record.map_err(|e| csv_error(&e, &index))?;
        let start = record.position().map_or(0, |p| p.byte() as usize);
        last = start;
        let at = index.locate(start);
        too_large(&record, start, &index)?;
        if record.len() == 1 && record[0].is_empty() {
            continue; // a blank line
        }
        if record.len() != header.len() {
            unclosed(text, start, &index)?;
            return Err(Error::syntax(
                format!(
                    "{} fields where the header has {} ({})",
                    record.len(),
                    header.len(),
                    header.join(",")
                ),
                at,
            ));
        }
        // The whole record's bytes checked at once, each field sliced out
        // of them (a check per field costs more in calls than in bytes);
        // field by field, as before, only if that fails.
        let placed = |mut e: Error| {
            e.location.get_or_insert(at);
            e
        };
        if let Some(fields) = sliced(&record) {
            row(&mut state, at, fields, diags).map_err(placed)?;
            continue;
        }
        let mut lossy = false;
        let fields = record
            .iter()
            .map(|f| match std::str::from_utf8(f) {
                Ok(s) => s.to_owned(),
                Err(_) => {
                    lossy = true;
                    String::from_utf8_lossy(f).into_owned()
                }
            })
            .collect();
        if lossy {
            diags.push(Diagnostic::warning(
                "invalid UTF-8 read as U+FFFD",
                Some(at),
            ));
        }
        row(&mut state, at, fields, diags).map_err(placed)?;
    }
    unclosed(text, last, &index)?;
    Ok(state)
}

/// The fields of `record` sliced out of its bytes checked as UTF-8 at
/// once; `None` when they are not UTF-8.
fn sliced(record: &csv::ByteRecord) -> Option<Vec<String>> {
    let all = std::str::from_utf8(record.as_slice()).ok()?;
    let mut fields = Vec::with_capacity(record.len());
    let mut from = 0;
    for field in record {
        let to = from + field.len();
        fields.push(all.get(from..to)?.to_owned());
        from = to;
    }
    Some(fields)
}

/// An error when a field of the record starting at byte `start` is over
/// [`MAX_FIELD`], at the record and naming the field.
fn too_large(record: &csv::ByteRecord, start: usize, index: &LineIndex<'_>) -> Result<(), Error> {
    match record.iter().position(|f| f.len() > MAX_FIELD) {
        None => Ok(()),
        Some(i) => Err(Error::syntax(
            format!(
                "field {} of this record is {} bytes long, more than the {MAX_FIELD} a field may hold",
                i + 1,
                record[i].len()
            ),
            index.locate(start),
        )),
    }
}

/// An error at the opening quote of a quoted field that is never closed
/// in the record starting at byte `start` (read as the `csv` crate reads
/// RFC 4180: a quote opens a field only at its start, `""` inside is a
/// quote, and after the closing quote the field goes on to the comma).
/// Linear in the record's length.
fn unclosed(text: &str, start: usize, index: &LineIndex<'_>) -> Result<(), Error> {
    let b = text.as_bytes();
    let mut i = start;
    loop {
        if b.get(i) == Some(&b'"') {
            let open = i;
            i += 1;
            loop {
                match b[i.min(b.len())..].iter().position(|&c| c == b'"') {
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
        match b[i.min(b.len())..]
            .iter()
            .position(|&c| matches!(c, b',' | b'\n' | b'\r'))
        {
            Some(n) if b[i + n] == b',' => i += n + 1,
            _ => return Ok(()),
        }
    }
}

fn csv_error(e: &csv::Error, index: &LineIndex<'_>) -> Error {
    let at = e.position().map_or(Location { line: 1, column: 1 }, |p| {
        index.locate(p.byte() as usize)
    });
    Error::syntax(format!("CSV: {e}"), at)
}
