//! The reader: one walk over the parsed page, in document order, with a
//! stack of the entries (and other microformats) open at each point, so each
//! property goes to its nearest enclosing entry in linear time.

use std::collections::HashMap;

use markport_model::{
    Bookmark, DateValue, Diagnostic, Document, Error, ErrorKind, Folder, NodeId, Parsed,
    ReadOptions, Timestamp,
};
use scraper::node::Element;
use scraper::{ElementRef, Html, Node};
use url::Url;

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
}

enum Event {
    Folder {
        parent: Option<usize>,
        folder: Folder,
    },
    Entry {
        folder: Option<usize>,
        entry: Entry,
    },
}

/// What an open element on the walk's stack is, and what is in effect
/// inside it. Each frame is its parent's with this element's changes, so
/// nothing on the walk searches the stack (depth would make it quadratic).
#[derive(Clone, Copy, Default)]
struct Frame {
    /// The nearest entry or other microformat root: `None` outside both,
    /// `Some(None)` when a foreign root is nearer than any entry.
    entry: Option<Option<usize>>,
    folder: Option<usize>,
    /// The gatherers the text here goes to (indices into the walk's list).
    title: Option<usize>,
    desc: Option<usize>,
    extended: Option<usize>,
    folder_title: Option<usize>,
    folder_desc: Option<usize>,
    /// A section's heading and description are its first such children.
    wants_heading: bool,
    wants_desc: bool,
    /// The gatherers this element started, finished when it closes.
    owns: [Option<usize>; 4],
}

impl Frame {
    fn gatherers(&self) -> impl Iterator<Item = usize> {
        [
            self.title,
            self.desc,
            self.extended,
            self.folder_title,
            self.folder_desc,
        ]
        .into_iter()
        .flatten()
    }

    fn own(&mut self, g: usize) {
        if let Some(slot) = self.owns.iter_mut().find(|s| s.is_none()) {
            *slot = Some(g);
        }
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

fn classes(el: &Element) -> impl Iterator<Item = &str> {
    el.attr("class")
        .unwrap_or("")
        .split([' ', '\t', '\n', '\r', '\x0C'])
        .filter(|c| !c.is_empty())
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

/// An element's text with paragraph and line marks, for [`blocks`].
fn marked_text(el: ElementRef) -> String {
    let mut out = String::new();
    for edge in el.traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) => match n.value() {
                Node::Text(t) => out.push_str(&t.replace([PARAGRAPH, LINE], " ")),
                Node::Element(e) if e.name() == "br" => out.push(LINE),
                Node::Element(e) if BLOCKS.contains(&e.name()) => out.push(PARAGRAPH),
                _ => {}
            },
            ego_tree::iter::Edge::Close(n) => {
                if let Node::Element(e) = n.value() {
                    if BLOCKS.contains(&e.name()) {
                        out.push(PARAGRAPH);
                    }
                }
            }
        }
    }
    out
}

/// An element closes: its block mark goes to the text gathered around it,
/// and what it gathered goes where it belongs.
fn close(el: &Element, frame: &Frame, gatherers: &mut [Gatherer], events: &mut [Event]) {
    if BLOCKS.contains(&el.name()) {
        for g in frame.gatherers() {
            if gatherers[g].marked {
                gatherers[g].text.push(PARAGRAPH);
            }
        }
    }
    for g in frame.owns.into_iter().flatten() {
        let g = &mut gatherers[g];
        let text = std::mem::take(&mut g.text);
        match &mut g.goal {
            Goal::Title { entry, attr } => {
                if let Event::Entry { entry: e, .. } = &mut events[*entry] {
                    let alt = || g.alt.as_deref().map(collapse).filter(|t| !t.is_empty());
                    e.title = attr
                        .take()
                        .or_else(|| Some(collapse(&text)).filter(|t| !t.is_empty()))
                        .or_else(alt);
                }
            }
            Goal::Desc(i) | Goal::Extended(i) => {
                let d = blocks(&text);
                if let (false, Event::Entry { entry: e, .. }) = (d.is_empty(), &mut events[*i]) {
                    if matches!(g.goal, Goal::Desc(_)) {
                        e.descs.push(d);
                    } else {
                        e.extended.push(d);
                    }
                }
            }
            Goal::FolderTitle(i) => {
                if let Event::Folder { folder, .. } = &mut events[*i] {
                    folder.title = Some(collapse(&text)).filter(|t| !t.is_empty());
                }
            }
            Goal::FolderDesc(i) => {
                if let Event::Folder { folder, .. } = &mut events[*i] {
                    folder.desc = Some(blocks(&text)).filter(|d| !d.is_empty());
                }
            }
        }
    }
}

