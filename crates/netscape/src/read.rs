//! The reader: tokens in, a [`Document`] out, with a folder stack of its own.
//!
//! The structure rules are Firefox's importer's, the most forgiving one:
//! a heading (`H2`..`H6`) makes a folder whose children are in the next
//! list (`DL`, or `UL`/`OL`/`MENU`); a heading that never opens a list holds
//! what follows it until the next heading or `</DL>`; `<p>` and `<DT>` mean
//! nothing; a `</DL>` too many never closes the root. Nothing here recurses, so depth
//! costs only the stack vector.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use markport_model::{
    Alias, Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Folder,
    LineIndex, Location, Node, NodeId, Parsed, ReadOptions, Role, Separator,
};

use crate::dates;
use crate::rules::Checker;
use crate::scan::{Name, RawAttr, Scanner, Token};
use crate::{H1_EXTRA, UNTITLED};
use markport_markup::charset as decode;
use markport_markup::entities::{self as text, trim_html, Context};

pub(crate) fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let decoded = decode::decode(input, opts.encoding.as_deref())?;
    let mut r = Reader::new(&decoded.text, opts);
    if opts.checking {
        r.check = Some(Checker::new(input, &decoded.text, opts.letter));
    }
    r.diags.extend(decoded.diagnostics);
    if decoded.encoding != encoding_rs::UTF_8 {
        r.diags.push(Diagnostic::note(
            format!("read as {}", decoded.encoding.name()),
            None,
        ));
    }
    r.run();
    r.finish()
}

/// What a `<DD>` describes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Nothing,
    Root,
    Node(NodeId),
}

/// The element whose text is being gathered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Bookmark(NodeId),
    Folder(NodeId),
    H1,
    /// An `<A>` that made no bookmark: its text is skipped.
    Ignored,
}

struct Gather {
    target: Target,
    at: usize,
    buf: String,
}

/// An open folder: the root, or a heading and the lists opened since it.
struct Frame {
    folder: Option<NodeId>,
    /// `<DL>`s open in this frame; a heading's frame starts with none.
    lists: u32,
    at: usize,
}

/// An attribute name compared and hashed without ASCII case.
#[derive(Clone, Copy)]
struct Caseless<'a>(&'a str);

impl PartialEq for Caseless<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for Caseless<'_> {}

impl Hash for Caseless<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for b in self.0.bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
        state.write_u8(0xFF);
    }
}

/// Which of a tag's attributes repeat an earlier name. A tag has a few
/// attributes, so the first [`Repeats::SCAN`] are compared with a scan; past
/// that a set keeps a tag of many attributes linear.
#[derive(Default)]
struct Repeats<'a> {
    set: HashSet<Caseless<'a>>,
}

impl<'a> Repeats<'a> {
    const SCAN: usize = 16;

    /// Whether `attrs[i]` repeats an earlier name; called for `i` in order.
    fn is_repeat(&mut self, attrs: &[RawAttr<'a>], i: usize) -> bool {
        let name = attrs[i].name;
        if i < Self::SCAN {
            return attrs[..i].iter().any(|p| p.name.eq_ignore_ascii_case(name));
        }
        if self.set.is_empty() {
            self.set
                .extend(attrs[..Self::SCAN].iter().map(|p| Caseless(p.name)));
        }
        !self.set.insert(Caseless(name))
    }
}

/// An `<A ALIASOF>` waiting for the end of the file to see whether its
/// target exists.
struct AliasCandidate {
    node: NodeId,
    target: String,
    attrs: Vec<Attribute>,
    at: usize,
}

#[derive(Default)]
struct Seen {
    netscape_doctype: bool,
    dl: bool,
    dt: bool,
    lists: bool,
    anchors: usize,
    /// `H2`..`H6` folder headings.
    headings: bool,
    pocket: bool,
}

struct Reader<'a> {
    src: &'a str,
    scan: Scanner<'a>,
    lines: OnceCell<LineIndex<'a>>,
    doc: Document,
    diags: Vec<Diagnostic>,
    /// Open folders; `frames[0]` is the root and is never closed.
    frames: Vec<Frame>,
    owner: Owner,
    /// Where the description being taken starts, and what it describes.
    dd: Option<(usize, Owner)>,
    gather: Option<Gather>,
    aliases: Vec<AliasCandidate>,
    alias_ids: HashMap<String, NodeId>,
    /// The bookmark being read, when its `<A>` has markport's untitled
    /// marker ([`UNTITLED`]): its text is its link, not a title.
    untitled: Option<NodeId>,
    title: Option<String>,
    h1: Option<String>,
    seen: Seen,
    /// The rules of `markport check`, when reading for it.
    check: Option<Checker<'a>>,
    /// What the document may take: `<DT><A HREF=a>` is 16 bytes and a
    /// node of a few hundred.
    budget: Budget,
    /// The refusal the budget made, which ends the reading.
    refused: Option<Error>,
}

