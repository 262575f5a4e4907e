//! The reader: one walk over the page (the markup layer's [`Walker`], linear
//! however the page is shaped), in document order, with a stack of frames
//! saying which entry, folder and gatherers are in effect at each point, so
//! each property goes to its nearest enclosing entry; then a build step that
//! turns what the walk found into the document.

use std::collections::HashMap;

use markport_markup::html::RawAttr;
use markport_markup::walk::{attr, Event, Walker};
use markport_model::budget::NODE_COST;
use markport_model::{
    Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Folder, LineIndex, NodeId,
    Parsed, ReadOptions, Timestamp,
};
use url::Url;

use crate::rules::Checks;
use crate::tags::tag_of;
use crate::text::{blocks, collapse, LINE, PARAGRAPH};

/// What a page says about one entry.
#[derive(Default)]
struct Entry {
    href: Option<String>,
    title: Option<String>,
    descs: Vec<String>,
    /// The pre-RC1 class, read only when an entry has no `.description`.
    extended: Vec<String>,
    tags: Vec<String>,
    added: Option<DateValue>,
    id: Option<String>,
    /// Where its element starts.
    at: usize,
}

/// What the walk found, in document order: the build step's input.
enum Found {
    Folder {
        parent: Option<usize>,
        /// Boxed: a page has few folders and many entries, and every
        /// element of the list is as large as its largest kind.
        folder: Box<Folder>,
    },
    Entry {
        folder: Option<usize>,
        entry: Entry,
    },
}

/// The gatherer kinds a frame can have in effect, one slot each.
const SLOTS: usize = 8;
const TITLE: usize = 0;
const DESC: usize = 1;
const EXTENDED: usize = 2;
const FOLDER_TITLE: usize = 3;
const FOLDER_DESC: usize = 4;
const PAGE_H1: usize = 5;
const INTRO: usize = 6;
const PAGE_TITLE: usize = 7;

/// What an open element is, and what is in effect inside it. Each frame is
/// its parent's with this element's changes, so nothing on the walk searches
/// the stack (depth would make it quadratic).
#[derive(Clone, Copy, Default)]
struct Frame {
    /// The nearest entry or other microformat root: `None` outside both,
    /// `Some(None)` when a foreign root is nearer than any entry.
    entry: Option<Option<usize>>,
    folder: Option<usize>,
    /// The innermost gatherer of each kind (indices into the walk's list):
    /// text here goes to each of them.
    gather: [Option<usize>; SLOTS],
    /// A section's heading and description are its first such children.
    wants_heading: bool,
    wants_desc: bool,
    /// The gatherers this element started, finished when it closes.
    owns: [Option<usize>; SLOTS],
    /// Whether the element is a block: its edges are paragraph breaks.
    block: bool,
    /// Whether the element opened a tag container of the checks.
    opens_tags: bool,
}

impl Frame {
    fn gatherers(&self) -> impl Iterator<Item = usize> {
        self.gather.into_iter().flatten()
    }
}

/// Where gathered text goes when its element closes.
enum Goal {
    /// An entry's title, unless its link has a `title` attribute.
    Title {
        entry: usize,
        attr: Option<String>,
    },
    Desc(usize),
    Extended(usize),
    FolderTitle(usize),
    FolderDesc(usize),
    PageTitle,
    PageHeading,
    Intro,
}

/// The text of one element, gathered on the walk. Each text node goes to the
/// innermost gatherer of each kind only: a `.description` inside another of
/// the same entry adds nothing of its own (its text is already in the outer
/// one), and text inside a nested entry is that entry's, not its ancestors'.
/// So every character is gathered a bounded number of times.
struct Gatherer {
    goal: Goal,
    /// With [`PARAGRAPH`] and [`LINE`] marks, for [`blocks`].
    marked: bool,
    text: String,
    /// The first `alt` inside a link, its title's last resort.
    alt: Option<String>,
}

