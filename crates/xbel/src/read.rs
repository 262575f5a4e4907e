//! The XBEL reader: one pass over quick-xml events with an explicit element
//! stack, so nesting depth costs heap, never call stack.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use markport_model::{
    Alias, Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Folder,
    LineIndex, Location, Metadata, Node, NodeId, Parsed, ReadOptions, Role, Separator,
};

use crate::block::{self, Owner};
use crate::check::{self, Checker};
use crate::encoding;
use crate::names::{FREEDESKTOP_OWNER, MARKPORT_OWNER};
use crate::syntax::{attributes_into, decode_text, text_of, Attr, ReadError, Scope};
use crate::{freedesktop, markport_block};

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

impl Ctx {
    /// The element this context was opened by, for messages.
    fn element(&self) -> &'static str {
        match self {
            Ctx::Xbel => "xbel",
            Ctx::Folder(_) => "folder",
            Ctx::Bookmark(_) => "bookmark",
            Ctx::Separator(_) => "separator",
            Ctx::Alias(_) => "alias",
            Ctx::Title(_) => "title",
            Ctx::Desc(_) => "desc",
            Ctx::Info(_) => "info",
            Ctx::Skip => "the document",
        }
    }
}

pub(crate) struct State<'a> {
    text: &'a str,
    /// Built on the first diagnostic: most files have none, and indexing
    /// every line of a big file costs as much as a tenth of reading it.
    lines: std::cell::OnceCell<LineIndex<'a>>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) doc: Document,
    /// What the document may take: `<separator/>` is twelve bytes and a
    /// node of a few hundred.
    budget: Budget,
}

impl<'a> State<'a> {
    fn new(text: &'a str, opts: &ReadOptions) -> State<'a> {
        State {
            text,
            lines: std::cell::OnceCell::new(),
            diagnostics: Vec::new(),
            doc: Document::new(),
            budget: Budget::new(opts, text.len()),
        }
    }

    pub(crate) fn locate(&self, offset: usize) -> Location {
        self.lines
            .get_or_init(|| LineIndex::new(self.text.as_bytes()))
            .locate(offset)
    }

    pub(crate) fn warn(&mut self, offset: usize, message: impl Into<String>) {
        let loc = self.locate(offset);
        self.diagnostics
            .push(Diagnostic::warning(message, Some(loc)));
    }

    pub(crate) fn note(&mut self, offset: usize, message: impl Into<String>) {
        let loc = self.locate(offset);
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

struct Attrs<'t> {
    /// (qualified name, decoded value), in source order.
    list: Vec<Attr<'t>>,
}

impl<'t> Attrs<'t> {
    /// The attributes of `e`, in `list` (a vector kept from the element
    /// before, see [`Attrs::recycle`]).
    fn parse(
        text: &'t str,
        e: &BytesStart<'_>,
        offset: usize,
        mut list: Vec<Attr<'t>>,
    ) -> Result<Attrs<'t>, ReadError> {
        attributes_into(&mut list, text, e, offset)?;
        Ok(Attrs { list })
    }

    /// The vector, emptied, for the next element's attributes.
    fn recycle(mut self) -> Vec<Attr<'t>> {
        self.list.clear();
        self.list
    }

    fn take(&mut self, name: &str) -> Option<Cow<'t, str>> {
        let i = self.list.iter().position(|(n, _)| n == name)?;
        Some(self.list.remove(i).1)
    }

    fn take_string(&mut self, name: &str) -> Option<String> {
        self.take(name).map(Cow::into_owned)
    }

    /// Declare this element's namespaces, and take their attributes out.
    fn declare(&mut self, scope: &mut Scope<'t>, depth: usize) {
        self.list.retain(|(name, value)| {
            if name == "xmlns" {
                scope.push(depth, Cow::Borrowed(""), value.clone());
                false
            } else if name.starts_with("xmlns:") {
                let prefix = match name {
                    Cow::Borrowed(n) => Cow::Borrowed(&n["xmlns:".len()..]),
                    Cow::Owned(n) => Cow::Owned(n["xmlns:".len()..].to_owned()),
                };
                scope.push(depth, prefix, value.clone());
                false
            } else {
                true
            }
        });
    }

    /// The attributes left, as a node's extra attributes.
    fn take_extra(&mut self) -> Vec<Attribute> {
        self.list
            .drain(..)
            .map(|(n, v)| Attribute::new(n.into_owned(), v.into_owned()))
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

/// Which of `markport check`'s rules a reading finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rules {
    /// None: reading only.
    None,
    /// XBEL's ([`crate::RULES`]).
    Xbel,
    /// XBEL's and the desktop-bookmark spec's ([`crate::DESKTOP_RULES`]).
    Desktop,
}

