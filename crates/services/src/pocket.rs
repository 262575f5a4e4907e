//! Pocket's exports, every generation:
//!
//! - `ril_export.html` (`<h1>Unread</h1><ul><li><a href time_added
//!   tags>title</a>`, then `<h1>Read Archive</h1>` ...), until 2024;
//! - the CSV `title,url,time_added,tags,status` (tags separated by `|`),
//!   and the generation with a `cursor` column
//!   (`title,url,time_added,cursor,tags,status`): columns are found by
//!   name, so `cursor` and any column Pocket adds later are never read as
//!   tags;
//! - the ZIP mailed since 2024-10 (`part_000000.csv`, `part_000001.csv`, ...
//!   with `annotations/part_000000.json` beside them), read in place through
//!   [`markport_files::archive`]: every part in numeric order as one
//!   collection, and the annotations' highlights as the descriptions of the
//!   bookmarks they belong to.
//!
//! Each section (HTML) or status (CSV) becomes a folder, in the order first
//! met. A column the reader does not know is kept, per bookmark, as an
//! extra attribute of the column's name; `cursor` (Pocket's paging position,
//! nothing about the bookmark) is reported and not kept.

use std::borrow::Cow;
use std::collections::HashMap;

use markport_files::archive::{self, Archive, Limits};
use markport_markup::entities::{self, Context};
use markport_markup::html::RawAttr;
use markport_markup::walk::{attr, Event, Walker};
use markport_model::{
    Attribute, Bookmark, Budget, Diagnostic, Document, Error, ErrorKind, Folder, LineIndex,
    Location, NodeId, Parsed, ReadOptions,
};

use crate::{archive_error, in_entry, not_read, table, text, unix_date};

pub use crate::table::RULES;

/// The columns of every generation: the first three are always there.
const REQUIRED: &[&str] = &["title", "url", "time_added"];
const OPTIONAL: &[&str] = &["tags", "status", "cursor"];

/// The header's column names, lower-cased, when the first line is one a
/// Pocket CSV could have: `title`, `url` and `time_added` among them. Also
/// whether every column is one Pocket is known to write.
fn csv_header(input: &[u8]) -> Option<bool> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let line = input.split(|b| *b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let names: Vec<String> = line
        .trim_end_matches('\r')
        .split(',')
        .map(|n| n.trim().to_ascii_lowercase())
        .collect();
    let has = |n: &str| names.iter().any(|c| c == n);
    if !REQUIRED.iter().all(|r| has(r)) {
        return None;
    }
    Some(
        names
            .iter()
            .all(|n| REQUIRED.contains(&n.as_str()) || OPTIONAL.contains(&n.as_str())),
    )
}

/// Whether `input` is read as a CSV part: a header [`csv_header`] takes,
/// or one that starts as every Pocket CSV's does (`title,url`), so that a
/// header lacking a column is said to lack it rather than read as a page.
fn is_csv(input: &[u8]) -> bool {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let head = &input[..input.len().min(9)];
    csv_header(input).is_some() || head.eq_ignore_ascii_case(b"title,url")
}

/// The part number of a `part_NNNNNN.csv` entry name (in any folder but
/// `annotations/`), for numeric order.
fn part_number(name: &str, ext: &str) -> Option<u128> {
    let base = name.rsplit('/').next().unwrap_or(name);
    let digits = base.strip_prefix("part_")?.strip_suffix(ext)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse().unwrap_or(u128::MAX))
}

fn is_annotation(name: &str) -> bool {
    name.split('/').any(|p| p == "annotations")
}

/// The export ZIP's parts in numeric order.
fn zip_parts(archive: &Archive<'_>) -> Vec<String> {
    let mut parts: Vec<(u128, &String)> = archive
        .names()
        .iter()
        .filter(|n| !is_annotation(n))
        .filter_map(|n| Some((part_number(n, ".csv")?, n)))
        .collect();
    parts.sort();
    parts.into_iter().map(|(_, n)| n.clone()).collect()
}

/// How sure it is that `input` is a Pocket export: a ZIP holding
/// `part_*.csv`, a CSV header with Pocket's columns, or links with
/// `time_added` in an HTML page without Netscape's DOCTYPE.
pub fn detect(input: &[u8]) -> Option<u8> {
    if archive::is_zip(input) {
        // An archive refused as it opens (a `../x` entry, a broken central
        // directory) is claimed faintly, so that reading it says why
        // rather than that no format knows it.
        return match Archive::open(input, Limits::default()) {
            Ok(archive) => (!zip_parts(&archive).is_empty()).then_some(95),
            Err(_) => Some(10),
        };
    }
    match csv_header(input) {
        Some(true) => return Some(90),
        Some(false) => return Some(80),
        None => {}
    }
    let head = &input[..input.len().min(16384)];
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    let html = lower.contains("<a ") && lower.contains("time_added=");
    (html && !lower.contains("<!doctype netscape-bookmark-file")).then_some(80)
}

