//! One xFolk entry, the unit every markport page is made of: the one-page
//! writer (`--to xfolk`) and the site publisher (`markport publish`, crate
//! `markport-publish`) write bookmarks through [`Entries`], once per entry, so
//! both publish the same markup, withhold the same links and report the
//! same losses.
//!
//! ```
//! use markport_model::{Bookmark, Document, LossReport, XfolkWriteOptions};
//! use markport_xfolk::entry::{Entries, Written};
//!
//! let mut doc = Document::new();
//! let mut b = Bookmark::new("https://example.org/").with_title("Example <site>");
//! b.tags = vec!["New York".into()];
//! let id = doc.push(None, b);
//! let (mut out, mut loss) = (String::new(), LossReport::new());
//! let tag_href = |t: &str| format!("/t/{}", markport_xfolk::entry::tag_segment(t));
//! let opts = XfolkWriteOptions::default();
//! let entries = Entries::new(&doc, &opts);
//! assert_eq!(entries.write(&mut out, &mut loss, id, &tag_href), Written::Entry);
//! assert_eq!(entries.shown(id).unwrap(), ("Example <site>".into(), "https://example.org/".into()));
//! assert!(out.contains("Example &lt;site&gt;") && out.contains(r#"href="/t/New%20York""#));
//! ```

use std::borrow::Cow;

use markport_markup::entities::escape_into as escape_html;
use markport_model::{
    bookmark_fields, Bookmark, DateValue, Document, Field, LossReport, Node, NodeId,
    XfolkWriteOptions,
};

use crate::text::{collapse, is_block_normal, paragraphs};

/// The stylesheet of every markport page (phone-sized, light and dark,
/// print): embedded by the one-page writer, a shared `style.css` on a site.
pub const STYLE: &str = include_str!("page.css");

/// What [`Entries::write`] made of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// An `li.xfolkentry.h-entry`.
    Entry,
    /// An `li.inert`: a link that is not published as a link (script,
    /// `place:`, `%s`), shown as text; reported withheld.
    Inert,
    /// Nothing: a private bookmark, a bookmark without a link, or a node
    /// that is not a bookmark; reported withheld.
    Withheld,
}

/// Characters an HTML page cannot carry: NUL (parsers turn it into U+FFFD
/// or drop it), the other C0 controls but tab, line feed, form feed and
/// carriage return, DEL and the C1 controls (U+007F–U+009F: HTML calls them
/// parse errors, and a page shown as text or pasted into a terminal would
/// pass U+0085, a line break in some programs, or an escape sequence on),
/// and the noncharacters U+FFFE and U+FFFF. The writers leave them out and
/// report the fields that had them.
pub fn unwritable(c: char) -> bool {
    matches!(
        c,
        '\0'..='\x08' | '\x0B' | '\x0E'..='\x1F' | '\x7F'..='\u{9F}' | '\u{FFFE}' | '\u{FFFF}'
    )
}

/// A link exactly as every markport page, feed and search index writes it:
/// without the [`unwritable`] characters and form feeds (which XML cannot
/// hold). Every check on a link ([`is_script_url`], [`browser_only`],
/// [`is_published`]) is made on this string, so no character the writers
/// drop can hide a scheme from the check (`java\u{1}script:` is written,
/// and checked, as `javascript:`).
pub fn written_href(href: &str) -> Cow<'_, str> {
    let dropped = |c: char| unwritable(c) || c == '\x0C';
    if href.contains(dropped) {
        Cow::Owned(href.replace(dropped, ""))
    } else {
        Cow::Borrowed(href)
    }
}

