//! The two `<metadata>` blocks markport interprets:
//!
//! * freedesktop (`owner="http://freedesktop.org"`): the desktop-bookmark
//!   fields, elements matched by namespace URI whatever their prefix;
//! * markport's own (`owner="https://markport.dev/ns/1"`): every field XBEL
//!   has no element for, so that XBEL carries the whole model.
//!
//! Both directions live here so the element names are written in one place.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use markport_model::{
    Application, Attribute, Bookmark, DateValue, DesktopIcon, Document, Folder, Node, Role,
    Separator,
};

use crate::read::{attributes, decode_text, Owner, ReadError, Scope, State};
use crate::xmltext::{push_attr, push_text};
use crate::{BOOKMARK_NS, FREEDESKTOP_OWNER, MARKPORT_OWNER, MIME_NS};

/// Which interpreted block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockOwner {
    Freedesktop,
    Markport,
}

/// One element of a block: resolved namespace, local name, attributes, text.
struct Element {
    ns: Option<String>,
    local: String,
    attrs: Vec<(String, String)>,
    text: String,
    offset: usize,
    /// The enclosing element's local name, when nested (group in groups).
    parent: Option<String>,
}

/// Flatten a block into its elements, in document order. Blocks are shallow
/// by design (at most two levels), so deeper content is only walked, not kept.
fn elements(scope: &Scope, inner: &str, base: usize) -> Result<Vec<Element>, ReadError> {
    let mut reader = Reader::from_str(inner);
    let mut out: Vec<Element> = Vec::new();
    // (local name, index in `out`) of open elements.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut local_scope: Vec<(usize, String, String)> = Vec::new();
    loop {
        let offset = base + reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            ReadError::syntax(
                base + reader.error_position() as usize,
                format!("not well-formed XML: {e}"),
            )
        })?;
        let (e, empty) = match event {
            Event::Eof => break,
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(_) => {
                open.pop();
                let depth = open.len();
                local_scope.retain(|d| d.0 <= depth);
                continue;
            }
            Event::Text(t) => {
                if let Some((_, i)) = open.last() {
                    let raw = std::str::from_utf8(&t).unwrap_or_default();
                    let text = decode_text(raw, offset, "metadata")?;
                    out[*i].text.push_str(&text);
                }
                continue;
            }
            Event::CData(t) => {
                if let Some((_, i)) = open.last() {
                    out[*i].text.push_str(&String::from_utf8_lossy(&t));
                }
                continue;
            }
            _ => continue,
        };
        let (qname, attrs) = element_parts(&e, offset)?;
        let depth = open.len() + 1;
        for (n, v) in &attrs {
            if n == "xmlns" {
                local_scope.push((depth, String::new(), v.clone()));
            } else if let Some(p) = n.strip_prefix("xmlns:") {
                local_scope.push((depth, p.to_owned(), v.clone()));
            }
        }
        let (prefix, local) = match qname.split_once(':') {
            Some((p, l)) => (p.to_owned(), l.to_owned()),
            None => (String::new(), qname.clone()),
        };
        let ns = local_scope
            .iter()
            .rev()
            .find(|d| d.1 == prefix)
            .map(|d| d.2.clone())
            .or_else(|| scope.resolve(&prefix).map(str::to_owned));
        let attrs = attrs
            .into_iter()
            .filter(|(n, _)| n != "xmlns" && !n.starts_with("xmlns:"))
            .collect();
        out.push(Element {
            ns,
            local,
            attrs,
            text: String::new(),
            offset,
            parent: open.last().map(|o| o.0.clone()),
        });
        if !empty {
            open.push((qname, out.len() - 1));
            // Keep the parent's local name, not its qualified name, for matching.
            if let Some(last) = open.last_mut() {
                last.0 = out[last.1].local.clone();
            }
        }
    }
    Ok(out)
}

