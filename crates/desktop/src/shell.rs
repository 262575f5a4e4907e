//! GLib's shell quoting (`g_shell_quote`, `g_shell_unquote`) and exec-line
//! expansion, byte for byte: GBookmarkFile stores an application's command
//! line quoted and gives it back unquoted, then expanded, and a program that
//! shares the file with GLib must agree on both.

use markport_model::{Error, ErrorKind};

use crate::uri::decode_escapes;

/// `g_shell_quote`: the whole string in single quotes, each `'` as `'\''`.
pub fn shell_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

fn bad_quoting(what: &str, s: &str) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("{what} in the command line {s:?} (GLib's g_shell_unquote fails too)"),
        None,
    )
}

/// `g_shell_unquote`: outside quotes a backslash escapes any character (and
/// a backslash-newline goes away); `'…'` is literal; inside `"…"` a
/// backslash escapes only `"`, `\`, `` ` ``, `$` and a newline. An unmatched
/// quote is an error.
pub fn shell_unquote(s: &str) -> Result<String, Error> {
    let b = s.as_bytes();
    // Only ASCII bytes are removed, so what is left is still UTF-8.
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                i += 1;
                if let Some(&c) = b.get(i) {
                    if c != b'\n' {
                        out.push(c);
                    }
                    i += 1;
                }
            }
            b'\'' => {
                let rest = &b[i + 1..];
                let end = rest
                    .iter()
                    .position(|&c| c == b'\'')
                    .ok_or_else(|| bad_quoting("an unmatched quotation mark", s))?;
                out.extend_from_slice(&rest[..end]);
                i += end + 2;
            }
            b'"' => {
                i += 1;
                loop {
                    match b.get(i) {
                        None => return Err(bad_quoting("an unmatched quotation mark", s)),
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(b'\\') => match b.get(i + 1) {
                            Some(&c @ (b'"' | b'\\' | b'`' | b'$' | b'\n')) => {
                                out.push(c);
                                i += 2;
                            }
                            // Not an escape: the backslash stays, and the
                            // next byte is read as usual.
                            _ => {
                                out.push(b'\\');
                                i += 1;
                            }
                        },
                        Some(&c) => {
                            out.push(c);
                            i += 1;
                        }
                    }
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8(out).expect("only ASCII bytes were removed from UTF-8"))
}

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

    #[test]
    fn quoting_is_glibs() {
        assert_eq!(shell_quote("gedit %u"), "'gedit %u'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        for s in ["gedit %u", "it's \"q\" back\\slash été", "''", "", "a\nb"] {
            assert_eq!(shell_unquote(&shell_quote(s)).unwrap(), s);
        }
    }

    #[test]
    fn unquoting_is_glibs() {
        assert_eq!(shell_unquote("gedit %u").unwrap(), "gedit %u");
        assert_eq!(
            shell_unquote(
                r"a\ b\\c\
d"
            )
            .unwrap(),
            "a b\\cd"
        );
        assert_eq!(
            shell_unquote(r#""a\"b\$c\x" 'd\e'"#).unwrap(),
            r#"a"b$c\x d\e"#
        );
        assert!(shell_unquote("'open").is_err());
        assert!(shell_unquote("\"open\\").is_err());
        assert_eq!(shell_unquote("trailing\\").unwrap(), "trailing");
    }

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