/// Read an XBEL document, finding `rules` as it goes.
pub fn read(input: &[u8], rules: Rules, opts: &ReadOptions) -> Result<Parsed, Error> {
    if rules != Rules::None {
        return read_checking(input, rules == Rules::Desktop, opts);
    }
    let text = encoding::decode(input)?;
    let mut state = State::new(&text, opts);
    let mut p = Parser::new(&text);
    match parse(&text, &mut state, &mut p) {
        Ok(()) => {}
        Err(e) => {
            let loc = state.locate(e.offset);
            return Err(Error::new(e.kind, e.message, Some(loc)));
        }
    }
    check_aliases(&mut state);
    Ok(Parsed::new(state.doc, state.diagnostics))
}

/// [`read`] with the rules of `markport check`: the bytes decoded however
/// they break their encoding (each breach a finding), then the one pass
/// over the events with a [`Checker`] fed each event first. A problem the
/// reader cannot read past ends the document it builds, not the checking,
/// which goes on to the end of the file or to the first error quick-xml
/// cannot read past (`xbel/not-well-formed`, with what was found before).
fn read_checking(input: &[u8], desktop: bool, opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut raw = check::Sink::new(input);
    let text = encoding::decode_checking(input, desktop, &mut raw);
    let mut state = State::new(&text, opts);
    let mut p = Parser::new(&text);
    p.checker = Some(Box::new(Checker::new(
        &text,
        desktop,
        opts.letter,
        raw.into_found(),
    )));
    let outcome = parse(&text, &mut state, &mut p);
    let checker = *p.checker.take().expect("set above");
    match outcome {
        Err(e) if e.kind == ErrorKind::Unsafe => {
            return Err(Error::new(e.kind, e.message, Some(state.locate(e.offset))))
        }
        Err(e) if e.tokenizer => return Err(checker.not_well_formed(e.offset, e.message)),
        // What the rules say of the file says more than why the reading
        // stopped: kept as a note, untagged.
        Err(e) => state.note(e.offset, format!("reading stopped: {}", e.message)),
        Ok(()) => check_aliases(&mut state),
    }
    let mut found = checker.finish()?;
    state.diagnostics.append(&mut found);
    Ok(Parsed::new(state.doc, state.diagnostics))
}

fn check_aliases(state: &mut State<'_>) {
    let doc = &state.doc;
    if !doc.ids().any(|n| matches!(doc.node(n), Node::Alias(_))) {
        return;
    }
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

/// Read the document's events into `state`. With a checker, each event
/// goes to it first, and a problem the reader cannot read past stops the
/// reading but not the events, which the checker takes to the end.
fn parse<'t>(text: &'t str, state: &mut State<'_>, p: &mut Parser<'t>) -> Result<(), ReadError> {
    let mut stopped = None;
    loop {
        let offset = p.reader.buffer_position() as usize;
        if let Err(e) = state.budget.keep_up(&state.doc, &state.diagnostics) {
            // Past the budget nothing more is read, or checked.
            return Err(ReadError {
                kind: e.kind,
                offset,
                message: e.message,
                tokenizer: true,
            });
        }
        let event = p
            .reader
            .read_event()
            .map_err(|e| ReadError::xml(p.reader.error_position() as usize, e))?;
        if let Some(checker) = p.checker.as_deref_mut() {
            checker.event(&event, offset);
            if stopped.is_some() {
                if let Event::Eof = event {
                    return stopped.map_or(Ok(()), Err);
                }
                continue;
            }
            match p.event(state, text, event, offset) {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                Err(e) if e.tokenizer => return Err(e),
                Err(e) => stopped = Some(e),
            }
            continue;
        }
        if p.event(state, text, event, offset)? {
            return Ok(());
        }
    }
}

