//! The writer: a standalone page people want to use (NOTES.md section 4).
//!
//! One `h1`, a `nav` of folders, a `section` per folder with headings by
//! depth, `ul > li.xfolkentry` entries that xFolk and mf2 parsers both read,
//! a little CSS (phone-sized, light and dark, print) and a filter box whose
//! script only adds to a page that works without it. Everything from the
//! document is escaped; private bookmarks and script links are withheld
//! unless asked for, and every withheld or unrepresentable value is reported.

use std::io::Write;

use markport_markup::entities::escape_into as escape_html;
use markport_model::{
    bookmark_fields, document_fields, folder_fields, Bookmark, DateValue, Document, Error, Field,
    Folder, LossReport, Node, NodeId, Step, WriteOptions,
};

use crate::tags::segment_for;
use crate::text::{collapse, is_block_normal, paragraphs};
use crate::GENERATOR;

/// Sections nest in each other down to this depth; deeper folders are
/// written as sections that name their parent (`data-parent`), so a very
/// deep tree stays linear in size and in parsing time.
pub const MAX_NESTING: usize = 12;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("filter.js");

struct Writer<'d> {
    doc: &'d Document,
    opts: &'d WriteOptions,
    out: String,
    loss: LossReport,
    tag_base: String,
}

/// Characters an HTML page cannot carry: NUL (parsers turn it into U+FFFD
/// or drop it), the other C0 controls but tab, line feed, form feed and
/// carriage return, and the noncharacters U+FFFE and U+FFFF. The writer
/// leaves them out and reports the fields that had them.
pub(crate) fn unwritable(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0B' | '\x0E'..='\x1F' | '\u{FFFE}' | '\u{FFFF}')
}

/// Whether a link would run script when followed.
pub(crate) fn is_script_url(href: &str) -> bool {
    let h: String = href
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .take(11)
        .collect::<String>()
        .to_ascii_lowercase();
    h.starts_with("javascript:") || h.starts_with("data:") || h.starts_with("vbscript:")
}

/// Why a link is something only a browser's own bookmarks understand, not a
/// web page: a Firefox `place:` query (a saved search over the bookmarks
/// and history), or a keyword-search template whose `%s` the browser fills
/// in (no URL has `%s`: `s` is not a hex digit).
pub(crate) fn browser_only(href: &str) -> Option<&'static str> {
    let h = href.trim_start_matches(|c: char| c <= ' ');
    if h.get(..6).is_some_and(|p| p.eq_ignore_ascii_case("place:")) {
        Some("a Firefox place: query is not a web page")
    } else if href.contains("%s") || href.contains("%S") {
        Some("a keyword-search template (%s) is not a web page")
    } else {
        None
    }
}

pub(crate) fn write(
    doc: &Document,
    opts: &WriteOptions,
    sink: &mut dyn Write,
) -> Result<LossReport, Error> {
    let mut w = Writer {
        doc,
        opts,
        out: String::with_capacity(1 << 16),
        loss: LossReport::new(),
        tag_base: opts
            .xfolk
            .tag_base
            .clone()
            .unwrap_or_else(|| "tags/".to_owned()),
    };
    w.head();
    w.nav();
    w.out.push_str("<main class=\"h-feed\">\n");
    // Runs of bookmarks become lists; folders become sections.
    let mut depth = 0usize;
    let mut open_list = false;
    // Open sections, as (folder, written as a nested section).
    let mut sections: Vec<(NodeId, bool)> = Vec::new();
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                w.close_list(&mut open_list);
                depth += 1;
                let nested = depth <= MAX_NESTING;
                if !nested {
                    // Flat from here: close the flat section of the parent.
                    if let Some(&(_, false)) = sections.last() {
                        w.out.push_str("</section>\n");
                    }
                }
                w.section(id, depth, sections.last().map(|s| s.0), nested, true);
                sections.push((id, nested));
            }
            Step::Close(_) => {
                w.close_list(&mut open_list);
                let (_, nested) = sections.pop().expect("balanced walk");
                depth -= 1;
                w.out.push_str("</section>\n");
                if !nested {
                    // The parent continues in a section of its own.
                    if let Some(&(parent, false)) = sections.last() {
                        let grand = sections.len().checked_sub(2).map(|i| sections[i].0);
                        w.section(parent, depth, grand, false, false);
                    }
                }
            }
            Step::Leaf(id) => {
                if !open_list {
                    w.out.push_str("<ul class=\"entries\">\n");
                    open_list = true;
                }
                w.leaf(id);
            }
        }
        if w.out.len() >= 1 << 16 {
            sink.write_all(w.out.as_bytes()).map_err(Error::io)?;
            w.out.clear();
        }
    }
    w.close_list(&mut open_list);
    w.out.push_str("</main>\n<script>\n");
    w.out.push_str(SCRIPT);
    w.out.push_str("</script>\n</body>\n</html>\n");
    sink.write_all(w.out.as_bytes()).map_err(Error::io)?;
    Ok(w.loss)
}

