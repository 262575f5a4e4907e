//! Reading a Firefox backup: the JSON tree, walked with an explicit stack.

use std::collections::{HashMap, HashSet};

use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Folder,
    LineIndex, Node, NodeId, Parsed, ReadOptions, Role, Separator, Timestamp,
};

use crate::rules::{self, Checker, Out, Seen};
use crate::{ANNO_DESCRIPTION, ANNO_FEED, ANNO_SITE};
use markport_markup::json::{Event, Options, Parser, SyntaxError};

/// What one item of the tree says, gathered as its members are read.
#[derive(Default)]
struct Item {
    guid: Option<String>,
    title: Option<String>,
    added: Option<DateValue>,
    modified: Option<DateValue>,
    id: Option<String>,
    type_code: Option<String>,
    kind: Option<String>,
    root: Option<String>,
    uri: Option<String>,
    icon_uri: Option<String>,
    tags: Option<String>,
    keyword: Option<String>,
    post_data: Option<String>,
    charset: Option<String>,
    livemark: bool,
    annos: Vec<Attribute>,
    extra: Vec<Attribute>,
    /// Where its `{` and its guid, root, type and typeCode values stand,
    /// for the rules (offsets, set whatever `checking` says: no cost).
    at: usize,
    guid_at: usize,
    root_at: usize,
    kind_at: usize,
    code_at: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Items become nodes under `parent`.
    Tree,
    /// The tags root: its folders are tags.
    TagsRoot,
    /// A tag's folder: its bookmarks' links carry the tag.
    Tag,
    /// A bookmark in a tag's folder: its link.
    TagEntry,
    /// Below a livemark or a tag: read past.
    Skip,
}

struct Frame {
    item: Item,
    mode: Mode,
    /// The folder this item's node goes into (`None`: the top level).
    parent: Option<NodeId>,
    /// The node, once made (a folder is made when its children start).
    node: Option<NodeId>,
    /// Inside the `children` array.
    in_children: bool,
    /// The top-level item, the placesRoot.
    is_root: bool,
    /// For a tag folder: the links it tags.
    tagged: Vec<String>,
    /// A livemark's items: read past.
    skip_children: bool,
    /// The `root` names of its children, when checking (for the places
    /// root's rules).
    child_roots: Vec<String>,
}

struct Reader<'a> {
    input: &'a [u8],
    p: Parser<'a>,
    doc: Document,
    diags: Vec<Diagnostic>,
    lines: LineIndex<'a>,
    /// (tag, links) from the tags root.
    tags: Vec<(String, Vec<String>)>,
    livemarks: usize,
    /// Where the text came from, for messages: "" or " (decompressed)".
    within: &'static str,
    /// The rules' state, when asked to find them
    /// ([`ReadOptions::checking`](markport_model::ReadOptions)).
    checker: Option<Checker>,
    /// What the document may take: `{"type":"text/x-moz-place-separator"}`
    /// is a few dozen bytes and a node of a few hundred, and a tag of the
    /// tags root is copied onto every bookmark of its link.
    budget: Budget,
}

/// Read the JSON `text` of a backup; with `checking`, find every rule of
/// [`rules::RULES`] it breaks too, each diagnostic tagged with its rule.
pub(crate) fn read(text: &[u8], within: &'static str, opts: &ReadOptions) -> Result<Parsed, Error> {
    let checking = opts.checking;
    let mut r = Reader {
        input: text,
        p: Parser::with_options(
            text,
            Options {
                trailing_commas: true,
            },
        ),
        doc: Document::new(),
        diags: Vec::new(),
        lines: LineIndex::new(text),
        tags: Vec::new(),
        livemarks: 0,
        within,
        checker: checking.then(Checker::default),
        budget: Budget::new(opts, text.len()),
    };
    if let Err(e) = r.tree() {
        // What was found before the error is kept for check, which lists
        // every rule broken up to it.
        return Err(match r.checker {
            Some(_) => e.with_found(r.diags),
            None => e,
        });
    }
    for &at in r.p.trailing_commas() {
        let loc = r.lines.locate(at);
        let message = if checking {
            "a comma before a closing bracket (Firefox 3.x wrote them): today's Firefox refuses to restore the file".to_owned()
        } else {
            format!("a comma before a closing bracket{within} (the Firefox 3.x backup bug): read past it")
        };
        r.diags
            .push(Diagnostic::warning(message, Some(loc)).rule(rules::TRAILING_COMMA.id));
    }
    for &at in r.p.lone_surrogates() {
        let loc = r.lines.locate(at);
        r.diags.push(Diagnostic::warning(
            format!("half a surrogate pair{within}: read as U+FFFD"),
            Some(loc),
        ));
    }
    if r.livemarks > 0 {
        r.diags.push(Diagnostic::note(
            format!(
                "{} livemark(s) read as bookmarks of their site with their feed (feed_url); their items are not kept",
                r.livemarks
            ),
            None,
        ));
    }
    r.apply_tags()?;
    Ok(Parsed::new(r.doc, r.diags))
}

