//! The plist as a stream of events, from either encoding, with the plist
//! crate's errors turned into markport's (with a line and column for XML,
//! a byte offset for binary) and a budget on binary plists.
//!
//! Why a budget: a binary plist refers to its objects by index, so one
//! container may be referenced from many places. The plist crate refuses a
//! container that contains itself (a cycle) but expands a shared one at
//! every reference, so a few hundred bytes of nested shared arrays would
//! stream 2^n events. A tree without shared containers streams at most one
//! event per reference plus one end per container, and each costs at least
//! a byte of the file: more events than that means shared containers, and
//! the read stops there with an error instead of running for ever.

use std::io::Cursor;

use markport_model::{Error, ErrorKind, LineIndex};
use plist::stream::{BinaryReader, OwnedEvent, XmlReader};

/// The magic number every binary plist starts with.
pub const BINARY_MAGIC: &[u8] = b"bplist00";

/// Events of one plist, either encoding.
pub struct Events<'a> {
    input: &'a [u8],
    inner: Inner<'a>,
    /// Events left before a binary plist is taken for an expansion.
    budget: usize,
}

enum Inner<'a> {
    Binary(BinaryReader<Cursor<&'a [u8]>>),
    Xml(XmlReader<Cursor<&'a [u8]>>),
}

impl<'a> Events<'a> {
    /// The events of `input`: binary when it starts with `bplist00`, XML otherwise.
    pub fn new(input: &'a [u8]) -> Events<'a> {
        if input.starts_with(BINARY_MAGIC) {
            Events {
                input,
                inner: Inner::Binary(BinaryReader::new(Cursor::new(input))),
                budget: input.len().saturating_add(16),
            }
        } else {
            Events {
                input,
                inner: Inner::Xml(XmlReader::new(Cursor::new(input))),
                budget: usize::MAX,
            }
        }
    }

    /// The next event, `None` at the end of the plist.
    pub fn next_event(&mut self) -> Result<Option<OwnedEvent>, Error> {
        let next = match &mut self.inner {
            Inner::Binary(r) => r.next(),
            Inner::Xml(r) => r.next(),
        };
        match next {
            None => Ok(None),
            Some(Err(e)) => Err(self.error(&e)),
            Some(Ok(event)) => {
                if self.budget == 0 {
                    return Err(Error::new(
                        ErrorKind::Unsafe,
                        format!(
                            "binary plist: shared containers expand to more values than \
                             the file's {} bytes; refused (a Safari store shares none)",
                            self.input.len()
                        ),
                        None,
                    ));
                }
                self.budget -= 1;
                Ok(Some(event))
            }
        }
    }

    /// The plist crate's error as markport's: the kind in words and the
    /// position, as a line and column for XML, a byte offset for binary.
    fn error(&self, e: &plist::Error) -> Error {
        // The crate keeps the position private; its message ends with it,
        // as `Kind (offset N)`.
        let text = e.to_string();
        let (kind, offset) = match text.rsplit_once(" (offset ") {
            Some((kind, rest)) => (
                kind.to_string(),
                rest.trim_end_matches(')').parse::<usize>().ok(),
            ),
            None => (text.clone(), None),
        };
        let words = words(&kind);
        let kind = if kind.starts_with("RecursiveObject") {
            ErrorKind::Unsafe
        } else {
            ErrorKind::Syntax
        };
        match (&self.inner, offset) {
            (Inner::Binary(_), Some(at)) => {
                Error::new(kind, format!("binary plist: {words} at byte {at}"), None)
            }
            (Inner::Binary(_), None) => Error::new(kind, format!("binary plist: {words}"), None),
            (Inner::Xml(_), Some(at)) => Error::new(
                kind,
                format!("XML plist: {words}"),
                Some(LineIndex::new(self.input).locate(at.min(self.input.len()))),
            ),
            (Inner::Xml(_), None) => Error::new(kind, format!("XML plist: {words}"), None),
        }
    }
}

/// The crate's error kind (`InvalidXmlSyntax`, `RecursiveObject`, ...) in
/// words; a cycle says what it is.
fn words(kind: &str) -> String {
    if kind.starts_with("RecursiveObject") {
        return "a container contains itself (a reference cycle)".to_string();
    }
    let mut out = String::with_capacity(kind.len() + 8);
    for (i, c) in kind.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with([' ', '(']) {
                out.push(' ');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_as_words() {
        assert_eq!(words("InvalidXmlSyntax"), "invalid xml syntax");
        assert_eq!(words("UnexpectedEof"), "unexpected eof");
        assert!(words("RecursiveObject").contains("cycle"));
    }
}
