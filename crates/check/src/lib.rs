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
//! rule is listed by [`rules`] and documented in docs/check.md with where it
//! comes from.
//!
//! * XBEL: the DTD's elements, attributes, order and `version`; ids unique,
//!   aliases that resolve, bookmarks with `href`, W3C dates, the declared
//!   encoding against the bytes — found by markport's XBEL reader, in its
//!   one pass (`markport_xbel::RULES`).
//! * Desktop bookmarks: XBEL's rules, then MIME type, applications (name,
//!   exec, count, modified), absolute `file:` URIs, groups, private flags —
//!   found by the same reader (`markport_desktop::RULES`).
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
//!   time or flag that is not Pinboard's — found by markport's readers of
//!   them, which tag each diagnostic with the rule
//!   ([`markport_model::Diagnostic::rule`]).
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

mod problem;
mod rules;

use std::path::Path;

use markport::{Chosen, Format, Input, Resolved};
use markport_model::{Error, ReadOptions, Severity as ReaderSeverity};

pub use problem::{Problem, Rule, Severity, LIMIT_PER_RULE};
pub use rules::rules;

/// What [`check_input`] found.
#[derive(Debug)]
#[non_exhaustive]
pub struct Checked {
    /// The format the input was checked as, and why.
    pub from: Resolved,
    /// Every problem, in order of position.
    pub problems: Vec<Problem>,
}

/// Check an input read the way `convert` reads it ([`markport::read`]:
/// the format named, else told by content, else by extension). A format
/// with rules of its own is checked in its bytes; any other is read by
/// markport's reader, by its path where the format has a path reader (a
/// live places.sqlite with its `-wal`, a favorites tree), and what the
/// reader says is its problems.
///
/// The error is for an input that could not be checked at all: missing,
/// unreadable, or of a format that cannot be told. A file that does not
/// parse is a problem found (`reader/error` or the format's rule).
///
/// ```
/// use markport::Input;
///
/// let file = b"<xbel version='1.0'><bookmark/></xbel>".to_vec();
/// let checked = markport_check::check_input(Input::Bytes(file), None).unwrap();
/// assert_eq!(checked.from.format.name, "xbel");
/// assert_eq!(checked.problems[0].rule, "xbel/bookmark-without-href");
/// ```
pub fn check_input(input: Input, from: Option<&'static Format>) -> Result<Checked, Error> {
    check_input_within(input, from, None)
}

/// [`check_input`] with a memory budget for the reading
/// ([`ReadOptions::memory_budget`]: `markport check --memory-budget`); a
/// file shaped to cost more is a `reader/error` naming the limit.
pub fn check_input_within(
    input: Input,
    from: Option<&'static Format>,
    memory_budget: Option<u64>,
) -> Result<Checked, Error> {
    check_input_to_the_letter(input, from, memory_budget, false)
}

/// [`check_input_within`], and with `letter` (`markport check --strict`) a
/// known writer's habit that readers accept (Floccus' numeric ids, KDE's
/// titled separators, Safari's top-level folders outside every list,
/// Shaarli's links with no list at all) is
/// reported element by element under the rule of the format it breaks,
/// instead of once as a warning naming the writer.
pub fn check_input_to_the_letter(
    input: Input,
    from: Option<&'static Format>,
    memory_budget: Option<u64>,
    letter: bool,
) -> Result<Checked, Error> {
    let mut opts = ReadOptions::default();
    opts.memory_budget = memory_budget;
    opts.letter = letter;
    check_input_with(input, from, opts)
}

/// [`check_input`] reading with `opts` (its `checking` is set here): a
/// memory budget, `letter`, and a deadline past which the check stops
/// with [`markport::ErrorKind::Cancelled`] (`markport serve`'s time limit).
pub fn check_input_with(
    input: Input,
    from: Option<&'static Format>,
    opts: ReadOptions,
) -> Result<Checked, Error> {
    let checked = check_read(input, from, &opts)?;
    // A reader stopped at the deadline would be a `reader/error` problem
    // of the file: it is not one, the whole check stopped.
    opts.check_deadline()?;
    Ok(checked)
}

fn check_read(
    input: Input,
    from: Option<&'static Format>,
    opts: &ReadOptions,
) -> Result<Checked, Error> {
    let (path, bytes) = match input {
        // A tree, or a named format read by its path with no rules of its
        // own (a database opened where it is): no bytes needed here.
        Input::Path(path)
            if path.is_dir()
                || from.is_some_and(|f| f.path_reader.is_some() && f.rules.is_empty()) =>
        {
            return by_reader_input(Input::Path(path), from, opts);
        }
        Input::Path(path) => {
            let bytes = std::fs::read(&path).map_err(cannot_read)?;
            (Some(path), bytes)
        }
        Input::Bytes(bytes) => (None, bytes),
        Input::Stdin => {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
                .map_err(cannot_read)?;
            (None, bytes)
        }
    };
    let from = match from {
        Some(format) => Resolved {
            format,
            chosen: Chosen::Named,
        },
        None => markport::resolve_format(None, path.as_deref(), Some(&bytes))?,
    };
    let format = from.format;
    // A format with rules is checked by its reader in its bytes; any other
    // is what its reader says, read as convert reads it.
    if !format.rules.is_empty() {
        let problems = check_with(&bytes, format, opts);
        return Ok(Checked { from, problems });
    }
    let input = match path {
        // Read again by its path, as convert reads it: a database's pending
        // changes live beside it. A pipe's bytes are all there is.
        Some(path) if format.path_reader.is_some() && is_regular_file(&path) => {
            drop(bytes);
            Input::Path(path)
        }
        _ => Input::Bytes(bytes),
    };
    let problems = by_reader_input(input, Some(format), opts)?.problems;
    Ok(Checked { from, problems })
}

