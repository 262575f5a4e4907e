//! The writer: the layout Chrome and Firefox export, which every importer
//! reads.
//!
//! One element per line (Chromium's importer is line based, floccus#1385),
//! `<DL><p>` nesting with four-space indent (capped so that very deep trees
//! stay linear in size), UTF-8 with its `<META>`, and escaping of
//! `& < > " '` everywhere. What the format cannot carry is reported, field by
//! field, by checking each value against what the reader will make of it.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use markport_model::{
    bookmark_fields, document_fields, folder_fields, separator_fields, Attribute, Bookmark,
    DateValue, Document, Error, Field, Folder, LossReport, Node, NodeId, Role, Separator, Step,
    WriteOptions,
};

use crate::dates;
use crate::UNTITLED;
use crate::{H1_EXTRA, READING_LIST_ID};
use markport_markup::decimal::push_decimal;
use markport_markup::entities::{escape_into, trim_html};

/// Deeper levels are written at this indent, so output size stays linear
/// (the markup layer's cap, shared with the XBEL writer).
pub use markport_markup::xml::MAX_INDENT_DEPTH;

/// Why a field the format has no attribute for is lost.
const NO_PLACE: &str = "Netscape HTML has no place for it";

const HEADER: &str = "<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">
<META NAME=\"generator\" CONTENT=\"markport\">
";

/// Attribute names the writer produces itself on `<A>`; extras with these
/// names would collide.
const BOOKMARK_ATTRS: &[&str] = &[
    "HREF",
    "ADD_DATE",
    "LAST_MODIFIED",
    "LAST_VISIT",
    "ICON",
    "ICON_URI",
    "SHORTCUTURL",
    "POST_DATA",
    "FEEDURL",
    "LAST_CHARSET",
    "ID",
    "ALIASID",
    "TAGS",
    "PRIVATE",
    "TOREAD",
    UNTITLED,
];
const FOLDER_ATTRS: &[&str] = &[
    "ADD_DATE",
    "LAST_MODIFIED",
    "FOLDED",
    "ID",
    "PERSONAL_TOOLBAR_FOLDER",
    "UNFILED_BOOKMARKS_FOLDER",
    "BOOKMARKS_MENU",
    "PLACES_ROOT",
];
const HEADER_ATTRS: &[&str] = &["ADD_DATE", "LAST_MODIFIED"];

/// The attributes the writer gives `element` of its own.
pub(crate) fn written_attributes(element: &str) -> &'static [&'static str] {
    match element {
        "A" => BOOKMARK_ATTRS,
        "H3" => FOLDER_ATTRS,
        "H1" => HEADER_ATTRS,
        "HR" => SEPARATOR_ATTRS,
        _ => &[],
    }
}

/// What a separator's `<HR>` has of the writer's own.
const SEPARATOR_ATTRS: &[&str] = &["NAME"];

struct Writer<'d> {
    doc: &'d Document,
    out: String,
    loss: LossReport,
    /// The fields of nodes already reported: a node counts once per field
    /// (as `diff` counts it), however many reasons apply (a title both
    /// trimmed and put on one line).
    lost: HashSet<(NodeId, Field)>,
    /// Ids that an alias points at: written as `ALIASID`, Netscape 4's way.
    alias_targets: HashSet<&'d str>,
    /// The first bookmark with each id that is not an `ALIASOF` copy itself:
    /// what an `ALIASOF` resolves to on reading.
    first_ids: HashMap<&'d str, NodeId>,
    sink: &'d mut dyn Write,
}