impl<'a> Reader<'a> {
    fn syntax(&self, e: SyntaxError) -> Error {
        Error::syntax(
            format!("Firefox backup{}: {}", self.within, e.message),
            self.lines.locate(e.offset),
        )
        .rule(rules::NOT_JSON.id)
    }

    /// Where the rules' findings go.
    fn out(&mut self) -> Out<'_, 'a> {
        Out {
            lines: &self.lines,
            diags: &mut self.diags,
        }
    }

    /// With `checking`, the rule `rule` broken at `at`, and the value whose
    /// first event `first` (at `at`) was just read skipped; without, the
    /// reader's error `error`.
    #[cold]
    fn wrong_kind(
        &mut self,
        at: usize,
        first: &Event<'a>,
        rule: &markport_model::rule::Rule,
        message: &str,
        error: &str,
    ) -> Result<(), Error> {
        if self.checker.is_none() {
            return Err(self.invalid(at, error));
        }
        self.out().at(rule, at, message);
        let skipped = self.p.skip_value(at, first);
        skipped.map(|_| ()).map_err(|e| self.syntax(e))
    }

    /// The next event; the reader only asks inside the top-level object,
    /// where the parser reports a cut file itself, so the end is an error.
    fn next(&mut self) -> Result<(usize, Event<'a>), Error> {
        if let Err(mut e) = self.budget.keep_up(&self.doc, &self.diags) {
            e.location = Some(self.lines.locate(self.p.pos()));
            return Err(e);
        }
        match self.p.next() {
            Ok(Some(e)) => Ok(e),
            Ok(None) => Err(Error::syntax(
                format!("Firefox backup{}: the JSON ends too early", self.within),
                self.lines.locate(self.p.pos()),
            )
            .rule(rules::NOT_JSON.id)),
            Err(e) => Err(self.syntax(e)),
        }
    }

    fn invalid(&self, at: usize, message: &str) -> Error {
        Error::new(
            ErrorKind::Invalid,
            format!("Firefox backup{}: {message}", self.within),
            Some(self.lines.locate(at)),
        )
    }

    /// A value's text: strings as they are, anything else as its JSON text.
    fn value(&mut self) -> Result<(usize, Option<String>), Error> {
        let (at, ev) = self.next()?;
        let text = match ev {
            Event::Null => None,
            Event::Str(s) => Some(s.into_owned()),
            Event::Num(n) => Some(n.to_owned()),
            Event::Bool(b) => Some(b.to_string()),
            Event::Key(_) => unreachable!("a value follows a member name"),
            first => Some(
                self.p
                    .skip_value(at, &first)
                    .map_err(|e| self.syntax(e))?
                    .to_owned(),
            ),
        };
        Ok((at, text))
    }