fn cannot_read(e: std::io::Error) -> Error {
    let mut err = Error::io(e);
    err.message = format!("cannot read: {}", err.message);
    err
}

fn is_regular_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// What markport's reader says about `input`, read as convert reads it.
fn by_reader_input(
    input: Input,
    from: Option<&'static Format>,
    opts: &ReadOptions,
) -> Result<Checked, Error> {
    match markport::read(input, from, opts) {
        Ok(read) => Ok(Checked {
            from: read.from,
            problems: reading(&Ok(markport::Parsed::new(read.document, read.diagnostics))),
        }),
        // A file that is not read at all (a tree in a symbolic link loop,
        // a database that does not open) is a problem found, as a file
        // that does not parse is.
        Err(e) if e.stage == markport::Stage::Read && e.from.is_some() => {
            let format = e.from.expect("matched");
            Ok(Checked {
                from: Resolved {
                    format,
                    chosen: Chosen::Named,
                },
                problems: reading(&Err(e.error)),
            })
        }
        Err(e) => Err(e.error),
    }
}

/// Check `input`, a file in `format`: every problem, in order of position.
pub fn check(input: &[u8], format: &Format) -> Vec<Problem> {
    check_with(input, format, &ReadOptions::default())
}

/// [`check`], its readers given `opts` (a memory budget).
fn check_with(input: &[u8], format: &Format, opts: &ReadOptions) -> Vec<Problem> {
    let mut problems = if format.rules.is_empty() {
        by_reader(input, format, opts)
    } else {
        // The reader finds every problem its format's rules name, and tags
        // it with the rule.
        by_rules_of_reader(input, format, opts)
    };
    // Stable: problems at one place keep the order they were found in.
    problems.sort_by_key(|p| (p.line, p.column));
    problems
}

/// The problems markport's reader of `format` finds in `input` under
/// check's rules, read with [`ReadOptions::checking`]: the diagnostics it
/// tags with a rule, and its error (a file it cannot read on) under its rule
/// or `reader/error`, with what it found before. What it says untagged is
/// how markport reads the file, not a rule it breaks.
fn by_rules_of_reader(input: &[u8], format: &Format, opts: &ReadOptions) -> Vec<Problem> {
    let mut opts = opts.clone();
    opts.checking = true;
    match (format.read)(input, &opts) {
        Err(mut e) => {
            let found = std::mem::take(&mut e.found);
            let mut problems = tagged(found);
            let rule = e.rule.unwrap_or(rules::READER_ERROR.id);
            let severity = rule_named(rule).map_or(rules::READER_ERROR.severity, |r| r.severity);
            let (line, column) = e
                .location
                .map_or((1, 1), |l| (l.line.max(1), l.column.max(1)));
            problems.push(Problem {
                line,
                column,
                severity,
                rule,
                message: e.message,
                file: None,
            });
            problems
        }
        Ok(parsed) => tagged(parsed.diagnostics),
    }
}

/// The diagnostics of `found` a reader tagged with a rule, as problems.
fn tagged(mut found: Vec<markport_model::Diagnostic>) -> Vec<Problem> {
    found.retain(|d| d.rule.is_some());
    reading(&Ok(markport::Parsed::new(
        markport_model::Document::new(),
        found,
    )))
}

/// The rule whose id is `id`.
fn rule_named(id: &str) -> Option<&'static Rule> {
    rules().into_iter().find(|r| r.id == id)
}

/// What markport's reader of `format` says about `input`.
fn by_reader(input: &[u8], format: &Format, opts: &ReadOptions) -> Vec<Problem> {
    reading(&(format.read)(input, opts))
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
        Ok(parsed) => {
            let mut problems = problem::Capped::default();
            let all = rules();
            for d in &parsed.diagnostics {
                // A reader's finding of one of check's rules is listed
                // under it, whatever the reader's own severity.
                let rule = d
                    .rule
                    .as_deref()
                    .and_then(|id| all.iter().copied().find(|r| r.id == id))
                    .or((d.severity >= ReaderSeverity::Warning).then_some(&rules::READER_WARNING));
                let Some(rule) = rule else { continue };
                let (line, column) = at(d.location);
                problems.push(Problem {
                    line,
                    column,
                    severity: rule.severity,
                    rule: rule.id,
                    message: d.message.clone(),
                    file: d.file.clone(),
                });
            }
            problems.finish()
        }
    }
}
