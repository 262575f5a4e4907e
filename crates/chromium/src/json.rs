//! Chromium's JSON layout: its indentation and its string escaping, shared
//! by the writer and by the reader's values kept as text.

use markport_markup::json::write::{push_string, Escaping};
use markport_markup::xml::MAX_INDENT_DEPTH;

/// Indent a line to `depth` levels of three spaces, as Chromium's JSONWriter
/// does. Chromium indents every level, which makes a file's size grow with
/// the square of its depth (100,000 levels would be 10^11 bytes); lines
/// deeper than markup's [`MAX_INDENT_DEPTH`] keep that indentation, which
/// changes no value and keeps the size linear.
pub fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth.min(MAX_INDENT_DEPTH) {
        out.push_str("   ");
    }
}

/// A JSON string as Chromium's `EscapeJSONString` writes it: `<` as
/// `\u003C`, U+2028/U+2029 and control characters escaped, the rest raw
/// UTF-8 (markup's [`Escaping::Chromium`]).
pub fn write_string(s: &str, out: &mut String) {
    push_string(out, s, Escaping::Chromium);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_chromium_escapes_them() {
        let mut out = String::new();
        write_string("x\"\u{e9}\u{1F600}<\n\u{1}\u{2028}", &mut out);
        assert_eq!(out, r#""x\"é😀\u003C\n\u0001\u2028""#);
    }
}
