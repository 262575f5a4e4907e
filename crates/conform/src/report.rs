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
        extra::BOOKMARK_TITLE_FORM,
        extra::FOLDER_TITLE_FORM,
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
            // The documented name; the first releases wrote only the
            // other, which stays for the programs that read it.
            o.insert("markport_conformance".into(), JSON_VERSION.into());
            o.insert("markport_tests".into(), JSON_VERSION.into());
        }
        v
    }

    /// The verdict in words that agree with the numbers: how many `must`
    /// values were changed or lost on how many files, and on how many files
    /// the tool failed.
    pub fn verdict(&self) -> String {
        let m = &self.summary;
        if self.passed {
            return format!(
                "passed: every must value kept on all {}",
                plural(m.files, "file")
            );
        }
        let mut v = String::from("FAILED: ");
        if m.must_changed + m.must_lost > 0 {
            let _ = write!(
                v,
                "{} changed and {} lost, on {} of {}",
                plural(m.must_changed, "must value"),
                m.must_lost,
                m.files_must_not_kept,
                plural(m.files, "file")
            );
        }
        if m.files_failed > 0 {
            if m.must_changed + m.must_lost > 0 {
                v.push_str("; ");
            }
            let _ = write!(v, "the tool failed on {}", plural(m.files_failed, "file"));
        }
        v
    }

    /// The report for people: what to fix first, the verdict, a line per
    /// check with its counts, the first values changed or lost (before and
    /// after), a line per failed file, and the verdict again.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let failed = self.summary.files_failed;
        let _ = writeln!(
            s,
            "conformance of `{}`: {} -> {} ({}), {}",
            shown(&self.command, false),
            self.from,
            self.to,
            self.mode.name(),
            plural(self.files.len(), "file"),
        );
        let _ = writeln!(s, "{}", self.verdict());
        let fixes = self.fix_first();
        if !fixes.is_empty() {
            let _ = writeln!(s, "\nfix first:");
            for (i, fix) in fixes.iter().enumerate() {
                let _ = writeln!(s, "  {}. {fix}", i + 1);
            }
        }
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
            // The examples name their paths; checks without values (order,
            // placement, separators) list the paths alone.
            for (what, count, paths) in [
                ("changed", t.changed, &t.changed_paths),
                ("lost", t.lost, &t.lost_paths),
            ] {
                if !paths.is_empty() && t.examples.is_empty() {
                    let more = if count > paths.len() { ", ..." } else { "" };
                    let paths: Vec<Cow<str>> = paths.iter().map(|p| shown(p, false)).collect();
                    let _ = writeln!(s, "          {what}: {}{more}", paths.join(", "));
                }
            }
            let not_kept = t.changed + t.lost;
            if !t.examples.is_empty() && not_kept > t.examples.len() {
                let _ = writeln!(
                    s,
                    "          first {} of {not_kept} changed or lost:",
                    t.examples.len()
                );
            }
            for e in &t.examples {
                let after = match &e.after {
                    Some(a) => quoted(a),
                    None => "(lost)".to_owned(),
                };
                let _ = writeln!(
                    s,
                    "          {} -> {after}  at {}",
                    quoted(&e.before),
                    shown(&e.path, false)
                );
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
        let _ = writeln!(s, "{}", self.verdict());
        s
    }

    /// What to fix first, most important first: the files the tool failed
    /// on, then each cause of changed values (by how many `must` values it
    /// changed, then how many values; `other` last), then the checks that
    /// lost values (`must` first).
    pub fn fix_first(&self) -> Vec<String> {
        let mut out = Vec::new();
        let failed: Vec<&str> = self
            .files
            .iter()
            .filter(|f| f.failure.is_some())
            .map(|f| f.file.as_str())
            .collect();
        if !failed.is_empty() {
            let more = if failed.len() > 3 { ", ..." } else { "" };
            let names: Vec<Cow<str>> = failed.iter().take(3).map(|f| shown(f, false)).collect();
            out.push(format!(
                "the tool failed on {} ({}{more}): see failures below",
                plural(failed.len(), "file"),
                names.join(", ")
            ));
        }
        for c in &self.causes {
            let checks: Vec<String> = c.checks.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let level = if c.must > 0 {
                format!(", {} of them must", c.must)
            } else {
                String::new()
            };
            out.push(format!(
                "{}: {} changed{level} ({})",
                c.cause,
                plural(c.values, "value"),
                checks.join(", ")
            ));
        }
        for c in &self.checks {
            if c.tally.lost > 0 {
                out.push(format!(
                    "{} lost: {} of {} ({})",
                    c.check,
                    c.tally.lost,
                    c.tally.values,
                    c.level.name()
                ));
            }
        }
        out
    }
}

/// Group the changed values of `checks` by likely cause: the causes that
/// changed `must` values first, then by how many values.
pub(crate) fn causes(checks: &[crate::CheckReport]) -> Vec<crate::CauseReport> {
    let mut out: Vec<crate::CauseReport> = Vec::new();
    for &cause in crate::cause::ALL {
        let mut report = crate::CauseReport {
            cause,
            values: 0,
            must: 0,
            checks: Vec::new(),
        };
        for c in checks {
            if let Some(&n) = c.tally.causes.get(cause) {
                report.values += n;
                if c.level == Level::Must {
                    report.must += n;
                }
                report.checks.push((c.check, n));
            }
        }
        if report.values > 0 {
            out.push(report);
        }
    }
    // "other" names no cause to fix: it comes last whatever its weight.
    // Stable: equal weights keep the order of cause::ALL.
    out.sort_by_key(|c| {
        (
            c.cause == crate::cause::OTHER,
            std::cmp::Reverse(c.must),
            std::cmp::Reverse(c.values),
        )
    });
    out
}

/// `n` and a noun, plural unless `n` is 1.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A value as an example shows it: in quotes with its white space and
/// control characters escaped (`"a\tb"`), cut after [`EXAMPLE_MAX`]
/// characters with a count.
pub(crate) fn quoted(v: &str) -> String {
    // A list (tags) is shown as the JSON it already is.
    if v.starts_with('[') && serde_json::from_str::<Vec<String>>(v).is_ok() {
        return shown(v, false).into_owned();
    }
    let count = v.chars().count();
    let cut: String = v.chars().take(EXAMPLE_MAX).collect();
    let mut q = serde_json::to_string(&cut).expect("a string serialises");
    q = shown(&q, false).into_owned();
    if count > EXAMPLE_MAX {
        let _ = write!(q, "... ({} more characters)", count - EXAMPLE_MAX);
    }
    q
}

/// The longest value an example shows whole, in characters.
const EXAMPLE_MAX: usize = 120;

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
    fn causes_that_changed_must_values_come_first_and_other_last() {
        use crate::compare::Tally;
        use crate::CheckReport;
        let check = |name: &'static str, causes: &[(&'static str, usize)]| CheckReport {
            check: name,
            level: level_of(name),
            files: 1,
            tally: Tally {
                causes: causes.iter().copied().collect(),
                ..Tally::default()
            },
        };
        let checks = [
            check("bookmark.title", &[("other", 9), ("character encoding", 1)]),
            check("bookmark.tags", &[("letter case", 5)]),
            check("bookmark.title.form", &[("white space", 7)]),
        ];
        let order: Vec<_> = causes(&checks)
            .iter()
            .map(|c| (c.cause, c.values, c.must))
            .collect();
        assert_eq!(
            order,
            [
                ("character encoding", 1, 1),
                ("white space", 7, 0),
                ("letter case", 5, 0),
                ("other", 9, 9)
            ]
        );
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