    fn tree(&mut self) -> Result<(), Error> {
        let (at, first) = self.next()?;
        if first != Event::ObjectStart {
            let message = match self.checker {
                Some(_) => "a backup is one JSON object, the places root",
                None => "not a Firefox bookmark backup: it is not a JSON object",
            };
            return Err(
                Error::new(ErrorKind::WrongFormat, message, Some(self.lines.locate(at)))
                    .rule(rules::STRUCTURE.id),
            );
        }
        let mut stack = vec![Frame {
            item: Item {
                at,
                ..Item::default()
            },
            mode: Mode::Tree,
            parent: None,
            node: None,
            in_children: false,
            is_root: true,
            tagged: Vec::new(),
            skip_children: false,
            child_roots: Vec::new(),
        }];
        while let Some(top) = stack.last_mut() {
            if top.in_children {
                let (at, ev) = self.next()?;
                match ev {
                    Event::ArrayEnd => top.in_children = false,
                    Event::ObjectStart => {
                        let (mode, parent) = match top.mode {
                            _ if top.skip_children => (Mode::Skip, None),
                            Mode::TagsRoot => (Mode::Tag, None),
                            Mode::Tag => (Mode::TagEntry, None),
                            Mode::TagEntry | Mode::Skip => (Mode::Skip, None),
                            Mode::Tree => (Mode::Tree, top.node),
                        };
                        stack.push(Frame {
                            item: Item {
                                at,
                                ..Item::default()
                            },
                            mode,
                            parent,
                            node: None,
                            in_children: false,
                            is_root: false,
                            tagged: Vec::new(),
                            skip_children: false,
                            child_roots: Vec::new(),
                        });
                    }
                    first => self.wrong_kind(
                        at,
                        &first,
                        &rules::STRUCTURE,
                        "a member of `children` must be a node object",
                        "an item of children is not an object",
                    )?,
                }
                continue;
            }
            let (at, ev) = self.next()?;
            let key = match ev {
                Event::ObjectEnd => {
                    let frame = stack.pop().expect("a frame is open");
                    self.finish(frame, stack.last_mut());
                    continue;
                }
                Event::Key(k) => k,
                _ => unreachable!("an object holds members"),
            };
            let top = stack.last_mut().expect("a frame is open");
            match &*key {
                "children" => {
                    let (at, ev) = self.next()?;
                    if ev != Event::ArrayStart {
                        self.wrong_kind(
                            at,
                            &ev,
                            &rules::STRUCTURE,
                            "`children` must be an array",
                            "children is not an array",
                        )?;
                        continue;
                    }
                    self.open(top);
                    top.in_children = true;
                }
                "annos" => {
                    let annos = self.annos(at)?;
                    top.item.annos.extend(annos);
                }
                _ => {
                    let (vat, mut v) = self.value()?;
                    if self.checker.is_some() {
                        self.check_member(&key, vat, &mut v);
                    }
                    let it = &mut top.item;
                    let date = |d: &mut Vec<Diagnostic>, lines: &LineIndex, v: String| {
                        let parsed = micros(&v);
                        if parsed.is_none() {
                            d.push(Diagnostic::warning(
                                format!("{key} is not a count of microseconds: kept as written"),
                                Some(lines.locate(vat)),
                            ));
                        }
                        parsed.unwrap_or_else(|| DateValue::Raw(v.into()))
                    };
                    match (&*key, v) {
                        (_, None) => {}
                        ("guid", Some(v)) => {
                            it.guid = Some(v);
                            it.guid_at = vat;
                        }
                        ("title", Some(v)) => it.title = Some(v),
                        ("dateAdded", Some(v)) => {
                            it.added = Some(date(&mut self.diags, &self.lines, v))
                        }
                        ("lastModified", Some(v)) => {
                            it.modified = Some(date(&mut self.diags, &self.lines, v))
                        }
                        ("id", Some(v)) => it.id = Some(v),
                        ("typeCode", Some(v)) => {
                            it.type_code = Some(v);
                            it.code_at = vat;
                        }
                        ("type", Some(v)) => {
                            it.kind = Some(v);
                            it.kind_at = vat;
                        }
                        ("root", Some(v)) => {
                            it.root = Some(v);
                            it.root_at = vat;
                        }
                        ("uri", Some(v)) => it.uri = Some(v),
                        ("iconUri" | "iconuri", Some(v)) => it.icon_uri = Some(v),
                        ("tags", Some(v)) => it.tags = Some(v),
                        ("keyword", Some(v)) => it.keyword = Some(v),
                        ("postData", Some(v)) => it.post_data = Some(v),
                        ("charset", Some(v)) => it.charset = Some(v),
                        ("livemark", Some(_)) => it.livemark = true,
                        // Implied by the tree.
                        ("index" | "parent", Some(_)) => {}
                        (name, Some(v)) => it.extra.push(Attribute::new(name, v)),
                    }
                }
            }
        }
        match self.p.next() {
            Ok(None) => Ok(()),
            Ok(Some((at, _))) => Err(Error::syntax(
                format!(
                    "Firefox backup{}: unexpected data after the JSON value",
                    self.within
                ),
                self.lines.locate(at),
            )
            .rule(rules::NOT_JSON.id)),
            Err(e) => Err(self.syntax(e)),
        }
    }

