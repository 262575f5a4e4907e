//! The key two links share when they are the same link.

use std::borrow::Cow;

/// The key two links share when they are the same link, which markport's
/// `--dedupe` and `merge` compare links by and [`diff`](crate::diff) pairs
/// bookmarks by: the link as the WHATWG URL standard parses it (scheme and host
/// lowercased, IDN hosts as punycode for the special schemes, the default
/// port dropped, an empty path as `/`), with percent-encodings in upper
/// case; the query and the fragment are kept. A link that does not parse
/// is its own key, unchanged. The bookmark keeps its href as written: only
/// the key is normalised.
///
/// ```
/// use markport_model::link_key;
///
/// assert_eq!(link_key("HTTP://Example.COM:80"), "http://example.com/");
/// assert_eq!(link_key("https://bücher.example/a%2fb?q#top"), "https://xn--bcher-kva.example/a%2Fb?q#top");
/// assert_eq!(link_key("not a link"), "not a link");
/// ```
pub fn link_key(href: &str) -> Cow<'_, str> {
    match url::Url::parse(href) {
        Ok(u) => Cow::Owned(upper_percent(u.as_str())),
        Err(_) => Cow::Borrowed(href),
    }
}

/// `%2f` -> `%2F`: the two spellings are the same octet.
fn upper_percent(s: &str) -> String {
    let mut out = s.as_bytes().to_vec();
    let mut i = 0;
    while i + 2 < out.len() {
        if out[i] == b'%' && out[i + 1].is_ascii_hexdigit() && out[i + 2].is_ascii_hexdigit() {
            out[i + 1].make_ascii_uppercase();
            out[i + 2].make_ascii_uppercase();
            i += 3;
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII letters changed")
}

#[cfg(test)]
mod tests {
    use super::link_key;

    #[test]
    fn equal_links_share_a_key_and_different_ones_do_not() {
        let same = [
            ("https://example.org", "HTTPS://EXAMPLE.org/"),
            ("http://example.org:80/a", "http://example.org/a"),
            ("https://example.org:443/", "https://example.org/"),
            ("https://ex.org/%7euser", "https://ex.org/%7Euser"),
            ("http://münchen.example/", "http://xn--mnchen-3ya.example/"),
        ];
        for (a, b) in same {
            assert_eq!(link_key(a), link_key(b), "{a} {b}");
        }
        let different = [
            ("https://example.org/?a", "https://example.org/"),
            ("https://example.org/#x", "https://example.org/"),
            ("https://example.org/A", "https://example.org/a"),
            ("http://example.org/", "https://example.org/"),
            ("http://example.org:8080/", "http://example.org/"),
        ];
        for (a, b) in different {
            assert_ne!(link_key(a), link_key(b), "{a} {b}");
        }
    }
}
