//! From the tables to the model: one pass over `moz_bookmarks` joined with
//! `moz_places`, side tables loaded into maps, the tree built with an
//! explicit stack (the depth is the database's to choose, not the stack's).

use std::collections::{HashMap, HashSet};

use markport_model::budget::NODE_COST;
use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Folder, NodeId,
    Parsed, Role, Separator, Timestamp,
};
use rusqlite::types::ValueRef;
use rusqlite::Connection;

use crate::open::{self, sqlite_error, Table};

/// `moz_bookmarks.type`.
const TYPE_BOOKMARK: i64 = 1;
const TYPE_FOLDER: i64 = 2;
const TYPE_SEPARATOR: i64 = 3;
/// Firefox 2–3 "dynamic containers", read as folders.
const TYPE_DYNAMIC_CONTAINER: i64 = 4;

const DESCRIPTION: &str = "bookmarkProperties/description";
const POST_DATA: &str = "bookmarkProperties/POSTData";
const CHARSET: &str = "URIProperties/characterSet";

/// One `moz_bookmarks` row with its place.
struct Item {
    id: i64,
    kind: i64,
    fk: Option<i64>,
    parent: i64,
    position: i64,
    title: Option<String>,
    added: Option<i64>,
    modified: Option<i64>,
    guid: Option<String>,
    keyword_id: Option<i64>,
    url: Option<String>,
    visited: Option<i64>,
    favicon: Option<String>,
}

/// Which well-known folder an item is, by its fixed guid (Firefox 4 and
/// later) or, in older databases, by `moz_bookmarks_roots`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Root {
    Places,
    Tags,
    Role(Role),
}

fn root_by_guid(guid: &str) -> Option<Root> {
    Some(match guid {
        "root________" => Root::Places,
        "tags________" => Root::Tags,
        "menu________" => Root::Role(Role::Menu),
        "toolbar_____" => Root::Role(Role::Toolbar),
        "unfiled_____" => Root::Role(Role::Unfiled),
        "mobile______" => Root::Role(Role::Mobile),
        _ => return None,
    })
}

fn root_by_name(name: &str) -> Option<Root> {
    Some(match name {
        "places" => Root::Places,
        "tags" => Root::Tags,
        "menu" => Root::Role(Role::Menu),
        "toolbar" => Root::Role(Role::Toolbar),
        "unfiled" => Root::Role(Role::Unfiled),
        "mobile" => Root::Role(Role::Mobile),
        _ => return None,
    })
}

/// Any SQLite value as text (titles are TEXT, but a damaged or hand-made
/// database may hold anything); invalid UTF-8 is replaced, not refused.
fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
    }
}

