//! What the two `<metadata>` blocks markport interprets have in common:
//! whose block it is, its elements flattened for reading, and a writer
//! that leaves an empty block out. The blocks themselves are in
//! [`crate::freedesktop`] and [`crate::markport_block`], each with its read
//! and write halves so its element names are written in one place.

use quick_xml::events::Event;
use quick_xml::Reader;

use markport_markup::xml::{Indent, XmlWriter};
use markport_model::{Attribute, DateValue, NodeId};

use std::borrow::Cow;

use crate::check::Checker;
use crate::syntax::{attributes, decode_text, text_of, Attr, ReadError, Scope};

/// Whose title, desc or info an element is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Owner {
    Document,
    Node(NodeId),
}

/// Warnings a block's reader gives: (byte offset, message).
pub(crate) type Warnings = Vec<(usize, String)>;

/// One element of a block: resolved namespace, local name, attributes, text.
/// Names and attribute values borrow from the file where they can: a file
/// of 100,000 bookmarks holds as many blocks.
pub(crate) struct Element<'a> {
    pub(crate) ns: Option<Cow<'a, str>>,
    pub(crate) local: Cow<'a, str>,
    attrs: Vec<Attr<'a>>,
    /// Borrowed from the file when it is one run of text without references.
    pub(crate) text: Cow<'a, str>,
    pub(crate) offset: usize,
    /// The enclosing element's local name, when nested (group in groups).
    pub(crate) parent: Option<Cow<'a, str>>,
    /// The enclosing element's index among the block's elements.
    up: Option<usize>,
}

/// Flatten a block into its elements, in document order, reading `reader`
/// from just after the block's start tag through its end tag: the block is
/// read in the same pass as the rest of the file. `Ok(None)`: the file
/// ended inside the block. Blocks are shallow by design (at most two
/// levels), so deeper content is only walked, not kept.
///
/// With `checker`, each event goes to it first, as the reader's own do.
pub(crate) fn elements<'t: 'a, 's: 'a, 'a>(
    reader: &mut Reader<&'t [u8]>,
    inner: &'t str,
    scope: &'s Scope<'t>,
    mut checker: Option<&mut Checker<'t>>,
) -> Result<Option<Vec<Element<'a>>>, ReadError> {
    let mut out: Vec<Element<'a>> = Vec::new();
    // The innermost open element (its index in `out`) and how many are
    // open; each element knows the one around it, so the open ones need no
    // stack of their own (one allocation less per block).
    let mut current: Option<usize> = None;
    let mut open = 0usize;
    // Namespaces the block itself declares: (depth, prefix, URI).
    let mut local_scope: Vec<(usize, Cow<'a, str>, Cow<'a, str>)> = Vec::new();
    loop {
        let offset = reader.buffer_position() as usize;
        let event = reader
            .read_event()
            .map_err(|e| ReadError::xml(reader.error_position() as usize, e))?;
        if let Some(c) = checker.as_deref_mut() {
            c.event(&event, offset);
        }
        let (e, empty) = match event {
            Event::Eof => return Ok(None),
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(_) if open == 0 => return Ok(Some(out)),
            Event::End(_) => {
                current = current.and_then(|i| out[i].up);
                open -= 1;
                local_scope.retain(|d| d.0 <= open);
                continue;
            }
            Event::Text(t) => {
                if let Some(i) = current {
                    let text = match text_of(inner, &t, offset)? {
                        Cow::Borrowed(raw) => decode_text(raw, offset, "metadata")?,
                        Cow::Owned(raw) => {
                            Cow::Owned(decode_text(&raw, offset, "metadata")?.into_owned())
                        }
                    };
                    append(&mut out[i].text, text);
                }
                continue;
            }
            Event::CData(t) => {
                if let Some(i) = current {
                    append(&mut out[i].text, text_of(inner, &t, offset)?);
                }
                continue;
            }
            _ => continue,
        };
        let qname = text_of(inner, e.name().as_ref(), offset)?;
        let mut attrs = attributes(inner, &e, offset)?;
        let depth = open + 1;
        attrs.retain(|(n, v)| {
            if n == "xmlns" {
                local_scope.push((depth, Cow::Borrowed(""), v.clone()));
                false
            } else if let Some(p) = n.strip_prefix("xmlns:") {
                local_scope.push((depth, Cow::Owned(p.to_owned()), v.clone()));
                false
            } else {
                true
            }
        });
        let (prefix, local): (Cow<'a, str>, Cow<'a, str>) = match qname {
            Cow::Borrowed(q) => match q.split_once(':') {
                Some((p, l)) => (Cow::Borrowed(p), Cow::Borrowed(l)),
                None => (Cow::Borrowed(""), Cow::Borrowed(q)),
            },
            Cow::Owned(q) => match q.split_once(':') {
                Some((p, l)) => (Cow::Owned(p.to_owned()), Cow::Owned(l.to_owned())),
                None => (Cow::Borrowed(""), Cow::Owned(q)),
            },
        };
        let ns = scope_prefix(&local_scope, scope, &prefix);
        out.push(Element {
            ns,
            local,
            attrs,
            text: Cow::Borrowed(""),
            offset,
            parent: current.map(|i| out[i].local.clone()),
            up: current,
        });
        if !empty {
            current = Some(out.len() - 1);
            open += 1;
        }
    }
}

