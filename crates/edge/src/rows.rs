//! From Edge's rows to the model: the collections in their order, then one
//! query that lists every card of every collection in the same order, the
//! two merged as they come; the comments are gathered first, by card.

use std::collections::HashMap;

use markport_markup::json::{Event, Parser};
use markport_model::{
    Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Folder, Parsed, Timestamp,
};
use markport_places::open::{self, sqlite_error, Table};
use rusqlite::types::ValueRef;
use rusqlite::Connection;

/// The tables Edge's Collections cannot be without, and the columns each
/// must have.
const REQUIRED: [(&str, &[&str]); 3] = [
    ("collections", &["id", "title"]),
    ("items", &["id"]),
    ("collections_items_relationship", &["item_id", "parent_id"]),
];

/// What one gathered comment costs besides its text: its map entry.
const COMMENT_COST: usize = 96;

/// A column of `table` as a select expression: itself (quoted) when the
/// table has it, else `NULL` (an older or hand-made database).
fn column(table: &Table, alias: &str, name: &str) -> Result<String, Error> {
    Ok(if table.has(name)? {
        format!("{alias}.\"{name}\"")
    } else {
        "NULL".to_string()
    })
}

/// Whether a row is marked for deletion: `is_marked_for_deletion` when the
/// table has it.
fn deleted(table: &Table, alias: &str) -> Result<String, Error> {
    Ok(if table.has("is_marked_for_deletion")? {
        format!("coalesce({alias}.is_marked_for_deletion, 0) != 0")
    } else {
        "0".to_string()
    })
}

fn order(table: &Table, alias: &str) -> Result<String, Error> {
    Ok(if table.has("position")? {
        format!("{alias}.position, {alias}.rowid")
    } else {
        format!("{alias}.rowid")
    })
}

fn tables(conn: &Connection) -> Result<[Table; 3], Error> {
    let mut found = Vec::with_capacity(3);
    for (name, columns) in REQUIRED {
        let Some(table) = open::table(conn, name)? else {
            return Err(Error::new(
                ErrorKind::WrongFormat,
                format!("not Edge's Collections database: it has no `{name}` table"),
                None,
            ));
        };
        table.require(columns)?;
        found.push(table);
    }
    Ok(found.try_into().unwrap_or_else(|_| unreachable!()))
}

/// One card of `items`, as the bookmarks made of it take it.
struct Card {
    title: Option<String>,
    /// The link, or the card's `type` when it has none.
    link: Result<String, Option<String>>,
    added: Option<DateValue>,
    modified: Option<DateValue>,
    deleted: bool,
}

/// What one card costs while the collections are read, besides its
/// strings: the struct and its entry in the map.
const CARD_COST: usize = 256;

