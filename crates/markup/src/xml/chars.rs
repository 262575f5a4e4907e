//! XML 1.0's character classes.

/// Whether XML 1.0 can carry `c` at all, even as a character reference.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Whether `s` has characters XML 1.0 cannot carry: C0 controls but tab,
/// LF and CR, and U+FFFE/U+FFFF (UTF-8 `EF BF BE`/`EF BF BF`; `&str` holds
/// no surrogates). Scanned as bytes: every writer checks every string.
pub fn has_unwritable(s: &str) -> bool {
    let b = s.as_bytes();
    // Nearly every string has neither a control byte nor 0xEF: a
    // branch-free pass over 32-byte blocks (which the compiler vectorises)
    // rules that out before the exact scan.
    let suspect = b.chunks(32).any(|block| {
        block
            .iter()
            .fold(false, |seen, &c| seen | (c < 0x20) | (c == 0xEF))
    });
    suspect
        && b.iter().enumerate().any(|(i, &c)| {
            (c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\r'))
                || (c == 0xEF
                    && b.get(i + 1) == Some(&0xBF)
                    && matches!(b.get(i + 2), Some(0xBE | 0xBF)))
        })
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
    fn the_byte_check_agrees_with_the_character_class() {
        for c in ('\0'..='\u{2ff}')
            .chain('\u{d000}'..='\u{d7ff}')
            .chain('\u{e000}'..='\u{10100}')
        {
            let s = format!("a{c}b");
            assert_eq!(has_unwritable(&s), !is_xml_char(c), "{c:?}");
        }
    }

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
