//! The XBEL reader: one pass over quick-xml events with an explicit element
//! stack, so nesting depth costs heap, never call stack.

use std::borrow::Cow;
use std::collections::HashSet;

use quick_xml::escape::{unescape, EscapeError};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use markport_model::{
    Alias, Attribute, Bookmark, DateValue, Diagnostic, Document, Error, ErrorKind, Folder,
    LineIndex, Metadata, Node, NodeId, Parsed, Role, Separator,
};

use crate::blocks::{self, BlockOwner};
use crate::{FREEDESKTOP_OWNER, MARKPORT_OWNER};

/// Whose title, desc or info an element is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Owner {
    Document,
    Node(NodeId),
}

#[derive(Debug)]
enum Ctx {
    Xbel,
    Folder(NodeId),
    Bookmark(NodeId),
    Separator(NodeId),
    Alias(NodeId),
    Title(Owner),
    Desc(Owner),
    Info(Owner),
    /// An element markport does not know, with everything inside it.
    Skip,
}

/// Namespace declarations seen so far: (element depth, prefix, URI).
#[derive(Default)]
pub(crate) struct Scope {
    decls: Vec<(usize, String, String)>,
}

impl Scope {
    pub(crate) fn resolve(&self, prefix: &str) -> Option<&str> {
        self.decls
            .iter()
            .rev()
            .find(|d| d.1 == prefix)
            .map(|d| d.2.as_str())
    }

    /// Every declaration in scope, innermost winning, sorted by prefix.
    pub(crate) fn visible(&self) -> Vec<(String, String)> {
        // A set: an element may declare any number of prefixes.
        let mut prefixes: HashSet<&str> = HashSet::new();
        let mut seen: Vec<(String, String)> = Vec::new();
        for (_, p, u) in self.decls.iter().rev() {
            if prefixes.insert(p) {
                seen.push((p.clone(), u.clone()));
            }
        }
        seen.sort();
        seen
    }

    fn push(&mut self, depth: usize, prefix: &str, uri: String) {
        self.decls.push((depth, prefix.to_owned(), uri));
    }

    fn pop_to(&mut self, depth: usize) {
        while self.decls.last().is_some_and(|d| d.0 >= depth) {
            self.decls.pop();
        }
    }
}

pub(crate) struct State<'a> {
    pub(crate) lines: LineIndex<'a>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) doc: Document,
}

