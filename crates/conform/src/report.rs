//! The report for people (text) and for programs (JSON).

use std::borrow::Cow;
use std::fmt::Write as _;

use markport_model::Field;

use crate::level::{extra, level_of, Level};
use crate::{Mode, Report};

/// The JSON form's version: bumped when a member changes meaning or goes.
pub const JSON_VERSION: u32 = 1;

/// Where a check stands in reports: by level, then the structure first,
/// then the order of [`Field::ALL`].
pub(crate) fn rank(check: &str) -> (Level, usize) {
    const FIRST: &[&str] = &[
        "bookmark",
        "bookmark.href",
        "bookmark.title",
        "folder",
        "folder.title",
        extra::PLACEMENT,
        extra::ORDER,
        extra::ADDED,
    ];
    let at = FIRST.iter().position(|c| *c == check).unwrap_or_else(|| {
        FIRST.len()
            + Field::ALL
                .iter()
                .position(|f| f.name() == check)
                .unwrap_or(Field::ALL.len())
    });
    (level_of(check), at)
}

impl Mode {
    /// The mode's name in reports: `round-trip`, `cross`, `modify`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::RoundTrip => "round-trip",
            Mode::Cross => "cross",
            Mode::Modify => "modify",
        }
    }
}

impl Report {
    /// The stable JSON form (`docs/conformance.md`, "JSON").
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).expect("a report serialises");
        if let Some(o) = v.as_object_mut() {
            o.insert("markport_tests".into(), JSON_VERSION.into());
        }
        v
    }

    /// The report for people: a line per check, the first paths of what
    /// was changed or lost, a line per failed file, and the verdict.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let failed = self.files.iter().filter(|f| f.failure.is_some()).count();
        let _ = writeln!(
            s,
            "conformance of `{}`: {} -> {} ({}), {} files, {} failed",
            shown(&self.command, false),
            self.from,
            self.to,
            self.mode.name(),
            self.files.len(),
            failed
        );
        let _ = writeln!(
            s,
            "\n{:<7} {:<24} {:>6} {:>7} {:>7} {:>7} {:>7}",
            "level", "check", "files", "values", "kept", "changed", "lost"
        );
        for c in &self.checks {
            let t = &c.tally;
            let mark = if t.all_kept() { ' ' } else { '!' };
            let _ = writeln!(
                s,
                "{:<7} {:<24} {:>6} {:>7} {:>7} {:>7} {:>7}{mark}",
                c.level.name(),
                c.check,
                c.files,
                t.values,
                t.kept,
                t.changed,
                t.lost
            );
            for (what, count, paths) in [
                ("changed", t.changed, &t.changed_paths),
                ("lost", t.lost, &t.lost_paths),
            ] {
                if !paths.is_empty() {
                    let more = if count > paths.len() { ", ..." } else { "" };
                    let paths: Vec<Cow<str>> = paths.iter().map(|p| shown(p, false)).collect();
                    let _ = writeln!(s, "          {what}: {}{more}", paths.join(", "));
                }
            }
        }
        if failed > 0 {
            let _ = writeln!(s, "\nfailures:");
            for f in &self.files {
                if let Some(fail) = &f.failure {
                    let _ = writeln!(
                        s,
                        "  {}: {}",
                        shown(&f.file, false),
                        shown(&fail.message, false)
                    );
                    let stderr = shown(&fail.stderr, true);
                    let last = last_lines(&stderr, 3);
                    let lines = stderr.lines().count() - last.len();
                    let hidden = match (lines, fail.stderr_cut) {
                        (0, 0) => String::new(),
                        (lines, 0) => format!("{lines} earlier lines"),
                        (0, bytes) => format!("{bytes} earlier bytes"),
                        (lines, bytes) => {
                            format!("{lines} earlier lines and the {bytes} bytes before them")
                        }
                    };
                    if !hidden.is_empty() {
                        let _ = writeln!(s, "    | ... ({hidden} not shown)");
                    }
                    for line in last {
                        let _ = writeln!(s, "    | {line}");
                    }
                }
            }
        }
        for k in &self.skipped {
            let _ = writeln!(
                s,
                "skipped {}: {}",
                shown(&k.file, false),
                shown(&k.reason, false)
            );
        }
        let _ = writeln!(
            s,
            "\ntool {:.3} s, whole run {:.3} s",
            self.tool_seconds, self.total_seconds
        );
        let verdict = if self.passed {
            "passed: every must value kept"
        } else {
            "FAILED: a must value was changed or lost, or the tool failed on a file"
        };
        let _ = writeln!(s, "{verdict}");
        s
    }
}

/// Whether `c` would act on a terminal or reorder text rather than show:
/// C0 and C1 controls, DEL, and the bidirectional overrides and isolates.
fn acts(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` as it can be shown to a person: each control character, escape
/// sequences' ESC included, and each bidirectional control written as a
/// Rust escape (`\u{1b}`, `\t`), so that what a tool wrote cannot clear the
/// screen, move the cursor or reorder the report around it. Line breaks
/// stay when `lines` is set (the caller splits on them); a line longer than
/// [`LINE_MAX`] characters is cut, with a count of what was cut.
pub(crate) fn shown(s: &str, lines: bool) -> Cow<'_, str> {
    if !s.chars().any(acts) && s.len() <= LINE_MAX {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut in_line = 0usize;
    let mut cut = 0usize;
    for c in s.chars() {
        if c == '\n' && lines {
            if cut > 0 {
                let _ = write!(out, "... ({cut} more characters)");
                cut = 0;
            }
            out.push('\n');
            in_line = 0;
            continue;
        }
        if in_line >= LINE_MAX {
            cut += 1;
            continue;
        }
        in_line += 1;
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            c if acts(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    if cut > 0 {
        let _ = write!(out, "... ({cut} more characters)");
    }
    Cow::Owned(out)
}

/// The longest line [`shown`] prints whole, in characters.
pub(crate) const LINE_MAX: usize = 500;

fn last_lines(text: &str, n: usize) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_bidi_controls_are_shown_escaped() {
        assert_eq!(shown("plain title", false), "plain title");
        assert_eq!(
            shown("\u{1b}[2J\u{1b}]0;x\u{7}done\r\tend", false),
            "\\u{1b}[2J\\u{1b}]0;x\\u{7}done\\r\\tend"
        );
        assert_eq!(
            shown("a\u{7f}b\u{85}c\u{202e}d", false),
            "a\\u{7f}b\\u{85}c\\u{202e}d"
        );
        assert_eq!(shown("one\ntwo", false), "one\\ntwo");
        assert_eq!(shown("one\ntwo\u{1b}", true), "one\ntwo\\u{1b}");
    }

    #[test]
    fn a_long_line_is_cut_with_a_count() {
        let long = "x".repeat(LINE_MAX + 1234);
        let s = shown(&long, false);
        assert!(s.starts_with(&"x".repeat(LINE_MAX)));
        assert!(s.ends_with("... (1234 more characters)"), "{s}");
        let two = format!("{long}\nshort");
        let s = shown(&two, true);
        assert!(s.ends_with("... (1234 more characters)\nshort"), "{s}");
    }
}
