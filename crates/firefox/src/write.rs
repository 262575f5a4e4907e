//! Writing a Firefox backup: the placesRoot and its four standard roots,
//! as `BookmarkJSONUtils.importFromFile` restores them.

use std::collections::HashSet;

use markport_markup::json::write::{push_string, Escaping};
use markport_markup::json::Parser;
use markport_model::{
    bookmark_fields, document_fields, folder_fields, separator_fields, Attribute, Bookmark,
    DateValue, Document, Error, Field, Folder, LossReport, Node, NodeId, Role, Separator,
    Timestamp, WriteOptions,
};

use crate::{support, ANNO_DESCRIPTION, ANNO_FEED, ROOT_GUID};

const ROOTS: [(Role, &str, &str, &str, u32); 4] = [
    (Role::Menu, "bookmarksMenuFolder", "menu________", "menu", 0),
    (Role::Toolbar, "toolbarFolder", "toolbar_____", "toolbar", 1),
    (
        Role::Unfiled,
        "unfiledBookmarksFolder",
        "unfiled_____",
        "unfiled",
        3,
    ),
    (Role::Mobile, "mobileFolder", "mobile______", "mobile", 4),
];

/// Keys the writer sets itself: an `extra` of the same name cannot be written.
const OWN_KEYS: &[&str] = &[
    "guid",
    "title",
    "index",
    "dateAdded",
    "lastModified",
    "id",
    "typeCode",
    "type",
    "root",
    "children",
    "uri",
    "iconUri",
    "iconuri",
    "tags",
    "keyword",
    "postData",
    "charset",
    "livemark",
    "annos",
    "parent",
];

const NOT_CARRIED: &str = "Firefox backups have no place for it";

struct Writer<'d> {
    doc: &'d Document,
    out: String,
    loss: LossReport,
    guids: HashSet<String>,
    seed: u64,
}

/// Where the document's top level goes in the backup's four roots.
struct Layout {
    /// The top-level folder that is each root of [`ROOTS`], if any.
    roots: [Option<NodeId>; 4],
    /// The top-level items that are no root: they go into the menu.
    strays: Vec<NodeId>,
    /// The roots' order in the backup, as indices into [`ROOTS`].
    order: Vec<usize>,
}

pub(crate) fn write(doc: &Document, _opts: &WriteOptions) -> Result<(Vec<u8>, LossReport), Error> {
    let mut w = Writer {
        doc,
        out: String::with_capacity(doc.len() * 200 + 1024),
        loss: LossReport::new(),
        guids: ROOTS.iter().map(|r| r.2.to_string()).collect(),
        seed: 0x9E37_79B9_7F4A_7C15,
    };
    w.guids.insert(ROOT_GUID.into());
    let layout = layout(doc);
    w.record_layout(&layout);
    w.places_root();
    w.out.push_str(",\"children\":[");
    for (n, &i) in layout.order.iter().enumerate() {
        if n > 0 {
            w.out.push(',');
        }
        w.root(&layout, i);
    }
    w.out.push_str("]}\n");
    crate::restore::record(doc, &layout.roots, &layout.order, &mut w.loss);
    Ok((w.out.into_bytes(), w.loss))
}

/// Which top-level folder is which root; everything else goes into the
/// menu. Roots are written in the order the document has them, so that
/// nothing changes order; when that cannot be (an item outside the roots
/// after one of them), everything goes into the menu.
fn layout(doc: &Document) -> Layout {
    let top = doc.children(None);
    let mut roots: [Option<NodeId>; 4] = [None; 4];
    let mut strays = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    // Where the last stray and the first root stand (one pass: the order
    // check below must not cost strays x top-level items).
    let (mut last_stray, mut first_root) = (None, None);
    for (at, &id) in top.iter().enumerate() {
        let slot = match doc.node(id) {
            Node::Folder(f) => ROOTS
                .iter()
                .position(|r| Some(r.0) == f.role)
                .filter(|&i| roots[i].is_none()),
            _ => None,
        };
        match slot {
            Some(i) => {
                roots[i] = Some(id);
                first_root = first_root.or(Some(at));
            }
            None => {
                strays.push(id);
                last_stray = Some(at);
            }
        }
        let slot = slot.unwrap_or(0);
        if !order.contains(&slot) {
            order.push(slot);
        }
    }
    let in_order = strays.is_empty()
        || (last_stray < Some(first_root.unwrap_or(usize::MAX))
            && roots[0]
                .is_none_or(|m| order.first() == Some(&0) && top.get(strays.len()) == Some(&m)));
    if !in_order {
        roots = [None; 4];
        strays = top.to_vec();
        order = vec![0];
    }
    for i in 0..ROOTS.len() {
        if !order.contains(&i) {
            order.push(i);
        }
    }
    Layout {
        roots,
        strays,
        order,
    }
}