fn element_parts(
    e: &BytesStart<'_>,
    offset: usize,
) -> Result<(String, Vec<(String, String)>), ReadError> {
    let qname = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    Ok((qname, attributes(e, offset)?))
}

impl Element {
    fn attr(&self, name: &str) -> Option<String> {
        self.attrs.iter().find(|a| a.0 == name).map(|a| a.1.clone())
    }

    /// Whether this element is `local` in namespace `ns`; an unprefixed
    /// element with no default namespace matches by local name (GLib's leniency).
    fn is(&self, ns: &str, local: &str) -> bool {
        self.local == local && self.ns.as_deref().is_none_or(|n| n == ns)
    }
}

pub(crate) fn read_block(
    state: &mut State<'_>,
    scope: &Scope,
    owner: Owner,
    kind: BlockOwner,
    inner: &str,
    base: usize,
) -> Result<(), ReadError> {
    let elements = elements(scope, inner, base)?;
    match kind {
        BlockOwner::Freedesktop => read_freedesktop(state, owner, elements),
        BlockOwner::Markport => read_markport(state, owner, elements),
    }
    Ok(())
}

fn read_freedesktop(state: &mut State<'_>, owner: Owner, elements: Vec<Element>) {
    let Owner::Node(id) = owner else { return };
    let mut warnings = Vec::new();
    let mut b = match state.doc.node_mut(id) {
        Node::Bookmark(b) => std::mem::take(b),
        _ => return,
    };
    for el in elements {
        if el.is(MIME_NS, "mime-type") {
            b.details_mut().mime_type = Some(
                el.attr("type")
                    .unwrap_or_else(|| "application/octet-stream".into()),
            );
        } else if el.is(BOOKMARK_NS, "groups") || el.is(BOOKMARK_NS, "applications") {
        } else if el.is(BOOKMARK_NS, "group") && el.parent.as_deref() == Some("groups") {
            b.details_mut().groups.push(el.text);
        } else if el.is(BOOKMARK_NS, "application") && el.parent.as_deref() == Some("applications")
        {
            let count = el
                .attr("count")
                .and_then(|c| match c.trim().parse::<u32>() {
                    Ok(n) => Some(n),
                    Err(_) => {
                        warnings.push((
                            el.offset,
                            format!("application count {c:?} is not a number; ignored"),
                        ));
                        None
                    }
                });
            let date = |v: Option<String>, what: &str, warnings: &mut Vec<(usize, String)>| {
                v.map(|t| {
                    let d = DateValue::from_w3c(&t);
                    if matches!(d, DateValue::Raw(_)) {
                        warnings.push((
                            el.offset,
                            format!(
                                "application {what} {t:?} is not a W3C date/time; kept as written"
                            ),
                        ));
                    }
                    d
                })
            };
            let modified = date(el.attr("modified"), "modified", &mut warnings);
            let timestamp = el.attr("timestamp").map(|t| {
                match t
                    .trim()
                    .parse::<i64>()
                    .ok()
                    .and_then(markport_model::Timestamp::from_unix_seconds)
                {
                    Some(ts) => DateValue::Instant(ts),
                    None => DateValue::Raw(t.into()),
                }
            });
            let name = el.attr("name").unwrap_or_default();
            // The desktop-bookmark spec's default for a missing command line.
            let exec = el.attr("exec").unwrap_or_else(|| {
                warnings.push((
                    el.offset,
                    format!("application {name:?} has no exec; the spec's default \"{name} %u\" is used"),
                ));
                format!("{name} %u")
            });
            let mut app = Application::new(name, exec);
            app.count = count;
            app.modified = modified;
            app.timestamp = timestamp;
            b.details_mut().applications.push(app);
        } else if el.is(BOOKMARK_NS, "icon") {
            let mut icon = DesktopIcon::default();
            icon.href = el.attr("href");
            icon.mime_type = el.attr("type");
            icon.name = el.attr("name");
            b.details_mut().desktop_icon = Some(icon);
        } else if el.is(BOOKMARK_NS, "private") {
            b.private = Some(true);
        } else {
            warnings.push((
                el.offset,
                format!(
                    "<{}> is not a freedesktop bookmark element; ignored",
                    el.local
                ),
            ));
        }
    }
    *state.doc.node_mut(id) = Node::Bookmark(b);
    for (at, w) in warnings {
        state.warn(at, w);
    }
}

