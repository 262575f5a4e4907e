//! The formats markport knows. A format joins by adding one entry to
//! [`FORMATS`]; the CLI, the loss matrix and the conformance tests pick it up.

use markport_model::{Document, Error, ErrorKind, FormatDef, LossReport, WriteFn, WriteOptions};

use crate::FORMATS;

/// A writer of a directory tree: `doc` written into a staging directory
/// beside the directory named (checked, not touched), with what the tree
/// cannot carry; the caller swaps the staged tree in, or abandons it.
pub type StageDirFn = fn(
    &Document,
    &WriteOptions,
    &std::path::Path,
) -> Result<(LossReport, markport_files::tree::Staged), Error>;

/// One format: its names, how to recognise it, read it and write it. It
/// is the declaration its crate makes ([`FormatDef`], whose fields it
/// shows through `Deref`), with what only the registry knows: the
/// directory writer, and the writable formats an error names.
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
pub struct Format {
    def: FormatDef,
}

impl std::ops::Deref for Format {
    type Target = FormatDef;

    fn deref(&self) -> &FormatDef {
        &self.def
    }
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

impl Format {
    /// The registry's row of a format its crate declares
    /// (`markport_xbel::FORMAT`): the one list in `lib.rs` makes
    /// [`FORMATS`] of these.
    pub const fn of(def: FormatDef) -> Format {
        Format { def }
    }
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Format").field("name", &self.name).finish()
    }
}

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
    let zip = markport_files::archive::is_zip(input);
    let mut best: Option<(&'static Format, u8)> = None;
    for f in FORMATS.iter().filter(|f| f.reads_zip || !zip) {
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
    use markport_model::{Field, Parsed, ReadOptions, Support};

    fn no_read(_: &[u8], _: &ReadOptions) -> Result<Parsed, Error> {
        Err(Error::new(ErrorKind::Syntax, "never", None))
    }

    #[test]
    fn the_registry_lists_exactly_the_formats_compiled_in() {
        let expected = [
            ("desktop", cfg!(feature = "desktop")),
            ("xbel", cfg!(feature = "xbel")),
            ("netscape", cfg!(feature = "netscape")),
            ("google", cfg!(feature = "netscape")),
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
            ("linkwarden", cfg!(feature = "services")),
            ("karakeep", cfg!(feature = "services")),
            ("wallabag", cfg!(feature = "services")),
            ("omnivore", cfg!(feature = "services")),
            ("shaarli", cfg!(feature = "services")),
            ("delicious", cfg!(feature = "services")),
            ("safari", cfg!(feature = "safari")),
            ("csv", cfg!(feature = "lists")),
            ("urls", cfg!(feature = "lists")),
            ("favorites", cfg!(feature = "favorites")),
            ("arc", cfg!(feature = "arc")),
            ("edge", cfg!(feature = "edge")),
            ("zen", cfg!(feature = "zen")),
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

    /// The crate's Cargo features are the list's: each a feature of its
    /// own that turns on its crate alone, every one in `default`.
    #[test]
    fn the_cargo_features_are_the_list_of_formats() {
        let manifest = include_str!("../Cargo.toml");
        let features = manifest
            .split("[features]")
            .nth(1)
            .and_then(|f| f.split("\n[").next())
            .unwrap();
        let default = features
            .split("default = [")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap();
        for feature in crate::FEATURES {
            let line = format!("\n{feature} = [\"dep:markport-{feature}\"]");
            assert!(
                features.contains(&line),
                "crates/markport/Cargo.toml needs `{feature} = [\"dep:markport-{feature}\"]`"
            );
            assert!(
                default.contains(&format!("\"{feature}\"")),
                "{feature} is not in default"
            );
        }
        let mut declared = features
            .lines()
            .filter_map(|l| l.split_once(" = [\"dep:markport-"))
            .map(|(name, _)| name.trim())
            .filter(|name| *name != "publish")
            .collect::<Vec<_>>();
        let mut listed = crate::FEATURES.to_vec();
        declared.sort_unstable();
        listed.sort_unstable();
        assert_eq!(declared, listed, "a format feature the list does not name");
    }

    /// A ZIP is opened as a ZIP whatever the compression of its entries:
    /// Safari's export stored without compression holds a Netscape page as
    /// plain text, which must not make the archive a Netscape page, and an
    /// archive of no export is no format, never HTML.
    #[cfg(all(feature = "safari", feature = "netscape"))]
    #[test]
    fn a_zip_is_detected_by_its_entries_whatever_their_compression() {
        use std::io::Write;
        let page =
            b"<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p><DT><A HREF=\"https://e/\">e</A></DL>\n";
        let history = br#"{"history": "<DT><A HREF=\"https://history.example/\">h</A>"}"#;
        for method in [
            zip::CompressionMethod::Stored,
            zip::CompressionMethod::Deflated,
        ] {
            let build = |entries: &[(&str, &[u8])]| {
                let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
                let options = zip::write::SimpleFileOptions::default().compression_method(method);
                for (name, data) in entries {
                    zip.start_file(*name, options).unwrap();
                    zip.write_all(data).unwrap();
                }
                zip.finish().unwrap().into_inner()
            };
            let export = build(&[("Bookmarks.html", page), ("History.json", history)]);
            assert_eq!(
                detect(&export).map(|f| f.name),
                Some("safari"),
                "{method:?}"
            );
            let other = build(&[("notes/page.html", page)]);
            assert_eq!(detect(&other).map(|f| f.name), None, "{method:?}");
        }
    }

    #[test]
    fn a_read_only_format_has_no_writer_and_says_which_formats_write() {
        let store = Format::of(FormatDef::reader(
            "store",
            "a read-only test format",
            &[],
            |_| None,
            no_read,
        ));
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
        assert!(Field::ALL
            .iter()
            .all(|f| (store.support)(*f) == Support::None));
    }
}
