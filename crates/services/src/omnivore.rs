//! Omnivore's export (the service shut down in November 2024): a ZIP of
//! `metadata_0_to_20.json`, `metadata_20_to_40.json`, ... (the exporter
//! wrote a batch of 20 items a file, named by its first and end cursor)
//! beside `content/<slug>.html` (or `.pdf`), the saved pages, and
//! `highlights/<slug>.md`, each item's highlights in Markdown. Each metadata
//! file is a JSON array of items with `id`, `slug`, `title`, `description`,
//! `author`, `url`, `state`, `readingProgress`, `thumbnail`, `labels`
//! (strings), `savedAt`, `updatedAt` and `publishedAt` (ISO 8601)
//! (`docs/formats/omnivore.md`).
//!
//! The ZIP is read in place through [`markport_files::archive`]: every
//! metadata file in numeric order as one collection, and each item's
//! highlights file, found by the item's slug, appended to its description.
//! The saved pages are not carried (a note counts them). One metadata file
//! on its own reads too. Omnivore is a read-later service: an item whose
//! `state` is not archived is to read. The keys without a model field
//! (`slug`, `author`, `state`, ...) are kept as extra attributes.

use std::collections::{HashMap, HashSet};

use markport_files::archive::{self, Archive, Limits};
use markport_model::{
    Bookmark, Budget, Diagnostic, Document, Error, ErrorKind, LineIndex, NodeId, Parsed,
    ReadOptions,
};

use crate::record::{details, each_object, head, iso_date, nothing_after, top_array, Item};
use crate::{archive_error, first_names, in_entry, not_read, text};

/// How sure it is that `input` is an Omnivore export: a ZIP holding
/// `metadata_*_to_*.json`, or a JSON array whose first item has `slug`,
/// `savedAt` and `labels` (one metadata file).
pub fn detect(input: &[u8]) -> Option<u8> {
    if archive::is_zip(input) {
        // An archive refused as it opens cannot be listed: one that names a
        // metadata file somewhere is claimed just above Pocket's faint
        // claim of any refused archive, so that reading it says why.
        return match Archive::open(input, Limits::default()) {
            Ok(archive) => (!metadata_files(&archive).is_empty()).then_some(95),
            Err(_) => input
                .windows(METADATA.len())
                .any(|w| w == METADATA.as_bytes())
                .then_some(11),
        };
    }
    let (first, head) = head(input)?;
    (first == b'['
        && head.contains("\"slug\"")
        && head.contains("\"savedAt\"")
        && head.contains("\"labels\""))
    .then_some(90)
}

const METADATA: &str = "metadata_";

const MAPPED: &[&str] = &[
    "id",
    "title",
    "description",
    "url",
    "labels",
    "savedAt",
    "updatedAt",
];

/// Whether the entry `name` is inside a folder called `folder` (at any
/// depth: an export unzipped and zipped again sits in a folder of its own).
fn in_folder(name: &str, folder: &str) -> bool {
    name.rsplit('/').skip(1).any(|p| p == folder)
}

/// A run of ASCII digits as a number (saturated: only the order matters).
fn number(digits: &str) -> Option<u128> {
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().unwrap_or(u128::MAX))
}

/// The cursors of a `metadata_<from>_to_<to>.json` entry (outside
/// `content/` and `highlights/`), for numeric order.
fn metadata_range(name: &str) -> Option<(u128, u128)> {
    if in_folder(name, "content") || in_folder(name, "highlights") {
        return None;
    }
    let base = name.rsplit('/').next().unwrap_or(name);
    let middle = base.strip_prefix(METADATA)?.strip_suffix(".json")?;
    let (from, to) = middle.split_once("_to_")?;
    Some((number(from)?, number(to)?))
}

