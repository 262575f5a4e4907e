//! XML 1.0 text rules: what may appear, how to escape it, what a Name is.

/// Whether XML 1.0 can carry `c` at all, even as a character reference.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Whether `s` has characters XML 1.0 cannot carry.
pub fn has_unwritable(s: &str) -> bool {
    !s.chars().all(is_xml_char)
}

/// Append `s` as element content. CR is written as a reference so that it
/// survives line-end normalisation; characters XML cannot carry are left out
/// (the writer reports that loss before calling this).
pub fn push_text(out: &mut String, s: &str) {
    push_escaped(out, s, false);
}

/// Append `s` as a double-quoted attribute value. Tab, LF and CR are written
/// as references because attribute-value normalisation turns literal ones into spaces.
pub fn push_attr(out: &mut String, s: &str) {
    push_escaped(out, s, true);
}

fn push_escaped(out: &mut String, s: &str, attr: bool) {
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let rep = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '\r' => "&#xD;",
            '"' if attr => "&quot;",
            '\t' if attr => "&#x9;",
            '\n' if attr => "&#xA;",
            c if !is_xml_char(c) => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        out.push_str(rep);
        start = i + c.len_utf8();
    }
    out.push_str(&s[start..]);
}

/// Whether `s` is an XML Name (what an `ID` attribute must be).
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let start = |c: char| c.is_alphabetic() || c == '_' || c == ':';
    start(first)
        && chars.all(|c| start(c) || c.is_alphanumeric() || matches!(c, '-' | '.' | '\u{B7}'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_would_change_meaning() {
        let mut s = String::new();
        push_text(&mut s, "a<b>&c\r\n\u{1}d");
        assert_eq!(s, "a&lt;b&gt;&amp;c&#xD;\nd");
        let mut a = String::new();
        push_attr(&mut a, "q\"\t\n'");
        assert_eq!(a, "q&quot;&#x9;&#xA;'");
    }

    #[test]
    fn names() {
        assert!(is_name("b1"));
        assert!(is_name("_x.y-z"));
        assert!(is_name("été"));
        assert!(!is_name("1"));
        assert!(!is_name(""));
        assert!(!is_name("a b"));
    }
}
