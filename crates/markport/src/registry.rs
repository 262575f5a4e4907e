//! The formats markport knows. A format joins by adding one entry to
//! [`FORMATS`]; the CLI, the loss matrix and the conformance tests pick it up.

use std::io::Write;

use markport_model::{
    Document, Error, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

/// A reader: bytes in, document and diagnostics out.
pub type ReadFn = fn(&[u8], &ReadOptions) -> Result<Parsed, Error>;
/// A writer: document in, bytes out, and what could not be carried.
pub type WriteFn = fn(&Document, &WriteOptions, &mut dyn Write) -> Result<LossReport, Error>;

/// One format: its names, how to recognise it, read it and write it.
///
/// ```
/// use markport::{format, Field, Support};
///
/// let netscape = format("netscape").unwrap();
/// assert!(netscape.extensions.contains(&"html"));
/// assert_eq!((netscape.support)(Field::BookmarkHref), Support::Full);
/// assert!(matches!((netscape.support)(Field::BookmarkTags), Support::Partial(_)));
/// assert_eq!((format("xfolk").unwrap().support)(Field::Separator), Support::None);
/// ```
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Format {
    /// The name used by `--from` and `--to`.
    pub name: &'static str,
    /// A one-line description.
    pub description: &'static str,
    /// File extensions (without the dot) that suggest this format.
    pub extensions: &'static [&'static str],
    /// How sure (0..=100) the format is that the bytes are its own; `None` if not.
    pub detect: fn(&[u8]) -> Option<u8>,
    /// The reader.
    pub read: ReadFn,
    /// The writer.
    pub write: WriteFn,
    /// How well the writer carries each field (the loss matrix).
    pub support: fn(Field) -> Support,
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Format").field("name", &self.name).finish()
    }
}

/// Every registered format. Detection asks them in this order and keeps the
/// most confident; on a tie the earlier one wins (dialects before their base).
pub static FORMATS: &[Format] = &[
    Format {
        name: "desktop",
        description: "freedesktop desktop bookmarks (recently-used.xbel), GLib's layout",
        extensions: &[],
        detect: markport_desktop::detect,
        read: markport_desktop::read,
        write: markport_desktop::write,
        support: markport_desktop::support,
    },
    Format {
        name: "xbel",
        description: "XBEL 1.0, the XML Bookmark Exchange Language (lossless hub)",
        extensions: &["xbel"],
        detect: markport_xbel::detect,
        read: markport_xbel::read,
        write: markport_xbel::write,
        support: markport_xbel::support,
    },
    Format {
        name: "netscape",
        description:
            "Netscape bookmark HTML, every browser's export (Pinboard/Delicious extensions)",
        extensions: &["html", "htm"],
        detect: markport_netscape::detect,
        read: markport_netscape::read,
        write: markport_netscape::write,
        support: markport_netscape::support,
    },
    Format {
        name: "xfolk",
        description: "xFolk microformat pages: read from any page, publish a page people use",
        extensions: &["html", "htm"],
        detect: markport_xfolk::detect,
        read: markport_xfolk::read,
        write: markport_xfolk::write,
        support: markport_xfolk::support,
    },
    Format {
        name: "chromium",
        description: "Chromium's Bookmarks file (Chrome, Edge, Brave, Vivaldi, Opera)",
        extensions: &[],
        detect: markport_chromium::detect,
        read: markport_chromium::read,
        write: markport_chromium::write,
        support: markport_chromium::support,
    },
    Format {
        name: "json",
        description: "markport's JSON form of the model (lossless, for scripts)",
        extensions: &["json"],
        detect: crate::json::detect,
        read: crate::json::read,
        write: crate::json::write,
        support: crate::json::support,
    },
];

/// The format named `name` (case-insensitive).
///
/// ```
/// assert_eq!(markport::format("XBEL").unwrap().name, "xbel");
/// assert!(markport::format("rtf").is_none());
/// ```
pub fn format(name: &str) -> Option<&'static Format> {
    FORMATS.iter().find(|f| f.name.eq_ignore_ascii_case(name))
}

/// The formats whose extensions include `ext` (case-insensitive).
pub fn formats_for_extension(ext: &str) -> Vec<&'static Format> {
    FORMATS
        .iter()
        .filter(|f| f.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
        .collect()
}

/// The format the bytes most likely are.
///
/// ```
/// let html = b"<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><DT><A HREF=\"x\">x</A></DL>";
/// assert_eq!(markport::detect(html).unwrap().name, "netscape");
/// assert!(markport::detect(b"plain words").is_none());
/// ```
pub fn detect(input: &[u8]) -> Option<&'static Format> {
    let mut best: Option<(&'static Format, u8)> = None;
    for f in FORMATS {
        if let Some(score) = (f.detect)(input) {
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((f, score));
            }
        }
    }
    best.map(|(f, _)| f)
}

/// The names of every format, comma-separated, for messages.
pub fn names() -> String {
    FORMATS
        .iter()
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}
