//! The likely cause of a changed value, from the value before and after:
//! one mistake (an encoding, a case change, white space, the precision of a
//! date) often changes values of several checks, and is fixed once.

/// Letters changed case only.
pub const CASE: &str = "letter case";
/// Spaces, tabs or line breaks added, removed or collapsed.
pub const WHITE_SPACE: &str = "white space";
/// The same text composed or decomposed otherwise (NFC, NFD).
pub const NORMALIZATION: &str = "Unicode normalization (NFC/NFD)";
/// Bytes read in the wrong character encoding, or characters the tool
/// could not write replaced or dropped.
pub const ENCODING: &str = "character encoding";
/// Character references decoded once too often (`&amp;copy=` became `©=`).
pub const DECODED_TWICE: &str = "entities decoded twice";
/// Character references encoded once too often (`&` became `&amp;`).
pub const ENCODED_TWICE: &str = "entities encoded twice";
/// Percent-encoding added or removed in a link.
pub const PERCENT: &str = "percent-encoding";
/// The value cut short.
pub const CUT: &str = "cut short";
/// A date written with less precision, or another offset.
pub const DATE_PRECISION: &str = "date precision";
/// Tags split at spaces or commas, or joined.
pub const TAGS_SPLIT: &str = "tags split or joined";
/// None of the above.
pub const OTHER: &str = "other";

/// Every cause, in the order a report lists causes with equal weight.
pub const ALL: &[&str] = &[
    ENCODING,
    DECODED_TWICE,
    ENCODED_TWICE,
    NORMALIZATION,
    CASE,
    WHITE_SPACE,
    PERCENT,
    CUT,
    DATE_PRECISION,
    TAGS_SPLIT,
    OTHER,
];

/// The likely cause of `before` becoming `after` in `check`.
pub fn of(check: &str, before: &str, after: &str) -> &'static str {
    if check.ends_with(".form") && !check.ends_with("title.form") {
        return DATE_PRECISION;
    }
    if is_date(check) {
        // W3C dates: the same second written otherwise, or a fraction lost.
        let second = |s: &str| s.get(..19).map(str::to_owned);
        return if second(before).is_some() && second(before) == second(after) {
            DATE_PRECISION
        } else {
            OTHER
        };
    }
    if check == "bookmark.tags" {
        if let (Ok(b), Ok(a)) = (
            serde_json::from_str::<Vec<String>>(before),
            serde_json::from_str::<Vec<String>>(after),
        ) {
            return tags(&b, &a);
        }
    }
    text(before, after)
}

fn is_date(check: &str) -> bool {
    ["added", "modified", "visited"]
        .iter()
        .any(|d| check.ends_with(&format!(".{d}")))
}

fn tags(before: &[String], after: &[String]) -> &'static str {
    use std::collections::BTreeSet;
    let set = |t: &[String], f: fn(&str) -> String| t.iter().map(|s| f(s)).collect::<BTreeSet<_>>();
    if set(before, |s| s.to_lowercase()) == set(after, |s| s.to_lowercase()) {
        return CASE;
    }
    let words = |t: &[String]| {
        t.iter()
            .flat_map(|s| s.split([' ', ',']))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect::<BTreeSet<_>>()
    };
    if words(before) == words(after) {
        return TAGS_SPLIT;
    }
    text(&before.join(","), &after.join(","))
}

fn text(before: &str, after: &str) -> &'static str {
    if before.to_lowercase() == after.to_lowercase() {
        return CASE;
    }
    if crate::normalize_title(before) == crate::normalize_title(after)
        || squeezed(before) == squeezed(after)
    {
        return WHITE_SPACE;
    }
    if misread(after).as_deref() == Some(before) || replaced(before, after) {
        return ENCODING;
    }
    if decode_entities(before) == after {
        return DECODED_TWICE;
    }
    if decode_entities(after) == before {
        return ENCODED_TWICE;
    }
    let marked = without_marks(before) != before || without_marks(after) != after;
    if marked && base_letters(before) == base_letters(after) {
        return NORMALIZATION;
    }
    if percent_decoded(before) == percent_decoded(after) {
        return PERCENT;
    }
    if !after.is_empty() && before.starts_with(after) {
        return CUT;
    }
    OTHER
}

