//! POSIX shell quoting as GLib does it (`g_shell_quote`, `g_shell_unquote`),
//! the one rule for every command line markport writes or reads: a desktop
//! bookmark's stored application, a conformance tool's placeholders.
//!
//! ```
//! use markport_markup::shell::{quote, unquote};
//!
//! assert_eq!(quote("it's $(here)"), r"'it'\''s $(here)'");
//! assert_eq!(unquote(&quote("a 'b' \"c\"")).unwrap(), "a 'b' \"c\"");
//! ```

use markport_model::{Error, ErrorKind};

/// `g_shell_quote`: the whole string in single quotes, each `'` as `'\''`.
pub fn quote(s: &str) -> String {
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
pub fn unquote(s: &str) -> Result<String, Error> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_is_glibs() {
        assert_eq!(quote("gedit %u"), "'gedit %u'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        for s in ["gedit %u", "it's \"q\" back\\slash été", "''", "", "a\nb"] {
            assert_eq!(unquote(&quote(s)).unwrap(), s);
        }
    }

    #[test]
    fn unquoting_is_glibs() {
        assert_eq!(unquote("gedit %u").unwrap(), "gedit %u");
        assert_eq!(
            unquote(
                r"a\ b\\c\
d"
            )
            .unwrap(),
            "a b\\cd"
        );
        assert_eq!(unquote(r#""a\"b\$c\x" 'd\e'"#).unwrap(), r#"a"b$c\x d\e"#);
        assert!(unquote("'open").is_err());
        assert!(unquote("\"open\\").is_err());
        assert_eq!(unquote("trailing\\").unwrap(), "trailing");
    }
}