impl Writer<'_> {
    /// Report the items moved into the menu and the roots added.
    fn record_layout(&mut self, layout: &Layout) {
        let doc = self.doc;
        for &id in &layout.strays {
            // Where a separator stands is its own field (as `diff` counts it);
            // a folder's or bookmark's is placement. An alias is dropped anyway.
            let field = match doc.node(id) {
                Node::Separator(_) => Field::Separator,
                Node::Alias(_) => continue,
                _ => Field::Folder,
            };
            self.loss.record(
                doc,
                Some(id),
                field,
                "a Firefox backup holds everything in its four roots: moved into the Bookmarks Menu",
            );
        }
        for (i, r) in layout.roots.iter().enumerate() {
            if r.is_none() {
                self.loss.record(
                    doc,
                    None,
                    Field::Folder,
                    &format!("a Firefox backup always has the {} root: added", ROOTS[i].3),
                );
            }
        }
    }

    /// The placesRoot, the document's header, up to its children.
    fn places_root(&mut self) {
        let doc = self.doc;
        let h = &doc.header;
        self.out.push_str("{\"guid\":\"root________\",\"title\":");
        match &h.title {
            Some(t) if !t.is_empty() => string(&mut self.out, t),
            Some(_) => {
                self.loss.record(
                    doc,
                    None,
                    Field::DocumentTitle,
                    "an empty title reads back as none",
                );
                self.out.push_str("\"\"");
            }
            None => self.out.push_str("\"\""),
        }
        self.out.push_str(",\"index\":0");
        self.date(None, Field::DocumentAdded, "dateAdded", h.added.as_ref());
        self.date(
            None,
            Field::DocumentModified,
            "lastModified",
            h.modified.as_ref(),
        );
        self.id(None, Field::DocumentId, h.id.as_deref());
        self.out.push_str(
            ",\"typeCode\":2,\"type\":\"text/x-moz-place-container\",\"root\":\"placesRoot\"",
        );
        if h.extra.iter().any(|a| a.name == "guid") {
            self.loss.record(
                doc,
                None,
                Field::DocumentExtra,
                "the placesRoot's guid is always root________",
            );
        }
        let extra: Vec<Attribute> = h
            .extra
            .iter()
            .filter(|a| a.name != "guid")
            .cloned()
            .collect();
        self.extras(None, Field::DocumentExtra, &extra);
        self.loss
            .record_unsupported(doc, None, document_fields(doc), support, NOT_CARRIED);
    }

    /// Root `i` of [`ROOTS`] and everything in it: the document's folder
    /// that is that root, or a new empty one.
    fn root(&mut self, layout: &Layout, i: usize) {
        let doc = self.doc;
        let (_, root, guid, title, index) = &ROOTS[i];
        let mut children: Vec<NodeId> = Vec::new();
        match layout.roots[i] {
            Some(id) => {
                let f = doc.node(id).as_folder().expect("a root is a folder");
                if f.guid.as_deref() != Some(guid) {
                    self.loss.record(
                        doc,
                        Some(id),
                        Field::FolderGuid,
                        "Firefox's roots have fixed guids",
                    );
                }
                self.folder_head(Some(id), f, *index, Some((root, guid)));
                children.extend_from_slice(doc.children(Some(id)));
            }
            None => {
                // A title no folder of the document has: a diff pairs folders
                // by title, and the new root must not stand in for one.
                let mut f = Folder::titled(free_title(doc, title));
                f.guid = Some(guid.to_string());
                self.folder_head(None, &f, *index, Some((root, guid)));
            }
        }
        if i == 0 {
            // The items outside the roots come first, as they stood.
            children.splice(0..0, layout.strays.iter().copied());
        }
        self.tree(children);
    }

    /// The items of one root and everything below them, with a stack.
    fn tree(&mut self, top: Vec<NodeId>) {
        let doc = self.doc;
        let mut stack: Vec<(Vec<NodeId>, usize, u32)> = vec![(top, 0, 0)];
        while let Some((ids, pos, index)) = stack.last_mut() {
            let Some(&id) = ids.get(*pos) else {
                stack.pop();
                self.out.push_str("]}");
                continue;
            };
            *pos += 1;
            if let Node::Alias(_) = doc.node(id) {
                self.loss
                    .record(doc, Some(id), Field::Alias, "Firefox has no aliases");
                continue;
            }
            let i = *index;
            *index += 1;
            if i > 0 {
                self.out.push(',');
            }
            match doc.node(id) {
                Node::Folder(f) => {
                    if f.role.is_some() {
                        self.loss.record(
                            doc,
                            Some(id),
                            Field::FolderRole,
                            "only the four roots of a Firefox backup have a role",
                        );
                    }
                    self.folder_head(Some(id), f, i, None);
                    stack.push((doc.children(Some(id)).to_vec(), 0, 0));
                }
                Node::Bookmark(b) => self.bookmark(id, b, i),
                Node::Separator(s) => self.separator(id, s, i),
                _ => {}
            }
        }
    }

    /// A folder's members up to and including `"children":[`.
    fn folder_head(
        &mut self,
        n: Option<NodeId>,
        f: &Folder,
        index: u32,
        root: Option<(&str, &str)>,
    ) {
        self.out.push('{');
        match root {
            Some((_, guid)) => {
                self.out.push_str("\"guid\":");
                string(&mut self.out, guid);
            }
            None => self.guid(
                n.expect("a folder of the document"),
                Field::FolderGuid,
                f.guid.as_deref(),
            ),
        }
        if let Some(t) = &f.title {
            self.out.push_str(",\"title\":");
            string(&mut self.out, t);
        }
        self.out.push_str(&format!(",\"index\":{index}"));
        self.date(n, Field::FolderAdded, "dateAdded", f.added.as_ref());
        self.date(
            n,
            Field::FolderModified,
            "lastModified",
            f.modified.as_ref(),
        );
        self.id(n, Field::FolderId, f.id.as_deref());
        self.out.push_str(",\"typeCode\":2");
        self.annos(
            n,
            Field::FolderMetaInfo,
            f.desc.as_deref(),
            None,
            &f.meta_info,
        );
        self.out
            .push_str(",\"type\":\"text/x-moz-place-container\"");
        if let Some((root, _)) = root {
            self.out.push_str(",\"root\":");
            string(&mut self.out, root);
        }
        if let Some(n) = n {
            self.extras(Some(n), Field::FolderExtra, &f.extra);
            self.loss
                .record_unsupported(self.doc, Some(n), folder_fields(f), support, NOT_CARRIED);
        }
        self.out.push_str(",\"children\":[");
    }

    fn bookmark(&mut self, n: NodeId, b: &Bookmark, index: u32) {
        let d = b.details();
        self.out.push('{');
        self.guid(n, Field::BookmarkGuid, d.guid.as_deref());
        if let Some(t) = &b.title {
            self.out.push_str(",\"title\":");
            string(&mut self.out, t);
        }
        self.out.push_str(&format!(",\"index\":{index}"));
        self.date(Some(n), Field::BookmarkAdded, "dateAdded", b.added.as_ref());
        self.date(
            Some(n),
            Field::BookmarkModified,
            "lastModified",
            b.modified.as_ref(),
        );
        self.id(Some(n), Field::BookmarkId, d.id.as_deref());
        self.out.push_str(",\"typeCode\":1");
        for (key, v) in [
            ("iconUri", &d.favicon_uri),
            ("charset", &d.firefox().charset),
            ("keyword", &d.firefox().keyword),
            ("postData", &d.firefox().post_data),
        ] {
            if let Some(v) = v {
                self.out.push_str(&format!(",\"{key}\":"));
                string(&mut self.out, v);
            }
        }
        if !b.tags.is_empty() {
            if b.tags.iter().any(|t| t.is_empty() || t.contains(',')) {
                self.loss.record(
                    self.doc,
                    Some(n),
                    Field::BookmarkTags,
                    "Firefox keeps tags as one comma-separated string: no commas in tags, no empty tags",
                );
            }
            self.out.push_str(",\"tags\":");
            string(&mut self.out, &b.tags.join(","));
        }
        self.annos(
            Some(n),
            Field::BookmarkMetaInfo,
            b.desc.as_deref(),
            d.firefox().feed_url.as_deref(),
            &d.meta_info,
        );
        self.out.push_str(",\"type\":\"text/x-moz-place\",\"uri\":");
        string(&mut self.out, &b.href);
        self.extras(Some(n), Field::BookmarkExtra, &d.extra);
        self.loss
            .record_unsupported(self.doc, Some(n), bookmark_fields(b), support, NOT_CARRIED);
        self.out.push('}');
    }

    fn separator(&mut self, n: NodeId, s: &Separator, index: u32) {
        self.out
            .push_str(&format!("{{\"index\":{index},\"typeCode\":3"));
        if let Some(t) = &s.title {
            if t.is_empty() {
                self.loss.record(
                    self.doc,
                    Some(n),
                    Field::SeparatorTitle,
                    "an empty separator title reads back as none",
                );
            }
            self.out.push_str(",\"title\":");
            string(&mut self.out, t);
        }
        self.out
            .push_str(",\"type\":\"text/x-moz-place-separator\"");
        // A separator's guid, id and dates stay in its extra (the model has no field).
        let own: Vec<Attribute> = s.extra.clone();
        let mut rest = Vec::new();
        for a in own {
            if ["guid", "id", "dateAdded", "lastModified"].contains(&a.name.as_str()) {
                self.out.push(',');
                string(&mut self.out, &a.name);
                self.out.push(':');
                value(&mut self.out, &a.value);
            } else {
                rest.push(a);
            }
        }
        self.extras(Some(n), Field::SeparatorExtra, &rest);
        self.loss
            .record_unsupported(self.doc, Some(n), separator_fields(s), support, NOT_CARRIED);
        self.out.push('}');
    }

    fn guid(&mut self, n: NodeId, field: Field, guid: Option<&str>) {
        let guid = match guid {
            Some(g) if is_guid(g) && self.guids.insert(g.to_string()) => g.to_string(),
            other => {
                let why = match other {
                    Some(_) => "not a Firefox guid (12 characters of A-Z a-z 0-9 - _, unique): a new one made",
                    None => "Firefox needs a guid on every item: one made",
                };
                self.loss.record(self.doc, Some(n), field, why);
                self.new_guid()
            }
        };
        self.out.push_str("\"guid\":");
        string(&mut self.out, &guid);
    }

    fn new_guid(&mut self) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        loop {
            // splitmix64: deterministic output for the same document.
            self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let g: String = (0..12)
                .map(|i| ALPHABET[((z >> (i * 5)) & 63) as usize] as char)
                .collect();
            if self.guids.insert(g.clone()) {
                return g;
            }
        }
    }

    fn id(&mut self, n: Option<NodeId>, field: Field, id: Option<&str>) {
        let Some(id) = id else { return };
        match id.parse::<i64>() {
            Ok(v) if v.to_string() == id => self.out.push_str(&format!(",\"id\":{v}")),
            _ => self
                .loss
                .record(self.doc, n, field, "Firefox ids are numbers"),
        }
    }

    fn date(&mut self, n: Option<NodeId>, field: Field, key: &str, v: Option<&DateValue>) {
        let Some(v) = v else { return };
        let t = match v {
            DateValue::Instant(t) => t,
            _ => {
                self.loss.record(
                    self.doc,
                    n,
                    field,
                    "Firefox dates are microseconds since 1970: this raw date cannot be written",
                );
                return;
            }
        };
        let Some(us) = t
            .unix_seconds()
            .checked_mul(1_000_000)
            .and_then(|s| s.checked_add(i64::from(t.subsec_nanos() / 1000)))
        else {
            self.loss
                .record(self.doc, n, field, "out of the range of Firefox dates");
            return;
        };
        let back = Timestamp::from_unix(
            us.div_euclid(1_000_000),
            (us.rem_euclid(1_000_000) * 1000) as u32,
        )
        .map(DateValue::Instant);
        match back {
            Some(b) if b.same(v) => {
                if let Some(form) = field.form() {
                    if !b.same_form(v) {
                        self.loss.record(self.doc, n, form, "Firefox dates are microseconds since 1970: how the date was written is not kept (same instant)");
                    }
                }
            }
            _ => self
                .loss
                .record(self.doc, n, field, "Firefox dates are whole microseconds"),
        }
        self.out.push_str(&format!(",\"{key}\":{us}"));
    }

    fn annos(
        &mut self,
        n: Option<NodeId>,
        meta_field: Field,
        desc: Option<&str>,
        feed: Option<&str>,
        meta: &[Attribute],
    ) {
        let mut list: Vec<(&str, &str)> = Vec::new();
        if let Some(d) = desc {
            list.push((ANNO_DESCRIPTION, d));
        }
        if let Some(f) = feed {
            list.push((ANNO_FEED, f));
        }
        let mut clash = false;
        for a in meta {
            if a.name == ANNO_DESCRIPTION || a.name == ANNO_FEED {
                clash = true;
                continue;
            }
            list.push((&a.name, &a.value));
        }
        if clash {
            self.loss.record(self.doc, n, meta_field, "an annotation named like the description or the feed reads back as that field: left out");
        }
        if list.is_empty() {
            return;
        }
        self.out.push_str(",\"annos\":[");
        for (i, (name, v)) in list.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.out.push_str("{\"name\":");
            string(&mut self.out, name);
            self.out.push_str(",\"flags\":0,\"expires\":4,\"value\":");
            string(&mut self.out, v);
            self.out.push('}');
        }
        self.out.push(']');
    }

    fn extras(&mut self, n: Option<NodeId>, field: Field, extra: &[Attribute]) {
        let mut clash = false;
        for a in extra {
            if OWN_KEYS.contains(&a.name.as_str()) {
                clash = true;
                continue;
            }
            self.out.push(',');
            string(&mut self.out, &a.name);
            self.out.push(':');
            value(&mut self.out, &a.value);
        }
        if clash {
            self.loss.record(
                self.doc,
                n,
                field,
                "an attribute named like one of Firefox's own keys cannot be written",
            );
        }
    }
}

