//! From buku's rows to the model: one query in buku's order (`id`), one
//! bookmark per row, nothing held but the document being built.

use markport_model::{Attribute, Bookmark, Budget, Diagnostic, Document, Error, Parsed};
use markport_places::open::sqlite_error;
use rusqlite::types::ValueRef;
use rusqlite::Connection;

use crate::schema::{columns, COLUMNS};

/// `FLAG_IMMUTABLE` in buku's source: the title is the user's, and buku's
/// refresh (`buku -u`) never fetches it from the web again.
const FLAG_IMMUTABLE: i64 = 0x01;

/// Every row of `bookmarks`, in id order, as a flat list of bookmarks.
pub(crate) fn read(conn: &Connection, budget: &mut Budget) -> Result<Parsed, Error> {
    let present = columns(conn)?;
    // A column an old or hand-made table lacks reads as NULL.
    let select: Vec<String> = COLUMNS
        .iter()
        .map(|c| {
            if present.contains(*c) {
                format!("\"{c}\"")
            } else {
                "NULL".to_string()
            }
        })
        .collect();
    let order = if present.contains("id") {
        "\"id\""
    } else {
        "rowid"
    };
    let sql = format!(
        "SELECT {} FROM bookmarks ORDER BY {order}",
        select.join(", ")
    );
    let mut stmt = conn.prepare(&sql).map_err(sqlite_error)?;
    let mut rows = stmt.query([]).map_err(sqlite_error)?;
    let mut doc = Document::new();
    let mut diags = Vec::new();
    let mut n = 0usize;
    while let Some(row) = rows.next().map_err(sqlite_error)? {
        n += 1;
        let value = |i: usize| row.get_ref(i).map_err(sqlite_error);
        let id = text(value(0)?);
        // Where a problem is: buku's index, or the row's place when the
        // id itself is missing (made only when there is a problem).
        let at = || match &id {
            Some(id) => format!("bookmark id {id}"),
            None => format!("row {n}"),
        };
        let Some(href) = text(value(1)?) else {
            let d = Diagnostic::warning(format!("{} has no URL; skipped", at()), None);
            budget.diagnostic(&d)?;
            diags.push(d);
            continue;
        };
        let mut b = Bookmark::new(href);
        b.title = text(value(2)?).filter(|t| !t.is_empty());
        if let Some(tags) = text(value(3)?) {
            b.tags = split_tags(&tags);
        }
        b.desc = text(value(4)?).filter(|d| !d.is_empty());
        flags(&mut b, value(5)?, &at, &mut diags);
        // Charged before the id moves in (the closure naming the row
        // borrows it): the id's bytes and its details are counted here.
        let details = id.as_ref().map_or(0, |id| id.len() + 224);
        budget
            .bookmark(&b)
            .and_then(|()| budget.charge(details))
            .map_err(|mut e| {
                e.message = format!("{}: {}", at(), e.message);
                e
            })?;
        if id.is_some() {
            b.details_mut().id = id;
        }
        doc.push(None, b);
    }
    Ok(Parsed::new(doc, diags))
}

/// buku's tag set: `,a,b,` (a comma before and after each tag). A value
/// written without the outer commas reads the same; empty pieces are
/// no tags. Tags are taken as stored (buku lowercases and sorts them).
pub(crate) fn split_tags(tags: &str) -> Vec<String> {
    tags.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

/// The `flags` bit set: bit 0 is buku's immutable title (kept as the extra
/// attribute `immutable="1"`, buku's own `--immutable 1`); bits buku does
/// not define, or a value that is no integer, are kept whole as `flags`.
fn flags(b: &mut Bookmark, v: ValueRef<'_>, at: &dyn Fn() -> String, diags: &mut Vec<Diagnostic>) {
    let raw = match v {
        ValueRef::Null => return,
        ValueRef::Integer(i) => Ok(i),
        other => Err(text(other).unwrap_or_default()),
    };
    match raw {
        Ok(0) => {}
        Ok(flags) => {
            if flags & FLAG_IMMUTABLE != 0 {
                b.details_mut().extra.push(Attribute::new("immutable", "1"));
            }
            if flags & !FLAG_IMMUTABLE != 0 {
                diags.push(Diagnostic::warning(
                    format!("{}: flags {flags} has bits buku does not define (it knows 1, an immutable title); kept as written", at()),
                    None,
                ));
                b.details_mut()
                    .extra
                    .push(Attribute::new("flags", flags.to_string()));
            }
        }
        Err(written) => {
            diags.push(Diagnostic::warning(
                format!(
                    "{}: flags {written:?} is not an integer; kept as written",
                    at()
                ),
                None,
            ));
            b.details_mut().extra.push(Attribute::new("flags", written));
        }
    }
}

/// Any SQLite value as text (buku's columns are TEXT, but a damaged or
/// hand-made database may hold anything); invalid UTF-8 is replaced.
fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::split_tags;

    #[test]
    fn tags_split_on_commas_with_or_without_the_outer_ones() {
        assert_eq!(split_tags(",a,b c,"), ["a", "b c"]);
        assert_eq!(split_tags("a,b"), ["a", "b"]);
        assert!(split_tags(",").is_empty());
        assert!(split_tags(&",".repeat(10_000)).is_empty());
    }
}
