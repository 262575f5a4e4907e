//! file: URIs as the file-uri proposal describes them: any path bytes to a
//! URI and back exactly.

use percent_encoding::{percent_decode, percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// What GLib escapes in a path (its UNSAFE_PATH set): every byte but
/// letters, digits and `!$&'()*+,-./:=@_~`. Unlike RFC 3986's sub-delims,
/// `;` is escaped.
const GLIB_PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b'-')
    .remove(b'.')
    .remove(b'/')
    .remove(b':')
    .remove(b'=')
    .remove(b'@')
    .remove(b'_')
    .remove(b'~');

/// A `file://` URI for an absolute local path, given as bytes (paths need
/// not be UTF-8), as GLib's `g_filename_to_uri` makes it: letters, digits,
/// `/` and `!$&'()*+,-.:=@_~` as they are, every other byte as `%XX`
/// (upper-case hex).
pub fn path_to_file_uri(path: &[u8]) -> String {
    format!("file://{}", percent_encode(path, GLIB_PATH))
}

/// The local path bytes a `file:` URI names: `file:///p`, `file:/p` and
/// `file://localhost/p` (the proposal's forms); `None` for another host or
/// scheme, or a broken escape.
pub fn file_uri_to_path(uri: &str) -> Option<Vec<u8>> {
    let rest = uri.strip_prefix("file:")?;
    let path = if let Some(r) = rest.strip_prefix("//") {
        let slash = r.find('/')?;
        let host = &r[..slash];
        if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
            return None;
        }
        &r[slash..]
    } else if rest.starts_with('/') {
        rest
    } else {
        return None;
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    decode_escapes(path.as_bytes(), |_| false)
}

/// `s` with its `%XX` escapes decoded; `None` when a `%` is not followed by
/// two hex digits (the percent-encoding crate would keep those as they are)
/// or escapes a byte `refused` says a path cannot take that way.
pub(crate) fn decode_escapes(s: &[u8], refused: impl Fn(u8) -> bool) -> Option<Vec<u8>> {
    let mut escapes = s.iter().enumerate().filter(|(_, &c)| c == b'%');
    let whole = escapes.all(|(i, _)| {
        let hex = |j: usize| s.get(j).and_then(|&c| (c as char).to_digit(16));
        matches!((hex(i + 1), hex(i + 2)), (Some(h), Some(l)) if !refused((h * 16 + l) as u8))
    });
    whole.then(|| percent_decode(s).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_path_bytes_round_trip() {
        for path in [
            &b"/home/me/a b.txt"[..],
            b"/tmp/caf\xe9-latin1",
            b"/x/%41?#",
            b"/\xff\xfe/\n",
        ] {
            let uri = path_to_file_uri(path);
            assert!(uri.is_ascii(), "{uri}");
            assert_eq!(file_uri_to_path(&uri).as_deref(), Some(path));
        }
        assert_eq!(file_uri_to_path("file:/etc/hosts").unwrap(), b"/etc/hosts");
        assert_eq!(
            file_uri_to_path("file://localhost/etc/hosts").unwrap(),
            b"/etc/hosts"
        );
        assert_eq!(file_uri_to_path("file://otherhost/etc/hosts"), None);
        assert_eq!(file_uri_to_path("https://x/"), None);
    }

    #[test]
    fn a_broken_escape_is_no_path() {
        for uri in ["file:///a%2", "file:///a%zz", "file:///a%+F", "file:///a%"] {
            assert_eq!(file_uri_to_path(uri), None, "{uri}");
        }
        assert_eq!(file_uri_to_path("file:///a%2fb%41").unwrap(), b"/a/bA");
    }

    #[test]
    fn refused_escapes_are_no_path() {
        assert_eq!(decode_escapes(b"/a%2Fb", |b| b == b'/'), None);
        assert_eq!(decode_escapes(b"/a%20b", |b| b == b'/').unwrap(), b"/a b");
    }

    /// What GLib 2.74's `g_filename_to_uri` gives for every printable ASCII
    /// byte and a few others (measured with the live library).
    #[test]
    fn paths_are_escaped_as_glib_escapes_them() {
        let mut path = b"/a".to_vec();
        path.extend((32u8..128).filter(|&b| b != b'/'));
        assert_eq!(
            path_to_file_uri(&path),
            "file:///a%20!%22%23$%25&'()*+,-.0123456789:%3B%3C=%3E%3F@ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_%60abcdefghijklmnopqrstuvwxyz%7B%7C%7D~%7F"
        );
        assert_eq!(
            path_to_file_uri(b"/tmp/caf\xe9 \x01\xff.txt"),
            "file:///tmp/caf%E9%20%01%FF.txt"
        );
    }
}