fn int(v: ValueRef<'_>) -> Option<i64> {
    match v {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(r) if r.fract() == 0.0 && r.abs() < 9.0e18 => Some(r as i64),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// PRTime: microseconds since 1970-01-01 UTC; 0 means unset.
fn date(micros: Option<i64>, what: &str, diags: &mut Vec<Diagnostic>) -> Option<DateValue> {
    let us = micros.filter(|&us| us != 0)?;
    let secs = us.div_euclid(1_000_000);
    let nanos = (us.rem_euclid(1_000_000) * 1000) as u32;
    match Timestamp::from_unix(secs, nanos) {
        Some(t) => Some(DateValue::Instant(t)),
        None => {
            diags.push(Diagnostic::warning(
                format!("{what}: {us} is not a date (microseconds since 1970); kept as written"),
                None,
            ));
            Some(DateValue::Raw(us.to_string().into()))
        }
    }
}

/// The tables read, each looked up in SQLite's own schema
/// ([`open::table`]): one that is absent is `None` (each Firefox version has
/// its own set); a view or a virtual table in the place of any of them is
/// refused before any query runs.
struct Schema {
    bookmarks: Table,
    places: Option<Table>,
    favicons: Option<Table>,
    keywords: Option<Table>,
    items_annos: Option<Table>,
    anno_attributes: Option<Table>,
    annos: Option<Table>,
    roots: Option<Table>,
}

impl Schema {
    fn load(conn: &Connection) -> Result<Schema, Error> {
        let Some(bookmarks) = open::table(conn, "moz_bookmarks")? else {
            return Err(not_places(conn)?);
        };
        let t = |name| open::table(conn, name);
        Ok(Schema {
            bookmarks,
            places: t("moz_places")?,
            favicons: t("moz_favicons")?,
            keywords: t("moz_keywords")?,
            items_annos: t("moz_items_annos")?,
            anno_attributes: t("moz_anno_attributes")?,
            annos: t("moz_annos")?,
            roots: t("moz_bookmarks_roots")?,
        })
    }
}

/// The refusal of an SQLite file without `moz_bookmarks`, naming the
/// tables it has.
fn not_places(conn: &Connection) -> Result<Error, Error> {
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 8")
        .map_err(sqlite_error)?;
    let names = stmt
        .query_map([], |r| r.get_ref(0).map(text))
        .map_err(sqlite_error)?
        .filter_map(|r| r.transpose())
        .collect::<Result<Vec<_>, _>>()
        .map_err(sqlite_error)?;
    Ok(Error::new(
        ErrorKind::WrongFormat,
        format!(
            "an SQLite database, but not Firefox's places: it has no moz_bookmarks table (tables: {})",
            if names.is_empty() { "none".to_string() } else { names.join(", ") }
        ),
        None,
    ))
}

/// `col` when the table has it, else `NULL`: one query for every Firefox
/// version's schema.
fn col(table: &Table, alias: &str, name: &str) -> Result<String, Error> {
    Ok(if table.has(name)? {
        format!("{alias}.{name}")
    } else {
        "NULL".into()
    })
}

fn items(conn: &Connection, schema: &Schema, budget: &mut Budget) -> Result<Vec<Item>, Error> {
    let b = &schema.bookmarks;
    for needed in ["id", "type", "parent"] {
        if !b.has(needed)? {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "moz_bookmarks has no {needed} column: not a places database markport knows"
                ),
                None,
            ));
        }
    }
    // The places are joined by their id, which a hand-made table may lack.
    let p = match &schema.places {
        Some(p) if b.has("fk")? => {
            p.require(&["id"])?;
            Some(p)
        }
        _ => None,
    };
    let favicons = match (p, &schema.favicons) {
        (Some(p), Some(f)) if p.has("favicon_id")? => {
            f.require(&["id", "url"])?;
            true
        }
        _ => false,
    };
    let null = || "NULL".to_string();
    let sql = format!(
        "SELECT b.id, b.type, {fk}, b.parent, {position}, {title}, {added}, {modified}, {guid}, {keyword}, \
         {url}, {visited}, {favicon} FROM moz_bookmarks b {join} {fjoin}",
        fk = col(b, "b", "fk")?,
        position = col(b, "b", "position")?,
        title = col(b, "b", "title")?,
        added = col(b, "b", "dateAdded")?,
        modified = col(b, "b", "lastModified")?,
        guid = col(b, "b", "guid")?,
        keyword = col(b, "b", "keyword_id")?,
        url = p.map_or_else(|| Ok(null()), |p| col(p, "p", "url"))?,
        visited = p.map_or_else(|| Ok(null()), |p| col(p, "p", "last_visit_date"))?,
        favicon = if favicons { "f.url".into() } else { null() },
        join = if p.is_some() { "LEFT JOIN moz_places p ON p.id = b.fk" } else { "" },
        fjoin = if favicons { "LEFT JOIN moz_favicons f ON f.id = p.favicon_id" } else { "" },
    );
    let mut stmt = conn.prepare(&sql).map_err(sqlite_error)?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Item {
                id: int(r.get_ref(0)?).unwrap_or(0),
                kind: int(r.get_ref(1)?).unwrap_or(0),
                fk: int(r.get_ref(2)?),
                parent: int(r.get_ref(3)?).unwrap_or(0),
                position: int(r.get_ref(4)?).unwrap_or(0),
                title: text(r.get_ref(5)?),
                added: int(r.get_ref(6)?),
                modified: int(r.get_ref(7)?),
                guid: text(r.get_ref(8)?),
                keyword_id: int(r.get_ref(9)?),
                url: text(r.get_ref(10)?),
                visited: int(r.get_ref(11)?),
                favicon: text(r.get_ref(12)?),
            })
        })
        .map_err(sqlite_error)?;
    let mut items = Vec::new();
    for item in rows {
        let item = item.map_err(sqlite_error)?;
        // Each row's link and icon are its own copies of its place's, and
        // the item becomes a node: one long link that many bookmarks share
        // is charged for each of them.
        let text = [&item.title, &item.guid, &item.url, &item.favicon]
            .iter()
            .map(|t| t.as_ref().map_or(0, String::len))
            .sum::<usize>();
        budget.charge(ITEM_COST + 2 * text).map_err(|mut e| {
            e.message = format!("bookmark id {}: {}", item.id, e.message);
            e
        })?;
        items.push(item);
    }
    Ok(items)
}

