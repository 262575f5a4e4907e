//! Karakeep's (formerly Hoarder's) JSON export: `{"bookmarks": [...],
//! "lists": [...]}` (`lists` in newer exports only). A bookmark has
//! `createdAt` (Unix seconds), `title`, `tags` (strings), `note`, `archived`,
//! `lists` (the ids of the lists it is in) and `content`, whose `type` is
//! `link` (with its `url`) or `text` (a note with no link, which is no
//! bookmark: counted and reported, never read as one). A list has `id`,
//! `name`, `description`, `icon`, `type` (`manual` or `smart`, a saved search
//! with its `query`) and `parentId`, so lists nest
//! (`docs/formats/karakeep.md`).
//!
//! Lists are folders, nested by `parentId` (a parent that is missing, or a
//! cycle, leaves a list at the top, with a warning). A bookmark stands in
//! the first of its lists that exists; when it is in more than one, its
//! `lists` are kept as an extra attribute and a note counts them.
//! `archived` and `customMetadata` are kept as extra attributes.

use std::collections::HashMap;

use markport_markup::json::{Event, Parser};
use markport_model::{
    Bookmark, Budget, Diagnostic, Document, Error, Folder, LineIndex, NodeId, Parsed, ReadOptions,
};

use crate::record::{
    details, each_object, head, next, record, top_object, unix_seconds, warn, Item, Record, Val,
};

/// How sure it is that `input` is a Karakeep export: a JSON object with a
/// `bookmarks` array whose entries have `content` and `createdAt`.
pub fn detect(input: &[u8]) -> Option<u8> {
    let (first, head) = head(input)?;
    if first != b'{' {
        return None;
    }
    let at = head.find("\"bookmarks\"")?;
    let rest = &head[at..];
    (rest.contains("\"content\"") && rest.contains("\"createdAt\"")).then_some(90)
}

const MAPPED: &[&str] = &["createdAt", "title", "tags", "note", "content", "lists"];
const LIST_MAPPED: &[&str] = &["id", "name", "description", "parentId"];

/// One list, as read.
struct List {
    id: String,
    parent: Option<String>,
    folder: Folder,
    at: usize,
}

/// Read a Karakeep export.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let lines = LineIndex::new(input);
    let (top, bookmarks) = top_object(input, &lines, "Karakeep", "bookmarks")?;
    let mut doc = Document::new();
    let mut budget = Budget::new(opts, input.len());
    let mut diags = Vec::new();
    doc.header.extra = top.extra(&["bookmarks", "lists"], &[]);

    let mut lists: Vec<List> = Vec::new();
    if let Some(at) = top.nested("lists") {
        each_object(input, at, "list", &lines, &mut diags, |i, rec, diags| {
            // Each list is a folder, and its id a key in the map of them.
            budget
                .folder(2 * rec.get("id").map_or(0, |v| v.text().len()) + 64)
                .map_err(crate::placed_at(&lines, rec.at))?;
            let Some(id) = rec.get("id").map(|v| v.text().into_owned()) else {
                warn(
                    diags,
                    &lines,
                    rec.at,
                    format!("list {i} has no id; read as a folder no bookmark is in"),
                );
                lists.push(list(&rec, format!("\u{0}{i}"), None));
                return Ok(());
            };
            lists.push(list(&rec, id.clone(), Some(id)));
            Ok(())
        })?;
    }
    let folders = place_lists(&mut doc, lists, &lines, &mut diags);

    let mut texts = 0usize;
    let mut several = 0usize;
    each_object(
        input,
        bookmarks,
        "bookmark",
        &lines,
        &mut diags,
        |i, rec, diags| {
            let what = Item::new("bookmark", i);
            let (href, kind) = content(input, &rec, &lines, diags)?;
            let Some(href) = href else {
                if kind.as_deref() == Some("text") {
                    texts += 1;
                } else {
                    warn(
                        diags,
                        &lines,
                        rec.at,
                        format!(
                            "{what} has no link (content type {}); skipped",
                            kind.as_deref().unwrap_or("none")
                        ),
                    );
                }
                return Ok(());
            };
            let mut b = Bookmark::new(href);
            // An account's bookmarks are its own: private.
            b.private = Some(true);
            b.title = rec.text("title");
            b.desc = rec.text("note");
            b.added = unix_seconds(&rec, "createdAt", what, &lines, diags);
            b.tags = rec.strings(input, "tags", "name", what, &lines, diags)?;
            let member = rec.strings(input, "lists", "id", what, &lines, diags)?;
            // The common record (tags a list, one list) maps every key
            // without a copy of the list of them.
            let in_several = member.len() > 1;
            let mapped: std::borrow::Cow<'_, [&str]> = if rec.list_or_none("tags") && !in_several {
                std::borrow::Cow::Borrowed(MAPPED)
            } else {
                let mut mapped = rec.mapped(MAPPED, &["tags"]);
                if in_several {
                    several += 1;
                    mapped.retain(|k| *k != "lists");
                }
                std::borrow::Cow::Owned(mapped)
            };
            let parent = member.iter().find_map(|id| folders.get(id).copied());
            details(&mut b, None, rec.extra(&mapped, &[]));
            budget
                .bookmark(&b)
                .map_err(crate::placed_at(&lines, rec.at))?;
            doc.push(parent, b);
            Ok(())
        },
    )?;
    if texts > 0 {
        diags.push(Diagnostic::warning(
            format!("{texts} text notes (content type \"text\") have no link and are not bookmarks: not read"),
            None,
        ));
    }
    if several > 0 {
        diags.push(Diagnostic::note(
            format!("{several} bookmarks are in more than one list: each stands in its first list, its `lists` kept as an extra attribute"),
            None,
        ));
    }
    Parsed::new(doc, diags).enforce(opts)
}