impl<'a> Reader<'a> {
    fn new(src: &'a str, opts: &ReadOptions) -> Reader<'a> {
        Reader {
            src,
            scan: Scanner::new(src),
            lines: OnceCell::new(),
            doc: Document::new(),
            diags: Vec::new(),
            frames: vec![Frame {
                folder: None,
                lists: 0,
                at: 0,
            }],
            owner: Owner::Nothing,
            dd: None,
            gather: None,
            aliases: Vec::new(),
            alias_ids: HashMap::new(),
            untitled: None,
            title: None,
            h1: None,
            seen: Seen::default(),
            check: None,
            budget: Budget::new(opts, src.len()),
            refused: None,
        }
    }

    fn locate(&self, at: usize) -> Location {
        self.lines
            .get_or_init(|| LineIndex::new(self.src.as_bytes()))
            .locate(at)
    }

    fn warn(&mut self, at: usize, message: impl Into<String>) {
        let loc = self.locate(at);
        self.diags.push(Diagnostic::warning(message, Some(loc)));
    }

    fn note(&mut self, at: usize, message: impl Into<String>) {
        let loc = self.locate(at);
        self.diags.push(Diagnostic::note(message, Some(loc)));
    }

    fn container(&self) -> Option<NodeId> {
        self.frames.last().and_then(|f| f.folder)
    }

    fn run(&mut self) {
        let mut attrs: Vec<RawAttr<'a>> = Vec::new();
        while let Some(tok) = self.scan.next(&mut attrs) {
            if let Err(mut e) = self.budget.keep_up(&self.doc, &self.diags) {
                let at = match tok {
                    Token::Start { start, .. }
                    | Token::End { start, .. }
                    | Token::Text { start, .. }
                    | Token::Doctype { start, .. } => start,
                    Token::Comment => 0,
                };
                e.location = Some(self.locate(at));
                self.refused = Some(e);
                return;
            }
            // Every token, whatever the reader makes of it: a description's
            // markup is the file's too.
            if let Some(check) = &mut self.check {
                check.token(&tok, &attrs);
            }
            if self.dd.is_some() {
                // Inside a description only structure ends it; any other
                // markup is description text (linkding#396).
                let end_at = match tok {
                    Token::Start {
                        name:
                            Name::Dt
                            | Name::Dd
                            | Name::Dl
                            | Name::List
                            | Name::H1
                            | Name::Heading
                            | Name::Hr,
                        start,
                        ..
                    }
                    | Token::End {
                        name: Name::Dl | Name::List | Name::Dd,
                        start,
                        ..
                    } => start,
                    _ => continue,
                };
                self.finish_dd(end_at);
                if matches!(tok, Token::End { name: Name::Dd, .. }) {
                    continue;
                }
            }
            match tok {
                Token::Text { start, end } => {
                    if let Some(g) = &mut self.gather {
                        if g.target != Target::Ignored {
                            g.buf
                                .push_str(&text::decode(&self.src[start..end], Context::Text));
                        }
                    }
                }
                Token::Start {
                    name, start, end, ..
                } => self.start(name, start, end, &attrs),
                Token::End { name, start, .. } => self.end(name, start),
                Token::Doctype { netscape, .. } => self.seen.netscape_doctype |= netscape,
                Token::Comment => {}
            }
        }
        let eof = self.src.len();
        self.finish_dd(eof);
        if let Some(g) = self.gather.take() {
            let what = match g.target {
                Target::Bookmark(_) | Target::Ignored => "<A>",
                Target::Folder(_) => "a folder heading",
                Target::H1 => "<H1>",
            };
            self.warn(
                g.at,
                format!("the file ends inside {what} (truncated?); what was read of it is kept"),
            );
            if g.target != Target::H1 {
                self.gather = Some(g);
                self.end_gather();
            }
        }
        for p in std::mem::take(&mut self.scan.problems) {
            self.warn(p.at, p.message);
        }
        if let Some(innermost) = self.frames[1..].iter().rev().find(|f| f.lists > 0) {
            let at = innermost.at;
            let open = self.frames[1..].iter().filter(|f| f.lists > 0).count();
            self.warn(
                at,
                format!("the file ends with {open} list(s) still open (a missing </DL>, or a truncated file); the list opened here is the innermost"),
            );
        }
    }

    fn start(&mut self, name: Name, start: usize, end: usize, attrs: &[RawAttr<'a>]) {
        if name != Name::Other && name != Name::Title {
            self.end_gather_implicitly(name, start);
        }
        match name {
            Name::A => self.anchor(start, attrs),
            Name::Dt => self.seen.dt = true,
            Name::Dd => self.dd = Some((end, self.owner)),
            Name::Dl | Name::List => {
                if name == Name::Dl {
                    self.seen.dl = true;
                } else {
                    self.seen.lists = true;
                }
                self.open_list(start);
            }
            Name::H1 if self.h1.is_none() && self.gather.is_none() => self.heading1(attrs, start),
            Name::H1 | Name::Heading => {
                self.seen.headings = true;
                self.folder(start, attrs)
            }
            Name::Hr => self.separator(attrs),
            Name::Title => match self.scan.rcdata("title") {
                Some((s, e)) => {
                    if self.title.is_none() {
                        let t = text::decode(&self.src[s..e], Context::Text);
                        self.title = Some(trim_html(&t).to_owned());
                    }
                }
                None => self.warn(start, "<TITLE> is never closed; it is ignored"),
            },
            Name::Other => {}
        }
    }

    fn end(&mut self, name: Name, start: usize) {
        match name {
            Name::A => {
                if matches!(
                    self.gather.as_ref().map(|g| g.target),
                    Some(Target::Bookmark(_) | Target::Ignored)
                ) {
                    self.end_gather();
                }
            }
            Name::H1 | Name::Heading => {
                if matches!(
                    self.gather.as_ref().map(|g| g.target),
                    Some(Target::Folder(_) | Target::H1)
                ) {
                    self.end_gather();
                }
            }
            Name::Dl | Name::List => {
                self.end_gather_implicitly(name, start);
                self.close_list(start);
            }
            _ => {}
        }
    }

    /// A structural tag inside `<A>` or a heading ends it (a missing `</A>`
    /// must not swallow the rest of the file).
    fn end_gather_implicitly(&mut self, by: Name, at: usize) {
        if let Some(g) = &self.gather {
            let what = match g.target {
                Target::Bookmark(_) | Target::Ignored => "<A>",
                Target::Folder(_) => "folder heading",
                Target::H1 => "<H1>",
            };
            let g_at = g.at;
            self.note(
                at,
                format!(
                    "{what} opened at {} is not closed before this {by:?} tag; it ends here",
                    self.locate(g_at)
                ),
            );
            self.end_gather();
        }
    }

    fn end_gather(&mut self) {
        let Some(mut g) = self.gather.take() else {
            return;
        };
        // Trim in place: the gathered text becomes the title without a copy.
        // A title keeps the white space on its own line (docs/formats/netscape.md,
        // "White space in titles": both browsers' imports keep it).
        let t = if g.target == Target::H1 {
            trim_html(&g.buf)
        } else {
            title_as_read(&g.buf)
        };
        let start = t.as_ptr() as usize - g.buf.as_ptr() as usize;
        let end = start + t.len();
        g.buf.truncate(end);
        g.buf.drain(..start);
        let text = g.buf;
        if g.target == Target::H1 {
            self.h1 = Some(text);
            return;
        }
        let title = (!text.is_empty()).then_some(text);
        match g.target {
            Target::Bookmark(id) => {
                let marked = self.untitled.take() == Some(id);
                if let Node::Bookmark(b) = self.doc.node_mut(id) {
                    // Only the link itself under the marker means "no title":
                    // a title someone gave it since, or a real title that
                    // happens to be the link (no marker), is kept.
                    b.title = title.filter(|t| !(marked && *t == b.href));
                }
            }
            Target::Folder(id) => {
                if let Node::Folder(f) = self.doc.node_mut(id) {
                    f.title = title;
                }
            }
            Target::H1 | Target::Ignored => {}
        }
    }

    fn finish_dd(&mut self, end: usize) {
        let Some((start, owner)) = self.dd.take() else {
            return;
        };
        let raw = &self.src[start..end.max(start)];
        let decoded = text::decode(raw, Context::Text);
        let t = trim_html(&decoded);
        if t.is_empty() {
            return;
        }
        let slot = match owner {
            Owner::Root => &mut self.doc.header.desc,
            Owner::Node(id) => match self.doc.node_mut(id) {
                Node::Bookmark(b) => &mut b.desc,
                Node::Folder(f) => &mut f.desc,
                _ => return,
            },
            Owner::Nothing => {
                let excerpt: String = t.chars().take(40).collect();
                self.warn(
                    start,
                    format!("a <DD> that follows no bookmark or folder is ignored: {excerpt:?}"),
                );
                return;
            }
        };
        match slot {
            Some(d) => {
                d.push_str("\n\n");
                d.push_str(t);
            }
            None => *slot = Some(t.to_owned()),
        }
    }

    fn open_list(&mut self, at: usize) {
        let top = self.frames.last_mut().expect("the root frame stays");
        if top.lists == 0 {
            top.at = at;
        }
        top.lists += 1;
        self.owner = Owner::Nothing;
    }

    /// `</DL>` ends the innermost folder once its lists are closed; a heading
    /// that never opened a list ends here too.
    fn close_list(&mut self, at: usize) {
        self.owner = Owner::Nothing;
        let root = self.frames.len() == 1;
        let top = self.frames.last_mut().expect("the root frame stays");
        if root && top.lists == 0 {
            self.note(at, "a </DL> with no list open is ignored");
            return;
        }
        top.lists = top.lists.saturating_sub(1);
        if !root && top.lists == 0 {
            self.frames.pop();
        }
    }

    /// A heading, a link or a separator after a heading that has no list
    /// yet: Firefox's rule is that a new heading ends that folder.
    fn end_listless_heading(&mut self) {
        if self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.lists == 0) {
            self.frames.pop();
        }
    }

    fn heading1(&mut self, attrs: &[RawAttr<'a>], start: usize) {
        let mut repeats = Repeats::default();
        for (i, a) in attrs.iter().enumerate() {
            let Some(name) = self.attr_name(attrs, i, &mut repeats) else {
                continue;
            };
            let value = text::decode(a.value, Context::Attribute);
            match &*name {
                "ADD_DATE" => self.doc.header.added = self.date(&value, a),
                "LAST_MODIFIED" => self.doc.header.modified = self.date(&value, a),
                _ => self.doc.header.extra.push(Attribute::new(name, value)),
            }
        }
        self.owner = Owner::Root;
        self.gather = Some(Gather {
            target: Target::H1,
            at: start,
            buf: String::new(),
        });
    }

    /// The upper-cased name of attribute `i`, or `None` for a repeated one
    /// (HTML keeps the first). Borrowed when already upper-case, as in
    /// nearly every file, so reading allocates nothing for it. Callers go
    /// through a tag's attributes in order with one [`Repeats`].
    fn attr_name(
        &mut self,
        attrs: &[RawAttr<'a>],
        i: usize,
        repeats: &mut Repeats<'a>,
    ) -> Option<Cow<'a, str>> {
        let a = attrs[i];
        if repeats.is_repeat(attrs, i) {
            self.note(
                a.at,
                format!("{} is given twice; the first value is used", a.name),
            );
            return None;
        }
        if a.name.bytes().any(|b| b.is_ascii_lowercase()) {
            Some(Cow::Owned(a.name.to_ascii_uppercase()))
        } else {
            Some(Cow::Borrowed(a.name))
        }
    }

    fn date(&mut self, value: &str, a: &RawAttr<'a>) -> Option<DateValue> {
        match dates::parse(value) {
            dates::Parsed::Unknown => None,
            dates::Parsed::Date(d) => Some(d),
            dates::Parsed::Unreadable(d) => {
                self.warn(
                    a.at,
                    format!("{}={value:?} is not a date; kept as written", a.name),
                );
                Some(d)
            }
        }
    }

    fn flag(&mut self, value: &str, a: &RawAttr<'a>) -> Result<bool, ()> {
        match value.trim().to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Ok(true),
            "0" | "false" | "no" | "off" => Ok(false),
            _ => {
                self.warn(
                    a.at,
                    format!(
                        "{}={value:?} is neither 1 nor 0; kept as an attribute",
                        a.name
                    ),
                );
                Err(())
            }
        }
    }

    fn anchor(&mut self, start: usize, attrs: &[RawAttr<'a>]) {
        self.seen.anchors += 1;
        let href = attrs
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case("href"))
            .map(|a| text::decode(a.value, Context::Attribute));
        if href.as_deref() == Some("") {
            self.warn(
                start,
                "<A> with an empty HREF: kept as a bookmark without a link",
            );
        }
        let Some(href) = href else {
            self.warn(start, "<A> without HREF is ignored");
            self.owner = Owner::Nothing;
            self.gather = Some(Gather {
                target: Target::Ignored,
                at: start,
                buf: String::new(),
            });
            return;
        };
        let mut b = Bookmark::new(href);
        let mut alias_of = None;
        let mut alias_id = None;
        // An alias candidate keeps its attributes as written (rare: Netscape 4).
        let keep_raw = attrs.iter().any(|a| a.name.eq_ignore_ascii_case("aliasof"));
        let mut raw = Vec::new();
        let mut repeats = Repeats::default();
        let mut marked_untitled = false;
        for (i, a) in attrs.iter().enumerate() {
            let Some(name) = self.attr_name(attrs, i, &mut repeats) else {
                continue;
            };
            let value = text::decode(a.value, Context::Attribute);
            if keep_raw && name != "ALIASOF" && name != UNTITLED {
                raw.push(Attribute::new(name.clone(), value.clone()));
            }
            match &*name {
                "HREF" => {}
                UNTITLED => marked_untitled = true,
                "ADD_DATE" => b.added = self.date(&value, a),
                "LAST_MODIFIED" => b.modified = self.date(&value, a),
                "LAST_VISIT" => b.details_mut().visited = self.date(&value, a),
                "ICON" => b.favicon = Some(value.into_owned()),
                "ICON_URI" => b.details_mut().favicon_uri = Some(value.into_owned()),
                "SHORTCUTURL" => b.details_mut().firefox_mut().keyword = Some(value.into_owned()),
                "POST_DATA" => b.details_mut().firefox_mut().post_data = Some(value.into_owned()),
                "FEEDURL" => b.details_mut().firefox_mut().feed_url = Some(value.into_owned()),
                "LAST_CHARSET" => b.details_mut().firefox_mut().charset = Some(value.into_owned()),
                "ID" => b.details_mut().id = Some(value.into_owned()),
                "TAGS" => {
                    let tags = || value.split(',').map(trim_html).filter(|t| !t.is_empty());
                    // Sized exactly: most tagged bookmarks have a few tags, and
                    // a collected vector would round up to four.
                    b.tags = Vec::with_capacity(tags().count());
                    b.tags.extend(tags().map(str::to_owned));
                }
                "PRIVATE" => match self.flag(&value, a) {
                    Ok(f) => b.private = Some(f),
                    Err(()) => b.details_mut().extra.push(Attribute::new(name, value)),
                },
                "TOREAD" => match self.flag(&value, a) {
                    Ok(f) => b.to_read = Some(f),
                    Err(()) => b.details_mut().extra.push(Attribute::new(name, value)),
                },
                "ALIASID" if alias_id.is_none() => alias_id = Some(value.into_owned()),
                "ALIASOF" => {
                    alias_of = Some(value.clone().into_owned());
                    b.details_mut().extra.push(Attribute::new(name, value));
                }
                _ => b.details_mut().extra.push(Attribute::new(name, value)),
            }
        }
        if let Some(v) = alias_id {
            if b.details().id.is_none() {
                b.details_mut().id = Some(v);
            } else {
                b.details_mut().extra.push(Attribute::new("ALIASID", v));
            }
        }
        if b.details().extra.iter().any(|a| a.name == "TIME_ADDED") {
            self.seen.pocket = true;
        }
        let node_id = b.details().id.clone();
        let parent = self.container();
        let id = self.doc.push(parent, b);
        // Aliases resolve to bookmarks that are not aliases themselves, so
        // no alias decides what another one shows.
        if let (Some(v), None) = (node_id, &alias_of) {
            self.alias_ids.entry(v).or_insert(id);
        }
        if let Some(target) = alias_of {
            self.aliases.push(AliasCandidate {
                node: id,
                target,
                attrs: raw,
                at: start,
            });
        }
        self.owner = Owner::Node(id);
        self.untitled = marked_untitled.then_some(id);
        self.gather = Some(Gather {
            target: Target::Bookmark(id),
            at: start,
            buf: String::new(),
        });
    }

    fn folder(&mut self, start: usize, attrs: &[RawAttr<'a>]) {
        // A heading whose list never came ends at the next heading.
        self.end_listless_heading();
        let mut f = Folder::default();
        let mut repeats = Repeats::default();
        for (i, a) in attrs.iter().enumerate() {
            let Some(name) = self.attr_name(attrs, i, &mut repeats) else {
                continue;
            };
            let value = text::decode(a.value, Context::Attribute);
            let role = match &*name {
                "PERSONAL_TOOLBAR_FOLDER" => Some(Role::Toolbar),
                "UNFILED_BOOKMARKS_FOLDER" => Some(Role::Unfiled),
                "BOOKMARKS_MENU" => Some(Role::Menu),
                "PLACES_ROOT" => Some(Role::PlacesRoot),
                _ => None,
            };
            if let Some(role) = role {
                // Firefox looks only at presence; an explicit "false" is kept as written.
                if f.role.is_none() && !value.eq_ignore_ascii_case("false") {
                    f.role = Some(role);
                } else {
                    f.extra.push(Attribute::new(name, value));
                }
                continue;
            }
            match &*name {
                "ADD_DATE" => f.added = self.date(&value, a),
                "LAST_MODIFIED" => f.modified = self.date(&value, a),
                "FOLDED" if value.is_empty() || value.eq_ignore_ascii_case("folded") => {
                    f.folded = Some(true)
                }
                "ID" if value == crate::READING_LIST_ID && f.role.is_none() => {
                    f.role = Some(Role::ReadingList)
                }
                "ID" => f.id = Some(value.into_owned()),
                _ => f.extra.push(Attribute::new(name, value)),
            }
        }
        let parent = self.container();
        let id = self.doc.push(parent, f);
        self.frames.push(Frame {
            folder: Some(id),
            lists: 0,
            at: start,
        });
        self.owner = Owner::Node(id);
        self.gather = Some(Gather {
            target: Target::Folder(id),
            at: start,
            buf: String::new(),
        });
    }

    fn separator(&mut self, attrs: &[RawAttr<'a>]) {
        let mut s = Separator::default();
        let mut repeats = Repeats::default();
        for (i, a) in attrs.iter().enumerate() {
            let Some(name) = self.attr_name(attrs, i, &mut repeats) else {
                continue;
            };
            let value = text::decode(a.value, Context::Attribute);
            match &*name {
                "NAME" => s.title = Some(value.into_owned()),
                _ => s.extra.push(Attribute::new(name, value)),
            }
        }
        let parent = self.container();
        self.doc.push(parent, s);
        self.owner = Owner::Nothing;
    }

    fn resolve_aliases(&mut self) {
        for c in std::mem::take(&mut self.aliases) {
            let target = self.alias_ids.get(&c.target).copied();
            let resolved = target.and_then(|t| match (self.doc.node(t), self.doc.node(c.node)) {
                (Node::Bookmark(t), Node::Bookmark(b))
                    if t.title == b.title && t.details().id.is_some() =>
                {
                    Some(t.href.clone())
                }
                _ => None,
            });
            match resolved {
                Some(target_href) => {
                    let extra = c
                        .attrs
                        .into_iter()
                        .filter(|a| !(a.name == "HREF" && a.value == target_href))
                        .collect();
                    let mut alias = Alias::new(c.target);
                    alias.extra = extra;
                    *self.doc.node_mut(c.node) = Node::Alias(alias);
                }
                None => self.note(
                    c.at,
                    format!(
                        "ALIASOF={:?} names no bookmark with that ALIASID and the same title; kept as a bookmark",
                        c.target
                    ),
                ),
            }
        }
    }

    /// The error for a file that is not a bookmark file at all, saying
    /// what it looks like.
    fn not_bookmarks(&self) -> Option<Error> {
        let s = &self.seen;
        // Empty input, garbage or an image would otherwise read as an empty
        // collection; an empty export still has its DOCTYPE or `<DL>`.
        if !s.netscape_doctype && !s.dl && !s.dt && s.anchors == 0 && !s.lists && !s.headings {
            return Some(Error::new(
                ErrorKind::WrongFormat,
                "this is not a Netscape bookmark file: it has no bookmark structure at all (no NETSCAPE-Bookmark-file DOCTYPE, <DL>, <DT>, <A> or folder heading)",
                Some(Location { line: 1, column: 1 }),
            ));
        }
        if !s.netscape_doctype && !s.dl && !s.dt && (s.anchors > 0 || s.lists) {
            let looks_like = if s.pocket {
                "a Pocket HTML export (<ul><li><a time_added=...>): read it with --from pocket"
            } else if s.lists {
                "an HTML page with <ul>/<ol> lists of links (Pocket and Instapaper exports look like this)"
            } else {
                "an ordinary HTML page"
            };
            return Some(Error::new(
                ErrorKind::WrongFormat,
                format!(
                    "this is not a Netscape bookmark file: it has no NETSCAPE-Bookmark-file DOCTYPE, no <DL> list and no <DT> item; it looks like {looks_like} (pages with xFolk entries read with --from xfolk)"
                ),
                Some(Location { line: 1, column: 1 }),
            ));
        }
        None
    }

    fn finish(mut self) -> Result<Parsed, Error> {
        if let Some(e) = self.refused.take() {
            return Err(e);
        }
        self.resolve_aliases();
        if let Some(check) = self.check.take() {
            self.diags.extend(check.finish());
        }
        if let Some(e) = self.not_bookmarks() {
            // What the rules found before is kept for check; the rest is
            // about a reading that does not happen.
            let mut found = std::mem::take(&mut self.diags);
            found.retain(|d| d.rule.is_some());
            return Err(e.with_found(found));
        }
        let title = self.title.take().filter(|t| !t.is_empty());
        match (title, self.h1.take()) {
            (Some(t), Some(h)) => {
                if h != t {
                    self.doc.header.extra.push(Attribute::new(H1_EXTRA, h));
                }
                self.doc.header.title = Some(t);
            }
            (Some(t), None) => self.doc.header.title = Some(t),
            (None, Some(h)) => self.doc.header.title = (!h.is_empty()).then_some(h),
            (None, None) => {}
        }
        Ok(Parsed::new(self.doc, self.diags))
    }
}

/// A folder's or bookmark's title as read from the text of its element:
/// as written, but for a run of white space at either end that holds a line
/// break, which is the file's layout (an element written over several
/// lines), not the title's: that run is dropped. Spaces, tabs and
/// no-break spaces on the title's own line are kept, as Firefox's import
/// keeps them in folder titles and Chromium's in every title (measured,
/// docs/formats/netscape.md); a title written over several lines is no
/// value either browser agrees on (Chromium drops the element), so its
/// surrounding white space goes as it always has.
pub(crate) fn title_as_read(text: &str) -> &str {
    let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r');
    let breaks = |run: &str| run.contains(['\n', '\r']);
    let body = text.trim_start_matches(space);
    let text = if breaks(&text[..text.len() - body.len()]) {
        body
    } else {
        text
    };
    let body = text.trim_end_matches(space);
    if breaks(&text[body.len()..]) {
        body
    } else {
        text
    }
}
