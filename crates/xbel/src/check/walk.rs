//! XBEL: everything the 1.0 DTD says, then what a DTD cannot say (ids
//! unique, aliases that resolve, dates in the W3C profile, the encoding).
//!
//! Fed the reader's own events as it reads them (one pass, one parser),
//! with an explicit stack of open elements, so nesting costs heap, never
//! call stack. Desktop bookmark files are XBEL too: the same walk checks
//! them, with [`Desktop`] adding the spec's and GLib's rules.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use markport_markup::xml::{is_name, is_xml_char};
use markport_model::rule::Rule;
use quick_xml::events::{BytesStart, Event};

use super::desktop::{self, Desktop, FdKind};
use super::Sink;
use crate::rules::*;

/// What an open element is, for what may come inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Xbel,
    Folder,
    Bookmark,
    Title,
    Desc,
    Info,
    Separator,
    Alias,
    /// `<metadata>` of an owner whose content XBEL leaves open.
    Metadata,
    /// Content nothing here checks: an unknown element, a wrong root.
    Opaque,
    /// Inside the freedesktop `<metadata>` of a desktop bookmark file.
    Desktop(FdKind),
}

/// One open element.
struct Frame<'t> {
    kind: Kind,
    /// Its name as written.
    name: &'t str,
    /// Where its start tag is.
    at: usize,
    /// Of title, info, desc and content (1 to 4), the furthest seen inside.
    stage: u8,
    /// Child elements seen.
    elements: u32,
    /// Whether it holds text other than white space.
    text: bool,
    /// How many namespace declarations were in scope before it.
    decls: usize,
    /// A `<separator href>` as KDE writes it: its title and info are its own.
    kde: bool,
}

/// The namespace of KDE's own metadata, declared on the root of its places file.
const KDE_PRIVATE: &str = "http://www.kde.org/kdepriv";

/// How often a file shows a writer's habit, and where first.
#[derive(Default)]
struct Habit {
    count: usize,
    first: Option<usize>,
}

impl Habit {
    fn seen(&mut self, at: usize) {
        self.count += 1;
        self.first.get_or_insert(at);
    }
}

/// An attribute as written: qualified name, value with references
/// resolved, and where its name starts.
pub(crate) struct Attr<'t> {
    pub(crate) name: &'t str,
    pub(crate) value: Cow<'t, str>,
    pub(crate) at: usize,
}

/// The attributes the DTD declares on each element (with XBEL 1.1's
/// `icon` and `toolbar`, which the specification in specs/ describes).
fn declared_attributes(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Xbel => &["version", "id", "added"],
        Kind::Folder => &["id", "added", "folded", "icon", "toolbar"],
        Kind::Bookmark => &["href", "id", "added", "modified", "visited", "icon"],
        Kind::Alias => &["ref"],
        Kind::Metadata => &["owner"],
        _ => &[],
    }
}

/// How the walk ended at the end of the file, when the file ends wrong:
/// the rule, where, and what it says.
pub(crate) type Fatal = (&'static Rule, usize, String);

pub(crate) struct Walk<'t> {
    text: &'t str,
    stack: Vec<Frame<'t>>,
    /// Namespace declarations in scope: (prefix, URI).
    decls: Vec<(&'t str, Cow<'t, str>)>,
    /// Every id seen and where.
    ids: HashMap<String, usize>,
    /// Every alias ref and where.
    refs: Vec<(String, usize)>,
    /// The owners of the `<metadata>` in the open `<info>`.
    owners: Vec<String>,
    root_seen: bool,
    /// The current element's attributes (one allocation for the file).
    attrs: Vec<Attr<'t>>,
    desktop: Option<Desktop>,
    /// Report writers' habits element by element under the DTD's letter.
    letter: bool,
    /// Numeric ids (Floccus).
    floccus_ids: Habit,
    /// Separators with href, title and info (KDE).
    kde_separators: Habit,
    /// The root's `<info>` after its content (KDE).
    kde_late_info: Habit,
}

