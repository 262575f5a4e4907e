//! `Bookmarks.plist` into the model, one event at a time.
//!
//! The plist's dictionaries are Safari's nodes (`WebBookmarkType`), each
//! node's `Children` array holds its children, and every other value of a
//! node, however deeply nested (`URIDictionary`, `ReadingList`, `Sync`),
//! is one of its fields under a dotted path (`ReadingList.DateAdded`). An
//! explicit stack of frames follows the nesting: no recursion, no tree of
//! plist values, so a file nested 100,000 deep reads like a flat one.
//!
//! A node is pushed into the document when its `Children` key is reached
//! (a folder must exist before its children) or, without children, when
//! its dictionary ends; either way siblings keep their order.
//!
//! A binary plist refers to its objects by index, so one string of a
//! megabyte can be the `URLString` of 40,000 leaves: each reference the
//! stream materialises is charged to the read's memory [`Budget`] (its
//! bytes, as it is kept), and each node its arena entry, so such a file is
//! refused once it has cost its budget rather than taking gigabytes.

use std::time::{SystemTime, UNIX_EPOCH};

use markport_model::budget::NODE_COST;
use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Folder, NodeId,
    Parsed, ReadOptions, Role, Timestamp,
};
use plist::stream::Event;

use crate::events::Events;

/// A leaf's fields that become model fields; every other one is `extra`.
const URL: &str = "URLString";
const TITLE_OF_LEAF: &str = "URIDictionary.title";
const UUID: &str = "WebBookmarkUUID";
const TYPE: &str = "WebBookmarkType";
const TITLE: &str = "Title";
const ADDED: &str = "ReadingList.DateAdded";
const VISITED: &str = "ReadingList.DateLastViewed";
const PREVIEW: &str = "ReadingList.PreviewText";
const CHILDREN: &str = "Children";

/// The title Safari gives its Reading List.
pub const READING_LIST: &str = "com.apple.ReadingList";

/// One value of a node, as the model will hold it.
enum Val {
    Text(String),
    /// A scalar that is neither a string nor a date, as its text, with
    /// what it is for messages ("an integer").
    Other(String, &'static str),
    Date(DateValue),
}

impl Val {
    fn text(self) -> String {
        match self {
            Val::Text(t) | Val::Other(t, _) => t,
            Val::Date(DateValue::Instant(t)) => t.to_w3c(),
            Val::Date(DateValue::Raw(r)) => r.into(),
        }
    }

    /// What the value is, for messages.
    fn kind(&self) -> &'static str {
        match self {
            Val::Text(_) => "a string",
            Val::Other(_, kind) => kind,
            Val::Date(_) => "a date",
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Val::Text(t) => Some(t),
            Val::Other(..) | Val::Date(_) => None,
        }
    }
}

/// A dictionary that is one of Safari's nodes.
struct NodeFrame {
    /// The folder it goes into (`None`: the top level).
    parent: Option<NodeId>,
    /// Whether it is the file's top dictionary (its fields are the header's).
    root: bool,
    /// Whether it is a child of the top dictionary (the roles' level).
    top: bool,
    /// Its place among its siblings, from 1, for messages.
    entry: usize,
    /// Set once its `Children` made it a folder in the document.
    pushed: Option<NodeId>,
    /// Its fields in file order, by dotted path.
    fields: Vec<(String, Val)>,
    /// The key whose value comes next; `None` when a key comes next.
    key: Option<String>,
}

/// Where the next event belongs.
enum Frame {
    Node(NodeFrame),
    /// A node's `Children` array.
    Children {
        folder: Option<NodeId>,
        top: bool,
        count: usize,
    },
    /// A dictionary that is a node's value under a short key
    /// (`URIDictionary`, `ReadingList`, `Sync`): each member is one of the
    /// node's fields, named `Key.member`.
    Flat {
        /// Index of the owning node's frame in the stack.
        node: usize,
        prefix: String,
        key: Option<String>,
        count: usize,
    },
    /// A container below that (an array, a deeper dictionary): kept whole as
    /// its JSON text in [`Reader::json`], one field under `name` (set on the
    /// outermost such frame).
    Json {
        node: usize,
        name: Option<String>,
        dict: bool,
        /// A dictionary's next event is a key.
        key_next: bool,
        /// No member written yet.
        first: bool,
    },
    /// A value skipped with a warning (an array among children).
    Skip,
}

