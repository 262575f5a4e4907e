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

use std::cell::Cell;
use std::io::{BufRead, Cursor, Read};
use std::rc::Rc;

use markport_model::{Error, ErrorKind, LineIndex, Location};
use plist::stream::{BinaryReader, OwnedEvent, XmlReader};

/// The magic number every binary plist starts with.
pub const BINARY_MAGIC: &[u8] = b"bplist00";

/// The fewest bytes a binary plist has: its header and its 32-byte
/// trailer (which says where its offset table is).
const BINARY_LEAST: usize = BINARY_MAGIC.len() + 32;

/// Events of one plist, either encoding.
pub struct Events<'a> {
    input: &'a [u8],
    inner: Inner<'a>,
    /// Events left before a binary plist is taken for an expansion.
    budget: usize,
}

enum Inner<'a> {
    Binary(BinaryReader<Cursor<&'a [u8]>>),
    /// The XML reader, and how far into the input it has read: the end of
    /// the token behind the last event or error.
    Xml(XmlReader<Counted<'a>>, Rc<Cell<usize>>),
}

/// The input as the XML reader reads it, counting what it consumes (the
/// plist crate keeps its reader's position private).
struct Counted<'a> {
    input: &'a [u8],
    at: Rc<Cell<usize>>,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (&self.input[self.at.get()..]).read(buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Counted<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        Ok(&self.input[self.at.get()..])
    }

    fn consume(&mut self, n: usize) {
        self.at.set((self.at.get() + n).min(self.input.len()));
    }
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
            let at = Rc::new(Cell::new(0));
            let counted = Counted {
                input,
                at: Rc::clone(&at),
            };
            Events {
                input,
                inner: Inner::Xml(XmlReader::new(counted), at),
                budget: usize::MAX,
            }
        }
    }

    /// Where the value of the last event starts, in an XML plist: its
    /// element's `<` (`<string>` of `<string>x</string>`, read as one
    /// event). `None` in a binary plist, whose objects have no line.
    pub fn at(&self) -> Option<Location> {
        let Inner::Xml(_, at) = &self.inner else {
            return None;
        };
        let end = at.get();
        let start = match element_start(self.input, end) {
            Some(tag) if self.input[tag..].starts_with(b"</") => {
                start_tag(self.input, tag).unwrap_or(tag)
            }
            Some(tag) => tag,
            None => text_start(self.input, end),
        };
        Some(LineIndex::new(self.input).locate(start))
    }

    /// Where the input ends, as a line and column (an XML plist cut short).
    pub fn end(&self) -> Option<Location> {
        match self.inner {
            Inner::Xml(..) => Some(LineIndex::new(self.input).locate(self.input.len())),
            Inner::Binary(_) => None,
        }
    }

    /// The next event, `None` at the end of the plist.
    pub fn next_event(&mut self) -> Result<Option<OwnedEvent>, Error> {
        let next = match &mut self.inner {
            Inner::Binary(_) if self.input.len() < BINARY_LEAST => {
                // The crate would seek before the start for the trailer
                // and say so as a raw I/O error.
                return Err(Error::new(
                    ErrorKind::Syntax,
                    format!(
                        "binary plist: cut short at byte {}: a binary plist has a {}-byte \
                         trailer after its objects",
                        self.input.len(),
                        BINARY_LEAST - BINARY_MAGIC.len()
                    ),
                    None,
                ));
            }
            Inner::Binary(r) => r.next(),
            Inner::Xml(r, _) => r.next(),
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
        let value = kind.starts_with("Invalid") && kind.ends_with("String");
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
            (Inner::Xml(..), Some(at)) => {
                // The crate says where the token it stopped at ends; the
                // token starts where a person looks for it.
                let end = at.min(self.input.len());
                let start = match element_start(self.input, end) {
                    // A value that does not parse is read whole, to its
                    // end tag: the value itself is what is wrong.
                    Some(tag) if value && self.input[tag..].starts_with(b"</") => {
                        text_start(self.input, tag)
                    }
                    Some(tag) => tag,
                    None => text_start(self.input, end),
                };
                Error::new(
                    kind,
                    format!("XML plist: {words}"),
                    Some(LineIndex::new(self.input).locate(start)),
                )
            }
            (Inner::Xml(..), None) => Error::new(
                kind,
                format!("XML plist: {words}"),
                self.end().filter(|_| words.contains("eof")),
            ),
        }
    }
}

/// The `<` of the element tag that ends at `end` (just past its `>`);
/// `None` when what ends there is text.
fn element_start(input: &[u8], end: usize) -> Option<usize> {
    if end == 0 || input[end - 1] != b'>' {
        return None;
    }
    memchr::memrchr(b'<', &input[..end])
}

/// Where the text that ends at `end` starts: just past the tag before it.
fn text_start(input: &[u8], end: usize) -> usize {
    memchr::memrchr(b'>', &input[..end]).map_or(0, |i| i + 1)
}

/// The start tag `<name` of the end tag `</name>` at `close`, the nearest
/// before it (a value element holds no element: only text lies between).
fn start_tag(input: &[u8], close: usize) -> Option<usize> {
    let name_end = memchr::memchr(b'>', &input[close..])? + close;
    let name = input[close + 2..name_end].trim_ascii();
    let mut before = close;
    while let Some(lt) = memchr::memrchr(b'<', &input[..before]) {
        let rest = &input[lt + 1..];
        if rest.starts_with(name)
            && matches!(
                rest.get(name.len()),
                Some(b'>' | b'/') | Some(b' ' | b'\t' | b'\n' | b'\r')
            )
        {
            return Some(lt);
        }
        before = lt;
    }
    None
}

/// The crate's error kind (`InvalidXmlSyntax`, `RecursiveObject`, ...) in
/// words; a cycle says what it is.
fn words(kind: &str) -> String {
    if kind.starts_with("RecursiveObject") {
        return "a container contains itself (a reference cycle)".to_string();
    }
    if kind.starts_with("Io(") {
        // Reading from bytes in memory fails only by a seek or a read
        // outside them.
        return "an offset points outside the file (cut short or corrupt)".to_string();
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
        assert!(!words("Io(Error { kind: InvalidInput })").contains("kind"));
    }
}