/// The export's metadata files in numeric order (`metadata_20_to_40.json`
/// before `metadata_100_to_120.json`, whatever the archive's order).
fn metadata_files(archive: &Archive<'_>) -> Vec<String> {
    let mut files: Vec<((u128, u128), &String)> = archive
        .names()
        .iter()
        .filter_map(|n| Some((metadata_range(n)?, n)))
        .collect();
    files.sort();
    files.into_iter().map(|(_, n)| n.clone()).collect()
}

/// The slug a `highlights/<slug>.md` entry is about.
fn highlights_slug(name: &str) -> Option<&str> {
    let (dir, base) = name.rsplit_once('/')?;
    if dir != "highlights" && !dir.ends_with("/highlights") {
        return None;
    }
    base.strip_suffix(".md").filter(|s| !s.is_empty())
}

/// Read Omnivore's export ZIP, or one of its `metadata_*.json` files.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let budget = Budget::new(opts, input.len());
    if archive::is_zip(input) {
        return read_zip(input, budget)?.enforce(opts);
    }
    let mut items = Items {
        doc: Document::new(),
        slugs: None,
        budget,
    };
    let mut diags = Vec::new();
    items.read_metadata(input, &mut diags)?;
    Parsed::new(items.doc, diags).enforce(opts)
}

/// The bookmarks read so far from one or more metadata files.
struct Items {
    /// What the document may still take: an item of a dozen bytes costs a
    /// whole bookmark.
    budget: Budget,
    doc: Document,
    /// The bookmarks of each slug, for the highlights files: kept only when
    /// reading the ZIP.
    slugs: Option<HashMap<String, Vec<NodeId>>>,
}

impl Items {
    /// Read one metadata file (the whole input, or one entry of the ZIP).
    fn read_metadata(&mut self, input: &[u8], diags: &mut Vec<Diagnostic>) -> Result<(), Error> {
        let lines = LineIndex::new(input);
        let at = top_array(
            input,
            &lines,
            "not an Omnivore metadata file: it is not a JSON array of items",
        )?;
        let end = each_object(input, at, "item", &lines, diags, |i, rec, diags| {
            let what = Item::new("item", i);
            let Some(href) = rec.url(what, &lines, diags) else {
                return Ok(());
            };
            let mut b = Bookmark::new(href);
            // An account's library is its own: private.
            b.private = Some(true);
            b.title = rec.text("title");
            b.desc = rec.text("description");
            b.added = iso_date(&rec, "savedAt", what, &lines, diags);
            b.modified = iso_date(&rec, "updatedAt", what, &lines, diags);
            b.tags = rec.strings(input, "labels", "name", what, &lines, diags)?;
            // `Archived` in the last exporter; `archived` and `ARCHIVED` in
            // the earlier ones.
            b.to_read = rec
                .str("state")
                .map(|s| !s.eq_ignore_ascii_case("archived"));
            let id = rec.get("id").map(|v| v.text().into_owned());
            details(&mut b, id, rec.extra(&rec.mapped(MAPPED, &["labels"]), &[]));
            let slug = rec.text("slug");
            self.budget
                .bookmark(&b)
                .map_err(crate::placed_at(&lines, rec.at))?;
            let node = self.doc.push(None, b);
            if let (Some(slugs), Some(slug)) = (self.slugs.as_mut(), slug) {
                self.budget
                    .charge(slug.len() + 64)
                    .map_err(crate::placed_at(&lines, rec.at))?;
                slugs.entry(slug).or_default().push(node);
            }
            Ok(())
        })?;
        nothing_after(input, end, &lines)
    }

    /// The one bookmark whose item has the slug `slug`, or how many have
    /// it when not exactly one.
    fn by_slug(&self, slug: &str) -> Result<NodeId, usize> {
        match self
            .slugs
            .as_ref()
            .and_then(|s| s.get(slug))
            .map(Vec::as_slice)
        {
            Some([id]) => Ok(*id),
            Some(ids) => Err(ids.len()),
            None => Err(0),
        }
    }

