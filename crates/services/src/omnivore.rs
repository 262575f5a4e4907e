//! Omnivore's export (the service shut down in November 2024): a ZIP of
//! `metadata_0_to_N.json` files beside the saved pages and highlights. Each
//! metadata file is a JSON array of items with `id`, `slug`, `title`,
//! `description`, `author`, `url`, `state`, `readingProgress`, `thumbnail`,
//! `labels` (strings), `savedAt`, `updatedAt` and `publishedAt` (ISO 8601)
//! (`docs/formats/omnivore.md`).
//!
//! This reads one metadata file (unzip the export first). Omnivore is a
//! read-later service: an item whose `state` is not `Archived` is to read.
//! The keys without a model field (`slug`, `author`, `state`, ...) are kept
//! as extra attributes.

use markport_markup::json::{Event, Parser};
use markport_model::{Bookmark, Document, Error, LineIndex, Parsed, ReadOptions};

use crate::record::{
    each_object, head, iso_date, nothing_after, opening, strings, warn, Item, Val,
};

/// How sure it is that `input` is an Omnivore metadata file: a JSON array
/// whose first item has `slug`, `savedAt` and `labels`.
pub fn detect(input: &[u8]) -> Option<u8> {
    let (first, head) = head(input)?;
    (first == b'['
        && head.contains("\"slug\"")
        && head.contains("\"savedAt\"")
        && head.contains("\"labels\""))
    .then_some(90)
}

const MAPPED: &[&str] = &[
    "id",
    "title",
    "description",
    "url",
    "labels",
    "savedAt",
    "updatedAt",
];

/// Read an Omnivore `metadata_*.json` file.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let lines = LineIndex::new(input);
    let mut p = Parser::new(input);
    let at = opening(
        &mut p,
        &lines,
        Event::ArrayStart,
        "not an Omnivore metadata file: it is not a JSON array of items",
    )?;
    let mut doc = Document::new();
    let mut diags = Vec::new();
    let end = each_object(input, at, "item", &lines, &mut diags, |i, rec, diags| {
        let what = Item::new("item", i);
        let Some(href) = rec.text("url") else {
            warn(diags, &lines, rec.at, format!("{what} has no url; skipped"));
            return Ok(());
        };
        let mut b = Bookmark::new(href);
        // An account's library is its own: private.
        b.private = Some(true);
        b.title = rec.text("title");
        b.desc = rec.text("description");
        b.added = iso_date(&rec, "savedAt", what, &lines, diags);
        b.modified = iso_date(&rec, "updatedAt", what, &lines, diags);
        if let (Some(Val::Nested(_)), Some(at)) = (rec.get("labels"), rec.offset("labels")) {
            b.tags = strings(
                input,
                at,
                "name",
                format_args!("{what}: labels"),
                &lines,
                diags,
            )?;
        }
        b.to_read = rec.str("state").map(|s| s != "Archived");
        let id = rec.get("id").map(|v| v.text().into_owned());
        let mapped: Vec<&str> = MAPPED
            .iter()
            .copied()
            .filter(|k| *k != "labels" || rec.list_or_none("labels"))
            .collect();
        let extra = rec.extra(&mapped, &[]);
        if id.is_some() || !extra.is_empty() {
            let d = b.details_mut();
            d.id = id;
            d.extra = extra;
        }
        doc.push(None, b);
        Ok(())
    })?;
    nothing_after(input, end, &lines)?;
    Parsed::new(doc, diags).enforce(opts)
}
