//! Pocket's exports: `ril_export.html` (`<h1>Unread</h1><ul><li><a href
//! time_added tags>title</a>`, then `<h1>Read Archive</h1>` ...) and the CSV
//! (`title,url,time_added,tags,status`, tags separated by `|`). Each section
//! (HTML) or status (CSV) becomes a folder, in the order first met.

use std::collections::HashMap;

use markport_markup::walk::{attr, Event, Walker};
use markport_model::{
    Bookmark, Diagnostic, Document, Error, ErrorKind, Folder, LineIndex, Location, NodeId, Parsed,
    ReadOptions,
};

use crate::{table, text, unix_date};

const CSV_HEADER: &[&str] = &["title", "url", "time_added", "tags", "status"];

fn csv_header(input: &[u8]) -> bool {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let line = input.split(|b| *b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    line.trim_end_matches('\r')
        .eq_ignore_ascii_case("title,url,time_added,tags,status")
}

/// How sure it is that `input` is a Pocket export: the CSV's header, or
/// links with `time_added` in an HTML page without Netscape's DOCTYPE.
pub fn detect(input: &[u8]) -> Option<u8> {
    if csv_header(input) {
        return Some(90);
    }
    let head = &input[..input.len().min(16384)];
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    let html = lower.contains("<a ") && lower.contains("time_added=");
    (html && !lower.contains("<!doctype netscape-bookmark-file")).then_some(80)
}

/// Read a Pocket export, HTML or CSV.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    if csv_header(input) {
        read_csv(input)
    } else {
        read_html(input)
    }?
    .enforce(opts)
}

/// Folders by title, made when first needed (a map: an export may have as
/// many statuses as rows).
#[derive(Default)]
struct Sections {
    folders: HashMap<String, NodeId>,
}

impl Sections {
    fn get(&mut self, doc: &mut Document, title: &str) -> NodeId {
        if let Some(id) = self.folders.get(title) {
            return *id;
        }
        let id = doc.push(None, Folder::titled(title));
        self.folders.insert(title.to_string(), id);
        id
    }
}

fn split_tags(tags: &str, sep: char) -> Vec<String> {
    tags.split(sep)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

fn read_csv(input: &[u8]) -> Result<Parsed, Error> {
    let mut diags = Vec::new();
    let src = text(input, &mut diags);
    struct State {
        doc: Document,
        sections: Sections,
        columns: [usize; 5],
    }
    let start = |t: &table::Table| State {
        doc: Document::new(),
        sections: Sections::default(),
        columns: ["title", "url", "time_added", "tags", "status"]
            .map(|n| t.column(n).expect("required columns are checked")),
    };
    let each = |s: &mut State, at, mut row: Vec<String>, diags: &mut Vec<Diagnostic>| {
        let [title, url, added, tags, status] = s.columns;
        let section = match row[status].trim() {
            "unread" => "Unread",
            "archive" => "Read Archive",
            "" => "Unread",
            other => other,
        };
        let folder = s.sections.get(&mut s.doc, section);
        let mut b = Bookmark::new(std::mem::take(&mut row[url]));
        // An empty title is untitled; a title that repeats the URL (Pocket
        // writes that for a page it never fetched) is kept as written.
        if !row[title].is_empty() {
            b.title = Some(std::mem::take(&mut row[title]));
        }
        b.added = unix_date(&row[added], "time_added", Some(at), diags);
        b.tags = split_tags(&row[tags], '|');
        s.doc.push(Some(folder), b);
    };
    let State { doc, .. } =
        table::read(&src, "Pocket CSV", CSV_HEADER, &[], &mut diags, start, each)?;
    Ok(Parsed::new(doc, diags))
}

fn read_html(input: &[u8]) -> Result<Parsed, Error> {
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
                    if let Some((mut b, title, _)) = link.take() {
                        let title = title.trim();
                        if !title.is_empty() {
                            b.title = Some(title.to_string());
                        }
                        doc.push(section, b);
                        links += 1;
                    }
                } else if name.eq_ignore_ascii_case("h1") {
                    if let Some(h) = heading.take() {
                        let h = h.trim();
                        section =
                            Some(sections.get(&mut doc, if h.is_empty() { "Untitled" } else { h }));
                    }
                }
            }
        }
    }
    for p in walk.problems() {
        diags.push(Diagnostic::warning(p.message, Some(index.locate(p.at))));
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
