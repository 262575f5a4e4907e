//! The rules of `markport check`, declared by the format that has them.
//!
//! A format crate lists its rules once, in its [`FormatDef`](crate::FormatDef)
//! (`.with_rules(RULES)`); its reader, asked to
//! ([`ReadOptions::checking`](crate::ReadOptions::checking)), tags each
//! diagnostic that breaks one with the rule's id
//! ([`Diagnostic::rule`](crate::Diagnostic::rule)). `markport check` lists
//! those diagnostics under their rules: one parser per format, whether the
//! file is converted or checked.

/// How serious breaking a rule is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The file breaks what its format's own documents require.
    Error,
    /// The file is allowed, but a major reader refuses or misreads it, or
    /// it is very likely a mistake.
    Warning,
}

impl Level {
    /// `error` or `warning`, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

/// One rule: a stable id, its level, and what it says in one line.
/// Every rule is documented in docs/check.md under its id.
///
/// ```
/// use markport_model::rule::{Level, Rule};
///
/// const DUPLICATE_ID: Rule = Rule::error("xbel/duplicate-id", "two elements share an id");
/// assert_eq!((DUPLICATE_ID.severity, DUPLICATE_ID.format()), (Level::Error, "xbel"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// `FORMAT/NAME`, e.g. `xbel/duplicate-id`; never changes once published.
    pub id: &'static str,
    /// The level of every problem this rule finds.
    pub severity: Level,
    /// What the rule checks, in one line.
    pub summary: &'static str,
}

impl Rule {
    /// A rule whose breach is an error.
    pub const fn error(id: &'static str, summary: &'static str) -> Rule {
        Rule {
            id,
            severity: Level::Error,
            summary,
        }
    }

    /// A rule whose breach is a warning.
    pub const fn warning(id: &'static str, summary: &'static str) -> Rule {
        Rule {
            id,
            severity: Level::Warning,
            summary,
        }
    }

    /// The format part of the id (`xbel` of `xbel/duplicate-id`).
    pub fn format(&self) -> &'static str {
        self.id.split_once('/').map_or(self.id, |(f, _)| f)
    }
}