impl State<'_> {
    pub(crate) fn warn(&mut self, offset: usize, message: impl Into<String>) {
        let loc = self.lines.locate(offset);
        self.diagnostics
            .push(Diagnostic::warning(message, Some(loc)));
    }

    pub(crate) fn note(&mut self, offset: usize, message: impl Into<String>) {
        let loc = self.lines.locate(offset);
        self.diagnostics.push(Diagnostic::note(message, Some(loc)));
    }

    pub(crate) fn date(&mut self, offset: usize, what: &str, text: &str) -> DateValue {
        let v = DateValue::from_w3c(text);
        if matches!(v, DateValue::Raw(_)) {
            self.warn(
                offset,
                format!("{what} {text:?} is not a W3C date/time; kept as written"),
            );
        }
        v
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

/// Decode an attribute value: literal whitespace becomes a space (XML
/// attribute-value normalisation), then references are resolved.
pub(crate) fn decode_attr(raw: &[u8], offset: usize) -> Result<String, ReadError> {
    let raw = std::str::from_utf8(raw)
        .map_err(|_| ReadError::syntax(offset, "attribute value is not UTF-8"))?;
    let normalised: Cow<str> = if raw.contains(['\t', '\n', '\r']) {
        Cow::Owned(raw.replace("\r\n", " ").replace(['\t', '\n', '\r'], " "))
    } else {
        Cow::Borrowed(raw)
    };
    unescape(&normalised)
        .map(Cow::into_owned)
        .map_err(|e| entity_error(e, offset, "an attribute value"))
}

fn entity_error(e: EscapeError, offset: usize, what: &str) -> ReadError {
    match e {
        EscapeError::UnrecognizedEntity(_, name) => ReadError {
            kind: ErrorKind::Unsafe,
            offset,
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
    kind: ErrorKind,
    offset: usize,
    message: String,
}

impl ReadError {
    pub(crate) fn syntax(offset: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            kind: ErrorKind::Syntax,
            offset,
            message: message.into(),
        }
    }

    fn wrong_format(offset: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            kind: ErrorKind::WrongFormat,
            offset,
            message: message.into(),
        }
    }
}

/// An element's attributes as (qualified name, decoded value), in source
/// order; a repeated name is an error, as XML requires.
///
/// quick-xml's own check (`with_checks`) compares each name with every
/// earlier one, quadratic in a tag of many attributes; a set keeps it linear.
pub(crate) fn attributes(
    e: &BytesStart<'_>,
    offset: usize,
) -> Result<Vec<(String, String)>, ReadError> {
    let mut list: Vec<(String, String)> = Vec::new();
    let mut names: HashSet<String> = HashSet::new();
    for a in e.attributes().with_checks(false) {
        let a = a.map_err(|err| ReadError::syntax(offset, format!("bad attribute: {err}")))?;
        let name = String::from_utf8_lossy(a.key.as_ref()).into_owned();
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
        let value = decode_attr(&a.value, offset)?;
        list.push((name, value));
    }
    Ok(list)
}

struct Attrs {
    /// (qualified name, decoded value), in source order.
    list: Vec<(String, String)>,
}

impl Attrs {
    fn parse(e: &BytesStart<'_>, offset: usize) -> Result<Attrs, ReadError> {
        Ok(Attrs {
            list: attributes(e, offset)?,
        })
    }

    fn take(&mut self, name: &str) -> Option<String> {
        let i = self.list.iter().position(|(n, _)| n == name)?;
        Some(self.list.remove(i).1)
    }

    /// Declare this element's namespaces, and take their attributes out.
    fn declare(&mut self, scope: &mut Scope, depth: usize) {
        self.list.retain(|(name, value)| {
            if name == "xmlns" {
                scope.push(depth, "", value.clone());
                false
            } else if let Some(p) = name.strip_prefix("xmlns:") {
                scope.push(depth, p, value.clone());
                false
            } else {
                true
            }
        });
    }

    fn into_extra(self) -> Vec<Attribute> {
        self.list
            .into_iter()
            .map(|(n, v)| Attribute::new(n, v))
            .collect()
    }
}

fn yes_no(state: &mut State<'_>, offset: usize, attr: &str, v: &str) -> Option<bool> {
    match v {
        "yes" => Some(true),
        "no" => Some(false),
        other => {
            state.warn(
                offset,
                format!("{attr}={other:?} is neither yes nor no; ignored"),
            );
            None
        }
    }
}

/// Turn the input into UTF-8 text: strip a BOM, honour UTF-16 and a declared
/// non-UTF-8 encoding.
fn decode_input(input: &[u8]) -> Result<Cow<'_, str>, Error> {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(input) {
        if enc == encoding_rs::UTF_8 {
            return utf8(&input[bom..]);
        }
        let (text, _, _) = enc.decode(input);
        return Ok(text);
    }
    let head = &input[..input.len().min(200)];
    if head.starts_with(b"<?xml") {
        let end = head.iter().position(|&c| c == b'>').unwrap_or(head.len());
        let decl = String::from_utf8_lossy(&head[..end]).to_ascii_lowercase();
        if let Some(i) = decl.find("encoding") {
            let rest = &decl[i + 8..];
            let label: String = rest
                .trim_start_matches([' ', '='])
                .trim_start_matches(['"', '\''])
                .chars()
                .take_while(|c| !matches!(c, '"' | '\''))
                .collect();
            if let Some(enc) = encoding_rs::Encoding::for_label(label.as_bytes()) {
                if enc != encoding_rs::UTF_8 {
                    let (text, _) = enc.decode_without_bom_handling(input);
                    return Ok(text);
                }
            }
        }
    }
    utf8(input)
}

fn utf8(input: &[u8]) -> Result<Cow<'_, str>, Error> {
    std::str::from_utf8(input).map(Cow::Borrowed).map_err(|e| {
        let loc = LineIndex::new(input).locate(e.valid_up_to());
        Error::syntax(
            "the file is not valid UTF-8 and declares no other encoding",
            loc,
        )
    })
}

/// Read an XBEL document.
pub fn read(input: &[u8]) -> Result<Parsed, Error> {
    let text = decode_input(input)?;
    let mut state = State {
        lines: LineIndex::new(text.as_bytes()),
        diagnostics: Vec::new(),
        doc: Document::new(),
    };
    match parse(&text, &mut state) {
        Ok(()) => {}
        Err(e) => {
            let loc = state.lines.locate(e.offset);
            return Err(Error::new(e.kind, e.message, Some(loc)));
        }
    }
    check_aliases(&mut state);
    Ok(Parsed::new(state.doc, state.diagnostics))
}

