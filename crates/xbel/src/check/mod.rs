//! The rules of `markport check` ([`crate::RULES`], [`crate::DESKTOP_RULES`]),
//! found by the reader when asked
//! ([`ReadOptions::checking`](markport_model::ReadOptions::checking)).
//!
//! The reader hands each event quick-xml gives it to a [`Checker`] before
//! it reads it, including the events of the `<metadata>` blocks it reads
//! on its own: the file is tokenized once, whether it is converted or
//! checked. Off, no checker exists and reading costs what it did.

mod desktop;
mod walk;

use std::cell::OnceCell;

use markport_model::rule::{Findings, Rule};
use markport_model::{Diagnostic, Error, ErrorKind, LineIndex, Location};
use quick_xml::events::Event;

use crate::rules::XBEL_NOT_WELL_FORMED;

/// Where findings go: diagnostics tagged with their rule, located in the
/// bytes they were found in (the file's own for its encoding, the decoded
/// text for the rest).
pub(crate) struct Sink<'a> {
    text: &'a [u8],
    /// Built on the first finding: a clean file never indexes its lines.
    lines: OnceCell<LineIndex<'a>>,
    /// At most [`LIMIT_PER_RULE`](markport_model::rule::LIMIT_PER_RULE)
    /// of each rule, and the count of the rest: a file of a million
    /// `<bookmark/>` would otherwise keep a million messages.
    found: Findings,
}

impl<'a> Sink<'a> {
    pub(crate) fn new(text: &'a [u8]) -> Sink<'a> {
        Sink {
            text,
            lines: OnceCell::new(),
            found: Findings::default(),
        }
    }

    fn locate(&self, offset: usize) -> Location {
        self.lines
            .get_or_init(|| LineIndex::new(self.text))
            .locate(offset.min(self.text.len()))
    }

    /// A breach of `rule` at byte `offset`.
    pub(crate) fn at(&mut self, rule: &'static Rule, offset: usize, message: impl Into<String>) {
        let loc = self.locate(offset);
        self.found.push(rule, loc, move || message.into());
    }

    /// The line `offset` is on, for messages that point back.
    pub(crate) fn line_of(&mut self, offset: usize) -> u32 {
        self.locate(offset).line
    }

    /// What was found, in the order it was.
    pub(crate) fn into_found(self) -> Vec<Diagnostic> {
        self.found.finish()
    }
}

/// The XBEL rules applied to the events of one document, as the reader
/// reads them.
pub(crate) struct Checker<'t> {
    walk: walk::Walk<'t>,
    sink: Sink<'t>,
    /// What the decoding of the bytes found, located in the bytes.
    before: Vec<Diagnostic>,
}

impl<'t> Checker<'t> {
    /// A checker of `text` (decoded by [`decode`], which found `before`),
    /// with the desktop-bookmark rules too when `desktop`.
    /// With `letter`, writers' habits are reported element by element
    /// under the rule each breaks, not once as a warning naming the writer.
    pub(crate) fn new(
        text: &'t str,
        desktop: bool,
        letter: bool,
        before: Vec<Diagnostic>,
    ) -> Checker<'t> {
        Checker {
            walk: walk::Walk::new(text, desktop, letter),
            sink: Sink::new(text.as_bytes()),
            before,
        }
    }

    /// The event the reader just read at byte `offset` of the text.
    pub(crate) fn event(&mut self, event: &Event<'_>, offset: usize) {
        self.walk.event(&mut self.sink, event, offset);
    }

    /// Every finding so far, those of the bytes first.
    fn found(self) -> Vec<Diagnostic> {
        let mut found = self.before;
        found.append(&mut self.sink.into_found());
        found
    }

    /// quick-xml could not read on at `at`: the file is not well-formed,
    /// and checking stops there with what it found before.
    pub(crate) fn not_well_formed(self, at: usize, message: String) -> Error {
        let loc = self.sink.locate(at);
        Error::new(
            ErrorKind::Syntax,
            format!("{message}; checking stops here"),
            Some(loc),
        )
        .rule(XBEL_NOT_WELL_FORMED.id)
        .with_found(self.found())
    }

    /// The end of the file: everything found, or the error of a file that
    /// ends before its document does (with everything found before it).
    pub(crate) fn finish(mut self) -> Result<Vec<Diagnostic>, Error> {
        let walk = std::mem::replace(&mut self.walk, walk::Walk::new("", false, false));
        match walk.eof(&mut self.sink) {
            Ok(()) => Ok(self.found()),
            Err((rule, at, message)) => {
                let kind = if rule.id == XBEL_NOT_WELL_FORMED.id {
                    ErrorKind::Syntax
                } else {
                    ErrorKind::WrongFormat
                };
                let loc = self.sink.locate(at);
                Err(Error::new(kind, message, Some(loc))
                    .rule(rule.id)
                    .with_found(self.found()))
            }
        }
    }
}
