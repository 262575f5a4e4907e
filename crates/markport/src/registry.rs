//! The formats markport knows. A format joins by adding one entry to
//! [`FORMATS`]; the CLI, the loss matrix and the conformance tests pick it up.

use std::io::Write;

use markport_model::{
    Document, Error, ErrorKind, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

/// A reader: bytes in, document and diagnostics out.
pub type ReadFn = fn(&[u8], &ReadOptions) -> Result<Parsed, Error>;
/// A reader of a file by its path, for a format whose file has companions
/// the bytes cannot carry (places.sqlite's `-wal`).
pub type PathReadFn = fn(&std::path::Path, &ReadOptions) -> Result<Parsed, Error>;
/// A writer of a directory tree: `doc` written into a staging directory
/// beside the directory named (checked, not touched), with what the tree
/// cannot carry; the caller swaps the staged tree in, or abandons it.
pub type StageDirFn = fn(
    &Document,
    &WriteOptions,
    &std::path::Path,
) -> Result<(LossReport, markport_files::tree::Staged), Error>;
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
    /// The path reader: reads the file at a path, used instead of `read`
    /// when the input is a regular file (places.sqlite with its `-wal`):
    /// `None` for every format whose bytes are the whole story.
    pub path_reader: Option<PathReadFn>,
    /// What an output file's extension (without the dot) asks of the write
    /// options: Firefox's `.jsonlz4` asks for its compressed form. Every
    /// format's rule is applied to every output path
    /// ([`options_for_path`](crate::options_for_path)), so only the registry
    /// knows which extensions mean something.
    pub write_options_for_extension: fn(&str, &mut WriteOptions),
    /// Whether what the writer makes with these options is binary, not
    /// text (Firefox's compressed `.jsonlz4`): [`text_output`] for every
    /// format whose output is always text.
    pub binary_output: fn(&WriteOptions) -> bool,
    /// The writer; `None` for a format markport only reads (a browser's
    /// database, a service's export). Use [`Format::writer`] to get it with
    /// an error that names the writable formats.
    pub write: Option<WriteFn>,
    /// How well the writer carries each field (the loss matrix). Asked only
    /// when there is a writer.
    pub support: fn(Field) -> Support,
}

/// A format whose collection is a directory of files rather than one
/// file: how to recognise such a directory and how to write one. Its
/// [`Format`] row (same name) reads it by path (`read_path`) and gives its
/// `support`; its stream `write` only says that it needs a directory.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct DirectoryFormat {
    /// The name of its [`Format`] row.
    pub name: &'static str,
    /// How sure (0..=100) the format is that the directory is its own.
    pub detect: fn(&std::path::Path) -> Option<u8>,
    /// The writer of the tree.
    pub stage: StageDirFn,
}

/// The formats whose collection is a directory.
pub static DIRECTORY_FORMATS: &[DirectoryFormat] = &[
    #[cfg(feature = "favorites")]
    DirectoryFormat {
        name: "favorites",
        detect: markport_favorites::detect_dir,
        stage: markport_favorites::stage,
    },
];

impl Format {
    /// The directory form of this format, when its collection is a
    /// directory of files (`favorites`).
    ///
    /// ```
    /// assert!(markport::format("favorites").unwrap().directory().is_some());
    /// assert!(markport::format("xbel").unwrap().directory().is_none());
    /// ```
    pub fn directory(&self) -> Option<&'static DirectoryFormat> {
        DIRECTORY_FORMATS.iter().find(|d| d.name == self.name)
    }

    /// Whether markport writes this format.
    pub fn writable(&self) -> bool {
        self.write.is_some()
    }

    /// Whether what the writer makes with `opts` is binary, not text
    /// (Firefox's compressed `.jsonlz4`): the command line refuses to
    /// write it to a terminal.
    ///
    /// ```
    /// let firefox = markport::format("firefox").unwrap();
    /// let mut opts = markport::WriteOptions::default();
    /// assert!(!firefox.writes_binary(&opts));
    /// opts.firefox.compress = true;
    /// assert!(firefox.writes_binary(&opts));
    /// ```
    pub fn writes_binary(&self, opts: &WriteOptions) -> bool {
        (self.binary_output)(opts)
    }

    /// The writer, or an error saying the format is read only and which
    /// formats markport writes.
    ///
    /// ```
    /// let xbel = markport::format("xbel").unwrap();
    /// assert!(xbel.writer().is_ok());
    /// ```
    pub fn writer(&self) -> Result<WriteFn, Error> {
        self.write.ok_or_else(|| {
            Error::new(
                ErrorKind::WrongFormat,
                format!(
                    "{} is read only; markport writes: {}",
                    self.name,
                    writable_names()
                ),
                None,
            )
        })
    }
}