/// `want`, or `want (2)`, ... : the first that no folder of `doc` is titled.
fn free_title(doc: &Document, want: &str) -> String {
    let taken: HashSet<&str> = doc
        .ids()
        .filter_map(|id| doc.node(id).as_folder().and_then(|f| f.title.as_deref()))
        .collect();
    let mut title = want.to_string();
    let mut n = 1;
    while taken.contains(title.as_str()) {
        n += 1;
        title = format!("{want} ({n})");
    }
    title
}

/// A Firefox guid: 12 characters of the URL-safe base64 alphabet.
pub(crate) fn is_guid(g: &str) -> bool {
    g.len() == 12
        && g.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

/// An `extra` value: JSON text that reads back as itself is written as
/// JSON (numbers, booleans, arrays and objects the source had); anything
/// else as a string.
fn value(out: &mut String, v: &str) {
    let json = v != "null"
        && v.trim() == v
        && !v.starts_with('"')
        && !v.is_empty()
        // The parser skips a byte order mark, which inside a value is not JSON.
        && !v.starts_with('\u{feff}')
        && Parser::new(v.as_bytes()).skip_all().is_ok();
    if json {
        out.push_str(v);
    } else {
        string(out, v);
    }
}

/// A JSON string, escaped as Firefox's backups escape it.
fn string(out: &mut String, s: &str) {
    push_string(out, s, Escaping::Firefox);
}

#[cfg(test)]
mod tests {
    use markport_model::{diff, Document, Folder, ReadOptions, Role, WriteOptions};

    /// Extra values that are JSON go out as JSON; anything else, including
    /// text the JSON parser would only accept after skipping a byte order
    /// mark, as a string, so the backup stays JSON.
    #[test]
    fn extra_values_are_json_only_when_they_read_back_as_json() {
        let written = |v: &str| {
            let mut out = String::new();
            super::value(&mut out, v);
            out
        };
        assert_eq!(written("[1, {\"a\": true}]"), "[1, {\"a\": true}]");
        assert_eq!(written("12.5"), "12.5");
        assert_eq!(written("1 2"), "\"1 2\"");
        assert_eq!(written("[1,]"), "\"[1,]\"");
        assert_eq!(written("null"), "\"null\"");
        assert_eq!(written("\u{feff}5"), "\"\u{feff}5\"");
        assert_eq!(written("a\u{1}<"), "\"a\\u0001<\"");
    }

    fn root(title: &str, role: Option<Role>) -> Folder {
        let mut f = Folder::titled(title);
        f.role = role;
        f.id = Some("7".into());
        f
    }

    #[test]
    fn roots_out_of_order_go_into_the_menu_and_the_report_is_true() {
        let mut doc = Document::new();
        doc.push(None, root("menu", Some(Role::Menu)));
        doc.push(None, root("toolbar", None));
        doc.push(None, root("unfiled", Some(Role::Unfiled)));
        doc.push(None, Folder::new());
        let mut out = Vec::new();
        let loss = crate::write(&doc, &WriteOptions::default(), &mut out).unwrap();
        let back = crate::read(&out, &ReadOptions::default()).unwrap().document;
        assert_eq!(diff(&doc, &back).fields(), loss.fields());
    }
}