pub(crate) fn read(conn: &Connection, budget: &mut Budget) -> Result<Parsed, Error> {
    let [collections, items, rel] = tables(conn)?;
    let comments = comments(conn, budget)?;
    // The cards once each, by id: the listing below then sorts only
    // short keys (a card's big values listed many times never go through
    // SQLite's sorter), and each card's source is parsed once.
    let cards = cards(conn, &items, budget)?;
    let mut diags = Vec::new();
    let mut doc = Document::new();
    let mut skipped = (0usize, 0usize);

    let c_order = order(&collections, "c")?;
    let c_deleted = deleted(&collections, "c")?;
    let sql = format!(
        "SELECT c.rowid, c.title, {}, {}, {c_deleted} FROM collections c ORDER BY {c_order}",
        column(&collections, "c", "date_created")?,
        column(&collections, "c", "date_modified")?,
    );
    let mut folders = conn.prepare(&sql).map_err(sqlite_error)?;
    let mut folders = folders.query([]).map_err(sqlite_error)?;

    let sql = format!(
        "SELECT c.rowid, r.item_id, {} FROM collections_items_relationship r \
         JOIN collections c ON c.id = r.parent_id \
         WHERE NOT ({c_deleted}) ORDER BY {c_order}, {}",
        deleted(&rel, "r")?,
        order(&rel, "r")?,
    );
    let mut listed = conn.prepare(&sql).map_err(sqlite_error)?;
    let mut listed = listed.query([]).map_err(sqlite_error)?;
    let mut next = listed.next().map_err(sqlite_error)?;

    while let Some(row) = folders.next().map_err(sqlite_error)? {
        let v = |i: usize| row.get_ref(i).map_err(sqlite_error);
        let rowid = int(v(0)?);
        if truthy(v(4)?) {
            skipped.0 += 1;
            continue;
        }
        let mut f = Folder::new();
        f.title = text(v(1)?);
        f.added = date(v(2)?);
        f.modified = date(v(3)?);
        let name = f.title.clone().unwrap_or_default();
        budget.folder(name.len())?;
        let folder = doc.push(None, f);
        // The listing comes in the collections' order: this collection's
        // cards are next.
        while let Some(row) = next {
            let v = |i: usize| row.get_ref(i).map_err(sqlite_error);
            if int(v(0)?) != rowid {
                break;
            }
            let item_id = text(v(1)?).unwrap_or_default();
            match cards.get(&item_id) {
                None => {
                    let d = Diagnostic::warning(
                        format!("collection {name:?} lists item {item_id:?}, which is not in `items`; skipped"),
                        None,
                    );
                    budget.diagnostic(&d)?;
                    diags.push(d);
                }
                Some(card) if card.deleted || truthy(v(2)?) => skipped.1 += 1,
                Some(Card {
                    link: Err(kind),
                    title,
                    ..
                }) => {
                    let d = Diagnostic::warning(
                        format!(
                            "collection {name:?}: {} {:?} (item {item_id:?}) has no link; skipped",
                            kind.as_deref().unwrap_or("card"),
                            title.as_deref().unwrap_or_default()
                        ),
                        None,
                    );
                    budget.diagnostic(&d)?;
                    diags.push(d);
                }
                Some(card @ Card { link: Ok(href), .. }) => {
                    let mut b = Bookmark::new(href.clone());
                    b.title = card.title.clone();
                    b.desc = comments.get(&item_id).cloned();
                    b.added = card.added.clone();
                    b.modified = card.modified.clone();
                    budget.bookmark(&b).map_err(|mut e| {
                        e.message = format!("collection {name:?}, item {item_id:?}: {}", e.message);
                        e
                    })?;
                    doc.push(Some(folder), b);
                }
            }
            next = listed.next().map_err(sqlite_error)?;
        }
    }
    if skipped != (0, 0) {
        let d = Diagnostic::note(
            format!(
                "skipped what Edge marked for deletion: {} collection{}, {} card{}",
                skipped.0,
                if skipped.0 == 1 { "" } else { "s" },
                skipped.1,
                if skipped.1 == 1 { "" } else { "s" }
            ),
            None,
        );
        diags.insert(0, d);
    }
    Ok(Parsed::new(doc, diags))
}

/// Every card of `items` by id (the first of an id written twice).
fn cards(
    conn: &Connection,
    items: &Table,
    budget: &mut Budget,
) -> Result<HashMap<String, Card>, Error> {
    let sql = format!(
        "SELECT i.id, i.title, {}, {}, {}, {}, {} FROM items i ORDER BY i.rowid",
        column(items, "i", "source")?,
        column(items, "i", "type")?,
        column(items, "i", "date_created")?,
        column(items, "i", "date_modified")?,
        deleted(items, "i")?,
    );
    let mut stmt = conn.prepare(&sql).map_err(sqlite_error)?;
    let mut rows = stmt.query([]).map_err(sqlite_error)?;
    let mut out = HashMap::new();
    while let Some(row) = rows.next().map_err(sqlite_error)? {
        let v = |i: usize| row.get_ref(i).map_err(sqlite_error);
        let Some(id) = text(v(0)?) else { continue };
        let kind = text(v(3)?).filter(|t| !t.is_empty());
        let card = Card {
            title: text(v(1)?).filter(|t| !t.is_empty()),
            link: link(v(2)?).ok_or(kind),
            added: date(v(4)?),
            modified: date(v(5)?),
            deleted: truthy(v(6)?),
        };
        let len = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        let link = match &card.link {
            Ok(l) => l.len(),
            Err(kind) => len(kind),
        };
        budget.charge(CARD_COST + id.len() + len(&card.title) + link)?;
        out.entry(id).or_insert(card);
    }
    Ok(out)
}

/// The notes on each card (`comments.text` by `parent_id`), joined by a
/// blank line in the table's order; none when the table is missing.
fn comments(conn: &Connection, budget: &mut Budget) -> Result<HashMap<String, String>, Error> {
    let mut out: HashMap<String, String> = HashMap::new();
    let Some(table) = open::table(conn, "comments")? else {
        return Ok(out);
    };
    if !table.has("parent_id")? || !table.has("text")? {
        return Ok(out);
    }
    let sql = format!(
        "SELECT c.parent_id, c.text FROM comments c WHERE NOT ({}) ORDER BY c.rowid",
        deleted(&table, "c")?
    );
    let mut stmt = conn.prepare(&sql).map_err(sqlite_error)?;
    let mut rows = stmt.query([]).map_err(sqlite_error)?;
    while let Some(row) = rows.next().map_err(sqlite_error)? {
        let (Some(parent), Some(note)) = (
            text(row.get_ref(0).map_err(sqlite_error)?),
            text(row.get_ref(1).map_err(sqlite_error)?),
        ) else {
            continue;
        };
        if note.is_empty() {
            continue;
        }
        budget.charge(COMMENT_COST + parent.len() + note.len() + 2)?;
        match out.get_mut(&parent) {
            Some(desc) => {
                desc.push_str("\n\n");
                desc.push_str(&note);
            }
            None => {
                out.insert(parent, note);
            }
        }
    }
    Ok(out)
}