/// Read a Pocket export: the ZIP, one CSV part, or the HTML.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let budget = Budget::new(opts, input.len());
    let csv = !archive::is_zip(input) && is_csv(input);
    let parsed = if archive::is_zip(input) {
        read_zip(input, budget, opts.checking)
    } else if csv {
        let mut collection = Collection::new(budget, opts.checking);
        let mut diags = Vec::new();
        let src = text(input, &mut diags);
        collection.read_part(&src, matches!(src, Cow::Owned(_)), &mut diags)?;
        Ok(collection.finish(diags))
    } else {
        read_html(input, budget)
    };
    let mut parsed = parsed?;
    if opts.checking && !csv {
        said_by_the_reader(&mut parsed.diagnostics);
    }
    parsed.enforce(opts)
}

/// The HTML export and the ZIP around the parts have no rules of their
/// own: checked, what the reader warns about is listed as check lists any
/// reader without rules (`reader/warning`). A part's own rules keep theirs.
fn said_by_the_reader(diags: &mut [Diagnostic]) {
    for d in diags {
        if d.rule.is_none() && d.severity >= markport_model::Severity::Warning {
            d.rule = Some(Cow::Borrowed("reader/warning"));
        }
    }
}

/// Folders by title, made when first needed (a map: an export may have as
/// many statuses as rows).
#[derive(Default)]
struct Sections {
    folders: HashMap<String, NodeId>,
}

impl Sections {
    fn get(
        &mut self,
        doc: &mut Document,
        title: &str,
        budget: &mut Budget,
    ) -> Result<NodeId, Error> {
        if let Some(id) = self.folders.get(title) {
            return Ok(*id);
        }
        // The folder, its title and its key in the map.
        budget.folder(2 * title.len() + 64)?;
        let id = doc.push(None, Folder::titled(title));
        self.folders.insert(title.to_string(), id);
        Ok(id)
    }
}

