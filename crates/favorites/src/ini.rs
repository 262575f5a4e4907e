//! The INI dialect both Windows Internet Shortcuts and freedesktop entry
//! files are written in: `[Section]` lines, `Key=Value` lines, comments
//! (`;` or `#`) and blank lines; CRLF or LF. One pass over the lines, each
//! entry with the line and column it starts at.

use markport_model::{Diagnostic, Location};

/// One `Key=Value` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry<'a> {
    /// The section it is under (without brackets), `""` before the first.
    pub section: &'a str,
    /// The key, trimmed, as written.
    pub key: &'a str,
    /// The value, without leading blanks and the line end.
    pub value: &'a str,
    /// Where the line starts.
    pub at: Location,
}

/// The entries of `text`; lines that are neither a section, an entry, a
/// comment nor blank are warned about (with their line and column) and
/// skipped, as Windows and GLib skip them.
pub(crate) fn parse<'a>(text: &'a str, diags: &mut Vec<Diagnostic>) -> Vec<Entry<'a>> {
    let mut out = Vec::new();
    let mut section = "";
    for (n, raw) in text.split('\n').enumerate() {
        let line_no = u32::try_from(n + 1).unwrap_or(u32::MAX);
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let indent = line.len() - line.trim_start().len();
        let at = |col: usize| Location {
            line: line_no,
            column: u32::try_from(line[..col].chars().count() + 1).unwrap_or(u32::MAX),
        };
        let body = line.trim();
        if body.is_empty() || body.starts_with(';') || body.starts_with('#') {
            continue;
        }
        if let Some(rest) = body.strip_prefix('[') {
            match rest.find(']') {
                Some(end) => section = &rest[..end],
                None => diags.push(Diagnostic::warning(
                    "a section line without its closing `]`: skipped",
                    Some(at(indent)),
                )),
            }
            continue;
        }
        match line.find('=') {
            Some(eq) => {
                let key = line[..eq].trim();
                let value = line[eq + 1..].trim_start_matches([' ', '\t']);
                out.push(Entry {
                    section,
                    key,
                    value,
                    at: at(indent),
                });
            }
            None => diags.push(Diagnostic::warning(
                "a line that is neither `[Section]` nor `Key=Value`: skipped",
                Some(at(indent)),
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_entries_and_positions() {
        let mut diags = Vec::new();
        let text =
            "; c\r\n[InternetShortcut]\r\nURL=https://e.example/?a=b\r\n  junk\r\n[X]\nK = v \n";
        let e = parse(text, &mut diags);
        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[0].section, e[0].key, e[0].value),
            ("InternetShortcut", "URL", "https://e.example/?a=b")
        );
        assert_eq!((e[0].at.line, e[0].at.column), (3, 1));
        assert_eq!((e[1].section, e[1].key, e[1].value), ("X", "K", "v "));
        assert_eq!(diags.len(), 1);
        let at = diags[0].location.unwrap();
        assert_eq!((at.line, at.column), (4, 3));
    }
}
