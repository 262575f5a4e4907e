//! Services' CSV exports (Pocket's parts, Instapaper's file), read on the
//! one CSV scanner markport has ([`markport_lists::csv::scan`]): the header
//! checked against the columns a service writes, every error located as
//! line:col, and `markport check` and `markport convert` placing the same
//! problem at the same position, as they read with the same code.
//!
//! A CSV file can be shaped to cost a reader far more than its size says:
//! 100,000 columns make every row a 100,000-field record and any per-column
//! search quadratic, and one 50 MB field is no bookmark. Both are refused
//! with their position ([`MAX_COLUMNS`], [`MAX_FIELD`]); columns are found
//! through a map, never by searching the header for each one.
//!
//! With [`ReadOptions::checking`](markport_model::ReadOptions::checking)
//! the reader goes on past a problem a row has on its own (its field count,
//! bytes that were not UTF-8, no link) and tags each with its rule of
//! [`RULES`]; a problem that leaves nothing to read on (an unclosed quote,
//! a refused size) stops it, as it stops convert.

use std::collections::HashSet;

use markport_lists::csv::scan::{Cell, Scanner, Unclosed};
use markport_model::rule::Rule;
use markport_model::{DateValue, Diagnostic, Error, ErrorKind, LineIndex, Location};

/// Most columns a service's header may have: every export markport reads
/// has a dozen, and a reader that keeps unknown columns keeps each one per
/// row.
pub(crate) const MAX_COLUMNS: usize = 1000;

/// Most bytes one field may hold: a title, a note or a highlight is never
/// near this, and a field this size is a broken or hostile file.
pub(crate) const MAX_FIELD: usize = 16 << 20;

const HEADER: Rule = Rule::error(
    "export/header",
    "a CSV export whose header lacks a column the service writes, or repeats one",
);
const UNKNOWN_COLUMN: Rule = Rule::warning(
    "export/unknown-column",
    "a CSV column the service does not write",
);
const ROW: Rule = Rule::error(
    "export/row",
    "a CSV row that does not parse: its field count, bytes that are not UTF-8, no URL",
);
const BAD_DATE: Rule = Rule::error(
    "export/bad-date",
    "a CSV time that is not a number of seconds",
);

/// The rules of `markport check` the CSV exports' reader finds
/// (docs/check.md), shared by Pocket's and Instapaper's formats.
pub const RULES: &[Rule] = &[HEADER, UNKNOWN_COLUMN, ROW, BAD_DATE];

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
    /// The link's column: a row with it empty breaks [`ROW`].
    pub(crate) url: &'a str,
}

impl Columns<'_> {
    fn known(&self, name: &str) -> bool {
        self.required
            .iter()
            .chain(self.optional)
            .any(|c| c.eq_ignore_ascii_case(name.trim()))
    }

    /// The header a service writes, for messages.
    fn expected(&self) -> String {
        let mut all: Vec<&str> = self.required.to_vec();
        all.extend(self.optional.iter().copied());
        all.join(",")
    }
}

/// One CSV text to read: a file, or an entry of an archive.
#[derive(Clone, Copy)]
pub(crate) struct Part<'t> {
    /// The text, without its byte-order mark.
    pub(crate) text: &'t str,
    /// Whether bytes that were not UTF-8 were replaced by U+FFFD in it
    /// (only then is a U+FFFD in a cell such a byte).
    pub(crate) lossy: bool,
    /// Whether the reader finds every rule broken (`markport check`).
    pub(crate) checking: bool,
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