fn split_tags(tags: &str, sep: char) -> Vec<String> {
    tags.split(sep)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

/// The bookmarks read so far from one or more CSV parts.
struct Collection {
    /// What the document may still take: rows of a few bytes each cost a
    /// whole bookmark, and a highlight is copied to every row of its URL.
    budget: Budget,
    doc: Document,
    sections: Sections,
    /// Non-empty `cursor` values met (reported, not kept).
    cursors: usize,
    /// Columns kept as extra attributes, each named once.
    others: Vec<String>,
    /// Whether every rule broken is found (`markport check`).
    checking: bool,
}

/// The columns of one part, by index.
struct PartColumns {
    title: usize,
    url: usize,
    added: usize,
    tags: Option<usize>,
    status: Option<usize>,
    cursor: Option<usize>,
    others: Vec<(usize, String)>,
}

impl Collection {
    fn new(budget: Budget, checking: bool) -> Collection {
        Collection {
            budget,
            doc: Document::new(),
            sections: Sections::default(),
            cursors: 0,
            others: Vec::new(),
            checking,
        }
    }

    /// Read one CSV part (the whole file, or one entry of the ZIP) into
    /// the collection.
    /// `lossy`: whether bytes that are not UTF-8 were replaced in `src`.
    fn read_part(
        &mut self,
        src: &str,
        lossy: bool,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<(), Error> {
        let columns = table::Columns {
            service: "Pocket CSV",
            required: REQUIRED,
            optional: OPTIONAL,
            open: true,
            url: "url",
        };
        let part = table::Part {
            text: src,
            lossy,
            checking: self.checking,
        };
        let start = |t: &table::Table| {
            let col = |n| t.column(n).expect("required columns are checked");
            let mut known = REQUIRED.to_vec();
            known.extend(OPTIONAL);
            PartColumns {
                title: col("title"),
                url: col("url"),
                added: col("time_added"),
                tags: t.column("tags"),
                status: t.column("status"),
                cursor: t.column("cursor"),
                others: t.others(&known),
            }
        };
        let each = |c: &mut PartColumns, at, mut row: Vec<String>, diags: &mut Vec<Diagnostic>| {
            let section = match c.status.map_or("", |s| row[s].trim()) {
                "unread" | "" => "Unread",
                "archive" => "Read Archive",
                other => other,
            };
            let folder = self
                .sections
                .get(&mut self.doc, section, &mut self.budget)?;
            let mut b = Bookmark::new(std::mem::take(&mut row[c.url]));
            // An empty title is untitled; a title that repeats the URL
            // (Pocket writes that for a page it never fetched) is kept as
            // written.
            if !row[c.title].is_empty() {
                b.title = Some(std::mem::take(&mut row[c.title]));
            }
            b.added = table::date(&row[c.added], "time_added", at, diags);
            if let Some(t) = c.tags {
                b.tags = split_tags(&row[t], '|');
            }
            if c.cursor.is_some_and(|i| !row[i].trim().is_empty()) {
                self.cursors += 1;
            }
            for (i, name) in &c.others {
                if !row[*i].is_empty() {
                    if !self.others.contains(name) {
                        self.others.push(name.clone());
                    }
                    b.details_mut()
                        .extra
                        .push(Attribute::new(name.clone(), std::mem::take(&mut row[*i])));
                }
            }
            self.budget.bookmark(&b)?;
            self.doc.push(Some(folder), b);
            Ok(())
        };
        table::read(part, columns, diags, start, each)?;
        Ok(())
    }

    /// The document, with what was not kept said once.
    fn finish(self, mut diags: Vec<Diagnostic>) -> Parsed {
        if self.cursors > 0 {
            // A note, not a warning: the cursor says where Pocket's paging
            // stood, nothing about any bookmark.
            diags.push(Diagnostic::note(
                format!(
                    "the cursor column (Pocket's paging position, {} values) is not kept",
                    self.cursors
                ),
                None,
            ));
        }
        if !self.others.is_empty() {
            diags.push(Diagnostic::warning(
                format!(
                    "column{} {} not known from Pocket's exports: kept as extra attributes of the bookmarks",
                    if self.others.len() == 1 { "" } else { "s" },
                    self.others.join(", ")
                ),
                None,
            ));
        }
        Parsed::new(self.doc, diags)
    }
}

fn read_zip(input: &[u8], budget: Budget, checking: bool) -> Result<Parsed, Error> {
    let mut archive = Archive::open(input, Limits::default()).map_err(archive_error)?;
    let parts = zip_parts(&archive);
    if parts.is_empty() {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "a ZIP archive with no part_*.csv: not a Pocket export",
            None,
        ));
    }
    let mut annotations: Vec<(u128, String)> = archive
        .names()
        .iter()
        .filter(|n| is_annotation(n))
        .filter_map(|n| Some((part_number(n, ".json")?, n.clone())))
        .collect();
    annotations.sort();
    let mut diags = Vec::new();
    repeated_parts(&archive, &mut diags);
    let mut collection = Collection::new(budget, checking);
    for part in &parts {
        let bytes = archive.read(part).map_err(archive_error)?;
        collection.budget.read_more(bytes.len());
        let mut part_diags = Vec::new();
        let src = text(&bytes, &mut part_diags);
        let read = collection.read_part(&src, matches!(src, Cow::Owned(_)), &mut part_diags);
        in_entry(part, &mut diags, part_diags, read).map_err(|mut e| {
            // Checking, what the parts before it broke is listed too.
            if checking {
                diags.append(&mut e.found);
                e.found = std::mem::take(&mut diags);
            }
            e
        })?;
    }
    // Sets: an archive may have 10,000 entries.
    let read: std::collections::HashSet<&String> = parts
        .iter()
        .chain(annotations.iter().map(|(_, a)| a))
        .collect();
    let unread: Vec<&str> = archive
        .names()
        .iter()
        .filter(|n| !read.contains(n))
        .map(String::as_str)
        .collect();
    diags.extend(not_read(
        &unread,
        "not a part_*.csv nor annotations/part_*.json",
    ));
    if !annotations.is_empty() {
        let mut by_url: HashMap<String, Vec<NodeId>> = HashMap::new();
        for id in collection.doc.preorder() {
            if let Some(b) = collection.doc.node(id).as_bookmark() {
                // The map holds a copy of every link while the highlights
                // are matched.
                collection.budget.charge(b.href.len() + 64)?;
                by_url.entry(b.href.clone()).or_default().push(id);
            }
        }
        for (_, name) in &annotations {
            let bytes = archive.read(name).map_err(archive_error)?;
            collection.budget.read_more(bytes.len());
            crate::annotations::apply(
                name,
                &bytes,
                &by_url,
                &mut collection.doc,
                &mut collection.budget,
                &mut diags,
            )?;
        }
    }
    Ok(collection.finish(diags))
}

/// A warning for each part name the archive lists more than once: only
/// the last copy is read (as unzip would leave it), so the bookmarks of
/// the others are not; the warning says which copies, by their place in
/// the archive's directory and their byte offset.
fn repeated_parts(archive: &Archive<'_>, diags: &mut Vec<Diagnostic>) {
    for r in archive.repeated() {
        if part_number(&r.name, ".csv").is_none() && part_number(&r.name, ".json").is_none() {
            continue;
        }
        let copies: Vec<String> = r
            .entries
            .iter()
            .zip(&r.offsets)
            .map(|(entry, offset)| format!("entry {entry} at byte {offset}"))
            .collect();
        diags.push(Diagnostic::warning(
            format!(
                "ZIP entry {} is in the archive {} times ({}): only the last is read, \
                 as unzip would leave it; the rows of the others are not read",
                r.name,
                r.entries.len(),
                copies.join(", ")
            ),
            None,
        ));
    }
}

