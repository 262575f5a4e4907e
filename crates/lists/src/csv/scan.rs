//! The CSV scanner every reader of generic CSV in markport shares: records
//! and their cells, each with the byte offset it starts at, so that a
//! problem with a cell is placed at the cell and `markport check` and
//! `markport convert` place the same problem at the same line and column.
//!
//! It reads RFC 4180 as the `csv` crate does: a record ends at LF, CR or
//! CRLF outside quotes; a quote opens a quoted cell only as the cell's first
//! byte, `""` inside it is one quote, and after the closing quote the cell
//! goes on, verbatim, to the delimiter; a quote inside an unquoted cell is
//! a quote. Empty lines are no records. A quoted cell that is never closed
//! is an error at its opening quote (the `csv` crate would read the rest of
//! the file into it without a word).
//!
//! Linear in the text, with no state but the position: cells are borrowed
//! from the text unless they hold `""` or text after their closing quote.
//!
//! ```
//! use markport_lists::csv::scan::{self, Scanner};
//!
//! let file = b"url,title\nhttps://e/,\"a \"\"quoted\"\" title\"\n";
//! let (text, lossy) = scan::decode(file);
//! assert!(!lossy);
//! let mut scanner = Scanner::new(&text, scan::delimiter(&text));
//! let mut cells = Vec::new();
//! assert!(scanner.next_record(&mut cells).unwrap()); // the header
//! assert!(scanner.next_record(&mut cells).unwrap());
//! assert_eq!(cells[1].value, "a \"quoted\" title");
//! // Byte 21 of the text: line 2, column 12.
//! assert_eq!(cells[1].offset, 21);
//! assert!(!scanner.next_record(&mut cells).unwrap());
//!
//! let bad = "url,title\nhttps://e/,\"no end\n";
//! let e = Scanner::new(bad, b',').find_map(|r| r.err()).unwrap();
//! assert_eq!(e.offset, 21); // the opening quote
//! ```

use std::borrow::Cow;

/// A file's bytes as the text the scanner reads: without a UTF-8
/// byte-order mark, borrowed when valid UTF-8, with invalid sequences
/// replaced by U+FFFD otherwise (the `bool`: whether any was). Offsets into
/// the text locate at the same line and column as in the file
/// ([`markport_model::LineIndex`] counts an invalid byte as one column, as
/// the U+FFFD that replaces it), except that line 1 has no mark.
pub fn decode(input: &[u8]) -> (Cow<'_, str>, bool) {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let text = String::from_utf8_lossy(input);
    let lossy = matches!(text, Cow::Owned(_));
    (text, lossy)
}

/// The delimiter of a CSV text: the one its first line (the header) uses
/// most of `,`, `;` and tab outside quotes; a comma when it has none.
pub fn delimiter(text: &str) -> u8 {
    let end = memchr::memchr2(b'\n', b'\r', text.as_bytes()).unwrap_or(text.len());
    let (mut counts, mut quoted) = ([0usize; 3], false);
    for b in text[..end].bytes() {
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

/// One cell of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell<'a> {
    /// The value: quotes removed, `""` read as one quote.
    pub value: Cow<'a, str>,
    /// The byte offset in the text of the cell's first byte (its opening
    /// quote when it is quoted).
    pub offset: usize,
    /// The byte offset just past the cell's last byte, as written (its
    /// delimiter or line end, if any, follows).
    pub end: usize,
}

/// A quoted cell that is never closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unclosed {
    /// The byte offset in the text of the opening quote.
    pub offset: usize,
}

impl Unclosed {
    /// What is wrong, for people (the position is the caller's to add).
    pub const MESSAGE: &'static str =
        "unclosed quote: the quoted field that opens here has no closing quote";
}

impl std::fmt::Display for Unclosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Self::MESSAGE)
    }
}

impl std::error::Error for Unclosed {}

/// Records of a CSV text, one at a time.
#[derive(Clone, Debug)]
pub struct Scanner<'a> {
    text: &'a str,
    at: usize,
    delim: u8,
    /// The offset of the record last read.
    start: usize,
}