/// Read `part` as CSV whose header must hold every one of the `required`
/// columns (the `optional` ones may be there too; any other column is an
/// error unless the columns are `open`, as the file is then not the export
/// it claims to be). `start` makes the reader's state from the header;
/// `row` gets each record's fields and where it starts, in order. Returns
/// the state. Checking, an error keeps every diagnostic found before it.
pub(crate) fn read<S>(
    part: Part<'_>,
    columns: Columns<'_>,
    diags: &mut Vec<Diagnostic>,
    start: impl FnOnce(&Table) -> S,
    row: impl FnMut(&mut S, Location, Vec<String>, &mut Vec<Diagnostic>) -> Result<(), Error>,
) -> Result<S, Error> {
    let mut reading = Reading {
        scanner: Scanner::new(part.text, b','),
        index: LineIndex::new(part.text.as_bytes()),
        cells: Vec::new(),
        part,
        columns,
    };
    reading.all(diags, start, row).map_err(|e| {
        if part.checking {
            e.with_found(std::mem::take(diags))
        } else {
            e
        }
    })
}

/// Unix seconds as a date, as [`crate::unix_date`] reads them, the warning
/// for anything else tagged with its rule.
pub(crate) fn date(
    value: &str,
    what: &str,
    at: Location,
    diags: &mut Vec<Diagnostic>,
) -> Option<DateValue> {
    let said = diags.len();
    let date = crate::unix_date(value, what, Some(at), diags);
    if let Some(d) = diags.get_mut(said) {
        d.rule = Some(BAD_DATE.id.into());
    }
    date
}

/// One reading of a part: the scanner and the record it holds.
struct Reading<'t, 'c> {
    scanner: Scanner<'t>,
    index: LineIndex<'t>,
    /// The cells of the record last read.
    cells: Vec<Cell<'t>>,
    part: Part<'t>,
    columns: Columns<'c>,
}