/// The extension rule of a format whose extensions ask nothing of the
/// write options.
pub fn no_write_options(_: &str, _: &mut WriteOptions) {}

/// The `binary_output` of a format whose writer always writes text.
pub fn text_output(_: &WriteOptions) -> bool {
    false
}

/// What a read-only format's `support` says of every field: it has no
/// writer, so nothing is carried.
pub fn read_only(_: Field) -> Support {
    Support::None
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Format").field("name", &self.name).finish()
    }
}

/// Every registered format. Detection asks them in this order and keeps the
/// most confident; on a tie the earlier one wins (dialects before their base).
pub static FORMATS: &[Format] = &[
    #[cfg(feature = "desktop")]
    Format {
        name: "desktop",
        description: "freedesktop desktop bookmarks (recently-used.xbel), GLib's layout",
        extensions: &[],
        detect: markport_desktop::detect,
        read: markport_desktop::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(markport_desktop::write),
        support: markport_desktop::support,
    },
    #[cfg(feature = "xbel")]
    Format {
        name: "xbel",
        description: "XBEL 1.0, the XML Bookmark Exchange Language (lossless hub)",
        extensions: &["xbel"],
        detect: markport_xbel::detect,
        read: markport_xbel::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(markport_xbel::write),
        support: markport_xbel::support,
    },
    #[cfg(feature = "netscape")]
    Format {
        name: "netscape",
        description:
            "Netscape bookmark HTML, every browser's export (Pinboard/Delicious extensions)",
        extensions: &["html", "htm"],
        detect: markport_netscape::detect,
        read: markport_netscape::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(markport_netscape::write),
        support: markport_netscape::support,
    },
    #[cfg(feature = "xfolk")]
    Format {
        name: "xfolk",
        description: "xFolk microformat pages: read from any page, publish a page people use",
        extensions: &["html", "htm"],
        detect: markport_xfolk::detect,
        read: markport_xfolk::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(markport_xfolk::write),
        support: markport_xfolk::support,
    },
    #[cfg(feature = "firefox")]
    Format {
        name: "firefox",
        description: "Firefox bookmark backups: JSON (bookmarks-*.json) and .jsonlz4/.baklz4",
        extensions: &["jsonlz4", "baklz4", "mozlz4"],
        detect: markport_firefox::detect,
        read: markport_firefox::read,
        path_reader: None,
        write_options_for_extension: markport_firefox::write_options_for_extension,
        binary_output: markport_firefox::writes_binary,
        write: Some(markport_firefox::write),
        support: markport_firefox::support,
    },
    #[cfg(feature = "chromium")]
    Format {
        name: "chromium",
        description: "Chromium's Bookmarks file (Chrome, Edge, Brave, Vivaldi, Opera)",
        extensions: &[],
        detect: markport_chromium::detect,
        read: markport_chromium::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(markport_chromium::write),
        support: markport_chromium::support,
    },
    Format {
        name: "json",
        description: "markport's JSON form of the model (lossless, for scripts)",
        extensions: &["json"],
        detect: crate::json::detect,
        read: crate::json::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(crate::json::write),
        support: crate::json::support,
    },
    #[cfg(feature = "places")]
    Format {
        name: "places",
        description: "Firefox's places.sqlite, read in place without touching the profile",
        extensions: &["sqlite"],
        detect: markport_places::detect,
        read: markport_places::read,
        path_reader: Some(markport_places::read_path),
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "buku")]
    Format {
        name: "buku",
        description: "buku's bookmarks.db (SQLite), read in place without touching it",
        extensions: &["db"],
        detect: markport_buku::detect,
        read: markport_buku::read,
        path_reader: Some(markport_buku::read_path),
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "services")]
    Format {
        name: "pocket",
        description:
            "Pocket's export: its ZIP of part_*.csv, one CSV part, or ril_export.html; statuses as folders",
        extensions: &[],
        detect: markport_services::pocket::detect,
        read: markport_services::pocket::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "services")]
    Format {
        name: "pinboard",
        description: "Pinboard's JSON export (posts/all)",
        extensions: &[],
        detect: markport_services::pinboard::detect,
        read: markport_services::pinboard::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "services")]
    Format {
        name: "instapaper",
        description: "Instapaper's CSV export, every generation; folder paths as folders",
        extensions: &[],
        detect: markport_services::instapaper::detect,
        read: markport_services::instapaper::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "services")]
    Format {
        name: "raindrop",
        description: "Raindrop.io's CSV export; collection paths as folders (its HTML is netscape)",
        extensions: &[],
        detect: markport_services::raindrop::detect,
        read: markport_services::raindrop::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "safari")]
    Format {
        name: "safari",
        description:
            "Safari's Bookmarks.plist (binary or XML) or exported ZIP; the Reading List as a folder",
        extensions: &["plist"],
        detect: markport_safari::detect,
        read: markport_safari::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "services")]
    Format {
        name: "linkwarden",
        description: "Linkwarden's JSON export; collections as folders",
        extensions: &[],
        detect: markport_services::linkwarden::detect,
        read: markport_services::linkwarden::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "services")]
    Format {
        name: "karakeep",
        description: "Karakeep's (Hoarder's) JSON export; lists as folders",
        extensions: &[],
        detect: markport_services::karakeep::detect,
        read: markport_services::karakeep::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "services")]
    Format {
        name: "wallabag",
        description: "wallabag's JSON export of entries",
        extensions: &[],
        detect: markport_services::wallabag::detect,
        read: markport_services::wallabag::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "services")]
    Format {
        name: "omnivore",
        description: "Omnivore's export: its ZIP (highlights as descriptions), or one metadata_*.json file",
        extensions: &[],
        detect: markport_services::omnivore::detect,
        read: markport_services::omnivore::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: None,
        support: read_only,
    },
    #[cfg(feature = "lists")]
    Format {
        name: "csv",
        description: "any CSV of bookmarks: columns found by header name; one row per bookmark",
        extensions: &["csv"],
        detect: markport_lists::csv::detect,
        read: markport_lists::csv::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(markport_lists::csv::write),
        support: markport_lists::csv::support,
    },
    #[cfg(feature = "lists")]
    Format {
        name: "urls",
        description: "a plain list of URLs, one per line with an optional title (OneTab too)",
        extensions: &["txt", "urls"],
        detect: markport_lists::urls::detect,
        read: markport_lists::urls::read,
        path_reader: None,
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(markport_lists::urls::write),
        support: markport_lists::urls::support,
    },
    #[cfg(feature = "favorites")]
    Format {
        name: "favorites",
        description: "Favorites trees: a directory of link files (.url, .webloc, .desktop); written as .url files",
        extensions: &["url", "webloc", "desktop"],
        detect: markport_favorites::detect,
        read: markport_favorites::read,
        path_reader: Some(markport_favorites::read_path),
        write_options_for_extension: no_write_options,
        binary_output: text_output,
        write: Some(markport_favorites::write),
        support: markport_favorites::support,
    },
];

