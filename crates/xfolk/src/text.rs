//! The text forms xFolk values take on a page, and the normal forms the
//! writer checks values against (what reads back unchanged).

/// A paragraph break and a line break while gathering block text.
pub(crate) const PARAGRAPH: char = '\u{2029}';
pub(crate) const LINE: char = '\u{2028}';

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0C')
}

/// Whitespace collapsed to single spaces and trimmed: how a title reads.
pub(crate) fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Text gathered with [`PARAGRAPH`] and [`LINE`] marks into its read form:
/// paragraphs separated by a blank line, lines by a newline, whitespace in
/// each line collapsed, empty lines and paragraphs dropped.
pub(crate) fn blocks(marked: &str) -> String {
    let mut paragraphs = Vec::new();
    for p in marked.split(PARAGRAPH) {
        let lines: Vec<String> = p
            .split(LINE)
            .map(collapse)
            .filter(|l| !l.is_empty())
            .collect();
        if !lines.is_empty() {
            paragraphs.push(lines.join("\n"));
        }
    }
    paragraphs.join("\n\n")
}

/// The paragraphs and lines a description is written as.
pub(crate) fn paragraphs(desc: &str) -> Vec<Vec<&str>> {
    desc.split("\n\n")
        .map(|p| p.split('\n').collect())
        .collect()
}

/// Whether a description reads back exactly as it is.
pub(crate) fn is_block_normal(desc: &str) -> bool {
    if desc.is_empty() || desc.contains([PARAGRAPH, LINE]) {
        return false;
    }
    let marked: String = desc
        .replace("\n\n", &PARAGRAPH.to_string())
        .replace('\n', &LINE.to_string());
    blocks(&marked) == desc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(collapse("  a \n\t b  "), "a b");
        assert_eq!(
            blocks("  one \u{2028} two\u{2029}\u{2029} three  "),
            "one\ntwo\n\nthree"
        );
        assert!(is_block_normal("one\ntwo\n\nthree"));
        assert!(!is_block_normal("one  two"));
        assert!(!is_block_normal("one\n\n\nthree"));
        assert!(!is_block_normal(" x"));
        assert!(!is_block_normal(""));
    }
}