    /// Append the highlights `text` to the description of the bookmark `id`,
    /// after a blank line.
    fn highlight(&mut self, id: NodeId, text: &str) -> Result<(), Error> {
        if text.is_empty() {
            return Ok(());
        }
        self.budget.charge(text.len() + 2)?;
        if let Some(b) = self.doc.node_mut(id).as_bookmark_mut() {
            b.desc = Some(match b.desc.take() {
                Some(d) => format!("{d}\n\n{text}"),
                None => text.to_string(),
            });
        }
        Ok(())
    }
}

fn read_zip(input: &[u8], budget: Budget) -> Result<Parsed, Error> {
    let mut archive = Archive::open(input, Limits::default()).map_err(archive_error)?;
    let files = metadata_files(&archive);
    if files.is_empty() {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "a ZIP archive with no metadata_*_to_*.json: not an Omnivore export",
            None,
        ));
    }
    let mut items = Items {
        doc: Document::new(),
        slugs: Some(HashMap::new()),
        budget,
    };
    let mut diags = Vec::new();
    for name in &files {
        let bytes = archive.read(name).map_err(archive_error)?;
        items.budget.read_more(bytes.len());
        let mut entry_diags = Vec::new();
        let read = items.read_metadata(&bytes, &mut entry_diags);
        in_entry(name, &mut diags, entry_diags, read)?;
    }
    // Sets: an archive may have 10,000 entries.
    let metadata: HashSet<&String> = files.iter().collect();
    let mut highlights: Vec<(String, String)> = Vec::new();
    let mut pages = 0usize;
    let mut unread: Vec<&str> = Vec::new();
    for name in archive.names() {
        if metadata.contains(name) {
            continue;
        }
        if let Some(slug) = highlights_slug(name) {
            highlights.push((name.clone(), slug.to_string()));
        } else if in_folder(name, "content") {
            pages += 1;
        } else {
            unread.push(name);
        }
    }
    diags.extend(not_read(
        &unread,
        "not a metadata_*.json, highlights/*.md nor content/",
    ));
    // A file whose slug no item has, or several (only a crafted export:
    // the exporter names one file a slug), matches nothing for sure.
    let (mut orphans, mut shared): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    for (name, slug) in &highlights {
        let id = match items.by_slug(slug) {
            Ok(id) => id,
            Err(0) => {
                orphans.push(name);
                continue;
            }
            Err(_) => {
                shared.push(name);
                continue;
            }
        };
        // The Markdown is kept as Omnivore wrote it: quotes as `> ` lines,
        // then the highlight's labels and note.
        let bytes = archive.read(name).map_err(archive_error)?;
        items.budget.read_more(bytes.len());
        let mut entry_diags = Vec::new();
        let markdown = text(&bytes, &mut entry_diags);
        let kept = items.highlight(id, markdown.trim());
        in_entry(name, &mut diags, entry_diags, kept)?;
    }
    for (files, why) in [
        (&orphans, "whose slug no metadata file lists"),
        (&shared, "whose slug several items share"),
    ] {
        if !files.is_empty() {
            diags.push(Diagnostic::warning(
                format!(
                    "{} highlights file{} {why}: not kept ({})",
                    files.len(),
                    if files.len() == 1 { "" } else { "s" },
                    first_names(files)
                ),
                None,
            ));
        }
    }
    if pages > 0 {
        // A note, as for wallabag's articles: the pages were never meant to
        // be bookmarks.
        diags.push(Diagnostic::note(
            format!(
                "{pages} saved page{} (content/) not carried: markport keeps bookmarks, not pages",
                if pages == 1 { "" } else { "s" }
            ),
            None,
        ));
    }
    Ok(Parsed::new(items.doc, diags))
}

/// This format as the registry lists it (`markport::format("omnivore")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "omnivore",
    "Omnivore's export: its ZIP (highlights as descriptions), or one metadata_*.json file",
    &[],
    detect,
    read,
)
.reads_zip();