impl<'t> Walk<'t> {
    /// A walk over `text`, an XBEL document (or, with `desktop`, a desktop
    /// bookmark file).
    pub(crate) fn new(text: &'t str, desktop: bool, letter: bool) -> Walk<'t> {
        Walk {
            text,
            stack: Vec::new(),
            decls: Vec::new(),
            ids: HashMap::new(),
            refs: Vec::new(),
            owners: Vec::new(),
            root_seen: false,
            attrs: Vec::new(),
            desktop: desktop.then(Desktop::default),
            letter,
            floccus_ids: Habit::default(),
            kde_separators: Habit::default(),
            kde_late_info: Habit::default(),
        }
    }

    /// One event of the reader's, read at `offset`.
    pub(crate) fn event(&mut self, sink: &mut Sink<'_>, event: &Event<'_>, offset: usize) {
        match event {
            Event::Start(e) => self.start(sink, e, offset, false),
            Event::Empty(e) => self.start(sink, e, offset, true),
            Event::End(_) => self.end(sink),
            Event::Text(t) => self.text(sink, t, offset, true),
            Event::CData(t) => self.text(sink, t, offset, false),
            Event::Eof | Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }

    /// The end of the file: the whole-document rules, or why the file
    /// ends before it is whole.
    pub(crate) fn eof(mut self, sink: &mut Sink<'_>) -> Result<(), Fatal> {
        if let Some(open) = self.stack.last() {
            let name = open.name;
            return Err((
                &XBEL_NOT_WELL_FORMED,
                open.at,
                format!("the file ends before this <{name}> is closed"),
            ));
        }
        if !self.root_seen {
            return Err((
                &XBEL_ROOT,
                self.text.len(),
                "the file has no root element".into(),
            ));
        }
        self.finish(sink);
        Ok(())
    }

    /// Where `bytes` (a slice quick-xml gave out of the text) starts.
    fn offset_of(&self, bytes: &[u8]) -> Option<usize> {
        let start = (bytes.as_ptr() as usize).checked_sub(self.text.as_ptr() as usize)?;
        (start + bytes.len() <= self.text.len()).then_some(start)
    }

    /// The slice of the text quick-xml handed out, as text.
    fn source(&self, bytes: &[u8]) -> Option<&'t str> {
        let start = self.offset_of(bytes)?;
        self.text.get(start..start + bytes.len())
    }

    /// Read `e`'s attributes into `self.attrs`; problems with their syntax
    /// are reported and the attribute skipped.
    fn read_attributes(&mut self, sink: &mut Sink<'_>, e: &BytesStart<'_>, offset: usize) {
        self.attrs.clear();
        let mut names: HashSet<&'t str> = HashSet::new();
        for a in e.attributes().with_checks(false) {
            let a = match a {
                Ok(a) => a,
                Err(err) => {
                    sink.at(
                        &XBEL_NOT_WELL_FORMED,
                        offset,
                        format!("bad attribute: {err}"),
                    );
                    break;
                }
            };
            let Some(name) = self.source(a.key.as_ref()) else {
                continue;
            };
            let at = self.offset_of(a.key.as_ref()).unwrap_or(offset);
            // A few attributes are the rule: comparing them costs less than
            // hashing, and a set keeps a tag of thousands linear.
            let repeated = if self.attrs.len() < 16 {
                self.attrs.iter().any(|x| x.name == name)
            } else {
                if names.is_empty() {
                    names.extend(self.attrs.iter().map(|x| x.name));
                }
                !names.insert(name)
            };
            if repeated {
                sink.at(
                    &XBEL_NOT_WELL_FORMED,
                    at,
                    format!("attribute {name} is given twice (XML allows an attribute once)"),
                );
                continue;
            }
            let raw = match &a.value {
                Cow::Borrowed(v) => self.source(v).map(Cow::Borrowed),
                Cow::Owned(v) => std::str::from_utf8(v)
                    .ok()
                    .map(|s| Cow::Owned(s.to_owned())),
            };
            let Some(raw) = raw else { continue };
            let value = if raw.contains('&') {
                match quick_xml::escape::unescape(&raw) {
                    Ok(v) => {
                        forbidden_reference(sink, &v, at);
                        Cow::Owned(v.into_owned())
                    }
                    Err(err) => {
                        sink.at(
                            &XBEL_NOT_WELL_FORMED,
                            at,
                            format!("bad reference in attribute {name}: {err}"),
                        );
                        raw
                    }
                }
            } else {
                raw
            };
            self.attrs.push(Attr { name, value, at });
        }
    }

    fn attr(&self, name: &str) -> Option<&Attr<'t>> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// The namespace URI `prefix` is bound to here.
    pub(crate) fn resolve(&self, prefix: &str) -> Option<&str> {
        self.decls
            .iter()
            .rev()
            .find(|(p, _)| *p == prefix)
            .map(|(_, uri)| &**uri)
    }

    fn start(&mut self, sink: &mut Sink<'_>, e: &BytesStart<'_>, offset: usize, empty: bool) {
        self.read_attributes(sink, e, offset);
        let decls = self.decls.len();
        for a in &self.attrs {
            if a.name == "xmlns" {
                self.decls.push(("", a.value.clone()));
            } else if let Some(prefix) = a.name.strip_prefix("xmlns:") {
                self.decls.push((prefix, a.value.clone()));
            }
        }
        let name = self.source(e.name().as_ref()).unwrap_or("");
        if let Some(parent) = self.stack.last_mut() {
            parent.elements += 1;
        }
        let kind = self.classify(sink, name, offset);
        let kde = kind == Kind::Separator && !self.letter && self.attr("href").is_some();
        if kde {
            self.kde_separators.seen(offset);
        }
        self.stack.push(Frame {
            kind,
            name,
            at: offset,
            stage: 0,
            elements: 0,
            text: false,
            decls,
            kde,
        });
        self.check_attributes(sink, kind, name, offset);
        if empty {
            self.end(sink);
        }
    }

    /// What the element `name` opened at `offset` is, reporting where it
    /// may not be.
    fn classify(&mut self, sink: &mut Sink<'_>, name: &str, offset: usize) -> Kind {
        let Some(parent) = self.stack.last().map(|f| f.kind) else {
            if self.root_seen {
                sink.at(
                    &XBEL_NOT_WELL_FORMED,
                    offset,
                    "a second root element (XML allows one)",
                );
                return Kind::Opaque;
            }
            self.root_seen = true;
            if name == "xbel" {
                return Kind::Xbel;
            }
            sink.at(
                &XBEL_ROOT,
                offset,
                format!("the root element is <{name}>; an XBEL document's is <xbel>"),
            );
            return Kind::Opaque;
        };
        match parent {
            Kind::Opaque => return Kind::Opaque,
            Kind::Metadata => {
                if let Some(d) = &mut self.desktop {
                    d.foreign_metadata_child(
                        sink,
                        self.stack.last().map_or(0, |f| f.elements),
                        offset,
                    );
                }
                return Kind::Opaque;
            }
            Kind::Desktop(fd) => {
                let (prefix, local) = name.split_once(':').unwrap_or(("", name));
                let ns = self.resolve(prefix).map(str::to_owned);
                let view = attrs_view(&self.attrs);
                let d = self
                    .desktop
                    .as_mut()
                    .expect("desktop frames only in desktop files");
                return d
                    .child(
                        sink,
                        fd,
                        ns.as_deref(),
                        prefix.is_empty(),
                        local,
                        offset,
                        &view,
                    )
                    .map_or(Kind::Opaque, Kind::Desktop);
            }
            _ => {}
        }
        let Some(kind) = xbel_kind(name) else {
            if name.contains(':') {
                sink.at(
                    &XBEL_FOREIGN_ELEMENT,
                    offset,
                    format!("<{name}> is not XBEL; extensions belong inside <info><metadata>"),
                );
            } else {
                sink.at(
                    &XBEL_UNKNOWN_ELEMENT,
                    offset,
                    format!("XBEL 1.0 has no <{name}> element"),
                );
            }
            return Kind::Opaque;
        };
        let parent_name = kind_name(parent);
        let rank = match kind {
            Kind::Title => 1,
            Kind::Info => 2,
            Kind::Desc => 3,
            _ => 4,
        };
        let allowed = match parent {
            Kind::Xbel | Kind::Folder => {
                matches!(
                    kind,
                    Kind::Title
                        | Kind::Info
                        | Kind::Desc
                        | Kind::Folder
                        | Kind::Bookmark
                        | Kind::Alias
                        | Kind::Separator
                )
            }
            Kind::Bookmark => matches!(kind, Kind::Title | Kind::Info | Kind::Desc),
            Kind::Info => kind == Kind::Metadata,
            _ => false,
        };
        let kde_separator = self.stack.last().is_some_and(|f| f.kde);
        if !allowed && kde_separator && matches!(kind, Kind::Title | Kind::Info) {
            // Counted with its separator.
        } else if !allowed {
            let why = match parent {
                Kind::Title | Kind::Desc => format!("<{parent_name}> holds text only"),
                Kind::Separator | Kind::Alias => format!("<{parent_name}> is empty by definition"),
                Kind::Info => "<info> holds only <metadata>".to_string(),
                Kind::Bookmark => "<bookmark> holds only title, info and desc".to_string(),
                _ => format!("<{parent_name}> may not hold it"),
            };
            sink.at(
                &XBEL_MISPLACED_ELEMENT,
                offset,
                format!("<{name}> is not allowed in <{parent_name}>: {why}"),
            );
        } else if matches!(parent, Kind::Xbel | Kind::Folder | Kind::Bookmark) {
            // KDE's places file declares its private namespace on the root.
            let kde_file = self.decls.iter().any(|(_, uri)| uri == KDE_PRIVATE);
            let frame = self.stack.last_mut().expect("a parent");
            // GLib writes a bookmark's desc before its info and reads them
            // in any order: in desktop files the order is not checked.
            let late_root_info = parent == Kind::Xbel
                && kind == Kind::Info
                && frame.stage == 4
                && kde_file
                && !self.letter;
            if late_root_info {
                self.kde_late_info.seen(offset);
            } else if rank < 4
                && rank <= frame.stage
                && (self.desktop.is_none() || rank == frame.stage)
            {
                let message = if rank == frame.stage {
                    format!("a second <{name}> in <{parent_name}> (at most one)")
                } else {
                    format!(
                        "<{name}> comes after {} in <{parent_name}>; the order is title, info, desc, then the content",
                        match frame.stage {
                            2 => "<info>",
                            3 => "<desc>",
                            _ => "the content",
                        }
                    )
                };
                sink.at(&XBEL_ELEMENT_ORDER, offset, message);
            }
            frame.stage = frame.stage.max(rank);
            if parent == Kind::Xbel
                && matches!(
                    kind,
                    Kind::Folder | Kind::Alias | Kind::Separator | Kind::Info
                )
            {
                if let Some(d) = &mut self.desktop {
                    d.xbel_element(sink, name, offset);
                }
            }
        }
        if kind == Kind::Info {
            self.owners.clear();
        }
        if kind == Kind::Metadata {
            let owner = self.attr("owner").map(|a| a.value.to_string());
            if let Some(fd) = self
                .desktop
                .as_mut()
                .and_then(|d| d.metadata(owner.as_deref()))
            {
                return Kind::Desktop(fd);
            }
        }
        kind
    }

    fn check_attributes(&mut self, sink: &mut Sink<'_>, kind: Kind, name: &str, offset: usize) {
        let kind = match kind {
            Kind::Desktop(FdKind::Metadata) => Kind::Metadata,
            Kind::Desktop(_) | Kind::Opaque => return,
            k => k,
        };
        let declared = declared_attributes(kind);
        let kde = self.stack.last().is_some_and(|f| f.kde);
        for a in &self.attrs {
            if a.name == "xmlns" || a.name.contains(':') || declared.contains(&a.name) {
                continue;
            }
            if kde && a.name == "href" {
                continue;
            }
            sink.at(
                &XBEL_UNKNOWN_ATTRIBUTE,
                a.at,
                format!("<{name}> has no attribute {} in XBEL 1.0", a.name),
            );
        }
        let numeric_id = self.attr("id").and_then(|id| {
            let numeric = !id.value.is_empty() && id.value.bytes().all(|b| b.is_ascii_digit());
            (numeric && !self.letter).then_some(id.at)
        });
        if let Some(at) = numeric_id {
            self.floccus_ids.seen(at);
        }
        if let Some(id) = self.attr("id") {
            if numeric_id.is_some() {
                // Counted as Floccus' habit.
            } else if !is_name(&id.value) {
                sink.at(
                    &XBEL_BAD_ID,
                    id.at,
                    format!(
                        "id {:?} is not an XML name (a letter, _ or : first; no spaces)",
                        id.value
                    ),
                );
            }
            match self.ids.get(&*id.value) {
                Some(&first) => {
                    let line = sink.line_of(first);
                    sink.at(
                        &XBEL_DUPLICATE_ID,
                        id.at,
                        format!(
                            "id {:?} is already the id of the element on line {line}",
                            id.value
                        ),
                    );
                }
                None => {
                    self.ids.insert(id.value.to_string(), id.at);
                }
            }
        }
        match kind {
            Kind::Xbel => match self.attr("version") {
                None => sink.at(
                    &XBEL_MISSING_VERSION,
                    offset,
                    "<xbel> has no version; the DTD fixes it at \"1.0\" and readers such as GLib refuse a file without it",
                ),
                Some(v) if v.value != "1.0" => sink.at(
                    &XBEL_VERSION,
                    v.at,
                    format!("version is {:?}; XBEL 1.0's DTD fixes it at \"1.0\"", v.value),
                ),
                Some(_) => {}
            },
            Kind::Folder => {
                for flag in ["folded", "toolbar"] {
                    if let Some(a) = self.attr(flag) {
                        if a.value != "yes" && a.value != "no" {
                            sink.at(
                                &XBEL_BAD_ATTRIBUTE_VALUE,
                                a.at,
                                format!("{flag} is {:?}; it may be yes or no", a.value),
                            );
                        }
                    }
                }
            }
            Kind::Bookmark => {
                let href = self.attr("href").map(|a| (a.value.to_string(), a.at));
                if href.is_none() {
                    sink.at(
                        &XBEL_BOOKMARK_WITHOUT_HREF,
                        offset,
                        "<bookmark> has no href (required: the link is what a bookmark is)",
                    );
                }
                if let Some(d) = &mut self.desktop {
                    let view = attrs_view(&self.attrs);
                    d.bookmark(sink, offset, href.as_ref().map(|(h, at)| (h.as_str(), *at)), &view);
                }
            }
            Kind::Alias => match self.attr("ref") {
                Some(r) => self.refs.push((r.value.to_string(), r.at)),
                None => sink.at(
                    &XBEL_MISSING_ATTRIBUTE,
                    offset,
                    "<alias> has no ref (required: the id it stands for)",
                ),
            },
            Kind::Metadata => match self.attr("owner") {
                Some(o) => {
                    if self.owners.iter().any(|x| *x == *o.value) {
                        sink.at(
                            &XBEL_DUPLICATE_OWNER,
                            o.at,
                            format!("this <info> already has a <metadata owner={:?}>; each owner once", o.value),
                        );
                    } else {
                        self.owners.push(o.value.to_string());
                    }
                }
                None => sink.at(
                    &XBEL_MISSING_ATTRIBUTE,
                    offset,
                    "<metadata> has no owner (required: whose data it is)",
                ),
            },
            _ => {}
        }
        if matches!(kind, Kind::Xbel | Kind::Folder | Kind::Bookmark) {
            let in_desktop = self.desktop.is_some();
            for a in self
                .attrs
                .iter()
                .filter(|a| matches!(a.name, "added" | "modified" | "visited"))
            {
                if in_desktop {
                    desktop::check_date(sink, a.name, &a.value, a.at);
                } else if markport_model::Timestamp::parse_w3c_strict(&a.value).is_none() {
                    sink.at(
                        &XBEL_BAD_DATE,
                        a.at,
                        format!(
                            "{}={:?} is not a W3C date/time (e.g. 2024-05-01 or 2024-05-01T09:30:00Z)",
                            a.name, a.value
                        ),
                    );
                }
            }
        }
    }

    fn end(&mut self, sink: &mut Sink<'_>) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        self.decls.truncate(frame.decls);
        match frame.kind {
            Kind::Info if frame.elements == 0 => sink.at(
                &XBEL_EMPTY_INFO,
                frame.at,
                "<info> holds no <metadata> (the DTD requires one or more; an empty info must be removed)",
            ),
            Kind::Bookmark => {
                if let Some(d) = &mut self.desktop {
                    d.end_bookmark(sink);
                }
            }
            Kind::Desktop(fd) => {
                if let Some(d) = &mut self.desktop {
                    d.end(sink, fd, frame.at, frame.text, frame.elements);
                }
            }
            _ => {}
        }
    }

    fn text(&mut self, sink: &mut Sink<'_>, raw: &[u8], offset: usize, escaped: bool) {
        let first = raw
            .iter()
            .position(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'));
        let blank = first.is_none();
        // Point at the text itself, not at the white space before it.
        let offset = offset + first.unwrap_or(0);
        let Some(frame) = self.stack.last_mut() else {
            if !blank {
                sink.at(
                    &XBEL_NOT_WELL_FORMED,
                    offset,
                    "text outside the root element",
                );
            }
            return;
        };
        if blank && !matches!(frame.kind, Kind::Desktop(_)) {
            return;
        }
        frame.text |= !blank;
        match frame.kind {
            Kind::Xbel
            | Kind::Folder
            | Kind::Bookmark
            | Kind::Info
            | Kind::Separator
            | Kind::Alias => {
                let name = kind_name(frame.kind);
                sink.at(
                    &XBEL_TEXT_NOT_ALLOWED,
                    offset,
                    format!("text in <{name}>, which holds only elements"),
                );
            }
            Kind::Desktop(fd) => {
                if let Some(d) = &mut self.desktop {
                    d.text(sink, fd, blank, offset);
                }
            }
            _ => {}
        }
        if escaped && !blank && matches!(frame.kind, Kind::Title | Kind::Desc | Kind::Desktop(_)) {
            if let Some(s) = self.source(raw) {
                if s.contains('&') {
                    match quick_xml::escape::unescape(s) {
                        Ok(v) => forbidden_reference(sink, &v, offset),
                        Err(err) => sink.at(
                            &XBEL_NOT_WELL_FORMED,
                            offset,
                            format!("bad reference: {err}"),
                        ),
                    }
                }
            }
        }
    }

    /// After the whole document: aliases against ids.
    fn finish(&mut self, sink: &mut Sink<'_>) {
        if let Some(at) = self.floccus_ids.first {
            let n = self.floccus_ids.count;
            sink.at(
                &XBEL_FLOCCUS_IDS,
                at,
                format!(
                    "{n} id{} {} numbers, as Floccus writes them: not XML names, so not valid under the DTD, \
                     but every reader we know reads them (--strict lists each)",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "is" } else { "are" },
                ),
            );
        }
        let (separators, late) = (&self.kde_separators, &self.kde_late_info);
        if let Some(at) = separators.first.into_iter().chain(late.first).min() {
            let mut what = Vec::new();
            match separators.count {
                0 => {}
                1 => what.push("1 <separator> with href, <title> and <info>".to_owned()),
                n => what.push(format!("{n} <separator>s with href, <title> and <info>")),
            }
            if late.count > 0 {
                what.push("the root's <info> after the content".to_owned());
            }
            sink.at(
                &XBEL_KDE_PLACES,
                at,
                format!(
                    "{}, as KDE writes its places: not what the DTD allows, but KDE and the \
                     readers we know read them (--strict lists each)",
                    what.join(", and ")
                ),
            );
        }
        for (target, at) in &self.refs {
            if !self.ids.contains_key(target) {
                sink.at(
                    &XBEL_DANGLING_ALIAS,
                    *at,
                    format!("alias refers to id {target:?}, which no element has"),
                );
            }
        }
    }
}

/// A character reference (the text around it was checked by the parser)
/// to a character XML 1.0 cannot carry, such as `&#x7;`.
fn forbidden_reference(sink: &mut Sink<'_>, decoded: &str, at: usize) {
    if let Some(c) = decoded.chars().find(|&c| !is_xml_char(c)) {
        sink.at(
            &XBEL_NOT_WELL_FORMED,
            at,
            format!(
                "a character reference to U+{:04X}, which XML 1.0 forbids (GLib takes it; XML parsers refuse the file)",
                u32::from(c)
            ),
        );
    }
}

fn xbel_kind(name: &str) -> Option<Kind> {
    Some(match name {
        "xbel" => Kind::Xbel,
        "folder" => Kind::Folder,
        "bookmark" => Kind::Bookmark,
        "title" => Kind::Title,
        "desc" => Kind::Desc,
        "info" => Kind::Info,
        "metadata" => Kind::Metadata,
        "separator" => Kind::Separator,
        "alias" => Kind::Alias,
        _ => return None,
    })
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Xbel => "xbel",
        Kind::Folder => "folder",
        Kind::Bookmark => "bookmark",
        Kind::Title => "title",
        Kind::Desc => "desc",
        Kind::Info => "info",
        Kind::Separator => "separator",
        Kind::Alias => "alias",
        Kind::Metadata | Kind::Desktop(_) => "metadata",
        Kind::Opaque => "an unknown element",
    }
}

/// (name, value, offset) of every attribute, for the desktop rules.
fn attrs_view<'a>(attrs: &'a [Attr<'_>]) -> Vec<(&'a str, &'a str, usize)> {
    attrs.iter().map(|a| (a.name, &*a.value, a.at)).collect()
}
