//! rel-tag: the tag is the last path segment of the link (rel-tag spec),
//! with `+` or `%20` for spaces.

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// The tag a rel-tag link names, or `None` when its path has no last segment.
pub(crate) fn tag_of(href: &str) -> Option<String> {
    let end = href.find(['#', '?']).unwrap_or(href.len());
    let path = href[..end].trim_end_matches('/');
    let segment = path.rsplit('/').next()?;
    if segment.is_empty() {
        return None;
    }
    if !segment.contains(['+', '%']) {
        return Some(segment.to_owned());
    }
    // `+` first, so that `%2B` stays a plus (`C%2B%2B` is "C++").
    let spaced = segment.replace('+', " ");
    let bytes: Vec<u8> = percent_decode_str(&spaced).collect();
    let tag = String::from_utf8(bytes).unwrap_or_else(|_| spaced.clone());
    (!tag.is_empty()).then_some(tag)
}

/// A tag as the last path segment: every byte but the unreserved ones
/// percent-encoded, so any tag reads back exactly.
pub(crate) fn segment_for(tag: &str) -> String {
    utf8_percent_encode(tag, SEGMENT).to_string()
}

/// RFC 3986's unreserved characters stay; every other byte is encoded.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_tag_forms() {
        let t = |h: &str| tag_of(h).unwrap();
        assert_eq!(t("http://e.com/tag/plain"), "plain");
        assert_eq!(t("http://e.com/tag/Santa+Claus"), "Santa Claus");
        assert_eq!(t("http://e.com/tag/New%20York"), "New York");
        assert_eq!(t("http://e.com/tag/caf%C3%A9"), "café");
        assert_eq!(t("http://e.com/tag/trailing/"), "trailing");
        assert_eq!(t("http://e.com/tag/withquery?x=1"), "withquery");
        assert_eq!(t("http://e.com/tag/withfrag#x"), "withfrag");
        assert_eq!(t("http://e.com/tag/C%2B%2B"), "C++");
        assert_eq!(t("http://e.com/tags/rust.html"), "rust.html");
        assert_eq!(t("tags/rel"), "rel");
        for tag in ["a b", "C++", "x/y", "50%", "é", " lead", "rust.html", "?#"] {
            assert_eq!(
                t(&format!("https://t.example/tags/{}", segment_for(tag))),
                tag
            );
        }
    }
}
