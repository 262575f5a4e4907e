//! The report for people (text) and for programs (JSON).

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
            self.command,
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
                    let _ = writeln!(s, "          {what}: {}{more}", paths.join(", "));
                }
            }
        }
        if failed > 0 {
            let _ = writeln!(s, "\nfailures:");
            for f in &self.files {
                if let Some(fail) = &f.failure {
                    let _ = writeln!(s, "  {}: {}", f.file, fail.message);
                    for line in last_lines(&fail.stderr, 3) {
                        let _ = writeln!(s, "    | {line}");
                    }
                }
            }
        }
        for k in &self.skipped {
            let _ = writeln!(s, "skipped {}: {}", k.file, k.reason);
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

fn last_lines(text: &str, n: usize) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}
