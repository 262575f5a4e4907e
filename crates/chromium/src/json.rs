//! A `Bookmarks` file as a tree of JSON values, and Chromium's JSON layout.
//!
//! The reader needs random access (a node's `type` comes after its
//! `children` in Chromium's sorted keys), so the events of
//! [`markport_markup::json`] are gathered into one flat arena with an
//! explicit stack: a file nested as deep as its author likes reads and
//! drops without recursion (serde_json's `Value` would recurse, and stops
//! at 128 levels). Strings borrow from the input when they have no escapes.

use std::borrow::Cow;

use markport_markup::json::{Event, Parser, SyntaxError};

/// One JSON value; containers refer to their members by index in [`Json::values`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written.
    Number(&'a str),
    /// A string, unescaped.
    String(Cow<'a, str>),
    /// An array's members.
    Array(Vec<u32>),
    /// An object's members in source order (duplicate keys kept).
    Object(Vec<(Cow<'a, str>, u32)>),
}

/// A parsed JSON text: the values in an arena, the top one first.
#[derive(Clone, Debug, Default)]
pub struct Json<'a> {
    /// Every value; index 0 is the top-level one.
    pub values: Vec<Value<'a>>,
    /// Where each value starts in the source (byte offset).
    pub offsets: Vec<usize>,
}

/// An open container: its index, its members so far, and for an object
/// the key whose value comes next.
enum Frame<'a> {
    Array(u32, Vec<u32>),
    Object(u32, Vec<(Cow<'a, str>, u32)>, Cow<'a, str>),
}

impl<'a> Json<'a> {
    /// The value at `index`.
    pub fn get(&self, index: u32) -> &Value<'a> {
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
    pub fn parse(text: &'a str) -> Result<Json<'a>, SyntaxError> {
        let mut parser = Parser::new(text.as_bytes());
        let mut json = Json::default();
        let mut stack: Vec<Frame<'a>> = Vec::new();
        while let Some((at, event)) = parser.next()? {
            let value = match event {
                Event::ObjectStart => {
                    stack.push(Frame::Object(
                        json.push(Value::Null, at),
                        Vec::new(),
                        "".into(),
                    ));
                    continue;
                }
                Event::ArrayStart => {
                    stack.push(Frame::Array(json.push(Value::Null, at), Vec::new()));
                    continue;
                }
                Event::Key(k) => {
                    if let Some(Frame::Object(_, _, key)) = stack.last_mut() {
                        *key = k;
                    }
                    continue;
                }
                Event::ObjectEnd | Event::ArrayEnd => {
                    let (index, value) = match stack.pop() {
                        Some(Frame::Object(i, members, _)) => (i, Value::Object(members)),
                        Some(Frame::Array(i, items)) => (i, Value::Array(items)),
                        None => unreachable!("the parser matches closers to openers"),
                    };
                    json.values[index as usize] = value;
                    index
                }
                Event::Str(s) => json.push(Value::String(s), at),
                Event::Num(n) => json.push(Value::Number(n), at),
                Event::Bool(b) => json.push(Value::Bool(b), at),
                Event::Null => json.push(Value::Null, at),
            };
            match stack.last_mut() {
                Some(Frame::Array(_, items)) => items.push(value),
                Some(Frame::Object(_, members, key)) => {
                    members.push((std::mem::take(key), value));
                }
                None => {}
            }
        }
        Ok(json)
    }

    fn push(&mut self, v: Value<'a>, offset: usize) -> u32 {
        self.values.push(v);
        self.offsets.push(offset);
        (self.values.len() - 1) as u32
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
    fn a_million_levels_parse_and_drop_without_recursion() {
        let depth = 1_000_000;
        let text = "[".repeat(depth) + &"]".repeat(depth);
        let j = Json::parse(&text).unwrap();
        assert_eq!(j.values.len(), depth);
        assert_eq!(j.compact(0).len(), 2 * depth);
    }
}
