//! What a check finds: rules, problems, and the sink that places each
//! problem at its line and column.

use markport_model::LineIndex;
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

/// Collects problems found at byte offsets of one text and locates them.
///
/// Problems come mostly in the order of the text, so each is located by
/// counting on from the one before: all of them together cost one pass
/// over the text, however many there are. One found earlier in the text
/// than the last (a duplicate's first place, an alias checked at the end)
/// asks the line index, built then: a clean file never pays for it.
pub(crate) struct Sink<'a> {
    text: &'a [u8],
    lines: Option<LineIndex<'a>>,
    /// The last place located: (offset, 1-based line, 0-based column).
    cursor: (usize, u32, u32),
    problems: Capped,
}

/// Characters in `bytes` as `String::from_utf8_lossy` counts them (one per
/// malformed sequence), as [`LineIndex`] counts columns.
fn lossy_chars(bytes: &[u8]) -> usize {
    bytes
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

impl<'a> Sink<'a> {
    /// A sink for problems at offsets into `text`.
    pub(crate) fn new(text: &'a [u8]) -> Sink<'a> {
        Sink {
            text,
            lines: None,
            cursor: (0, 1, 0),
            problems: Capped::default(),
        }
    }

    /// The 1-based line and column of byte `offset`.
    fn locate(&mut self, offset: usize) -> (u32, u32) {
        let text = self.text;
        let offset = offset.min(text.len());
        let (from, line, column) = self.cursor;
        if offset < from {
            let loc = self
                .lines
                .get_or_insert_with(|| LineIndex::new(text))
                .locate(offset);
            return (loc.line, loc.column);
        }
        // Line ends as the line index counts them: LF, CRLF, a lone CR.
        let mut breaks = 0u32;
        let mut line_start = None;
        for (i, &c) in text[from..offset].iter().enumerate() {
            let at = from + i;
            if c == b'\n' || (c == b'\r' && text.get(at + 1) != Some(&b'\n')) {
                breaks += 1;
                line_start = Some(at + 1);
            }
        }
        let column = match line_start {
            Some(start) => lossy_chars(&text[start..offset]) as u32,
            None => column + lossy_chars(&text[from..offset]) as u32,
        };
        self.cursor = (offset, line + breaks, column);
        (line + breaks, column + 1)
    }

    /// Report `rule` at byte `offset` of the text.
    pub(crate) fn at(&mut self, rule: &Rule, offset: usize, message: impl Into<String>) {
        let (line, column) = self.locate(offset);
        self.problems.push(Problem {
            file: None,
            line,
            column,
            severity: rule.severity,
            rule: rule.id,
            message: message.into(),
        });
    }

    /// The problems found (at most [`LIMIT_PER_RULE`] of a rule, then its
    /// count), in the order found.
    pub(crate) fn finish(self) -> Vec<Problem> {
        self.problems.finish()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Counting on from the last problem gives what the line index gives,
    /// for every offset, in order or not, over every kind of line end and
    /// malformed UTF-8.
    #[test]
    fn the_cursor_agrees_with_the_line_index() {
        let text = "ab\ncd\r\nef\rgh\u{e9}\u{1F600}x\n\n\r\r\nend"
            .as_bytes()
            .to_vec();
        let mut bytes = text.clone();
        bytes.extend_from_slice(b"\xff\xfe z\n\xe9t\r\n");
        let index = LineIndex::new(&bytes);
        let rule = Rule {
            id: "t/t",
            severity: Severity::Error,
            summary: "",
        };
        for step in 1..5 {
            let mut sink = Sink::new(&bytes);
            let offsets: Vec<usize> = (0..=bytes.len()).step_by(step).chain([3, 1, 9]).collect();
            for &o in &offsets {
                if std::str::from_utf8(&bytes[..o]).is_err() && o < text.len() {
                    continue;
                }
                sink.at(&rule, o, "");
                let p = sink.problems.problems.last().unwrap();
                let want = index.locate(o);
                assert_eq!((p.line, p.column), (want.line, want.column), "offset {o}");
            }
        }
    }
}