    /// `annos`: `[{"name": ..., "value": ..., ...}]`, as attributes.
    fn annos(&mut self, at: usize) -> Result<Vec<Attribute>, Error> {
        let (aat, ev) = self.next()?;
        if ev == Event::Null {
            return Ok(Vec::new());
        }
        if ev != Event::ArrayStart {
            return Err(self.invalid(aat, "annos is not an array"));
        }
        let mut out = Vec::new();
        loop {
            let (oat, ev) = self.next()?;
            match ev {
                Event::ArrayEnd => return Ok(out),
                Event::ObjectStart => {}
                _ => return Err(self.invalid(oat, "an annotation is not an object")),
            }
            let (mut name, mut value) = (None, None);
            loop {
                let (_, ev) = self.next()?;
                let key = match ev {
                    Event::ObjectEnd => break,
                    Event::Key(k) => k,
                    _ => unreachable!("an object holds members"),
                };
                let (_, v) = self.value()?;
                match &*key {
                    "name" => name = v,
                    "value" => value = v,
                    _ => {}
                }
            }
            match name {
                Some(n) => out.push(Attribute::new(n, value.unwrap_or_default())),
                None => self.diags.push(Diagnostic::warning(
                    "an annotation without a name: left out",
                    Some(self.lines.locate(oat.max(at))),
                )),
            }
        }
    }

    /// The item's children start: make its folder now, so that they go in it.
    fn open(&mut self, frame: &mut Frame) {
        let it = &frame.item;
        if frame.is_root && it.root.as_deref() == Some("placesRoot") {
            return;
        }
        if frame.mode != Mode::Tree {
            return;
        }
        if it.root.as_deref() == Some("tagsFolder") {
            frame.mode = Mode::TagsRoot;
            return;
        }
        if is_livemark(it) {
            frame.skip_children = true;
            return;
        }
        let id = self.doc.push(frame.parent, Folder::new());
        frame.node = Some(id);
    }

    /// The rules of a member `key` whose value (at `vat`) was `v`; a value
    /// the rules take as not there becomes `None`. Apart, so that reading
    /// without checking stays as lean as it was.
    #[inline(never)]
    fn check_member(&mut self, key: &str, vat: usize, v: &mut Option<String>) {
        // The value's first byte tells its kind: the text is JSON.
        let scalar = match self.input[vat] {
            b'"' => Scalar::String,
            b'-' | b'0'..=b'9' => Scalar::Number,
            _ => Scalar::Other,
        };
        if matches!(key, "dateAdded" | "lastModified") {
            let integer = scalar == Scalar::Number && v.as_deref().is_some_and(rules::is_integer);
            if !integer {
                let written = &self.input[vat..self.p.pos()];
                let message = format!(
                    "{key} is {}, not an integer (microseconds since 1970)",
                    String::from_utf8_lossy(written)
                );
                self.out().at(&rules::BAD_DATE, vat, message);
            }
        }
        if scalar == Scalar::Other && matches!(key, "guid" | "root" | "type" | "typeCode" | "uri") {
            // The rules take these as restore does: a string or a number,
            // else as if not there.
            *v = None;
        }
    }

    /// The rules of an item at its `}`; its `root` told to its parent.
    #[inline(never)]
    fn check_item(&mut self, it: &Item, frame: &Frame, parent: Option<&mut Frame>) {
        let Some(mut checker) = self.checker.take() else {
            return;
        };
        let seen = Seen {
            at: it.at,
            guid: it.guid.as_deref().map(|g| (g, it.guid_at)),
            root: it.root.as_deref().map(|r| (r, it.root_at)),
            kind: it.kind.as_deref().map(|k| (k, it.kind_at)),
            code: it.type_code.as_deref().map(|c| (c, it.code_at)),
            uri: it.uri.is_some(),
        };
        checker.end_item(&mut self.out(), &seen, frame.is_root, &frame.child_roots);
        if let (Some(p), Some(root)) = (parent, &it.root) {
            p.child_roots.push(root.clone());
        }
        self.checker = Some(checker);
    }

