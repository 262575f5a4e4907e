//! markport's own block (`owner="https://markport.dev/ns/1"`): every
//! field XBEL has no element for, so that XBEL carries the whole model.

use markport_model::{Attribute, Bookmark, DateValue, Document, Folder, Node, Role, Separator};

use crate::block::{date_text, BlockWriter, Element, Owner, Warnings};
use crate::names::MARKPORT_OWNER;

/// The namespace declaration written on markport's `<metadata>`.
pub(crate) const NAMESPACES: &[(&str, &str)] = &[("xmlns:mp", MARKPORT_OWNER)];

/// Read markport's block of `owner` into its fields.
pub(crate) fn read(doc: &mut Document, owner: Owner, elements: Vec<Element>, out: &mut Warnings) {
    let mut warnings = Vec::new();
    let mut date = |el: &Element| {
        let d = DateValue::from_w3c(&el.text);
        if matches!(d, DateValue::Raw(_)) {
            warnings.push((
                el.offset,
                format!(
                    "{} {:?} is not a W3C date/time; kept as written",
                    el.local, el.text
                ),
            ));
        }
        d
    };
    let bool_of = |el: &Element| el.text.trim() == "true";
    let mut unknown = Vec::new();
    for el in &elements {
        if el.ns.as_deref() != Some(MARKPORT_OWNER) {
            unknown.push(el.offset);
            continue;
        }
        let handled = match owner {
            Owner::Document => match &*el.local {
                "modified" => {
                    doc.header.modified = Some(date(el));
                    true
                }
                "attr" => {
                    doc.header.extra.push(Attribute::new(
                        el.attr("name").unwrap_or_default(),
                        el.text.to_string(),
                    ));
                    true
                }
                _ => false,
            },
            Owner::Node(id) => {
                let node = doc.node_mut(id);
                match node {
                    Node::Bookmark(b) => bookmark_field(b, el, &mut date, bool_of),
                    Node::Folder(f) => folder_field(f, el, &mut date),
                    Node::Separator(s) => separator_field(s, el),
                    Node::Alias(a) => {
                        let ok = el.local == "attr";
                        if ok {
                            a.extra.push(Attribute::new(
                                el.attr("name").unwrap_or_default(),
                                el.text.to_string(),
                            ));
                        }
                        ok
                    }
                    // A kind of node this block has nothing for.
                    _ => false,
                }
            }
        };
        if !handled {
            unknown.push(el.offset);
        }
    }
    for at in unknown {
        out.push((
            at,
            "unknown element in markport's metadata block; ignored".into(),
        ));
    }
    out.extend(warnings);
}

fn bookmark_field(
    b: &mut Bookmark,
    el: &Element,
    date: &mut impl FnMut(&Element) -> DateValue,
    bool_of: impl Fn(&Element) -> bool,
) -> bool {
    let text = || Some(el.text.to_string());
    match &*el.local {
        "tag" => b.tags.push(el.text.to_string()),
        "keyword" => b.details_mut().firefox_mut().keyword = text(),
        "favicon" => b.favicon = text(),
        "favicon-uri" => b.details_mut().favicon_uri = text(),
        "post-data" => b.details_mut().firefox_mut().post_data = text(),
        "feed-url" => b.details_mut().firefox_mut().feed_url = text(),
        "charset" => b.details_mut().firefox_mut().charset = text(),
        "private" => b.private = Some(bool_of(el)),
        "to-read" => b.to_read = Some(bool_of(el)),
        "icon" => b.details_mut().icon = text(),
        "id" => b.details_mut().id = text(),
        "modified" => b.modified = Some(date(el)),
        "attr" => b.details_mut().extra.push(Attribute::new(
            el.attr("name").unwrap_or_default(),
            el.text.to_string(),
        )),
        "guid" => b.details_mut().guid = text(),
        "meta" => b.details_mut().meta_info.push(Attribute::new(
            el.attr("name").unwrap_or_default(),
            el.text.to_string(),
        )),
        _ => return false,
    }
    true
}

fn folder_field(
    f: &mut Folder,
    el: &Element,
    date: &mut impl FnMut(&Element) -> DateValue,
) -> bool {
    match &*el.local {
        "modified" => f.modified = Some(date(el)),
        "icon" => f.icon = Some(el.text.to_string()),
        "id" => f.id = Some(el.text.to_string()),
        "role" => match role_from(&el.text) {
            Some(r) => f.role = Some(r),
            None => return false,
        },
        "attr" => f.extra.push(Attribute::new(
            el.attr("name").unwrap_or_default(),
            el.text.to_string(),
        )),
        "guid" => f.guid = Some(el.text.to_string()),
        "meta" => f.meta_info.push(Attribute::new(
            el.attr("name").unwrap_or_default(),
            el.text.to_string(),
        )),
        _ => return false,
    }
    true
}

fn separator_field(s: &mut Separator, el: &Element) -> bool {
    match &*el.local {
        "title" => s.title = Some(el.text.to_string()),
        "attr" => s.extra.push(Attribute::new(
            el.attr("name").unwrap_or_default(),
            el.text.to_string(),
        )),
        _ => return false,
    }
    true
}

fn role_from(s: &str) -> Option<Role> {
    [
        Role::Toolbar,
        Role::Menu,
        Role::Unfiled,
        Role::ReadingList,
        Role::PlacesRoot,
        Role::Mobile,
    ]
    .into_iter()
    .find(|r| r.name() == s.trim())
}

/// The markport block of a bookmark.
pub(crate) fn write_bookmark(w: &mut BlockWriter, b: &Bookmark) {
    let more = b.details();
    for t in &b.tags {
        w.mp("tag", t);
    }
    let texts = [
        ("keyword", &more.firefox().keyword),
        ("favicon", &b.favicon),
        ("favicon-uri", &more.favicon_uri),
        ("post-data", &more.firefox().post_data),
        ("feed-url", &more.firefox().feed_url),
        ("charset", &more.firefox().charset),
        ("icon", &more.icon),
        ("guid", &more.guid),
    ];
    for (name, v) in texts {
        if let Some(v) = v {
            w.mp(name, v);
        }
    }
    // `true` is the freedesktop block's `<bookmark:private/>`; only `false` needs ours.
    if b.private == Some(false) {
        w.mp("private", "false");
    }
    if let Some(t) = b.to_read {
        w.mp("to-read", if t { "true" } else { "false" });
    }
    w.attrs(&more.extra);
    w.named("meta", &more.meta_info);
}

/// The markport block of a folder.
pub(crate) fn write_folder(w: &mut BlockWriter, f: &Folder) {
    if let Some(m) = &f.modified {
        w.mp("modified", &date_text(m));
    }
    if let Some(i) = &f.icon {
        w.mp("icon", i);
    }
    if let Some(r) = f.role {
        w.mp("role", r.name());
    }
    if let Some(g) = &f.guid {
        w.mp("guid", g);
    }
    w.attrs(&f.extra);
    w.named("meta", &f.meta_info);
}

/// The markport block of a separator.
pub(crate) fn write_separator(w: &mut BlockWriter, s: &Separator) {
    if let Some(t) = &s.title {
        w.mp("title", t);
    }
    w.attrs(&s.extra);
}

/// The markport block of an alias.
pub(crate) fn write_alias(w: &mut BlockWriter, extra: &[Attribute]) {
    w.attrs(extra);
}

/// The markport block of the document.
pub(crate) fn write_document(w: &mut BlockWriter, d: &Document) {
    if let Some(m) = &d.header.modified {
        w.mp("modified", &date_text(m));
    }
    w.attrs(&d.header.extra);
}
