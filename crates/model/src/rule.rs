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

/// How many problems of one rule `markport check` lists in one file; the
/// rest are counted, and said in one problem more at the last of them. A
/// small file with a problem every few bytes (200,000 unknown attributes on
/// one tag) would otherwise hold tens of times its size in messages.
pub const LIMIT_PER_RULE: usize = 1_000;

/// A reader's findings of its format's rules under
/// [`ReadOptions::checking`](crate::ReadOptions::checking): up to
/// [`LIMIT_PER_RULE`] diagnostics of each rule, and for a rule found more
/// often, how many more and where the last is, so memory follows the file
/// and not the number of problems. A message past the limit is never built.
///
/// ```
/// use markport_model::rule::{Findings, Rule, LIMIT_PER_RULE};
/// use markport_model::Location;
///
/// const ODD: Rule = Rule::warning("x/odd", "something odd");
/// let mut found = Findings::default();
/// for line in 1..=LIMIT_PER_RULE as u32 + 5 {
///     found.push(&ODD, Location { line, column: 1 }, || format!("odd on line {line}"));
/// }
/// let diags = found.finish();
/// assert_eq!(diags.len(), LIMIT_PER_RULE + 1);
/// assert!(diags[LIMIT_PER_RULE].message.starts_with("5 more problems of this rule"));
/// assert_eq!(diags[LIMIT_PER_RULE].location.unwrap().line, LIMIT_PER_RULE as u32 + 5);
/// ```
#[derive(Debug, Default)]
pub struct Findings {
    found: Vec<crate::Diagnostic>,
    /// Per rule found: its id, how often, and where the last one not kept
    /// is. Few rules fire in one file: a list is quicker than a map.
    counts: Vec<(&'static str, usize, Option<crate::Location>)>,
}

impl Findings {
    /// A finding of `rule` at `location`; `message` is asked for only when
    /// it is kept.
    pub fn push(
        &mut self,
        rule: &'static Rule,
        location: crate::Location,
        message: impl FnOnce() -> String,
    ) {
        let i = match self.counts.iter().position(|c| c.0 == rule.id) {
            Some(i) => i,
            None => {
                self.counts.push((rule.id, 0, None));
                self.counts.len() - 1
            }
        };
        let count = &mut self.counts[i];
        count.1 += 1;
        if count.1 <= LIMIT_PER_RULE {
            self.found
                .push(crate::Diagnostic::warning(message(), Some(location)).rule(rule.id));
        } else {
            count.2 = Some(location);
        }
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// The diagnostics kept, in the order found, then one per rule found
    /// more than [`LIMIT_PER_RULE`] times that counts the rest.
    pub fn finish(self) -> Vec<crate::Diagnostic> {
        let mut found = self.found;
        for (id, n, last) in self.counts {
            if n > LIMIT_PER_RULE {
                found.push(
                    crate::Diagnostic::warning(
                        format!(
                            "{} more problems of this rule, the last here, not listed: check lists the first {LIMIT_PER_RULE} of each rule in a file",
                            n - LIMIT_PER_RULE
                        ),
                        last,
                    )
                    .rule(id),
                );
            }
        }
        found
    }
}