impl<'a> Scanner<'a> {
    /// A scanner over `text` (see [`decode`]) whose cells are separated by
    /// `delim` (see [`delimiter`]).
    pub fn new(text: &'a str, delim: u8) -> Scanner<'a> {
        Scanner {
            text,
            at: 0,
            delim,
            start: 0,
        }
    }

    /// The byte offset where the record last read starts (its first
    /// cell's offset).
    pub fn record_offset(&self) -> usize {
        self.start
    }

    /// Read the next record into `cells` (cleared first): `Ok(false)` at
    /// the end of the text, an error at the opening quote of a quoted cell
    /// never closed (the scanner then stays at the end).
    pub fn next_record(&mut self, cells: &mut Vec<Cell<'a>>) -> Result<bool, Unclosed> {
        cells.clear();
        let b = self.text.as_bytes();
        // Empty lines are no records.
        while matches!(b.get(self.at), Some(b'\n' | b'\r')) {
            self.at += 1;
        }
        if self.at >= b.len() {
            return Ok(false);
        }
        self.start = self.at;
        loop {
            let (cell, end) = match self.cell(self.at) {
                Ok(found) => found,
                Err(e) => {
                    self.at = b.len();
                    return Err(e);
                }
            };
            cells.push(cell);
            match b.get(end) {
                Some(&c) if c == self.delim => self.at = end + 1,
                Some(b'\r') if b.get(end + 1) == Some(&b'\n') => {
                    self.at = end + 2;
                    return Ok(true);
                }
                Some(_) => {
                    self.at = end + 1;
                    return Ok(true);
                }
                None => {
                    self.at = end;
                    return Ok(true);
                }
            }
        }
    }

    /// The cell starting at `from` and the offset of the byte that ends it
    /// (the delimiter, a line end or the end of the text).
    fn cell(&self, from: usize) -> Result<(Cell<'a>, usize), Unclosed> {
        let b = self.text.as_bytes();
        let stop = |from: usize| {
            memchr::memchr3(self.delim, b'\n', b'\r', &b[from..]).map_or(b.len(), |n| from + n)
        };
        if b.get(from) != Some(&b'"') {
            let end = stop(from);
            return Ok((
                Cell {
                    value: Cow::Borrowed(&self.text[from..end]),
                    offset: from,
                    end,
                },
                end,
            ));
        }
        // A quoted cell: borrowed while it holds no `""` and nothing
        // follows its closing quote.
        let mut owned: Option<String> = None;
        let mut i = from + 1;
        let close = loop {
            let Some(n) = memchr::memchr(b'"', &b[i..]) else {
                return Err(Unclosed { offset: from });
            };
            let q = i + n;
            if b.get(q + 1) == Some(&b'"') {
                owned
                    .get_or_insert_with(String::new)
                    .push_str(&self.text[i..=q]);
                i = q + 2;
            } else {
                if let Some(s) = owned.as_mut() {
                    s.push_str(&self.text[i..q]);
                }
                break q;
            }
        };
        let end = stop(close + 1);
        let value = match owned {
            Some(mut s) => {
                s.push_str(&self.text[close + 1..end]);
                Cow::Owned(s)
            }
            None if end == close + 1 => Cow::Borrowed(&self.text[from + 1..close]),
            None => Cow::Owned(format!(
                "{}{}",
                &self.text[from + 1..close],
                &self.text[close + 1..end]
            )),
        };
        Ok((
            Cell {
                value,
                offset: from,
                end,
            },
            end,
        ))
    }
}

/// Each record's cells, as owned vectors (a convenience; a reader that
/// keeps no record reuses one vector with [`Scanner::next_record`]).
impl<'a> Iterator for Scanner<'a> {
    type Item = Result<Vec<Cell<'a>>, Unclosed>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut cells = Vec::new();
        match self.next_record(&mut cells) {
            Ok(true) => Some(Ok(cells)),
            Ok(false) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str) -> Result<Vec<Vec<(String, usize)>>, Unclosed> {
        Scanner::new(text, b',')
            .map(|r| r.map(|c| c.into_iter().map(|c| (c.value.into(), c.offset)).collect()))
            .collect()
    }

    fn values(text: &str) -> Vec<Vec<String>> {
        records(text)
            .unwrap()
            .into_iter()
            .map(|r| r.into_iter().map(|(v, _)| v).collect())
            .collect()
    }

    #[test]
    fn cells_as_the_csv_crate_reads_them() {
        for text in [
            "a,\"b,\"\"c\"\"\",\"d\"e\"f,g\"h\r\n\r\n\n\"x\ny\",\nlast",
            "\"a\"b\"c\",d\r\"\"\r\n,\n a \"q\" ,\"\"\"\"\n\"é\"ü,\u{1F600}\r",
            ",,\n\n\r\r\n\",\",\"\n\"",
        ] {
            same_as_the_csv_crate(text);
        }
    }

    fn same_as_the_csv_crate(text: &str) {
        let mut ours = values(text);
        let mut theirs = Vec::new();
        let mut r = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        for rec in r.records() {
            theirs.push(
                rec.unwrap()
                    .iter()
                    .map(String::from)
                    .collect::<Vec<String>>(),
            );
        }
        assert_eq!(ours, theirs);
        ours.clear();
    }

    #[test]
    fn each_cell_knows_where_it_starts() {
        let r = records("url,title\nhttps://e/,\"T\"\n\n  x,,y").unwrap();
        assert_eq!(r[1], [("https://e/".into(), 10), ("T".into(), 21)]);
        assert_eq!(
            r[2],
            [("  x".into(), 26), ("".into(), 30), ("y".into(), 31)]
        );
    }

    #[test]
    fn an_unclosed_quote_is_an_error_at_the_quote() {
        let e = records("a,b\n1,\"two\n3,4\n").unwrap_err();
        assert_eq!(e.offset, 6);
        // `""` inside does not close it.
        let e = records("\"a\"\"").unwrap_err();
        assert_eq!(e.offset, 0);
    }
}
