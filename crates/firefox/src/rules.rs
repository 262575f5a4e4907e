//! The rules of `markport check` for Firefox backups, found by the reader
//! when asked ([`ReadOptions::checking`](markport_model::ReadOptions)): the
//! places root and the roots under it with their fixed guids, `typeCode`
//! and `type` in agreement, guids in Places' form, what each node type
//! needs, dates as integers — what Firefox's `BookmarkJSONUtils` restore
//! relies on. docs/check.md documents each under its id.

use std::collections::HashMap;

use markport_model::rule::Rule;
use markport_model::{Diagnostic, LineIndex};

/// A `.jsonlz4` backup whose compressed data cannot be read.
pub(crate) const BAD_LZ4: Rule = Rule::error(
    "firefox/bad-lz4",
    "a .jsonlz4 backup whose compressed data cannot be read",
);
/// Not JSON: fatal.
pub(crate) const NOT_JSON: Rule = Rule::error(
    "firefox/not-json",
    "the backup is not JSON (checking stops at the error)",
);
/// Firefox 3's trailing commas.
pub(crate) const TRAILING_COMMA: Rule = Rule::warning(
    "firefox/trailing-comma",
    "a comma before a closing bracket, which Firefox 3.x wrote and Firefox now refuses",
);
/// A value of the wrong kind where the tree is.
pub(crate) const STRUCTURE: Rule = Rule::error(
    "firefox/structure",
    "a value of the wrong kind where the tree is (the top, children, a node)",
);
const ROOT: Rule = Rule::error(
    "firefox/root",
    "the places root and the menu, toolbar and unfiled roots missing, unknown, or with another guid",
);
const TYPE_MISMATCH: Rule = Rule::error(
    "firefox/type-mismatch",
    "typeCode and type disagree, are unknown, or are both missing",
);
const MISSING_URI: Rule = Rule::error("firefox/missing-uri", "a place (bookmark) without uri");
const BAD_GUID: Rule = Rule::error(
    "firefox/bad-guid",
    "a guid that is not twelve URL-safe base64 characters, or is another node's",
);
/// A date that is not an integer.
pub(crate) const BAD_DATE: Rule = Rule::error(
    "firefox/bad-date",
    "dateAdded or lastModified that is not an integer",
);

/// The rules of `markport check` this reader finds (docs/check.md).
pub const RULES: &[Rule] = &[
    BAD_LZ4,
    NOT_JSON,
    TRAILING_COMMA,
    STRUCTURE,
    ROOT,
    TYPE_MISMATCH,
    MISSING_URI,
    BAD_GUID,
    BAD_DATE,
];

/// Each root's `root` name, its fixed guid, and whether a restore needs it.
const ROOTS: &[(&str, &str, bool)] = &[
    ("placesRoot", "root________", true),
    ("bookmarksMenuFolder", "menu________", true),
    ("toolbarFolder", "toolbar_____", true),
    ("unfiledBookmarksFolder", "unfiled_____", true),
    ("mobileFolder", "mobile______", false),
    ("tagsFolder", "tags________", false),
];

/// The three node types, by `typeCode` and `type`.
const TYPES: &[(&str, &str)] = &[
    ("1", "text/x-moz-place"),
    ("2", "text/x-moz-place-container"),
    ("3", "text/x-moz-place-separator"),
];