/// Without any white space at all.
fn squeezed(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `s` written back as Windows-1252 bytes and read as UTF-8: what UTF-8
/// text read as Windows-1252 (or Latin-1) was before the mistake.
fn misread(s: &str) -> Option<String> {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    let mut bytes = Vec::with_capacity(s.len());
    for c in s.chars() {
        let b = match u32::from(c) {
            n @ 0..=0x7f | n @ 0xa0..=0xff => n as u8,
            n @ 0x80..=0x9f => n as u8,
            _ => 0x80 + HIGH.iter().position(|&h| h == c)? as u8,
        };
        bytes.push(b);
    }
    String::from_utf8(bytes).ok().filter(|t| t != s)
}

/// Whether `after` is `before` with its non-ASCII characters replaced by
/// `?` or U+FFFD, or dropped.
fn replaced(before: &str, after: &str) -> bool {
    if before.is_ascii() {
        return false;
    }
    let swap = |r: &str| {
        before
            .chars()
            .map(|c| {
                if c.is_ascii() {
                    c.to_string()
                } else {
                    r.to_owned()
                }
            })
            .collect::<String>()
    };
    after == swap("?") || after == swap("\u{fffd}") || after == swap("")
}

fn is_mark(c: char) -> bool {
    matches!(u32::from(c), 0x300..=0x36f | 0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x20d0..=0x20ff)
}

fn without_marks(s: &str) -> String {
    s.chars().filter(|&c| !is_mark(c)).collect()
}

/// The text with combining marks dropped and the common Latin letters
/// with a mark replaced by their base: enough to tell a change of
/// normalization from a change of text.
fn base_letters(s: &str) -> String {
    const FROM: &str = "àáâãäåçèéêëìíîïñòóôõöùúûüýÿÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝ";
    const TO: &str = "aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUY";
    without_marks(s)
        .chars()
        .map(|c| match FROM.chars().position(|f| f == c) {
            Some(at) => TO.chars().nth(at).unwrap_or(c),
            None => c,
        })
        .collect()
}

/// `s` with its HTML character references decoded once: numeric ones, the
/// five of XML, and the legacy ones browsers decode without a `;` that turn
/// up in links (`&copy`, `&not`, `&reg`, `&para`, `&sect`, `&nbsp`).
pub fn decode_entities(s: &str) -> String {
    const NAMED: &[(&str, char)] = &[
        ("amp", '&'),
        ("lt", '<'),
        ("gt", '>'),
        ("quot", '"'),
        ("apos", '\''),
        ("copy", '©'),
        ("not", '¬'),
        ("reg", '®'),
        ("para", '¶'),
        ("sect", '§'),
        ("nbsp", '\u{a0}'),
    ];
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at + 1..];
        if let Some(num) = rest.strip_prefix('#') {
            let (digits, hex) = match num.strip_prefix(['x', 'X']) {
                Some(h) => (h, true),
                None => (num, false),
            };
            let len = digits
                .find(|c: char| {
                    !(if hex {
                        c.is_ascii_hexdigit()
                    } else {
                        c.is_ascii_digit()
                    })
                })
                .unwrap_or(digits.len());
            let value = u32::from_str_radix(&digits[..len], if hex { 16 } else { 10 }).ok();
            if let Some(c) = value.and_then(char::from_u32) {
                out.push(c);
                let used = num.len() - digits.len() + len;
                rest = &num[used..];
                rest = rest.strip_prefix(';').unwrap_or(rest);
                continue;
            }
        } else if let Some(&(name, c)) = NAMED.iter().find(|(n, _)| rest.starts_with(n)) {
            out.push(c);
            rest = &rest[name.len()..];
            rest = rest.strip_prefix(';').unwrap_or(rest);
            continue;
        }
        out.push('&');
    }
    out.push_str(rest);
    out
}

/// `s` with its `%XX` escapes decoded where they make UTF-8.
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mistake_is_told_apart() {
        assert_eq!(of("bookmark.title", "Rust Blog", "rust blog"), CASE);
        assert_eq!(of("bookmark.title.form", "A  B", "A B"), WHITE_SPACE);
        assert_eq!(of("bookmark.title", "Café", "CafÃ©"), ENCODING);
        assert_eq!(
            of(
                "bookmark.title",
                "naïve “quotes”",
                "naÃ¯ve â€œquotesâ€\u{9d}"
            ),
            ENCODING
        );
        assert_eq!(of("bookmark.title", "Café", "Caf?"), ENCODING);
        assert_eq!(
            of(
                "bookmark.href",
                "https://e.org/?a=1&copy=3",
                "https://e.org/?a=1©=3"
            ),
            DECODED_TWICE
        );
        assert_eq!(
            of("bookmark.title", "Fish & chips", "Fish &amp; chips"),
            ENCODED_TWICE
        );
        assert_eq!(of("bookmark.title", "Cafe\u{301}", "Café"), NORMALIZATION);
        assert_eq!(
            of("bookmark.href", "https://e.org/a%2Fb", "https://e.org/a/b"),
            PERCENT
        );
        assert_eq!(
            of(
                "bookmark.href",
                "https://e.org/page#s",
                "https://e.org/page"
            ),
            CUT
        );
        assert_eq!(
            of(
                "bookmark.added",
                "2024-01-02T03:04:05.25Z",
                "2024-01-02T03:04:05Z"
            ),
            DATE_PRECISION
        );
        assert_eq!(
            of(
                "bookmark.added",
                "2024-01-02T03:04:05Z",
                "1990-01-02T03:04:05Z"
            ),
            OTHER
        );
        assert_eq!(
            of("bookmark.tags", r#"["Rust","iOS"]"#, r#"["rust","ios"]"#),
            CASE
        );
        assert_eq!(
            of("bookmark.tags", r#"["read later"]"#, r#"["read","later"]"#),
            TAGS_SPLIT
        );
        assert_eq!(of("bookmark.title", "Hello", "Goodbye"), OTHER);
    }
}