/// A dictionary's key is flattened into its members' names only when it is
/// at most this long, so that names cost at most this much each (a long key
/// over many members would make the names quadratic in the file).
const MAX_PREFIX: usize = 64;

/// The state of one read.
struct Reader {
    /// What the document may still take (see the module documentation).
    budget: Budget,
    doc: Document,
    diags: Vec<Diagnostic>,
    stack: Vec<Frame>,
    /// The JSON text of the container being kept whole.
    json: String,
}

fn syntax(message: &str) -> Error {
    Error::new(ErrorKind::Syntax, format!("plist: {message}"), None)
}

/// Read a `Bookmarks.plist`, binary or XML. An error of the reader's own
/// (a key that is an array, a value after the top dictionary) is placed, in
/// XML, where the value it stopped at starts.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut events = Events::new(input);
    let read = read_events(&mut events, input, opts);
    read.map_err(|mut e| {
        e.location = e.location.or_else(|| events.at());
        e
    })
}

fn read_events(events: &mut Events<'_>, input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut r = Reader {
        budget: Budget::new(opts, input.len()),
        doc: Document::new(),
        diags: Vec::new(),
        stack: Vec::new(),
        json: String::new(),
    };
    let mut done = false;
    while let Some(event) = events.next_event()? {
        if done {
            return Err(syntax("a value follows the top dictionary"));
        }
        r.charge(&event)?;
        let Some(top) = r.stack.last_mut() else {
            if let Event::StartDictionary(_) = event {
                r.stack.push(Frame::Node(NodeFrame {
                    parent: None,
                    root: true,
                    top: false,
                    entry: 1,
                    pushed: None,
                    fields: Vec::new(),
                    key: None,
                }));
                continue;
            }
            return Err(Error::new(
                ErrorKind::WrongFormat,
                "not a Safari Bookmarks.plist: the plist is not a dictionary",
                None,
            ));
        };
        // A key, where a dictionary expects one.
        let expects_key = match top {
            Frame::Node(n) => n.key.is_none(),
            Frame::Flat { key, .. } => key.is_none(),
            Frame::Json { dict, key_next, .. } => *dict && *key_next,
            _ => false,
        };
        if expects_key && !matches!(event, Event::EndCollection) {
            let Some(key) = scalar(event) else {
                return Err(syntax("a dictionary key is a dictionary or an array"));
            };
            let key = key.text();
            match top {
                Frame::Node(n) => n.key = Some(key),
                Frame::Flat { key: k, .. } => *k = Some(key),
                Frame::Json {
                    key_next, first, ..
                } => {
                    if !*first {
                        r.json.push(',');
                    }
                    *first = false;
                    json_string(&key, &mut r.json);
                    r.json.push(':');
                    *key_next = false;
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::EndCollection => {
                r.end()?;
                done = r.stack.is_empty();
            }
            event => r.value(event),
        }
    }
    if !done {
        let mut e = syntax(if r.stack.is_empty() {
            "the file holds no value"
        } else {
            "the file ends inside a dictionary or an array"
        });
        e.location = events.end();
        return Err(e);
    }
    Ok(Parsed::new(r.doc, r.diags))
}

impl Reader {
    /// Charge the budget for what `event` materialises: a string's or
    /// data's bytes each time it is referenced, a node's arena entry.
    fn charge(&mut self, event: &Event<'static>) -> Result<(), Error> {
        let bytes = match event {
            Event::String(s) => s.len(),
            // Kept as base64: four bytes for three.
            Event::Data(d) => d.len() / 3 * 4 + 4,
            Event::StartDictionary(_)
                if matches!(self.stack.last(), Some(Frame::Children { .. })) =>
            {
                NODE_COST as usize
            }
            _ => 0,
        };
        // A few bytes an event besides: a field's slot, a number's text.
        self.budget.charge(bytes + 8).map_err(|mut e| {
            let at = self.stack.iter().rev().find_map(|f| match f {
                Frame::Children { folder, count, .. } => Some((*folder, *count)),
                _ => None,
            });
            let place = match at {
                Some((folder, count)) => format!("{}, entry {count}: ", place(&self.doc, folder)),
                None => String::new(),
            };
            e.message = format!("plist: {place}{}", e.message);
            e
        })
    }

    /// The end of the container on top of the stack.
    fn end(&mut self) -> Result<(), Error> {
        let dangling = || syntax("a dictionary ends after a key without its value");
        match self.stack.pop().expect("a frame is open") {
            Frame::Node(n) => {
                if n.key.is_some() {
                    return Err(dangling());
                }
                finish(n, &mut self.doc, &mut self.diags);
            }
            Frame::Flat {
                node,
                prefix,
                key,
                count,
            } => {
                if key.is_some() {
                    return Err(dangling());
                }
                // An empty dictionary is still a value: keep it.
                if count == 0 {
                    field(&mut self.stack, node, prefix, Val::Text("{}".into()));
                }
            }
            Frame::Json {
                node,
                name,
                dict,
                key_next,
                ..
            } => {
                if dict && !key_next {
                    return Err(dangling());
                }
                self.json.push(if dict { '}' } else { ']' });
                if let Some(name) = name {
                    let text = std::mem::take(&mut self.json);
                    field(&mut self.stack, node, name, Val::Text(text));
                } else {
                    self.member_done();
                }
            }
            Frame::Children { .. } | Frame::Skip => {}
        }
        Ok(())
    }

    /// A member of the JSON container on top is complete: a dictionary
    /// expects its next key.
    fn member_done(&mut self) {
        if let Some(Frame::Json {
            dict: true,
            key_next,
            ..
        }) = self.stack.last_mut()
        {
            *key_next = true;
        }
    }

    /// A value (not a key, not an end) for the frame on top of the stack.
    fn value(&mut self, event: Event<'static>) {
        let at = self.stack.len() - 1;
        let starts = matches!(event, Event::StartArray(_) | Event::StartDictionary(_));
        let dict = matches!(event, Event::StartDictionary(_));
        let json = |node: usize, name: Option<String>| Frame::Json {
            node,
            name,
            dict,
            key_next: true,
            first: true,
        };
        match &mut self.stack[at] {
            Frame::Node(n) => {
                let key = n.key.take().expect("a key was read");
                if key == CHILDREN && matches!(event, Event::StartArray(_)) {
                    let folder = if n.root {
                        None
                    } else {
                        let parent = n.parent;
                        let doc = &mut self.doc;
                        Some(
                            *n.pushed
                                .get_or_insert_with(|| doc.push(parent, Folder::new())),
                        )
                    };
                    let top = n.root;
                    self.stack.push(Frame::Children {
                        folder,
                        top,
                        count: 0,
                    });
                } else if dict && key.len() <= MAX_PREFIX {
                    self.stack.push(Frame::Flat {
                        node: at,
                        prefix: key,
                        key: None,
                        count: 0,
                    });
                } else if starts {
                    self.json.clear();
                    self.json.push(if dict { '{' } else { '[' });
                    self.stack.push(json(at, Some(key)));
                } else if let Some(v) = scalar(event) {
                    n.fields.push((key, v));
                }
            }
            Frame::Flat {
                node,
                prefix,
                key,
                count,
            } => {
                let node = *node;
                *count += 1;
                let key = key.take().expect("a key was read");
                // Built by hand: format! costs several times more, and every
                // leaf has two such keys.
                let mut name = String::with_capacity(prefix.len() + 1 + key.len());
                name.push_str(prefix);
                name.push('.');
                name.push_str(&key);
                if starts {
                    self.json.clear();
                    self.json.push(if dict { '{' } else { '[' });
                    self.stack.push(json(node, Some(name)));
                } else if let Some(v) = scalar(event) {
                    field(&mut self.stack, node, name, v);
                }
            }
            Frame::Json {
                node,
                dict: in_dict,
                first,
                ..
            } => {
                let node = *node;
                if !*in_dict {
                    if !*first {
                        self.json.push(',');
                    }
                    *first = false;
                }
                if starts {
                    self.json.push(if dict { '{' } else { '[' });
                    self.stack.push(json(node, None));
                } else {
                    json_scalar(event, &mut self.json);
                    self.member_done();
                }
            }
            Frame::Children { folder, top, count } => {
                *count += 1;
                let (parent, top, entry) = (*folder, *top, *count);
                if dict {
                    self.stack.push(Frame::Node(NodeFrame {
                        parent,
                        root: false,
                        top,
                        entry,
                        pushed: None,
                        fields: Vec::new(),
                        key: None,
                    }));
                } else {
                    self.diags.push(Diagnostic::warning(
                        format!(
                            "{}: entry {entry} is not a dictionary (a node); skipped",
                            place(&self.doc, parent)
                        ),
                        None,
                    ));
                    if starts {
                        self.stack.push(Frame::Skip);
                    }
                }
            }
            Frame::Skip => {
                if starts {
                    self.stack.push(Frame::Skip);
                }
            }
        }
    }
}

/// `s` as a JSON string.
fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A scalar as JSON: numbers and booleans as themselves, strings, dates
/// (W3C) and data (base64) as strings.
fn json_scalar(event: Event<'static>, out: &mut String) {
    match event {
        Event::Integer(_) | Event::Boolean(_) => {
            out.push_str(&scalar(event).map(Val::text).unwrap_or_default())
        }
        Event::Real(r) if r.is_finite() => out.push_str(&r.to_string()),
        event => {
            if let Some(v) = scalar(event) {
                json_string(&v.text(), out);
            }
        }
    }
}

/// Record a field of the node whose frame is at `node`.
fn field(stack: &mut [Frame], node: usize, name: String, v: Val) {
    if let Some(Frame::Node(n)) = stack.get_mut(node) {
        n.fields.push((name, v));
    }
}

/// A scalar event as a value; `None` for the start of a container.
fn scalar(event: Event<'static>) -> Option<Val> {
    Some(match event {
        Event::String(s) => Val::Text(s.into_owned()),
        Event::Integer(i) => Val::Other(i.to_string(), "an integer"),
        Event::Real(r) => Val::Other(r.to_string(), "a real"),
        Event::Boolean(b) => Val::Other(b.to_string(), "a boolean"),
        Event::Date(d) => Val::Date(date(d)),
        Event::Data(d) => Val::Other(crate::base64::encode(&d), "data"),
        Event::Uid(u) => Val::Other(format!("UID({})", u.get()), "a UID"),
        _ => return None,
    })
}

/// A plist date (seconds since 2001-01-01 in binary, an ISO 8601 text with
/// any fraction in XML) as an instant to the nanosecond.
fn date(d: plist::Date) -> DateValue {
    let t: SystemTime = d.into();
    let unix = match t.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs())
            .ok()
            .map(|s| (s, after.subsec_nanos())),
        Err(e) => {
            let before = e.duration();
            i64::try_from(before.as_secs()).ok().map(|s| {
                if before.subsec_nanos() == 0 {
                    (-s, 0)
                } else {
                    (-s - 1, 1_000_000_000 - before.subsec_nanos())
                }
            })
        }
    };
    unix.and_then(|(s, n)| Timestamp::from_unix(s, n))
        .map(DateValue::Instant)
        .unwrap_or_else(|| DateValue::Raw(d.to_xml_format().into()))
}

