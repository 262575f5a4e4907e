//! XML below the XBEL grammar, for the reader and the interpreted blocks:
//! text and attribute decoding, namespace scope, errors with an offset.

use std::borrow::Cow;
use std::collections::HashSet;

use quick_xml::escape::{unescape, EscapeError};
use quick_xml::events::BytesStart;

use markport_model::ErrorKind;

/// Namespace declarations seen so far: (element depth, prefix, URI),
/// borrowed from the file (a block per bookmark declares its own).
#[derive(Default)]
pub(crate) struct Scope<'t> {
    decls: Vec<(usize, Cow<'t, str>, Cow<'t, str>)>,
}

impl<'t> Scope<'t> {
    pub(crate) fn resolve(&self, prefix: &str) -> Option<&str> {
        self.decls
            .iter()
            .rev()
            .find(|d| d.1 == prefix)
            .map(|d| &*d.2)
    }

    /// Every declaration in scope, innermost winning, sorted by prefix.
    pub(crate) fn visible(&self) -> Vec<(String, String)> {
        // A set: an element may declare any number of prefixes.
        let mut prefixes: HashSet<&str> = HashSet::new();
        let mut seen: Vec<(String, String)> = Vec::new();
        for (_, p, u) in self.decls.iter().rev() {
            if prefixes.insert(p) {
                seen.push((p.to_string(), u.to_string()));
            }
        }
        seen.sort();
        seen
    }

    pub(crate) fn push(&mut self, depth: usize, prefix: Cow<'t, str>, uri: Cow<'t, str>) {
        self.decls.push((depth, prefix, uri));
    }

    pub(crate) fn pop_to(&mut self, depth: usize) {
        while self.decls.last().is_some_and(|d| d.0 >= depth) {
            self.decls.pop();
        }
    }
}

/// Decode text content: line ends normalised, references resolved.
pub(crate) fn decode_text<'t>(
    raw: &'t str,
    offset: usize,
    what: &str,
) -> Result<Cow<'t, str>, ReadError> {
    let normalised: Cow<str> = if raw.contains('\r') {
        Cow::Owned(raw.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(raw)
    };
    match unescape(&normalised) {
        Ok(Cow::Borrowed(_)) => Ok(normalised),
        Ok(Cow::Owned(s)) => Ok(Cow::Owned(s)),
        Err(e) => Err(entity_error(e, offset, what)),
    }
}

/// The input's own text behind a slice quick-xml handed out. quick-xml
/// reads from the `&str`, so its slices point into it and no second UTF-8
/// validation is needed: two live allocations never overlap, so a slice whose
/// address range lies inside `text` is part of it, and `get` re-checks that
/// both ends fall on character boundaries. `None` for a slice from
/// elsewhere (one quick-xml had to copy).
pub(crate) fn source_str<'t>(text: &'t str, bytes: &[u8]) -> Option<&'t str> {
    let start = (bytes.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    text.get(start..start.checked_add(bytes.len())?)
}

/// Bytes from the reader as text: borrowed from the input when they are
/// part of it, else validated and copied.
pub(crate) fn text_of<'t>(
    text: &'t str,
    bytes: &[u8],
    offset: usize,
) -> Result<Cow<'t, str>, ReadError> {
    match source_str(text, bytes) {
        Some(s) => Ok(Cow::Borrowed(s)),
        None => std::str::from_utf8(bytes)
            .map(|s| Cow::Owned(s.to_owned()))
            .map_err(|_| ReadError::syntax(offset, "text is not UTF-8")),
    }
}

