//! Every rule `markport check` applies, in one table. docs/check.md
//! documents each under its id, with where the rule comes from; a test
//! holds the table, the document and the example files together.

use crate::problem::{Rule, Severity};

const fn error(id: &'static str, summary: &'static str) -> Rule {
    Rule {
        id,
        severity: Severity::Error,
        summary,
    }
}

const fn warning(id: &'static str, summary: &'static str) -> Rule {
    Rule {
        id,
        severity: Severity::Warning,
        summary,
    }
}

// Chromium's Bookmarks file.
pub(crate) const CHROMIUM_NOT_JSON: Rule = error(
    "chromium/not-json",
    "the file is not JSON (checking stops at the error)",
);
pub(crate) const CHROMIUM_STRUCTURE: Rule = error(
    "chromium/structure",
    "a value of the wrong kind where the tree is (roots, a root, children, a node)",
);
pub(crate) const CHROMIUM_MISSING_ROOT: Rule = error(
    "chromium/missing-root",
    "no `roots`, or roots without bookmark_bar or other",
);
pub(crate) const CHROMIUM_MISSING_KEY: Rule = error(
    "chromium/missing-key",
    "a node without id, name, type, and url (url) or children (folder), or one that is not a string",
);
pub(crate) const CHROMIUM_BAD_TYPE: Rule =
    error("chromium/bad-type", "a node type other than url and folder");
pub(crate) const CHROMIUM_BAD_ID: Rule = error(
    "chromium/bad-id",
    "an id that is not a decimal number in a string",
);
pub(crate) const CHROMIUM_DUPLICATE_ID: Rule =
    error("chromium/duplicate-id", "two nodes share an id");
pub(crate) const CHROMIUM_BAD_GUID: Rule = error(
    "chromium/bad-guid",
    "a guid that is not a lowercase UUID, or is another node's",
);
pub(crate) const CHROMIUM_BAD_DATE: Rule = error(
    "chromium/bad-date",
    "date_added, date_modified or date_last_used that is not an integer string",
);
pub(crate) const CHROMIUM_CHECKSUM: Rule = error(
    "chromium/checksum",
    "the stored checksum is not the MD5 Chromium computes for the tree",
);

// Firefox bookmark backups.
pub(crate) const FIREFOX_BAD_LZ4: Rule = error(
    "firefox/bad-lz4",
    "a .jsonlz4 backup whose compressed data cannot be read",
);
pub(crate) const FIREFOX_NOT_JSON: Rule = error(
    "firefox/not-json",
    "the backup is not JSON (checking stops at the error)",
);
pub(crate) const FIREFOX_TRAILING_COMMA: Rule = warning(
    "firefox/trailing-comma",
    "a comma before a closing bracket, which Firefox 3.x wrote and Firefox now refuses",
);
pub(crate) const FIREFOX_STRUCTURE: Rule = error(
    "firefox/structure",
    "a value of the wrong kind where the tree is (the top, children, a node)",
);
pub(crate) const FIREFOX_ROOT: Rule = error(
    "firefox/root",
    "the places root and the menu, toolbar and unfiled roots missing, unknown, or with another guid",
);
pub(crate) const FIREFOX_TYPE_MISMATCH: Rule = error(
    "firefox/type-mismatch",
    "typeCode and type disagree, are unknown, or are both missing",
);
pub(crate) const FIREFOX_MISSING_URI: Rule =
    error("firefox/missing-uri", "a place (bookmark) without uri");
pub(crate) const FIREFOX_BAD_GUID: Rule = error(
    "firefox/bad-guid",
    "a guid that is not twelve URL-safe base64 characters, or is another node's",
);
pub(crate) const FIREFOX_BAD_DATE: Rule = error(
    "firefox/bad-date",
    "dateAdded or lastModified that is not an integer",
);

// Formats without rules of their own yet: what their reader says.
pub(crate) const READER_ERROR: Rule = error(
    "reader/error",
    "markport's reader of the format could not read the file",
);
pub(crate) const READER_WARNING: Rule = warning(
    "reader/warning",
    "markport's reader of the format recovered from something",
);

/// Every rule `markport check` applies: those check still holds, then
/// each format's own ([`FormatDef::rules`](markport_model::FormatDef::rules))
/// in the registry's order, then the reader's two. docs/check.md documents
/// each under its id.
pub fn rules() -> Vec<&'static Rule> {
    let mut all: Vec<&'static Rule> = HELD.iter().collect();
    for format in markport::FORMATS {
        for rule in format.rules {
            // Formats of one crate may share their rules (Pocket's and
            // Instapaper's CSV): each id is listed once.
            if !all.iter().any(|r| r.id == rule.id) {
                all.push(rule);
            }
        }
    }
    all.extend([&READER_ERROR, &READER_WARNING]);
    all
}

/// The rules check still finds by a walk of its own (each moves to its
/// format's reader), in the order docs/check.md lists them.
static HELD: &[Rule] = &[
    CHROMIUM_NOT_JSON,
    CHROMIUM_STRUCTURE,
    CHROMIUM_MISSING_ROOT,
    CHROMIUM_MISSING_KEY,
    CHROMIUM_BAD_TYPE,
    CHROMIUM_BAD_ID,
    CHROMIUM_DUPLICATE_ID,
    CHROMIUM_BAD_GUID,
    CHROMIUM_BAD_DATE,
    CHROMIUM_CHECKSUM,
    FIREFOX_BAD_LZ4,
    FIREFOX_NOT_JSON,
    FIREFOX_TRAILING_COMMA,
    FIREFOX_STRUCTURE,
    FIREFOX_ROOT,
    FIREFOX_TYPE_MISMATCH,
    FIREFOX_MISSING_URI,
    FIREFOX_BAD_GUID,
    FIREFOX_BAD_DATE,
];