/// Other names people give a format (`-t html`, as pandoc spells it), and
/// the format each one means.
pub static ALIASES: &[(&str, &str)] = &[("html", "netscape")];

/// The format named `name` or one of its [`ALIASES`] (case-insensitive).
///
/// ```
/// assert_eq!(markport::format("XBEL").unwrap().name, "xbel");
/// assert_eq!(markport::format("html").unwrap().name, "netscape");
/// assert!(markport::format("rtf").is_none());
/// ```
pub fn format(name: &str) -> Option<&'static Format> {
    let name = ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
        .map_or(name, |(_, real)| real);
    FORMATS.iter().find(|f| f.name.eq_ignore_ascii_case(name))
}

/// The names a format answers to besides its own.
pub fn aliases_of(format: &Format) -> impl Iterator<Item = &'static str> + '_ {
    ALIASES
        .iter()
        .filter(move |(_, real)| *real == format.name)
        .map(|(alias, _)| *alias)
}

/// The formats markport writes, in registry order.
pub fn writable() -> impl Iterator<Item = &'static Format> {
    FORMATS.iter().filter(|f| f.writable())
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

/// The names of the formats markport writes, comma-separated, for messages.
pub fn writable_names() -> String {
    writable().map(|f| f.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_read(_: &[u8], _: &ReadOptions) -> Result<Parsed, Error> {
        Err(Error::new(ErrorKind::Syntax, "never", None))
    }

    #[test]
    fn the_registry_lists_exactly_the_formats_compiled_in() {
        let expected = [
            ("desktop", cfg!(feature = "desktop")),
            ("xbel", cfg!(feature = "xbel")),
            ("netscape", cfg!(feature = "netscape")),
            ("xfolk", cfg!(feature = "xfolk")),
            ("firefox", cfg!(feature = "firefox")),
            ("chromium", cfg!(feature = "chromium")),
            ("json", true),
            ("places", cfg!(feature = "places")),
            ("buku", cfg!(feature = "buku")),
            ("pocket", cfg!(feature = "services")),
            ("pinboard", cfg!(feature = "services")),
            ("instapaper", cfg!(feature = "services")),
            ("raindrop", cfg!(feature = "services")),
            ("safari", cfg!(feature = "safari")),
            ("linkwarden", cfg!(feature = "services")),
            ("karakeep", cfg!(feature = "services")),
            ("wallabag", cfg!(feature = "services")),
            ("omnivore", cfg!(feature = "services")),
            ("csv", cfg!(feature = "lists")),
            ("urls", cfg!(feature = "lists")),
            ("favorites", cfg!(feature = "favorites")),
        ];
        for (name, built) in expected {
            assert_eq!(format(name).is_some(), built, "{name}");
        }
        let listed: Vec<_> = expected.iter().filter(|e| e.1).map(|e| e.0).collect();
        assert_eq!(FORMATS.iter().map(|f| f.name).collect::<Vec<_>>(), listed);
        // Detection and extensions see only what is built.
        assert_eq!(
            formats_for_extension("sqlite").len(),
            usize::from(cfg!(feature = "places"))
        );
    }

    #[test]
    fn a_read_only_format_has_no_writer_and_says_which_formats_write() {
        let store = Format {
            name: "store",
            description: "a read-only test format",
            extensions: &[],
            detect: |_| None,
            read: no_read,
            path_reader: None,
            write_options_for_extension: no_write_options,
            binary_output: text_output,
            write: None,
            support: read_only,
        };
        assert!(!store.writable());
        let err = store.writer().unwrap_err();
        assert_eq!(err.kind, ErrorKind::WrongFormat);
        assert!(
            err.message
                .starts_with("store is read only; markport writes: ")
                && err.message.contains("xbel")
                && err.message.contains("json"),
            "{}",
            err.message
        );
        assert!(Field::ALL.iter().all(|f| read_only(*f) == Support::None));
    }
}