fn read_html(input: &[u8], mut budget: Budget) -> Result<Parsed, Error> {
    let mut diags = Vec::new();
    let src = text(input, &mut diags);
    let index = LineIndex::new(src.as_bytes());
    let mut doc = Document::new();
    let mut sections = Sections::default();
    let mut section: Option<NodeId> = None;
    // The heading being read, and the link being read.
    let mut heading: Option<String> = None;
    let mut link: Option<(Bookmark, String, usize)> = None;
    let mut links = 0usize;
    // The names of attributes Pocket did not write, as first seen.
    let mut unknown: Vec<String> = Vec::new();
    let mut walk = Walker::new(&src);
    while let Some(ev) = walk.next() {
        match ev {
            Event::Start { name, attrs, at } => {
                if name.eq_ignore_ascii_case("h1") {
                    heading = Some(String::new());
                } else if name.eq_ignore_ascii_case("a") {
                    let Some(href) = attr(attrs, "href") else {
                        continue;
                    };
                    let mut b = Bookmark::new(href.into_owned());
                    let loc = Some(index.locate(at));
                    if let Some(t) = attr(attrs, "time_added") {
                        b.added = unix_date(&t, "time_added", loc, &mut diags);
                    }
                    if let Some(t) = attr(attrs, "tags") {
                        b.tags = split_tags(&t, ',');
                    }
                    let extra = other_attributes(attrs, &mut unknown);
                    if !extra.is_empty() {
                        b.details_mut().extra = extra;
                    }
                    link = Some((b, String::new(), at));
                }
            }
            Event::Text { text, .. } => {
                if let Some((_, title, _)) = link.as_mut() {
                    title.push_str(&text);
                } else if let Some(h) = heading.as_mut() {
                    h.push_str(&text);
                }
            }
            Event::End { name } => {
                if name.eq_ignore_ascii_case("a") {
                    if let Some((mut b, title, at)) = link.take() {
                        let title = title.trim();
                        if !title.is_empty() {
                            b.title = Some(title.to_string());
                        }
                        budget.bookmark(&b).map_err(|mut e| {
                            e.location = Some(index.locate(at));
                            e
                        })?;
                        doc.push(section, b);
                        links += 1;
                    }
                } else if name.eq_ignore_ascii_case("h1") {
                    if let Some(h) = heading.take() {
                        let h = h.trim();
                        let h = if h.is_empty() { "Untitled" } else { h };
                        section = Some(sections.get(&mut doc, h, &mut budget)?);
                    }
                }
            }
        }
    }
    for p in walk.problems() {
        diags.push(Diagnostic::warning(p.message, Some(index.locate(p.at))));
    }
    if !unknown.is_empty() {
        diags.push(Diagnostic::note(
            format!(
                "link attribute{} {} not known from Pocket's exports: kept as extra attributes of the bookmarks",
                if unknown.len() == 1 { "" } else { "s" },
                unknown.join(", ")
            ),
            None,
        ));
    }
    if links == 0 && sections.folders.is_empty() {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not a Pocket export: no <h1> section and no link",
            Some(Location { line: 1, column: 1 }),
        ));
    }
    Ok(Parsed::new(doc, diags))
}

/// The attributes of a link that Pocket's HTML export does not write
/// (`href`, `time_added`, `tags`), decoded, in source order, the first of
/// a name given twice (as HTML keeps it): kept as extra attributes rather
/// than dropped. Names not met before are added to `unknown`.
fn other_attributes(attrs: &[RawAttr<'_>], unknown: &mut Vec<String>) -> Vec<Attribute> {
    const KNOWN: &[&str] = &["href", "time_added", "tags"];
    let is_other = |a: &RawAttr<'_>| !KNOWN.iter().any(|k| a.name.eq_ignore_ascii_case(k));
    if !attrs.iter().any(is_other) {
        return Vec::new();
    }
    // Names compared without case through a set: a tag with thousands of
    // attributes stays linear.
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for a in attrs {
        let lower = a.name.to_ascii_lowercase();
        if !seen.insert(lower.clone()) || !is_other(a) {
            continue;
        }
        if unknown.len() < 20 && !unknown.contains(&lower) {
            unknown.push(lower);
        }
        out.push(Attribute::new(
            a.name,
            entities::decode(a.value, Context::Attribute),
        ));
    }
    out
}

/// This format as the registry lists it (`markport::format("pocket")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "pocket",
    "Pocket's export: its ZIP of part_*.csv, one CSV part, or ril_export.html; statuses as folders",
    &[],
    detect,
    read,
)
.reads_zip()
.with_rules(RULES);
