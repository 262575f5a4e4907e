//! # markport-firefox
//!
//! Firefox's bookmark backups: the JSON of "Backup…" and of
//! `BookmarkJSONUtils` (`bookmarks-*.json`), and the compressed form of its
//! automatic backups (`.jsonlz4`, `.baklz4`: `mozLz40\0`, the size, one LZ4
//! block), from Firefox 3 to today.
//!
//! * Reading takes every version seen in the wild: numeric `id`/`parent`
//!   and annotations (`annos`) of Firefox 3–60, `typeCode`, `tags`,
//!   `keyword`, `postData`, `charset`, `iconUri` of later ones, random root
//!   guids, the mobile root, livemarks (read as bookmarks with their feed)
//!   and the trailing comma Firefox 3.x left before `]}` (a warning names
//!   where). Roots are known by their `root` name; the tags root gives its
//!   tags to the bookmarks. Any depth reads without recursion.
//! * Writing makes what `BookmarkJSONUtils.importFromFile` restores: the
//!   placesRoot with the menu, toolbar, unfiled and mobile roots under their
//!   fixed guids, a guid on every item (made when missing), `typeCode` and
//!   `index`; [`WriteOptions::firefox`](markport_model::WriteOptions) `.compress`
//!   writes the `.jsonlz4` form.
//! * Checking ([`ReadOptions::checking`]): the reader finds every rule of
//!   `markport check` a backup breaks ([`RULES`]: roots and their guids,
//!   `typeCode`/`type`, guids, dates, trailing commas), tags each diagnostic
//!   with its rule, and reads on past a value of the wrong kind.
//!
//! ```
//! use markport_model::{Bookmark, Document, ReadOptions, WriteOptions};
//!
//! let mut doc = Document::new();
//! let mut b = Bookmark::new("https://www.mozilla.org/").with_title("Mozilla");
//! b.tags = vec!["web".into()];
//! doc.push(None, b);
//! let mut opts = WriteOptions::default();
//! opts.firefox.compress = true;
//! let mut out = Vec::new();
//! markport_firefox::write(&doc, &opts, &mut out).unwrap();
//! assert!(out.starts_with(b"mozLz40\0"));
//! let back = markport_firefox::read(&out, &ReadOptions::default()).unwrap().document;
//! let menu = back.children(None)[0];
//! let b = back.node(back.children(Some(menu))[0]).as_bookmark().unwrap();
//! assert_eq!((b.href.as_str(), b.tags.as_slice()), ("https://www.mozilla.org/", &["web".to_string()][..]));
//! ```
#![warn(missing_docs)]

pub mod lz4;
mod read;
mod restore;
mod rules;
mod write;

use markport_model::{
    Document, Error, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

pub use rules::RULES;

/// The placesRoot's fixed guid.
pub const ROOT_GUID: &str = "root________";
/// The annotation Firefox 3–60 kept descriptions in.
pub const ANNO_DESCRIPTION: &str = "bookmarkProperties/description";
/// The annotation of a livemark's feed.
pub const ANNO_FEED: &str = "livemark/feedURI";
/// The annotation of a livemark's site.
pub const ANNO_SITE: &str = "livemark/siteURI";

/// File extensions of the compressed form.
pub const COMPRESSED_EXTENSIONS: &[&str] = &["jsonlz4", "baklz4", "mozlz4"];

/// Whether the writer's output with `opts` is binary: the compressed form
/// is; JSON is text.
///
/// ```
/// let mut opts = markport_model::WriteOptions::default();
/// assert!(!markport_firefox::writes_binary(&opts));
/// opts.firefox.compress = true;
/// assert!(markport_firefox::writes_binary(&opts));
/// ```
pub fn writes_binary(opts: &WriteOptions) -> bool {
    opts.firefox.compress
}

/// What an output file's extension (without the dot) asks of the write
/// options: one of [`COMPRESSED_EXTENSIONS`] (any case) asks for the
/// compressed form; anything else asks nothing.
///
/// ```
/// let mut opts = markport_model::WriteOptions::default();
/// markport_firefox::write_options_for_extension("json", &mut opts);
/// assert!(!opts.firefox.compress);
/// markport_firefox::write_options_for_extension("JSONLZ4", &mut opts);
/// assert!(opts.firefox.compress);
/// ```
pub fn write_options_for_extension(ext: &str, opts: &mut WriteOptions) {
    if COMPRESSED_EXTENSIONS
        .iter()
        .any(|c| c.eq_ignore_ascii_case(ext))
    {
        opts.firefox.compress = true;
    }
}

/// How sure it is that `input` is a Firefox backup: the mozLz40 magic, or
/// a JSON object that is the placesRoot container. The root's own keys
/// come before its children or after them, depending on who wrote the
/// file, so both ends are looked at (the first and last 64 KiB,
/// [`markport_markup::sniff`]).
pub fn detect(input: &[u8]) -> Option<u8> {
    use markport_markup::sniff::{contains, either_end, first_byte};
    if input.starts_with(lz4::MAGIC) {
        return Some(95);
    }
    if first_byte(input)? != b'{' {
        return None;
    }
    let has = |s: &[u8]| either_end(input, |w| contains(w, s));
    (has(b"\"text/x-moz-place-container\"") && has(b"\"placesRoot\"")).then_some(95)
}

/// Read a Firefox backup, plain or compressed. See the crate documentation.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let parsed = if input.starts_with(lz4::MAGIC) {
        let text = lz4::decompress(input).map_err(|e| e.rule(rules::BAD_LZ4.id))?;
        read::read(&text, " (decompressed)", opts)
    } else {
        read::read(input, "", opts)
    }
    .map_err(|mut e| {
        if opts.checking && e.rule == Some(rules::NOT_JSON.id) {
            e.message.push_str("; checking stops here");
        }
        e
    })?;
    parsed.enforce(opts)
}