/// What one row of `moz_bookmarks` costs while it is read: its `Item` and
/// the node it becomes.
const ITEM_COST: usize = std::mem::size_of::<Item>() + NODE_COST as usize;

/// Rows of two or three columns as text/integers, for the side tables.
fn pairs(
    conn: &Connection,
    sql: &str,
    budget: &mut Budget,
) -> Result<Vec<(i64, String, Option<String>)>, Error> {
    let mut stmt = conn.prepare(sql).map_err(sqlite_error)?;
    let width = stmt.column_count();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                int(r.get_ref(0)?),
                text(r.get_ref(1)?),
                if width > 2 { text(r.get_ref(2)?) } else { None },
            ))
        })
        .map_err(sqlite_error)?;
    let mut out = Vec::new();
    for row in rows {
        if let (Some(id), Some(s), third) = row.map_err(sqlite_error)? {
            // A side value (an annotation, a keyword's post data) is copied
            // into every item of its place.
            budget.charge(64 + 2 * (s.len() + third.as_ref().map_or(0, String::len)))?;
            out.push((id, s, third));
        }
    }
    Ok(out)
}

/// What the side tables add to an item.
#[derive(Default)]
struct Side {
    /// place id -> (keyword, post data), the first keyword of each place.
    keywords_by_place: HashMap<i64, (String, Option<String>)>,
    /// keyword id -> keyword (databases before Firefox 39).
    keywords_by_id: HashMap<i64, String>,
    /// item id -> (annotation name, content), in id order.
    item_annos: HashMap<i64, Vec<(String, String)>>,
    /// place id -> charset.
    charsets: HashMap<i64, String>,
}

fn side(conn: &Connection, schema: &Schema, budget: &mut Budget) -> Result<Side, Error> {
    let mut side = Side::default();
    if let Some(k) = &schema.keywords {
        if k.has("place_id")? {
            k.require(&["id", "keyword"])?;
            let post = col(k, "k", "post_data")?;
            let sql =
                format!("SELECT k.place_id, k.keyword, {post} FROM moz_keywords k ORDER BY k.id");
            for (place, keyword, post) in pairs(conn, &sql, budget)? {
                // Firefox writes "" for "no post data" as often as NULL.
                let post = post.filter(|p| !p.is_empty());
                side.keywords_by_place
                    .entry(place)
                    .or_insert((keyword, post));
            }
        } else {
            k.require(&["id", "keyword"])?;
            for (id, keyword, _) in pairs(conn, "SELECT id, keyword FROM moz_keywords", budget)? {
                side.keywords_by_id.insert(id, keyword);
            }
        }
    }
    let Some(n) = &schema.anno_attributes else {
        return Ok(side);
    };
    if schema.items_annos.is_some() || schema.annos.is_some() {
        n.require(&["id", "name"])?;
    }
    if let Some(a) = &schema.items_annos {
        a.require(&["id", "item_id", "anno_attribute_id", "content"])?;
        let sql = "SELECT a.item_id, n.name, a.content FROM moz_items_annos a \
                   JOIN moz_anno_attributes n ON n.id = a.anno_attribute_id ORDER BY a.id";
        for (item, name, content) in pairs(conn, sql, budget)? {
            side.item_annos
                .entry(item)
                .or_default()
                .push((name, content.unwrap_or_default()));
        }
    }
    if let Some(a) = &schema.annos {
        a.require(&["place_id", "anno_attribute_id", "content"])?;
        let sql = format!(
            "SELECT a.place_id, a.content FROM moz_annos a \
             JOIN moz_anno_attributes n ON n.id = a.anno_attribute_id WHERE n.name = '{CHARSET}'"
        );
        for (place, charset, _) in pairs(conn, &sql, budget)? {
            side.charsets.insert(place, charset);
        }
    }
    Ok(side)
}