impl<'t> Parser<'t> {
    /// One event: whether it was the end of the file.
    fn event(
        &mut self,
        state: &mut State<'_>,
        text: &'t str,
        event: Event<'t>,
        offset: usize,
    ) -> Result<bool, ReadError> {
        let p = self;
        match event {
            Event::Eof => return p.end(state).map(|()| true),
            Event::Comment(c) if p.stack.len() <= 1 && state.doc.is_empty() => {
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
                if String::from_utf8_lossy(&d).contains("<!ENTITY") {
                    state.warn(
                        offset,
                        "the DOCTYPE declares entities; markport never expands them",
                    );
                }
            }
            Event::Text(t) => {
                let raw = text_of(text, &t, offset)?;
                p.text(state, &raw, offset)?
            }
            Event::CData(t) => p.cdata(state, &t, offset),
            Event::Start(e) => p.start(state, &e, false, offset)?,
            Event::Empty(e) => p.start(state, &e, true, offset)?,
            Event::End(_) => {
                p.open_tags.pop();
                p.close(state);
            }
        }
        Ok(false)
    }
}

/// The reader's position in the document: the element stack, the
/// namespaces in scope, the text of the title or desc being read.
struct Parser<'t> {
    text: &'t str,
    reader: Reader<&'t [u8]>,
    stack: Vec<Ctx>,
    scope: Scope<'t>,
    buf: String,
    seen_root: bool,
    /// Open element names and where they start, for truncation errors.
    open_tags: Vec<(Cow<'t, str>, usize)>,
    /// The vector the next element's attributes are read into: one
    /// allocation for the whole file rather than one per element.
    attr_pool: Vec<Attr<'t>>,
    /// With [`ReadOptions::checking`](markport_model::ReadOptions::checking):
    /// the rules, fed every event before the reader reads it.
    checker: Option<Box<Checker<'t>>>,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Parser<'t> {
        let mut reader = Reader::from_str(text);
        reader.config_mut().check_end_names = true;
        Parser {
            text,
            reader,
            stack: Vec::new(),
            scope: Scope::default(),
            buf: String::new(),
            seen_root: false,
            open_tags: Vec::new(),
            attr_pool: Vec::new(),
            checker: None,
        }
    }

    /// The end of the input: an error when it comes inside an element or
    /// before any `<xbel>`.
    fn end(&self, state: &State<'_>) -> Result<(), ReadError> {
        if let Some((name, at)) = self.open_tags.last() {
            let loc = state.locate(*at);
            return Err(ReadError::syntax(
                self.text.len(),
                format!("the file ends inside <{name}> (opened at {loc}): it is truncated"),
            ));
        }
        if !self.seen_root {
            return Err(ReadError::wrong_format(
                0,
                "no <xbel> element: this is not an XBEL file",
            ));
        }
        Ok(())
    }

    /// Character data: a title's or desc's, or stray text to warn about.
    fn text(&mut self, state: &mut State<'_>, raw: &str, offset: usize) -> Result<(), ReadError> {
        match self.stack.last() {
            Some(Ctx::Title(_) | Ctx::Desc(_)) => {
                self.buf.push_str(&decode_text(raw, offset, "text")?);
            }
            // The indentation between elements, on every line of a file:
            // looked at as bytes before `trim` decodes characters.
            _ if raw
                .bytes()
                .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
                || raw.trim().is_empty() => {}
            Some(Ctx::Skip) => {}
            _ => {
                let shown: String = raw.trim().chars().take(30).collect();
                state.warn(
                    offset,
                    format!("text {shown:?} outside any title or desc; ignored"),
                );
            }
        }
        Ok(())
    }

    fn cdata(&mut self, state: &mut State<'_>, t: &[u8], offset: usize) {
        if let Some(Ctx::Title(_) | Ctx::Desc(_)) = self.stack.last() {
            self.buf.push_str(&String::from_utf8_lossy(t));
        } else if !t.iter().all(u8::is_ascii_whitespace) {
            state.warn(offset, "CDATA outside any title or desc; ignored");
        }
    }

    /// A start tag (or an empty element, which is closed at once).
    fn start(
        &mut self,
        state: &mut State<'_>,
        e: &BytesStart<'_>,
        empty: bool,
        offset: usize,
    ) -> Result<(), ReadError> {
        let name = text_of(self.text, e.name().as_ref(), offset)?;
        let pool = std::mem::take(&mut self.attr_pool);
        let mut attrs = Attrs::parse(self.text, e, offset, pool)?;
        let done = self.element(state, e, empty, offset, name, &mut attrs);
        self.attr_pool = attrs.recycle();
        done
    }

    /// [`Parser::start`] once the attributes are read.
    fn element(
        &mut self,
        state: &mut State<'_>,
        e: &BytesStart<'_>,
        empty: bool,
        offset: usize,
        name: Cow<'t, str>,
        attrs: &mut Attrs<'t>,
    ) -> Result<(), ReadError> {
        attrs.declare(&mut self.scope, self.stack.len());
        if !self.seen_root {
            if name != "xbel" {
                return Err(ReadError::wrong_format(
                    offset,
                    format!("the root element is <{name}>, not <xbel>: this is not an XBEL file"),
                ));
            }
            self.seen_root = true;
        }
        if name == "metadata" {
            if let Some(Ctx::Info(owner)) = self.stack.last() {
                let owner = *owner;
                return self.metadata(state, e, empty, offset, owner, attrs);
            }
        }
        let ctx = open(state, &self.stack, &name, attrs, offset)?;
        if let Ctx::Title(_) | Ctx::Desc(_) = ctx {
            self.buf.clear();
        }
        self.stack.push(ctx);
        if empty {
            self.close(state);
        } else {
            self.open_tags.push((name, offset));
        }
        Ok(())
    }

    /// A `<metadata>` block inside `<info>`: one markport interprets is read
    /// element by element as the parser goes on; any other is kept whole.
    fn metadata(
        &mut self,
        state: &mut State<'_>,
        e: &BytesStart<'_>,
        empty: bool,
        offset: usize,
        owner: Owner,
        attrs: &mut Attrs<'_>,
    ) -> Result<(), ReadError> {
        let owner_uri = attrs.take_string("owner").unwrap_or_default();
        let inner_offset = offset + (e.len() + 2).min(self.text.len() - offset);
        if let Some(read_block) = interpreted(state, &owner_uri, owner) {
            let elements = if empty {
                Vec::new()
            } else {
                let checker = self.checker.as_deref_mut();
                block::elements(&mut self.reader, self.text, &self.scope, checker)?.ok_or_else(
                    || {
                        ReadError::syntax(
                            self.text.len(),
                            format!(
                                "the file ends inside <metadata> (opened at {}): it is truncated",
                                state.locate(offset)
                            ),
                        )
                    },
                )?
            };
            let mut warnings = Vec::new();
            read_block(&mut state.doc, owner, elements, &mut warnings);
            for (at, w) in warnings {
                state.warn(at, w);
            }
        } else {
            let inner = if empty {
                ""
            } else {
                let span = match self.checker.as_deref_mut() {
                    Some(checker) => skip_to_end(&mut self.reader, checker)?,
                    None => self.reader.read_to_end(e.name()).map_err(|err| {
                        ReadError::xml(self.reader.error_position() as usize, err)
                    })?,
                };
                &self.text[span.start as usize..span.end as usize]
            };
            foreign_metadata(
                state,
                &self.scope,
                owner,
                owner_uri,
                attrs,
                inner,
                inner_offset,
            );
        }
        self.scope.pop_to(self.stack.len());
        Ok(())
    }

    /// An end tag: what was read inside goes to its owner.
    fn close(&mut self, state: &mut State<'_>) {
        close(state, &mut self.stack, &mut self.buf);
        self.scope.pop_to(self.stack.len());
    }
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

/// quick-xml's `read_to_end` for a checked file: every event inside goes
/// to `checker` too. The span of the content, as `read_to_end` gives it.
fn skip_to_end<'t>(
    reader: &mut Reader<&'t [u8]>,
    checker: &mut Checker<'t>,
) -> Result<std::ops::Range<u64>, ReadError> {
    let start = reader.buffer_position();
    let mut depth = 0usize;
    loop {
        let offset = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| ReadError::xml(reader.error_position() as usize, e))?;
        checker.event(&event, offset as usize);
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) if depth == 0 => return Ok(start..offset),
            Event::End(_) => depth -= 1,
            Event::Eof => {
                return Err(ReadError::syntax(
                    offset as usize,
                    "the file ends inside <metadata>: it is truncated",
                ))
            }
            _ => {}
        }
    }
}

