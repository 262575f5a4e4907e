//! # markport-publish
//!
//! Publish a bookmark collection as a static site (`markport publish`):
//! an index, one page per folder (split into numbered pages), one page per
//! tag, an Atom feed, a search index and one stylesheet. Every page is
//! made of the xFolk writer's entries ([`markport_xfolk::entry`]), so it
//! reads as xFolk and as mf2 `h-entry`s, withholds what `--to xfolk`
//! withholds and escapes everything from the collection. The layout and
//! the guarantees are in `docs/publishing.md`.
//!
//! [`build`] makes the files in memory (the same document always gives
//! byte-identical files: no date of publishing anywhere); [`publish`]
//! writes them to a directory as a whole.
//!
//! ```
//! use markport_model::{Bookmark, Document, Folder};
//!
//! let mut doc = Document::new();
//! let rust = doc.push(None, Folder::titled("Rust"));
//! let mut b = Bookmark::new("https://www.rust-lang.org/").with_title("Rust");
//! b.tags = vec!["lang".into()];
//! doc.push(Some(rust), b);
//! let site = markport_publish::build(&doc, &markport_publish::Options::default());
//! let paths: Vec<&str> = site.files.iter().map(|f| f.path.as_str()).collect();
//! assert!(paths.contains(&"f/rust.html") && paths.contains(&"tags/lang/lang/index.html"));
//! ```
#![warn(missing_docs)]

mod feed;
mod pages;
mod slug;

use markport_model::{DateValue, Document, LossReport, Node, NodeId, XfolkWriteOptions};
use markport_xfolk::entry::{shown_title, Entries};

/// The site is written whole, as markup's [`tree`](markport_files::tree) writes a directory.
pub use markport_files::tree::{publish, stage, File, PublishError, Replaced, Staged, MANIFEST};

/// How to publish.
#[derive(Clone, Debug)]
pub struct Options {
    /// How many of the most recently added bookmarks the index and the feed show.
    pub recent: usize,
    /// At most this many entries on one folder or tag page; more make numbered pages.
    pub page_size: usize,
    /// Link tags under this address instead of writing tag pages.
    pub tag_base: Option<String>,
    /// The site's title (default: the collection's, else "Bookmarks").
    pub title: Option<String>,
    /// What entries publish: private bookmarks, script and browser-only
    /// links (`tag_base` here is ignored: see [`Options::tag_base`]).
    pub xfolk: XfolkWriteOptions,
    /// The address the site is served from (`--site-url`): the feed then
    /// links to itself (`rel="self"`) and to the site, and a bookmark's
    /// relative link is made absolute against it. Without it those stay
    /// relative (docs/publishing.md). See [`site_url`] to check one.
    pub site_url: Option<url::Url>,
}

/// `text` as a site's address: an absolute http(s) URL, ending in `/` so
/// that pages resolve under it.
///
/// ```
/// let u = markport_publish::site_url("https://example.org/links").unwrap();
/// assert_eq!(u.as_str(), "https://example.org/links/");
/// assert!(markport_publish::site_url("links/").is_err());
/// ```
pub fn site_url(text: &str) -> Result<url::Url, String> {
    let mut u = url::Url::parse(text).map_err(|e| format!("--site-url {text:?}: {e}"))?;
    if !matches!(u.scheme(), "http" | "https") {
        return Err(format!("--site-url {text:?}: not an http or https address"));
    }
    if !u.path().ends_with('/') {
        let path = format!("{}/", u.path());
        u.set_path(&path);
    }
    Ok(u)
}

impl Default for Options {
    fn default() -> Options {
        Options {
            recent: 50,
            page_size: 500,
            tag_base: None,
            title: None,
            xfolk: XfolkWriteOptions::default(),
            site_url: None,
        }
    }
}

/// How many bookmarks `loss` (a site's or a page's report) says were not
/// published as links because they lead to a browser's own page or a local
/// file ([`markport_xfolk::entry::INTERNAL_SCHEMES`]: `chrome:`, `edge:`,
/// `about:`, `file:`, ...), which `allow_browser_urls` publishes.
///
/// ```
/// use markport_model::{Bookmark, Document};
///
/// let mut doc = Document::new();
/// doc.push(None, Bookmark::new("chrome://settings/").with_title("Settings"));
/// doc.push(None, Bookmark::new("https://example.org/").with_title("Example"));
/// let site = markport_publish::build(&doc, &markport_publish::Options::default());
/// assert_eq!(markport_publish::withheld_internal(&site.loss), 1);
/// assert_eq!(site.bookmarks, 1);
/// ```
pub fn withheld_internal(loss: &LossReport) -> usize {
    loss.losses
        .iter()
        .filter(|e| {
            e.field == markport_model::Field::Bookmark
                && e.reason.starts_with(markport_xfolk::entry::INTERNAL_LINK)
        })
        .map(|e| e.count)
        .sum()
}

/// A site in memory.
#[derive(Debug)]
pub struct Site {
    /// Its files, each path once.
    pub files: Vec<File>,
    /// What the site does not carry or withholds (each bookmark counted once).
    pub loss: LossReport,
    /// Public bookmarks published.
    pub bookmarks: usize,
    /// Folder pages written (numbered pages included).
    pub folder_pages: usize,
    /// Distinct tags.
    pub tags: usize,
}

const STYLE_SITE: &str = include_str!("site.css");
const SCRIPT: &str = include_str!("filter.js");

/// The published bookmarks with an added date, newest first (ties in
/// document order), at most `n`.
fn recent(doc: &Document, entries: Entries<'_>, n: usize) -> Vec<NodeId> {
    let mut dated: Vec<(i64, u32, NodeId)> = doc
        .preorder()
        .filter_map(|id| match doc.node(id) {
            Node::Bookmark(b) if entries.published(id) => match &b.added {
                Some(DateValue::Instant(t)) => Some((t.unix_seconds(), t.subsec_nanos(), id)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    // Stable: equal dates keep document order.
    dated.sort_by_key(|d| std::cmp::Reverse((d.0, d.1)));
    dated.truncate(n);
    dated.into_iter().map(|d| d.2).collect()
}

/// Make the site of `doc` in memory.
pub fn build(doc: &Document, opts: &Options) -> Site {
    let title = opts
        .title
        .as_deref()
        .or(doc.header.title.as_deref())
        .and_then(shown_title)
        .unwrap_or_else(|| "Bookmarks".to_owned());
    let recent = recent(doc, Entries::new(doc, &opts.xfolk), opts.recent);
    let mut built = pages::build(doc, opts, &recent, &title);
    let mut files = built.files;
    files.push(File {
        path: "style.css".into(),
        bytes: format!("{}{STYLE_SITE}", markport_xfolk::entry::STYLE).into_bytes(),
    });
    files.push(File {
        path: "filter.js".into(),
        bytes: SCRIPT.as_bytes().to_vec(),
    });
    files.push(File {
        path: "feed.atom".into(),
        bytes: feed::feed(
            doc,
            &title,
            &recent,
            opts.site_url.as_ref(),
            &mut built.loss,
        )
        .into_bytes(),
    });
    let search = serde_json::json!({ "markport_search": 1, "entries": built.search });
    files.push(File {
        path: "search.json".into(),
        bytes: serde_json::to_vec(&search).expect("the index serialises"),
    });
    Site {
        files,
        loss: built.loss,
        bookmarks: built.bookmarks,
        folder_pages: built.folder_pages,
        tags: built.tags,
    }
}