pub(crate) fn write(
    doc: &Document,
    _opts: &WriteOptions,
    sink: &mut dyn Write,
) -> Result<LossReport, Error> {
    let alias_targets = doc
        .ids()
        .filter_map(|id| match doc.node(id) {
            Node::Alias(a) => Some(a.target.as_str()),
            _ => None,
        })
        .collect();
    let mut first_ids = HashMap::new();
    for id in doc.preorder() {
        let Some(b) = doc.node(id).as_bookmark() else {
            continue;
        };
        let alias = b
            .details()
            .extra
            .iter()
            .any(|a| a.name.eq_ignore_ascii_case("ALIASOF"));
        if let (Some(i), false) = (b.details().id.as_deref(), alias) {
            first_ids.entry(i).or_insert(id);
        }
    }
    let mut w = Writer {
        doc,
        out: String::with_capacity(1 << 16),
        loss: LossReport::new(),
        lost: HashSet::new(),
        alias_targets,
        first_ids,
        sink,
    };
    w.header()?;
    let mut depth = 1usize;
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                w.folder(id, depth);
                depth += 1;
            }
            Step::Close(_) => {
                depth -= 1;
                w.indent(depth);
                w.out.push_str("</DL><p>\n");
            }
            Step::Leaf(id) => w.leaf(id, depth),
        }
        w.flush_if_big()?;
    }
    w.out.push_str("</DL><p>\n");
    w.flush()?;
    Ok(w.loss)
}

