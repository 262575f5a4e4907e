//! The scan both escapers (XML's and JSON's) make: copy a string, replacing
//! some characters.

/// Copy `s` to `out`, asking `replacement` about each character whose first
/// byte `interesting` marks, and writing what it returns with `write`
/// instead of the character; every other byte is copied as it is.
///
/// `interesting` must mark only bytes that start a character (never
/// 0x80..=0xBF), and every first byte of a character `replacement` may
/// replace: the string is then scanned a byte at a time through one table
/// lookup instead of decoded character by character.
pub(crate) fn copy_replacing<R>(
    out: &mut String,
    s: &str,
    interesting: &[bool; 256],
    mut replacement: impl FnMut(char) -> Option<R>,
    mut write: impl FnMut(&mut String, R),
) {
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !interesting[usize::from(bytes[i])] {
            i += 1;
            continue;
        }
        // An interesting byte starts a character, so `i` is a boundary.
        let c = s[i..].chars().next().unwrap_or('\0');
        let len = c.len_utf8();
        if let Some(rep) = replacement(c) {
            out.push_str(&s[start..i]);
            write(out, rep);
            start = i + len;
        }
        i += len;
    }
    out.push_str(&s[start..]);
}
