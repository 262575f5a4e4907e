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
//! [`run`] is the one pipeline: every subcommand of the `markport` command
//! that reads and writes (`convert`, `merge`, `publish`, `roundtrip`) is a
//! [`Job`] with its flags mapped onto it, and [`convert`] is the job of one
//! input. [`read`] is the one door to read: a file is given by its path
//! ([`Input::Path`]), so a format whose file has companions (places.sqlite's
//! `-wal`) reads them too; [`read_bytes`] reads bytes of a known format.
//!
//! Programs that migrate collections read into a [`Document`], change its
//! tree, and write it out; [`write_path`] chooses the format and writes the
//! file as the `markport` command does.
//!
//! ```
//! use markport::{read_bytes, format, write_to_vec, Node, ReadOptions, WriteOptions};
//!
//! let html = br#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
//! <DL><DT><H3>Old</H3>
//!   <DL><DT><A HREF="https://example.org/" TAGS="keep">Example</A>
//!       <DT><A HREF="http://dead.example/">Dead</A></DL>
//! </DL>"#;
//! let mut doc = read_bytes(html, format("netscape").unwrap(), &ReadOptions::default())
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

pub mod destination;
#[macro_use]
mod formats;
mod job;
pub mod json;
pub mod matrix;
pub mod ops;
mod paths;
mod plan;
pub mod profiles;
mod read;
mod registry;
pub mod report;
mod report_three;
mod resolve;
pub mod sync;
mod target;
pub mod three_way;
mod values;
mod words;

pub use destination::{destination, destination_names, Destination, DESTINATIONS};
pub use job::{
    choose_output, convert, run, ConvertOptions, Converted, Done, InputRead, Job, JobError,
    Refusal, SiteCounts, Stage, To,
};
/// The file layer: atomic output files, private copies, archives, trees.
pub use markport_files as files;
/// Writing an output file without harming what is there (see `docs/output.md`).
pub use markport_files::output;
pub use markport_markup as markup;
/// The three-way merge of bookmark trees (`merge --base`, `git-merge`, `sync`).
pub use markport_merge3 as merge3;
pub use markport_model as model;
pub use markport_model::{
    diff, diff_listing, Bookmark, Diagnostic, Diff, Difference, Document, Error, ErrorKind, Field,
    Folder, Header, LossReport, Node, NodeId, Parsed, ReadOptions, Separator, Severity, Support,
    WriteOptions,
};
pub use markport_model::{FormatDef, PathReadFn, ReadFn, WriteFn};
pub use paths::write_path;
pub use read::{read, read_bytes, Input, Reading};
pub use registry::{
    aliases_of, detect, format, formats_for_extension, names, writable, writable_names,
    DirectoryFormat, Format, StageDirFn, ALIASES, DIRECTORY_FORMATS,
};

// The one list of formats: each format crate with the feature that builds
// it and the formats it declares, in detection order (on a tie the earlier
// wins: dialects before their base). The re-exports (`markport::xbel`),
// their `cfg`s and `FORMATS` follow from it; `FEATURES` lets a test hold
// the Cargo features to it.
formats! {
    "desktop" => markport_desktop as desktop [markport_desktop::FORMAT]
        "The desktop-bookmark format's own API (and the spec's operations).";
    "xbel" => markport_xbel as xbel [markport_xbel::FORMAT]
        "The XBEL format's own API.";
    "netscape" => markport_netscape as netscape [markport_netscape::FORMAT, markport_netscape::google::FORMAT]
        "The Netscape bookmark HTML format's own API.";
    "xfolk" => markport_xfolk as xfolk [markport_xfolk::FORMAT]
        "The xFolk format's own API.";
    "firefox" => markport_firefox as firefox [markport_firefox::FORMAT]
        "Firefox's bookmark backups' own API (JSON, `.jsonlz4`).";
    "chromium" => markport_chromium as chromium [markport_chromium::FORMAT]
        "Chromium's Bookmarks file's own API (Chrome, Edge, Brave, Vivaldi, Opera).";
    always [json::FORMAT];
    "places" => markport_places as places [markport_places::FORMAT]
        "The places.sqlite format's own API.";
    "buku" => markport_buku as buku [markport_buku::FORMAT]
        "buku's bookmarks.db: its own API.";
    "services" => markport_services as services [
        markport_services::pocket::FORMAT,
        markport_services::pinboard::FORMAT,
        markport_services::instapaper::FORMAT,
        markport_services::raindrop::FORMAT,
        markport_services::linkwarden::FORMAT,
        markport_services::karakeep::FORMAT,
        markport_services::wallabag::FORMAT,
        markport_services::omnivore::FORMAT,
        markport_services::shaarli::FORMAT,
        markport_services::delicious::FORMAT
    ] "The service exports' own API (Pocket, Pinboard, Instapaper, Raindrop, Linkwarden, Karakeep, wallabag, Omnivore, Shaarli, Delicious).";
    "safari" => markport_safari as safari [markport_safari::FORMAT]
        "Safari's Bookmarks.plist and exported ZIP: its own API.";
    "lists" => markport_lists as lists [markport_lists::csv::FORMAT, markport_lists::urls::FORMAT]
        "Generic CSV and plain URL lists.";
    "favorites" => markport_favorites as favorites [markport_favorites::FORMAT]
        "The favorites-tree format's own API (directories of link files).";
    "arc" => markport_arc as arc [markport_arc::FORMAT]
        "Arc's sidebar (StorableSidebar.json): its own API.";
    "edge" => markport_edge as edge [markport_edge::FORMAT]
        "Microsoft Edge Collections (collectionsSQLite): its own API.";
    "zen" => markport_zen as zen [markport_zen::FORMAT]
        "Zen browser sessions (essentials, workspaces' pinned tabs): its own API.";
}
pub use resolve::{resolve_format, Chosen, Resolved};
pub use target::Target;
pub use values::{values, Values};

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
        self.unreported().is_empty() && self.reported_but_kept().is_empty()
    }

    /// Fields that differ but were not reported. A change the writer made
    /// and said (a Floccus file's items numbered above its highest id) is
    /// reported as much as a loss.
    pub fn unreported(&self) -> Vec<Field> {
        let changed: std::collections::BTreeSet<Field> =
            self.loss.changes.iter().map(|c| c.field).collect();
        self.diff
            .fields()
            .difference(&self.loss.fields())
            .filter(|f| !changed.contains(f))
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
/// use markport::{format, read_bytes, roundtrip, ReadOptions, WriteOptions};
///
/// let xbel = br#"<xbel version="1.0"><bookmark href="https://example.org/"
///     added="2024-01-02T03:04:05Z"><title>Example</title></bookmark><separator/></xbel>"#;
/// let doc = read_bytes(xbel, format("xbel").unwrap(), &ReadOptions::default()).unwrap().document;
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
            (loss, read_bytes(&bytes, via, &ReadOptions::default()))
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