/// Where a node is, for messages: its folder's title and nothing deeper,
/// so that a message costs the same at any depth.
fn place(doc: &Document, parent: Option<NodeId>) -> String {
    match parent {
        None => "the top level".to_string(),
        Some(p) => match doc.node(p).title() {
            Some(t) if !t.is_empty() => format!("folder {t:?}"),
            _ => "an untitled folder".to_string(),
        },
    }
}

/// Where a node is, for messages.
#[derive(Clone, Copy)]
struct At {
    parent: Option<NodeId>,
    entry: usize,
}

impl At {
    fn describe(self, doc: &Document) -> String {
        format!("{}, entry {}", place(doc, self.parent), self.entry)
    }
}

/// Take the field named `name` out of `fields`.
fn take(fields: &mut Vec<(String, Val)>, name: &str) -> Option<Val> {
    let i = fields.iter().position(|(k, _)| k == name)?;
    Some(fields.remove(i).1)
}

/// Take a field that should be a string: a string as itself, another value
/// as its text (with a warning).
fn take_text(
    fields: &mut Vec<(String, Val)>,
    name: &str,
    at: At,
    doc: &Document,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let v = take(fields, name)?;
    let kind = v.kind();
    let text = v.text();
    if kind != "a string" {
        diags.push(Diagnostic::warning(
            format!(
                "{}: {name} is {kind}, not a string; read as its text {}",
                at.describe(doc),
                shown(&text)
            ),
            None,
        ));
    }
    Some(text)
}