/// Decode an attribute value: literal whitespace becomes a space (XML
/// attribute-value normalisation), then references are resolved. Borrowed
/// from the input when neither changes anything, as for nearly every value.
fn decode_attr<'t>(text: &'t str, raw: &[u8], offset: usize) -> Result<Cow<'t, str>, ReadError> {
    let raw = text_of(text, raw, offset)?;
    let raw = if memchr::memchr3(b'\t', b'\n', b'\r', raw.as_bytes()).is_some() {
        Cow::Owned(raw.replace("\r\n", " ").replace(['\t', '\n', '\r'], " "))
    } else {
        raw
    };
    if memchr::memchr(b'&', raw.as_bytes()).is_none() {
        return Ok(raw);
    }
    unescape(&raw)
        .map(|v| Cow::Owned(v.into_owned()))
        .map_err(|e| entity_error(e, offset, "an attribute value"))
}

fn entity_error(e: EscapeError, offset: usize, what: &str) -> ReadError {
    match e {
        EscapeError::UnrecognizedEntity(_, name) => ReadError {
            kind: ErrorKind::Unsafe,
            offset,
            tokenizer: false,
            message: format!(
                "entity &{name}; in {what} is not one of XML's five: markport never expands \
                 custom or external entities (a defence against entity-expansion and XXE attacks)"
            ),
        },
        other => ReadError::syntax(offset, format!("bad reference in {what}: {other}")),
    }
}

/// An error with a byte offset, located at the end.
#[derive(Debug)]
pub(crate) struct ReadError {
    pub(crate) kind: ErrorKind,
    pub(crate) offset: usize,
    pub(crate) message: String,
    /// quick-xml itself could not read on: nothing after it can be read,
    /// or checked.
    pub(crate) tokenizer: bool,
}

impl ReadError {
    pub(crate) fn syntax(offset: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            kind: ErrorKind::Syntax,
            offset,
            message: message.into(),
            tokenizer: false,
        }
    }

    /// quick-xml's error `e`, at `offset`.
    pub(crate) fn xml(offset: usize, e: impl std::fmt::Display) -> ReadError {
        ReadError {
            tokenizer: true,
            ..ReadError::syntax(offset, format!("not well-formed XML: {e}"))
        }
    }

    pub(crate) fn wrong_format(offset: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            kind: ErrorKind::WrongFormat,
            offset,
            message: message.into(),
            tokenizer: false,
        }
    }
}

/// An attribute as (qualified name, decoded value), borrowed from the
/// input where it can be.
pub(crate) type Attr<'t> = (Cow<'t, str>, Cow<'t, str>);

/// An element's attributes in source order; a repeated name is an error,
/// as XML requires.
///
/// quick-xml's own check (`with_checks`) compares each name with every
/// earlier one, quadratic in a tag of many attributes; a set keeps it linear.
pub(crate) fn attributes<'t>(
    text: &'t str,
    e: &BytesStart<'_>,
    offset: usize,
) -> Result<Vec<Attr<'t>>, ReadError> {
    let mut list = Vec::new();
    attributes_into(&mut list, text, e, offset)?;
    Ok(list)
}

/// [`attributes`] into `list` (emptied first), so a caller that reads
/// element after element can keep one allocation for all of them.
pub(crate) fn attributes_into<'t>(
    list: &mut Vec<Attr<'t>>,
    text: &'t str,
    e: &BytesStart<'_>,
    offset: usize,
) -> Result<(), ReadError> {
    list.clear();
    let mut names: HashSet<Cow<'t, str>> = HashSet::new();
    for a in e.attributes().with_checks(false) {
        let a = a.map_err(|err| ReadError::syntax(offset, format!("bad attribute: {err}")))?;
        let name = text_of(text, a.key.as_ref(), offset)?;
        // A few attributes are the rule: comparing them costs less than hashing.
        let repeated = if list.len() < 16 {
            list.iter().any(|(n, _)| *n == name)
        } else {
            if names.is_empty() {
                names.extend(list.iter().map(|(n, _)| n.clone()));
            }
            !names.insert(name.clone())
        };
        if repeated {
            return Err(ReadError::syntax(
                offset,
                format!("bad attribute: {name} is given twice (XML allows an attribute once)"),
            ));
        }
        let value = decode_attr(text, &a.value, offset)?;
        list.push((name, value));
    }
    Ok(())
}
