//! `Bookmarks` JSON to the model, in two streaming passes over the text.
//!
//! A node's `type` comes after its `children` in Chromium's sorted keys, so
//! a reader meeting a node does not know yet what it is. A tree of JSON
//! values would answer that, at 6 times a real file's size in memory and 67
//! times on nested brackets; instead the first pass ([`outline`]) checks the
//! whole text and notes one byte per object (its `type`, and whether it has
//! `url`, `children` or `name`) and where each member of `roots` starts. The
//! second pass reads the nodes straight into the document, going back to
//! each root with [`Parser::value_at`], so the standard roots come first
//! whatever their order in the file. Neither pass recurses.
//!
//! A key given twice in an object counts with its last value, as Chromium's
//! own JSON reader (`base::JSONReader`) keeps it; each repetition is a
//! warning naming the key where it stands.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::HashMap;

use markport_markup::json::{Event, Parser, SyntaxError};
use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, Folder, LineIndex, Node,
    NodeId, Parsed, ReadOptions, Role,
};

use crate::dates;
use crate::json::write_string;
use crate::layout::{Kind, UnsetDates, KEY_ATTR, MAP_ATTR, UNSET_DATES_ATTR};
use crate::rules::{self, has, Ids};

/// The three roots every Chromium has, with the role each plays.
pub const STANDARD_ROOTS: [(&str, Role); 3] = [
    ("bookmark_bar", Role::Toolbar),
    ("other", Role::Unfiled),
    ("synced", Role::Mobile),
];

/// What the first pass notes about an object (one byte each).
mod flag {
    /// Its last `type` is `"url"`.
    pub const URL: u8 = 1;
    /// Its last `type` is `"folder"`.
    pub const FOLDER: u8 = 2;
    /// Its last `type` is something else.
    pub const OTHER: u8 = 4;
    /// Any `type`.
    pub const TYPE: u8 = URL | FOLDER | OTHER;
    /// It has `url`.
    pub const HAS_URL: u8 = 8;
    /// It has `children`.
    pub const HAS_CHILDREN: u8 = 16;
    /// It has `name`.
    pub const HAS_NAME: u8 = 32;
}

/// A member of `roots`: its key, where the key and the value start, and
/// the index (in [`Outline::flags`]) of the first object from its value on.
struct Member<'a> {
    key: Cow<'a, str>,
    key_at: usize,
    value_at: usize,
    object: usize,
}

/// What the first pass learns.
struct Outline<'a> {
    /// Where the top-level object starts.
    top_at: usize,
    /// One entry per object, in the order they open.
    flags: Vec<u8>,
    /// Where the value of the last top-level `roots` starts, and whether it
    /// is an object.
    roots: Option<(usize, bool)>,
    /// The members of that `roots` object, in file order.
    members: Vec<Member<'a>>,
    /// The members of the top-level object, in file order.
    top: Vec<Member<'a>>,
}

fn syntax(e: SyntaxError) -> Error {
    Error::syntax(e.message, e.location).rule(rules::NOT_JSON.id)
}

