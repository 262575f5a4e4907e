//! The words of the plain summary: its lines ([`Line`], each of a
//! [`LineKind`]) and how it counts (`2,419 bookmarks`). Below the reports
//! that use them (`report`, `report_three`), which share them.

use std::fmt;

use serde::Serialize;

/// The version of the JSON report's shape.
pub const REPORT_VERSION: u32 = 1;

/// What a line of the plain summary says, for a page to style or pick
/// lines by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum LineKind {
    /// An input that holds no bookmark.
    Empty,
    /// What was written (or would be, or was not) and what it holds.
    Written,
    /// How to import the file into its destination.
    Import,
    /// One merged input's counts.
    Input,
    /// The fields on which a merged input disagreed with an earlier one.
    Conflicts,
    /// What the destination will drop or change on import.
    Destination,
    /// What the output could not carry.
    Lost,
    /// Nothing was lost.
    Kept,
    /// What only an extension other readers ignore carries.
    Extension,
    /// The heading of the requested changes.
    Changes,
    /// One requested change.
    Change,
    /// How a side of a three-way merge was matched to the base.
    Matched,
    /// The outcomes of a three-way merge's items.
    Outcomes,
    /// A three-way merge's conflicts (or that it met none).
    MergeConflict,
}

/// One line of the plain summary: what it says, how far it is indented
/// under the line before (0 or 1), and its words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Line {
    /// What the line says.
    pub kind: LineKind,
    /// 1: a detail of the line before it.
    pub level: u8,
    /// The words, without indentation or newline.
    pub text: String,
}

impl Line {
    pub(crate) fn new(kind: LineKind, text: String) -> Line {
        Line {
            kind,
            level: 0,
            text,
        }
    }

    pub(crate) fn detail(kind: LineKind, text: String) -> Line {
        Line {
            kind,
            level: 1,
            text,
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.level {
            f.write_str("  ")?;
        }
        writeln!(f, "{}", self.text)
    }
}

/// `1 bookmark`, `2,419 bookmarks`.
///
/// ```
/// assert_eq!(markport::report::counted(2419, "bookmark"), "2,419 bookmarks");
/// assert_eq!(markport::report::counted(1, "folder"), "1 folder");
/// ```
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}

/// `2419` as `2,419`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The name of input `i` as the user gave it (empty when not given).
pub(crate) fn name_of<S: AsRef<str>>(names: &[S], i: usize) -> String {
    names.get(i).map_or("", |n| n.as_ref()).to_string()
}
