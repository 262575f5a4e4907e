//! # markport-check
//!
//! `markport check`: a validator for bookmark files, in the way
//! `xmllint --valid` or a linter is one. It reads a file and lists **every**
//! problem, not the first, each with its line, column, severity and a
//! stable rule id such as `xbel/duplicate-id`. The rules come from each
//! format's own documents (the XBEL 1.0 DTD, the freedesktop
//! desktop-bookmark spec, the Netscape format's description) and from what
//! real readers refuse (GLib's GBookmarkFile, Chromium's importer and
//! `BookmarkCodec`, Firefox's restore); every
//! rule is listed in [`RULES`] and documented in docs/check.md with where it
//! comes from.
//!
//! * XBEL: the DTD's elements, attributes, order and `version`; ids unique,
//!   aliases that resolve, bookmarks with `href`, W3C dates, the declared
//!   encoding against the bytes.
//! * Desktop bookmarks: XBEL's rules, then MIME type, applications (name,
//!   exec, count, modified), absolute `file:` URIs, groups, private flags.
//! * Netscape bookmark HTML: the DOCTYPE, balanced `<DL>`, items outside a
//!   list, unknown or repeated attributes, dates that are not numbers, the
//!   declared charset against the bytes.
//! * Chromium's `Bookmarks`: the checksum, ids and guids, the keys each
//!   node type needs, dates as integer strings, the roots.
//! * Firefox backups (JSON and `.jsonlz4`): the places root and the menu,
//!   toolbar and unfiled roots with their guids, `typeCode`/`type`
//!   agreement, guid form, dates, Firefox 3's trailing commas.
//! * xFolk pages: entries without their tagged link, tags not marked as
//!   `rel="tag"` links.
//! * Pocket's and Instapaper's CSV exports: the header, and every row that
//!   does not parse; Pinboard's JSON: every post without its link, with a
//!   time or flag that is not Pinboard's.
//! * Every other format: what markport's reader of it reports
//!   (`reader/error`, `reader/warning`), until it has rules of its own.
//!
//! Each check is one pass with an explicit stack: linear in the file, and
//! a 100,000-deep file checks like a flat one.
//!
//! ```
//! use markport_check::{check, Severity};
//!
//! let file = br#"<?xml version="1.0"?>
//! <xbel version="1.0">
//!   <folder id="a"><title>One</title></folder>
//!   <folder id="a"><title>Two</title></folder>
//!   <bookmark added="yesterday"/>
//!   <alias ref="nowhere"/>
//! </xbel>"#;
//! let problems = check(file, markport::format("xbel").unwrap());
//! let rules: Vec<_> = problems.iter().map(|p| (p.line, p.rule)).collect();
//! assert_eq!(
//!     rules,
//!     [
//!         (4, "xbel/duplicate-id"),
//!         (5, "xbel/bookmark-without-href"),
//!         (5, "xbel/bad-date"),
//!         (6, "xbel/dangling-alias"),
//!     ]
//! );
//! assert!(problems.iter().all(|p| p.severity == Severity::Error));
//! ```
#![warn(missing_docs)]

mod chromium;
mod dates;
mod desktop;
mod export;
mod firefox;
mod netscape;
mod pinboard;
mod problem;
mod rules;
mod xbel;
mod xfolk;
mod xml_text;

use markport::Format;
use markport_model::{ReadOptions, Severity as ReaderSeverity};

pub use problem::{Problem, Rule, Severity};
pub use rules::RULES;

use problem::Sink;

/// Check `input`, a file in `format`: every problem, in order of position.
pub fn check(input: &[u8], format: &Format) -> Vec<Problem> {
    let mut raw = Sink::new(input);
    let mut problems = match format.name {
        "xbel" | "desktop" => {
            let desktop = format.name == "desktop";
            let text = xml_text::decode(input, desktop, &mut raw);
            let mut sink = Sink::new(text.as_bytes());
            xbel::check(&text, desktop, &mut sink);
            sink.problems
        }
        "netscape" => netscape::check(input, &mut raw),
        "xfolk" => xfolk::check(input),
        "pinboard" => {
            let mut sink = Sink::new(input);
            pinboard::check(input, &mut sink);
            sink.problems
        }
        "instapaper" => {
            export::check(input, &export::INSTAPAPER, &mut raw);
            Vec::new()
        }
        "pocket" if export::is_pocket_csv(input) => {
            export::check(input, &export::POCKET, &mut raw);
            Vec::new()
        }
        "firefox" => {
            if input.starts_with(markport_firefox::lz4::MAGIC) {
                match markport_firefox::lz4::decompress(input) {
                    Ok(json) => {
                        let mut sink = Sink::new(&json);
                        firefox::check(&json, &mut sink);
                        sink.problems
                    }
                    Err(e) => {
                        raw.at(&rules::FIREFOX_BAD_LZ4, 0, e.message);
                        Vec::new()
                    }
                }
            } else {
                let mut sink = Sink::new(input);
                firefox::check(input, &mut sink);
                sink.problems
            }
        }
        "chromium" => {
            let mut sink = Sink::new(input);
            chromium::check(input, format, &mut sink);
            sink.problems
        }
        _ => by_reader(input, format),
    };
    problems.append(&mut raw.problems);
    // Stable: problems at one place keep the order they were found in.
    problems.sort_by_key(|p| (p.line, p.column));
    problems
}

/// What markport's reader of `format` says about `input`.
fn by_reader(input: &[u8], format: &Format) -> Vec<Problem> {
    reading(&(format.read)(input, &ReadOptions::default()))
}

/// What a reading said, as problems: its error (`reader/error`), or its
/// warnings (`reader/warning`), each in the file of the collection it is
/// about. This is how a collection with no rules of its own is checked,
/// such as a favorites tree read by its path.
///
/// ```
/// let xbel = markport::format("xbel").unwrap();
/// let read = (xbel.read)(b"<xbel version='1.0'><bookmark/></xbel>", &Default::default());
/// let problems = markport_check::reading(&read);
/// assert_eq!(problems[0].rule, "reader/warning");
/// ```
pub fn reading(read: &Result<markport_model::Parsed, markport_model::Error>) -> Vec<Problem> {
    // Some readers count columns from 0 at a line's end (serde_json): never
    // below 1 here.
    let at = |loc: Option<markport_model::Location>| {
        loc.map_or((1, 1), |l| (l.line.max(1), l.column.max(1)))
    };
    match read {
        Err(e) => {
            let (line, column) = at(e.location);
            vec![Problem {
                line,
                column,
                severity: rules::READER_ERROR.severity,
                rule: rules::READER_ERROR.id,
                message: e.message.clone(),
                file: None,
            }]
        }
        Ok(parsed) => parsed
            .diagnostics
            .iter()
            .filter(|d| d.severity >= ReaderSeverity::Warning)
            .map(|d| {
                let (line, column) = at(d.location);
                Problem {
                    line,
                    column,
                    severity: rules::READER_WARNING.severity,
                    rule: rules::READER_WARNING.id,
                    message: d.message.clone(),
                    file: d.file.clone(),
                }
            })
            .collect(),
    }
}