    fn finish(&mut self, mut frame: Frame, mut parent: Option<&mut Frame>) {
        let it = std::mem::take(&mut frame.item);
        if self.checker.is_some() {
            self.check_item(&it, &frame, parent.as_deref_mut());
        }
        match frame.mode {
            Mode::TagEntry => {
                if let (Some(p), Some(uri)) = (parent, it.uri) {
                    p.tagged.push(uri);
                }
                return;
            }
            Mode::Skip => return,
            Mode::TagsRoot => return,
            Mode::Tag => {
                let tag = it.title.unwrap_or_default();
                self.tags.push((tag, frame.tagged));
                return;
            }
            Mode::Tree => {}
        }
        if frame.is_root && it.root.as_deref() == Some("placesRoot") {
            let h = &mut self.doc.header;
            h.title = it.title.filter(|t| !t.is_empty());
            h.added = it.added;
            h.modified = it.modified;
            h.id = it.id;
            if let Some(g) = it.guid.filter(|g| g != crate::ROOT_GUID) {
                h.extra.push(Attribute::new("guid", g));
            }
            h.extra.extend(it.extra);
            return;
        }
        if it.root.as_deref() == Some("tagsFolder") {
            return;
        }
        let kind = item_kind(&it, frame.node.is_some());
        let id = match (frame.node, kind) {
            (Some(id), _) => id,
            (None, Kind::Folder) => self.doc.push(frame.parent, Folder::new()),
            (None, Kind::Separator) => self.doc.push(frame.parent, Separator::new()),
            (None, Kind::Bookmark | Kind::Livemark) => {
                self.doc.push(frame.parent, Bookmark::new(String::new()))
            }
        };
        if kind == Kind::Livemark {
            self.livemarks += 1;
        }
        fill(self.doc.node_mut(id), it, kind);
    }

    /// Tags from the tags root (Firefox 3.x) onto the bookmarks of their links.
    fn apply_tags(&mut self) -> Result<(), Error> {
        if self.tags.is_empty() {
            return Ok(());
        }
        // Each link's tags once, in the order first seen: a tag listed
        // many times for one link, or a link under many tags, costs its
        // pairs once here, not once per bookmark of the link.
        let mut per_link: HashMap<String, (Vec<String>, HashSet<String>)> = HashMap::new();
        for (tag, links) in std::mem::take(&mut self.tags) {
            for link in links {
                let (order, seen) = per_link.entry(link).or_default();
                if seen.insert(tag.clone()) {
                    order.push(tag.clone());
                }
            }
        }
        let ids: Vec<NodeId> = self.doc.ids().collect();
        for id in ids {
            let Some(b) = self.doc.as_bookmark_mut(id) else {
                continue;
            };
            let Some((tags, _)) = per_link.get(&b.href) else {
                continue;
            };
            // Every bookmark of a link gets its own copies of the link's
            // tags: charged, as one long tag on many bookmarks is large.
            let cost = tags.iter().map(|t| t.len() + 32).sum::<usize>();
            self.budget.charge(cost)?;
            let have: HashSet<String> = b.tags.iter().cloned().collect();
            b.tags
                .extend(tags.iter().filter(|t| !have.contains(*t)).cloned());
        }
        Ok(())
    }
}

/// What a member's value was.
#[derive(Clone, Copy, PartialEq)]
enum Scalar {
    String,
    Number,
    /// `true`, `false`, `null`, an object or an array.
    Other,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Bookmark,
    Folder,
    Separator,
    /// A feed folder of Firefox before 64: read as a bookmark.
    Livemark,
}

fn is_livemark(it: &Item) -> bool {
    it.livemark || it.annos.iter().any(|a| a.name == ANNO_FEED) && it.uri.is_none()
}