fn plain_text(el: ElementRef) -> String {
    collapse(&el.text().collect::<String>())
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
        if Url::parse(href).is_ok() {
            return href.to_owned();
        }
        match &self.base {
            Some(b) => b
                .join(href.trim())
                .map_or_else(|_| href.to_owned(), String::from),
            None => href.to_owned(),
        }
    }
}

pub(crate) fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let (text, mut diags) = markport_netscape::decode_html_bytes(input, opts.encoding.as_deref())?;
    let html = Html::parse_document(&text);
    let base_url = &opts.xfolk.base_url;
    let doc_url = base_url.as_deref().and_then(|u| match Url::parse(u) {
        Ok(u) => Some(u),
        Err(e) => {
            diags.push(Diagnostic::warning(
                format!("--base-url {u:?} is not a URL ({e}); relative links stay relative"),
                None,
            ));
            None
        }
    });
    let mut base = doc_url.clone();
    let mut generator = false;
    let mut title = None;
    let mut intro = None;
    for el in html.root_element().descendent_elements() {
        let v = el.value();
        match v.name() {
            "base" => {
                if let Some(h) = v.attr("href") {
                    let joined = match &doc_url {
                        Some(d) => d.join(h).ok(),
                        None => Url::parse(h).ok(),
                    };
                    if joined.is_some() {
                        base = joined;
                    }
                }
                break;
            }
            "meta" if v.attr("name") == Some("generator") => {
                generator |= v.attr("content") == Some(crate::GENERATOR);
            }
            "title" if title.is_none() => title = Some(plain_text(el)),
            "body" => break,
            _ => {}
        }
    }
    let resolver = Resolver { base };

    let mut events: Vec<Event> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut gatherers: Vec<Gatherer> = Vec::new();
    let mut folder_index: HashMap<String, usize> = HashMap::new();
    let mut h1 = None;
    let mut skipped = 0usize;
    for edge in html.root_element().traverse() {
        let node = match edge {
            ego_tree::iter::Edge::Open(n) => n,
            ego_tree::iter::Edge::Close(n) => {
                if let Node::Element(e) = n.value() {
                    if let Some(frame) = stack.pop() {
                        close(e, &frame, &mut gatherers, &mut events);
                    }
                }
                continue;
            }
        };
        if let Node::Text(t) = node.value() {
            if let Some(frame) = stack.last() {
                for g in frame.gatherers() {
                    let g = &mut gatherers[g];
                    if g.marked {
                        g.text.push_str(&t.replace([PARAGRAPH, LINE], " "));
                    } else {
                        g.text.push_str(t);
                    }
                }
            }
            continue;
        }
        let Some(el) = ElementRef::wrap(node) else {
            continue;
        };
        let v = el.value();
        // Class tokens once per element: the attribute lookup is a scan.
        let cls: Vec<&str> = classes(v).collect();
        let has = |name: &str| cls.contains(&name);
        let parent = stack.last_mut();
        let mut frame = Frame {
            wants_heading: false,
            wants_desc: false,
            owns: [None; 4],
            ..parent.as_deref().copied().unwrap_or_default()
        };
        // A section's heading and description, claimed by its first
        // children that are one.
        if let Some(p) = parent {
            if let Some(folder) = p.folder.filter(|_| p.wants_heading || p.wants_desc) {
                if p.wants_heading && matches!(v.name(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6") {
                    p.wants_heading = false;
                    frame.folder_title = Some(gatherers.len());
                    frame.own(gatherers.len());
                    gatherers.push(Gatherer {
                        goal: Goal::FolderTitle(folder),
                        marked: false,
                        text: String::new(),
                        alt: None,
                    });
                }
                if p.wants_desc && has("folder-description") {
                    p.wants_desc = false;
                    frame.folder_desc = Some(gatherers.len());
                    frame.own(gatherers.len());
                    gatherers.push(Gatherer {
                        goal: Goal::FolderDesc(folder),
                        marked: true,
                        text: String::new(),
                        alt: None,
                    });
                }
            }
        }
        let entry = frame.entry;
        let folder = frame.folder;
        // Properties of the nearest open entry.
        if let Some(Some(i)) = entry {
            if let Event::Entry { entry: e, .. } = &mut events[i] {
                if has("taggedlink") && e.href.is_none() {
                    if let Some(h) = v.attr("href").filter(|h| !h.trim().is_empty()) {
                        e.href = Some(resolver.resolve(h));
                        // The title is this link's: its text is gathered
                        // until it closes.
                        frame.title = Some(gatherers.len());
                        frame.own(gatherers.len());
                        gatherers.push(Gatherer {
                            goal: Goal::Title {
                                entry: i,
                                attr: v.attr("title").map(collapse).filter(|t| !t.is_empty()),
                            },
                            marked: false,
                            text: String::new(),
                            alt: None,
                        });
                    }
                }
                if has("description") {
                    if frame.desc.is_none() {
                        frame.desc = Some(gatherers.len());
                        frame.own(gatherers.len());
                        gatherers.push(Gatherer {
                            goal: Goal::Desc(i),
                            marked: true,
                            text: String::new(),
                            alt: None,
                        });
                    }
                } else if has("extended") && frame.extended.is_none() {
                    frame.extended = Some(gatherers.len());
                    frame.own(gatherers.len());
                    gatherers.push(Gatherer {
                        goal: Goal::Extended(i),
                        marked: true,
                        text: String::new(),
                        alt: None,
                    });
                }
                let rel_tag = v.attr("rel").is_some_and(|r| {
                    r.split_ascii_whitespace()
                        .any(|t| t.eq_ignore_ascii_case("tag"))
                });
                if rel_tag {
                    if let Some(tag) = v
                        .attr("href")
                        .map(|h| resolver.resolve(h))
                        .and_then(|h| tag_of(&h))
                    {
                        if !e.tags.contains(&tag) {
                            e.tags.push(tag);
                        }
                    }
                }
                if e.added.is_none() {
                    if v.name() == "time" {
                        if let Some(d) = v.attr("datetime") {
                            e.added = Some(date(d, &mut diags));
                        }
                    } else if v.name() == "abbr"
                        && (has("published") || has("created") || has("posted"))
                    {
                        if let Some(d) = v.attr("title") {
                            e.added = Some(date(d, &mut diags));
                        }
                    }
                }
            }
        }
        if let Some(g) = frame.title {
            let g = &mut gatherers[g];
            if g.alt.is_none() {
                g.alt = v.attr("alt").map(str::to_owned);
            }
        }
        if has("xfolkentry") {
            events.push(Event::Entry {
                folder,
                entry: Entry {
                    id: v.attr("data-id").map(str::to_owned),
                    ..Entry::default()
                },
            });
            frame.entry = Some(Some(events.len() - 1));
            // A new entry's text is its own.
            frame.title = None;
            frame.desc = None;
            frame.extended = None;
        } else if cls.iter().any(|c| FOREIGN_ROOTS.contains(c)) {
            frame.entry = Some(None);
        } else if v.name() == "section" && has("folder") {
            // markport's own pages: a section per folder, its parent named
            // when the page had to stop nesting them.
            let key = v.attr("data-folder").map(str::to_owned);
            if let Some(&i) = key.as_ref().and_then(|k| folder_index.get(k)) {
                frame.folder = Some(i);
            } else {
                let parent = v
                    .attr("data-parent")
                    .and_then(|p| folder_index.get(p).copied())
                    .or(folder);
                let mut f = Folder::new();
                f.id = v.attr("data-id").map(str::to_owned);
                events.push(Event::Folder { parent, folder: f });
                if let Some(k) = key {
                    folder_index.insert(k, events.len() - 1);
                }
                frame.folder = Some(events.len() - 1);
                frame.wants_heading = true;
                frame.wants_desc = true;
            }
        } else {
            if v.name() == "h1" && h1.is_none() {
                h1 = Some(plain_text(el));
            }
            if has("intro") && intro.is_none() && entry.is_none() {
                intro = Some(blocks(&marked_text(el)));
            }
        }
        let mark = if v.name() == "br" {
            Some(LINE)
        } else {
            BLOCKS.contains(&v.name()).then_some(PARAGRAPH)
        };
        if let Some(mark) = mark {
            for g in frame.gatherers() {
                if gatherers[g].marked {
                    gatherers[g].text.push(mark);
                }
            }
        }
        stack.push(frame);
    }

    let found = events
        .iter()
        .filter(|e| matches!(e, Event::Entry { .. }))
        .count();
    if found == 0 && !generator {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "no xFolk entries on this page (no element has the class xfolkentry)",
            None,
        ));
    }
    let mut doc = Document::new();
    doc.header.title = title
        .filter(|t| !t.is_empty())
        .or(h1.filter(|t| !t.is_empty()));
    doc.header.desc = intro.filter(|d| !d.is_empty());
    let mut ids: Vec<Option<NodeId>> = Vec::with_capacity(events.len());
    for ev in events {
        match ev {
            Event::Folder { parent, folder } => {
                let p = parent.and_then(|i| ids[i]);
                ids.push(Some(doc.push(p, folder)));
            }
            Event::Entry { folder, entry } => {
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