/// The scheme a browser reads in `href`, lower-cased, as the WHATWG URL
/// parser reads it: leading and trailing C0 controls and spaces stripped,
/// ASCII tabs and newlines removed anywhere, then an ASCII letter followed
/// by letters, digits, `+`, `-` or `.` up to the first `:`. `None` when
/// there is no scheme (a relative link).
pub fn url_scheme(href: &str) -> Option<String> {
    let mut scheme = String::new();
    let trimmed = href.trim_matches(|c: char| c <= ' ');
    for c in trimmed.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')) {
        if c == ':' {
            return (!scheme.is_empty()).then_some(scheme);
        }
        let ok = if scheme.is_empty() {
            c.is_ascii_alphabetic()
        } else {
            c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
        };
        if !ok {
            return None;
        }
        scheme.push(c.to_ascii_lowercase());
    }
    None
}

/// Whether a link, as it will be written ([`written_href`]), would run
/// script when followed: its scheme ([`url_scheme`]) is `javascript`,
/// `data` or `vbscript`.
pub fn is_script_url(href: &str) -> bool {
    matches!(
        url_scheme(&written_href(href)).as_deref(),
        Some("javascript" | "data" | "vbscript")
    )
}

/// The schemes of a browser's own pages, of its extensions and of the
/// publisher's local files, lower-case: a page on the web cannot open them
/// (browsers refuse to navigate a web page to them) and they show the
/// publisher's own settings, add-ons and paths, not something to share.
/// Chromium names its own schemes in `content/public/common/url_constants.cc`
/// (`chrome`, `chrome-untrusted`, `chrome-error`, `chrome-guest`,
/// `devtools`, once `chrome-devtools`, `view-source`) and
/// `extensions/common/constants.h` (`chrome-extension`), with
/// `chrome-search` for its new-tab page; the browsers built on it show
/// `chrome:` under their own name (`edge:`, `brave:`, `opera:`,
/// `vivaldi:`; Edge's extensions as `extension:`). Firefox has `about:`
/// (which Chromium also reads as its own pages), `chrome:`, `resource:`,
/// `moz-extension:`, `view-source:` and `place:` (a query, said apart:
/// [`browser_only`]); Safari `safari-extension:` and
/// `safari-web-extension:`; every browser `file:`.
pub const INTERNAL_SCHEMES: &[&str] = &[
    "about",
    "brave",
    "chrome",
    "chrome-devtools",
    "chrome-error",
    "chrome-extension",
    "chrome-guest",
    "chrome-search",
    "chrome-untrusted",
    "devtools",
    "edge",
    "extension",
    "file",
    "moz-extension",
    "opera",
    "resource",
    "safari-extension",
    "safari-web-extension",
    "view-source",
    "vivaldi",
];

/// What the report says of a link to a browser's own page or a local file
/// ([`INTERNAL_SCHEMES`]); the reason of every such withheld link starts
/// with it, so a caller can count them in a [`LossReport`].
pub const INTERNAL_LINK: &str =
    "a link to a browser's own page or a local file (chrome:, edge:, about:, file:, ...) opens only in that browser, not from a web page";

/// Why a link, as it will be written ([`written_href`]), is something only
/// a browser's own bookmarks understand, not a web page: a Firefox
/// `place:` query (a saved search over the bookmarks and history), a
/// browser's own page or a local file ([`INTERNAL_SCHEMES`], decided on the
/// scheme as a browser reads it: [`url_scheme`]), or a keyword-search
/// template whose `%s` the browser fills in (no URL has `%s`: `s` is not a
/// hex digit; tabs and newlines, which URL parsing removes, do not hide
/// it).
pub fn browser_only(href: &str) -> Option<&'static str> {
    let h = written_href(href);
    match url_scheme(&h).as_deref() {
        Some("place") => return Some("a Firefox place: query is not a web page"),
        Some(s) if INTERNAL_SCHEMES.contains(&s) => return Some(INTERNAL_LINK),
        _ => {}
    }
    let bare: Cow<'_, str> = if h.contains(['\t', '\n', '\r']) {
        Cow::Owned(h.replace(['\t', '\n', '\r'], ""))
    } else {
        h
    };
    if bare.contains("%s") || bare.contains("%S") {
        Some("a keyword-search template (%s) is not a web page")
    } else {
        None
    }
}

