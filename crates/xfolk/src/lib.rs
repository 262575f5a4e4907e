//! # markport-xfolk
//!
//! xFolk (RC1), the microformat for published bookmark collections, for
//! markport: a reader that finds xFolk entries in any page, and a writer
//! that publishes a collection as a page people want to use.
//!
//! * Reading: every element whose class list has `xfolkentry`, at any depth,
//!   in document order; each property belongs to the nearest enclosing entry
//!   (not to a nested hReview or hCard). The link is the first `.taggedlink`,
//!   resolved against `<base href>` and `--base-url`; the title its `title`
//!   attribute, else its text; descriptions every `.description` (and the
//!   legacy `extended`), joined by a blank line; tags the last path segment of
//!   `rel="tag"` links; dates from `<time datetime>` or
//!   `abbr.published|created|posted`; folders from the sections markport's
//!   own pages publish. HTML or XHTML, broken or not, in one linear walk
//!   (the markup layer's, with HTML5's implied end tags): a page nested
//!   100,000 elements deep or a tag with 100,000 attributes reads in time
//!   proportional to its size.
//! * Writing: a standalone HTML5 page with a folder `nav`, a `section` per
//!   folder, `li.xfolkentry` entries with the mf2 classes too (`h-entry`,
//!   `u-bookmark-of`, `p-category`, ...), embedded CSS (phone, dark mode,
//!   print) and a filter box that needs no server. Private bookmarks and
//!   `javascript:`/`data:`/`vbscript:` links are withheld unless asked for;
//!   everything is escaped; what a page cannot carry is reported.
//! * Checking, when asked ([`ReadOptions::checking`]): each entry it skips
//!   for want of a tagged link, and tags marked by class with no `rel="tag"`
//!   link ([`RULES`], the rules of `markport check`), tagged with the rule.
//! * [`entry`]: one entry, as the page writer and the site publisher
//!   (`markport publish`, crate `markport-publish`) both write it.
//!
//! ```
//! use markport_model::{Bookmark, Document, Folder, ReadOptions, WriteOptions};
//!
//! let mut doc = Document::new();
//! doc.header.title = Some("Links".into());
//! let rust = doc.push(None, Folder::titled("Rust"));
//! let mut b = Bookmark::new("https://www.rust-lang.org/").with_title("Rust <lang>");
//! b.tags = vec!["rust".into(), "New York".into()];
//! doc.push(Some(rust), b);
//! let mut secret = Bookmark::new("https://intranet.example/");
//! secret.private = Some(true);
//! doc.push(Some(rust), secret);
//!
//! let mut opts = WriteOptions::default();
//! opts.xfolk.tag_base = Some("https://example.org/tags/".into());
//! let mut page = Vec::new();
//! let loss = markport_xfolk::write(&doc, &opts, &mut page).unwrap();
//! let html = String::from_utf8(page.clone()).unwrap();
//! assert!(html.contains(r#"href="https://example.org/tags/New%20York""#));
//! assert!(html.contains("Rust &lt;lang&gt;") && !html.contains("intranet"));
//! assert_eq!(loss.fields().iter().map(|f| f.name()).collect::<Vec<_>>(), ["bookmark"]);
//!
//! let back = markport_xfolk::read(&page, &ReadOptions::default()).unwrap().document;
//! let b = back.node(back.children(Some(back.children(None)[0]))[0]).as_bookmark().unwrap();
//! assert_eq!(b.tags, ["rust", "New York"]);
//! ```
#![warn(missing_docs)]

pub mod entry;
mod page;
mod read;
mod rules;
mod tags;
mod text;

use markport_model::{
    Document, Error, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

pub use page::MAX_NESTING;
pub use rules::RULES;

/// The `<meta name="generator">` of markport's pages: such a page reads
/// even when it has no entries (an empty collection).
pub const GENERATOR: &str = "markport";

/// How sure it is that `input` holds xFolk: the class token `xfolkentry`.
pub fn detect(input: &[u8]) -> Option<u8> {
    let head = &input[..input.len().min(1 << 16)];
    let text = String::from_utf8_lossy(head);
    let ours = text.contains("<meta name=\"generator\" content=\"markport\">");
    (ours || text.contains("xfolkentry")).then_some(85)
}

/// Read the xFolk entries of a page. See the crate documentation.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    read::read(input, opts)?.enforce(opts)
}

/// Publish a collection as an xFolk page; returns what could not be carried
/// (or was withheld).
pub fn write(
    doc: &Document,
    opts: &WriteOptions,
    out: &mut dyn std::io::Write,
) -> Result<LossReport, Error> {
    page::write(doc, opts, out)
}

/// What an xFolk page carries.
pub fn support(field: Field) -> Support {
    const COLLAPSED: &str = "whitespace collapsed (descriptions keep lines and paragraphs)";
    use Field::*;
    match field {
        Bookmark => {
            Support::Partial("private bookmarks and script links are withheld unless asked for")
        }
        BookmarkHref | BookmarkId | BookmarkAddedForm | Folder | FolderId => Support::Full,
        BookmarkAdded => Support::Partial("a value that is not a date is read back trimmed"),
        DocumentTitle | DocumentDesc | BookmarkTitle | BookmarkDesc | FolderTitle | FolderDesc => {
            Support::Partial(COLLAPSED)
        }
        BookmarkTags => Support::Partial("no empty or repeated tags"),
        _ => Support::None,
    }
}

/// This format as the registry lists it (`markport::format("xfolk")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "xfolk",
    "xFolk microformat pages: read from any page, publish a page people use",
    &["html", "htm"],
    detect,
    read,
)
.writes(write, support)
.with_rules(RULES);