fn read_markport(state: &mut State<'_>, owner: Owner, elements: Vec<Element>) {
    let mut warnings = Vec::new();
    let mut date = |el: &Element| {
        let d = DateValue::from_w3c(&el.text);
        if matches!(d, DateValue::Raw(_)) {
            warnings.push((
                el.offset,
                format!(
                    "{} {:?} is not a W3C date/time; kept as written",
                    el.local, el.text
                ),
            ));
        }
        d
    };
    let bool_of = |el: &Element| el.text.trim() == "true";
    let mut unknown = Vec::new();
    for el in &elements {
        if el.ns.as_deref() != Some(MARKPORT_OWNER) {
            unknown.push(el.offset);
            continue;
        }
        let handled = match owner {
            Owner::Document => match el.local.as_str() {
                "modified" => {
                    state.doc.header.modified = Some(date(el));
                    true
                }
                "attr" => {
                    state.doc.header.extra.push(Attribute::new(
                        el.attr("name").unwrap_or_default(),
                        el.text.clone(),
                    ));
                    true
                }
                _ => false,
            },
            Owner::Node(id) => {
                let node = state.doc.node_mut(id);
                match node {
                    Node::Bookmark(b) => bookmark_field(b, el, &mut date, bool_of),
                    Node::Folder(f) => folder_field(f, el, &mut date),
                    Node::Separator(s) => separator_field(s, el),
                    Node::Alias(a) => {
                        let ok = el.local == "attr";
                        if ok {
                            a.extra.push(Attribute::new(
                                el.attr("name").unwrap_or_default(),
                                el.text.clone(),
                            ));
                        }
                        ok
                    }
                    // A kind of node this block has nothing for.
                    _ => false,
                }
            }
        };
        if !handled {
            unknown.push(el.offset);
        }
    }
    for at in unknown {
        state.warn(at, "unknown element in markport's metadata block; ignored");
    }
    for (at, w) in warnings {
        state.warn(at, w);
    }
}

fn bookmark_field(
    b: &mut Bookmark,
    el: &Element,
    date: &mut impl FnMut(&Element) -> DateValue,
    bool_of: impl Fn(&Element) -> bool,
) -> bool {
    let text = || Some(el.text.clone());
    match el.local.as_str() {
        "tag" => b.tags.push(el.text.clone()),
        "keyword" => b.details_mut().keyword = text(),
        "favicon" => b.favicon = text(),
        "favicon-uri" => b.details_mut().favicon_uri = text(),
        "post-data" => b.details_mut().post_data = text(),
        "feed-url" => b.details_mut().feed_url = text(),
        "charset" => b.details_mut().charset = text(),
        "private" => b.private = Some(bool_of(el)),
        "to-read" => b.to_read = Some(bool_of(el)),
        "icon" => b.details_mut().icon = text(),
        "id" => b.details_mut().id = text(),
        "modified" => b.modified = Some(date(el)),
        "attr" => b.details_mut().extra.push(Attribute::new(
            el.attr("name").unwrap_or_default(),
            el.text.clone(),
        )),
        _ => return false,
    }
    true
}

fn folder_field(
    f: &mut Folder,
    el: &Element,
    date: &mut impl FnMut(&Element) -> DateValue,
) -> bool {
    match el.local.as_str() {
        "modified" => f.modified = Some(date(el)),
        "icon" => f.icon = Some(el.text.clone()),
        "id" => f.id = Some(el.text.clone()),
        "role" => match role_from(&el.text) {
            Some(r) => f.role = Some(r),
            None => return false,
        },
        "attr" => f.extra.push(Attribute::new(
            el.attr("name").unwrap_or_default(),
            el.text.clone(),
        )),
        _ => return false,
    }
    true
}