/// Take a date field: a date as itself, a string kept as written (with a warning).
fn take_date(
    fields: &mut Vec<(String, Val)>,
    name: &str,
    at: At,
    doc: &Document,
    diags: &mut Vec<Diagnostic>,
) -> Option<DateValue> {
    match take(fields, name)? {
        Val::Date(d) => Some(d),
        Val::Text(t) | Val::Other(t, _) => {
            diags.push(Diagnostic::warning(
                format!(
                    "{}: {name} {t:?} is not a date; kept as written",
                    at.describe(doc)
                ),
                None,
            ));
            Some(DateValue::Raw(t.into()))
        }
    }
}

/// The fields no model field takes, as attributes.
fn extra(fields: Vec<(String, Val)>) -> Vec<Attribute> {
    fields
        .into_iter()
        .map(|(k, v)| Attribute::new(k, v.text()))
        .collect()
}

/// A value for a message: quoted, and cut after 60 characters with the
/// count of what was cut.
fn shown(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!(
            "{:?}... ({} more characters)",
            &text[..cut],
            text[cut..].chars().count()
        ),
    }
}

/// A key a node's dictionary gives more than once keeps its last value,
/// as Python's plistlib reads it; the earlier ones are dropped, each name
/// said once with how many times it was given (the first 20 names).
/// Linear: a map only for a node with many fields.
fn drop_repeated_keys(
    fields: &mut Vec<(String, Val)>,
    place: impl Fn() -> String,
    diags: &mut Vec<Diagnostic>,
) {
    // Most nodes have a handful of fields: compared pairwise, no map.
    let repeated = if fields.len() <= 8 {
        (1..fields.len()).any(|i| fields[..i].iter().any(|(k, _)| *k == fields[i].0))
    } else {
        let mut seen = std::collections::HashSet::new();
        !fields.iter().all(|(k, _)| seen.insert(k.as_str()))
    };
    if !repeated {
        return;
    }
    let mut last: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, (k, _)) in fields.iter().enumerate() {
        last.insert(k.as_str(), i);
    }
    let keep: Vec<bool> = fields
        .iter()
        .enumerate()
        .map(|(i, (k, _))| last.get(k.as_str()) == Some(&i))
        .collect();
    let mut times: Vec<(String, usize)> = Vec::new();
    for (i, (k, _)) in fields.iter().enumerate() {
        if keep[i] {
            continue;
        }
        if let Some((_, n)) = times.iter_mut().find(|(name, _)| name == k) {
            *n += 1;
        } else if times.len() < 20 {
            times.push((k.clone(), 2));
        }
    }
    drop(last);
    let mut i = 0;
    fields.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    let where_ = place();
    for (name, n) in times {
        diags.push(Diagnostic::warning(
            format!(
                "{where_}: key {name} is given {n} times; the last value is kept, \
                 the earlier {} dropped",
                if n == 2 { "one" } else { "ones" }
            ),
            None,
        ));
    }
}

