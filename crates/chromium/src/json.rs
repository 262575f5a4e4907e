//! Chromium's JSON layout: its indentation and its string escaping, shared
//! by the writer and by the reader's values kept as text.

/// Levels of indentation written at most. Chromium indents every level,
/// which makes a file's size grow with the square of its depth (100,000
/// levels would be 10^11 bytes); deeper lines keep this indentation, which
/// changes no value and keeps the size linear.
pub const MAX_INDENT: usize = 100;

/// Indent a line to `depth` levels of three spaces, as Chromium's JSONWriter
/// does (up to [`MAX_INDENT`] levels).
pub fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth.min(MAX_INDENT) {
        out.push_str("   ");
    }
}

/// A JSON string as Chromium's `EscapeJSONString` writes it: `<` as
/// `\u003C`, U+2028/U+2029 and control characters escaped, the rest raw UTF-8.
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' => out.push_str("\\u003C"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
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