fn separator_field(s: &mut Separator, el: &Element) -> bool {
    match el.local.as_str() {
        "title" => s.title = Some(el.text.clone()),
        "attr" => s.extra.push(Attribute::new(
            el.attr("name").unwrap_or_default(),
            el.text.clone(),
        )),
        _ => return false,
    }
    true
}

fn role_name(r: Role) -> &'static str {
    r.name()
}

fn role_from(s: &str) -> Option<Role> {
    [
        Role::Toolbar,
        Role::Menu,
        Role::Unfiled,
        Role::ReadingList,
        Role::PlacesRoot,
    ]
    .into_iter()
    .find(|r| role_name(*r) == s.trim())
}

/// Builds a block's text; nothing is written when it stays empty.
pub(crate) struct BlockWriter<'a> {
    pad: &'a str,
    body: String,
}

impl<'a> BlockWriter<'a> {
    pub(crate) fn new(pad: &'a str) -> BlockWriter<'a> {
        BlockWriter {
            pad,
            body: String::new(),
        }
    }

    fn element(&mut self, name: &str, attrs: &[(&str, &str)], text: Option<&str>) {
        self.body.push_str(self.pad);
        self.body.push_str("    <");
        self.body.push_str(name);
        for (k, v) in attrs {
            self.body.push(' ');
            self.body.push_str(k);
            self.body.push_str("=\"");
            push_attr(&mut self.body, v);
            self.body.push('"');
        }
        match text {
            Some(t) => {
                self.body.push('>');
                push_text(&mut self.body, t);
                self.body.push_str("</");
                self.body.push_str(name);
                self.body.push_str(">\n");
            }
            None => self.body.push_str("/>\n"),
        }
    }

    fn mp(&mut self, name: &str, text: &str) {
        self.element(&format!("mp:{name}"), &[], Some(text));
    }

    fn attrs(&mut self, extra: &[Attribute]) {
        for a in extra {
            self.element("mp:attr", &[("name", &a.name)], Some(&a.value));
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// Append `<metadata owner=...>` with the collected body.
    pub(crate) fn finish(self, out: &mut String, owner: &str, ns_decl: &str) {
        if self.body.is_empty() {
            return;
        }
        out.push_str(self.pad);
        out.push_str("  <metadata owner=\"");
        push_attr(out, owner);
        out.push('"');
        out.push_str(ns_decl);
        out.push_str(">\n");
        out.push_str(&self.body);
        out.push_str(self.pad);
        out.push_str("  </metadata>\n");
    }
}

fn date_text(d: &DateValue) -> String {
    match d {
        DateValue::Instant(t) => t.to_w3c(),
        DateValue::Raw(r) => r.to_string(),
    }
}

/// The markport namespace declaration written on its `<metadata>`.
pub(crate) fn markport_ns_decl() -> String {
    format!(" xmlns:mp=\"{MARKPORT_OWNER}\"")
}

/// The markport block of a bookmark.
pub(crate) fn markport_bookmark(w: &mut BlockWriter<'_>, b: &Bookmark) {
    let more = b.details();
    for t in &b.tags {
        w.mp("tag", t);
    }
    let texts = [
        ("keyword", &more.keyword),
        ("favicon", &b.favicon),
        ("favicon-uri", &more.favicon_uri),
        ("post-data", &more.post_data),
        ("feed-url", &more.feed_url),
        ("charset", &more.charset),
        ("icon", &more.icon),
    ];
    for (name, v) in texts {
        if let Some(v) = v {
            w.mp(name, v);
        }
    }
    // `true` is the freedesktop block's `<bookmark:private/>`; only `false` needs ours.
    if b.private == Some(false) {
        w.mp("private", "false");
    }
    if let Some(t) = b.to_read {
        w.mp("to-read", if t { "true" } else { "false" });
    }
    w.attrs(&more.extra);
}

/// The markport block of a folder.
pub(crate) fn markport_folder(w: &mut BlockWriter<'_>, f: &Folder) {
    if let Some(m) = &f.modified {
        w.mp("modified", &date_text(m));
    }
    if let Some(i) = &f.icon {
        w.mp("icon", i);
    }
    if let Some(r) = f.role {
        w.mp("role", role_name(r));
    }
    w.attrs(&f.extra);
}

/// The markport block of a separator.
pub(crate) fn markport_separator(w: &mut BlockWriter<'_>, s: &Separator) {
    if let Some(t) = &s.title {
        w.mp("title", t);
    }
    w.attrs(&s.extra);
}

/// The markport block of an alias.
pub(crate) fn markport_alias(w: &mut BlockWriter<'_>, extra: &[Attribute]) {
    w.attrs(extra);
}

/// The markport block of the document.
pub(crate) fn markport_document(w: &mut BlockWriter<'_>, d: &Document) {
    if let Some(m) = &d.header.modified {
        w.mp("modified", &date_text(m));
    }
    w.attrs(&d.header.extra);
}

/// Whether a bookmark has anything for the freedesktop block.
pub(crate) fn has_freedesktop(b: &Bookmark) -> bool {
    let more = b.details();
    more.mime_type.is_some()
        || !more.groups.is_empty()
        || !more.applications.is_empty()
        || more.desktop_icon.is_some()
        || b.private == Some(true)
}

/// The freedesktop block of a bookmark, in GLib's element order.
pub(crate) fn freedesktop_bookmark(w: &mut BlockWriter<'_>, b: &Bookmark) {
    let more = b.details();
    if let Some(m) = &more.mime_type {
        w.element("mime:mime-type", &[("type", m)], None);
    }
    if !more.groups.is_empty() {
        w.body.push_str(w.pad);
        w.body.push_str("    <bookmark:groups>\n");
        for g in &more.groups {
            w.body.push_str("  ");
            w.element("bookmark:group", &[], Some(g));
        }
        w.body.push_str(w.pad);
        w.body.push_str("    </bookmark:groups>\n");
    }
    if !more.applications.is_empty() {
        w.body.push_str(w.pad);
        w.body.push_str("    <bookmark:applications>\n");
        for a in &more.applications {
            let count = a.count.map(|c| c.to_string());
            let modified = a.modified.as_ref().map(date_text);
            let timestamp = a.timestamp.as_ref().map(|t| match t {
                DateValue::Instant(t) => t.unix_seconds().to_string(),
                DateValue::Raw(r) => r.to_string(),
            });
            let mut attrs: Vec<(&str, &str)> = vec![("name", &a.name), ("exec", &a.exec)];
            if let Some(m) = &modified {
                attrs.push(("modified", m));
            }
            if let Some(c) = &count {
                attrs.push(("count", c));
            }
            if let Some(t) = &timestamp {
                attrs.push(("timestamp", t));
            }
            w.body.push_str("  ");
            w.element("bookmark:application", &attrs, None);
        }
        w.body.push_str(w.pad);
        w.body.push_str("    </bookmark:applications>\n");
    }
    if let Some(i) = &more.desktop_icon {
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        if let Some(h) = &i.href {
            attrs.push(("href", h));
        }
        if let Some(t) = &i.mime_type {
            attrs.push(("type", t));
        }
        if let Some(n) = &i.name {
            attrs.push(("name", n));
        }
        w.element("bookmark:icon", &attrs, None);
    }
    if b.private == Some(true) {
        w.element("bookmark:private", &[], None);
    }
}

/// The owner URI of the freedesktop block.
pub(crate) const FREEDESKTOP: &str = FREEDESKTOP_OWNER;
