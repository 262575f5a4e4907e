//! What a check finds: rules, problems, and how many of one rule a file
//! lists.

use serde::Serialize;

/// How serious a problem is (the level of the rule it breaks).
pub use markport_model::rule::Level as Severity;
/// One rule: a stable id, its severity, and what it says in one line.
/// Every rule is documented in docs/check.md under its id.
pub use markport_model::rule::Rule;

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
    /// The file of a collection of many (a favorites tree) the problem is
    /// in, relative to the collection; the line and column are in it.
    #[serde(skip)]
    pub file: Option<String>,
}

/// How many problems of one rule `check` lists in one file. The rest are
/// counted, and said in one problem more, at the last of them: a small
/// file with a problem every few bytes (200,000 unknown attributes on one
/// tag) would otherwise hold tens of times its size in messages. A reader
/// that finds rules counts by the same limit
/// ([`Findings`](markport_model::rule::Findings)).
pub use markport_model::rule::LIMIT_PER_RULE;

/// How often one rule fired in a file, and the last problem not kept.
struct Count {
    rule: &'static str,
    severity: Severity,
    found: usize,
    last: Option<Problem>,
}

/// Problems as found, at most [`LIMIT_PER_RULE`] of each rule, with the
/// count and last place of the rest.
#[derive(Default)]
pub(crate) struct Capped {
    problems: Vec<Problem>,
    /// Per rule that fired: its id, how many times, and where the last
    /// one not kept is. Few rules fire in one file: a list is quicker than
    /// a map.
    counts: Vec<Count>,
}

impl Capped {
    /// Keep `problem` unless its rule has given [`LIMIT_PER_RULE`] already.
    pub(crate) fn push(&mut self, problem: Problem) {
        let i = match self.counts.iter().position(|c| c.rule == problem.rule) {
            Some(i) => i,
            None => {
                self.counts.push(Count {
                    rule: problem.rule,
                    severity: problem.severity,
                    found: 0,
                    last: None,
                });
                self.counts.len() - 1
            }
        };
        let count = &mut self.counts[i];
        count.found += 1;
        if count.found <= LIMIT_PER_RULE {
            self.problems.push(problem);
        } else {
            count.last = Some(problem);
        }
    }

    /// The problems kept, then one per rule that gave more than the limit:
    /// the one not kept when it is one (a reader that counted by the same
    /// limit gives its own count so), else the count of the rest.
    pub(crate) fn finish(mut self) -> Vec<Problem> {
        for Count {
            rule,
            severity,
            found,
            last,
        } in self.counts
        {
            let Some(last) = last else { continue };
            if found == LIMIT_PER_RULE + 1 {
                self.problems.push(last);
                continue;
            }
            self.problems.push(Problem {
                line: last.line,
                column: last.column,
                severity,
                rule,
                message: format!(
                    "{} more problems of this rule, the last here, not listed: check lists the first {LIMIT_PER_RULE} of each rule in a file",
                    found - LIMIT_PER_RULE
                ),
                file: last.file,
            });
        }
        self.problems
    }
}