/// Turn a node's dictionary, now complete, into the document's node.
fn finish(mut n: NodeFrame, doc: &mut Document, diags: &mut Vec<Diagnostic>) {
    let parent = n.parent;
    let entry = n.entry;
    let at = At { parent, entry };
    let root = n.root;
    drop_repeated_keys(
        &mut n.fields,
        || {
            if root {
                "the top dictionary".to_string()
            } else {
                at.describe(doc)
            }
        },
        diags,
    );
    let kind = take(&mut n.fields, TYPE).map(Val::text);
    if n.root {
        let title = take(&mut n.fields, TITLE).map(Val::text);
        if let Some(t) = title {
            if t.is_empty() {
                // An empty title is Safari's usual; kept so that nothing is lost.
                n.fields.insert(0, (TITLE.to_string(), Val::Text(t)));
            } else {
                doc.header.title = Some(t);
            }
        }
        if kind.as_deref().is_some_and(|k| k != "WebBookmarkTypeList") {
            diags.push(Diagnostic::warning(
                format!("the top dictionary's WebBookmarkType is {kind:?}, not WebBookmarkTypeList; read as the list"),
                None,
            ));
        }
        doc.header.extra.extend(extra(n.fields));
        return;
    }
    let has_url = n.fields.iter().any(|(k, _)| k == URL);
    match (kind.as_deref(), n.pushed) {
        (Some("WebBookmarkTypeProxy"), None) => {
            let title = take(&mut n.fields, TITLE)
                .map(Val::text)
                .unwrap_or_default();
            diags.push(Diagnostic::note(
                format!(
                    "{}: {title:?} is a WebBookmarkTypeProxy, Safari's link to its own {} view, not a bookmark; skipped",
                    at.describe(doc),
                    if title.is_empty() { "history" } else { &title }
                ),
                None,
            ));
        }
        (Some("WebBookmarkTypeLeaf"), None) => leaf(n, doc, diags, at),
        (None | Some(_), None) if has_url && kind.as_deref() != Some("WebBookmarkTypeList") => {
            diags.push(Diagnostic::warning(
                format!(
                    "{}: WebBookmarkType is {}; read as a bookmark because it has a URLString",
                    at.describe(doc),
                    kind.as_deref()
                        .map_or("missing".to_string(), |k| format!("{k:?}"))
                ),
                None,
            ));
            keep_kind(&mut n.fields, kind);
            leaf(n, doc, diags, at)
        }
        (kind, _) => {
            if kind != Some("WebBookmarkTypeList") {
                diags.push(Diagnostic::warning(
                    format!(
                        "{}: WebBookmarkType is {}; read as a folder",
                        at.describe(doc),
                        kind.map_or("missing".to_string(), |k| format!("{k:?}"))
                    ),
                    None,
                ));
                keep_kind(&mut n.fields, kind.map(str::to_string));
            }
            list(n, doc, diags, at)
        }
    }
}

