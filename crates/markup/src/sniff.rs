//! What detection by content looks at in a JSON file: its two ends.
//!
//! A JSON object's keys come in any order (a tool that sorts them, a person
//! who edits the file), so the keys that tell one format from another may
//! sit before the file's one big array or after it. Detectors therefore
//! look at a bounded window at each end ([`ends`], [`WINDOW`] bytes each),
//! whatever the file's size: linear in the window, never in the file.

/// How many bytes a JSON detector reads at each end of its input: 64 KiB.
pub const WINDOW: usize = 1 << 16;

/// The first and last [`WINDOW`] bytes of `input` (after a UTF-8
/// byte-order mark); both are the whole input when it is smaller than a
/// window. The tail may start inside a string or a UTF-8 sequence, which
/// [`has_key`] does not mind.
pub fn ends(input: &[u8]) -> (&[u8], &[u8]) {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let head = &input[..input.len().min(WINDOW)];
    let tail = &input[input.len().saturating_sub(WINDOW)..];
    (head, tail)
}

/// The first byte of `input` that is not JSON whitespace (after a UTF-8
/// byte-order mark): `{` for an object, `[` for an array.
pub fn first_byte(input: &[u8]) -> Option<u8> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    input
        .iter()
        .copied()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// Whether `text` holds `"key"` as an object key: the quoted name, not
/// escaped (`\"key\"` is inside a string), followed by optional
/// whitespace and a colon. A title or a description that is the key's
/// name (`"title": "roots"`) is followed by a comma or a brace instead.
pub fn has_key(text: &[u8], key: &str) -> bool {
    let mut quoted = Vec::with_capacity(key.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(key.as_bytes());
    quoted.push(b'"');
    memchr::memmem::find_iter(text, &quoted).any(|at| {
        let escaped = at > 0 && text[at - 1] == b'\\';
        let rest = &text[at + quoted.len()..];
        let colon = rest
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .is_some_and(|&b| b == b':');
        !escaped && colon
    })
}

/// Whether `text` holds `needle` anywhere (a value as well as a key).
pub fn contains(text: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(text, needle).is_some()
}

/// Whether `test` holds for either end of `input` (see [`ends`]).
pub fn either_end(input: &[u8], test: impl Fn(&[u8]) -> bool) -> bool {
    let (head, tail) = ends(input);
    test(head) || (tail.len() < input.len() && test(tail))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_told_from_values_and_escaped_text() {
        assert!(has_key(br#"{"roots" : {}}"#, "roots"));
        assert!(has_key(b"{\"a\": 1,\n \"roots\"\n:{}}", "roots"));
        assert!(!has_key(br#"{"title": "roots"}"#, "roots"));
        assert!(!has_key(br#"{"title": "a \"roots\": b"}"#, "roots"));
        assert!(!has_key(br#"{"title": "roots"#, "roots"));
    }

    #[test]
    fn the_ends_are_bounded() {
        let mut big = vec![b' '; 3 * WINDOW];
        big[0] = b'{';
        big[WINDOW + 100..WINDOW + 109].copy_from_slice(br#""roots": "#);
        let (head, tail) = ends(&big);
        assert_eq!((head.len(), tail.len()), (WINDOW, WINDOW));
        assert!(!either_end(&big, |w| has_key(w, "roots")));
        big[3 * WINDOW - 20..3 * WINDOW - 11].copy_from_slice(br#""roots": "#);
        assert!(either_end(&big, |w| has_key(w, "roots")));
        assert_eq!(first_byte(b"\xEF\xBB\xBF \n{"), Some(b'{'));
    }
}