/// Whether `b` is published as an entry under `opts` (not private unless
/// asked, has a link, not a script or browser-only link unless asked).
pub fn is_published(b: &Bookmark, opts: &XfolkWriteOptions) -> bool {
    (opts.include_private || b.private != Some(true))
        && !written_href(&b.href).trim().is_empty()
        && (opts.allow_script_urls || !is_script_url(&b.href))
        && (opts.allow_browser_urls || browser_only(&b.href).is_none())
}

/// A tag as the last path segment of a rel-tag link: every byte but RFC
/// 3986's unreserved ones percent-encoded, so xFolk readers (markport's,
/// HTML::Microformats) decode exactly the tag back.
pub fn tag_segment(tag: &str) -> String {
    crate::tags::segment_for(tag)
}

/// Escaped text, without the [`unwritable`] characters (callers report the
/// fields that had any).
pub fn write_text(out: &mut String, s: &str) {
    if s.contains(unwritable) {
        escape_html(out, &s.replace(unwritable, ""));
    } else {
        escape_html(out, s);
    }
}

/// A description as `<p>` paragraphs with `<br>` lines, the form xFolk
/// readers read back.
pub fn write_paragraphs(out: &mut String, text: &str) {
    // Line ends after `<br>` and between paragraphs keep words apart for
    // readers that take an element's plain textContent.
    for (n, p) in paragraphs(text).into_iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str("<p>");
        for (i, line) in p.iter().enumerate() {
            if i > 0 {
                out.push_str("<br>\n");
            }
            write_text(out, line);
        }
        out.push_str("</p>");
    }
}

/// Whether a description reads back exactly as it is written by
/// [`write_paragraphs`].
pub fn reads_back(desc: &str) -> bool {
    is_block_normal(desc) && !desc.contains(unwritable)
}

/// Why a description (or other block text) `d` does not read back: the
/// [`unwritable`] characters left out, else its white space.
pub fn text_loss(d: &str) -> &'static str {
    if d.contains(unwritable) {
        "control characters a page cannot carry are left out"
    } else {
        "text is read back with whitespace collapsed into lines and paragraphs"
    }
}

/// A title as a page shows it: whitespace collapsed, unwritable characters
/// left out; `None` when nothing is left.
pub fn shown_title(title: &str) -> Option<String> {
    Some(collapse(&title.replace(unwritable, ""))).filter(|t| !t.is_empty())
}

/// The entries of one document under one set of options: what a page
/// needs of xFolk to publish its bookmarks (which are published, what
/// they show, their markup), taken once.
#[derive(Clone, Copy)]
pub struct Entries<'a> {
    doc: &'a Document,
    opts: &'a XfolkWriteOptions,
}

impl<'a> Entries<'a> {
    /// The entries of `doc` under `opts`.
    pub fn new(doc: &'a Document, opts: &'a XfolkWriteOptions) -> Entries<'a> {
        Entries { doc, opts }
    }

    /// Whether node `id` is published as an entry ([`is_published`]).
    pub fn published(&self, id: NodeId) -> bool {
        matches!(self.doc.node(id), Node::Bookmark(b) if is_published(b, self.opts))
    }

    /// The title and the link node `id` shows as a published entry, as
    /// [`Entries::write`] writes them (an untitled entry shows its link);
    /// `None` when it is not published.
    pub fn shown(&self, id: NodeId) -> Option<(String, String)> {
        let b = self.doc.node(id).as_bookmark()?;
        is_published(b, self.opts).then(|| {
            (
                b.title
                    .as_deref()
                    .and_then(shown_title)
                    .unwrap_or_else(|| b.href.clone()),
                written_href(&b.href).into_owned(),
            )
        })
    }

    /// Write node `id` as an xFolk/mf2 entry into `out`, recording in `loss`
    /// what the entry cannot carry or what is withheld. `tag_href` gives the
    /// link of each tag; its last path segment must be [`tag_segment`] of
    /// the tag for readers to read the tag back.
    pub fn write(
        &self,
        out: &mut String,
        loss: &mut LossReport,
        id: NodeId,
        tag_href: &dyn Fn(&str) -> String,
    ) -> Written {
        let doc = self.doc;
        let b = match doc.node(id) {
            Node::Bookmark(b) => b,
            Node::Separator(_) => {
                loss.record(
                    doc,
                    Some(id),
                    Field::Separator,
                    "xFolk lists have no separators",
                );
                return Written::Withheld;
            }
            Node::Alias(_) => {
                loss.record(doc, Some(id), Field::Alias, "xFolk has no aliases");
                return Written::Withheld;
            }
            // Folders are the caller's; a kind of node added to the model
            // after this writer has nothing to write yet.
            _ => return Written::Withheld,
        };
        let mut w = Entry {
            out,
            loss,
            doc,
            lost: Vec::new(),
        };
        w.bookmark(id, b, self.opts, tag_href)
    }
}