fn item_kind(it: &Item, has_children: bool) -> Kind {
    if has_children {
        return Kind::Folder;
    }
    match (it.kind.as_deref(), it.type_code.as_deref()) {
        (Some("text/x-moz-place-separator"), _) | (None, Some("3")) => Kind::Separator,
        _ if is_livemark(it) => Kind::Livemark,
        (Some("text/x-moz-place-container"), _) | (None, Some("2")) => Kind::Folder,
        (Some("text/x-moz-place"), _) | (None, Some("1")) => Kind::Bookmark,
        _ if it.uri.is_some() => Kind::Bookmark,
        _ => Kind::Folder,
    }
}

/// Microseconds since 1970 as an instant.
fn micros(text: &str) -> Option<DateValue> {
    let us: i64 = text.parse().ok()?;
    let t = Timestamp::from_unix(
        us.div_euclid(1_000_000),
        (us.rem_euclid(1_000_000) * 1000) as u32,
    )?;
    Some(DateValue::Instant(t))
}

/// A date as Firefox writes it: microseconds since 1970.
fn date_text(d: &DateValue) -> String {
    match d {
        DateValue::Instant(t) => (i128::from(t.unix_seconds()) * 1_000_000
            + i128::from(t.subsec_nanos() / 1000))
        .to_string(),
        DateValue::Raw(r) => r.to_string(),
    }
}

fn role(root: &str) -> Option<Role> {
    Some(match root {
        "bookmarksMenuFolder" => Role::Menu,
        "toolbarFolder" => Role::Toolbar,
        "unfiledBookmarksFolder" => Role::Unfiled,
        "mobileFolder" => Role::Mobile,
        _ => return None,
    })
}

fn fill(node: &mut Node, mut it: Item, kind: Kind) {
    let mut desc = None;
    let mut feed = None;
    let mut site = None;
    let mut meta = Vec::new();
    for a in std::mem::take(&mut it.annos) {
        match a.name.as_str() {
            ANNO_DESCRIPTION if desc.is_none() => desc = Some(a.value),
            ANNO_FEED if feed.is_none() && kind != Kind::Folder => feed = Some(a.value),
            ANNO_SITE if site.is_none() && kind == Kind::Livemark => site = Some(a.value),
            _ => meta.push(a),
        }
    }
    match node {
        Node::Folder(f) => {
            f.title = it.title;
            f.desc = desc;
            f.id = it.id;
            f.added = it.added;
            f.modified = it.modified;
            f.guid = it.guid;
            f.meta_info = meta;
            match it.root.as_deref().map(|r| (r, role(r))) {
                Some((_, Some(r))) => f.role = Some(r),
                Some((r, None)) => it.extra.insert(0, Attribute::new("root", r)),
                None => {}
            }
            f.extra = it.extra;
        }
        Node::Separator(s) => {
            s.title = it.title.filter(|t| !t.is_empty());
            // The model has no dates on separators: kept as the source wrote them.
            for (key, date) in [("lastModified", it.modified), ("dateAdded", it.added)] {
                if let Some(d) = date {
                    it.extra.insert(0, Attribute::new(key, date_text(&d)));
                }
            }
            if let Some(g) = it.guid {
                it.extra.insert(0, Attribute::new("guid", g));
            }
            if let Some(i) = it.id {
                it.extra.insert(0, Attribute::new("id", i));
            }
            s.extra = it.extra;
        }
        Node::Bookmark(b) => {
            b.href = match kind {
                Kind::Livemark => site.or_else(|| feed.clone()).unwrap_or_default(),
                _ => it.uri.unwrap_or_default(),
            };
            b.title = it.title;
            b.desc = desc;
            b.added = it.added;
            b.modified = it.modified;
            b.tags = it
                .tags
                .map(|t| {
                    t.split(',')
                        .filter(|t| !t.is_empty())
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default();
            let d = b.details_mut();
            d.id = it.id;
            d.guid = it.guid;
            d.favicon_uri = it.icon_uri;
            // Firefox's own group is allocated only for a bookmark that has one.
            if it.keyword.is_some()
                || it.post_data.is_some()
                || it.charset.is_some()
                || feed.is_some()
            {
                let ff = d.firefox_mut();
                ff.keyword = it.keyword;
                ff.post_data = it.post_data;
                ff.charset = it.charset;
                ff.feed_url = feed;
            }
            d.meta_info = meta;
            d.extra = it.extra;
        }
        _ => {}
    }
}
