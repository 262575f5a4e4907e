//! The site's HTML pages: the index, one page per folder (split by the page
//! size), one per tag and the list of tags. Every page is made of the
//! xFolk writer's entries ([`markport_xfolk::entry`]), so xFolk and mf2
//! readers read them as they read `--to xfolk`.

use std::collections::{BTreeMap, HashMap};

use markport_model::{Document, LossReport, Node, NodeId};
use markport_xfolk::entry::{
    shown_title, tag_segment, write_paragraphs, write_text, Entries, Written,
};

use crate::slug::{portable_name, Slugs};
use crate::{File, Options};

/// Breadcrumbs show this many ancestors at most (the nearest ones), so a
/// page's size does not grow with its depth.
const MAX_CRUMBS: usize = 6;

/// One entry of the search index: title, link, page, the page's title, tags.
pub(crate) type SearchEntry = (String, String, String, String, Vec<String>);

pub(crate) struct Built {
    pub files: Vec<File>,
    pub loss: LossReport,
    pub search: Vec<SearchEntry>,
    pub bookmarks: usize,
    pub folder_pages: usize,
    pub tags: usize,
}

pub(crate) fn build(doc: &Document, opts: &Options, recent: &[NodeId], title: &str) -> Built {
    let entries = Entries::new(doc, &opts.xfolk);
    let preorder: Vec<NodeId> = doc.preorder().collect();
    // Public bookmarks under each folder, summed bottom-up in one pass.
    let mut count = vec![0usize; doc.len()];
    let mut top_count = 0usize;
    for &id in preorder.iter().rev() {
        let own = usize::from(entries.published(id)) + count[id.index()];
        count[id.index()] = own;
        match doc.parent(id) {
            Some(p) => count[p.index()] += own,
            None => top_count += own,
        }
    }
    // Folder slugs in document order.
    let mut slugs = Slugs::folders();
    let mut slug: Vec<Option<String>> = vec![None; doc.len()];
    for &id in &preorder {
        if let Node::Folder(_) = doc.node(id) {
            slug[id.index()] = Some(slugs.slug(doc.node(id).title().unwrap_or("")));
        }
    }
    // Tags and their published entries, each tag once per bookmark.
    let mut tags: BTreeMap<&str, Vec<NodeId>> = BTreeMap::new();
    for &id in &preorder {
        if let Node::Bookmark(b) = doc.node(id) {
            if !entries.published(id) {
                continue;
            }
            for (i, t) in b.tags.iter().enumerate() {
                if !t.is_empty() && !b.tags[..i].contains(t) {
                    tags.entry(t).or_default().push(id);
                }
            }
        }
    }
    let tag_pages = opts.tag_base.is_none();
    // Each tag's directory, in the tags' order: the same tags always get
    // the same directories.
    let mut tag_dirs = HashMap::new();
    if tag_pages {
        let mut slugs = Slugs::tags();
        for t in tags.keys() {
            tag_dirs.insert(*t, TagDir::new(slugs.slug(t), t));
        }
    }
    let mut b = Builder {
        entries,
        doc,
        opts,
        title,
        slug,
        count,
        tag_dirs,
        files: Vec::new(),
        loss: LossReport::new(),
        search: Vec::new(),
        folder_pages: 0,
    };
    for (t, ids) in &tags {
        if b.tag_dirs.get(t).is_some_and(|d| d.name.is_none()) {
            for &id in ids {
                b.loss.record(
                    doc,
                    Some(id),
                    markport_model::Field::BookmarkTags,
                    "a tag that cannot be a file name everywhere (a `/`, `\\`, `:`, `*`, `?`, `\"`, `<`, `>`, `|`, a control character, a trailing dot or space, a device name, over 200 bytes) links to its page by its slug, which xFolk readers read as the tag",
                );
            }
        }
    }
    b.index(recent, top_count, tags.len());
    b.folder(None, top_count);
    for &id in &preorder {
        if let Node::Folder(_) = doc.node(id) {
            b.folder(Some(id), b.count[id.index()]);
        }
    }
    if tag_pages {
        b.tag_list(&tags);
        for (t, ids) in &tags {
            b.tag(t, ids);
        }
    }
    Built {
        files: b.files,
        loss: b.loss,
        search: b.search,
        bookmarks: top_count,
        folder_pages: b.folder_pages,
        tags: tags.len(),
    }
}