impl Writer<'_> {
    fn lose(&mut self, node: Option<NodeId>, field: Field, why: &str) {
        self.loss.record(self.doc, node, field, why);
    }

    /// Escaped text, without the characters a page cannot carry (see
    /// [`unwritable`]); callers report the fields that had any.
    fn text(&mut self, s: &str) {
        if s.contains(unwritable) {
            escape_html(&mut self.out, &s.replace(unwritable, ""));
        } else {
            escape_html(&mut self.out, s);
        }
    }

    fn close_list(&mut self, open: &mut bool) {
        if *open {
            self.out.push_str("</ul>\n");
            *open = false;
        }
    }

    fn head(&mut self) {
        let doc = self.doc;
        let title = doc
            .header
            .title
            .as_deref()
            .map(|t| collapse(&t.replace(unwritable, "")))
            .filter(|t| !t.is_empty());
        if doc.header.title.is_some() && title.as_deref() != doc.header.title.as_deref() {
            self.lose(
                None,
                Field::DocumentTitle,
                "page titles are read with whitespace collapsed",
            );
        }
        if doc.header.title.is_none() {
            self.lose(
                None,
                Field::DocumentTitle,
                "an untitled collection is published as \"Bookmarks\"",
            );
        }
        let title = title.unwrap_or_else(|| "Bookmarks".to_owned());
        self.out.push_str(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"",
        );
        self.out.push_str(GENERATOR);
        self.out.push_str("\">\n<title>");
        self.text(&title);
        self.out.push_str("</title>\n<style>\n");
        self.out.push_str(STYLE);
        self.out
            .push_str("</style>\n</head>\n<body>\n<header>\n<h1>");
        self.text(&title);
        self.out.push_str("</h1>\n");
        if let Some(d) = &doc.header.desc {
            if !is_block_normal(d) || d.contains(unwritable) {
                self.lose(
                    None,
                    Field::DocumentDesc,
                    "text is read back with whitespace collapsed into lines and paragraphs",
                );
            }
            self.out.push_str("<div class=\"intro\">");
            self.paragraphs(d);
            self.out.push_str("</div>\n");
        }
        // Without --tag-base the tag links point at pages that do not exist
        // (yet: a site generator may make them), so a click filters instead.
        self.out.push_str(if self.opts.xfolk.tag_base.is_none() {
            "<p class=\"filter\" hidden data-tag-links=\"filter\">"
        } else {
            "<p class=\"filter\" hidden>"
        });
        self.out.push_str(
            "<label>Filter <input type=\"search\" id=\"filter\" \
             placeholder=\"words, or tag:name\" autocomplete=\"off\"></label> \
             <output id=\"shown\" aria-live=\"polite\"></output></p>\n",
        );
        self.loss.record_unsupported(
            doc,
            None,
            document_fields(doc),
            crate::support,
            "an xFolk page has no place for it",
        );
    }

    fn paragraphs(&mut self, text: &str) {
        // Line ends after `<br>` and between paragraphs keep words apart for
        // readers that take an element's plain textContent.
        for (n, p) in paragraphs(text).into_iter().enumerate() {
            if n > 0 {
                self.out.push('\n');
            }
            self.out.push_str("<p>");
            for (i, line) in p.iter().enumerate() {
                if i > 0 {
                    self.out.push_str("<br>\n");
                }
                self.text(line);
            }
            self.out.push_str("</p>");
        }
    }

    /// The table of folders (six levels; deeper ones are reached from their parents).
    fn nav(&mut self) {
        let doc = self.doc;
        if !doc.ids().any(|id| matches!(doc.node(id), Node::Folder(_))) {
            self.out.push_str("</header>\n");
            return;
        }
        self.out.push_str("<nav aria-label=\"Folders\">\n<ul>\n");
        let mut depth = 0usize;
        for step in doc.walk() {
            match step {
                Step::Open(id) => {
                    depth += 1;
                    if depth <= 6 {
                        let title = self.folder_title(id);
                        self.out
                            .push_str(&format!("<li><a href=\"#f{}\">", id.index()));
                        self.text(&title);
                        self.out.push_str("</a>");
                        if doc
                            .children(Some(id))
                            .iter()
                            .any(|&c| matches!(doc.node(c), Node::Folder(_)))
                            && depth < 6
                        {
                            self.out.push_str("\n<ul>\n");
                        } else {
                            self.out.push_str("</li>\n");
                        }
                    }
                }
                Step::Close(id) => {
                    if depth < 6
                        && doc
                            .children(Some(id))
                            .iter()
                            .any(|&c| matches!(doc.node(c), Node::Folder(_)))
                    {
                        self.out.push_str("</ul></li>\n");
                    }
                    depth -= 1;
                }
                Step::Leaf(_) => {}
            }
        }
        self.out.push_str("</ul>\n</nav>\n</header>\n");
    }

    fn folder_title(&self, id: NodeId) -> String {
        self.doc
            .node(id)
            .title()
            .map(|t| collapse(&t.replace(unwritable, "")))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "Untitled folder".to_owned())
    }

    /// Open the section of folder `id`; `first` is false for the
    /// continuation of a flat section after one of its subfolders.
    fn section(
        &mut self,
        id: NodeId,
        depth: usize,
        parent: Option<NodeId>,
        nested: bool,
        first: bool,
    ) {
        let Node::Folder(f) = self.doc.node(id) else {
            return;
        };
        let f: &Folder = f;
        let n = id.index();
        if !first {
            self.out.push_str(&format!(
                "<section class=\"folder h-feed\" data-folder=\"{n}\">\n"
            ));
            return;
        }
        let level = (depth + 1).min(6);
        self.out.push_str(&format!(
            "<section id=\"f{n}\" class=\"folder h-feed\" data-folder=\"{n}\" aria-labelledby=\"f{n}-h\""
        ));
        if !nested {
            if let Some(p) = parent {
                self.out
                    .push_str(&format!(" data-parent=\"{}\"", p.index()));
            }
        }
        if let Some(fid) = &f.id {
            self.out.push_str(" data-id=\"");
            self.text(fid);
            self.out.push('"');
        }
        self.out
            .push_str(&format!(">\n<h{level} id=\"f{n}-h\" class=\"p-name\">"));
        let title = self.folder_title(id);
        match f.title.as_deref() {
            None => self.lose(
                Some(id),
                Field::FolderTitle,
                "an untitled folder is published as \"Untitled folder\"",
            ),
            Some(t) if t.contains(unwritable) => self.lose(
                Some(id),
                Field::FolderTitle,
                "control characters a page cannot carry are left out",
            ),
            Some(t) if collapse(t) != t || t.is_empty() => self.lose(
                Some(id),
                Field::FolderTitle,
                "headings are read with whitespace collapsed",
            ),
            _ => {}
        }
        self.text(&title);
        self.out.push_str(&format!("</h{level}>\n"));
        if let Some(d) = &f.desc {
            if !is_block_normal(d) || d.contains(unwritable) {
                self.lose(
                    Some(id),
                    Field::FolderDesc,
                    "text is read back with whitespace collapsed into lines and paragraphs",
                );
            }
            self.out.push_str("<div class=\"folder-description\">");
            self.paragraphs(d);
            self.out.push_str("</div>\n");
        }
        self.loss.record_unsupported(
            self.doc,
            Some(id),
            folder_fields(f),
            crate::support,
            "an xFolk page has no place for it",
        );
    }

    fn leaf(&mut self, id: NodeId) {
        match self.doc.node(id) {
            Node::Bookmark(b) => self.bookmark(id, b),
            Node::Separator(_) => {
                self.lose(Some(id), Field::Separator, "xFolk lists have no separators")
            }
            Node::Alias(_) => self.lose(Some(id), Field::Alias, "xFolk has no aliases"),
            Node::Folder(_) => {}
            // A kind of node added to the model after this writer: nothing to write yet.
            _ => {}
        }
    }

    /// A bookmark shown as text, not as a link and not as an entry: no
    /// parser takes it for one, and it is reported withheld.
    fn inert(&mut self, n: Option<NodeId>, b: &Bookmark, why: &str) {
        self.lose(n, Field::Bookmark, why);
        self.out.push_str("<li class=\"inert\">");
        self.text(b.title.as_deref().unwrap_or("Untitled"));
        self.out.push_str(" <code>");
        let shown: String = b.href.chars().take(80).collect();
        self.text(&shown);
        self.out
            .push_str("</code> (not published as a link)</li>\n");
    }

    fn bookmark(&mut self, id: NodeId, b: &Bookmark) {
        let n = Some(id);
        if b.private == Some(true) && !self.opts.xfolk.include_private {
            self.lose(
                n,
                Field::Bookmark,
                "private: withheld from the page (--include-private publishes it)",
            );
            return;
        }
        if b.href.replace(unwritable, "").trim().is_empty() {
            self.lose(
                n,
                Field::Bookmark,
                "a bookmark without a link is not an xFolk entry",
            );
            return;
        }
        if b.href.contains(unwritable) {
            self.lose(
                n,
                Field::BookmarkHref,
                "control characters a page cannot carry are left out",
            );
        }
        if is_script_url(&b.href) && !self.opts.xfolk.allow_script_urls {
            self.inert(n, b, "a javascript:, data: or vbscript: link is not published as a link (--allow-script-urls publishes it)");
            return;
        }
        if let Some(what) = browser_only(&b.href).filter(|_| !self.opts.xfolk.allow_browser_urls) {
            let why =
                format!("{what}: not published as a link (--allow-browser-urls publishes it)");
            self.inert(n, b, &why);
            return;
        }
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
        self.out
            .push_str(">\n<a class=\"taggedlink u-bookmark-of p-name\" href=\"");
        self.text(&b.href);
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
                    .map(|t| collapse(&t.replace(unwritable, "")))
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| b.href.clone());
                self.text(&shown);
            }
        }
        self.out.push_str("</a>\n");
        if let Some(d) = &b.desc {
            if !is_block_normal(d) || d.contains(unwritable) {
                self.lose(
                    n,
                    Field::BookmarkDesc,
                    "text is read back with whitespace collapsed into lines and paragraphs",
                );
            }
            self.out.push_str("<div class=\"description p-summary\">");
            self.paragraphs(d);
            self.out.push_str("</div>\n");
        }
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
        if !tags.is_empty() || b.added.is_some() {
            self.out.push_str("<p class=\"meta\">");
            if !tags.is_empty() {
                self.out.push_str("Tags: ");
                for (i, t) in tags.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.out
                        .push_str("<a rel=\"tag\" class=\"p-category\" href=\"");
                    let href = format!("{}{}", self.tag_base, segment_for(t));
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
            self.out.push_str("</p>\n");
        }
        self.out.push_str("</li>\n");
        self.loss.record_unsupported(
            self.doc,
            n,
            bookmark_fields(b),
            crate::support,
            "an xFolk page has no place for it",
        );
    }
}
