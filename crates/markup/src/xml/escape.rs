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

/// Whether a byte may start a character that some escaping replaces: ASCII
/// controls, the five markup characters, DEL, 0xC2 (which starts the C1
/// controls GLib references) and 0xEF (which starts U+FFFE and U+FFFF, the
/// only non-ASCII characters XML cannot carry that UTF-8 text can hold).
/// Every other byte is copied as it is, so text is scanned a byte at a
/// time through one table lookup instead of decoded character by character.
const fn interesting() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'&' as usize] = true;
    t[b'<' as usize] = true;
    t[b'>' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t[0x7F] = true;
    t[0xC2] = true;
    t[0xEF] = true;
    t
}

static INTERESTING: [bool; 256] = interesting();

/// Append `s` to `out`, escaped as `escaping` says. Returns whether a
/// character XML cannot carry was left out, which a writer reports as lost.
pub fn push_escaped(out: &mut String, s: &str, escaping: Escaping) -> bool {
    let mut dropped = false;
    crate::replace::copy_replacing(
        out,
        s,
        &INTERESTING,
        |c| escaping.replacement(c),
        |out, rep| match rep {
            Replacement::Named(r) => out.push_str(r),
            Replacement::Reference(c) => push_reference(out, c),
            Replacement::Nothing => dropped = true,
        },
    );
    dropped
}

/// `&#xHH;` in lower-case hex, as GLib writes it, without `fmt`.
fn push_reference(out: &mut String, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push_str("&#x");
    let v = u32::from(c);
    let mut digits = [0u8; 8];
    let mut n = 0;
    let mut rest = v;
    loop {
        digits[n] = HEX[(rest & 0xF) as usize];
        n += 1;
        rest >>= 4;
        if rest == 0 {
            break;
        }
    }
    for &d in digits[..n].iter().rev() {
        out.push(char::from(d));
    }
    out.push(';');
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

    /// The byte scan escapes exactly what a character-by-character pass
    /// does, on every character class that matters and around them.
    #[test]
    fn the_byte_scan_agrees_with_a_character_pass() {
        let samples: Vec<char> = "a<&>\"'\t\n\r\0\u{1}\u{1f} \u{7f}\u{80}\u{85}\u{9f}\u{a0}é\u{c2}\u{ff}\u{fffd}\u{fffe}\u{ffff}\u{feff}\u{10000}\u{10ffff}"
            .chars()
            .collect();
        let slow = |s: &str, e: Escaping| {
            let mut out = String::new();
            for c in s.chars() {
                match e.replacement(c) {
                    Some(Replacement::Named(r)) => out.push_str(r),
                    Some(Replacement::Reference(c)) => {
                        out.push_str(&format!("&#x{:x};", u32::from(c)))
                    }
                    Some(Replacement::Nothing) => {}
                    None => out.push(c),
                }
            }
            out
        };
        for e in [Escaping::Text, Escaping::Attribute, Escaping::GMarkup] {
            for a in &samples {
                for b in &samples {
                    let s: String = [*a, 'x', *b, *a].iter().collect();
                    assert_eq!(escaped(&s, e), slow(&s, e), "{s:?} {e:?}");
                }
            }
        }
    }
}
