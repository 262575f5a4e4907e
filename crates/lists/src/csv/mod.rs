//! Any CSV file of bookmarks (`--from csv`, `--to csv`).
//!
//! Reading finds the columns by their header names (ASCII case-insensitive,
//! trimmed, with `_`, `-` and spaces ignored):
//!
//! | field | header names |
//! |---|---|
//! | url | `url`, `link`, `href`, `uri` |
//! | title | `title`, `name` |
//! | tags | `tags`, `tag`, `labels`, `keywords` |
//! | description | `description`, `desc`, `note(s)`, `excerpt`, `comment(s)`, `extended` |
//! | folder | `folder`, `collection`, `path`, `category` (a `/` path: nested folders) |
//! | created | `created`, `created_at`, `added`, `date_added`, `time_added`, `date`, `timestamp` |
//! | private | `private`, `is_private`; `shared`, `public` (no means private) |
//! | toread | `toread`, `unread`, `read_later` |
//!
//! `ReadOptions::csv.map` (`--csv-map field=Column,...`) overrides them.
//! Every other column is kept with each bookmark as `bookmark.extra`. The
//! delimiter is what the header line uses most of `,`, `;` and tab. The
//! rules for dates, tags and yes/no cells are in docs/formats/csv.md.
//!
//! ```
//! use markport_model::ReadOptions;
//!
//! let file = b"Name;URL;Keywords;Added\nRust;https://www.rust-lang.org/;lang, systems;1700000000\n";
//! let doc = markport_lists::csv::read(file, &ReadOptions::default()).unwrap().document;
//! let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
//! assert_eq!(b.tags, ["lang", "systems"]);
//! assert_eq!(b.added.as_ref().unwrap().instant().unwrap().unix_seconds(), 1_700_000_000);
//! ```

mod columns;
mod read;
pub mod scan;
mod values;
mod write;

use markport_model::{Field, Support};

pub use read::{read, FOLDERS, FOLDER_BYTES, PAST_BYTES, PAST_HEADER, PAST_ROWS};
pub use write::{write, HEADER};

/// How sure it is that `input` is a bookmark CSV: low (30), and only when
/// the first line is a header with a link column (`url`, `link`, `href` or
/// `uri`), so that every service's own CSV format, which knows its header
/// exactly, is more sure.
pub fn detect(input: &[u8]) -> Option<u8> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let end = memchr::memchr2(b'\n', b'\r', input).unwrap_or(input.len());
    let line = std::str::from_utf8(&input[..end.min(64 * 1024)]).ok()?;
    let delim = scan::delimiter(line) as char;
    let cells: Vec<&str> = line.split(delim).collect();
    if cells.len() < 2 {
        return None;
    }
    let link = cells.iter().any(|c| {
        let c = columns::normal(c.trim().trim_matches('"'));
        matches!(c.as_str(), "url" | "link" | "href" | "uri")
    });
    // A header names things; a first line of data holds a link instead.
    let data = cells.iter().any(|c| c.contains("://"));
    (link && !data).then_some(30)
}

/// How well the CSV writer carries each field.
pub fn support(field: Field) -> Support {
    use Field::*;
    match field {
        Bookmark | BookmarkPrivate | BookmarkToRead | BookmarkAddedForm => Support::Full,
        BookmarkHref => Support::Partial("a leading ' before = + - @ is lost"),
        BookmarkTitle | BookmarkDesc => {
            Support::Partial("an empty text comes back as none; a leading ' before = + - @ is lost")
        }
        BookmarkTags => {
            Support::Partial("one cell split on ','; a tag holding a separator is lost")
        }
        BookmarkAdded => Support::Partial("ISO 8601; a date kept as written may read as a date"),
        BookmarkExtra => Support::Partial("a column per attribute name the reader does not map"),
        Folder => Support::Partial("as each bookmark's folder path: empty folders are lost"),
        FolderTitle => Support::Partial("as a path part: no '/', not empty"),
        _ => Support::None,
    }
}

/// This format as the registry lists it (`markport::format("csv")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "csv",
    "any CSV of bookmarks: columns found by header name; one row per bookmark",
    &["csv"],
    detect,
    read,
)
.writes(write, support);