/// Add `piece` to an element's text, which stays borrowed while it is one piece.
fn append<'a>(text: &mut Cow<'a, str>, piece: Cow<'a, str>) {
    if text.is_empty() {
        *text = piece;
    } else {
        text.to_mut().push_str(&piece);
    }
}

/// The namespace a prefix stands for: the block's own declarations first,
/// innermost winning, then those in scope around the block.
fn scope_prefix<'a>(
    local_scope: &[(usize, Cow<'a, str>, Cow<'a, str>)],
    scope: &'a Scope<'_>,
    prefix: &str,
) -> Option<Cow<'a, str>> {
    local_scope
        .iter()
        .rev()
        .find(|d| d.1 == prefix)
        .map(|d| d.2.clone())
        .or_else(|| scope.resolve(prefix).map(Cow::Borrowed))
}

impl Element<'_> {
    pub(crate) fn attr(&self, name: &str) -> Option<String> {
        self.attrs
            .iter()
            .find(|a| a.0 == name)
            .map(|a| a.1.to_string())
    }

    /// Whether this element is `local` in namespace `ns`; an unprefixed
    /// element with no default namespace matches by local name (GLib's leniency).
    pub(crate) fn is(&self, ns: &str, local: &str) -> bool {
        self.local == local && self.ns.as_deref().is_none_or(|n| n == ns)
    }
}

/// Builds a block's text; nothing is written when it stays empty.
pub(crate) struct BlockWriter {
    /// The indentation of the `<info>` element holding the block.
    pad: Indent,
    body: XmlWriter,
}

impl BlockWriter {
    pub(crate) fn new(pad: Indent) -> BlockWriter {
        BlockWriter {
            pad,
            body: XmlWriter::new(),
        }
    }

    /// One element of the block, two levels inside `<info>`, or three when `nested`.
    pub(crate) fn element(
        &mut self,
        name: &str,
        attrs: &[(&str, &str)],
        text: Option<&str>,
        nested: bool,
    ) {
        let at = self.pad.deeper(if nested { 3 } else { 2 });
        match text {
            Some(t) => self.body.text_element(at, name, attrs, t),
            None => self.body.empty_element(at, name, attrs),
        }
    }

    /// Empty it, for the next node's block at `pad`.
    pub(crate) fn reset(&mut self, pad: Indent) {
        self.pad = pad;
        self.body.clear();
    }

    /// `<mp:NAME>text</mp:NAME>`.
    pub(crate) fn mp(&mut self, name: &str, text: &str) {
        self.body.open(self.pad.deeper(2), "mp:");
        self.body.raw(name);
        self.body.raw(">");
        self.body.text(text);
        self.body.raw("</mp:");
        self.body.raw(name);
        self.body.raw(">\n");
    }

    pub(crate) fn attrs(&mut self, extra: &[Attribute]) {
        self.named("attr", extra);
    }

    /// Name/value pairs as `<mp:ELEMENT name="…">value</mp:ELEMENT>`, in order.
    pub(crate) fn named(&mut self, element: &str, pairs: &[Attribute]) {
        if pairs.is_empty() {
            return;
        }
        let tag = format!("mp:{element}");
        for a in pairs {
            self.element(&tag, &[("name", &a.name)], Some(&a.value), false);
        }
    }

    /// An element of the block holding nested ones, written by `inner`.
    pub(crate) fn parent(&mut self, name: &str, inner: impl FnOnce(&mut BlockWriter)) {
        self.body.start_tag(self.pad.deeper(2), name);
        inner(self);
        self.body.end_tag(self.pad.deeper(2), name);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// See [`XmlWriter::take_dropped`].
    pub(crate) fn take_dropped(&mut self) -> bool {
        self.body.take_dropped()
    }

    /// Append `<metadata owner=...>`, declaring `namespaces`, with the collected body.
    pub(crate) fn finish(&self, out: &mut XmlWriter, owner: &str, namespaces: &[(&str, &str)]) {
        if self.body.is_empty() {
            return;
        }
        out.open(self.pad.deeper(1), "metadata");
        out.attr("owner", owner);
        for (name, uri) in namespaces {
            out.attr(name, uri);
        }
        out.end_start_tag();
        out.raw(self.body.as_str());
        out.end_tag(self.pad.deeper(1), "metadata");
    }
}

/// A date as written in a block: W3C form, or as it was read.
pub(crate) fn date_text(d: &DateValue) -> String {
    match d {
        DateValue::Instant(t) => t.to_w3c(),
        DateValue::Raw(r) => r.to_string(),
    }
}
