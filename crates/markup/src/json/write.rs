//! Writing JSON strings, escaped as the program that reads the file back
//! escapes them, so that markport's output is the file that program would
//! have written.
//!
//! ```
//! use markport_markup::json::write::{push_string, Escaping};
//!
//! let mut out = String::new();
//! push_string(&mut out, "a<b\u{1}", Escaping::Chromium);
//! assert_eq!(out, r#""a\u003Cb\u0001""#);
//! out.clear();
//! push_string(&mut out, "a<b\u{1}", Escaping::Firefox);
//! assert_eq!(out, r#""a<b\u0001""#);
//! ```

/// How a string is escaped. Every form escapes `"` and `\`, LF, CR and tab
/// by their short names, the other C0 controls as `\uXXXX`, and U+2028 and
/// U+2029 (line ends to JavaScript before ES2019) as `\u2028` and `\u2029`;
/// every other character is written as raw UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escaping {
    /// Chromium's `EscapeJSONString` (its `Bookmarks` file): also backspace
    /// and form feed as `\b` and `\f`, `<` as `\u003C` (so that the text
    /// can sit inside a `<script>`), DEL as `\u007F`, hex in upper case.
    Chromium,
    /// Firefox's bookmark backups: backspace and form feed as `\u0008` and
    /// `\u000c`, hex in lower case, `<` and DEL raw.
    Firefox,
}

enum Replacement {
    /// A fixed escape such as `\n`.
    Short(&'static str),
    /// `\u` and four hex digits.
    Unicode(char),
}

impl Escaping {
    /// What `c` is written as, or `None` when it is written as itself.
    fn replacement(self, c: char) -> Option<Replacement> {
        use Replacement::{Short, Unicode};
        let chromium = self == Escaping::Chromium;
        match c {
            '"' => Some(Short("\\\"")),
            '\\' => Some(Short("\\\\")),
            '\n' => Some(Short("\\n")),
            '\r' => Some(Short("\\r")),
            '\t' => Some(Short("\\t")),
            '\u{8}' if chromium => Some(Short("\\b")),
            '\u{c}' if chromium => Some(Short("\\f")),
            '<' if chromium => Some(Short("\\u003C")),
            '\u{7f}' if chromium => Some(Unicode(c)),
            '\u{0}'..='\u{1f}' | '\u{2028}' | '\u{2029}' => Some(Unicode(c)),
            _ => None,
        }
    }

    fn hex_digits(self) -> &'static [u8; 16] {
        match self {
            Escaping::Chromium => b"0123456789ABCDEF",
            Escaping::Firefox => b"0123456789abcdef",
        }
    }
}

/// Whether a byte may start a character that some escaping replaces: the
/// ASCII controls, `"`, `\`, `<`, DEL, and 0xE2 (which starts U+2028 and
/// U+2029). Every other byte is copied as it is, so a string is scanned a
/// byte at a time through one table lookup instead of decoded character by
/// character.
const fn interesting() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'<' as usize] = true;
    t[0x7F] = true;
    t[0xE2] = true;
    t
}

static INTERESTING: [bool; 256] = interesting();

/// Append `s` to `out` as a quoted JSON string, escaped as `escaping` says.
pub fn push_string(out: &mut String, s: &str, escaping: Escaping) {
    out.push('"');
    crate::replace::copy_replacing(
        out,
        s,
        &INTERESTING,
        |c| escaping.replacement(c),
        |out, rep| match rep {
            Replacement::Short(r) => out.push_str(r),
            Replacement::Unicode(c) => push_unicode(out, c, escaping.hex_digits()),
        },
    );
    out.push('"');
}

/// `\uXXXX` for a character of the Basic Multilingual Plane (every one
/// escaped is), without `fmt`.
fn push_unicode(out: &mut String, c: char, hex: &[u8; 16]) {
    let v = u32::from(c);
    out.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        out.push(char::from(hex[((v >> shift) & 0xF) as usize]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Event, Parser};

    fn written(s: &str, escaping: Escaping) -> String {
        let mut out = String::new();
        push_string(&mut out, s, escaping);
        out
    }

    #[test]
    fn chromium_escapes_as_escape_json_string_does() {
        assert_eq!(
            written(
                "x\"\u{e9}\u{1F600}<\n\u{1}\u{2028}\u{8}\u{c}\u{7f}\u{1f}",
                Escaping::Chromium
            ),
            r#""x\"é😀\u003C\n\u0001\u2028\b\f\u007F\u001F""#
        );
    }

    #[test]
    fn firefox_escapes_controls_in_lower_case_and_keeps_lt_and_del() {
        assert_eq!(
            written(
                "x\"\u{e9}\u{1F600}<\n\u{1}\u{2029}\u{8}\u{c}\u{7f}\u{1f}\\",
                Escaping::Firefox
            ),
            "\"x\\\"é😀<\\n\\u0001\\u2029\\u0008\\u000c\u{7f}\\u001f\\\\\""
        );
    }

    /// Every character an escaping treats specially, and its neighbours,
    /// reads back as itself through the JSON parser.
    #[test]
    fn every_escaped_string_reads_back_as_itself() {
        let mut text: String = (0u32..0x100).filter_map(char::from_u32).collect();
        text.push_str("\u{2027}\u{2028}\u{2029}\u{202a}\u{e2}\u{1F600}end");
        for escaping in [Escaping::Chromium, Escaping::Firefox] {
            let json = written(&text, escaping);
            let mut p = Parser::new(json.as_bytes());
            match p.next().unwrap() {
                Some((_, Event::Str(s))) => assert_eq!(s, text, "{escaping:?}"),
                other => panic!("{escaping:?}: {other:?}"),
            }
            assert!(p.next().unwrap().is_none());
        }
    }
}
