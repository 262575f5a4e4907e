//! A small JSON reader and Chromium-layout writer with no recursion.
//!
//! serde_json's `Value` parses and drops recursively (and stops at 128
//! levels), while a `Bookmarks` file may nest as deep as its author likes:
//! here values live in one flat arena, parsed with an explicit stack, and
//! written back with one too.

/// One JSON value; containers refer to their members by index in [`Json::values`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written.
    Number(Box<str>),
    /// A string, unescaped.
    String(String),
    /// An array's members.
    Array(Vec<u32>),
    /// An object's members in source order.
    Object(Vec<(String, u32)>),
}

/// A parsed JSON text: the values in an arena, the top one first.
#[derive(Clone, Debug, Default)]
pub struct Json {
    /// Every value; index 0 is the top-level one.
    pub values: Vec<Value>,
    /// Where each value starts in the source (byte offset).
    pub offsets: Vec<usize>,
}

/// A syntax error: where (byte offset) and what.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

fn error<T>(offset: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        offset,
        message: message.into(),
    })
}

enum Frame {
    Array(u32, Vec<u32>),
    Object(u32, Vec<(String, u32)>, String),
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
    json: Json,
}

impl Json {
    /// The value at `index`.
    pub fn get(&self, index: u32) -> &Value {
        &self.values[index as usize]
    }

    /// The member `key` of the object at `index`, if it is an object that has one.
    pub fn member(&self, index: u32, key: &str) -> Option<u32> {
        match self.get(index) {
            Value::Object(m) => m.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v),
            _ => None,
        }
    }

    /// Parse `text` (one JSON value, whitespace around it allowed).
    pub fn parse(text: &str) -> Result<Json, SyntaxError> {
        let mut p = Parser {
            text: text.as_bytes(),
            pos: 0,
            json: Json::default(),
        };
        p.run()?;
        Ok(p.json)
    }

    /// The value at `index` as compact JSON text (for values kept as text).
    pub fn compact(&self, index: u32) -> String {
        let mut out = String::new();
        self.write(index, &mut out, None);
        out
    }

    /// Write the value at `index` into `out`; with `Some(depth)`, in
    /// Chromium's pretty layout at that depth (3 spaces a level), else compact.
    pub fn write(&self, index: u32, out: &mut String, pretty: Option<usize>) {
        // (container, next member, depth) of each open container.
        let mut stack: Vec<(u32, usize, usize)> = Vec::new();
        let mut current = Some((index, pretty.unwrap_or(0)));
        loop {
            if let Some((i, depth)) = current.take() {
                match self.get(i) {
                    Value::Array(_) => {
                        out.push('[');
                        if pretty.is_some() {
                            out.push(' ');
                        }
                        stack.push((i, 0, depth));
                    }
                    Value::Object(_) => {
                        out.push('{');
                        stack.push((i, 0, depth));
                    }
                    scalar => write_scalar(scalar, out),
                }
            }
            let Some((top, next, depth)) = stack.last_mut() else {
                return;
            };
            let depth = *depth;
            match self.get(*top) {
                Value::Array(items) => {
                    if let Some(&item) = items.get(*next) {
                        if *next > 0 {
                            out.push(',');
                            if pretty.is_some() {
                                out.push(' ');
                            }
                        }
                        *next += 1;
                        // Array members stay at the array's depth (Chromium's layout).
                        current = Some((item, depth));
                        continue;
                    }
                    if pretty.is_some() {
                        out.push(' ');
                    }
                    out.push(']');
                    stack.pop();
                }
                Value::Object(members) => {
                    if let Some((key, value)) = members.get(*next) {
                        if *next > 0 {
                            out.push(',');
                        }
                        if pretty.is_some() {
                            out.push('\n');
                            indent(out, depth + 1);
                        }
                        write_string(key, out);
                        out.push(':');
                        if pretty.is_some() {
                            out.push(' ');
                        }
                        *next += 1;
                        current = Some((*value, depth + 1));
                        continue;
                    }
                    if pretty.is_some() {
                        // Chromium ends the line even after no member: `{\n}`.
                        out.push('\n');
                        indent(out, depth);
                    }
                    out.push('}');
                    stack.pop();
                }
                _ => unreachable!("only containers are stacked"),
            }
        }
    }
}

