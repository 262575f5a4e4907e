//! # markport-favorites
//!
//! Favorites trees for markport: a directory of link files, read and
//! written. What Internet Explorer kept in `%USERPROFILE%\Favorites`, what
//! people drag out of a browser onto a macOS or Linux desktop, and what a
//! browser that imports only HTML cannot take in without a converter.
//!
//! - **Reading** ([`read_path`]): sub-directories are folders; each link
//!   file is a bookmark titled by its file name without the extension:
//!   - Windows Internet Shortcuts, `.url`: `[InternetShortcut]` with
//!     `URL=`, `IconFile=` (the bookmark's icon) and `Modified=` (a
//!     FILETIME, see below), CRLF or LF, in any code page (markup's
//!     charset detection: a byte order mark, UTF-8, else the code page
//!     the bytes look like, with a warning), UTF-16 with a byte order mark;
//!   - macOS web locations, `.webloc`: a property list, XML or binary,
//!     whose dictionary holds `URL`;
//!   - freedesktop desktop entries, `.desktop`, of `Type=Link`: `URL=`,
//!     `Name=` (the title, instead of the file name), `Comment=` (the
//!     description), `Icon=`.
//!
//!   Every other key is kept in the bookmark's `extra` (`Name[de]`,
//!   `IconIndex`, `[DEFAULT]BASEURL` for a key of another section). The
//!   order is stable: directories first, then link files, each sorted by
//!   name. Symbolic links are followed only inside the tree; a loop is an
//!   error naming it; anything that is not a link file is skipped with a
//!   warning naming its path.
//! - **Writing** ([`stage`]): one `.url` per bookmark (CRLF; ASCII, or
//!   UTF-8 with a byte order mark when a value is not), a sub-directory per
//!   folder, names made safe on Windows, macOS and Linux; into a staging
//!   directory swapped in whole, refusing a non-empty directory markport
//!   did not write, as `markport publish` does.
//!
//! A single link file reads too ([`read`], [`detect`]): one bookmark.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let news = dir.path().join("News");
//! std::fs::create_dir(&news).unwrap();
//! std::fs::write(news.join("BBC.url"), "[InternetShortcut]\r\nURL=https://www.bbc.co.uk/\r\n").unwrap();
//! std::fs::write(dir.path().join("notes.txt"), "not a link").unwrap();
//!
//! let parsed = markport_favorites::read_path(dir.path(), &Default::default()).unwrap();
//! let doc = &parsed.document;
//! let folder = doc.children(None)[0];
//! assert_eq!(doc.node(folder).title(), Some("News"));
//! let bbc = doc.node(doc.children(Some(folder))[0]).as_bookmark().unwrap();
//! assert_eq!((bbc.href.as_str(), bbc.title.as_deref()), ("https://www.bbc.co.uk/", Some("BBC")));
//! assert_eq!(parsed.diagnostics[0].file.as_deref(), Some("notes.txt"));
//! assert!(parsed.diagnostics[0].message.starts_with("not a link file"));
//!
//! // Written back as a tree of its own.
//! let out = dir.path().join("out");
//! let (loss, staged) = markport_favorites::stage(doc, &Default::default(), &out).unwrap();
//! assert!(loss.is_empty());
//! staged.swap().unwrap().clean().unwrap();
//! assert!(out.join("News/BBC.url").is_file());
//! ```
#![warn(missing_docs)]

mod at;
mod filetime;
mod ini;
pub mod link;
mod names;
mod tree;
mod write;

use std::path::Path;

pub use markport_files::tree::Staged;
use markport_model::{
    Document, Error, ErrorKind, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

pub use link::Kind;
pub use write::abandon;

/// The largest link file read (1 MiB): real ones are a few hundred bytes,
/// and a bigger file in a tree is skipped with a warning unread.
pub const MAX_LINK_FILE: usize = 1 << 20;

/// The list of files markport wrote, at the top of a tree it wrote (the
/// same marker `markport publish` keeps): a later write replaces only a
/// tree that holds nothing else, and the reader passes over it.
pub const MARKER: &str = markport_files::tree::MANIFEST;

/// The list of every directory and file of a tree markport wrote, in the
/// collection's order, at its top: the tree reads back in that order
/// (a file system has none of its own). A JSON array of `/`-separated paths.
pub const ORDER: &str = ".markport-favorites-order.json";

/// How sure it is that `input` is one link file (see [`Kind::sniff`]).
///
/// ```
/// assert!(markport_favorites::detect(b"[InternetShortcut]\r\nURL=https://example.org/\r\n").is_some());
/// assert!(markport_favorites::detect(b"<xbel/>").is_none());
/// ```
pub fn detect(input: &[u8]) -> Option<u8> {
    Kind::sniff(input).map(|(_, score)| score)
}

/// How sure it is that the directory at `path` is a favorites tree: any
/// directory is one (its link files are what it holds).
pub fn detect_dir(path: &Path) -> Option<u8> {
    path.is_dir().then_some(50)
}

/// Read one link file's bytes: a document of one bookmark, titled only when
/// a desktop entry's `Name=` gives one (a file's name is its title, and
/// bytes have no name: [`read_path`] reads a file with its name).
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let (kind, _) = Kind::sniff(input).ok_or_else(|| {
        Error::new(
            ErrorKind::WrongFormat,
            "not a link file (.url Internet Shortcut, .webloc, .desktop of Type=Link)",
            None,
        )
    })?;
    one(kind, input, opts, None)
}

