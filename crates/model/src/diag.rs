//! Errors, diagnostics and source positions.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::display::{shown, MESSAGE_CHARS, VALUE_CHARS};
use serde::{Deserialize, Serialize};

/// A position in a source file: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Location {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Turns byte offsets into [`Location`]s; built once per input so that many
/// diagnostics cost a binary search and a short count each, not a scan.
///
/// Columns count characters as `String::from_utf8_lossy` would (one per
/// malformed sequence). A long line would make counting from its start cost
/// the line's length per diagnostic (quadratic for a line of many bad
/// values), so the index also keeps a checkpoint every [`LineIndex::STRIDE`]
/// bytes with its column, and counts only from the nearest one.
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    input: &'a [u8],
    starts: Vec<usize>,
    /// (offset, 0-based column) in offset order: every line start, and
    /// within long lines a point at least every `STRIDE` bytes.
    marks: Vec<(usize, u32)>,
}

/// Characters in `bytes` as `from_utf8_lossy` counts them. Exact for any
/// slice that starts and ends before a byte that is not a continuation byte,
/// because such a byte never joins the sequence before it.
fn lossy_chars(bytes: &[u8]) -> usize {
    // Nearly all text is ASCII, one character a byte: checked a word at a
    // time, where the chunks' walk goes a character at a time.
    if bytes.is_ascii() {
        return bytes.len();
    }
    bytes
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

fn is_continuation(b: u8) -> bool {
    (0x80..0xC0).contains(&b)
}

impl<'a> LineIndex<'a> {
    /// Bytes between checkpoints within a line.
    pub const STRIDE: usize = 256;

    /// Index the line starts of `input` (LF, CRLF and lone CR end a line).
    pub fn new(input: &'a [u8]) -> LineIndex<'a> {
        let mut starts = vec![0];
        for i in memchr::memchr2_iter(b'\n', b'\r', input) {
            if input[i] == b'\n' || input.get(i + 1) != Some(&b'\n') {
                starts.push(i + 1);
            }
        }
        let mut marks = Vec::with_capacity(starts.len());
        for (n, &start) in starts.iter().enumerate() {
            let end = starts.get(n + 1).copied().unwrap_or(input.len());
            marks.push((start, 0));
            let (mut at, mut column) = (start, 0usize);
            while end - at > Self::STRIDE {
                let mut next = at + Self::STRIDE;
                while next < end && is_continuation(input[next]) {
                    next += 1;
                }
                if next >= end {
                    break;
                }
                column += lossy_chars(&input[at..next]);
                marks.push((next, u32::try_from(column).unwrap_or(u32::MAX)));
                at = next;
            }
        }
        LineIndex {
            input,
            starts,
            marks,
        }
    }

    /// The location of byte `offset` (clamped to the input).
    pub fn locate(&self, offset: usize) -> Location {
        let offset = offset.min(self.input.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        // The nearest checkpoint at or before `offset`; the line's start is
        // one, so it is never on an earlier line.
        let (at, base) = self.marks[self.marks.partition_point(|&(m, _)| m <= offset) - 1];
        let column = base as usize + lossy_chars(&self.input[at..offset]);
        Location {
            line: line as u32 + 1,
            column: u32::try_from(column + 1).unwrap_or(u32::MAX),
        }
    }
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was read in an unusual way, with nothing lost.
    Note,
    /// Something was broken or ambiguous and was recovered; `--strict` fails on it.
    Warning,
}

/// Something a reader noticed and recovered from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// What happened, for people.
    pub message: String,
    /// Where in the source, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// The file the diagnostic is about, when the collection is many files
    /// (a favorites tree): its path relative to the collection, with `/`.
    /// The location, if any, is in that file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The `markport check` rule (docs/check.md) this breaks, when it is
    /// one: `check` lists the diagnostic under that id, at its location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<Cow<'static, str>>,
}

impl Diagnostic {
    /// A warning at a location.
    pub fn warning(message: impl Into<String>, location: Option<Location>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            message: message.into(),
            location,
            file: None,
            rule: None,
        }
    }

    /// A note at a location.
    pub fn note(message: impl Into<String>, location: Option<Location>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Note,
            message: message.into(),
            location,
            file: None,
            rule: None,
        }
    }

    /// The same diagnostic about `file`, one file of a collection of many
    /// (its path relative to the collection).
    ///
    /// ```
    /// use markport_model::{Diagnostic, Location};
    ///
    /// let d = Diagnostic::warning("odd", Some(Location { line: 3, column: 1 })).in_file("A/b.url");
    /// assert_eq!(d.to_string(), "A/b.url:3:1: warning: odd");
    /// ```
    pub fn in_file(mut self, file: impl Into<String>) -> Diagnostic {
        self.file = Some(file.into());
        self
    }

    /// The same diagnostic as a finding of `markport check`'s rule `id`
    /// (`FORMAT/NAME`, as docs/check.md lists it).
    ///
    /// ```
    /// use markport_model::{Diagnostic, Location};
    ///
    /// let d = Diagnostic::warning("checksum 0123 does not match", None).rule("chromium/checksum");
    /// assert_eq!(d.rule.as_deref(), Some("chromium/checksum"));
    /// ```
    pub fn rule(mut self, id: &'static str) -> Diagnostic {
        self.rule = Some(Cow::Borrowed(id));
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Note => "note",
            Severity::Warning => "warning",
        };
        // The message may quote the file, and a file's name in a tree is
        // the tree's: both are shown escaped and cut.
        let message = shown(&self.message, MESSAGE_CHARS);
        if let Some(file) = &self.file {
            write!(f, "{}:", shown(file, VALUE_CHARS))?;
            if self.location.is_none() {
                f.write_str(" ")?;
            }
        }
        match self.location {
            Some(l) => write!(f, "{l}: {sev}: {message}"),
            None => write!(f, "{sev}: {message}"),
        }
    }
}

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not well-formed in its format.
    Syntax,
    /// The input is not this format at all.
    WrongFormat,
    /// The input asks for something refused for safety (external entities,
    /// entity expansion).
    Unsafe,
    /// The input is well-formed but breaks a rule of its format.
    Invalid,
    /// A diagnostic under `--strict`.
    Strict,
    /// Reading or writing bytes failed.
    Io,
    /// The document cannot be written in this format at all.
    Unwritable,
    /// The work was stopped at its deadline
    /// ([`ReadOptions::deadline`](crate::ReadOptions::deadline)) before it
    /// ended: nothing is wrong with the input.
    Cancelled,
}