/// Where a tag's pages are: `tags/<slug>/<name>/` when the tag is a
/// portable file name (`name` is the tag), else `tags/<slug>/`.
struct TagDir {
    slug: String,
    name: Option<String>,
}

impl TagDir {
    fn new(slug: String, tag: &str) -> TagDir {
        TagDir {
            slug,
            name: portable_name(tag).then(|| tag.to_owned()),
        }
    }

    /// The directory's path from `tags/`, `/`-terminated, as a link (the
    /// tag percent-encoded: the link's last segment reads back as the tag).
    fn link(&self) -> String {
        match &self.name {
            Some(t) => format!("{}/{}/", self.slug, tag_segment(t)),
            None => format!("{}/", self.slug),
        }
    }

    /// The directory's path from `tags/` on disk.
    fn path(&self) -> String {
        match &self.name {
            Some(t) => format!("{}/{t}", self.slug),
            None => self.slug.clone(),
        }
    }
}

/// The link of `tag` from a page `root` away from the site's root.
fn tag_href(tag_base: Option<&str>, dirs: &HashMap<&str, TagDir>, root: &str, tag: &str) -> String {
    match (tag_base, dirs.get(tag)) {
        (Some(base), _) => format!("{base}{}", tag_segment(tag)),
        (None, Some(d)) => format!("{root}tags/{}", d.link()),
        // Every tag of a published bookmark has a directory; a tag of an
        // entry written elsewhere links to the list of tags.
        (None, None) => format!("{root}tags/index.html"),
    }
}

struct Builder<'d> {
    doc: &'d Document,
    /// The xFolk entries every page is made of.
    entries: Entries<'d>,
    opts: &'d Options,
    title: &'d str,
    slug: Vec<Option<String>>,
    count: Vec<usize>,
    tag_dirs: HashMap<&'d str, TagDir>,
    files: Vec<File>,
    loss: LossReport,
    search: Vec<SearchEntry>,
    folder_pages: usize,
}

/// A folder's page name: `index` for the collection's top level.
fn page_name(slug: Option<&str>, n: usize) -> String {
    let s = slug.unwrap_or("index");
    if n <= 1 {
        format!("{s}.html")
    } else {
        format!("{s}-{n}.html")
    }
}

