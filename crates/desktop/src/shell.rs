//! GLib's exec-line expansion, byte for byte: GBookmarkFile stores an
//! application's command line quoted (GLib's quoting is the shared
//! [`markport_markup::shell`]) and gives it back unquoted, then expanded, and
//! a program that shares the file with GLib must agree on both.

use markport_model::{Error, ErrorKind};

pub use markport_markup::shell::{quote as shell_quote, unquote as shell_unquote};

use crate::uri::decode_escapes;

/// `g_filename_from_uri`, as GLib decides it: `file:/` (any case), no `#`,
/// a host is allowed (and ignored), `%XX` escapes must be complete and may
/// not give `/` or NUL. Other than [`crate::file_uri_to_path`], a `?` is part
/// of the path and another host is not refused.
fn glib_filename_from_uri(uri: &str) -> Option<Vec<u8>> {
    let b = uri.as_bytes();
    if b.len() < 6 || !b[..6].eq_ignore_ascii_case(b"file:/") || b.contains(&b'#') {
        return None;
    }
    let mut path = &b[5..];
    if path.starts_with(b"///") {
        path = &path[2..];
    } else if let Some(rest) = path.strip_prefix(b"//") {
        let slash = rest.iter().position(|&c| c == b'/')?;
        let host = &rest[..slash];
        // GLib's hostname_validate, roughly: labels of letters, digits,
        // `-` and escaped bytes.
        if host.is_empty()
            || !host
                .iter()
                .all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'%')
        {
            return None;
        }
        path = &rest[slash..];
    }
    // GLib refuses an escaped `/` or NUL: neither can be part of a name.
    decode_escapes(path, |b| b == b'/' || b == 0)
}

/// The command line GLib's `g_bookmark_file_get_application_info` gives for
/// a stored `exec` and a bookmark's `uri`: `exec` shell-unquoted first, then
/// `%u`/`%U` replaced by the URI, `%f`/`%F` by its local path (exact bytes;
/// an error for a URI that is not a local file), and any other `%x` by `x`
/// (a lone `%` at the end goes away). What this gives is what GLib-based
/// programs run.
pub fn exec_command_line(exec: &str, uri: &str) -> Result<Vec<u8>, Error> {
    let unquoted = shell_unquote(exec)?;
    let mut out = Vec::with_capacity(unquoted.len() + uri.len());
    let mut chars = unquoted.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            None => break,
            Some('u' | 'U') => out.extend_from_slice(uri.as_bytes()),
            Some('f' | 'F') => {
                let path = glib_filename_from_uri(uri).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Invalid,
                        format!("%f needs a local file, and {uri:?} is not a file: URI GLib can turn into a path"),
                        None,
                    )
                })?;
                out.extend_from_slice(&path);
            }
            Some(other) => {
                let mut buf = [0; 4];
                out.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases measured with GLib 2.74 (`glib_bookmarks.py`); the live
    /// test in `tests/tests/desktop_glib_live.rs` compares more.
    #[test]
    fn command_lines_are_what_glib_gives() {
        let uri = "file:///tmp/it's%20a%5Cb%22.txt";
        let line = |exec: &str| String::from_utf8(exec_command_line(exec, uri).unwrap()).unwrap();
        assert_eq!(line("'gedit %f'"), "gedit /tmp/it's a\\b\".txt");
        assert_eq!(
            line(&shell_quote("x '%f' \"%u\" %x 100%% %")),
            format!("x '/tmp/it's a\\b\".txt' \"{uri}\" x 100% ")
        );
        assert_eq!(
            exec_command_line("open %f", "file:///tmp/caf%E9").unwrap(),
            b"open /tmp/caf\xe9"
        );
        assert_eq!(
            exec_command_line("open %f", "file://host/x?y").unwrap(),
            b"open /x?y"
        );
        assert!(exec_command_line("open %f", "https://x/").is_err());
        assert!(exec_command_line("open %f", "file:///a#b").is_err());
        assert!(exec_command_line("open %f", "file:///a%2Fb").is_err());
        assert!(exec_command_line("'open %f", "file:///a").is_err());
    }
}