fn container(stack: &[Ctx]) -> Option<Option<NodeId>> {
    match stack.last()? {
        Ctx::Xbel => Some(None),
        Ctx::Folder(id) => Some(Some(*id)),
        _ => None,
    }
}

/// The context a start tag opens, adding its node to the document.
fn open(
    state: &mut State<'_>,
    stack: &[Ctx],
    name: &str,
    attrs: &mut Attrs<'_>,
    offset: usize,
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
    let parent = container(stack);
    let ctx = match (name, parent_ctx, owner, parent) {
        ("xbel", None, _, _) => {
            open_xbel(state, attrs, offset);
            Ctx::Xbel
        }
        (
            "title",
            Some(Ctx::Xbel | Ctx::Folder(_) | Ctx::Bookmark(_) | Ctx::Separator(_)),
            Some(owner),
            _,
        ) => Ctx::Title(owner),
        ("desc", Some(Ctx::Xbel | Ctx::Folder(_) | Ctx::Bookmark(_)), Some(owner), _) => {
            Ctx::Desc(owner)
        }
        ("info", _, Some(owner), _) => Ctx::Info(owner),
        ("folder", _, _, Some(parent)) => {
            let f = folder(state, attrs, offset);
            Ctx::Folder(state.doc.push(parent, f))
        }
        ("bookmark", _, _, Some(parent)) => {
            let b = bookmark(state, attrs, offset);
            Ctx::Bookmark(state.doc.push(parent, b))
        }
        ("separator", _, _, Some(parent)) => {
            let mut s = Separator::default();
            s.extra = attrs.take_extra();
            Ctx::Separator(state.doc.push(parent, s))
        }
        ("alias", _, _, Some(parent)) => {
            let target = attrs.take_string("ref").unwrap_or_else(|| {
                state.warn(offset, "<alias> without ref; read with an empty ref");
                String::new()
            });
            let mut a = Alias::new(target);
            a.extra = attrs.take_extra();
            Ctx::Alias(state.doc.push(parent, a))
        }
        (other, Some(inside), _, _) => {
            state.warn(
                offset,
                format!(
                    "<{other}> is not allowed inside <{}>; skipped with its content",
                    inside.element()
                ),
            );
            Ctx::Skip
        }
        (other, None, _, _) => {
            return Err(ReadError::syntax(
                offset,
                format!("a second root element <{other}>"),
            ));
        }
    };
    Ok(ctx)
}

