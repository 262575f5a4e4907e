//! Text from a file, shown to a person.
//!
//! A title, a path or a message that quotes a file is printed on a terminal
//! the file's author does not control: an escape sequence in a title
//! (`ESC [2J`) would clear the screen, a right-to-left override (U+202E)
//! would reverse the rest of the line, and a 50 MB title would fill the
//! scrollback. [`shown`] is the one place where such text is made safe to
//! print; JSON output does not use it (its values stay exact).

use std::borrow::Cow;
use std::fmt::Write;

/// How many characters of a value (a title, a node path) are shown.
pub const VALUE_CHARS: usize = 200;

/// How many characters of a message (which may quote a value) are shown.
pub const MESSAGE_CHARS: usize = 500;

/// Whether `c` is shown escaped: every C0 control (tab and line break
/// included: one value stays on one line), DEL, every C1 control, and the
/// bidirectional embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069), which reorder what follows them on the line.
pub fn is_hidden(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// `text` as a person may see it: each [`is_hidden`] character written as
/// `\u{1b}`, and, when that is longer than `max` characters, cut there and
/// followed by how long the value is: `… (52,428,800 characters)`.
/// Borrowed when nothing needed changing.
///
/// ```
/// use markport_model::display::shown;
///
/// assert_eq!(shown("News", 200), "News");
/// assert_eq!(shown("a\u{1b}[2J\u{202e}b", 200), "a\\u{1b}[2J\\u{202e}b");
/// let long = "x".repeat(1000);
/// assert_eq!(shown(&long, 3), "xxx… (1,000 characters)");
/// ```
pub fn shown(text: &str, max: usize) -> Cow<'_, str> {
    // The common case (short, printable) costs one pass and no copy.
    let clean = !text.chars().any(is_hidden);
    if clean && text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut width = 0;
    let mut cut = false;
    for c in text.chars() {
        let w = if is_hidden(c) {
            // `\u{1b}`: 5 characters and the digits.
            5 + format!("{:x}", c as u32).len()
        } else {
            1
        };
        if width + w > max {
            cut = true;
            break;
        }
        width += w;
        if is_hidden(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    if !cut {
        return Cow::Owned(out);
    }
    let _ = write!(out, "… ({} characters)", grouped(text.chars().count()));
    Cow::Owned(out)
}

/// `52428800` as `52,428,800`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_and_bidi_character_is_escaped() {
        for c in [
            '\u{0}', '\t', '\n', '\u{1b}', '\u{7}', '\u{7f}', '\u{85}', '\u{9f}',
        ] {
            let s = format!("a{c}b");
            let out = shown(&s, VALUE_CHARS);
            assert_eq!(out, format!("a\\u{{{:x}}}b", c as u32));
        }
        for c in ('\u{202a}'..='\u{202e}').chain('\u{2066}'..='\u{2069}') {
            assert!(!shown(&c.to_string(), VALUE_CHARS).contains(c));
        }
        // Text around them, and other non-ASCII text, is kept as it is.
        assert_eq!(
            shown("café \u{200f} 東京", VALUE_CHARS),
            "café \u{200f} 東京"
        );
    }

    #[test]
    fn a_long_value_is_cut_with_its_length() {
        let long = "é".repeat(52_428_800 / 8);
        let out = shown(&long, VALUE_CHARS);
        assert_eq!(out, format!("{}… (6,553,600 characters)", "é".repeat(200)));
        // Escapes count towards the width, so a line stays short.
        let esc = "\u{1b}".repeat(1000);
        let out = shown(&esc, VALUE_CHARS);
        assert!(out.chars().count() < VALUE_CHARS + 30, "{out}");
        assert!(out.ends_with("… (1,000 characters)"));
        // Exactly `max` characters are not cut.
        assert_eq!(shown(&"x".repeat(200), 200), "x".repeat(200));
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(52_428_800), "52,428,800");
    }
}