impl<'t> Reading<'t, '_> {
    /// The header, then every row.
    fn all<S>(
        &mut self,
        diags: &mut Vec<Diagnostic>,
        start: impl FnOnce(&Table) -> S,
        mut row: impl FnMut(&mut S, Location, Vec<String>, &mut Vec<Diagnostic>) -> Result<(), Error>,
    ) -> Result<S, Error> {
        let table = self.header(diags)?;
        // A column missing leaves the rows nothing to be read as; checking
        // still looks at each row's shape before saying so.
        let missing = self.missing(&table);
        let mut state = match missing {
            None => Some(start(&table)),
            Some(e) if !self.part.checking => return Err(e),
            Some(_) => None,
        };
        let url = table.column(self.columns.url);
        while self.record()? {
            let at = self.index.locate(self.scanner.record_offset());
            if !self.shape(&table, url, at, diags)? {
                continue;
            }
            if let Some(state) = state.as_mut() {
                let fields = self.cells.drain(..).map(|c| c.value.into_owned()).collect();
                row(state, at, fields, diags).map_err(|mut e| {
                    e.location.get_or_insert(at);
                    e
                })?;
            }
        }
        match (state, missing) {
            (Some(state), _) => Ok(state),
            (None, Some(e)) => Err(e),
            (None, None) => unreachable!("a state is made unless a column is missing"),
        }
    }

    /// The next record into `cells`; `false` at the end of the text.
    fn record(&mut self) -> Result<bool, Error> {
        self.scanner
            .next_record(&mut self.cells)
            .map_err(|Unclosed { offset }| {
                Error::syntax(Unclosed::MESSAGE, self.index.locate(offset)).rule(ROW.id)
            })
    }

    /// The header: its names, each a column of the service (unless the
    /// columns are open) and given once.
    fn header(&mut self, diags: &mut Vec<Diagnostic>) -> Result<Table, Error> {
        let Columns { service, open, .. } = self.columns;
        let start = Location { line: 1, column: 1 };
        if !self.record()? {
            let message = format!(
                "empty file: a {service} export starts with the header {}",
                self.columns.expected()
            );
            return Err(Error::new(ErrorKind::WrongFormat, message, Some(start)).rule(HEADER.id));
        }
        if let Some(cell) = self.cells.get(MAX_COLUMNS) {
            let message = format!(
                "more than {MAX_COLUMNS} columns: no {service} export has so many (its header is {})",
                self.columns.expected()
            );
            return Err(Error::syntax(message, self.index.locate(cell.offset)).rule(HEADER.id));
        }
        self.too_large(start)?;
        let mut seen = HashSet::new();
        for cell in &self.cells {
            let name = &cell.value;
            let at = self.index.locate(cell.offset);
            if !seen.insert(name.trim().to_ascii_lowercase()) {
                let e = Error::syntax(format!("column {name:?} appears twice in the header"), at);
                self.breach(e, HEADER, diags)?;
            } else if !self.columns.known(name) && (!open || self.part.checking) {
                let message = format!(
                    "column {name:?} is not one a {service} export has (its header is {})",
                    self.columns.expected()
                );
                // At the column, for check as for convert: one scanner,
                // one place.
                let e = Error::syntax(message, at);
                self.breach(e, UNKNOWN_COLUMN, diags)?;
            }
        }
        let header = self.cells.drain(..).map(|c| c.value.into_owned()).collect();
        Ok(Table { header })
    }

    /// The error for the first column a service always writes that the
    /// header lacks.
    fn missing(&self, table: &Table) -> Option<Error> {
        let missing = self
            .columns
            .required
            .iter()
            .find(|r| table.column(r).is_none())?;
        let message = format!(
            "the header has no {missing} column (a {} export's header is {})",
            self.columns.service,
            self.columns.expected()
        );
        Some(Error::syntax(message, Location { line: 1, column: 1 }).rule(HEADER.id))
    }

    /// Whether the record read, starting at `at`, is a row to read: not a
    /// blank line, and of the header's width. Checking, each rule the row
    /// breaks on its own is said, and a row of the wrong width is skipped.
    fn shape(
        &self,
        table: &Table,
        url: Option<usize>,
        at: Location,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<bool, Error> {
        let cells = &self.cells;
        self.too_large(at)?;
        if cells.len() == 1 && cells[0].value.is_empty() {
            return Ok(false); // a blank line
        }
        let header = &table.header;
        if cells.len() != header.len() {
            let message = format!(
                "{} fields where the header has {} ({})",
                cells.len(),
                header.len(),
                header.join(",")
            );
            self.breach(Error::syntax(message, at), ROW, diags)?;
            return Ok(false);
        }
        if !self.part.checking {
            return Ok(true);
        }
        if self.part.lossy {
            if let Some(i) = cells.iter().position(|c| c.value.contains('\u{FFFD}')) {
                let message = format!("the {} field is not UTF-8", header[i].trim());
                diags.push(Diagnostic::warning(message, Some(at)).rule(ROW.id));
            }
        }
        if let Some(i) = url.filter(|&i| cells[i].value.trim().is_empty()) {
            let message = format!("the {} field is empty", header[i].trim());
            diags.push(Diagnostic::warning(message, Some(at)).rule(ROW.id));
        }
        Ok(true)
    }

    /// An error when a cell of the record read is over [`MAX_FIELD`],
    /// at the record (starting at `at`) and naming the field.
    fn too_large(&self, at: Location) -> Result<(), Error> {
        match self.cells.iter().position(|c| c.value.len() > MAX_FIELD) {
            None => Ok(()),
            Some(i) => Err(Error::syntax(
                format!(
                    "field {} of this record is {} bytes long, more than the {MAX_FIELD} a field may hold",
                    i + 1,
                    self.cells[i].value.len()
                ),
                at,
            )
            .rule(ROW.id)),
        }
    }

    /// A problem that stops convert and that checking says and reads past.
    fn breach(&self, e: Error, rule: Rule, diags: &mut Vec<Diagnostic>) -> Result<(), Error> {
        if !self.part.checking {
            return Err(e.rule(rule.id));
        }
        // Check lists it at its rule's level, whatever the diagnostic's.
        diags.push(Diagnostic::warning(e.message, e.location).rule(rule.id));
        Ok(())
    }
}
