//! Escaping text and attribute values.

use super::chars::is_xml_char;

/// How a value is escaped. Every form leaves out what XML cannot carry at
/// all (NUL, U+FFFE, U+FFFF and the like): the writers report that loss
/// before writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escaping {
    /// Element content: `&`, `<`, `>` by name and CR as `&#xD;`, so that it
    /// survives line-end normalisation.
    Text,
    /// A double-quoted attribute value: as [`Escaping::Text`], plus `"` by
    /// name and tab and LF as references, because attribute-value
    /// normalisation turns literal ones into spaces.
    Attribute,
    /// GLib's `g_markup_escape_text`, for text and attributes alike: the
    /// five markup characters by name, and the control characters GLib
    /// reads back (C0 but tab, LF and CR; DEL; C1 but NEL) as lower-case
    /// hex references such as `&#x1;`. Tab, LF and CR stay literal.
    GMarkup,
}

impl Escaping {
    /// Whether `c` is a control character written as a reference that a
    /// GLib reader takes back: it survives although XML 1.0 proper cannot
    /// carry it.
    pub fn is_reference(self, c: char) -> bool {
        self == Escaping::GMarkup && is_gmarkup_control(c)
    }

    /// What `c` is written as, or `None` when it is written as itself.
    fn replacement(self, c: char) -> Option<Replacement> {
        use Replacement::{Named, Nothing, Reference};
        let attr = self == Escaping::Attribute;
        match c {
            '&' => Some(Named("&amp;")),
            '<' => Some(Named("&lt;")),
            '>' => Some(Named("&gt;")),
            '"' if attr || self == Escaping::GMarkup => Some(Named("&quot;")),
            '\'' if self == Escaping::GMarkup => Some(Named("&apos;")),
            '\r' if self != Escaping::GMarkup => Some(Named("&#xD;")),
            '\t' if attr => Some(Named("&#x9;")),
            '\n' if attr => Some(Named("&#xA;")),
            c if self == Escaping::GMarkup && is_gmarkup_control(c) => Some(Reference(c)),
            c if !is_xml_char(c) => Some(Nothing),
            _ => None,
        }
    }
}

enum Replacement {
    Named(&'static str),
    Reference(char),
    Nothing,
}

/// The control characters GLib escapes as references and reads back.
fn is_gmarkup_control(c: char) -> bool {
    matches!(c, '\u{1}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{84}' | '\u{86}'..='\u{9f}')
}

/// Append `s` to `out`, escaped as `escaping` says.
pub fn push_escaped(out: &mut String, s: &str, escaping: Escaping) {
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let Some(rep) = escaping.replacement(c) else {
            continue;
        };
        out.push_str(&s[start..i]);
        match rep {
            Replacement::Named(r) => out.push_str(r),
            Replacement::Reference(c) => {
                use std::fmt::Write;
                let _ = write!(out, "&#x{:x};", u32::from(c));
            }
            Replacement::Nothing => {}
        }
        start = i + c.len_utf8();
    }
    out.push_str(&s[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(s: &str, e: Escaping) -> String {
        let mut out = String::new();
        push_escaped(&mut out, s, e);
        out
    }

    #[test]
    fn text_escapes_what_would_change_meaning() {
        assert_eq!(
            escaped("a<b>&c\r\n\t\"'\u{1}d", Escaping::Text),
            "a&lt;b&gt;&amp;c&#xD;\n\t\"'d"
        );
    }

    #[test]
    fn attributes_also_escape_quotes_and_white_space_normalisation_would_change() {
        assert_eq!(
            escaped("q\"\t\n\r'<\u{FFFE}", Escaping::Attribute),
            "q&quot;&#x9;&#xA;&#xD;'&lt;"
        );
    }

    #[test]
    fn gmarkup_names_five_characters_and_references_controls() {
        assert_eq!(
            escaped("a&<>'\"\t\n\r\u{1}\u{7f}\u{85}\u{86}\0é", Escaping::GMarkup),
            "a&amp;&lt;&gt;&apos;&quot;\t\n\r&#x1;&#x7f;\u{85}&#x86;é"
        );
        assert!(Escaping::GMarkup.is_reference('\u{1f}'));
        assert!(!Escaping::GMarkup.is_reference('\0'));
        assert!(!Escaping::Text.is_reference('\u{1f}'));
    }
}