fn check_aliases(state: &mut State<'_>) {
    let ids: std::collections::HashSet<&str> = state
        .doc
        .ids()
        .filter_map(|n| state.doc.node(n).id())
        .collect();
    let dangling: Vec<(NodeId, String)> = state
        .doc
        .ids()
        .filter_map(|n| match state.doc.node(n) {
            Node::Alias(a) if !ids.contains(a.target.as_str()) => Some((n, a.target.clone())),
            _ => None,
        })
        .collect();
    for (n, target) in dangling {
        let path = state.doc.path(n);
        state.diagnostics.push(Diagnostic::warning(
            format!("alias {path} refers to id {target:?}, which no bookmark or folder has"),
            None,
        ));
    }
}

fn parse(text: &str, state: &mut State<'_>) -> Result<(), ReadError> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Ctx> = Vec::new();
    let mut scope = Scope::default();
    let mut buf = String::new();
    let mut seen_root = false;
    let mut entities_declared = false;
    // Open element names and where they start, for truncation errors.
    let mut open_tags: Vec<(String, usize)> = Vec::new();
    loop {
        let offset = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            let at = reader.error_position() as usize;
            ReadError::syntax(at, format!("not well-formed XML: {e}"))
        })?;
        match event {
            Event::Eof => {
                if let Some((name, at)) = open_tags.last() {
                    let loc = state.lines.locate(*at);
                    return Err(ReadError::syntax(
                        text.len(),
                        format!("the file ends inside <{name}> (opened at {loc}): it is truncated"),
                    ));
                }
                break;
            }
            Event::Comment(c) if stack.len() <= 1 && state.doc.is_empty() => {
                // The file's own comments (Floccus keeps its sync state in
                // one): before the root or first in it, before any node.
                let raw = String::from_utf8_lossy(&c);
                state
                    .doc
                    .header
                    .comments
                    .push(raw.replace("\r\n", "\n").replace('\r', "\n"));
            }
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
            Event::DocType(d) => {
                let d = String::from_utf8_lossy(&d);
                entities_declared = d.contains("<!ENTITY");
                if entities_declared {
                    state.warn(
                        offset,
                        "the DOCTYPE declares entities; markport never expands them",
                    );
                }
            }
            Event::Text(t) => {
                let raw = std::str::from_utf8(&t).unwrap_or_default();
                match stack.last() {
                    Some(Ctx::Title(_) | Ctx::Desc(_)) => {
                        buf.push_str(&decode_text(raw, offset, "text")?);
                    }
                    _ if raw.trim().is_empty() => {}
                    Some(Ctx::Skip) => {}
                    _ => {
                        let shown: String = raw.trim().chars().take(30).collect();
                        state.warn(
                            offset,
                            format!("text {shown:?} outside any title or desc; ignored"),
                        );
                    }
                }
            }
            Event::CData(t) => {
                if let Some(Ctx::Title(_) | Ctx::Desc(_)) = stack.last() {
                    buf.push_str(&String::from_utf8_lossy(&t));
                } else if !t.iter().all(u8::is_ascii_whitespace) {
                    state.warn(offset, "CDATA outside any title or desc; ignored");
                }
            }
            Event::Start(_) | Event::Empty(_) => {
                let (e, empty) = match event {
                    Event::Start(e) => (e, false),
                    Event::Empty(e) => (e, true),
                    _ => unreachable!("matched above"),
                };
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                let mut attrs = Attrs::parse(&e, offset)?;
                attrs.declare(&mut scope, stack.len());
                if !seen_root {
                    if name != "xbel" {
                        return Err(ReadError::wrong_format(
                            offset,
                            format!("the root element is <{name}>, not <xbel>: this is not an XBEL file"),
                        ));
                    }
                    seen_root = true;
                }
                if name == "metadata" {
                    if let Some(Ctx::Info(owner)) = stack.last() {
                        let owner = *owner;
                        let owner_uri = attrs.take("owner").unwrap_or_default();
                        let inner = if empty {
                            ""
                        } else {
                            let span = reader.read_to_end(e.name()).map_err(|err| {
                                ReadError::syntax(
                                    reader.error_position() as usize,
                                    format!("not well-formed XML: {err}"),
                                )
                            })?;
                            &text[span.start as usize..span.end as usize]
                        };
                        let inner_offset = offset + (e.len() + 2).min(text.len() - offset);
                        read_metadata(state, &scope, owner, owner_uri, attrs, inner, inner_offset)?;
                        scope.pop_to(stack.len());
                        continue;
                    }
                }
                let ctx = open(state, &stack, &name, attrs, offset, entities_declared)?;
                if let Ctx::Title(_) | Ctx::Desc(_) = ctx {
                    buf.clear();
                }
                stack.push(ctx);
                if !empty {
                    open_tags.push((name, offset));
                }
                if empty {
                    close(state, &mut stack, &mut buf);
                    scope.pop_to(stack.len());
                }
            }
            Event::End(_) => {
                open_tags.pop();
                close(state, &mut stack, &mut buf);
                scope.pop_to(stack.len());
            }
        }
    }
    if !seen_root {
        return Err(ReadError::wrong_format(
            0,
            "no <xbel> element: this is not an XBEL file",
        ));
    }
    Ok(())
}

