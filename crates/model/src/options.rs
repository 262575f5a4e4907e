//! Options readers and writers take: what every format reads at the top,
//! and each format's own options in a group named after it.
//!
//! The structs are `#[non_exhaustive]`: start from `default()` and set
//! fields, so a new option is not a breaking change.
//!
//! ```
//! use markport_model::{ReadOptions, WriteOptions};
//!
//! let mut read = ReadOptions::default();
//! read.strict = true;
//! read.xfolk.base_url = Some("https://example.org/links/".into());
//!
//! let mut write = WriteOptions::default();
//! write.xbel.strict = true;
//! write.xfolk.tag_base = Some("https://example.org/tags/".into());
//! assert!(!write.xfolk.include_private);
//! ```

/// How to read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Turn the first warning diagnostic into an error
    /// ([`ErrorKind::Strict`](crate::ErrorKind::Strict)); every reader honours
    /// it through [`Parsed::enforce`](crate::Parsed::enforce).
    pub strict: bool,
    /// Find every rule of the format's [`rules`](crate::FormatDef::rules)
    /// the input breaks, each diagnostic tagged with its id, and go on past
    /// a problem wherever the format allows (`markport check` sets it).
    /// Off, a reader says only what changes how it reads.
    pub checking: bool,
    /// Decode the input with this encoding label instead of detecting it
    /// (the HTML formats: Netscape, xFolk).
    pub encoding: Option<String>,
    /// xFolk's options.
    pub xfolk: XfolkReadOptions,
    /// Generic CSV's options.
    pub csv: CsvReadOptions,
    /// The most bytes of memory the document a reader builds may take
    /// (the command's `--memory-budget`); `None`: twice the bytes read plus
    /// [`DEFAULT_ALLOWANCE`](crate::budget::DEFAULT_ALLOWANCE). Readers
    /// whose input can be shaped to make them copy keep it (see
    /// [`Budget`](crate::Budget)).
    pub memory_budget: Option<u64>,
    /// With [`checking`](Self::checking): report a known writer's habit
    /// that readers accept (Floccus' numeric ids, KDE's titled separators,
    /// Safari's top-level folders outside every list, Shaarli's links with no
    /// list) element by element under the format's letter, instead of once as a
    /// warning naming the writer (`markport check --strict`).
    pub letter: bool,
    /// Arc's options.
    pub arc: ArcReadOptions,
    /// The moment past which reading stops with
    /// [`ErrorKind::Cancelled`](crate::ErrorKind::Cancelled) (`markport
    /// serve --time-limit`: a conversion answered at its limit stops too,
    /// and gives back its memory). Checked wherever a reader charges its
    /// [`Budget`](crate::Budget), at each node or token it keeps, and by
    /// the pipeline between its stages; `None`: no deadline.
    pub deadline: Option<std::time::Instant>,
}

impl ReadOptions {
    /// An error of kind [`ErrorKind::Cancelled`](crate::ErrorKind::Cancelled)
    /// once [`deadline`](Self::deadline) has passed.
    ///
    /// ```
    /// use markport_model::{ErrorKind, ReadOptions};
    ///
    /// let mut opts = ReadOptions::default();
    /// assert!(opts.check_deadline().is_ok());
    /// opts.deadline = Some(std::time::Instant::now());
    /// assert_eq!(opts.check_deadline().unwrap_err().kind, ErrorKind::Cancelled);
    /// ```
    pub fn check_deadline(&self) -> Result<(), crate::Error> {
        past(self.deadline)
    }
}

/// [`ReadOptions::check_deadline`] for a deadline kept apart from its
/// options (a [`Budget`](crate::Budget)'s).
pub(crate) fn past(deadline: Option<std::time::Instant>) -> Result<(), crate::Error> {
    match deadline {
        Some(d) if std::time::Instant::now() >= d => Err(crate::Error::new(
            crate::ErrorKind::Cancelled,
            "stopped: the time allowed for this work has passed",
            None,
        )),
        _ => Ok(()),
    }
}

/// How to read Arc's sidebar (`StorableSidebar.json`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArcReadOptions {
    /// Keep each space's unpinned "Today" tabs, in a folder `Today` inside
    /// the space's folder (`--arc-today`), instead of counting them in a
    /// note: Arc closes them after a while, so by default they are not
    /// taken for bookmarks.
    pub keep_today: bool,
}

/// How to read a generic CSV file (`--from csv`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CsvReadOptions {
    /// `(field, column)` pairs that override the columns found by header
    /// name (`--csv-map url=Link,title=Name`): the field names are those of
    /// docs/formats/csv.md, the column names are matched as the header has
    /// them (ASCII case-insensitive, trimmed).
    pub map: Vec<(String, String)>,
    /// Say, as notes, which column became which field (`--verbose`).
    pub explain: bool,
}

/// How to read xFolk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct XfolkReadOptions {
    /// The address the page was published at, for resolving relative links.
    pub base_url: Option<String>,
}

/// How to write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {
    /// XBEL's options.
    pub xbel: XbelWriteOptions,
    /// Desktop bookmarks' options.
    pub desktop: DesktopWriteOptions,
    /// xFolk's options.
    pub xfolk: XfolkWriteOptions,
    /// Firefox backups' options.
    pub firefox: FirefoxWriteOptions,
}

/// How to write a Firefox bookmark backup.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FirefoxWriteOptions {
    /// Write the compressed form Firefox keeps its automatic backups in
    /// (`.jsonlz4`: `mozLz40\0`, the size, one LZ4 block) instead of plain JSON.
    pub compress: bool,
}

/// How to write XBEL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct XbelWriteOptions {
    /// Leave out markport's metadata block so the output validates against
    /// the XBEL 1.0 DTD (what only that block carries is reported lost).
    pub strict: bool,
}

/// How to write desktop bookmarks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DesktopWriteOptions {
    /// The application name to register bookmarks that have none under.
    pub app_name: Option<String>,
    /// The command line of that application (`%u`, `%f`).
    pub app_exec: Option<String>,
}

/// How to write an xFolk page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct XfolkWriteOptions {
    /// Publish private bookmarks too.
    pub include_private: bool,
    /// Publish `javascript:`, `data:` and `vbscript:` links as live links.
    pub allow_script_urls: bool,
    /// publish links only a browser understands (its own pages and local
    /// files: `chrome:`, `edge:`, `about:`, `file:`, ...; Firefox `place:`
    /// queries; `%s` keyword-search templates) as live links.
    pub allow_browser_urls: bool,
    /// the address tag links point under.
    pub tag_base: Option<String>,
}