/// Whether `s` is a Places guid: twelve characters of URL-safe base64.
fn is_places_guid(s: &str) -> bool {
    s.len() == 12
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

/// Whether a date's JSON text is an integer: a number, no fraction or
/// exponent (before 1970 is negative, and still an integer).
pub(crate) fn is_integer(number: &str) -> bool {
    let digits = number.strip_prefix('-').unwrap_or(number);
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
}

/// What the rules need of an item, as its members were read: the values
/// and where each stands (offsets into the JSON text).
pub(crate) struct Seen<'s> {
    /// Where the item's `{` is.
    pub at: usize,
    pub guid: Option<(&'s str, usize)>,
    pub root: Option<(&'s str, usize)>,
    pub kind: Option<(&'s str, usize)>,
    pub code: Option<(&'s str, usize)>,
    pub uri: bool,
}

/// Where the rules' findings go: the reader's line index and diagnostics.
pub(crate) struct Out<'r, 'a> {
    pub lines: &'r LineIndex<'a>,
    pub diags: &'r mut Vec<Diagnostic>,
}

impl Out<'_, '_> {
    /// `rule` broken at byte `at`.
    pub(crate) fn at(&mut self, rule: &Rule, at: usize, message: impl Into<String>) {
        let loc = self.lines.locate(at);
        self.diags
            .push(Diagnostic::warning(message, Some(loc)).rule(rule.id));
    }
}

/// What the rules keep across the whole backup.
#[derive(Default)]
pub(crate) struct Checker {
    /// Each guid met, where it was first (items end children first, as
    /// check has always counted them).
    guids: HashMap<String, usize>,
}

impl Checker {
    /// An item's `}`: its types, uri, guid and root; `top` is the
    /// outermost item, whose children's roots are `child_roots`.
    pub(crate) fn end_item(
        &mut self,
        out: &mut Out<'_, '_>,
        item: &Seen<'_>,
        top: bool,
        child_roots: &[String],
    ) {
        let by_code = item
            .code
            .map(|(c, at)| (TYPES.iter().find(|t| t.0 == c), c, at));
        let by_type = item
            .kind
            .map(|(t, at)| (TYPES.iter().find(|x| x.1 == t), t, at));
        if let Some((None, code, at)) = by_code {
            out.at(
                &TYPE_MISMATCH,
                at,
                format!("typeCode {code} is none of 1 (place), 2 (container), 3 (separator)"),
            );
        }
        if let Some((None, kind, at)) = by_type {
            out.at(
                &TYPE_MISMATCH,
                at,
                format!("type {kind:?} is none of text/x-moz-place, -container, -separator"),
            );
        }
        if let (Some((Some(a), code, at)), Some((Some(b), kind, _))) = (by_code, by_type) {
            if a != b {
                out.at(
                    &TYPE_MISMATCH,
                    at,
                    format!("typeCode {code} says {} but type says {kind}", a.1),
                );
            }
        }
        let kind = by_type
            .and_then(|t| t.0)
            .or_else(|| by_code.and_then(|c| c.0));
        if by_code.is_none() && by_type.is_none() {
            out.at(
                &TYPE_MISMATCH,
                item.at,
                "this node has neither typeCode nor type",
            );
        }
        if kind.is_some_and(|k| k.0 == "1") && !item.uri {
            out.at(&MISSING_URI, item.at, "this place (a bookmark) has no uri");
        }
        if let Some((guid, at)) = item.guid {
            if !is_places_guid(guid) {
                out.at(
                    &BAD_GUID,
                    at,
                    format!("guid {guid:?} is not twelve characters of A-Z, a-z, 0-9, - and _"),
                );
            } else if let Some(&first) = self.guids.get(guid) {
                let line = out.lines.locate(first).line;
                out.at(
                    &BAD_GUID,
                    at,
                    format!("guid {guid:?} is already the guid of the node on line {line}"),
                );
            } else {
                self.guids.insert(guid.to_owned(), at);
            }
        }
        roots(out, item, top, child_roots);
    }
}

/// Roots and their fixed guids; the places root and what it holds.
fn roots(out: &mut Out<'_, '_>, item: &Seen<'_>, top: bool, child_roots: &[String]) {
    if let Some((root, at)) = item.root {
        match ROOTS.iter().find(|r| r.0 == root) {
            None => out.at(
                &ROOT,
                at,
                format!("root {root:?} is not one of Places' roots"),
            ),
            Some(&(_, fixed, _)) => {
                if let Some((guid, guid_at)) = item.guid.filter(|(g, _)| *g != fixed) {
                    out.at(
                        &ROOT,
                        guid_at,
                        format!("the {root} root's guid is {fixed:?}, not {guid:?}"),
                    );
                }
            }
        }
    } else if let Some((guid, at)) = item.guid {
        if let Some((root, _, _)) = ROOTS.iter().find(|r| r.1 == guid) {
            out.at(
                &ROOT,
                at,
                format!("guid {guid:?} belongs to the {root} root, but this node has no root"),
            );
        }
    }
    if !top {
        return;
    }
    if item.root.is_none_or(|(r, _)| r != "placesRoot") {
        out.at(
            &ROOT,
            item.at,
            "the top node is not the places root (root \"placesRoot\")",
        );
        return;
    }
    for &(root, guid, needed) in &ROOTS[1..] {
        if needed && !child_roots.iter().any(|r| r == root) {
            out.at(
                &ROOT,
                item.at,
                format!("the places root has no {root} ({guid}); Firefox restores into the menu, toolbar and unfiled roots"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_guids() {
        assert!(is_places_guid("toolbar_____"));
        assert!(is_places_guid("I4HRN9pxiDId"));
        assert!(!is_places_guid("I4HRN9pxiDI"));
        assert!(!is_places_guid("I4HRN9pxiD d"));
    }

    #[test]
    fn integers_as_restore_takes_them() {
        assert!(is_integer("1700000000000000"));
        assert!(is_integer("-5"));
        assert!(!is_integer("1.5"));
        assert!(!is_integer("1e6"));
        assert!(!is_integer("-"));
    }
}