impl Builder<'_> {
    fn folder_title(&self, id: Option<NodeId>) -> String {
        let Some(id) = id else {
            return "Top level".to_owned();
        };
        let title = self.doc.node(id).title().and_then(shown_title);
        let role = self.doc.node(id).as_folder().and_then(|f| f.role);
        match (role.and_then(root_name), title) {
            // A browser's root under its machine name (Firefox's backups
            // call the toolbar "toolbar") or none: the name people know.
            (Some(human), None) => human.to_owned(),
            (Some(human), Some(t)) if is_machine_name(&t) => human.to_owned(),
            (_, Some(t)) => t,
            (None, None) => "Untitled folder".to_owned(),
        }
    }

    /// The link of a tag from a page `root` away from the site's root.
    fn tag_href(&self, root: &str, tag: &str) -> String {
        tag_href(self.opts.tag_base.as_deref(), &self.tag_dirs, root, tag)
    }

    /// The start of a page: head, header with the title, breadcrumbs and
    /// the filter box. `root` leads from the page to the site's root.
    fn start(&self, out: &mut String, root: &str, title: &str, crumbs: &[(String, String)]) {
        out.push_str(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"",
        );
        out.push_str(markport_xfolk::GENERATOR);
        out.push_str("\">\n<title>");
        write_text(out, title);
        if title != self.title {
            out.push_str(" · ");
            write_text(out, self.title);
        }
        out.push_str("</title>\n<link rel=\"stylesheet\" href=\"");
        out.push_str(root);
        out.push_str("style.css\">\n<link rel=\"alternate\" type=\"application/atom+xml\" href=\"");
        out.push_str(root);
        out.push_str("feed.atom\" title=\"");
        write_text(out, self.title);
        out.push_str("\">\n</head>\n<body>\n<header>\n");
        if !crumbs.is_empty() {
            out.push_str("<nav class=\"crumbs\" aria-label=\"Breadcrumbs\">");
            for (i, (href, text)) in crumbs.iter().enumerate() {
                if i > 0 {
                    out.push_str(" › ");
                }
                if href.is_empty() {
                    out.push_str("<span>");
                    write_text(out, text);
                    out.push_str("</span>");
                } else {
                    out.push_str("<a href=\"");
                    write_text(out, href);
                    out.push_str("\">");
                    write_text(out, text);
                    out.push_str("</a>");
                }
            }
            out.push_str("</nav>\n");
        }
        out.push_str("<h1>");
        write_text(out, title);
        out.push_str("</h1>\n<p class=\"filter\" hidden data-root=\"");
        out.push_str(root);
        out.push_str(
            "\"><label>Search <input type=\"search\" id=\"filter\" \
             placeholder=\"words, or tag:name\" autocomplete=\"off\"></label> \
             <output id=\"shown\" aria-live=\"polite\"></output></p>\n</header>\n\
             <section id=\"results\" hidden aria-label=\"Search results\"><ul></ul></section>\n",
        );
    }

    fn end(&mut self, mut out: String, root: &str, path: String) {
        out.push_str("<script src=\"");
        out.push_str(root);
        out.push_str("filter.js\" defer></script>\n</body>\n</html>\n");
        self.files.push(File {
            path,
            bytes: out.into_bytes(),
        });
    }

    /// Entries on a page other than their folder's: written again, their
    /// losses already counted on the folder page.
    fn entries(&self, out: &mut String, root: &str, ids: &[NodeId]) {
        let mut scratch = LossReport::new();
        let href = |t: &str| self.tag_href(root, t);
        out.push_str("<ul class=\"entries\">\n");
        for &id in ids {
            self.entries.write(out, &mut scratch, id, &href);
        }
        out.push_str("</ul>\n");
    }

    fn folder_link(&self, out: &mut String, root: &str, id: NodeId) {
        if self.count[id.index()] == 0 {
            // An empty folder has no page: it is listed, and said empty.
            out.push_str("<li><span class=\"empty-folder\">");
            write_text(out, &self.folder_title(Some(id)));
            out.push_str("</span> <span class=\"count\">(empty)</span></li>\n");
            return;
        }
        out.push_str("<li><a href=\"");
        out.push_str(root);
        out.push_str("f/");
        write_text(out, &page_name(self.slug[id.index()].as_deref(), 1));
        out.push_str("\">");
        write_text(out, &self.folder_title(Some(id)));
        out.push_str(&format!(
            "</a> <span class=\"count\">({})</span></li>\n",
            self.count[id.index()]
        ));
    }

    fn index(&mut self, recent: &[NodeId], top_count: usize, tags: usize) {
        let doc = self.doc;
        let mut out = String::with_capacity(1 << 16);
        self.start(&mut out, "", self.title, &[]);
        out.push_str("<main class=\"h-feed\">\n");
        if let Some(d) = &doc.header.desc {
            out.push_str("<div class=\"intro\">");
            write_paragraphs(&mut out, d);
            out.push_str("</div>\n");
        }
        out.push_str(&format!(
            "<h2>Folders</h2>\n<p class=\"count\">{} · <a href=\"f/index.html\">top level</a>",
            count(top_count, "bookmark")
        ));
        if self.opts.tag_base.is_none() && tags > 0 {
            out.push_str(&format!(
                " · <a href=\"tags/index.html\">{}</a>",
                count(tags, "tag")
            ));
        }
        out.push_str(" · <a href=\"feed.atom\">feed</a></p>\n");
        let top: Vec<NodeId> = doc
            .children(None)
            .iter()
            .copied()
            .filter(|&c| matches!(doc.node(c), Node::Folder(_)))
            .collect();
        if !top.is_empty() {
            out.push_str("<nav aria-label=\"Folders\">\n<ul class=\"folders\">\n");
            for id in top {
                self.folder_link(&mut out, "", id);
            }
            out.push_str("</ul>\n</nav>\n");
        }
        if !recent.is_empty() {
            out.push_str("<h2>Recently added</h2>\n");
            self.entries(&mut out, "", recent);
        }
        out.push_str("</main>\n");
        self.end(out, "", "index.html".into());
    }

    /// The breadcrumbs of folder `id`: the site, then at most
    /// [`MAX_CRUMBS`] nearest ancestors (an ellipsis for the rest).
    fn crumbs(&self, id: Option<NodeId>) -> Vec<(String, String)> {
        let mut up = Vec::new();
        let mut at = id.and_then(|i| self.doc.parent(i));
        let mut more = false;
        while let Some(p) = at {
            if up.len() == MAX_CRUMBS {
                more = true;
                break;
            }
            up.push((
                page_name(self.slug[p.index()].as_deref(), 1),
                self.folder_title(Some(p)),
            ));
            at = self.doc.parent(p);
        }
        let mut crumbs = vec![("../index.html".to_owned(), self.title.to_owned())];
        if id.is_some() {
            crumbs.push(("index.html".to_owned(), "Top level".to_owned()));
        }
        if more {
            crumbs.push((String::new(), "…".to_owned()));
        }
        crumbs.extend(up.into_iter().rev());
        crumbs
    }

    fn folder(&mut self, id: Option<NodeId>, total: usize) {
        let doc = self.doc;
        let title = self.folder_title(id);
        let root = "../";
        let slug = id.and_then(|i| self.slug[i.index()].clone());
        let children = doc.children(id);
        // Each leaf written once, with its losses counted here.
        let mut written: Vec<(NodeId, String)> = Vec::new();
        {
            let opts = self.opts;
            let dirs = &self.tag_dirs;
            let href = |t: &str| tag_href(opts.tag_base.as_deref(), dirs, root, t);
            let entries = self.entries;
            for &c in children {
                if matches!(doc.node(c), Node::Folder(_)) {
                    continue;
                }
                let mut s = String::new();
                if entries.write(&mut s, &mut self.loss, c, &href) != Written::Withheld {
                    written.push((c, s));
                }
            }
        }
        if let Some(f) = id.and_then(|i| doc.node(i).as_folder()) {
            if f.title.as_deref().is_none_or(|t| shown_title(t).is_none()) {
                self.loss.record(
                    doc,
                    id,
                    markport_model::Field::FolderTitle,
                    "an untitled folder is published as \"Untitled folder\"",
                );
            }
            self.loss.record_unsupported(
                doc,
                id,
                markport_model::folder_fields(f),
                markport_xfolk::support,
                "a site has no place for it",
            );
        }
        if let (Some(folder), 0) = (id, total) {
            // Nothing published in it or below: listed as empty where its
            // parent lists it, with no page of its own.
            if doc
                .node(folder)
                .as_folder()
                .is_some_and(|f| f.desc.is_some())
            {
                self.loss.record(
                    doc,
                    id,
                    markport_model::Field::FolderDesc,
                    "an empty folder is listed without a page of its own, so its description is not published",
                );
            }
            return;
        }
        let size = self.opts.page_size.max(1);
        let pages = written.len().div_ceil(size).max(1);
        let crumbs = self.crumbs(id);
        let mut chunks = written.chunks(size);
        for n in 1..=pages {
            let chunk = chunks.next().unwrap_or(&[]);
            let name = page_name(slug.as_deref(), n);
            let mut out = String::with_capacity(1 << 14);
            self.start(&mut out, root, &title, &crumbs);
            out.push_str("<main class=\"h-feed\">\n");
            out.push_str(&format!(
                "<p class=\"count\">{} in this folder and its subfolders</p>\n",
                count(total, "bookmark")
            ));
            if n == 1 {
                if let Some(d) = id
                    .and_then(|i| doc.node(i).as_folder())
                    .and_then(|f| f.desc.as_ref())
                {
                    out.push_str("<div class=\"folder-description\">");
                    write_paragraphs(&mut out, d);
                    out.push_str("</div>\n");
                }
                let subs: Vec<NodeId> = children
                    .iter()
                    .copied()
                    .filter(|&c| matches!(doc.node(c), Node::Folder(_)))
                    .collect();
                if !subs.is_empty() {
                    out.push_str("<nav aria-label=\"Subfolders\">\n<ul class=\"folders\">\n");
                    for s in subs {
                        self.folder_link(&mut out, root, s);
                    }
                    out.push_str("</ul>\n</nav>\n");
                }
            }
            let pager = pager(pages, n, |k| page_name(slug.as_deref(), k));
            out.push_str(&pager);
            if !chunk.is_empty() {
                out.push_str("<ul class=\"entries\">\n");
                for (c, html) in chunk {
                    out.push_str(html);
                    if let Some((shown, href)) = self.entries.shown(*c) {
                        let tags = doc.node(*c).as_bookmark().map(|b| b.tags.clone());
                        self.search.push((
                            shown,
                            href,
                            format!("f/{name}"),
                            title.clone(),
                            tags.unwrap_or_default(),
                        ));
                    }
                }
                out.push_str("</ul>\n");
            }
            out.push_str(&pager);
            out.push_str("</main>\n");
            self.folder_pages += 1;
            self.end(out, root, format!("f/{name}"));
        }
    }

    fn tag_list(&mut self, tags: &BTreeMap<&str, Vec<NodeId>>) {
        let root = "../";
        let mut out = String::with_capacity(1 << 14);
        let crumbs = [("../index.html".to_owned(), self.title.to_owned())];
        self.start(&mut out, root, "Tags", &crumbs);
        out.push_str("<main>\n<ul class=\"folders\">\n");
        for (t, ids) in tags {
            out.push_str("<li><a href=\"");
            let link = self.tag_dirs.get(t).map(TagDir::link).unwrap_or_default();
            write_text(&mut out, &link);
            out.push_str("\">");
            write_text(&mut out, t);
            out.push_str(&format!(
                "</a> <span class=\"count\">({})</span></li>\n",
                ids.len()
            ));
        }
        out.push_str("</ul>\n</main>\n");
        self.end(out, root, "tags/index.html".into());
    }

    fn tag(&mut self, tag: &str, ids: &[NodeId]) {
        let Some(d) = self.tag_dirs.get(tag) else {
            return;
        };
        let root = if d.name.is_some() {
            "../../../"
        } else {
            "../../"
        };
        let dir = format!("tags/{}", d.path());
        let crumbs = [
            (format!("{root}index.html"), self.title.to_owned()),
            (format!("{root}tags/index.html"), "Tags".to_owned()),
        ];
        let size = self.opts.page_size.max(1);
        let pages = ids.len().div_ceil(size).max(1);
        let name = |k: usize| {
            if k <= 1 {
                "index.html".to_owned()
            } else {
                format!("index-{k}.html")
            }
        };
        for (i, chunk) in ids.chunks(size).enumerate() {
            let n = i + 1;
            let mut out = String::with_capacity(1 << 14);
            self.start(&mut out, root, &format!("Tag: {tag}"), &crumbs);
            out.push_str("<main class=\"h-feed\">\n");
            out.push_str(&format!(
                "<p class=\"count\">{}</p>\n",
                count(ids.len(), "bookmark")
            ));
            let pager = pager(pages, n, name);
            out.push_str(&pager);
            self.entries(&mut out, root, chunk);
            out.push_str(&pager);
            out.push_str("</main>\n");
            self.end(out, root, format!("{dir}/{}", name(n)));
        }
    }
}

