//! # markport
//!
//! Convert bookmark collections between formats, and say exactly what a
//! conversion loses.
//!
//! Every format is a reader into one model ([`markport_model::Document`]) and a
//! writer out of it, registered in [`FORMATS`]. [`convert`] chains any reader to
//! any writer and returns the writer's [`LossReport`]: each field the target
//! could not carry, on how many nodes, where, and why. The report is true by
//! test: reading the output back differs from the input in exactly the
//! reported fields.
//!
//! ```
//! use markport::{convert, format, ConvertOptions, Input, Target};
//!
//! let xbel = br#"<?xml version="1.0"?>
//! <xbel version="1.0">
//!   <folder><title>News</title>
//!     <bookmark href="https://www.bbc.co.uk/"><title>BBC</title></bookmark>
//!   </folder>
//! </xbel>"#;
//! let mut out = Vec::new();
//! let done = convert(
//!     Input::Bytes(xbel.to_vec()),
//!     format("json").unwrap(),
//!     &ConvertOptions::default(),
//!     Target::Stream(&mut out),
//! )
//! .unwrap();
//! assert!(done.loss.is_empty());
//! let json = String::from_utf8(out).unwrap();
//! assert!(json.contains(r#""href": "https://www.bbc.co.uk/""#));
//! ```
//!
//! [`convert`] is the one pipeline: the `markport` command's `convert` is
//! this function with its flags mapped onto [`ConvertOptions`]. A file is
//! given by its path ([`Input::Path`]), so a format whose file has
//! companions (places.sqlite's `-wal`) reads them too.
//!
//! Programs that migrate collections read into a [`Document`], change its
//! tree, and write it out; [`read_path`] and [`write_path`] choose formats
//! and write files as the `markport` command does.
//!
//! ```
//! use markport::{read, format, write_to_vec, Node, ReadOptions, WriteOptions};
//!
//! let html = br#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
//! <DL><DT><H3>Old</H3>
//!   <DL><DT><A HREF="https://example.org/" TAGS="keep">Example</A>
//!       <DT><A HREF="http://dead.example/">Dead</A></DL>
//! </DL>"#;
//! let mut doc = read(html, format("netscape").unwrap(), &ReadOptions::default())
//!     .unwrap()
//!     .document;
//! // Move the tagged bookmarks to the top level, then drop the rest of "Old".
//! let tagged: Vec<_> = doc
//!     .preorder()
//!     .filter(|&id| doc.node(id).as_bookmark().is_some_and(|b| !b.tags.is_empty()))
//!     .collect();
//! for id in tagged {
//!     doc.move_to(id, None).unwrap();
//! }
//! doc.retain(|doc, id| doc.node(id).title() != Some("Old"));
//! assert_eq!(doc.len(), 1);
//! let Node::Bookmark(b) = doc.node(doc.children(None)[0]) else { panic!() };
//! assert_eq!(b.href, "https://example.org/");
//!
//! let (xbel, loss) = write_to_vec(&doc, format("xbel").unwrap(), &WriteOptions::default()).unwrap();
//! assert!(loss.is_empty());
//! assert!(String::from_utf8(xbel).unwrap().contains("<title>Example</title>"));
//! ```
#![warn(missing_docs)]

mod convert;
pub mod json;
pub mod matrix;
pub mod ops;
mod paths;
pub mod profiles;
mod registry;
mod resolve;
mod values;