fn close(state: &mut State<'_>, stack: &mut Vec<Ctx>, buf: &mut String) {
    match stack.pop() {
        Some(Ctx::Title(owner)) => {
            let t = std::mem::take(buf);
            match owner {
                Owner::Document => state.doc.header.title = Some(t),
                Owner::Node(id) => match state.doc.node_mut(id) {
                    Node::Bookmark(b) => b.title = Some(t),
                    Node::Folder(f) => f.title = Some(t),
                    Node::Separator(s) => s.title = Some(t),
                    _ => {}
                },
            }
        }
        Some(Ctx::Desc(owner)) => {
            let t = std::mem::take(buf);
            match owner {
                Owner::Document => state.doc.header.desc = Some(t),
                Owner::Node(id) => match state.doc.node_mut(id) {
                    Node::Bookmark(b) => b.desc = Some(t),
                    Node::Folder(f) => f.desc = Some(t),
                    _ => {}
                },
            }
        }
        _ => {}
    }
}

fn container(stack: &[Ctx]) -> Option<Option<NodeId>> {
    match stack.last()? {
        Ctx::Xbel => Some(None),
        Ctx::Folder(id) => Some(Some(*id)),
        _ => None,
    }
}

fn open(
    state: &mut State<'_>,
    stack: &[Ctx],
    name: &str,
    mut attrs: Attrs,
    offset: usize,
    _entities: bool,
) -> Result<Ctx, ReadError> {
    let parent_ctx = stack.last();
    if matches!(parent_ctx, Some(Ctx::Skip)) {
        return Ok(Ctx::Skip);
    }
    let owner = match parent_ctx {
        None => None,
        Some(Ctx::Xbel) => Some(Owner::Document),
        Some(Ctx::Folder(id) | Ctx::Bookmark(id) | Ctx::Separator(id) | Ctx::Alias(id)) => {
            Some(Owner::Node(*id))
        }
        _ => None,
    };
    let ctx = match (name, parent_ctx) {
        ("xbel", None) => {
            if let Some(v) = attrs.take("version") {
                if v != "1.0" && v != "1.1" {
                    state.note(offset, format!("XBEL version {v:?}; read as 1.0"));
                }
            }
            state.doc.header.id = attrs.take("id");
            if let Some(a) = attrs.take("added") {
                state.doc.header.added = Some(state.date(offset, "added", &a));
            }
            state.doc.header.extra = attrs.into_extra();
            Ctx::Xbel
        }
        ("title", Some(Ctx::Xbel | Ctx::Folder(_) | Ctx::Bookmark(_) | Ctx::Separator(_))) => {
            Ctx::Title(owner.expect("checked"))
        }
        ("desc", Some(Ctx::Xbel | Ctx::Folder(_) | Ctx::Bookmark(_))) => {
            Ctx::Desc(owner.expect("checked"))
        }
        ("info", _) if owner.is_some() => Ctx::Info(owner.expect("checked")),
        ("folder", _) if container(stack).is_some() => {
            let mut f = Folder::new();
            f.id = attrs.take("id");
            if let Some(a) = attrs.take("added") {
                f.added = Some(state.date(offset, "added", &a));
            }
            if let Some(v) = attrs.take("folded") {
                f.folded = yes_no(state, offset, "folded", &v);
            }
            f.icon = attrs.take("icon");
            if let Some(v) = attrs.take("toolbar") {
                if yes_no(state, offset, "toolbar", &v) == Some(true) {
                    f.role = Some(Role::Toolbar);
                }
            }
            f.extra = attrs.into_extra();
            Ctx::Folder(state.doc.push(container(stack).expect("checked"), f))
        }
        ("bookmark", _) if container(stack).is_some() => {
            let href = attrs.take("href").unwrap_or_else(|| {
                state.warn(offset, "<bookmark> without href; read with an empty href");
                String::new()
            });
            let mut b = Bookmark::new(href);
            if let Some(id) = attrs.take("id") {
                b.details_mut().id = Some(id);
            }
            if let Some(icon) = attrs.take("icon") {
                b.details_mut().icon = Some(icon);
            }
            if let Some(a) = attrs.take("added") {
                b.added = Some(state.date(offset, "added", &a));
            }
            if let Some(a) = attrs.take("modified") {
                b.modified = Some(state.date(offset, "modified", &a));
            }
            if let Some(a) = attrs.take("visited") {
                b.details_mut().visited = Some(state.date(offset, "visited", &a));
            }
            let extra = attrs.into_extra();
            if !extra.is_empty() {
                b.details_mut().extra = extra;
            }
            Ctx::Bookmark(state.doc.push(container(stack).expect("checked"), b))
        }
        ("separator", _) if container(stack).is_some() => {
            let mut s = Separator::new();
            s.extra = attrs.into_extra();
            Ctx::Separator(state.doc.push(container(stack).expect("checked"), s))
        }
        ("alias", _) if container(stack).is_some() => {
            let target = attrs.take("ref").unwrap_or_else(|| {
                state.warn(offset, "<alias> without ref; read with an empty ref");
                String::new()
            });
            let mut a = Alias::new(target);
            a.extra = attrs.into_extra();
            Ctx::Alias(state.doc.push(container(stack).expect("checked"), a))
        }
        (other, _) => {
            let inside = match parent_ctx {
                Some(Ctx::Xbel) => "xbel",
                Some(Ctx::Folder(_)) => "folder",
                Some(Ctx::Bookmark(_)) => "bookmark",
                Some(Ctx::Separator(_)) => "separator",
                Some(Ctx::Alias(_)) => "alias",
                Some(Ctx::Title(_)) => "title",
                Some(Ctx::Desc(_)) => "desc",
                Some(Ctx::Info(_)) => "info",
                Some(Ctx::Skip) | None => "the document",
            };
            if parent_ctx.is_none() {
                return Err(ReadError::syntax(
                    offset,
                    format!("a second root element <{other}>"),
                ));
            }
            state.warn(
                offset,
                format!("<{other}> is not allowed inside <{inside}>; skipped with its content"),
            );
            Ctx::Skip
        }
    };
    Ok(ctx)
}