fn one(kind: Kind, input: &[u8], opts: &ReadOptions, name: Option<&str>) -> Result<Parsed, Error> {
    let link = link::read(kind, input, opts.encoding.as_deref())?;
    let mut bookmark = link.bookmark;
    if let Some(name) = name {
        if kind != Kind::Desktop || bookmark.title.is_none() {
            bookmark.title = Some(tree::stem(name).to_owned());
        }
    }
    let mut doc = Document::new();
    doc.push(None, bookmark);
    Parsed::new(doc, link.diagnostics).enforce(opts)
}

/// Read a favorites tree (a directory), or one link file by its path
/// (titled by its name). See the crate documentation.
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<Parsed, Error> {
    let meta = std::fs::metadata(path).map_err(|e| {
        let mut err = Error::io(e);
        err.message = format!("{}: {}", path.display(), err.message);
        err
    })?;
    if meta.is_dir() {
        return tree::read_tree(path, opts);
    }
    let bytes = std::fs::read(path).map_err(Error::io)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let kind = name
        .as_deref()
        .and_then(Kind::of_name)
        .or_else(|| Kind::sniff(&bytes).map(|(k, _)| k))
        .ok_or_else(|| {
            Error::new(
                ErrorKind::WrongFormat,
                "not a link file (.url, .webloc, .desktop) nor a directory of them",
                None,
            )
        })?;
    one(kind, &bytes, opts, name.as_deref())
}

/// A favorites tree is a directory of files, not one stream: this writer
/// only says so (markport's `convert` writes the tree with [`stage`] when
/// the output is a directory, `-o DIR`).
pub fn write(
    _doc: &Document,
    _opts: &WriteOptions,
    _out: &mut dyn std::io::Write,
) -> Result<LossReport, Error> {
    Err(Error::new(
        ErrorKind::Unwritable,
        "a favorites tree is a directory of files: name one with -o DIR",
        None,
    ))
}

/// Write `doc` as a favorites tree into a staging directory beside `dir`
/// and check `dir` (absent, empty, or a tree markport wrote), without
/// touching it; [`Staged::swap`] then puts the tree in place, [`abandon`]
/// removes it. Returns what the tree cannot carry.
pub fn stage(
    doc: &Document,
    _opts: &WriteOptions,
    dir: &Path,
) -> Result<(LossReport, Staged), Error> {
    write::stage(doc, dir)
}

/// What a favorites tree of Internet Shortcuts carries.
pub fn support(field: Field) -> Support {
    use Field::*;
    match field {
        Bookmark => Support::Full,
        BookmarkHref => Support::Partial("one line: no line breaks, no leading blanks"),
        BookmarkTitle | FolderTitle => Support::Partial(
            "the file name: / \\ : * ? \" < > | and control characters become _, trailing dots and spaces go, device names get _, long names are cut, names equal on case-insensitive systems get (2)",
        ),
        Folder => Support::Full,
        BookmarkModified => Support::Partial("a FILETIME: from 1601 on, in 100-nanosecond steps"),
        BookmarkModifiedForm => Support::Partial("written as a FILETIME, UTC"),
        BookmarkIcon => Support::Partial("IconFile=, one line"),
        BookmarkExtra => Support::Partial(
            "as INI keys (`[Section]Key` in its section), one line each, not markport's own keys",
        ),
        _ => Support::None,
    }
}

/// This format as the registry lists it (`markport::format("favorites")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "favorites",
    "Favorites trees: a directory of link files (.url, .webloc, .desktop); written as .url files",
    &["url", "webloc", "desktop"],
    detect,
    read,
)
.reads_paths(read_path)
.writes(write, support);