pub use convert::{
    convert, read_bytes, read_input, ConvertError, ConvertOptions, Converted, Input, Refusal,
    Stage, Target,
};
#[cfg(feature = "buku")]
/// buku's bookmarks.db: its own API.
pub use markport_buku as buku;
/// Chromium's Bookmarks file's own API (Chrome, Edge, Brave, Vivaldi, Opera).
#[cfg(feature = "chromium")]
pub use markport_chromium as chromium;
#[cfg(feature = "desktop")]
/// The desktop-bookmark format's own API (and the spec's operations).
pub use markport_desktop as desktop;
#[cfg(feature = "favorites")]
/// The favorites-tree format's own API (directories of link files).
pub use markport_favorites as favorites;
/// The file layer: atomic output files, private copies, archives, trees.
pub use markport_files as files;
/// Writing an output file without harming what is there (see `docs/output.md`).
pub use markport_files::output;
/// Firefox's bookmark backups' own API (JSON, `.jsonlz4`).
#[cfg(feature = "firefox")]
pub use markport_firefox as firefox;
#[cfg(feature = "lists")]
/// Generic CSV and plain URL lists.
pub use markport_lists as lists;
pub use markport_markup as markup;
pub use markport_model as model;
pub use markport_model::{
    diff, diff_listing, Bookmark, Diagnostic, Diff, Difference, Document, Error, ErrorKind, Field,
    Folder, Header, LossReport, Node, NodeId, Parsed, ReadOptions, Separator, Severity, Support,
    WriteOptions,
};
#[cfg(feature = "netscape")]
/// The Netscape bookmark HTML format's own API.
pub use markport_netscape as netscape;
#[cfg(feature = "places")]
/// The places.sqlite format's own API.
pub use markport_places as places;
#[cfg(feature = "safari")]
/// Safari's Bookmarks.plist and exported ZIP: its own API.
pub use markport_safari as safari;
#[cfg(feature = "services")]
/// The service exports' own API (Pocket, Pinboard, Instapaper, Raindrop).
pub use markport_services as services;
#[cfg(feature = "xbel")]
/// The XBEL format's own API.
pub use markport_xbel as xbel;
#[cfg(feature = "xfolk")]
/// The xFolk format's own API.
pub use markport_xfolk as xfolk;
pub use paths::{read_path, write_path};
pub use registry::{
    aliases_of, detect, format, formats_for_extension, names, no_write_options, read_only,
    text_output, writable, writable_names, DirectoryFormat, Format, PathReadFn, ReadFn, StageDirFn,
    WriteFn, ALIASES, DIRECTORY_FORMATS, FORMATS,
};
pub use resolve::{resolve_format, Chosen, Resolved};
pub use values::{values, Values};

/// Read `input` as `format`. With `opts.strict`, the first warning is an error.
///
/// ```
/// use markport::{format, read, ErrorKind, ReadOptions};
///
/// let broken = br#"<xbel version="1.0"><alias/></xbel>"#;
/// let lenient = read(broken, format("xbel").unwrap(), &ReadOptions::default()).unwrap();
/// assert!(lenient.diagnostics.iter().any(|d| d.message.contains("without ref")));
///
/// let mut strict = ReadOptions::default();
/// strict.strict = true;
/// let err = read(broken, format("xbel").unwrap(), &strict).unwrap_err();
/// assert_eq!(err.kind, ErrorKind::Strict);
/// ```
pub fn read(input: &[u8], format: &Format, opts: &ReadOptions) -> Result<Parsed, Error> {
    (format.read)(input, opts)
}

/// Read `input`, the bytes already loaded from the file at `path` (`None`:
/// not a file, e.g. standard input), as `format`. A format whose file has companions the
/// bytes do not hold (places.sqlite and its `-wal`) reads the file itself
/// when it is a regular file; every other format, and any format given a
/// pipe, reads the bytes, as [`read`] does.
pub fn read_loaded(
    input: &[u8],
    path: Option<&std::path::Path>,
    format: &Format,
    opts: &ReadOptions,
) -> Result<Parsed, Error> {
    // A pipe (`<(cat places.sqlite)`) cannot be read again by its path:
    // its bytes are all there is.
    match (
        path.filter(|p| convert::is_regular_file(p)),
        format.path_reader,
    ) {
        (Some(path), Some(path_reader)) => path_reader(path, opts),
        _ => read(input, format, opts),
    }
}

/// The old name of [`read_loaded`].
#[deprecated(
    since = "0.1.0",
    note = "renamed read_loaded: read_path reads a file, read_loaded bytes already read from one"
)]
pub fn read_file(
    input: &[u8],
    path: Option<&std::path::Path>,
    format: &Format,
    opts: &ReadOptions,
) -> Result<Parsed, Error> {
    read_loaded(input, path, format, opts)
}

/// Remove every temporary file and directory this process has made and
/// not yet finished with: unfinished outputs ([`output::remove_unfinished`]),
/// the private copies of user data a reader made
/// ([`files::private::remove_all`]) and trees staged or swapped out and not
/// yet removed ([`files::tree::remove_unfinished`]), after which none is
/// made. Meant for a signal handler running in a normal thread just before
/// the process exits, as the `markport` command's does.
pub fn remove_temporaries() {
    markport_files::remove_temporaries();
}

/// Whether this process has a temporary [`remove_temporaries`] would
/// remove; one atomic load, safe in a raw signal handler (see
/// [`files::temporaries_exist`]).
pub fn temporaries_exist() -> bool {
    markport_files::temporaries_exist()
}

