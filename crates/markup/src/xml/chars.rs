//! XML 1.0's character classes.

/// Whether XML 1.0 can carry `c` at all, even as a character reference.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Whether `s` has characters XML 1.0 cannot carry.
pub fn has_unwritable(s: &str) -> bool {
    !s.chars().all(is_xml_char)
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
    fn xml_chars_exclude_most_controls_and_the_non_characters() {
        for c in [
            '\t',
            '\n',
            '\r',
            ' ',
            'é',
            '\u{D7FF}',
            '\u{E000}',
            '\u{FFFD}',
            '\u{10000}',
        ] {
            assert!(is_xml_char(c), "{c:?}");
        }
        for c in [
            '\0', '\u{1}', '\u{B}', '\u{C}', '\u{1F}', '\u{FFFE}', '\u{FFFF}',
        ] {
            assert!(!is_xml_char(c), "{c:?}");
        }
    }

    #[test]
    fn unwritable_strings_hold_a_character_xml_cannot_carry() {
        assert!(!has_unwritable("tab\tline\ncr\r"));
        assert!(has_unwritable("bell\u{7}"));
        assert!(!has_unwritable(""));
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