/// The first pass: the whole text checked, and the outline noted. With
/// `checking`, a syntax error ends the outline where it is, and is
/// returned beside it: the second pass then reads up to the error, so that
/// every rule broken before it is found.
fn outline(input: &[u8], checking: bool) -> Result<(Outline<'_>, Option<Error>), Error> {
    let mut p = Parser::new(input);
    let (top_at, first) = p.next().map_err(syntax)?.unwrap_or((0, Event::Null));
    if first != Event::ObjectStart {
        return Err(
            Error::syntax("a Bookmarks file is a JSON object", p.locate(top_at))
                .rule(rules::STRUCTURE.id),
        );
    }
    let mut o = Outline {
        top_at,
        flags: vec![0],
        roots: None,
        members: Vec::new(),
        top: Vec::new(),
    };
    // The open objects (indices into `flags`), innermost last.
    let mut open: Vec<u32> = vec![0];
    // What the next value is: the `type` of an object, the top-level
    // `roots`, a member of `roots`.
    let mut type_of: Option<u32> = None;
    let mut roots_value = false;
    let mut member_value = false;
    let mut top_value = false;
    let mut roots_object: Option<u32> = None;
    let mut failed = None;
    loop {
        let (at, event) = match p.next() {
            Ok(Some(next)) => next,
            Ok(None) => break,
            Err(e) if checking => {
                failed = Some(syntax(e));
                // A member whose value was not reached is not there.
                if member_value {
                    o.members.pop();
                }
                if top_value {
                    o.top.pop();
                }
                break;
            }
            Err(e) => return Err(syntax(e)),
        };
        if !matches!(event, Event::Key(_) | Event::ObjectEnd | Event::ArrayEnd) {
            let object = o.flags.len();
            if let Some(t) = type_of.take() {
                let f = &mut o.flags[t as usize];
                *f &= !flag::TYPE;
                *f |= match &event {
                    Event::Str(s) if s == "url" => flag::URL,
                    Event::Str(s) if s == "folder" => flag::FOLDER,
                    _ => flag::OTHER,
                };
            }
            if std::mem::take(&mut roots_value) {
                let is_object = event == Event::ObjectStart;
                o.roots = Some((at, is_object));
                o.members.clear();
                roots_object = is_object.then_some(object as u32);
            }
            if std::mem::take(&mut member_value) {
                if let Some(m) = o.members.last_mut() {
                    m.value_at = at;
                    m.object = object;
                }
            }
            if std::mem::take(&mut top_value) {
                if let Some(m) = o.top.last_mut() {
                    m.value_at = at;
                    m.object = object;
                }
            }
        }
        match event {
            Event::ObjectStart => {
                let index = u32::try_from(o.flags.len())
                    .map_err(|_| Error::syntax("too many JSON objects", p.locate(at)))?;
                open.push(index);
                o.flags.push(0);
            }
            Event::ObjectEnd => {
                open.pop();
            }
            Event::Key(key) => {
                let inner = *open.last().expect("a key is inside an object");
                let f = &mut o.flags[inner as usize];
                match &*key {
                    "type" => type_of = Some(inner),
                    "url" => *f |= flag::HAS_URL,
                    "children" => *f |= flag::HAS_CHILDREN,
                    "name" => *f |= flag::HAS_NAME,
                    _ => {}
                }
                if open.len() == 1 {
                    roots_value = key == "roots";
                    top_value = true;
                    o.top.push(Member {
                        key,
                        key_at: at,
                        value_at: 0,
                        object: 0,
                    });
                } else if open.len() == 2 && roots_object == Some(inner) {
                    member_value = true;
                    o.members.push(Member {
                        key,
                        key_at: at,
                        value_at: 0,
                        object: 0,
                    });
                }
            }
            _ => {}
        }
    }
    Ok((o, failed))
}

/// Whether an object's flags make it a node (Vivaldi's `trash`) rather
/// than a map of nodes (Opera's `custom_root`).
fn is_node(f: u8) -> bool {
    f & (flag::TYPE | flag::HAS_URL | flag::HAS_CHILDREN | flag::HAS_NAME) != 0
}

/// A node being read.
struct Open {
    id: NodeId,
    kind: Kind,
    /// What the outline says of its object.
    flags: u8,
    /// Its `children` array is being read.
    in_children: bool,
    /// Which of the keys markport maps were met, a bit each in the order of
    /// [`Reader::member`]'s table (for repeated keys and unset dates).
    seen: u16,
    /// Its `extra` by name, made once it has many (to find a repeated key
    /// in constant time). Boxed: a frame per open node, and deep files
    /// open many, almost none of which has many extras.
    #[allow(clippy::box_collection)]
    extra_names: Option<Box<HashMap<String, usize>>>,
    /// For the rules: where its `{` is, the keys it showed ([`has`]), and
    /// where its last string `type` is.
    at: usize,
    has: u8,
    type_at: Option<usize>,
}

/// Extras per node looked through one by one before a map is made.
const FEW: usize = 16;

struct Reader<'a> {
    input: &'a [u8],
    lines: OnceCell<LineIndex<'a>>,
    flags: Vec<u8>,
    /// The index in `flags` of the next object the parser opens.
    next_object: usize,
    doc: Document,
    diags: Vec<Diagnostic>,
    unset: UnsetDates,
    /// Nodes read from a `children` given again: removed at the end.
    dropped: Vec<NodeId>,
    /// Every id and guid, when the rules are asked for
    /// ([`ReadOptions::checking`](markport_model::ReadOptions)): `None`,
    /// the reader finds no rule and keeps nothing for them.
    checking: Option<Ids<'a>>,
    /// What the document may take: `{"type":"folder","children":[]}` is
    /// a few dozen bytes and a node of a few hundred.
    budget: Budget,
}

/// Read a `Bookmarks` file; with `checking`, find every rule of
/// [`rules::RULES`] it breaks too, each diagnostic tagged with its rule.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let checking = opts.checking;
    match read_with(input, opts) {
        Ok((parsed, _)) => Ok(parsed),
        Err(mut e) if checking && e.rule == Some(rules::NOT_JSON.id) => {
            e.message.push_str("; checking stops here");
            Err(e)
        }
        Err(e) => Err(e),
    }
}