/// Levels of indentation written at most. Chromium indents every level,
/// which makes a file's size grow with the square of its depth (100,000
/// levels would be 10^11 bytes); deeper lines keep this indentation, which
/// changes no value and keeps the size linear.
pub const MAX_INDENT: usize = 100;

/// Indent a line to `depth` levels of three spaces, as Chromium's JSONWriter
/// does (up to [`MAX_INDENT`] levels).
pub fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth.min(MAX_INDENT) {
        out.push_str("   ");
    }
}

fn write_scalar(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(n),
        Value::String(s) => write_string(s, out),
        Value::Array(_) | Value::Object(_) => unreachable!("containers are not scalars"),
    }
}

/// A JSON string as Chromium's `EscapeJSONString` writes it: `<` as
/// `\u003C`, U+2028/U+2029 and control characters escaped, the rest raw UTF-8.
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' => out.push_str("\\u003C"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

impl Parser<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn push(&mut self, v: Value, offset: usize) -> u32 {
        self.json.values.push(v);
        self.json.offsets.push(offset);
        (self.json.values.len() - 1) as u32
    }

    fn unexpected<T>(&self, wanted: &str) -> Result<T, SyntaxError> {
        match self.peek() {
            None => error(
                self.pos,
                format!("unexpected end of input: expected {wanted}"),
            ),
            Some(_) => error(self.pos, format!("expected {wanted}")),
        }
    }

    fn run(&mut self) -> Result<(), SyntaxError> {
        if self.text.starts_with("\u{feff}".as_bytes()) {
            self.pos = 3;
        }
        let mut stack: Vec<Frame> = Vec::new();
        self.ws();
        'value: loop {
            let start = self.pos;
            let mut done = match self.peek() {
                Some(b'{') => {
                    self.pos += 1;
                    let at = self.push(Value::Null, start);
                    self.ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        self.json.values[at as usize] = Value::Object(Vec::new());
                        at
                    } else {
                        let key = self.key()?;
                        stack.push(Frame::Object(at, Vec::new(), key));
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.pos += 1;
                    let at = self.push(Value::Null, start);
                    self.ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        self.json.values[at as usize] = Value::Array(Vec::new());
                        at
                    } else {
                        stack.push(Frame::Array(at, Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    let s = self.string()?;
                    self.push(Value::String(s), start)
                }
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => {
                    let n: Box<str> = self.number()?.into();
                    self.push(Value::Number(n), start)
                }
                _ => return self.unexpected("a value"),
            };
            loop {
                self.ws();
                let Some(frame) = stack.last_mut() else {
                    if self.pos < self.text.len() {
                        return error(self.pos, "trailing characters after the JSON value");
                    }
                    return Ok(());
                };
                match frame {
                    Frame::Array(at, items) => {
                        items.push(done);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.ws();
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                let at = *at;
                                self.json.values[at as usize] = Value::Array(std::mem::take(items));
                                stack.pop();
                                done = at;
                            }
                            _ => return self.unexpected("`,` or `]`"),
                        }
                    }
                    Frame::Object(at, members, key) => {
                        members.push((std::mem::take(key), done));
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.ws();
                                let k = self.key()?;
                                if let Some(Frame::Object(_, _, key)) = stack.last_mut() {
                                    *key = k;
                                }
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let at = *at;
                                self.json.values[at as usize] =
                                    Value::Object(std::mem::take(members));
                                stack.pop();
                                done = at;
                            }
                            _ => return self.unexpected("`,` or `}`"),
                        }
                    }
                }
            }
        }
    }

    /// An object key and its colon, leaving the position at the value.
    fn key(&mut self) -> Result<String, SyntaxError> {
        if self.peek() != Some(b'"') {
            return self.unexpected("a string key");
        }
        let key = self.string()?;
        self.ws();
        if self.peek() != Some(b':') {
            return self.unexpected("`:`");
        }
        self.pos += 1;
        self.ws();
        Ok(key)
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<u32, SyntaxError> {
        let start = self.pos;
        if self.text[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(self.push(v, start))
        } else {
            error(start, "expected a value")
        }
    }

    fn number(&mut self) -> Result<&str, SyntaxError> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while let Some(b'0'..=b'9') = p.peek() {
                p.pos += 1;
            }
            p.pos > from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        if !digits(self) {
            return error(self.pos, "expected a digit");
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return error(self.pos, "expected a digit after `.`");
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !digits(self) {
                return error(self.pos, "expected an exponent");
            }
        }
        Ok(std::str::from_utf8(&self.text[start..self.pos]).expect("ASCII digits"))
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let at = self.pos;
        let digits = self.text.get(at..at + 4).unwrap_or_default();
        let text = std::str::from_utf8(digits).unwrap_or_default();
        match (text.len() == 4)
            .then(|| u32::from_str_radix(text, 16).ok())
            .flatten()
        {
            Some(v) if text.bytes().all(|b| b.is_ascii_hexdigit()) => {
                self.pos += 4;
                Ok(v)
            }
            _ => error(at, "expected four hex digits after `\\u`"),
        }
    }

    /// A string starting at the opening quote; lone surrogates become U+FFFD,
    /// as Chromium's own reader makes them.
    fn string(&mut self) -> Result<String, SyntaxError> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' {
                    break;
                }
                self.pos += 1;
            }
            // The text is valid UTF-8 and `"`/`\` are ASCII: the run is whole characters.
            out.push_str(std::str::from_utf8(&self.text[run..self.pos]).expect("UTF-8 text"));
            match self.peek() {
                None => return error(open, "unterminated string"),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                _ => {}
            }
            let esc = self.pos;
            self.pos += 1;
            let c = match self.peek() {
                Some(b'"') => '"',
                Some(b'\\') => '\\',
                Some(b'/') => '/',
                Some(b'b') => '\u{8}',
                Some(b'f') => '\u{c}',
                Some(b'n') => '\n',
                Some(b'r') => '\r',
                Some(b't') => '\t',
                Some(b'u') => {
                    self.pos += 1;
                    let hi = self.hex4()?;
                    let c = if (0xD800..0xDC00).contains(&hi)
                        && self.text[self.pos..].starts_with(b"\\u")
                    {
                        let back = self.pos;
                        self.pos += 2;
                        let lo = self.hex4()?;
                        if (0xDC00..0xE000).contains(&lo) {
                            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                        } else {
                            self.pos = back;
                            None
                        }
                    } else {
                        char::from_u32(hi)
                    };
                    out.push(c.unwrap_or('\u{fffd}'));
                    continue;
                }
                _ => return error(esc, "invalid escape in a string"),
            };
            self.pos += 1;
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_writes_back_compactly() {
        let text =
            r#" {"a": [1, -2.5e3, true, null, {}], "b": "x\"\u00e9\ud83d\ude00<", "c": []} "#;
        let j = Json::parse(text).unwrap();
        assert_eq!(
            j.compact(0),
            r#"{"a":[1,-2.5e3,true,null,{}],"b":"x\"é😀\u003C","c":[]}"#
        );
    }

    #[test]
    fn pretty_layout_is_chromiums() {
        let j = Json::parse(r#"{"children": [{"a": "1"}, {"b": "2"}], "e": [], "o": {}}"#).unwrap();
        let mut out = String::new();
        j.write(0, &mut out, Some(0));
        assert_eq!(
            out,
            "{\n   \"children\": [ {\n      \"a\": \"1\"\n   }, {\n      \"b\": \"2\"\n   } ],\n   \"e\": [  ],\n   \"o\": {\n   }\n}"
        );
    }

    #[test]
    fn errors_say_where() {
        for (text, offset) in [
            ("{\"a\": 1", 7),
            ("{\"a\" 1}", 5),
            ("[1, 2", 5),
            ("[1 2]", 3),
            ("{\"a\": tru}", 6),
            ("\"abc", 0),
            ("{} x", 3),
            ("", 0),
            ("\"\\x\"", 1),
        ] {
            let e = Json::parse(text).unwrap_err();
            assert_eq!(e.offset, offset, "{text:?}: {e:?}");
        }
    }

    #[test]
    fn a_million_levels_parse_and_drop_without_recursion() {
        let depth = 1_000_000;
        let text = "[".repeat(depth) + &"]".repeat(depth);
        let j = Json::parse(&text).unwrap();
        assert_eq!(j.values.len(), depth);
        assert_eq!(j.compact(0).len(), 2 * depth);
    }
}
