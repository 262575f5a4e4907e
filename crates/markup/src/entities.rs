//! Character references and line ends, as HTML5 reads them; and the escaping
//! that every importer decodes.
//!
//! The named-reference table is markup5ever's (the one html5ever uses), so a
//! title reads as it does in a browser: `&amp;`, `&eacute;`, `&#8230;`,
//! `&#x2014;`, the legacy forms without `;` (`&copy`), the windows-1252
//! meaning of `&#150;`, and a bare `&` kept as it is.

use std::borrow::Cow;

use markup5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// Where a value stands: in an attribute `&copy=` is not a reference (HTML5's
/// rule for query strings like `?a=1&copy=2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// Element content.
    Text,
    /// An attribute value.
    Attribute,
}

/// Decode character references and turn CRLF and lone CR into LF.
pub fn decode(raw: &str, ctx: Context) -> Cow<'_, str> {
    let b = raw.as_bytes();
    let Some(first) = memchr::memchr2(b'&', b'\r', b) else {
        return Cow::Borrowed(raw);
    };
    let mut out = String::with_capacity(raw.len());
    let mut i = first;
    let mut copied = 0;
    while i < b.len() {
        match b[i] {
            b'\r' => {
                out.push_str(&raw[copied..i]);
                out.push('\n');
                i += if b.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                copied = i;
            }
            b'&' => {
                if let Some((decoded, len)) = reference(&raw[i + 1..], ctx) {
                    out.push_str(&raw[copied..i]);
                    out.push(decoded.0);
                    out.extend(decoded.1);
                    i += 1 + len;
                    copied = i;
                } else {
                    i += 1;
                }
            }
            _ => {
                i = memchr::memchr2(b'&', b'\r', &b[i..]).map_or(b.len(), |k| i + k);
            }
        }
    }
    out.push_str(&raw[copied..]);
    Cow::Owned(out)
}

/// A reference stands for one character or, for a few named ones, two.
type Chars = (char, Option<char>);

/// The reference starting right after a `&`: its characters and how many
/// bytes of `rest` it used.
fn reference(rest: &str, ctx: Context) -> Option<(Chars, usize)> {
    let b = rest.as_bytes();
    if b.first() == Some(&b'#') {
        let (hex, start) = match b.get(1) {
            Some(b'x' | b'X') => (true, 2),
            _ => (false, 1),
        };
        let digits = b[start..]
            .iter()
            .take_while(|c| {
                if hex {
                    c.is_ascii_hexdigit()
                } else {
                    c.is_ascii_digit()
                }
            })
            .count();
        if digits == 0 {
            return None;
        }
        let text = &rest[start..start + digits];
        let value = u32::from_str_radix(text, if hex { 16 } else { 10 }).unwrap_or(u32::MAX);
        let mut len = start + digits;
        if b.get(len) == Some(&b';') {
            len += 1;
        }
        let c = match value {
            0 => '\u{FFFD}',
            0x80..=0x9F => C1_REPLACEMENTS[(value - 0x80) as usize]
                .unwrap_or_else(|| char::from_u32(value).unwrap_or('\u{FFFD}')),
            v => char::from_u32(v).unwrap_or('\u{FFFD}'),
        };
        return Some(((c, None), len));
    }
    let name_len = b
        .iter()
        .take(40)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    if name_len == 0 {
        return None;
    }
    // The references escaping produces, without a table lookup.
    for (name, c) in [("amp;", '&'), ("lt;", '<'), ("gt;", '>'), ("quot;", '"')] {
        if rest.starts_with(name) {
            return Some(((c, None), name.len()));
        }
    }
    if b.get(name_len) == Some(&b';') {
        if let Some(&(a, c)) = NAMED_ENTITIES.get(&rest[..=name_len]) {
            if a != 0 {
                return Some((chars(a, c), name_len + 1));
            }
        }
    }
    // Legacy references without `;`: the longest known prefix.
    for len in (2..=name_len).rev() {
        if let Some(&(a, c)) = NAMED_ENTITIES.get(&rest[..len]) {
            if a == 0 {
                continue;
            }
            if ctx == Context::Attribute {
                let next = b.get(len).copied();
                if matches!(next, Some(n) if n.is_ascii_alphanumeric() || n == b'=') {
                    return None;
                }
            }
            return Some((chars(a, c), len));
        }
    }
    None
}

fn chars(a: u32, c: u32) -> Chars {
    (
        char::from_u32(a).unwrap_or('\u{FFFD}'),
        (c != 0).then(|| char::from_u32(c).unwrap_or('\u{FFFD}')),
    )
}

/// ASCII whitespace as HTML defines it; titles are trimmed of it only (a
/// title may well end in a no-break space).
pub fn trim_html(s: &str) -> &str {
    s.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r'))
}

/// Escape for text and for double-quoted attribute values: the five
/// characters every importer decodes, and CR, which would read back as LF.
pub fn escape_into(out: &mut String, s: &str) {
    // Most values (links, icons as data: URIs) have nothing to escape: a
    // branch-free test of each 32-byte block, which the compiler
    // vectorises, copies such a value at once.
    let clean = s.as_bytes().chunks(32).all(|block| {
        !block.iter().fold(false, |seen, &b| {
            seen | matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'' | b'\r')
        })
    });
    if clean {
        out.push_str(s);
        return;
    }
    let mut copied = 0;
    for (i, b) in s.bytes().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            b'\r' => "&#13;",
            _ => continue,
        };
        out.push_str(&s[copied..i]);
        out.push_str(rep);
        copied = i + 1;
    }
    out.push_str(&s[copied..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> String {
        decode(s, Context::Text).into_owned()
    }

    #[test]
    fn references_decode_as_in_html5() {
        assert_eq!(text("A &amp; B"), "A & B");
        assert_eq!(text("caf&eacute; &#233; &#xE9;"), "café é é");
        assert_eq!(text("&copy 2024"), "© 2024");
        assert_eq!(text("&notit;"), "¬it;");
        assert_eq!(text("&#150;&#0;&#xD800;"), "\u{2013}\u{FFFD}\u{FFFD}");
        assert_eq!(text("R&D & co &;"), "R&D & co &;");
        assert_eq!(text("a\r\nb\rc"), "a\nb\nc");
        assert_eq!(text("&#13;"), "\r");
        assert_eq!(text("&NotNestedGreaterGreater;"), "\u{2AA2}\u{338}");
    }

    #[test]
    fn attributes_keep_query_strings() {
        let a = |s| decode(s, Context::Attribute).into_owned();
        assert_eq!(a("?a=1&copy=2&lang=en"), "?a=1&copy=2&lang=en");
        assert_eq!(a("?a=1&amp;b=2"), "?a=1&b=2");
        assert_eq!(a("&copy"), "©");
    }

    #[test]
    fn escaped_text_reads_back() {
        let nasty = "<script>\"x\" & 'y'</script>\r\n&amp;";
        let mut out = String::new();
        escape_into(&mut out, nasty);
        assert!(!out.contains('<') && !out.contains('"'));
        assert_eq!(text(&out), nasty);
        assert_eq!(decode(&out, Context::Attribute), nasty);
    }
}
