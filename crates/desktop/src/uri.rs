//! file: URIs as the file-uri proposal describes them: any path bytes to a
//! URI and back exactly.

/// A `file://` URI for an absolute local path, given as bytes (paths need
/// not be UTF-8), as GLib's `g_filename_to_uri` makes it: letters, digits,
/// `/` and `!$&'()*+,-.:=@_~` as they are, every other byte as `%XX`
/// (upper-case hex).
pub fn path_to_file_uri(path: &[u8]) -> String {
    let mut out = String::from("file://");
    for &b in path {
        // GLib's UNSAFE_PATH set: unlike RFC 3986's sub-delims, `;` is escaped.
        if b.is_ascii_alphanumeric() || b"!$&'()*+,-./:=@_~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
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
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
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
