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

// Formats without rules of their own yet: what their reader says.
pub(crate) const READER_ERROR: Rule = error(
    "reader/error",
    "markport's reader of the format could not read the file",
);
pub(crate) const READER_WARNING: Rule = warning(
    "reader/warning",
    "markport's reader of the format recovered from something",
);

/// Every rule `markport check` applies: each format's own
/// ([`FormatDef::rules`](markport_model::FormatDef::rules)) in the
/// registry's order, then the reader's two. docs/check.md documents
/// each under its id.
pub fn rules() -> Vec<&'static Rule> {
    let mut all: Vec<&'static Rule> = Vec::new();
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