/// Previous and next links between the pages of one folder or tag.
fn pager(pages: usize, n: usize, name: impl Fn(usize) -> String) -> String {
    if pages <= 1 {
        return String::new();
    }
    let mut s = String::from("<nav class=\"pager\" aria-label=\"Pages\">");
    if n > 1 {
        s.push_str("<a rel=\"prev\" href=\"");
        write_text(&mut s, &name(n - 1));
        s.push_str("\">← Previous</a>");
    } else {
        s.push_str("<span></span>");
    }
    s.push_str(&format!("<span>Page {n} of {pages}</span>"));
    if n < pages {
        s.push_str("<a rel=\"next\" href=\"");
        write_text(&mut s, &name(n + 1));
        s.push_str("\">Next →</a>");
    } else {
        s.push_str("<span></span>");
    }
    s.push_str("</nav>\n");
    s
}

/// `1 bookmark`, `2 bookmarks`: the pages say counts in words.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The name people know a browser root by.
fn root_name(role: markport_model::Role) -> Option<&'static str> {
    use markport_model::Role;
    Some(match role {
        Role::Toolbar => "Bookmarks Toolbar",
        Role::Menu => "Bookmarks Menu",
        Role::Unfiled => "Other Bookmarks",
        Role::Mobile => "Mobile Bookmarks",
        Role::ReadingList => "Reading List",
        _ => return None,
    })
}

/// Whether a root's title is a program's name for it rather than a
/// person's: Firefox's `toolbar`, `menu`, `unfiled`, `mobile` and the GUIDs
/// they stand for (`toolbar_____`), Safari's `BookmarksBar`.
fn is_machine_name(title: &str) -> bool {
    let t = title.trim_end_matches('_');
    [
        "toolbar",
        "menu",
        "unfiled",
        "mobile",
        "BookmarksBar",
        "BookmarksMenu",
        "com.apple.ReadingList",
    ]
    .contains(&t)
}

#[cfg(test)]
mod count_tests {
    use super::count;

    #[test]
    fn counts_are_said_in_words() {
        assert_eq!(count(0, "bookmark"), "0 bookmarks");
        assert_eq!(count(1, "bookmark"), "1 bookmark");
        assert_eq!(count(2, "tag"), "2 tags");
    }
}