/// A list as a folder; `key` is what bookmarks name it by (made up for a
/// list without an id, which no bookmark can name).
fn list(rec: &Record<'_>, key: String, id: Option<String>) -> List {
    let mut folder = Folder::new();
    folder.id = id;
    folder.title = rec.text("name");
    folder.desc = rec.text("description");
    folder.extra = rec.extra(LIST_MAPPED, &[]);
    let parent = match rec.get("parentId") {
        None | Some(Val::Null) => None,
        Some(v) => Some(v.text().into_owned()),
    };
    List {
        id: key,
        parent,
        folder,
        at: rec.at,
    }
}

/// Push every list as a folder under its parent list, parents first,
/// without recursion: each list's chain of unplaced ancestors is walked
/// with an explicit stack, and a list met twice on one walk is a cycle
/// (it is placed at the top, with a warning). Returns the folder of each
/// list id.
fn place_lists(
    doc: &mut Document,
    mut lists: Vec<List>,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<String, NodeId> {
    // Each folder is moved into the document once, when its turn comes.
    let mut folders: Vec<Option<Folder>> = lists
        .iter_mut()
        .map(|l| Some(std::mem::take(&mut l.folder)))
        .collect();
    let index: HashMap<&str, usize> = lists
        .iter()
        .enumerate()
        .map(|(i, l)| (l.id.as_str(), i))
        .collect();
    // The parent of each list, as an index; a missing one is the top.
    let parent: Vec<Option<usize>> = lists
        .iter()
        .map(|l| {
            let p = l.parent.as_deref()?;
            let found = index.get(p).copied();
            if found.is_none() {
                warn(
                    diags,
                    lines,
                    l.at,
                    format!(
                        "list {:?}: its parent {p:?} is not in the export; placed at the top",
                        l.id
                    ),
                );
            }
            found
        })
        .collect();
    let mut placed: Vec<Option<NodeId>> = vec![None; lists.len()];
    let mut on_walk = vec![false; lists.len()];

    for start in 0..lists.len() {
        let mut chain = Vec::new();
        let mut at = Some(start);
        // Up to the first placed ancestor (or the top, or a cycle).
        let mut cycle = false;
        while let Some(i) = at {
            if placed[i].is_some() {
                break;
            }
            if on_walk[i] {
                cycle = true;
                break;
            }
            on_walk[i] = true;
            chain.push(i);
            at = parent[i];
        }
        let mut above = at.and_then(|i| placed[i]);
        if cycle {
            // The last list pushed closes the cycle: it goes to the top.
            above = None;
            if let Some(&i) = chain.last() {
                warn(
                    diags,
                    lines,
                    lists[i].at,
                    format!(
                        "list {:?} is its own ancestor (a cycle of parentId); placed at the top",
                        lists[i].id
                    ),
                );
            }
        }
        for &i in chain.iter().rev() {
            let f = folders[i].take().unwrap_or_default();
            let id = doc.push(above, f);
            placed[i] = Some(id);
            above = Some(id);
        }
        for &i in &chain {
            on_walk[i] = false;
        }
    }
    lists
        .into_iter()
        .zip(placed)
        .filter_map(|(l, p)| Some((l.id, p?)))
        .collect()
}

/// The link of a bookmark's `content` (`{"type": "link", "url": ...}`) and
/// the content's type.
fn content(
    input: &[u8],
    rec: &Record<'_>,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Result<(Option<String>, Option<String>), Error> {
    let Some(at) = rec.nested("content") else {
        return Ok((None, None));
    };
    let mut p = Parser::value_at(input, at);
    let (start, first) = next(&mut p)?;
    if first != Event::ObjectStart {
        warn(diags, lines, start, "content is not an object".to_string());
        return Ok((None, None));
    }
    let c = record(&mut p, start)?;
    // The type is asked for only of content without a link.
    let href = c.text("url");
    let kind = if href.is_none() { c.text("type") } else { None };
    Ok((href, kind))
}

/// This format as the registry lists it (`markport::format("karakeep")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "karakeep",
    "Karakeep's (Hoarder's) JSON export; lists as folders",
    &[],
    detect,
    read,
);