/// Roots of microformats whose `description` or rel-tags are not the entry's.
const FOREIGN_ROOTS: &[&str] = &[
    "hreview", "vcard", "vevent", "hrecipe", "hproduct", "h-review", "h-card", "h-event",
];

const BLOCKS: &[&str] = &[
    "p",
    "div",
    "blockquote",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "pre",
    "section",
    "article",
    "header",
    "footer",
    "table",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
];

const HEADINGS: &[&str] = &["h1", "h2", "h3", "h4", "h5", "h6"];

/// The attributes the reader looks at, decoded once per element.
struct Attrs {
    classes: Vec<String>,
    href: Option<String>,
    title: Option<String>,
    rel_tag: bool,
    alt: Option<String>,
    datetime: Option<String>,
    data_id: Option<String>,
}

impl Attrs {
    fn of(raw: &[RawAttr]) -> Attrs {
        let get = |n: &str| attr(raw, n).map(|v| v.into_owned());
        let classes = attr(raw, "class")
            .map(|c| {
                c.split([' ', '\t', '\n', '\r', '\x0C'])
                    .filter(|c| !c.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        Attrs {
            classes,
            href: get("href"),
            title: get("title"),
            rel_tag: attr(raw, "rel").is_some_and(|r| {
                r.split_ascii_whitespace()
                    .any(|t| t.eq_ignore_ascii_case("tag"))
            }),
            alt: get("alt"),
            datetime: get("datetime"),
            data_id: get("data-id"),
        }
    }

    fn has(&self, class: &str) -> bool {
        self.classes.iter().any(|c| c == class)
    }
}

/// A date as pages write it: any W3C form, or Midgard's `YYYYMMDD`.
pub(crate) fn date(text: &str, diags: &mut Vec<Diagnostic>) -> DateValue {
    let t = text.trim();
    if let Some(ts) = Timestamp::parse_w3c(t) {
        return DateValue::Instant(ts);
    }
    if t.len() == 8 && t.bytes().all(|b| b.is_ascii_digit()) {
        let w3c = format!("{}-{}-{}", &t[..4], &t[4..6], &t[6..]);
        if let Some(ts) = Timestamp::parse_w3c(&w3c) {
            return DateValue::Instant(ts);
        }
    }
    diags.push(Diagnostic::warning(
        format!("{text:?} is not a date; kept as written"),
        None,
    ));
    DateValue::Raw(text.into())
}

struct Resolver {
    base: Option<Url>,
}

impl Resolver {
    /// An absolute link stays exactly as written; a relative one is resolved
    /// against the page's base when there is one.
    fn resolve(&self, href: &str) -> String {
        // Without a base every link stays as written, absolute or not: no
        // need to parse it (a URL parse per link was a tenth of reading).
        let Some(base) = &self.base else {
            return href.to_owned();
        };
        if Url::parse(href).is_ok() {
            return href.to_owned();
        }
        base.join(href.trim())
            .map_or_else(|_| href.to_owned(), String::from)
    }
}

/// The page's head: what is known before the first entry.
#[derive(Default)]
struct Head {
    title: Option<String>,
    title_seen: bool,
    /// Only the first `<base>` counts, as in browsers.
    base_seen: bool,
    generator: bool,
    /// Whether the body has begun: `<title>` and `<base>` count only before.
    in_body: bool,
}

/// The walk's state.
struct Reader<'a> {
    lines: Option<LineIndex<'a>>,
    src: &'a str,
    doc_url: Option<Url>,
    resolver: Resolver,
    head: Head,
    found: Vec<Found>,
    stack: Vec<Frame>,
    gatherers: Vec<Gatherer>,
    /// Gatherers finished, whose places are free.
    free_gatherers: Vec<usize>,
    folder_index: HashMap<String, usize>,
    h1: Option<String>,
    intro: Option<String>,
    h1_started: bool,
    intro_started: bool,
    diags: Vec<Diagnostic>,
    /// The rules of `markport check`, when reading for it.
    check: Option<Checks<'a>>,
}

impl<'a> Reader<'a> {
    fn locate(&mut self, at: usize) -> markport_model::Location {
        let src = self.src;
        self.lines
            .get_or_insert_with(|| LineIndex::new(src.as_bytes()))
            .locate(at)
    }

    fn gatherer(&mut self, frame: &mut Frame, slot: usize, goal: Goal, marked: bool) {
        let g = match self.free_gatherers.pop() {
            Some(g) => {
                // Its text buffer, emptied when it finished, is kept.
                let text = std::mem::take(&mut self.gatherers[g].text);
                self.gatherers[g] = Gatherer {
                    goal,
                    marked,
                    text,
                    alt: None,
                };
                g
            }
            None => {
                self.gatherers.push(Gatherer {
                    goal,
                    marked,
                    text: String::new(),
                    alt: None,
                });
                self.gatherers.len() - 1
            }
        };
        frame.gather[slot] = Some(g);
        frame.owns[slot] = Some(g);
    }

    /// What the head says: `<base>`, `<title>`, the generator `<meta>`.
    fn head_element(&mut self, key: &str, raw: &[RawAttr]) {
        match key {
            "base" if !self.head.in_body && !self.head.base_seen => {
                self.head.base_seen = true;
                if let Some(h) = attr(raw, "href") {
                    let joined = match &self.doc_url {
                        Some(d) => d.join(&h).ok(),
                        None => Url::parse(&h).ok(),
                    };
                    if joined.is_some() {
                        self.resolver.base = joined;
                    }
                }
            }
            "meta" if attr(raw, "name").as_deref() == Some("generator") => {
                self.head.generator |= attr(raw, "content").as_deref() == Some(crate::GENERATOR);
            }
            "title" | "meta" | "base" | "link" | "style" | "script" | "noscript" | "template" => {}
            _ => self.head.in_body = true,
        }
    }

    fn start(&mut self, name: &str, raw: &[RawAttr], at: usize) {
        let key = name.to_ascii_lowercase();
        let key = key.as_str();
        self.head_element(key, raw);
        let v = Attrs::of(raw);
        let parent = self.stack.last().copied();
        let mut frame = Frame {
            wants_heading: false,
            wants_desc: false,
            owns: [None; SLOTS],
            block: BLOCKS.contains(&key),
            opens_tags: false,
            ..parent.unwrap_or_default()
        };
        if key == "title" && !self.head.in_body && !self.head.title_seen {
            self.head.title_seen = true;
            self.gatherer(&mut frame, PAGE_TITLE, Goal::PageTitle, false);
        }
        // A section's heading and description, claimed by its first
        // children that are one.
        if let (Some(p), Some(folder)) = (self.stack.last_mut(), parent.and_then(|p| p.folder)) {
            let heading = p.wants_heading && HEADINGS.contains(&key);
            let desc = p.wants_desc && v.has("folder-description");
            p.wants_heading &= !heading;
            p.wants_desc &= !desc;
            if heading {
                self.gatherer(&mut frame, FOLDER_TITLE, Goal::FolderTitle(folder), false);
            }
            if desc {
                self.gatherer(&mut frame, FOLDER_DESC, Goal::FolderDesc(folder), true);
            }
        }
        let entry = frame.entry;
        let folder = frame.folder;
        if let Some(Some(i)) = entry {
            self.entry_properties(i, key, &v, &mut frame, at);
        }
        if let Some(g) = frame.gather[TITLE] {
            let g = &mut self.gatherers[g];
            if g.alt.is_none() {
                g.alt.clone_from(&v.alt);
            }
        }
        if v.has("xfolkentry") {
            self.found.push(Found::Entry {
                folder,
                entry: Entry {
                    id: v.data_id.clone(),
                    at,
                    ..Entry::default()
                },
            });
            frame.entry = Some(Some(self.found.len() - 1));
            // A new entry's text is its own.
            frame.gather[TITLE] = None;
            frame.gather[DESC] = None;
            frame.gather[EXTENDED] = None;
        } else if v
            .classes
            .iter()
            .any(|c| FOREIGN_ROOTS.contains(&c.as_str()))
        {
            frame.entry = Some(None);
        } else if key == "section" && v.has("folder") {
            self.section(raw, &v, folder, &mut frame);
        } else {
            if key == "h1" && !self.h1_started {
                self.h1_started = true;
                self.gatherer(&mut frame, PAGE_H1, Goal::PageHeading, false);
            }
            if v.has("intro") && !self.intro_started && entry.is_none() {
                self.intro_started = true;
                self.gatherer(&mut frame, INTRO, Goal::Intro, true);
            }
        }
        if let Some(check) = &mut self.check {
            let in_entry = matches!(frame.entry, Some(Some(_)));
            let tags = v.has("tag") || v.has("tags");
            frame.opens_tags = check.start(at, in_entry, key == "a" && v.rel_tag, tags);
        }
        let mark = if key == "br" {
            Some(LINE)
        } else {
            frame.block.then_some(PARAGRAPH)
        };
        if let Some(mark) = mark {
            for g in frame.gatherers() {
                if self.gatherers[g].marked {
                    self.gatherers[g].text.push(mark);
                }
            }
        }
        self.stack.push(frame);
    }

    /// An element inside entry `i`: its link, description, tags, date.
    fn entry_properties(&mut self, i: usize, key: &str, v: &Attrs, frame: &mut Frame, at: usize) {
        let Found::Entry { entry: e, .. } = &mut self.found[i] else {
            return;
        };
        let mut title = None;
        if v.has("taggedlink") && e.href.is_none() {
            if let Some(h) = v.href.as_deref().filter(|h| !h.trim().is_empty()) {
                e.href = Some(self.resolver.resolve(h));
                title = Some(v.title.as_deref().map(collapse).filter(|t| !t.is_empty()));
            }
        }
        if v.rel_tag {
            if let Some(tag) = v
                .href
                .as_deref()
                .map(|h| self.resolver.resolve(h))
                .and_then(|h| tag_of(&h))
            {
                if !e.tags.contains(&tag) {
                    e.tags.push(tag);
                }
            }
        }
        let written = if e.added.is_some() {
            None
        } else if key == "time" {
            v.datetime.as_deref()
        } else if key == "abbr" && (v.has("published") || v.has("created") || v.has("posted")) {
            v.title.as_deref()
        } else {
            None
        };
        if let Some(d) = written {
            let mut diags = Vec::new();
            let value = date(d, &mut diags);
            if let Found::Entry { entry: e, .. } = &mut self.found[i] {
                e.added = Some(value);
            }
            for mut diag in diags {
                diag.location = Some(self.locate(at));
                self.diags.push(diag);
            }
        }
        if let Some(attr) = title {
            // The title is this link's: its text is gathered until it closes.
            self.gatherer(frame, TITLE, Goal::Title { entry: i, attr }, false);
        }
        if v.has("description") {
            if frame.gather[DESC].is_none() {
                self.gatherer(frame, DESC, Goal::Desc(i), true);
            }
        } else if v.has("extended") && frame.gather[EXTENDED].is_none() {
            self.gatherer(frame, EXTENDED, Goal::Extended(i), true);
        }
    }

    /// markport's own pages: a section per folder, its parent named when the
    /// page had to stop nesting them.
    fn section(&mut self, raw: &[RawAttr], v: &Attrs, folder: Option<usize>, frame: &mut Frame) {
        let key = attr(raw, "data-folder").map(|k| k.into_owned());
        if let Some(&i) = key.as_ref().and_then(|k| self.folder_index.get(k)) {
            frame.folder = Some(i);
            return;
        }
        let parent = attr(raw, "data-parent")
            .and_then(|p| self.folder_index.get(p.as_ref()).copied())
            .or(folder);
        let mut f = Folder::new();
        f.id = v.data_id.clone();
        self.found.push(Found::Folder {
            parent,
            folder: Box::new(f),
        });
        if let Some(k) = key {
            self.folder_index.insert(k, self.found.len() - 1);
        }
        frame.folder = Some(self.found.len() - 1);
        frame.wants_heading = true;
        frame.wants_desc = true;
    }

    fn text(&mut self, t: &str) {
        let Some(frame) = self.stack.last() else {
            return;
        };
        for g in frame.gatherers() {
            let g = &mut self.gatherers[g];
            if g.marked {
                g.text.push_str(&t.replace([PARAGRAPH, LINE], " "));
            } else {
                g.text.push_str(t);
            }
        }
    }

    /// An element closes: its block mark goes to the text gathered around
    /// it, and what it gathered goes where it belongs.
    fn end(&mut self) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        if let (true, Some(check)) = (frame.opens_tags, &mut self.check) {
            check.end_tags();
        }
        if frame.block {
            for g in frame.gatherers() {
                if self.gatherers[g].marked {
                    self.gatherers[g].text.push(PARAGRAPH);
                }
            }
        }
        for index in frame.owns.into_iter().flatten() {
            let g = &mut self.gatherers[index];
            let mut text = std::mem::take(&mut g.text);
            match &mut g.goal {
                Goal::Title { entry, attr } => {
                    if let Found::Entry { entry: e, .. } = &mut self.found[*entry] {
                        let alt = || g.alt.as_deref().map(collapse).filter(|t| !t.is_empty());
                        e.title = attr
                            .take()
                            .or_else(|| Some(collapse(&text)).filter(|t| !t.is_empty()))
                            .or_else(alt);
                    }
                }
                Goal::Desc(i) | Goal::Extended(i) => {
                    let d = blocks(&text);
                    if let (false, Found::Entry { entry: e, .. }) =
                        (d.is_empty(), &mut self.found[*i])
                    {
                        if matches!(g.goal, Goal::Desc(_)) {
                            e.descs.push(d);
                        } else {
                            e.extended.push(d);
                        }
                    }
                }
                Goal::FolderTitle(i) => {
                    if let Found::Folder { folder, .. } = &mut self.found[*i] {
                        folder.title = Some(collapse(&text)).filter(|t| !t.is_empty());
                    }
                }
                Goal::FolderDesc(i) => {
                    if let Found::Folder { folder, .. } = &mut self.found[*i] {
                        folder.desc = Some(blocks(&text)).filter(|d| !d.is_empty());
                    }
                }
                Goal::PageTitle => self.head.title = Some(collapse(&text)),
                Goal::PageHeading => self.h1 = Some(collapse(&text)),
                Goal::Intro => self.intro = Some(blocks(&text)),
            }
            // Nothing refers to a finished gatherer (the frames that did
            // are closed): its slot and buffer serve the next one, so the
            // list is as long as the deepest nesting, not the page.
            text.clear();
            self.gatherers[index].text = text;
            self.free_gatherers.push(index);
        }
    }
}

pub(crate) fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let decoded = markport_markup::charset::decode(input, opts.encoding.as_deref())?;
    let text = decoded.text;
    let mut diags = decoded.diagnostics;
    let doc_url = opts
        .xfolk
        .base_url
        .as_deref()
        .and_then(|u| match Url::parse(u) {
            Ok(u) => Some(u),
            Err(e) => {
                diags.push(Diagnostic::warning(
                    format!("--base-url {u:?} is not a URL ({e}); relative links stay relative"),
                    None,
                ));
                None
            }
        });
    let mut r = Reader {
        lines: None,
        src: &text,
        resolver: Resolver {
            base: doc_url.clone(),
        },
        doc_url,
        head: Head::default(),
        found: Vec::new(),
        stack: Vec::new(),
        gatherers: Vec::new(),
        free_gatherers: Vec::new(),
        folder_index: HashMap::new(),
        h1: None,
        intro: None,
        h1_started: false,
        intro_started: false,
        diags,
        check: None,
    };
    if opts.checking {
        r.check = Some(Checks::new(&text));
    }
    let mut walk = Walker::new(&text);
    // What the entries found may take: `<b class=xfolkentry>` is a score
    // of bytes, an entry and then a node of hundreds each. Values are
    // slices of the page, within its allowance.
    let mut budget = Budget::new(opts, text.len());
    let (mut entries, mut said) = (0, r.diags.len());
    while let Some(ev) = walk.next() {
        let at = match &ev {
            Event::Start { at, .. } => Some(*at),
            _ => None,
        };
        match ev {
            Event::Start { name, attrs, at } => r.start(name, attrs, at),
            Event::Text { text, .. } => r.text(&text),
            Event::End { .. } => r.end(),
        }
        if r.found.len() > entries || r.diags.len() > said {
            let new = (r.found.len() - entries) as u64;
            let charged = budget
                .charge(usize::try_from(new * 2 * NODE_COST).unwrap_or(usize::MAX))
                .and_then(|()| {
                    r.diags[said..]
                        .iter()
                        .try_for_each(|d| budget.diagnostic(d))
                });
            if let Err(mut e) = charged {
                e.location = at.map(|at| r.locate(at));
                return Err(e);
            }
            (entries, said) = (r.found.len(), r.diags.len());
        }
    }
    for p in walk.problems() {
        let at = r.locate(p.at);
        r.diags.push(Diagnostic::warning(p.message, Some(at)));
    }
    let Reader {
        found: events,
        head,
        h1,
        intro,
        mut diags,
        check,
        ..
    } = r;
    let found_rules = check.map(|mut check| {
        for e in &events {
            if let Found::Entry { entry, .. } = e {
                if entry.href.is_none() {
                    check.missing_link(entry.at);
                }
            }
        }
        check.finish()
    });
    let title = head.title;
    let generator = head.generator;
    let mut skipped = 0usize;
    let found = events
        .iter()
        .filter(|e| matches!(e, Found::Entry { .. }))
        .count();
    if found == 0 && !generator {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "no xFolk entries on this page (no element has the class xfolkentry)",
            None,
        )
        .with_found(found_rules.unwrap_or_default()));
    }
    diags.extend(found_rules.into_iter().flatten());
    let mut doc = Document::new();
    doc.header.title = title
        .filter(|t| !t.is_empty())
        .or(h1.filter(|t| !t.is_empty()));
    doc.header.desc = intro.filter(|d| !d.is_empty());
    let mut ids: Vec<Option<NodeId>> = Vec::with_capacity(events.len());
    for ev in events {
        match ev {
            Found::Folder { parent, folder } => {
                let p = parent.and_then(|i| ids[i]);
                ids.push(Some(doc.push(p, *folder)));
            }
            Found::Entry { folder, entry } => {
                let Some(href) = entry.href else {
                    skipped += 1;
                    ids.push(None);
                    continue;
                };
                let mut b = Bookmark::new(href);
                b.title = entry.title;
                let descs = if entry.descs.is_empty() {
                    entry.extended
                } else {
                    entry.descs
                };
                b.desc = (!descs.is_empty()).then(|| descs.join("\n\n"));
                b.tags = entry.tags;
                b.added = entry.added;
                if entry.id.is_some() {
                    b.details_mut().id = entry.id;
                }
                let p = folder.and_then(|i| ids[i]);
                ids.push(Some(doc.push(p, b)));
            }
        }
    }
    if skipped > 0 {
        diags.push(Diagnostic::warning(
            format!("{skipped} xfolkentry element(s) without a taggedlink href skipped"),
            None,
        ));
    }
    Ok(Parsed::new(doc, diags))
}
