//! A pull parser for JSON that keeps its own stack: the depth of the input
//! costs heap, never call stack, and every event carries its byte offset.
//!
//! It accepts one thing strict JSON does not: a comma before `]` or `}`,
//! which Firefox 3.x wrote at the end of its backups; each is reported.

use std::borrow::Cow;

/// One step through a JSON text.
#[derive(Debug, PartialEq)]
pub(crate) enum Event<'a> {
    ObjectStart,
    ObjectEnd,
    ArrayStart,
    ArrayEnd,
    Key(Cow<'a, str>),
    Str(Cow<'a, str>),
    /// A number, as written.
    Num(&'a str),
    Bool(bool),
    Null,
}

/// A failure at a byte offset.
#[derive(Debug, PartialEq)]
pub(crate) struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// A value (top level, after `:`, after `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    FirstValue,
    /// After `,` in an object: a key.
    Key,
    /// After `{`: a key or `}`.
    FirstKey,
    /// After a value inside a container: `,` or its closer.
    Comma,
    /// After the top-level value: nothing.
    End,
}

pub(crate) struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    /// `true` for an object, `false` for an array.
    stack: Vec<bool>,
    expect: Expect,
    /// Where the comma just read stands, to name it if a closer follows.
    comma: Option<usize>,
    /// Offsets of trailing commas that were read past.
    pub trailing_commas: Vec<usize>,
    /// Offsets of `\u` escapes that named half a surrogate pair (read as U+FFFD).
    pub lone_surrogates: Vec<usize>,
}

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        offset,
        message: message.into(),
    })
}

impl<'a> Parser<'a> {
    pub fn new(b: &'a [u8]) -> Parser<'a> {
        // A UTF-8 byte order mark is not JSON but editors add it.
        let i = if b.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        Parser {
            b,
            i,
            stack: Vec::new(),
            expect: Expect::Value,
            comma: None,
            trailing_commas: Vec::new(),
            lone_surrogates: Vec::new(),
        }
    }

    /// The offset just past the last event.
    pub fn pos(&self) -> usize {
        self.i
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn after_value(&mut self) {
        self.expect = if self.stack.is_empty() {
            Expect::End
        } else {
            Expect::Comma
        };
    }

    fn close(&mut self, object: bool) -> Event<'a> {
        if let Some(at) = self.comma.take() {
            self.trailing_commas.push(at);
        }
        self.i += 1;
        self.stack.pop();
        self.after_value();
        if object {
            Event::ObjectEnd
        } else {
            Event::ArrayEnd
        }
    }

    /// The next event and its offset; `None` at the end of a complete text.
    pub fn next(&mut self) -> Result<Option<(usize, Event<'a>)>, SyntaxError> {
        loop {
            self.ws();
            let at = self.i;
            let Some(&c) = self.b.get(at) else {
                return match self.expect {
                    Expect::End => Ok(None),
                    _ => err(at, "the JSON ends too early (truncated file?)"),
                };
            };
            let in_object = self.stack.last().copied();
            match self.expect {
                Expect::End => return err(at, "unexpected data after the JSON value"),
                Expect::Comma => match (c, in_object) {
                    (b',', Some(obj)) => {
                        self.i += 1;
                        self.comma = Some(at);
                        self.expect = if obj { Expect::Key } else { Expect::Value };
                        continue;
                    }
                    (b'}', Some(true)) => return Ok(Some((at, self.close(true)))),
                    (b']', Some(false)) => return Ok(Some((at, self.close(false)))),
                    (_, Some(true)) => return err(at, "expected ',' or '}'"),
                    _ => return err(at, "expected ',' or ']'"),
                },
                Expect::Key | Expect::FirstKey => {
                    if c == b'}' {
                        return Ok(Some((at, self.close(true))));
                    }
                    if c != b'"' {
                        return err(at, "expected a member name in double quotes");
                    }
                    self.comma = None;
                    let key = self.string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return err(self.i, "expected ':' after the member name");
                    }
                    self.i += 1;
                    self.expect = Expect::Value;
                    return Ok(Some((at, Event::Key(key))));
                }
                Expect::Value | Expect::FirstValue => {
                    if c == b']' && in_object == Some(false) {
                        if self.expect == Expect::FirstValue || self.comma.is_some() {
                            return Ok(Some((at, self.close(false))));
                        }
                        return err(at, "expected a value");
                    }
                    self.comma = None;
                    let ev = match c {
                        b'{' => {
                            self.i += 1;
                            self.stack.push(true);
                            self.expect = Expect::FirstKey;
                            return Ok(Some((at, Event::ObjectStart)));
                        }
                        b'[' => {
                            self.i += 1;
                            self.stack.push(false);
                            self.expect = Expect::FirstValue;
                            return Ok(Some((at, Event::ArrayStart)));
                        }
                        b'"' => Event::Str(self.string()?),
                        b'-' | b'0'..=b'9' => Event::Num(self.number()?),
                        b't' => self.word(b"true", Event::Bool(true))?,
                        b'f' => self.word(b"false", Event::Bool(false))?,
                        b'n' => self.word(b"null", Event::Null)?,
                        _ => return err(at, "expected a JSON value"),
                    };
                    self.after_value();
                    return Ok(Some((at, ev)));
                }
            }
        }
    }