/// The roots of an old database without guids, from `moz_bookmarks_roots`.
fn named_roots(
    conn: &Connection,
    schema: &Schema,
    budget: &mut Budget,
) -> Result<HashMap<i64, Root>, Error> {
    let mut roots = HashMap::new();
    if let Some(r) = &schema.roots {
        r.require(&["folder_id", "root_name"])?;
        for (id, name, _) in pairs(
            conn,
            "SELECT folder_id, root_name FROM moz_bookmarks_roots",
            budget,
        )? {
            if let Some(root) = root_by_name(&name) {
                roots.insert(id, root);
            }
        }
    }
    Ok(roots)
}

/// Read the whole database into a document.
pub(crate) fn read(conn: &Connection, budget: &mut Budget) -> Result<Parsed, Error> {
    let schema = Schema::load(conn)?;
    let items = items(conn, &schema, budget)?;
    let side = side(conn, &schema, budget)?;
    let named = named_roots(conn, &schema, budget)?;
    Builder::new(items, side, named).build()
}

struct Builder {
    items: Vec<Item>,
    side: Side,
    roots: HashMap<i64, Root>,
    diags: Vec<Diagnostic>,
}

impl Builder {
    fn new(items: Vec<Item>, side: Side, named: HashMap<i64, Root>) -> Builder {
        let mut roots = named;
        for item in &items {
            if let Some(root) = item.guid.as_deref().and_then(root_by_guid) {
                roots.insert(item.id, root);
            }
        }
        Builder {
            items,
            side,
            roots,
            diags: Vec::new(),
        }
    }

    fn build(mut self) -> Result<Parsed, Error> {
        let index: HashMap<i64, usize> = self
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| (item.id, i))
            .collect();
        let mut children: HashMap<i64, Vec<usize>> = HashMap::new();
        for (i, item) in self.items.iter().enumerate() {
            if item.parent != item.id {
                children.entry(item.parent).or_default().push(i);
            }
        }
        for list in children.values_mut() {
            list.sort_by_key(|&i| (self.items[i].position, self.items[i].id));
        }
        let places_root = self
            .roots
            .iter()
            .find(|(_, r)| **r == Root::Places)
            .map(|(id, _)| *id)
            .or_else(|| {
                // No guid and no roots table: the item without a parent.
                self.items
                    .iter()
                    .find(|item| item.parent == 0 || !index.contains_key(&item.parent))
                    .map(|item| item.id)
            });
        let tags_root = self
            .roots
            .iter()
            .find(|(_, r)| **r == Root::Tags)
            .map(|(id, _)| *id);
        let tags = self.tags(tags_root, &children);

