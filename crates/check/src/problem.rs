//! What a check finds: rules, problems, and the sink that places each
//! problem at its line and column.

use markport_model::LineIndex;
use serde::Serialize;

/// How serious a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file breaks what its format's own documents require.
    Error,
    /// The file is allowed, but a major reader refuses or misreads it, or
    /// it is very likely a mistake.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One rule: a stable id, its severity, and what it says in one line.
/// Every rule is documented in docs/check.md under its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// `FORMAT/NAME`, e.g. `xbel/duplicate-id`; never changes once published.
    pub id: &'static str,
    /// The severity of every problem this rule finds.
    pub severity: Severity,
    /// What the rule checks, in one line.
    pub summary: &'static str,
}

/// One problem found in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// The rule's severity.
    pub severity: Severity,
    /// The rule's id.
    pub rule: &'static str,
    /// What is wrong here, for people.
    pub message: String,
}

/// Collects problems found at byte offsets of one text and locates them.
/// The line index is built on the first problem: a clean file never pays
/// for it.
pub(crate) struct Sink<'a> {
    text: &'a [u8],
    lines: Option<LineIndex<'a>>,
    pub(crate) problems: Vec<Problem>,
}

impl<'a> Sink<'a> {
    /// A sink for problems at offsets into `text`.
    pub(crate) fn new(text: &'a [u8]) -> Sink<'a> {
        Sink {
            text,
            lines: None,
            problems: Vec::new(),
        }
    }

    /// Report `rule` at byte `offset` of the text.
    pub(crate) fn at(&mut self, rule: &Rule, offset: usize, message: impl Into<String>) {
        let text = self.text;
        let loc = self
            .lines
            .get_or_insert_with(|| LineIndex::new(text))
            .locate(offset);
        self.problems.push(Problem {
            line: loc.line,
            column: loc.column,
            severity: rule.severity,
            rule: rule.id,
            message: message.into(),
        });
    }

    /// The line of byte `offset`, for messages that point at an earlier place.
    pub(crate) fn line_of(&mut self, offset: usize) -> u32 {
        let text = self.text;
        self.lines
            .get_or_insert_with(|| LineIndex::new(text))
            .locate(offset)
            .line
    }
}