    fn word(&mut self, w: &[u8], ev: Event<'a>) -> Result<Event<'a>, SyntaxError> {
        if self.b[self.i..].starts_with(w) {
            self.i += w.len();
            Ok(ev)
        } else {
            err(self.i, "expected a JSON value")
        }
    }

    fn number(&mut self) -> Result<&'a str, SyntaxError> {
        let start = self.i;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.b.get(self.i) {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.b[start..self.i]).expect("ASCII");
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.starts_with(|c: char| c.is_ascii_digit()) {
            return err(start, "malformed number");
        }
        Ok(text)
    }

    /// A string starting at the opening quote.
    fn string(&mut self) -> Result<Cow<'a, str>, SyntaxError> {
        let open = self.i;
        self.i += 1;
        let start = self.i;
        // The common case: no escapes, borrowed as it is.
        let Some(n) = self.b[start..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\')
        else {
            return err(open, "a string is not closed (truncated file?)");
        };
        if self.b[start + n] == b'"' {
            self.i = start + n + 1;
            return utf8(&self.b[start..start + n], start).map(Cow::Borrowed);
        }
        let mut out = String::new();
        let mut run = start;
        loop {
            let Some(&c) = self.b.get(self.i) else {
                return err(open, "a string is not closed (truncated file?)");
            };
            match c {
                b'"' => {
                    out.push_str(utf8(&self.b[run..self.i], run)?);
                    self.i += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    out.push_str(utf8(&self.b[run..self.i], run)?);
                    let esc = self.i;
                    let Some(&e) = self.b.get(self.i + 1) else {
                        return err(open, "a string is not closed (truncated file?)");
                    };
                    self.i += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4(esc)?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.b.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4(save)?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    self.i = save;
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(c.unwrap_or_else(|| {
                                self.lone_surrogates.push(esc);
                                '\u{FFFD}'
                            }));
                        }
                        _ => return err(esc, "unknown escape in a string"),
                    }
                    run = self.i;
                }
                _ => self.i += 1,
            }
        }
    }

    fn hex4(&mut self, esc: usize) -> Result<u32, SyntaxError> {
        let Some(h) = self.b.get(self.i..self.i + 4) else {
            return err(esc, "a \\u escape needs four hex digits");
        };
        let Some(v) = std::str::from_utf8(h)
            .ok()
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .filter(|_| h.iter().all(u8::is_ascii_hexdigit))
        else {
            return err(esc, "a \\u escape needs four hex digits");
        };
        self.i += 4;
        Ok(v)
    }

    /// Skip the value whose first event (at `start`) was just read, and
    /// return its text as written. Iterative: any depth.
    pub fn skip_value(&mut self, start: usize, first: &Event<'a>) -> Result<&'a str, SyntaxError> {
        let mut depth = usize::from(matches!(first, Event::ObjectStart | Event::ArrayStart));
        while depth > 0 {
            match self.next()? {
                Some((_, Event::ObjectStart | Event::ArrayStart)) => depth += 1,
                Some((_, Event::ObjectEnd | Event::ArrayEnd)) => depth -= 1,
                Some(_) => {}
                None => return err(self.i, "the JSON ends too early (truncated file?)"),
            }
        }
        utf8(&self.b[start..self.i], start)
    }
}

fn utf8(b: &[u8], at: usize) -> Result<&str, SyntaxError> {
    std::str::from_utf8(b).or_else(|e| err(at + e.valid_up_to(), "invalid UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(s: &str) -> Result<Vec<Event<'_>>, SyntaxError> {
        let mut p = Parser::new(s.as_bytes());
        let mut v = Vec::new();
        while let Some((_, e)) = p.next()? {
            v.push(e);
        }
        Ok(v)
    }

    #[test]
    fn reads_values_escapes_and_surrogate_pairs() {
        let v = events(r#"{"a":[1,-2.5e3,true,null,"x\n\u00e9\ud83d\ude00"]}"#).unwrap();
        assert_eq!(v[3], Event::Num("1"));
        assert_eq!(v[4], Event::Num("-2.5e3"));
        assert_eq!(v[7], Event::Str("x\né😀".into()));
        assert_eq!(v.len(), 10);
    }

    #[test]
    fn a_trailing_comma_is_read_and_its_offset_kept() {
        let s = r#"{"a":[1,],"b":2,}"#;
        let mut p = Parser::new(s.as_bytes());
        while p.next().unwrap().is_some() {}
        assert_eq!(p.trailing_commas, [7, 15]);
    }

    #[test]
    fn errors_name_the_offset() {
        assert_eq!(events(r#"{"a":1"#).unwrap_err().offset, 6);
        assert_eq!(events(r#"{"a" 1}"#).unwrap_err().offset, 5);
        assert_eq!(events("[1] x").unwrap_err().offset, 4);
        assert_eq!(events("[,]").unwrap_err().offset, 1);
        assert_eq!(events(r#"["abc"#).unwrap_err().offset, 1);
        assert!(events("[1 2]").is_err());
        assert!(events("").is_err());
    }

    #[test]
    fn depth_costs_no_stack() {
        let s = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        assert_eq!(events(&s).unwrap().len(), 400_000);
    }
}