/// Write a Firefox backup; returns what could not be carried.
pub fn write(
    doc: &Document,
    opts: &WriteOptions,
    out: &mut dyn std::io::Write,
) -> Result<LossReport, Error> {
    let (text, loss) = write::write(doc, opts)?;
    if opts.firefox.compress {
        out.write_all(&lz4::compress(&text)?)?;
    } else {
        out.write_all(&text)?;
    }
    Ok(loss)
}

/// What a Firefox backup carries.
pub fn support(field: Field) -> Support {
    use Field::*;
    const MICROS: &str = "microseconds since 1970";
    const FORM: &str =
        "microseconds since 1970: the precision and offset a date was written with are not kept";
    const NUMBERS: &str = "numbers only";
    const GUID: &str = "12 characters of A-Z a-z 0-9 - _, unique; one is made when missing";
    const EXTRA: &str = "not under a key Firefox uses itself";
    match field {
        DocumentTitle => Support::Partial("an empty title reads back as none"),
        DocumentId | BookmarkId | FolderId => Support::Partial(NUMBERS),
        DocumentAdded | DocumentModified | BookmarkAdded | BookmarkModified | FolderAdded
        | FolderModified => Support::Partial(MICROS),
        DocumentAddedForm | DocumentModifiedForm | BookmarkAddedForm | BookmarkModifiedForm
        | FolderAddedForm | FolderModifiedForm => Support::Partial(FORM),
        DocumentExtra => Support::Partial("not under a key Firefox uses itself; the placesRoot guid is always root________"),
        BookmarkExtra | FolderExtra | SeparatorExtra => Support::Partial(EXTRA),
        Bookmark | BookmarkHref | BookmarkTitle | BookmarkDesc | FolderTitle | FolderDesc
        | BookmarkFaviconUri | BookmarkKeyword | BookmarkPostData | BookmarkFeedUrl
        | BookmarkCharset | Separator => Support::Full,
        SeparatorTitle => Support::Partial("an empty label reads back as none"),
        BookmarkTags => Support::Partial("one comma-separated string: no commas in tags"),
        BookmarkGuid | FolderGuid => Support::Partial(GUID),
        BookmarkMetaInfo | FolderMetaInfo => Support::Partial(
            "as annotations (annos), not named like the description or feed annotations",
        ),
        Folder => Support::Partial(
            "the four roots (menu, toolbar, unfiled, mobile) are always written; other top-level items go into the menu",
        ),
        FolderRole => Support::Partial("menu, toolbar, unfiled and mobile, at the top level"),
        _ => Support::None,
    }
}

/// This format as the registry lists it (`markport::format("firefox")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "firefox",
    "Firefox bookmark backups: JSON (bookmarks-*.json) and .jsonlz4/.baklz4",
    &["jsonlz4", "baklz4", "mozlz4"],
    detect,
    read,
)
.writes(write, support)
.options_for_extension(write_options_for_extension)
.binary_when(writes_binary)
.with_rules(RULES);
