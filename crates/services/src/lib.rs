//! Readers for the exports of bookmarking and read-later services people
//! migrate from, each detected by its content: Pocket (its export ZIP, CSV
//! and HTML), Pinboard (JSON), Instapaper (CSV), Raindrop.io (CSV), the
//! managers' JSON exports, Shaarli's `datastore.php` and Delicious' and
//! Pinboard's v1 posts XML.
//! Read only: markport does not write these formats.
//!
//! ```
//! let csv = b"title,url,time_added,tags,status\nRust,https://www.rust-lang.org/,1700000000,lang|systems,unread\n";
//! assert!(markport_services::pocket::detect(csv).is_some());
//! let doc = markport_services::pocket::read(csv, &Default::default()).unwrap().document;
//! assert_eq!(doc.census().bookmarks, 1);
//! ```
#![warn(missing_docs)]

mod annotations;
mod folders;
mod php;
mod record;
mod table;

pub mod delicious;
pub mod instapaper;
pub mod karakeep;
pub mod linkwarden;
pub mod omnivore;
pub mod pinboard;
pub mod pocket;
pub mod raindrop;
pub mod shaarli;
pub mod wallabag;

use std::borrow::Cow;

use markport_files::archive::ArchiveError;
use markport_model::{DateValue, Diagnostic, Error, ErrorKind, LineIndex, Location, Timestamp};

/// The outcome of reading the archive entry `entry`: its diagnostics
/// (`entry_diags`, added to `diags`) and its error, each message led by the
/// entry and the line:col inside it, as a position in the archive itself
/// would say nothing.
fn in_entry<T>(
    entry: &str,
    diags: &mut Vec<Diagnostic>,
    entry_diags: Vec<Diagnostic>,
    read: Result<T, Error>,
) -> Result<T, Error> {
    let lead = |message: &str, at: Option<Location>| match at {
        Some(l) => format!("ZIP entry {entry}:{}:{}: {message}", l.line, l.column),
        None => format!("ZIP entry {entry}: {message}"),
    };
    let led = |mut d: Diagnostic| {
        d.message = lead(&d.message, d.location.take());
        d
    };
    diags.extend(entry_diags.into_iter().map(led));
    // The rule it breaks and what was found before it stay with the
    // error, led by the entry as well.
    read.map_err(|e| {
        let found = e.found.into_iter().map(led).collect();
        let mut error = Error::new(e.kind, lead(&e.message, e.location), None).with_found(found);
        error.rule = e.rule;
        error
    })
}

/// A closure placing an error at byte `at` of the input, unless it has a
/// place of its own (a budget's refusal has none).
fn placed_at<'l>(lines: &'l LineIndex<'_>, at: usize) -> impl FnOnce(Error) -> Error + 'l {
    move |mut e| {
        e.location.get_or_insert_with(|| lines.locate(at));
        e
    }
}

/// Up to five of `names`, comma-separated: enough for a message to point
/// at, however many there are.
fn first_names(names: &[&str]) -> String {
    names.iter().take(5).copied().collect::<Vec<_>>().join(", ")
}

/// One warning naming (up to five of) the entries of an archive that were
/// not read, each `not_what` the reader reads; none when all were read.
fn not_read(unread: &[&str], not_what: &str) -> Option<Diagnostic> {
    if unread.is_empty() {
        return None;
    }
    Some(Diagnostic::warning(
        format!(
            "{} ZIP entr{} not read ({not_what}): {}",
            unread.len(),
            if unread.len() == 1 { "y" } else { "ies" },
            first_names(unread)
        ),
        None,
    ))
}

/// An archive refused (as it opens, or an entry as it inflates) as an
/// error whose message names the entry.
fn archive_error(e: ArchiveError) -> Error {
    Error::new(ErrorKind::Syntax, e.to_string(), None)
}

/// Bytes as UTF-8 text without a byte-order mark, borrowed when they are
/// valid; invalid sequences are replaced and said once.
fn text<'a>(input: &'a [u8], diags: &mut Vec<Diagnostic>) -> Cow<'a, str> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    // The check alone first: it is several times quicker than the lossy
    // conversion's walk, and a valid file (nearly all) needs nothing else.
    if let Ok(text) = std::str::from_utf8(input) {
        return Cow::Borrowed(text);
    }
    let text = String::from_utf8_lossy(input);
    if let Cow::Owned(_) = text {
        diags.push(Diagnostic::warning(
            "the file is not valid UTF-8: invalid bytes read as U+FFFD",
            None,
        ));
    }
    text
}

/// Unix seconds as a date; anything else is kept as written, with a warning.
fn unix_date(
    value: &str,
    what: &str,
    at: Option<Location>,
    diags: &mut Vec<Diagnostic>,
) -> Option<DateValue> {
    let value = value.trim();
    if value.is_empty() || value == "0" {
        return None;
    }
    match value
        .parse::<i64>()
        .ok()
        .and_then(Timestamp::from_unix_seconds)
    {
        Some(t) => Some(DateValue::Instant(t)),
        None => {
            diags.push(Diagnostic::warning(
                format!("{what} {value:?} is not a date in Unix seconds; kept as written"),
                at,
            ));
            Some(DateValue::Raw(value.into()))
        }
    }
}