impl Writer<'_> {
    fn flush_if_big(&mut self) -> Result<(), Error> {
        if self.out.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Error> {
        self.sink
            .write_all(self.out.as_bytes())
            .map_err(Error::io)?;
        self.out.clear();
        Ok(())
    }

    fn lose(&mut self, node: Option<NodeId>, field: Field, why: &str) {
        if node.is_some_and(|id| !self.lost.insert((id, field))) {
            return;
        }
        self.loss.record(self.doc, node, field, why);
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth.min(MAX_INDENT_DEPTH) {
            self.out.push_str("    ");
        }
    }

    fn header(&mut self) -> Result<(), Error> {
        let doc = self.doc;
        self.out.push_str(HEADER);
        let title = doc.header.title.as_deref().unwrap_or("");
        self.check_text(None, Field::DocumentTitle, doc.header.title.as_deref());
        let h1 = doc
            .header
            .extra
            .iter()
            .find(|a| a.name == H1_EXTRA)
            .map_or(title, |a| a.value.as_str());
        self.out.push_str("<TITLE>");
        self.title(title);
        self.out.push_str("</TITLE>\n<H1");
        if let Some(d) = &doc.header.added {
            self.date_attr(None, Field::DocumentAdded, "ADD_DATE", d);
        }
        if let Some(d) = &doc.header.modified {
            self.date_attr(None, Field::DocumentModified, "LAST_MODIFIED", d);
        }
        let extra: Vec<&Attribute> = doc
            .header
            .extra
            .iter()
            .filter(|a| a.name != H1_EXTRA)
            .collect();
        self.extras(None, Field::DocumentExtra, &extra, HEADER_ATTRS);
        self.check_h1(title);
        self.out.push('>');
        // The heading shows the title unless the file had its own; either
        // way it is written on one line like the title.
        self.title(h1);
        self.out.push_str("</H1>\n");
        if let Some(d) = &doc.header.desc {
            self.dd(None, Field::DocumentDesc, d);
        }
        self.loss
            .record_unsupported(doc, None, document_fields(doc), crate::support, NO_PLACE);
        self.out.push_str("\n<DL><p>\n");
        self.flush()
    }

    /// The H1 heading is kept apart from the title only when it differs from
    /// it; report what will not read back that way.
    fn check_h1(&mut self, title: &str) {
        let doc = self.doc;
        let h1s: Vec<usize> = (0..doc.header.extra.len())
            .filter(|&i| doc.header.extra[i].name == H1_EXTRA)
            .collect();
        let Some(&first) = h1s.first() else { return };
        let h = doc.header.extra[first].value.as_str();
        let t = trim_html(title);
        let reads_back = h1s.len() == 1
            && first == doc.header.extra.len() - 1
            && trim_html(h) == h
            && !t.is_empty()
            && h != t;
        if !reads_back {
            self.lose(
                None,
                Field::DocumentExtra,
                "the H1 heading is kept apart only when it differs from a title",
            );
        }
        if t.is_empty() && !trim_html(h).is_empty() {
            self.lose(
                None,
                Field::DocumentTitle,
                "with no title, the H1 heading reads back as the title",
            );
        }
    }

    /// Report `field` lost if the reader would not read `value` back as it is.
    fn check_text(&mut self, node: Option<NodeId>, field: Field, value: Option<&str>) {
        if let Some(v) = value {
            if v.is_empty() || trim_html(v) != v {
                self.lose(
                    node,
                    field,
                    "leading and trailing whitespace is trimmed, and an empty value reads as none",
                );
            }
        }
    }

    /// Report a folder's or bookmark's title lost if it would not read back:
    /// an empty one reads as none. Its white space is written as it is and
    /// read back so, line breaks included ([`Writer::title`]), but for a run
    /// holding a line break at either end, which the reader takes for the
    /// file's layout ([`crate::read::title_as_read`]).
    fn check_title(&mut self, node: Option<NodeId>, field: Field, value: Option<&str>) {
        match value {
            Some("") => self.lose(node, field, "an empty title reads as none"),
            Some(v) if crate::read::title_as_read(v) != v => self.lose(
                node,
                field,
                "white space holding a line break at either end of a title reads as the file's layout and is dropped",
            ),
            _ => {}
        }
    }

    /// A title, on the line of its element, its line breaks written as the
    /// character references `&#10;` (and `&#13;`, as everywhere). A raw line
    /// break would put the title on two lines, and Chromium's importer, which
    /// reads a line per `<DT><A>` or `<H3>`, drops such an element with its
    /// link; a reference keeps it on one line, Firefox's import and markport's
    /// reader decode it to the line break, and Chromium keeps the element,
    /// showing the reference as text (measured, docs/formats/netscape.md).
    fn title(&mut self, title: &str) {
        let mut lines = title.split('\n');
        escape_into(&mut self.out, lines.next().unwrap_or(""));
        for line in lines {
            self.out.push_str("&#10;");
            escape_into(&mut self.out, line);
        }
    }

    /// The text of an untitled bookmark's `<A>`: its link, since an empty
    /// `<A>` is an entry no browser shows. Browsers import the link as the
    /// title; markport's reader, seeing the [`UNTITLED`] marker and the link
    /// as the text, reads no title, so the title is carried only in an
    /// extension. A link that would not read back as itself from the text
    /// (line breaks, control characters, surrounding whitespace) becomes a
    /// title even for markport: a loss.
    fn untitled_link(&mut self, node: Option<NodeId>, href: &str) {
        if href.chars().any(char::is_control) || trim_html(href) != href {
            self.lose(
                node,
                Field::BookmarkTitle,
                "an untitled bookmark shows its link as its title, and this link does not read back from text as itself",
            );
            let shown: String = href
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            escape_into(&mut self.out, &shown);
        } else {
            self.loss.record_extension(
                self.doc,
                node,
                Field::BookmarkTitle,
                "an untitled bookmark shows its link as its title (so browsers list it); only markport reads it back as untitled",
            );
            escape_into(&mut self.out, href);
        }
    }

    fn dd(&mut self, node: Option<NodeId>, field: Field, desc: &str) {
        self.check_text(node, field, Some(desc));
        self.out.push_str("<DD>");
        escape_into(&mut self.out, desc);
        self.out.push('\n');
    }

    fn attr(&mut self, name: &str, value: &str) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        escape_into(&mut self.out, value);
        self.out.push('"');
    }

    fn date_attr(&mut self, node: Option<NodeId>, field: Field, name: &str, value: &DateValue) {
        if let DateValue::Instant(t) = value {
            // The common case, a date read from seconds: whole seconds in
            // UTC, which the format keeps as they are.
            let plain = t.subsec_nanos() == 0
                && t.offset_seconds() == Some(0)
                && t.precision() == markport_model::Precision::Second
                && t.unix_seconds() > 0
                && t.unix_seconds() < dates::SECONDS_LIMIT;
            if plain {
                self.out.push(' ');
                self.out.push_str(name);
                self.out.push_str("=\"");
                push_decimal(&mut self.out, t.unix_seconds().unsigned_abs());
                self.out.push('"');
                return;
            }
        }
        let (text, rounded) = dates::format(value);
        if rounded {
            self.lose(
                node,
                field,
                "Netscape dates are whole seconds after 1970 (sub-second part dropped; the epoch itself means unknown)",
            );
        }
        if let (false, dates::Parsed::Date(back), Some(form)) =
            (rounded, dates::parse(&text), field.form())
        {
            if back.same(value) && !back.same_form(value) {
                self.lose(
                    node,
                    form,
                    "Netscape dates are Unix seconds: the precision and offset they were written with are not kept (same instant)",
                );
            }
        }
        if let DateValue::Instant(t) = value {
            if t.unix_seconds().unsigned_abs() >= dates::SECONDS_LIMIT as u64 {
                // Browsers read seconds; markport and other unit-guessing
                // readers take a number this large for milliseconds.
                self.lose(
                    node,
                    field,
                    "dates beyond the year 5138 read back as milliseconds",
                );
            }
        }
        if let DateValue::Raw(r) = value {
            if r.trim().is_empty() || r.bytes().all(|b| b == b'0') {
                self.lose(node, field, "this raw date reads back as unknown");
            } else if !matches!(dates::parse(r), dates::Parsed::Unreadable(_)) {
                self.lose(node, field, "this raw date reads back as a date");
            }
        }
        self.attr(name, &text);
    }

    fn extras(&mut self, node: Option<NodeId>, field: Field, extra: &[&Attribute], own: &[&str]) {
        let mut seen: HashSet<String> = HashSet::new();
        // A loss is counted per node, however many of its attributes it hits.
        let (mut left_out, mut cased) = (false, false);
        for a in extra {
            let upper = a.name.to_ascii_uppercase();
            let valid = !a.name.is_empty()
                && a.name.bytes().all(|b| {
                    b.is_ascii_graphic() && !matches!(b, b'/' | b'>' | b'=' | b'"' | b'\'' | b'<')
                });
            if !valid || own.contains(&upper.as_str()) || seen.contains(&upper) {
                left_out = true;
                continue;
            }
            cased |= upper != a.name;
            self.attr(&upper, &a.value);
            seen.insert(upper);
        }
        if left_out {
            self.lose(
                node,
                field,
                "an attribute whose name is not a plain HTML attribute name, repeats, or is one the format itself uses, is left out",
            );
        }
        if cased {
            self.lose(
                node,
                field,
                "HTML attribute names are case-insensitive; written and read upper-case",
            );
        }
    }

    fn folder(&mut self, id: NodeId, depth: usize) {
        let Node::Folder(f) = self.doc.node(id) else {
            return;
        };
        let f: &Folder = f;
        self.indent(depth);
        self.out.push_str("<DT><H3");
        let n = Some(id);
        if let Some(d) = &f.added {
            self.date_attr(n, Field::FolderAdded, "ADD_DATE", d);
        }
        if let Some(d) = &f.modified {
            self.date_attr(n, Field::FolderModified, "LAST_MODIFIED", d);
        }
        match f.folded {
            Some(true) => self.out.push_str(" FOLDED"),
            Some(false) => self.lose(
                n,
                Field::FolderFolded,
                "Netscape HTML marks folded folders only; an open one reads back as unknown",
            ),
            None => {}
        }
        let mut id_written = false;
        match f.role {
            Some(Role::Toolbar) => self.attr("PERSONAL_TOOLBAR_FOLDER", "true"),
            Some(Role::Unfiled) => self.attr("UNFILED_BOOKMARKS_FOLDER", "true"),
            Some(Role::Menu) => self.attr("BOOKMARKS_MENU", "true"),
            Some(Role::PlacesRoot) => self.attr("PLACES_ROOT", "true"),
            Some(Role::ReadingList) if f.id.is_none() => {
                self.attr("ID", READING_LIST_ID);
                id_written = true;
            }
            Some(Role::ReadingList) => self.lose(
                n,
                Field::FolderRole,
                "Safari marks its reading list by ID, and this folder has an ID of its own",
            ),
            Some(Role::Mobile) => self.lose(
                n,
                Field::FolderRole,
                "no browser's HTML marks the mobile bookmarks folder; it reads back as a plain folder",
            ),
            Some(_) => self.lose(
                n,
                Field::FolderRole,
                "Netscape HTML has no mark for this role",
            ),
            None => {}
        }
        if let Some(fid) = &f.id {
            if !id_written {
                if fid == READING_LIST_ID && f.role.is_none() {
                    self.lose(
                        n,
                        Field::FolderId,
                        "this ID reads back as Safari's reading-list role",
                    );
                }
                self.attr("ID", fid);
            }
        }
        let extra: Vec<&Attribute> = f.extra.iter().collect();
        self.extras(n, Field::FolderExtra, &extra, FOLDER_ATTRS);
        self.out.push('>');
        self.check_title(n, Field::FolderTitle, f.title.as_deref());
        self.title(f.title.as_deref().unwrap_or(""));
        self.out.push_str("</H3>\n");
        if let Some(d) = &f.desc {
            self.indent(depth);
            self.dd(n, Field::FolderDesc, d);
        }
        self.loss
            .record_unsupported(self.doc, n, folder_fields(f), crate::support, NO_PLACE);
        self.indent(depth);
        self.out.push_str("<DL><p>\n");
    }

    fn leaf(&mut self, id: NodeId, depth: usize) {
        match self.doc.node(id) {
            Node::Bookmark(b) => self.bookmark(id, b, depth),
            Node::Separator(s) => self.separator(id, s, depth),
            Node::Alias(a) => {
                let target = self
                    .first_ids
                    .get(a.target.as_str())
                    .and_then(|&t| self.doc.node(t).as_bookmark());
                match target {
                    Some(t) => {
                        let extra: Vec<&Attribute> = a.extra.iter().collect();
                        self.indent(depth);
                        self.out.push_str("<DT><A");
                        if !extra.iter().any(|x| x.name.eq_ignore_ascii_case("HREF")) {
                            self.attr("HREF", &t.href);
                        }
                        let mut written = Vec::new();
                        for x in extra {
                            let upper = x.name.to_ascii_uppercase();
                            let valid = !x.name.is_empty()
                                && x.name.bytes().all(|b| {
                                    b.is_ascii_graphic()
                                        && !matches!(b, b'/' | b'>' | b'=' | b'"' | b'\'' | b'<')
                                });
                            if !valid
                                || upper == "ALIASOF"
                                || written.contains(&upper)
                                || upper != x.name
                            {
                                self.lose(
                                    Some(id),
                                    Field::AliasExtra,
                                    "an attribute of this alias cannot be written as it is",
                                );
                                if !valid || upper == "ALIASOF" || written.contains(&upper) {
                                    continue;
                                }
                            }
                            self.attr(&upper, &x.value);
                            written.push(upper);
                        }
                        self.attr("ALIASOF", &a.target);
                        self.out.push('>');
                        escape_into(&mut self.out, t.title.as_deref().unwrap_or(""));
                        self.out.push_str("</A>\n");
                    }
                    None => {
                        self.lose(
                            Some(id),
                            Field::Alias,
                            "Netscape aliases (ALIASOF) can only show a bookmark that has an id",
                        );
                        // Leaving it out moves the separators after it.
                        let siblings = self.doc.children(self.doc.parent(id));
                        let at = siblings.iter().position(|&s| s == id).unwrap_or(0);
                        if let Some(&sep) = siblings[at..]
                            .iter()
                            .find(|&&s| matches!(self.doc.node(s), Node::Separator(_)))
                        {
                            self.lose(
                                Some(sep),
                                Field::Separator,
                                "an alias before it is left out, so it moves up",
                            );
                        }
                    }
                }
            }
            Node::Folder(_) => {}
            // A kind of node added to the model after this writer: nothing to write yet.
            _ => {}
        }
    }

    fn separator(&mut self, id: NodeId, s: &Separator, depth: usize) {
        let n = Some(id);
        self.indent(depth);
        self.out.push_str("<HR");
        if let Some(t) = &s.title {
            self.attr("NAME", t);
        }
        let extra: Vec<&Attribute> = s.extra.iter().collect();
        self.extras(n, Field::SeparatorExtra, &extra, SEPARATOR_ATTRS);
        self.out.push_str(">\n");
        self.loss
            .record_unsupported(self.doc, n, separator_fields(s), crate::support, NO_PLACE);
    }

    fn bookmark(&mut self, id: NodeId, b: &Bookmark, depth: usize) {
        let more = b.details();
        let n = Some(id);
        self.indent(depth);
        self.out.push_str("<DT><A");
        self.attr("HREF", &b.href);
        if let Some(d) = &b.added {
            self.date_attr(n, Field::BookmarkAdded, "ADD_DATE", d);
        }
        if let Some(d) = &b.modified {
            self.date_attr(n, Field::BookmarkModified, "LAST_MODIFIED", d);
        }
        if let Some(d) = &more.visited {
            self.date_attr(n, Field::BookmarkVisited, "LAST_VISIT", d);
        }
        let plain: [(&str, &Option<String>); 6] = [
            ("ICON_URI", &more.favicon_uri),
            ("ICON", &b.favicon),
            ("SHORTCUTURL", &more.firefox().keyword),
            ("POST_DATA", &more.firefox().post_data),
            ("FEEDURL", &more.firefox().feed_url),
            ("LAST_CHARSET", &more.firefox().charset),
        ];
        for (name, value) in plain {
            if let Some(v) = value {
                self.attr(name, v);
            }
        }
        if let Some(i) = &more.id {
            let name = if self.alias_targets.contains(i.as_str()) {
                "ALIASID"
            } else {
                "ID"
            };
            self.attr(name, i);
        }
        if !b.tags.is_empty() {
            if b.tags
                .iter()
                .any(|t| t.contains(',') || t.is_empty() || trim_html(t) != t)
            {
                self.lose(
                    n,
                    Field::BookmarkTags,
                    "TAGS is comma-separated: a tag with a comma splits, an empty one is dropped, spaces around one are trimmed",
                );
            }
            self.out.push_str(" TAGS=\"");
            for (i, t) in b.tags.iter().enumerate() {
                if i > 0 {
                    self.out.push(',');
                }
                escape_into(&mut self.out, t);
            }
            self.out.push('"');
        }
        if let Some(p) = b.private {
            self.attr("PRIVATE", if p { "1" } else { "0" });
        }
        if let Some(t) = b.to_read {
            self.attr("TOREAD", if t { "1" } else { "0" });
        }
        let extra: Vec<&Attribute> = more.extra.iter().collect();
        self.extras(n, Field::BookmarkExtra, &extra, BOOKMARK_ATTRS);
        if more
            .extra
            .iter()
            .any(|a| a.name.eq_ignore_ascii_case("ALIASOF"))
        {
            // The reader may turn it into an alias if its target resolves.
            let target = more
                .extra
                .iter()
                .find(|a| a.name.eq_ignore_ascii_case("ALIASOF"))
                .map(|a| a.value.as_str())
                .unwrap_or("");
            if let Some(&t) = self.first_ids.get(target) {
                if let Node::Bookmark(tb) = self.doc.node(t) {
                    if tb.title == b.title {
                        self.lose(n, Field::Bookmark, "its ALIASOF attribute names a bookmark with the same title: it reads back as an alias");
                    }
                }
            }
        }
        let untitled = b.title.is_none() && !b.href.is_empty();
        if untitled {
            self.attr(UNTITLED, "1");
        }
        self.out.push('>');
        if untitled {
            self.untitled_link(n, &b.href);
        } else {
            self.check_title(n, Field::BookmarkTitle, b.title.as_deref());
            self.title(b.title.as_deref().unwrap_or(""));
        }
        self.out.push_str("</A>\n");
        if let Some(d) = &b.desc {
            self.indent(depth);
            self.dd(n, Field::BookmarkDesc, d);
        }
        self.loss
            .record_unsupported(self.doc, n, bookmark_fields(b), crate::support, NO_PLACE);
    }
}