struct Entry<'a> {
    out: &'a mut String,
    loss: &'a mut LossReport,
    doc: &'a Document,
    /// The fields of this entry's bookmark already reported: it counts
    /// once per field (as `diff` counts it), however many of its tags
    /// repeat.
    lost: Vec<Field>,
}

impl Entry<'_> {
    fn lose(&mut self, node: Option<NodeId>, field: Field, why: &str) {
        if node.is_some() {
            if self.lost.contains(&field) {
                return;
            }
            self.lost.push(field);
        }
        self.loss.record(self.doc, node, field, why);
    }

    fn text(&mut self, s: &str) {
        write_text(self.out, s);
    }

    /// A bookmark shown as text, not as a link and not as an entry: no
    /// parser takes it for one, and it is reported withheld.
    fn inert(&mut self, n: Option<NodeId>, b: &Bookmark, why: &str) -> Written {
        self.lose(n, Field::Bookmark, why);
        self.out.push_str("<li class=\"inert\">");
        self.text(b.title.as_deref().unwrap_or("Untitled"));
        self.out.push_str(" <code>");
        let shown: String = b.href.chars().take(80).collect();
        self.text(&shown);
        self.out
            .push_str("</code> (not published as a link)</li>\n");
        Written::Inert
    }

    /// Bookmark `id` as an entry: published or withheld, then each part of
    /// the entry in the order it is written.
    fn bookmark(
        &mut self,
        id: NodeId,
        b: &Bookmark,
        opts: &XfolkWriteOptions,
        tag_href: &dyn Fn(&str) -> String,
    ) -> Written {
        let n = Some(id);
        let href = match self.publishable(n, b, opts) {
            Ok(href) => href,
            Err(written) => return written,
        };
        self.open(n, b);
        self.link(n, b, &href);
        self.description(n, b);
        let tags = self.tags(n, b);
        self.meta(n, b, &tags, tag_href);
        self.out.push_str("</li>\n");
        self.loss.record_unsupported(
            self.doc,
            n,
            bookmark_fields(b),
            crate::support,
            "an xFolk page has no place for it",
        );
        Written::Entry
    }

    /// The link `b` is published under, or what is written instead: a
    /// private bookmark or one without a link is withheld, a script or
    /// browser-only link shown inert, unless the options publish them.
    fn publishable<'b>(
        &mut self,
        n: Option<NodeId>,
        b: &'b Bookmark,
        opts: &XfolkWriteOptions,
    ) -> Result<Cow<'b, str>, Written> {
        if b.private == Some(true) && !opts.include_private {
            self.lose(
                n,
                Field::Bookmark,
                "private: withheld from the page (--include-private publishes it)",
            );
            return Err(Written::Withheld);
        }
        let href = written_href(&b.href);
        if href.trim().is_empty() {
            self.lose(
                n,
                Field::Bookmark,
                "a bookmark without a link is not an xFolk entry",
            );
            return Err(Written::Withheld);
        }
        if href != b.href.as_str() {
            self.lose(
                n,
                Field::BookmarkHref,
                "control characters a page cannot carry are left out",
            );
        }
        if is_script_url(&b.href) && !opts.allow_script_urls {
            return Err(self.inert(n, b, "a javascript:, data: or vbscript: link is not published as a link (--allow-script-urls publishes it)"));
        }
        if let Some(what) = browser_only(&b.href).filter(|_| !opts.allow_browser_urls) {
            let why =
                format!("{what}: not published as a link (--allow-browser-urls publishes it)");
            return Err(self.inert(n, b, &why));
        }
        Ok(href)
    }

    /// The entry's `<li>`, with its id.
    fn open(&mut self, n: Option<NodeId>, b: &Bookmark) {
        self.out.push_str("<li class=\"xfolkentry h-entry\"");
        if let Some(i) = &b.details().id {
            if i.contains(unwritable) {
                self.lose(
                    n,
                    Field::BookmarkId,
                    "control characters a page cannot carry are left out",
                );
            }
            self.out.push_str(" data-id=\"");
            self.text(i);
            self.out.push('"');
        }
        self.out.push_str(">\n");
    }

    /// The tagged link, its text the title (the link when untitled).
    fn link(&mut self, n: Option<NodeId>, b: &Bookmark, href: &str) {
        self.out
            .push_str("<a class=\"taggedlink u-bookmark-of p-name\" href=\"");
        escape_html(self.out, href);
        self.out.push_str("\">");
        match b.title.as_deref() {
            Some(t) if !t.is_empty() && collapse(t) == t && !t.contains(unwritable) => self.text(t),
            other => {
                let why = if other.is_none() {
                    "an untitled bookmark shows its link as its title"
                } else if other.is_some_and(|t| t.contains(unwritable)) {
                    "control characters a page cannot carry are left out"
                } else {
                    "titles are read with whitespace collapsed"
                };
                self.lose(n, Field::BookmarkTitle, why);
                let shown = other
                    .and_then(shown_title)
                    .unwrap_or_else(|| b.href.clone());
                self.text(&shown);
            }
        }
        self.out.push_str("</a>\n");
    }

    /// The description, in paragraphs.
    fn description(&mut self, n: Option<NodeId>, b: &Bookmark) {
        if let Some(d) = &b.desc {
            if !reads_back(d) {
                self.lose(n, Field::BookmarkDesc, crate::entry::text_loss(d));
            }
            self.out.push_str("<div class=\"description p-summary\">");
            write_paragraphs(self.out, d);
            self.out.push_str("</div>\n");
        }
    }

    /// The tags a page can tell apart: empty and repeated ones are
    /// reported and left out.
    fn tags<'b>(&mut self, n: Option<NodeId>, b: &'b Bookmark) -> Vec<&'b str> {
        let mut tags: Vec<&str> = Vec::new();
        for t in &b.tags {
            if t.is_empty() || tags.contains(&t.as_str()) {
                self.lose(
                    n,
                    Field::BookmarkTags,
                    "empty and repeated tags cannot be told apart on a page",
                );
            } else {
                tags.push(t);
            }
        }
        tags
    }

    /// The line under the link: the tags as `rel="tag"` links, then the
    /// date added; nothing when there is neither.
    fn meta(
        &mut self,
        n: Option<NodeId>,
        b: &Bookmark,
        tags: &[&str],
        tag_href: &dyn Fn(&str) -> String,
    ) {
        if tags.is_empty() && b.added.is_none() {
            return;
        }
        self.out.push_str("<p class=\"meta\">");
        if !tags.is_empty() {
            self.out.push_str("Tags: ");
            for (i, t) in tags.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.out
                    .push_str("<a rel=\"tag\" class=\"p-category\" href=\"");
                let href = tag_href(t);
                self.text(&href);
                self.out.push_str("\">");
                self.text(t);
                self.out.push_str("</a>");
            }
        }
        if let Some(d) = &b.added {
            if !tags.is_empty() {
                self.out.push_str(" · ");
            }
            self.added(n, d);
        }
        self.out.push_str("</p>\n");
    }

    /// The date added, machine-readable in `datetime` and shown by day.
    fn added(&mut self, n: Option<NodeId>, d: &DateValue) {
        let (machine, human) = match d {
            DateValue::Instant(t) => (t.to_w3c(), t.to_w3c().chars().take(10).collect()),
            DateValue::Raw(r) => {
                // HTML turns CR and NUL into other characters.
                if crate::read::date(r, &mut Vec::new()) != *d
                    || r.contains('\r')
                    || r.contains(unwritable)
                {
                    self.lose(
                        n,
                        Field::BookmarkAdded,
                        "this value is not a date and does not read back as written",
                    );
                }
                (r.to_string(), r.to_string())
            }
        };
        self.out
            .push_str("Added <time class=\"dt-published published\" datetime=\"");
        self.text(&machine);
        self.out.push_str("\">");
        self.text(&human);
        self.out.push_str("</time>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `url_scheme` reads a scheme wherever the WHATWG URL parser (the `url`
    /// crate) does, and the same one, on generated strings full of the
    /// characters parsing strips or removes.
    #[test]
    fn schemes_are_read_as_browsers_read_them() {
        let pieces = [
            "j",
            "avascript",
            "DATA",
            "vb",
            "s",
            "+",
            "-",
            ".",
            "1",
            ":",
            "//x",
            "\u{0}",
            "\u{1}",
            "\u{C}",
            "\u{1F}",
            " ",
            "\t",
            "\n",
            "\r",
            "\u{7F}",
            "\u{A0}",
            "é",
            "%",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..50_000 {
            let mut s = String::new();
            for _ in 0..1 + (state % 7) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                s.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            if let Ok(u) = url::Url::parse(&s) {
                assert_eq!(url_scheme(&s).as_deref(), Some(u.scheme()), "{s:?}");
            }
        }
        assert_eq!(
            url_scheme(" \u{1}Java\tScript:x").as_deref(),
            Some("javascript")
        );
        assert_eq!(url_scheme("java\u{1}script:x"), None);
        assert!(is_script_url("java\u{1}script:x"), "written as javascript:");
        assert!(is_script_url("javascript\u{FFFF}:x") && is_script_url("da\u{2}ta:,x"));
        assert!(!is_script_url("https://example.org/javascript:x"));
        assert!(browser_only("pla\u{1}ce:x").is_some());
        assert!(browser_only("https://e.example/?q=%\ns").is_some());
    }

    /// A browser's own page is found on the scheme as a browser reads it:
    /// any case, after leading spaces and controls, through tabs and
    /// newlines and through characters the page leaves out; a web address
    /// that only mentions one is a web page.
    #[test]
    fn browser_internal_pages_are_found_as_browsers_read_them() {
        for internal in [
            "chrome://settings/",
            "CHROME://settings/",
            " \u{1}\tedge://flags/",
            "ab\nout:config",
            "chr\u{1}ome://version",
            "brave://rewards",
            "Opera://about",
            "vivaldi://experiments",
            "file:///home/me/notes.txt",
            "FILE:C:/Users/me",
            "view-source:https://example.org/",
            "moz-extension://0a1b/page.html",
            "chrome-extension://abcdef/options.html",
        ] {
            assert_eq!(browser_only(internal), Some(INTERNAL_LINK), "{internal:?}");
        }
        for web in [
            "https://example.org/chrome://settings",
            "https://about.example/",
            "chromex://x",
            "aboutx:blank",
            "files/notes.txt",
            "mailto:me@example.org",
        ] {
            assert_eq!(browser_only(web), None, "{web:?}");
        }
    }
}