/// Write `doc` as `format` into memory; returns the bytes and what could
/// not be carried.
///
/// ```
/// use markport::{format, write_to_vec, Bookmark, Document, Field, WriteOptions};
///
/// let mut doc = Document::new();
/// let mut b = Bookmark::new("https://example.org/").with_title("Example");
/// b.tags = vec!["demo".into()];
/// doc.push(None, b);
/// let (_, loss) = write_to_vec(&doc, format("xbel").unwrap(), &WriteOptions::default()).unwrap();
/// assert!(loss.is_empty(), "tags ride in markport's XBEL block");
///
/// let mut strict = WriteOptions::default();
/// strict.xbel.strict = true;
/// let (_, loss) = write_to_vec(&doc, format("xbel").unwrap(), &strict).unwrap();
/// assert!(loss.fields().contains(&Field::BookmarkTags));
/// ```
pub fn write_to_vec(
    doc: &Document,
    format: &Format,
    opts: &WriteOptions,
) -> Result<(Vec<u8>, LossReport), Error> {
    let write = format.writer()?;
    let mut out = Vec::new();
    let loss = write(doc, opts, &mut out)?;
    Ok((out, loss))
}

/// What a trip out through a format and back did: the writer's report, the
/// differences between the document and what came back, and whether the two
/// agree (they always should: a disagreement is a bug in markport).
#[derive(Debug)]
pub struct Roundtrip {
    /// What the writer said it could not carry.
    pub loss: LossReport,
    /// How the document read back differs from the original.
    pub diff: Diff,
    /// The document read back.
    pub back: Document,
}

impl Roundtrip {
    /// Whether the report names exactly the fields that differ.
    pub fn exact(&self) -> bool {
        self.diff.fields() == self.loss.fields()
    }

    /// Fields that differ but were not reported.
    pub fn unreported(&self) -> Vec<Field> {
        self.diff
            .fields()
            .difference(&self.loss.fields())
            .copied()
            .collect()
    }

    /// Fields reported lost that came back all the same.
    pub fn reported_but_kept(&self) -> Vec<Field> {
        self.loss
            .fields()
            .difference(&self.diff.fields())
            .copied()
            .collect()
    }
}

/// Write `doc` as `via`, read it back, and compare: the check behind
/// `markport roundtrip` and the conformance tests.
///
/// ```
/// use markport::{format, read, roundtrip, ReadOptions, WriteOptions};
///
/// let xbel = br#"<xbel version="1.0"><bookmark href="https://example.org/"
///     added="2024-01-02T03:04:05Z"><title>Example</title></bookmark><separator/></xbel>"#;
/// let doc = read(xbel, format("xbel").unwrap(), &ReadOptions::default()).unwrap().document;
/// let trip = roundtrip(&doc, format("xfolk").unwrap(), &WriteOptions::default()).unwrap();
/// assert!(trip.exact());
/// assert!(trip.loss.fields().contains(&markport::Field::Separator));
/// ```
pub fn roundtrip(doc: &Document, via: &Format, opts: &WriteOptions) -> Result<Roundtrip, Error> {
    let (loss, back) = match via.directory() {
        // A tree goes out into a private directory and is read back by path.
        Some(tree) => {
            let private = files::private::PrivateDir::new().map_err(Error::io)?;
            let dir = private.path().join("tree");
            let (loss, staged) = (tree.stage)(doc, opts, &dir)?;
            staged
                .swap()
                .and_then(|old| old.clean())
                .map_err(|e| Error::new(ErrorKind::Io, e.to_string(), None))?;
            let read_path = via.path_reader.expect("a directory format reads by path");
            (loss, read_path(&dir, &ReadOptions::default()))
        }
        None => {
            let (bytes, loss) = write_to_vec(doc, via, opts)?;
            (loss, read(&bytes, via, &ReadOptions::default()))
        }
    };
    let back = back.map_err(|e| {
        Error::new(
            e.kind,
            format!("reading back the {} output: {}", via.name, e.message),
            e.location,
        )
    })?;
    let diff = diff(doc, &back.document);
    Ok(Roundtrip {
        loss,
        diff,
        back: back.document,
    })
}

/// The write options for an output file: its extension can ask for a
/// form of the format (`.jsonlz4`, `.baklz4` and `.mozlz4`: Firefox's
/// compressed backups).
///
/// Each format's rule ([`Format::write_options_for_extension`]) is applied.
///
/// ```
/// use std::path::Path;
/// # #[cfg(feature = "firefox")] {
/// let opts = markport::options_for_path(Default::default(), Some(Path::new("backup.jsonlz4")));
/// assert!(opts.firefox.compress);
/// let opts = markport::options_for_path(Default::default(), Some(Path::new("bookmarks.json")));
/// assert!(!opts.firefox.compress);
/// # }
/// ```
pub fn options_for_path(mut opts: WriteOptions, path: Option<&std::path::Path>) -> WriteOptions {
    if let Some(ext) = path.and_then(|p| p.extension()).and_then(|e| e.to_str()) {
        for f in FORMATS {
            (f.write_options_for_extension)(ext, &mut opts);
        }
    }
    opts
}
