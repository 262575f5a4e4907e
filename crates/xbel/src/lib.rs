//! # markport-xbel
//!
//! XBEL 1.0, the XML Bookmark Exchange Language, for markport: a reader and a
//! writer around [`markport_model::Document`].
//!
//! * Reads every element and attribute of the XBEL 1.0 DTD, XBEL 1.1's and
//!   KDE's `icon` and `toolbar`, CDATA, comments, processing instructions and
//!   any DOCTYPE; dates in every W3C date/time profile. Unknown `<metadata>`
//!   owners are kept raw and written back unchanged, with the namespace
//!   declarations they need.
//! * Reads the freedesktop desktop-bookmark metadata (`bookmark:` and `mime:`
//!   elements matched by namespace URI) into the model's typed fields.
//! * Never fetches an external entity and never expands a custom one: such
//!   input ends in an error at once, with line and column.
//! * Writes UTF-8 with a declaration and DOCTYPE, two-space indent. What XBEL
//!   has no element for goes into one `<info><metadata owner="https://markport.dev/ns/1">`
//!   block per node, so XBEL carries the whole model;
//!   [`WriteOptions::xbel_strict`] leaves it out (reporting the loss) for
//!   output that validates against the XBEL 1.0 DTD.
//!
//! ```
//! use markport_model::{Field, ReadOptions, WriteOptions};
//!
//! let input = br#"<?xml version="1.0"?>
//! <xbel version="1.0">
//!   <folder folded="no"><title>News</title>
//!     <bookmark href="https://www.bbc.co.uk/" added="2024-05-01T09:30:00Z">
//!       <title>BBC</title>
//!     </bookmark>
//!     <separator/>
//!   </folder>
//! </xbel>"#;
//! let read = markport_xbel::read(input, &ReadOptions::default()).unwrap();
//! let census = read.document.census();
//! assert_eq!((census.bookmarks, census.folders, census.separators), (1, 1, 1));
//!
//! let mut out = Vec::new();
//! let loss = markport_xbel::write(&read.document, &WriteOptions::default(), &mut out).unwrap();
//! assert!(loss.is_empty());
//! let again = markport_xbel::read(&out, &ReadOptions::default()).unwrap();
//! assert!(markport_model::diff(&read.document, &again.document).is_empty());
//! # let _ = Field::BookmarkTitle;
//! ```
#![warn(missing_docs)]

mod block;
mod check;
mod encoding;
mod floccus;
mod freedesktop;
mod markport_block;
mod metadata_check;
mod names;
mod read;
pub mod rules;
mod syntax;
mod write;

use markport_model::{
    Document, Error, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

pub use names::{BOOKMARK_NS, FREEDESKTOP_OWNER, MARKPORT_OWNER, MIME_NS};

pub use metadata_check::check_metadata_content;
pub use rules::{DESKTOP_RULES, RULES};

/// How sure it is that `input` is XBEL: an `<xbel` root near the start.
pub fn detect(input: &[u8]) -> Option<u8> {
    let head = &input[..input.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let lower = text.to_ascii_lowercase();
    if lower.contains("<!doctype xbel") || text.contains("<xbel") {
        Some(80)
    } else {
        None
    }
}

/// Read XBEL. See the crate documentation for what is read. With
/// [`ReadOptions::checking`], every breach of [`RULES`] is a diagnostic
/// tagged with its rule, and a file that is not well-formed an error tagged
/// `xbel/not-well-formed` that keeps what was found before it.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let rules = if opts.checking {
        read::Rules::Xbel
    } else {
        read::Rules::None
    };
    read::read(input, rules, opts)?.enforce(opts)
}

/// Read a desktop bookmark file's XBEL (the `desktop` format builds on
/// it): [`read`], with [`DESKTOP_RULES`] found too under
/// [`ReadOptions::checking`].
///
/// ```
/// use markport_model::ReadOptions;
///
/// let file = br#"<?xml version="1.0"?>
/// <xbel version="1.0"><bookmark href="notes.txt"/></xbel>"#;
/// let mut opts = ReadOptions::default();
/// opts.checking = true;
/// let read = markport_xbel::read_desktop(file, &opts).unwrap();
/// let rules: Vec<_> = read.diagnostics.iter().filter_map(|d| d.rule.as_deref()).collect();
/// assert_eq!(
///     rules,
///     ["desktop/not-a-uri", "desktop/missing-mime-type", "desktop/missing-application"]
/// );
/// ```
pub fn read_desktop(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let rules = if opts.checking {
        read::Rules::Desktop
    } else {
        read::Rules::None
    };
    read::read(input, rules, opts)?.enforce(opts)
}

/// Write XBEL; returns what could not be carried.
pub fn write(
    doc: &Document,
    opts: &WriteOptions,
    out: &mut dyn std::io::Write,
) -> Result<LossReport, Error> {
    write::write(doc, opts, out)
}

/// What XBEL carries (with markport's metadata block; see `--xbel-strict` in
/// `docs/formats/xbel.md` for the strict subset).
pub fn support(field: Field) -> Support {
    const TEXT: &str = "characters XML 1.0 cannot carry (most C0 controls) are dropped";
    match field {
        Field::DocumentTitle
        | Field::DocumentDesc
        | Field::BookmarkHref
        | Field::BookmarkTitle
        | Field::BookmarkDesc
        | Field::FolderTitle
        | Field::FolderDesc
        | Field::BookmarkTags
        | Field::BookmarkKeyword
        | Field::SeparatorTitle => Support::Partial(TEXT),
        Field::DocumentComments => Support::Partial("no comment containing `--` or ending in `-`"),
        _ => Support::Full,
    }
}

/// This format as the registry lists it (`markport::format("xbel")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "xbel",
    "XBEL 1.0, the XML Bookmark Exchange Language (lossless hub)",
    &["xbel"],
    detect,
    read,
)
.writes(write, support)
.with_rules(RULES);