/// A type that is not the one the node was read as stays in `extra`.
fn keep_kind(fields: &mut Vec<(String, Val)>, kind: Option<String>) {
    if let Some(k) = kind {
        fields.insert(0, (TYPE.to_string(), Val::Text(k)));
    }
}

/// A `WebBookmarkTypeLeaf`: a bookmark.
fn leaf(mut n: NodeFrame, doc: &mut Document, diags: &mut Vec<Diagnostic>, at: At) {
    let href = take_text(&mut n.fields, URL, at, doc, diags).unwrap_or_else(|| {
        diags.push(Diagnostic::warning(
            format!(
                "{}: a leaf without URLString; read with an empty link",
                at.describe(doc)
            ),
            None,
        ));
        String::new()
    });
    let mut b = Bookmark::new(href);
    b.title = take_text(&mut n.fields, TITLE_OF_LEAF, at, doc, diags);
    b.added = take_date(&mut n.fields, ADDED, at, doc, diags);
    b.desc = take_text(&mut n.fields, PREVIEW, at, doc, diags);
    let visited = take_date(&mut n.fields, VISITED, at, doc, diags);
    let guid = take_text(&mut n.fields, UUID, at, doc, diags);
    let rest = extra(n.fields);
    if visited.is_some() || guid.is_some() || !rest.is_empty() {
        let d = b.details_mut();
        d.visited = visited;
        d.guid = guid;
        d.extra = rest;
    }
    doc.push(n.parent, b);
}

/// A `WebBookmarkTypeList`: a folder, with its role at the top level.
fn list(mut n: NodeFrame, doc: &mut Document, diags: &mut Vec<Diagnostic>, at: At) {
    let mut f = Folder::new();
    f.title = take_text(&mut n.fields, TITLE, at, doc, diags);
    f.guid = take_text(&mut n.fields, UUID, at, doc, diags);
    if n.top {
        f.role = match f.title.as_deref() {
            Some("BookmarksBar") => Some(Role::Toolbar),
            Some("BookmarksMenu") => Some(Role::Menu),
            Some(READING_LIST) => Some(Role::ReadingList),
            // A store converted by other tools may rename the Reading List;
            // its CloudKit record name still says what it is.
            _ if n
                .fields
                .iter()
                .any(|(k, v)| k == "Sync.ServerID" && v.as_str() == Some("Reading List")) =>
            {
                Some(Role::ReadingList)
            }
            _ => None,
        };
    }
    f.extra = extra(n.fields);
    match n.pushed {
        Some(id) => {
            if let Some(slot) = doc.node_mut(id).as_folder_mut() {
                *slot = f;
            }
        }
        None => {
            doc.push(n.parent, f);
        }
    }
}