/// Chromium's checksum of a `Bookmarks` file: the sum it stores and the
/// sum of its content as Chromium computes it on load. They differ when the
/// file was changed after Chromium wrote it; Chromium then renumbers ids.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checksum {
    /// The `checksum` member as written (lowercase hex MD5, or empty).
    pub stored: String,
    /// Where the stored sum's string starts (byte offset of its quote).
    pub offset: usize,
    /// Where the stored sum's string starts, as line and column.
    pub location: markport_model::Location,
    /// The MD5 of the content, as Chromium computes it on load.
    pub computed: String,
}

/// Read a `Bookmarks` file, and its checksum when it stores one.
pub fn read_summed(input: &[u8]) -> Result<(Parsed, Option<Checksum>), Error> {
    read_with(input, &ReadOptions::default())
}

fn read_with(input: &[u8], opts: &ReadOptions) -> Result<(Parsed, Option<Checksum>), Error> {
    let checking = opts.checking;
    if let Err(e) = std::str::from_utf8(input) {
        return Err(Error::syntax(
            "not UTF-8 (Chromium writes its Bookmarks file in UTF-8)",
            LineIndex::new(input).locate(e.valid_up_to()),
        )
        .rule(rules::NOT_JSON.id));
    }
    let (
        Outline {
            top_at,
            flags,
            roots,
            members,
            top,
        },
        failed,
    ) = outline(input, checking)?;
    let mut r = Reader {
        input,
        lines: OnceCell::new(),
        flags,
        next_object: 0,
        doc: Document::new(),
        diags: Vec::new(),
        unset: UnsetDates::default(),
        dropped: Vec::new(),
        checking: checking.then(Ids::default),
        budget: Budget::new(opts, input.len()),
    };
    let read = r.body(&top, roots, &members, top_at);
    if let Some(ids) = r.checking.take() {
        // Found on the way to an error too: check lists every rule broken
        // before it.
        let lines = r.lines.get_or_init(|| LineIndex::new(input));
        ids.finish(&mut r.diags, lines);
    }
    // The first pass's syntax error is the first in the file: the second
    // pass meets it too, or stops short of it for want of what lies beyond
    // (no `roots` yet).
    let read = match failed {
        Some(e) => Err(e),
        None => read,
    };
    let checksum = match read {
        Ok(checksum) => checksum,
        Err(e) if checking => return Err(e.with_found(r.diags)),
        Err(e) => return Err(e),
    };
    if checking {
        // Chromium's load needs these two (`BookmarkCodec::DecodeNode`).
        let roots_at = roots.map_or(top_at, |(at, _)| at);
        for root in ["bookmark_bar", "other"] {
            if !members.iter().any(|m| m.key == root) {
                r.found(
                    &rules::MISSING_ROOT,
                    roots_at,
                    format!("`roots` has no `{root}`; Chromium cannot load the file without it"),
                );
            }
        }
    }
    if !r.dropped.is_empty() {
        let mut gone = vec![false; r.doc.len()];
        for id in std::mem::take(&mut r.dropped) {
            gone[id.index()] = true;
        }
        r.doc.retain(|_, id| !gone[id.index()]);
    }
    let checksum = checksum.map(|(sum, offset)| Checksum {
        stored: sum.into_owned(),
        offset,
        location: r.locate(offset),
        computed: content_checksum(&r.doc),
    });
    if let Some(sum) = checksum.as_ref().filter(|s| !s.stored.is_empty()) {
        if sum.stored != sum.computed {
            r.diags.push(
                Diagnostic::warning(
                    format!(
                        "checksum {} does not match the file's content ({}): \
                     it was changed after Chromium wrote it; read as it is",
                        sum.stored, sum.computed
                    ),
                    Some(sum.location),
                )
                .rule(rules::CHECKSUM.id),
            );
        }
    }
    let policy = r.unset.policy();
    if policy != UnsetDates::DEFAULT {
        r.doc
            .header
            .extra
            .push(Attribute::new(UNSET_DATES_ATTR, policy));
    }
    Ok((Parsed::new(r.doc, r.diags), checksum))
}

