//! # markport-lists
//!
//! The two plainest forms a bookmark collection takes, read and written for
//! markport:
//!
//! - [`csv`]: any CSV file whose header names a link column (`url`, `link`
//!   or `href`). The other columns are found by their header names (title,
//!   tags, description, folder path, created, private, to read ...), a column
//!   it does not know is kept with each bookmark (`bookmark.extra`), and the
//!   writer gives one row per bookmark with its folder path and tags.
//! - [`urls`]: one URL per line with an optional title after it (OneTab's
//!   `url | title` too), `#` comments and blank lines skipped.
//!
//! Both writers report exactly what they lose: each reads its own output
//! back and reports every field that did not come back the same
//! (`LossReport`), so the report is true by construction.
//!
//! ```
//! use markport_model::{ReadOptions, WriteOptions};
//!
//! let csv = b"Link,Name,Labels,Collection\nhttps://www.rust-lang.org/,Rust,lang|systems,Dev/Rust\n";
//! assert!(markport_lists::csv::detect(csv).is_some());
//! let doc = markport_lists::csv::read(csv, &ReadOptions::default()).unwrap().document;
//! let census = doc.census();
//! assert_eq!((census.bookmarks, census.folders), (1, 2));
//!
//! let mut out = Vec::new();
//! let loss = markport_lists::urls::write(&doc, &WriteOptions::default(), &mut out).unwrap();
//! assert_eq!(out, b"https://www.rust-lang.org/ Rust\n");
//! // A URL list is flat and has no tags: both are reported.
//! let lost: Vec<&str> = loss.fields().iter().map(|f| f.name()).collect();
//! assert!(lost.contains(&"folder") && lost.contains(&"bookmark.tags"));
//! ```
#![warn(missing_docs)]

pub mod csv;
pub mod urls;

mod verify;

use std::borrow::Cow;

use markport_model::{Diagnostic, LineIndex, Location};

/// Bytes as UTF-8 text without a byte-order mark, borrowed when they are
/// valid; invalid sequences are replaced and said once.
fn text<'a>(input: &'a [u8], diags: &mut Vec<Diagnostic>) -> Cow<'a, str> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let text = String::from_utf8_lossy(input);
    if let Cow::Owned(_) = text {
        diags.push(Diagnostic::warning(
            "the file is not valid UTF-8: invalid bytes read as U+FFFD",
            None,
        ));
    }
    text
}

/// Whether `s` starts with a URI scheme (`[A-Za-z][A-Za-z0-9+.-]*:`),
/// followed by `//` or one of the schemes bookmarks use without it.
fn has_scheme(s: &str) -> bool {
    let b = s.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let Some(colon) = b
        .iter()
        .take(33)
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-')))
    else {
        return false;
    };
    if b[colon] != b':' {
        return false;
    }
    let scheme = &s[..colon];
    b[colon + 1..].starts_with(b"//")
        || [
            "mailto",
            "javascript",
            "data",
            "about",
            "place",
            "urn",
            "tel",
            "news",
        ]
        .iter()
        .any(|k| scheme.eq_ignore_ascii_case(k))
}

/// A [`LineIndex`] of the text, made on first use.
pub(crate) struct Lazy<'a> {
    text: &'a str,
    index: std::cell::OnceCell<LineIndex<'a>>,
}

impl<'a> Lazy<'a> {
    pub(crate) fn new(text: &'a str) -> Lazy<'a> {
        Lazy {
            text,
            index: std::cell::OnceCell::new(),
        }
    }

    pub(crate) fn locate(&self, offset: usize) -> Location {
        self.index
            .get_or_init(|| LineIndex::new(self.text.as_bytes()))
            .locate(offset)
    }
}