        let mut doc = Document::new();
        let mut seen: HashSet<usize> = HashSet::new();
        if let Some(root) = places_root.and_then(|id| index.get(&id)) {
            seen.insert(*root);
        }
        if let Some(tags) = tags_root.and_then(|id| index.get(&id)) {
            // Tag folders and their entries are read as tags, not as a tree.
            seen.insert(*tags);
            for &t in children.get(&self.items[*tags].id).into_iter().flatten() {
                seen.insert(t);
                seen.extend(
                    children
                        .get(&self.items[t].id)
                        .into_iter()
                        .flatten()
                        .copied(),
                );
            }
        }
        let top: Vec<usize> = places_root
            .and_then(|id| children.get(&id))
            .cloned()
            .unwrap_or_default();
        self.walk(&mut doc, None, &top, &children, &tags, &mut seen);

        // Items whose parent does not exist: Firefox's maintenance would move
        // them to "Other Bookmarks"; so does markport, saying so.
        let orphans: Vec<usize> = (0..self.items.len())
            .filter(|i| !seen.contains(i) && !index.contains_key(&self.items[*i].parent))
            .collect();
        if !orphans.is_empty() {
            self.diags.push(Diagnostic::warning(
                format!(
                    "{} items have a parent that does not exist; read into Other Bookmarks (unfiled), as Firefox would move them",
                    orphans.len()
                ),
                None,
            ));
            let found = doc.ids().find(|id| {
                doc.node(*id)
                    .as_folder()
                    .is_some_and(|f| f.role == Some(Role::Unfiled))
            });
            let unfiled = found.unwrap_or_else(|| {
                let mut f = Folder::titled("unfiled");
                f.role = Some(Role::Unfiled);
                doc.push(None, f)
            });
            self.walk(
                &mut doc,
                Some(unfiled),
                &orphans,
                &children,
                &tags,
                &mut seen,
            );
        }
        let unreached = (0..self.items.len()).filter(|i| !seen.contains(i)).count();
        if unreached > 0 {
            self.diags.push(Diagnostic::warning(
                format!(
                    "{unreached} items are in a cycle of parents and cannot be placed; skipped"
                ),
                None,
            ));
        }
        Ok(Parsed::new(doc, self.diags))
    }

    /// place id -> tag names, in the order the tag entries were made.
    fn tags(
        &self,
        tags_root: Option<i64>,
        children: &HashMap<i64, Vec<usize>>,
    ) -> HashMap<i64, Vec<String>> {
        let mut entries: Vec<(i64, i64, String)> = Vec::new();
        for &t in tags_root
            .and_then(|id| children.get(&id))
            .into_iter()
            .flatten()
        {
            let tag = &self.items[t];
            let Some(name) = tag.title.clone().filter(|n| !n.is_empty()) else {
                continue;
            };
            for &e in children.get(&tag.id).into_iter().flatten() {
                let entry = &self.items[e];
                if let (TYPE_BOOKMARK, Some(place)) = (entry.kind, entry.fk) {
                    entries.push((entry.id, place, name.clone()));
                }
            }
        }
        entries.sort_by_key(|(id, _, _)| *id);
        let mut tags: HashMap<i64, Vec<String>> = HashMap::new();
        for (_, place, name) in entries {
            let list = tags.entry(place).or_default();
            if !list.contains(&name) {
                list.push(name);
            }
        }
        tags
    }

    /// Add `items` and everything below them under `parent`, depth first
    /// with an explicit stack.
    fn walk(
        &mut self,
        doc: &mut Document,
        parent: Option<NodeId>,
        items: &[usize],
        children: &HashMap<i64, Vec<usize>>,
        tags: &HashMap<i64, Vec<String>>,
        seen: &mut HashSet<usize>,
    ) {
        let mut stack: Vec<(usize, Option<NodeId>)> =
            items.iter().rev().map(|&i| (i, parent)).collect();
        while let Some((i, parent)) = stack.pop() {
            if !seen.insert(i) {
                continue;
            }
            let kind = self.items[i].kind;
            match kind {
                TYPE_BOOKMARK => {
                    if let Some(b) = self.bookmark(i, tags) {
                        doc.push(parent, b);
                    }
                }
                TYPE_SEPARATOR => {
                    doc.push(parent, Separator::new());
                }
                _ => {
                    if kind != TYPE_FOLDER {
                        let note = if kind == TYPE_DYNAMIC_CONTAINER {
                            "a Firefox 2-3 dynamic container"
                        } else {
                            "an item of unknown type"
                        };
                        self.diags.push(Diagnostic::warning(
                            format!(
                                "item {} is {note} (type {kind}); read as a folder",
                                self.items[i].id
                            ),
                            None,
                        ));
                    }
                    let folder = self.folder(i);
                    let node = doc.push(parent, folder);
                    let id = self.items[i].id;
                    if let Some(kids) = children.get(&id) {
                        stack.extend(kids.iter().rev().map(|&k| (k, Some(node))));
                    }
                }
            }
        }
    }

    // An item is placed once (`walk` marks it seen), so its strings move
    // into the node instead of being copied: the rows and the document never
    // hold a string twice.
    fn folder(&mut self, i: usize) -> Folder {
        let mut diags = Vec::new();
        let item = &mut self.items[i];
        let mut f = Folder::new();
        f.title = item.title.take();
        f.id = Some(item.id.to_string());
        f.guid = item.guid.take();
        f.added = date(item.added, "dateAdded", &mut diags);
        f.modified = date(item.modified, "lastModified", &mut diags);
        if let Some(Root::Role(role)) = self.roots.get(&item.id) {
            f.role = Some(*role);
        }
        for (name, content) in self.side.item_annos.remove(&item.id).unwrap_or_default() {
            if name == DESCRIPTION && f.desc.is_none() {
                f.desc = Some(content);
            } else {
                f.extra.push(Attribute::new(name, content));
            }
        }
        self.diags.extend(diags);
        f
    }

    fn bookmark(&mut self, i: usize, tags: &HashMap<i64, Vec<String>>) -> Option<Bookmark> {
        let mut diags = Vec::new();
        let item = &mut self.items[i];
        let Some(url) = item.url.take() else {
            self.diags.push(Diagnostic::warning(
                format!(
                    "bookmark {} has no place (moz_places row {:?} is missing); skipped",
                    item.id, item.fk
                ),
                None,
            ));
            return None;
        };
        let mut b = Bookmark::new(url);
        b.title = item.title.take();
        b.added = date(item.added, "dateAdded", &mut diags);
        b.modified = date(item.modified, "lastModified", &mut diags);
        if let Some(place) = item.fk {
            b.tags = tags.get(&place).cloned().unwrap_or_default();
        }
        let annos = self.side.item_annos.remove(&item.id).unwrap_or_default();
        let d = b.details_mut();
        d.id = Some(item.id.to_string());
        d.guid = item.guid.take();
        d.visited = date(item.visited, "last_visit_date", &mut diags);
        d.favicon_uri = item.favicon.take();
        // Firefox's own group is allocated only for a bookmark that has one.
        if let Some(place) = item.fk {
            if let Some((keyword, post)) = self.side.keywords_by_place.get(&place) {
                let ff = d.firefox_mut();
                ff.keyword = Some(keyword.clone());
                ff.post_data = post.clone();
            }
            if let Some(charset) = self.side.charsets.get(&place) {
                d.firefox_mut().charset = Some(charset.clone());
            }
        }
        if d.firefox().keyword.is_none() {
            let keyword = item
                .keyword_id
                .and_then(|k| self.side.keywords_by_id.get(&k));
            if let Some(keyword) = keyword {
                d.firefox_mut().keyword = Some(keyword.clone());
            }
        }
        for (name, content) in annos {
            match name.as_str() {
                DESCRIPTION if b.desc.is_none() => b.desc = Some(content),
                POST_DATA if b.details().firefox().post_data.is_none() => {
                    b.details_mut().firefox_mut().post_data = Some(content)
                }
                _ => b.details_mut().extra.push(Attribute::new(name, content)),
            }
        }
        self.diags.extend(diags);
        Some(b)
    }
}
