//! CSV exports (RFC 4180, through the `csv` crate): the header checked
//! against the columns a service writes, every error located as line:col.

use markport_model::{Diagnostic, Error, ErrorKind, LineIndex, Location};

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
}

/// Read `text` as CSV whose header must hold every one of `required`
/// (`optional` may be there too; any other column is an error, as the
/// file is then not the export it claims to be). `start` makes the
/// reader's state from the header; `row` gets each record's fields and
/// where it starts, in order. Returns the state.
pub(crate) fn read<S>(
    text: &str,
    service: &str,
    required: &[&str],
    optional: &[&str],
    diags: &mut Vec<Diagnostic>,
    start: impl FnOnce(&Table) -> S,
    mut row: impl FnMut(&mut S, Location, Vec<String>, &mut Vec<Diagnostic>),
) -> Result<S, Error> {
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
    for (i, h) in header.iter().enumerate() {
        if !known(h)
            || header[..i]
                .iter()
                .any(|p| p.trim().eq_ignore_ascii_case(h.trim()))
        {
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
        row(&mut state, at, fields, diags);
    }
    unclosed(text, last, &index)?;
    Ok(state)
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