/// The card's link: `url` of its `source` JSON object (a blob or text);
/// none when there is no source, it is not JSON, or has no `url`.
fn link(source: ValueRef<'_>) -> Option<String> {
    let bytes = match source {
        ValueRef::Text(b) | ValueRef::Blob(b) => b,
        _ => return None,
    };
    let mut p = Parser::new(bytes);
    if !matches!(p.next(), Ok(Some((_, Event::ObjectStart)))) {
        return None;
    }
    loop {
        let (at, e) = p.next().ok()??;
        match e {
            Event::Key(k) if k == "url" => {
                return match p.next().ok()?? {
                    (_, Event::Str(s)) if !s.is_empty() => Some(s.into_owned()),
                    _ => None,
                };
            }
            Event::Key(_) => {
                let (at, first) = p.next().ok()??;
                p.skip_value(at, &first).ok()?;
            }
            Event::ObjectEnd => return None,
            other => {
                p.skip_value(at, &other).ok()?;
            }
        }
    }
}

/// A date of Edge's: a number of seconds, milliseconds or microseconds
/// since 1970, the unit decided by its size (below 10^11 seconds, below
/// 10^14 milliseconds, below 10^17 microseconds: 10^11 seconds is the year
/// 5138, 10^11 milliseconds 1973); `0` or `NULL` is none; anything else
/// is kept as written.
///
/// ```
/// use rusqlite::types::ValueRef;
/// let t = |v| markport_edge::date(v).unwrap().instant().unwrap().to_w3c();
/// assert_eq!(t(ValueRef::Integer(1_700_000_000)), "2023-11-14T22:13:20Z");
/// assert_eq!(t(ValueRef::Real(1_700_000_000_123.0)), "2023-11-14T22:13:20.123Z");
/// assert_eq!(t(ValueRef::Integer(1_700_000_000_123_456)), "2023-11-14T22:13:20.123456Z");
/// assert!(markport_edge::date(ValueRef::Integer(0)).is_none());
/// ```
pub fn date(v: ValueRef<'_>) -> Option<DateValue> {
    let (n, written) = match v {
        ValueRef::Null => return None,
        ValueRef::Integer(i) => (i as f64, None),
        ValueRef::Real(r) => (r, None),
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let s = String::from_utf8_lossy(t).into_owned();
            match s.trim().parse::<f64>() {
                Ok(n) => (n, Some(s)),
                Err(_) if s.is_empty() => return None,
                Err(_) => return Some(DateValue::Raw(s.into())),
            }
        }
    };
    if n == 0.0 {
        return None;
    }
    let raw = || DateValue::Raw(written.clone().unwrap_or_else(|| n.to_string()).into());
    let a = n.abs();
    let per_second = if a < 1e11 {
        1.0
    } else if a < 1e14 {
        1e3
    } else if a < 1e17 {
        1e6
    } else {
        return Some(raw());
    };
    // Whole microseconds: a REAL of seconds holds no finer truth.
    let micros = (n / per_second * 1e6).round() as i64;
    let secs = micros.div_euclid(1_000_000);
    let nanos = (micros.rem_euclid(1_000_000) * 1000) as u32;
    Some(match Timestamp::from_unix(secs, nanos) {
        Some(t) => DateValue::Instant(t),
        None => raw(),
    })
}

fn truthy(v: ValueRef<'_>) -> bool {
    match v {
        ValueRef::Null => false,
        ValueRef::Integer(i) => i != 0,
        ValueRef::Real(r) => r != 0.0,
        ValueRef::Text(t) | ValueRef::Blob(t) => !matches!(t, b"" | b"0"),
    }
}

fn int(v: ValueRef<'_>) -> i64 {
    match v {
        ValueRef::Integer(i) => i,
        _ => i64::MIN,
    }
}

/// Any SQLite value as text; invalid UTF-8 is replaced.
fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
    }
}