/// The root's attributes, which are the document's.
fn open_xbel(state: &mut State<'_>, attrs: &mut Attrs<'_>, offset: usize) {
    if let Some(v) = attrs.take("version") {
        if v != "1.0" && v != "1.1" {
            state.note(offset, format!("XBEL version {v:?}; read as 1.0"));
        }
    }
    state.doc.header.id = attrs.take_string("id");
    if let Some(a) = attrs.take("added") {
        state.doc.header.added = Some(state.date(offset, "added", &a));
    }
    state.doc.header.extra = attrs.take_extra();
}

/// A folder from its start tag's attributes.
fn folder(state: &mut State<'_>, attrs: &mut Attrs<'_>, offset: usize) -> Folder {
    let mut f = Folder::new();
    f.id = attrs.take_string("id");
    if let Some(a) = attrs.take("added") {
        f.added = Some(state.date(offset, "added", &a));
    }
    if let Some(v) = attrs.take("folded") {
        f.folded = yes_no(state, offset, "folded", &v);
    }
    f.icon = attrs.take_string("icon");
    if let Some(v) = attrs.take("toolbar") {
        if yes_no(state, offset, "toolbar", &v) == Some(true) {
            f.role = Some(Role::Toolbar);
        }
    }
    f.extra = attrs.take_extra();
    f
}

/// A bookmark from its start tag's attributes.
fn bookmark(state: &mut State<'_>, attrs: &mut Attrs<'_>, offset: usize) -> Bookmark {
    let href = attrs.take_string("href").unwrap_or_else(|| {
        state.warn(offset, "<bookmark> without href; read with an empty href");
        String::new()
    });
    let mut b = Bookmark::new(href);
    if let Some(id) = attrs.take_string("id") {
        b.details_mut().id = Some(id);
    }
    if let Some(icon) = attrs.take_string("icon") {
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
    let extra = attrs.take_extra();
    if !extra.is_empty() {
        b.details_mut().extra = extra;
    }
    b
}

/// The reader of a block markport interprets, if `owner_uri`'s is one.
fn interpreted(state: &State<'_>, owner_uri: &str, owner: Owner) -> Option<BlockReader> {
    match (owner_uri, owner) {
        (MARKPORT_OWNER, _) => Some(markport_block::read),
        (FREEDESKTOP_OWNER, Owner::Node(id)) if state.doc.node(id).as_bookmark().is_some() => {
            Some(freedesktop::read)
        }
        _ => None,
    }
}

type BlockReader = fn(&mut Document, Owner, Vec<block::Element>, &mut block::Warnings);

/// A block of another owner, kept as it is with the namespaces it uses.
fn foreign_metadata(
    state: &mut State<'_>,
    scope: &Scope<'_>,
    owner: Owner,
    owner_uri: String,
    attrs: &Attrs<'_>,
    inner: &str,
    inner_offset: usize,
) {
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
}