fn read_metadata(
    state: &mut State<'_>,
    scope: &Scope,
    owner: Owner,
    owner_uri: String,
    attrs: Attrs,
    inner: &str,
    inner_offset: usize,
) -> Result<(), ReadError> {
    let kind = match (owner_uri.as_str(), owner) {
        (MARKPORT_OWNER, _) => Some(BlockOwner::Markport),
        (FREEDESKTOP_OWNER, Owner::Node(id)) if state.doc.node(id).as_bookmark().is_some() => {
            Some(BlockOwner::Freedesktop)
        }
        _ => None,
    };
    if let Some(kind) = kind {
        return blocks::read_block(state, scope, owner, kind, inner, inner_offset);
    }
    if !attrs.list.is_empty() {
        state.warn(
            inner_offset,
            "attributes on <metadata> other than owner; ignored",
        );
    }
    let namespaces = scope
        .visible()
        .into_iter()
        .filter(|(p, _)| {
            if p.is_empty() {
                inner.contains('<')
            } else {
                inner.contains(&format!("{p}:"))
            }
        })
        .collect();
    let mut m = Metadata::new(owner_uri, inner);
    m.namespaces = namespaces;
    match owner {
        Owner::Document => state.doc.header.metadata.push(m),
        Owner::Node(id) => match state.doc.node_mut(id) {
            Node::Bookmark(b) => b.details_mut().metadata.push(m),
            Node::Folder(f) => f.metadata.push(m),
            Node::Separator(s) => s.metadata.push(m),
            Node::Alias(_) => state.warn(
                inner_offset,
                "an alias cannot hold foreign <metadata>; ignored",
            ),
            // Other kinds hold no such field.
            _ => {}
        },
    }
    Ok(())
}
