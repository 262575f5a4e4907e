//! Linkwarden's JSON export (Settings → Data → Export): the user's account
//! object with `collections` (each with `name`, `description`, `color`,
//! `isPublic`, dates and its `links`) and `pinnedLinks`. Linkwarden deletes
//! every `id` and `parentId` from the export, so collections are one flat
//! level of folders (`docs/formats/linkwarden.md`).
//!
//! A link: `name` (title), `url`, `description`, `tags` (objects with a
//! `name`), `createdAt`, `updatedAt`; the other keys are kept as extra
//! attributes, but the archived page text (`textContent`) is not carried
//! (a note counts it). A link whose url is among `pinnedLinks` gets the
//! extra attribute `pinned="true"`. A collection that is not public makes
//! its links private (as does a missing `isPublic`: when in doubt a
//! bookmark is private).

use std::collections::HashSet;

use markport_model::{
    Attribute, Bookmark, Diagnostic, Document, Error, Folder, LineIndex, NodeId, Parsed,
    ReadOptions,
};

use crate::record::{details, each_object, head, iso_date, top_object, Item, Record, Val};

/// How sure it is that `input` is a Linkwarden export: a JSON object with
/// a `collections` array whose entries have `links`, and no `bookmarks`
/// (Karakeep's key).
pub fn detect(input: &[u8]) -> Option<u8> {
    let (first, head) = head(input)?;
    // A key, not a link titled "bookmarks".
    if first != b'{' || markport_markup::sniff::has_key(head.as_bytes(), "bookmarks") {
        return None;
    }
    let at = head.find("\"collections\"")?;
    (head[at..].contains("\"links\"") || head.contains("\"pinnedLinks\"")).then_some(90)
}

const LINK_MAPPED: &[&str] = &[
    "name",
    "url",
    "description",
    "tags",
    "createdAt",
    "updatedAt",
];
const LINK_DROPPED: &[&str] = &["textContent"];
const COLLECTION_MAPPED: &[&str] = &["name", "description", "createdAt", "updatedAt", "links"];

/// Read a Linkwarden export.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let lines = LineIndex::new(input);
    let (top, collections) = top_object(input, &lines, "Linkwarden", "collections")?;
    let mut doc = Document::new();
    let mut diags = Vec::new();
    // The account's own fields (name, username, dates, ...) are the
    // collection's header; the collections and pins are read below.
    doc.header.extra = top.extra(&["collections", "pinnedLinks"], &[]);
    let mut pinned: HashSet<String> = HashSet::new();
    if let Some(at) = top.nested("pinnedLinks") {
        each_object(input, at, "pinned link", &lines, &mut diags, |_, rec, _| {
            if let Some(url) = rec.str("url") {
                pinned.insert(url.to_string());
            }
            Ok(())
        })?;
    }
    let mut archived = 0usize;
    let mut count = 0usize;
    each_object(
        input,
        collections,
        "collection",
        &lines,
        &mut diags,
        |i, c, diags| {
            let what = Item::new("collection", i);
            let mut f = Folder::new();
            f.title = c.text("name");
            f.desc = c.text("description");
            f.added = iso_date(&c, "createdAt", what, &lines, diags);
            f.modified = iso_date(&c, "updatedAt", what, &lines, diags);
            f.extra = c.extra(COLLECTION_MAPPED, &[]);
            let private = match c.flag("isPublic") {
                Ok(Some(public)) => !public,
                _ => true,
            };
            let folder = doc.push(None, f);
            let Some(links) = c.nested("links") else {
                return Ok(());
            };
            each_object(
                input,
                links,
                format_args!("{what}: link"),
                &lines,
                diags,
                |j, l, diags| {
                    count += 1;
                    if matches!(l.get("textContent"), Some(Val::Str(s)) if !s.is_empty()) {
                        archived += 1;
                    }
                    link(
                        &mut doc,
                        folder,
                        Item {
                            within: Some(("collection", i)),
                            kind: "link",
                            n: j,
                        },
                        input,
                        &l,
                        &lines,
                        diags,
                        private,
                        &pinned,
                    )
                },
            )
            .map(|_| ())
        },
    )?;
    if archived > 0 {
        diags.push(Diagnostic::note(
            format!("{archived} of {count} links' archived text (`textContent`) is not carried: markport keeps bookmarks, not pages"),
            None,
        ));
    }
    Parsed::new(doc, diags).enforce(opts)
}

#[allow(clippy::too_many_arguments)]
fn link(
    doc: &mut Document,
    folder: NodeId,
    what: Item,
    input: &[u8],
    l: &Record<'_>,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
    private: bool,
    pinned: &HashSet<String>,
) -> Result<(), Error> {
    let Some(href) = l.url(what, lines, diags) else {
        return Ok(());
    };
    let mut b = Bookmark::new(href);
    b.title = l.text("name");
    b.desc = l.text("description");
    b.added = iso_date(l, "createdAt", what, lines, diags);
    b.modified = iso_date(l, "updatedAt", what, lines, diags);
    b.tags = l.strings(input, "tags", "name", what, lines, diags)?;
    b.private = Some(private);
    let mut extra = l.extra(&l.mapped(LINK_MAPPED, &["tags"]), LINK_DROPPED);
    if pinned.contains(&b.href) {
        extra.push(Attribute::new("pinned", "true"));
        extra.sort_by(|a, b| a.name.cmp(&b.name));
    }
    details(&mut b, None, extra);
    doc.push(Some(folder), b);
    Ok(())
}

/// This format as the registry lists it (`markport::format("linkwarden")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "linkwarden",
    "Linkwarden's JSON export; collections as folders",
    &[],
    detect,
    read,
);