/// A failure to read or write, with where it happened.
///
/// Errors compare by kind, message and location; an I/O failure also keeps
/// the [`std::io::Error`], which [`source`](std::error::Error::source) returns.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// What happened, for people.
    pub message: String,
    /// Where in the input, when known.
    pub location: Option<Location>,
    /// The I/O error behind an [`ErrorKind::Io`] failure (shared, so that
    /// errors stay `Clone`).
    source: Option<Arc<std::io::Error>>,
    /// What the reader found before it stopped (with
    /// [`ReadOptions::checking`](crate::ReadOptions::checking), every rule
    /// broken up to the fatal one), in order of position.
    pub found: Vec<Diagnostic>,
    /// The `markport check` rule the failure breaks, when it is one
    /// (`xbel/not-well-formed`): check lists it under that id.
    pub rule: Option<&'static str>,
}

impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        self.kind == other.kind && self.message == other.message && self.location == other.location
    }
}

impl Eq for Error {}

impl Error {
    /// An error of `kind` at `location`.
    pub fn new(kind: ErrorKind, message: impl Into<String>, location: Option<Location>) -> Error {
        Error {
            kind,
            message: message.into(),
            location,
            source: None,
            found: Vec::new(),
            rule: None,
        }
    }

    /// A syntax error at `location`.
    pub fn syntax(message: impl Into<String>, location: Location) -> Error {
        Error::new(ErrorKind::Syntax, message, Some(location))
    }

    /// An I/O failure; the error stays available as its
    /// [`source`](std::error::Error::source).
    pub fn io(err: std::io::Error) -> Error {
        Error {
            message: err.to_string(),
            source: Some(Arc::new(err)),
            ..Error::new(ErrorKind::Io, String::new(), None)
        }
    }

    /// The same error, keeping what was found before it.
    pub fn with_found(mut self, found: Vec<Diagnostic>) -> Error {
        self.found = found;
        self
    }

    /// The same error, as a breach of `markport check`'s rule `id`.
    pub fn rule(mut self, id: &'static str) -> Error {
        self.rule = Some(id);
        self
    }

    /// The I/O error behind this failure, when there is one.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.source.as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = shown(&self.message, MESSAGE_CHARS);
        match self.location {
            Some(l) => write!(f, "{l}: {message}"),
            None => f.write_str(&message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::io(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_io_error_is_the_source_and_others_have_none() {
        use std::error::Error as _;
        let e = Error::from(std::io::Error::new(std::io::ErrorKind::NotFound, "gone"));
        assert_eq!((e.kind, e.message.as_str()), (ErrorKind::Io, "gone"));
        let source = e.source().expect("an io error");
        let io = source.downcast_ref::<std::io::Error>().unwrap();
        assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
        assert_eq!(
            e.io_error().map(|i| i.kind()),
            Some(std::io::ErrorKind::NotFound)
        );
        assert_eq!(e.clone(), e);
        assert!(Error::syntax("bad", Location { line: 1, column: 1 })
            .source()
            .is_none());
    }

    #[test]
    fn locations_count_lines_and_characters() {
        let text = "ab\r\nçd\ne\rf".as_bytes();
        let idx = LineIndex::new(text);
        assert_eq!(idx.locate(0), Location { line: 1, column: 1 });
        assert_eq!(idx.locate(4), Location { line: 2, column: 1 });
        // "ç" is two bytes but one column.
        assert_eq!(idx.locate(6), Location { line: 2, column: 2 });
        assert_eq!(idx.locate(10), Location { line: 4, column: 1 });
        assert_eq!(idx.locate(999), Location { line: 4, column: 2 });
    }

    /// Columns on long lines come from checkpoints; they must agree with
    /// counting from the line start, also around multi-byte and malformed
    /// sequences that straddle a checkpoint.
    #[test]
    fn checkpoints_count_like_a_scan_from_the_line_start() {
        let mut text: Vec<u8> = Vec::new();
        for i in 0..3000 {
            match i % 7 {
                0 => text.extend_from_slice("ç".as_bytes()),
                1 => text.extend_from_slice("日本".as_bytes()),
                2 => text.push(0xE3), // a truncated sequence
                3 => text.extend_from_slice(&[0xE3, 0x81]),
                4 => text.push(0xFF),
                5 if i % 1000 == 5 => text.push(b'\n'),
                _ => text.push(b'a'),
            }
        }
        let idx = LineIndex::new(&text);
        assert!(idx.marks.len() > 20, "long lines get checkpoints");
        for offset in (0..=text.len()).rev() {
            let line_start = idx.starts[idx.starts.partition_point(|&s| s <= offset) - 1];
            let expected = String::from_utf8_lossy(&text[line_start..offset])
                .chars()
                .count() as u32
                + 1;
            assert_eq!(idx.locate(offset).column, expected, "offset {offset}");
        }
    }
}