impl<'a> Reader<'a> {
    /// The second pass: the top-level members, then the roots. Returns the
    /// stored checksum and where it stands.
    fn body(
        &mut self,
        top: &[Member<'a>],
        roots: Option<(usize, bool)>,
        members: &[Member<'a>],
        top_at: usize,
    ) -> Result<Option<(Cow<'a, str>, usize)>, Error> {
        let checksum = self.top(top)?;
        let Some((roots_at, is_object)) = roots else {
            let message = match self.checking {
                Some(_) => "the file has no `roots` object",
                None => "no `roots` object: not a Chromium Bookmarks file",
            };
            return Err(self.error(top_at, message).rule(rules::MISSING_ROOT.id));
        };
        if !is_object {
            if self.checking.is_none() {
                return Err(self.error(roots_at, "`roots` must be an object"));
            }
            self.found(&rules::STRUCTURE, roots_at, "`roots` must be an object");
            return Err(self
                .error(top_at, "the file has no `roots` object")
                .rule(rules::MISSING_ROOT.id));
        }
        self.roots(members)?;
        Ok(checksum)
    }

    /// `rule` broken at byte `at` (only asked when checking).
    fn found(&mut self, rule: &markport_model::rule::Rule, at: usize, message: impl Into<String>) {
        let input = self.input;
        let lines = self.lines.get_or_init(|| LineIndex::new(input));
        rules::found(&mut self.diags, lines, rule, at, message);
    }

    fn locate(&self, at: usize) -> markport_model::Location {
        self.lines
            .get_or_init(|| LineIndex::new(self.input))
            .locate(at)
    }

    fn error(&self, at: usize, message: impl Into<String>) -> Error {
        Error::syntax(message, self.locate(at))
    }

    fn repeated(&mut self, key: &str, at: usize) {
        let at = self.locate(at);
        self.diags.push(Diagnostic::warning(
            format!("`{key}` is given again: the last value counts, as Chromium reads it"),
            Some(at),
        ));
    }

    /// The next event (the text is checked: it is there), counting objects.
    fn next(&mut self, p: &mut Parser<'a>) -> Result<(usize, Event<'a>), Error> {
        if let Err(mut e) = self.budget.keep_up(&self.doc, &self.diags) {
            let input = self.input;
            e.location = Some(
                self.lines
                    .get_or_init(|| LineIndex::new(input))
                    .locate(p.pos()),
            );
            return Err(e);
        }
        let (at, event) = p.next().map_err(syntax)?.unwrap_or((p.pos(), Event::Null));
        if event == Event::ObjectStart {
            self.next_object += 1;
        }
        Ok((at, event))
    }

    /// The rest of the value whose first event is `first`, as compact JSON
    /// (Chromium's escaping), for values kept as text: a string as itself.
    fn text(&mut self, p: &mut Parser<'a>, first: Event<'a>) -> Result<String, Error> {
        let mut out = String::new();
        if let Event::Str(s) = first {
            return Ok(s.into_owned());
        }
        let base = p.depth() - usize::from(matches!(first, Event::ObjectStart | Event::ArrayStart));
        let mut event = first;
        let mut comma = false;
        loop {
            if comma && !matches!(event, Event::ObjectEnd | Event::ArrayEnd) {
                out.push(',');
            }
            comma = true;
            match event {
                Event::ObjectStart => {
                    out.push('{');
                    comma = false;
                }
                Event::ArrayStart => {
                    out.push('[');
                    comma = false;
                }
                Event::ObjectEnd => out.push('}'),
                Event::ArrayEnd => out.push(']'),
                Event::Key(k) => {
                    write_string(&k, &mut out);
                    out.push(':');
                    comma = false;
                }
                Event::Str(s) => write_string(&s, &mut out),
                Event::Num(n) => out.push_str(n),
                Event::Bool(b) => out.push_str(if b { "true" } else { "false" }),
                Event::Null => out.push_str("null"),
            }
            if p.depth() == base {
                return Ok(out);
            }
            event = self.next(p)?.1;
        }
    }

    /// The top-level object's own members (`roots` is read by
    /// [`Reader::roots`]). Returns the stored checksum and where it stands.
    fn top(&mut self, members: &[Member<'a>]) -> Result<Option<(Cow<'a, str>, usize)>, Error> {
        let mut checksum = None;
        // Each key met, with its place in `extra` when it went there.
        let mut seen: HashMap<&str, Option<usize>> = HashMap::new();
        let mut extra: Vec<Option<Attribute>> = Vec::new();
        for m in members {
            let key = &*m.key;
            if let Some(earlier) = seen.get(key) {
                if let Some(i) = *earlier {
                    extra[i] = None;
                }
                self.repeated(key, m.key_at);
            }
            let place = match key {
                "roots" => None,
                "checksum" => {
                    checksum = match self.open(m)? {
                        (_, at, Event::Str(s)) => Some((s, at)),
                        _ => None,
                    };
                    None
                }
                _ => {
                    let (mut p, _, value) = self.open(m)?;
                    if key == "version" && value == Event::Num("1") {
                        None
                    } else {
                        let text = self.text(&mut p, value)?;
                        extra.push(Some(Attribute::new(key, text)));
                        Some(extra.len() - 1)
                    }
                }
            };
            seen.insert(key, place);
        }
        self.doc.header.extra.extend(extra.into_iter().flatten());
        Ok(checksum)
    }

    /// The members of `roots`: the standard three first, then the others
    /// in file order; of a key given twice, the last.
    fn roots(&mut self, members: &[Member<'a>]) -> Result<(), Error> {
        let mut last: HashMap<&str, usize> = HashMap::new();
        for (i, m) in members.iter().enumerate() {
            if last.insert(&m.key, i).is_some() {
                self.repeated(&m.key, m.key_at);
            }
        }
        for (name, role) in STANDARD_ROOTS {
            let Some(&i) = last.get(name) else { continue };
            let m = &members[i];
            let (mut p, at, first) = self.open(m)?;
            if first != Event::ObjectStart {
                let message = format!("`roots.{name}` must be an object");
                if self.checking.is_none() {
                    return Err(self.error(at, message));
                }
                self.found(&rules::STRUCTURE, at, message);
                continue;
            }
            self.tree(&mut p, at, None, Some(role), None)?;
        }
        for (i, m) in members.iter().enumerate() {
            if last.get(&*m.key) != Some(&i) || STANDARD_ROOTS.iter().any(|(n, _)| *n == m.key) {
                continue;
            }
            let key = &*m.key;
            let (mut p, at, first) = self.open(m)?;
            match first {
                Event::ObjectStart if is_node(self.flags[m.object]) => {
                    let loc = self.locate(at);
                    self.diags.push(Diagnostic::note(
                        format!("root `{key}` (Vivaldi, Opera) read as a folder"),
                        Some(loc),
                    ));
                    self.tree(&mut p, at, None, None, Some(key))?;
                }
                Event::ObjectStart => {
                    let loc = self.locate(at);
                    self.diags.push(Diagnostic::note(
                        format!("root `{key}` (Opera) read as a folder of its members' folders"),
                        Some(loc),
                    ));
                    self.map(&mut p, key)?;
                }
                other => {
                    let value = self.text(&mut p, other)?;
                    self.doc
                        .header
                        .extra
                        .push(Attribute::new(format!("roots.{key}"), value));
                }
            }
        }
        Ok(())
    }

    /// A parser at the value of `m`, and that value's first event.
    fn open(&mut self, m: &Member<'a>) -> Result<(Parser<'a>, usize, Event<'a>), Error> {
        let mut p = Parser::value_at(self.input, m.value_at);
        self.next_object = m.object;
        let (at, first) = self.next(&mut p)?;
        Ok((p, at, first))
    }

    /// Opera's `custom_root`, whose `{` was just read: a folder of its
    /// members' folders; a member that is not an object is the folder's
    /// `extra`.
    fn map(&mut self, p: &mut Parser<'a>, key: &str) -> Result<(), Error> {
        let mut folder = Folder::new();
        folder.extra.push(Attribute::new(MAP_ATTR, key));
        let id = self.doc.push(None, folder);
        let mut extra: Vec<Option<Attribute>> = Vec::new();
        let mut seen: HashMap<Cow<'a, str>, Result<NodeId, usize>> = HashMap::new();
        while let (kat, Event::Key(k)) = self.next(p)? {
            let (vat, value) = self.next(p)?;
            match seen.get(&k) {
                Some(Ok(node)) => self.dropped.push(*node),
                Some(Err(i)) => extra[*i] = None,
                None => {}
            }
            if seen.contains_key(&k) {
                self.repeated(&k, kat);
            }
            let place = if value == Event::ObjectStart {
                Ok(self.tree(p, vat, Some(id), None, Some(&k))?)
            } else {
                let text = self.text(p, value)?;
                extra.push(Some(Attribute::new(k.as_ref(), text)));
                Err(extra.len() - 1)
            };
            seen.insert(k, place);
        }
        if let Node::Folder(f) = self.doc.node_mut(id) {
            f.extra.extend(extra.into_iter().flatten());
        }
        Ok(())
    }

    /// Read the node whose `{` (at `at`) was just read and everything under
    /// it, with an explicit stack; returns its id.
    fn tree(
        &mut self,
        p: &mut Parser<'a>,
        at: usize,
        parent: Option<NodeId>,
        role: Option<Role>,
        key: Option<&str>,
    ) -> Result<NodeId, Error> {
        let top = self.start(at, parent, role, key)?;
        let id = top.id;
        let mut stack = vec![top];
        while let Some(open) = stack.last_mut() {
            let (at, event) = self.next(p)?;
            if open.in_children {
                match event {
                    Event::ArrayEnd => open.in_children = false,
                    Event::ObjectStart => {
                        let parent = open.id;
                        let child = self.start(at, Some(parent), None, None)?;
                        stack.push(child);
                    }
                    _ if self.checking.is_some() => {
                        self.text(p, event)?;
                        let message = "a member of `children` must be a node object";
                        self.found(&rules::STRUCTURE, at, message);
                    }
                    _ => return Err(self.error(at, "a bookmark node must be an object")),
                }
                continue;
            }
            match event {
                Event::Key(k) => {
                    let (vat, value) = self.next(p)?;
                    self.member(p, open, k, at, vat, value)?;
                }
                _ => {
                    // `}`: the parser allows nothing else here.
                    for slot in 0..3 {
                        if open.seen & (1 << (7 + slot)) == 0 {
                            self.unset.saw(open.kind, slot, false);
                        }
                    }
                    let (node_at, has, type_at) = (open.at, open.has, open.type_at);
                    stack.pop();
                    if self.checking.is_some() {
                        self.end_node(node_at, has, type_at);
                    }
                }
            }
        }
        Ok(id)
    }

    /// The rules of a node at its `}` (`at` is where its `{` is, `type_at`
    /// where its last string `type` is).
    fn end_node(&mut self, at: usize, has: u8, type_at: Option<usize>) {
        let input = self.input;
        let kind = type_at.and_then(|t| match Parser::value_at(input, t).next() {
            Ok(Some((_, Event::Str(s)))) => Some((s, t)),
            _ => None,
        });
        let lines = self.lines.get_or_init(|| LineIndex::new(input));
        let kind = kind.as_ref().map(|(s, t)| (&**s, *t));
        rules::end_node(&mut self.diags, lines, at, has, kind);
    }

    /// A node whose `{` is at `at`: its kind from the outline, pushed.
    fn start(
        &mut self,
        at: usize,
        parent: Option<NodeId>,
        role: Option<Role>,
        key: Option<&str>,
    ) -> Result<Open, Error> {
        let f = self.flags[self.next_object - 1];
        let kind = if f & flag::URL != 0 || (f & flag::TYPE == 0 && f & flag::HAS_URL != 0) {
            Kind::Url
        } else {
            // A `type` that is neither is refused where it stands.
            Kind::Folder
        };
        // Checking, the node's end says which keys it lacks.
        if kind == Kind::Url && f & flag::HAS_URL == 0 && self.checking.is_none() {
            return Err(self.error(at, "a url node without `url`"));
        }
        let key = key.map(|k| Attribute::new(KEY_ATTR, k));
        let id = match kind {
            Kind::Url => {
                let mut b = Bookmark::new("");
                if let Some(k) = key {
                    b.details_mut().extra.push(k);
                }
                self.doc.push(parent, b)
            }
            Kind::Folder => {
                let mut folder = Folder::new();
                folder.role = role;
                folder.extra.extend(key);
                self.doc.push(parent, folder)
            }
        };
        Ok(Open {
            id,
            kind,
            flags: f,
            in_children: false,
            seen: 0,
            extra_names: None,
            at,
            has: 0,
            type_at: None,
        })
    }

    /// The node's `extra`.
    fn extra(&mut self, id: NodeId) -> &mut Vec<Attribute> {
        match self.doc.node_mut(id) {
            Node::Bookmark(b) => &mut b.details_mut().extra,
            Node::Folder(f) => &mut f.extra,
            _ => unreachable!("the reader makes bookmarks and folders"),
        }
    }

    fn string(&self, value: Event<'a>, at: usize, key: &str) -> Result<Cow<'a, str>, Error> {
        match value {
            Event::Str(s) => Ok(s),
            _ => Err(self.error(at, format!("`{key}` must be a string"))),
        }
    }

    /// One member `k` (at `kat`) of the node `open`, whose value starts
    /// with `value` (at `vat`).
    fn member(
        &mut self,
        p: &mut Parser<'a>,
        open: &mut Open,
        k: Cow<'a, str>,
        kat: usize,
        vat: usize,
        value: Event<'a>,
    ) -> Result<(), Error> {
        let (id, kind) = (open.id, open.kind);
        let known = match &*k {
            "type" => Some(0),
            "name" => Some(1),
            "url" => Some(2),
            "children" => Some(3),
            "id" => Some(4),
            "guid" => Some(5),
            "meta_info" => Some(6),
            "date_added" => Some(7),
            "date_modified" => Some(8),
            "date_last_used" => Some(9),
            _ => None,
        }
        .filter(|&i| {
            // `url` of a folder and `children` of a url are extras.
            !(i == 2 && kind == Kind::Folder || i == 3 && kind == Kind::Url)
        });
        if let Some(i) = known {
            if open.seen & (1 << i) != 0 {
                self.repeated(&k, kat);
                if i == 3 {
                    // The earlier `children` are not what Chromium reads.
                    let earlier = self.doc.children(Some(id)).to_vec();
                    self.dropped.extend(earlier);
                }
            }
            open.seen |= 1 << i;
        }
        if self.checking.is_some() && self.rules_of_member(p, open, &k, kat, vat, &value)? {
            return Ok(());
        }
        match (known, value) {
            (Some(0), value) => {
                let bad = !matches!(&value, Event::Str(s) if s == "url" || s == "folder");
                self.text(p, value)?;
                if bad && open.flags & flag::OTHER != 0 && self.checking.is_none() {
                    return Err(self.error(vat, "`type` must be \"url\" or \"folder\""));
                }
            }
            (Some(1), value) => {
                let s = self.string(value, vat, &k)?;
                let title = (!s.is_empty()).then(|| s.into_owned());
                match self.doc.node_mut(id) {
                    Node::Bookmark(b) => b.title = title,
                    Node::Folder(f) => f.title = title,
                    _ => {}
                }
            }
            (Some(2), value) => {
                let s = self.string(value, vat, &k)?;
                if let Node::Bookmark(b) = self.doc.node_mut(id) {
                    b.href = s.into_owned();
                }
            }
            (Some(3), Event::ArrayStart) => open.in_children = true,
            (Some(3), _) => return Err(self.error(vat, "`children` must be an array")),
            (Some(i @ (4 | 5)), value) => {
                let s = Some(self.string(value, vat, &k)?.into_owned());
                match (i, self.doc.node_mut(id)) {
                    (4, Node::Bookmark(b)) => b.details_mut().id = s,
                    (4, Node::Folder(f)) => f.id = s,
                    (_, Node::Bookmark(b)) => b.details_mut().guid = s,
                    (_, Node::Folder(f)) => f.guid = s,
                    _ => {}
                }
            }
            (Some(6), Event::ObjectStart) => {
                let attrs = self.meta_info(p)?;
                match self.doc.node_mut(id) {
                    Node::Bookmark(b) => b.details_mut().meta_info = attrs,
                    Node::Folder(f) => f.meta_info = attrs,
                    _ => {}
                }
            }
            (Some(i @ 7..=9), value) => {
                let slot = i - 7;
                let text = self.string(value, vat, &k)?;
                let date = dates::parse(&text);
                if let Some(DateValue::Raw(_)) = date {
                    let loc = self.locate(vat);
                    self.diags.push(Diagnostic::warning(
                        format!("`{k}` is not a number of microseconds: kept as written"),
                        Some(loc),
                    ));
                }
                if date.is_none() {
                    self.unset.saw(kind, slot, true);
                    return Ok(());
                }
                match (slot, self.doc.node_mut(id)) {
                    (0, Node::Bookmark(b)) => b.added = date,
                    (0, Node::Folder(f)) => f.added = date,
                    (1, Node::Bookmark(b)) => b.modified = date,
                    (1, Node::Folder(f)) => f.modified = date,
                    (_, Node::Bookmark(b)) => b.details_mut().visited = date,
                    _ => {
                        let attr = Attribute::new(k.as_ref(), text);
                        self.extra(id).push(attr);
                    }
                }
            }
            (_, value) => {
                let text = self.text(p, value)?;
                let extra = self.extra(id);
                let earlier = match &open.extra_names {
                    Some(names) => names.get(k.as_ref()).copied(),
                    None => extra.iter().position(|a| a.name == *k),
                };
                match earlier {
                    Some(i) => {
                        extra[i].value = text;
                        self.repeated(&k, kat);
                    }
                    None => {
                        extra.push(Attribute::new(k.as_ref(), text));
                        let n = extra.len();
                        if let Some(names) = &mut open.extra_names {
                            names.insert(k.into_owned(), n - 1);
                        } else if n > FEW {
                            let names = extra
                                .iter()
                                .enumerate()
                                .map(|(i, a)| (a.name.clone(), i))
                                .collect();
                            open.extra_names = Some(Box::new(names));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The rules of one member `k` (at `kat`) of the node `open`, whose
    /// value starts with `value` (at `vat`), when checking. Returns whether
    /// the value was of a kind the reader cannot take, and is read past.
    fn rules_of_member(
        &mut self,
        p: &mut Parser<'a>,
        open: &mut Open,
        k: &str,
        kat: usize,
        vat: usize,
        value: &Event<'a>,
    ) -> Result<bool, Error> {
        let text = match value {
            Event::Str(s) => Some(s),
            _ => None,
        };
        match (k, text) {
            ("name", Some(_)) => open.has |= has::NAME,
            ("url", Some(_)) => open.has |= has::URL,
            ("type", Some(_)) => open.type_at = Some(vat),
            ("id", Some(id)) => {
                open.has |= has::ID;
                let id = id.clone();
                if let Some(ids) = &mut self.checking {
                    ids.ids.push((id, vat));
                }
            }
            ("guid", Some(guid)) => {
                let guid = guid.clone();
                if let Some(ids) = &mut self.checking {
                    ids.guids.push((guid, vat));
                }
            }
            ("children", _) if *value == Event::ArrayStart => open.has |= has::CHILDREN,
            ("children", _) => {
                self.text(p, value.clone())?;
                self.found(&rules::STRUCTURE, vat, "`children` must be an array");
                return Ok(true);
            }
            ("name" | "url" | "type" | "id" | "guid", None) => {
                self.text(p, value.clone())?;
                let message = format!("`{k}` must be a string");
                self.found(&rules::MISSING_KEY, kat, message);
                return Ok(true);
            }
            ("date_added" | "date_modified" | "date_last_used", text)
                if !text.is_some_and(|t| rules::is_integer(t)) =>
            {
                let end = match text {
                    Some(_) => p.pos(),
                    None => {
                        self.text(p, value.clone())?;
                        p.pos()
                    }
                };
                let written = String::from_utf8_lossy(&self.input[vat..end]);
                let message = format!(
                    "{k} is {written}, not a string of an integer (microseconds since 1601)"
                );
                self.found(&rules::BAD_DATE, vat, message);
                // A string is still a date as the reader takes it.
                return Ok(text.is_none());
            }
            _ => {}
        }
        Ok(false)
    }

    /// `meta_info`, whose `{` was just read: each member as an attribute,
    /// a value that is not a string as its JSON.
    fn meta_info(&mut self, p: &mut Parser<'a>) -> Result<Vec<Attribute>, Error> {
        let mut attrs: Vec<Attribute> = Vec::new();
        // A repeated key is looked for in the list while it is short (most
        // nodes have one or two), in a map once it is long.
        let mut names: Option<HashMap<Cow<'a, str>, usize>> = None;
        while let (kat, Event::Key(k)) = self.next(p)? {
            let value = self.next(p)?.1;
            let text = self.text(p, value)?;
            let earlier = match &names {
                Some(names) => names.get(&k).copied(),
                None => attrs.iter().position(|a| a.name == *k),
            };
            match earlier {
                Some(i) => {
                    attrs[i].value = text;
                    self.repeated(&k, kat);
                }
                None => {
                    attrs.push(Attribute::new(k.as_ref(), text));
                    let n = attrs.len();
                    if let Some(names) = &mut names {
                        names.insert(k, n - 1);
                    } else if n > FEW {
                        let map = attrs.iter().enumerate();
                        names = Some(map.map(|(i, a)| (Cow::Owned(a.name.clone()), i)).collect());
                    }
                }
            }
        }
        // A vector's first push makes room for four; every bookmark of a
        // Chromium profile has a `meta_info` of one or two keys.
        attrs.shrink_to_fit();
        Ok(attrs)
    }
}

/// The checksum Chromium would compute for the file as read: each node of
/// `bookmark_bar`, `other`, `synced`, then the other roots (Opera's
/// `custom_root` members in key order), by `crate::md5::Md5::node`, as the
/// writer feeds it. The document's top level is in that order.
fn content_checksum(doc: &Document) -> String {
    let mut md5 = crate::md5::Md5::default();
    let key = |extra: &[Attribute]| {
        extra
            .iter()
            .find(|a| a.name == KEY_ATTR)
            .map(|a| a.value.clone())
    };
    let mut tops: Vec<NodeId> = Vec::new();
    for &top in doc.children(None) {
        match doc.node(top) {
            Node::Folder(f) if f.extra.iter().any(|a| a.name == MAP_ATTR) => {
                let mut named: Vec<(String, NodeId)> = doc
                    .children(Some(top))
                    .iter()
                    .filter_map(|&c| match doc.node(c) {
                        Node::Folder(cf) => key(&cf.extra).map(|k| (k, c)),
                        Node::Bookmark(b) => key(&b.details().extra).map(|k| (k, c)),
                        _ => None,
                    })
                    .collect();
                named.sort();
                tops.extend(named.into_iter().map(|(_, c)| c));
            }
            _ => tops.push(top),
        }
    }
    // Depth-first in document order, with an explicit stack of pending nodes.
    let mut pending: Vec<NodeId> = tops.into_iter().rev().collect();
    while let Some(id) = pending.pop() {
        match doc.node(id) {
            Node::Bookmark(b) => md5.node(
                b.details().id.as_deref().unwrap_or(""),
                b.title.as_deref().unwrap_or(""),
                Some(&b.href),
            ),
            Node::Folder(f) => {
                md5.node(
                    f.id.as_deref().unwrap_or(""),
                    f.title.as_deref().unwrap_or(""),
                    None,
                );
                pending.extend(doc.children(Some(id)).iter().rev().copied());
            }
            _ => {}
        }
    }
    md5.hex()
}
