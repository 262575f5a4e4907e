//! A JSON pull parser for the JSON formats (Chromium's `Bookmarks`, Firefox
//! backups, Pinboard exports).
//!
//! Bookmark files nest as deep as their authors like, so the parser keeps
//! its own stack (one byte a level): the depth of the input costs heap,
//! never call stack, and memory stays linear in the input. Each [`Event`]
//! comes with the byte offset where it starts; [`Parser::locate`] turns an
//! offset into line:col, and every [`SyntaxError`] carries both.
//!
//! Strings without escapes are borrowed from the input; numbers are kept as
//! their source text (a reader decides what a number means). What strict
//! JSON refuses and files in the wild hold is read on request only:
//! a comma before `]` or `}` (Firefox 3.x ended its backups with `,]}`) with
//! [`Options::trailing_commas`]; each one read is kept in
//! [`Parser::trailing_commas`] for the reader to warn about. A `\u` escape
//! naming half a surrogate pair becomes U+FFFD, as Chromium's and Firefox's
//! own readers make it, and is kept in [`Parser::lone_surrogates`].
//! Duplicate keys are passed on as they come: which one counts is the
//! reader's choice.
//!
//! The writers' half is [`write`]: strings escaped as each browser escapes
//! them.
//!
//! ```
//! use markport_markup::json::{Event, Parser};
//!
//! let mut p = Parser::new(br#"{"title": "caf\u00e9", "n": [1.5e3]}"#);
//! let mut events = Vec::new();
//! while let Some((_, event)) = p.next().unwrap() {
//!     events.push(event);
//! }
//! assert_eq!(events[1], Event::Key("title".into()));
//! assert_eq!(events[2], Event::Str("café".into()));
//! assert_eq!(events[5], Event::Num("1.5e3"));
//!
//! let e = Parser::new(b"{\n  \"a\": tru}").skip_all().unwrap_err();
//! assert_eq!(e.location.to_string(), "2:8");
//! ```

pub mod cursor;
pub mod write;

use std::borrow::Cow;
use std::cell::{Cell, OnceCell};
use std::fmt;

use markport_model::{LineIndex, Location};

/// One step through a JSON text.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<'a> {
    /// `{`
    ObjectStart,
    /// `}`
    ObjectEnd,
    /// `[`
    ArrayStart,
    /// `]`
    ArrayEnd,
    /// A member name (the `:` after it is read too).
    Key(Cow<'a, str>),
    /// A string value, unescaped.
    Str(Cow<'a, str>),
    /// A number, as written (valid JSON number syntax).
    Num(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// `null`
    Null,
}

/// What the parser accepts beyond strict JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Read a comma before `]` or `}` (the Firefox 3.x backup bug) and
    /// keep its offset in [`Parser::trailing_commas`], instead of failing.
    pub trailing_commas: bool,
}

/// What kind of syntax error: readers and tests tell them apart by this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input ends inside a value (a cut file): at the end, or at the
    /// opening quote of a string that is not closed.
    Truncated,
    /// A token that is not the one the grammar wants here.
    Unexpected,
    /// An unknown escape, or `\u` without four hex digits.
    BadEscape,
    /// A number that is not JSON's number syntax (`01`, `1.`, `-`, `1e`).
    BadNumber,
    /// A comma before `]` or `}` when [`Options::trailing_commas`] is off.
    TrailingComma,
    /// Something after the top-level value.
    TrailingData,
    /// Bytes in a string that are not UTF-8.
    InvalidUtf8,
}

/// A syntax error: its kind, where (byte offset and line:col) and a message
/// that says what was wanted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Byte offset in the input.
    pub offset: usize,
    /// The same place as line:col (columns in characters).
    pub location: Location,
    /// What was wanted, for people.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

impl std::error::Error for SyntaxError {}

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

/// The pull parser: call [`Parser::next`] until it returns `Ok(None)`.
pub struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    options: Options,
    /// One entry per open container: `true` for an object.
    stack: Vec<bool>,
    expect: Expect,
    /// Where the comma just read stands, to name it if a closer follows.
    comma: Option<usize>,
    trailing_commas: Vec<usize>,
    lone_surrogates: Vec<usize>,
    lines: OnceCell<LineIndex<'a>>,
    /// Read one value and stop ([`Parser::value_at`]).
    one_value: bool,
    /// A stretch of the input known to be UTF-8 (where it starts, and its
    /// text): a string inside it is sliced out of it, not checked again.
    /// Checking a string at a time costs more in the call than in the
    /// bytes, as most strings are short.
    checked: Cell<(usize, &'a str)>,
    /// How many bytes the next stretch checks at least: it doubles from
    /// a few dozen (a parser of one small value checks little past it) up
    /// to [`MAX_CHECKED`].
    check_next: Cell<usize>,
    /// Whether a stretch met bytes that are not UTF-8: strings are then
    /// checked one at a time, so each error says what it said before.
    spoiled: Cell<bool>,
}

/// The most a stretch of [`Parser::utf8`] checks beyond the text asked for.
const MAX_CHECKED: usize = 1 << 20;

impl<'a> Parser<'a> {
    /// A strict parser over `input` (a UTF-8 byte order mark is skipped).
    pub fn new(input: &'a [u8]) -> Parser<'a> {
        Parser::with_options(input, Options::default())
    }

    /// A parser over `input` that accepts what `options` allow.
    pub fn with_options(input: &'a [u8], options: Options) -> Parser<'a> {
        // A UTF-8 byte order mark is not JSON but editors add it.
        let i = if input.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Parser {
            b: input,
            i,
            options,
            stack: Vec::new(),
            expect: Expect::Value,
            comma: None,
            trailing_commas: Vec::new(),
            lone_surrogates: Vec::new(),
            lines: OnceCell::new(),
            one_value: false,
            checked: Cell::new((0, "")),
            check_next: Cell::new(64),
            spoiled: Cell::new(false),
        }
    }

    /// A parser of the one value that starts at byte `offset` of `input`
    /// (where an earlier pass found it): [`Parser::next`] ends with
    /// `Ok(None)` after that value and reads nothing beyond it. Offsets and
    /// locations are the whole input's, so a reader can go back to a part of
    /// a text it has checked without holding a tree of it.
    pub fn value_at(input: &'a [u8], offset: usize) -> Parser<'a> {
        let mut p = Parser::new(input);
        p.i = offset.max(p.i).min(input.len());
        p.one_value = true;
        p
    }

    /// The byte offset just past the last event.
    pub fn pos(&self) -> usize {
        self.i
    }

    /// How many containers are open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Offsets of the trailing commas read so far (with
    /// [`Options::trailing_commas`]).
    pub fn trailing_commas(&self) -> &[usize] {
        &self.trailing_commas
    }

    /// Offsets of the `\u` escapes read so far that named half a surrogate
    /// pair (each read as U+FFFD).
    pub fn lone_surrogates(&self) -> &[usize] {
        &self.lone_surrogates
    }

    /// The line:col of a byte offset in the input (the line index is built
    /// on the first call).
    pub fn locate(&self, offset: usize) -> Location {
        self.lines
            .get_or_init(|| LineIndex::new(self.b))
            .locate(offset)
    }

    fn err<T>(
        &self,
        kind: ErrorKind,
        offset: usize,
        message: impl Into<String>,
    ) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            kind,
            offset,
            location: self.locate(offset),
            message: message.into(),
        })
    }

    fn truncated<T>(&self) -> Result<T, SyntaxError> {
        self.err(
            ErrorKind::Truncated,
            self.b.len(),
            "the JSON ends too early (truncated file?)",
        )
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

    fn close(&mut self, at: usize, object: bool) -> Result<Event<'a>, SyntaxError> {
        if let Some(comma) = self.comma.take() {
            if !self.options.trailing_commas {
                let closer = if object { '}' } else { ']' };
                return self.err(
                    ErrorKind::TrailingComma,
                    comma,
                    format!("a comma before `{closer}` (not JSON)"),
                );
            }
            self.trailing_commas.push(comma);
        }
        self.i = at + 1;
        self.stack.pop();
        self.after_value();
        Ok(if object {
            Event::ObjectEnd
        } else {
            Event::ArrayEnd
        })
    }

    /// The next event and its offset; `Ok(None)` at the end of a complete
    /// text. After an error the parser stays where it failed.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<(usize, Event<'a>)>, SyntaxError> {
        if self.one_value && self.expect == Expect::End {
            return Ok(None);
        }
        loop {
            self.ws();
            let at = self.i;
            let Some(&c) = self.b.get(at) else {
                return match self.expect {
                    Expect::End => Ok(None),
                    _ => self.truncated(),
                };
            };
            let in_object = self.stack.last().copied();
            match self.expect {
                Expect::End => {
                    return self.err(
                        ErrorKind::TrailingData,
                        at,
                        "unexpected data after the JSON value",
                    )
                }
                Expect::Comma => match (c, in_object) {
                    (b',', Some(object)) => {
                        self.i += 1;
                        self.comma = Some(at);
                        self.expect = if object { Expect::Key } else { Expect::Value };
                        continue;
                    }
                    (b'}', Some(true)) => return Ok(Some((at, self.close(at, true)?))),
                    (b']', Some(false)) => return Ok(Some((at, self.close(at, false)?))),
                    (_, Some(true)) => {
                        return self.err(ErrorKind::Unexpected, at, "expected `,` or `}`")
                    }
                    _ => return self.err(ErrorKind::Unexpected, at, "expected `,` or `]`"),
                },
                Expect::Key | Expect::FirstKey => {
                    if c == b'}' && (self.expect == Expect::FirstKey || self.comma.is_some()) {
                        return Ok(Some((at, self.close(at, true)?)));
                    }
                    if c != b'"' {
                        return self.err(
                            ErrorKind::Unexpected,
                            at,
                            "expected a member name in double quotes",
                        );
                    }
                    self.comma = None;
                    let key = self.string()?;
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b':') => {}
                        None => return self.truncated(),
                        Some(_) => {
                            return self.err(
                                ErrorKind::Unexpected,
                                self.i,
                                "expected `:` after the member name",
                            )
                        }
                    }
                    self.i += 1;
                    self.expect = Expect::Value;
                    return Ok(Some((at, Event::Key(key))));
                }
                Expect::Value | Expect::FirstValue => {
                    if c == b']' && in_object == Some(false) {
                        if self.expect == Expect::FirstValue || self.comma.is_some() {
                            return Ok(Some((at, self.close(at, false)?)));
                        }
                        return self.err(ErrorKind::Unexpected, at, "expected a JSON value");
                    }
                    self.comma = None;
                    let event = match c {
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
                        _ => return self.err(ErrorKind::Unexpected, at, "expected a JSON value"),
                    };
                    self.after_value();
                    return Ok(Some((at, event)));
                }
            }
        }
    }

    /// Read to the end of the text, checking it all.
    pub fn skip_all(mut self) -> Result<(), SyntaxError> {
        while self.next()?.is_some() {}
        Ok(())
    }

    /// Skip the value whose first event (at `start`) was just read, and
    /// return its text as written. Iterative: any depth.
    pub fn skip_value(&mut self, start: usize, first: &Event<'a>) -> Result<&'a str, SyntaxError> {
        let base = self.stack.len();
        if matches!(first, Event::ObjectStart | Event::ArrayStart) {
            if let Some(text) = self.skip_plain(start) {
                return Ok(text);
            }
            while self.stack.len() >= base {
                self.next()?;
            }
        }
        self.utf8(start, self.i)
    }

    /// The fast way through a container whose opener (at `start`) was just
    /// read: a scan that makes no events, checks the grammar as
    /// [`Parser::next`] does and the UTF-8 of the whole text once. It
    /// gives up (`None`, the parser untouched) on anything it would have
    /// to report or record: an error, a trailing comma, a `\u` escape
    /// naming half a surrogate pair, or more than 64 levels; the event
    /// loop then reads the same text again and says what it says. So a
    /// value is scanned at most twice, and what a reader sees is the same.
    fn skip_plain(&mut self, start: usize) -> Option<&'a str> {
        let b = self.b;
        let object = *self.stack.last()?;
        let first = if object {
            Expect::FirstKey
        } else {
            Expect::FirstValue
        };
        if self.expect != first || self.comma.is_some() || self.i != start + 1 {
            return None;
        }
        // Bit k: whether the level k deep (0 is the opener) is an object.
        let mut kinds: u64 = u64::from(object);
        let mut depth = 0u32;
        let mut expect = first;
        let mut i = self.i;
        loop {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
                i += 1;
            }
            let c = *b.get(i)?;
            let in_object = (kinds >> depth) & 1 == 1;
            match expect {
                Expect::Comma => match c {
                    b',' => {
                        i += 1;
                        expect = if in_object {
                            Expect::Key
                        } else {
                            Expect::Value
                        };
                        // A closer next (a trailing comma) is given up on
                        // below: it is not a first key or value.
                        continue;
                    }
                    b'}' | b']' if (c == b'}') == in_object => {
                        i += 1;
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                        continue;
                    }
                    _ => return None,
                },
                Expect::Key | Expect::FirstKey => {
                    if c == b'}' && expect == Expect::FirstKey {
                        i += 1;
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                        expect = Expect::Comma;
                        continue;
                    }
                    if c != b'"' {
                        return None;
                    }
                    i = plain_string_end(b, i)?;
                    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
                        i += 1;
                    }
                    if b.get(i) != Some(&b':') {
                        return None;
                    }
                    i += 1;
                    expect = Expect::Value;
                    continue;
                }
                Expect::Value | Expect::FirstValue => {
                    if c == b']' && !in_object && expect == Expect::FirstValue {
                        i += 1;
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                        expect = Expect::Comma;
                        continue;
                    }
                    match c {
                        b'{' | b'[' => {
                            if depth == 63 {
                                return None;
                            }
                            depth += 1;
                            let object = c == b'{';
                            kinds = (kinds & !(1 << depth)) | (u64::from(object) << depth);
                            i += 1;
                            expect = if object {
                                Expect::FirstKey
                            } else {
                                Expect::FirstValue
                            };
                            continue;
                        }
                        b'"' => i = plain_string_end(b, i)?,
                        b'-' | b'0'..=b'9' => {
                            let mut end = i;
                            while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') =
                                b.get(end)
                            {
                                end += 1;
                            }
                            if !is_number(&b[i..end]) {
                                return None;
                            }
                            i = end;
                        }
                        b't' | b'f' | b'n' => {
                            let word: &[u8] = match c {
                                b't' => b"true",
                                b'f' => b"false",
                                _ => b"null",
                            };
                            if !b[i..].starts_with(word) {
                                return None;
                            }
                            i += word.len();
                        }
                        _ => return None,
                    }
                    expect = Expect::Comma;
                }
                Expect::End => return None,
            }
        }
        let text = self.utf8(start, i).ok()?;
        self.i = i;
        self.stack.pop();
        self.comma = None;
        self.after_value();
        Some(text)
    }

    fn word(&mut self, word: &[u8], event: Event<'a>) -> Result<Event<'a>, SyntaxError> {
        let rest = &self.b[self.i..];
        if rest.starts_with(word) {
            self.i += word.len();
            Ok(event)
        } else if word.starts_with(rest) {
            self.truncated()
        } else {
            self.err(ErrorKind::Unexpected, self.i, "expected a JSON value")
        }
    }

    /// A number: RFC 8259's `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Result<&'a str, SyntaxError> {
        let start = self.i;
        let mut end = start;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.b.get(end) {
            end += 1;
        }
        let token = &self.b[start..end];
        if !is_number(token) {
            if end == self.b.len() && is_number_prefix(token) {
                return self.truncated();
            }
            let shown = String::from_utf8_lossy(token);
            return self.err(
                ErrorKind::BadNumber,
                start,
                format!("`{shown}` is not a JSON number"),
            );
        }
        // ASCII, so never an error.
        let text = self.utf8(start, end)?;
        self.i = end;
        Ok(text)
    }

    fn utf8(&self, from: usize, to: usize) -> Result<&'a str, SyntaxError> {
        let (start, text) = self.checked.get();
        let known = if from >= start && to <= start + text.len() {
            text.get(from - start..to - start)
        } else {
            self.check(from, to)
        };
        if let Some(s) = known {
            return Ok(s);
        }
        let b: &'a [u8] = self.b;
        std::str::from_utf8(&b[from..to]).or_else(|e| {
            self.err(
                ErrorKind::InvalidUtf8,
                from + e.valid_up_to(),
                "invalid UTF-8 in a string",
            )
        })
    }

    /// Check a new stretch from `from` through at least `to`, and the text
    /// from `from` to `to` if it is UTF-8 and all went well. Each stretch
    /// starts where a string or value that the last did not hold starts,
    /// so the stretches overlap by less than a string, and the input is
    /// checked about once in all.
    fn check(&self, from: usize, to: usize) -> Option<&'a str> {
        if self.spoiled.get() || from > to {
            return None;
        }
        let b: &'a [u8] = self.b;
        let size = self.check_next.get();
        self.check_next.set((size * 2).min(MAX_CHECKED));
        let end = to.max(from.saturating_add(size)).min(b.len());
        let text = match std::str::from_utf8(b.get(from..end)?) {
            Ok(text) => text,
            Err(e) => {
                // Invalid bytes, or a character cut by the stretch's end:
                // what comes before them is the stretch.
                self.spoiled.set(e.error_len().is_some());
                std::str::from_utf8(&b[from..from + e.valid_up_to()]).ok()?
            }
        };
        self.checked.set((from, text));
        text.get(..to - from)
    }

    /// A string starting at the opening quote.
    fn string(&mut self) -> Result<Cow<'a, str>, SyntaxError> {
        let open = self.i;
        let start = open + 1;
        let unclosed = |p: &Self| {
            p.err(
                ErrorKind::Truncated,
                open,
                "a string is not closed (truncated file?)",
            )
        };
        // The common case: no escapes, borrowed as it is.
        let Some(n) = quote_or_backslash(self.b, start).map(|at| at - start) else {
            return unclosed(self);
        };
        if self.b[start + n] == b'"' {
            let s = self.utf8(start, start + n)?;
            self.i = start + n + 1;
            return Ok(Cow::Borrowed(s));
        }
        let mut out = String::new();
        let mut run = start;
        let mut i = start + n;
        loop {
            // `i` is at a `"` or a `\`.
            out.push_str(self.utf8(run, i)?);
            if self.b[i] == b'"' {
                self.i = i + 1;
                return Ok(Cow::Owned(out));
            }
            let esc = i;
            let Some(&e) = self.b.get(i + 1) else {
                return unclosed(self);
            };
            i += 2;
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
                    let hi = self.hex4(esc, i)?;
                    i += 4;
                    let mut c = char::from_u32(hi);
                    if (0xD800..0xDC00).contains(&hi) && self.b.get(i..i + 2) == Some(b"\\u") {
                        let lo = self.hex4(i, i + 2)?;
                        if (0xDC00..0xE000).contains(&lo) {
                            c = char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                            i += 6;
                        }
                    }
                    out.push(c.unwrap_or_else(|| {
                        self.lone_surrogates.push(esc);
                        '\u{FFFD}'
                    }));
                }
                _ => {
                    return self.err(
                        ErrorKind::BadEscape,
                        esc,
                        format!(
                            "unknown escape `\\{}` in a string",
                            char::from(e).escape_default()
                        ),
                    )
                }
            }
            run = i;
            match quote_or_backslash(self.b, i) {
                Some(at) => i = at,
                None => return unclosed(self),
            }
        }
    }

    /// Four hex digits at `at`, of the `\u` escape at `esc`.
    fn hex4(&self, esc: usize, at: usize) -> Result<u32, SyntaxError> {
        let digits = self.b.get(at..at + 4);
        match digits {
            Some(h) if h.iter().all(u8::is_ascii_hexdigit) => Ok(h.iter().fold(0, |v, &d| {
                v * 16 + char::from(d).to_digit(16).expect("hex digit")
            })),
            None if self.b[at..].iter().all(u8::is_ascii_hexdigit) => self.err(
                ErrorKind::Truncated,
                self.b.len(),
                "the JSON ends too early (truncated file?)",
            ),
            _ => self.err(
                ErrorKind::BadEscape,
                esc,
                "a `\\u` escape needs four hex digits",
            ),
        }
    }
}

/// Just past the string whose opening quote is at `open`, if its escapes
/// are ones [`Parser::string`] reads without a word to say: `None` at an
/// unknown escape, a `\u` without four hex digits or naming half a
/// surrogate pair, or no closing quote. Its UTF-8 is not checked here.
fn plain_string_end(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    loop {
        i = quote_or_backslash(b, i)?;
        if b[i] == b'"' {
            return Some(i + 1);
        }
        match *b.get(i + 1)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
            b'u' => {
                let h = b.get(i + 2..i + 6)?;
                if !h.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                // Surrogates, paired or not, go the event loop's way.
                if matches!(h[0], b'd' | b'D')
                    && matches!(h[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
                {
                    return None;
                }
                i += 6;
            }
            _ => return None,
        }
    }
}

/// Where the first `"` or `\\` at or after `from` is. Most strings are
/// short: their first 32 bytes are looked at a word at a time, by hand,
/// before memchr (whose setup costs more than such a string's bytes).
fn quote_or_backslash(b: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    for _ in 0..4 {
        let Some(Ok(word)) = b.get(i..i + 8).map(<[u8; 8]>::try_from) else {
            break;
        };
        let w = u64::from_le_bytes(word);
        let (q, s) = (w ^ (ONES * 0x22), w ^ (ONES * 0x5c));
        // The high bit of each byte that is zero in q or s; those above
        // the first may be wrong (a borrow), the first never is.
        let hit = ((q.wrapping_sub(ONES) & !q) | (s.wrapping_sub(ONES) & !s)) & HIGH;
        if hit != 0 {
            return Some(i + (hit.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    memchr::memchr2(b'"', b'\\', b.get(i..)?).map(|n| i + n)
}

fn digits(b: &[u8]) -> usize {
    b.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// Whether `t` is a whole JSON number.
fn is_number(t: &[u8]) -> bool {
    number_len(t) == Some(t.len())
}

/// How much of `t` is a JSON number, if it starts with one.
fn number_len(t: &[u8]) -> Option<usize> {
    let mut i = usize::from(t.first() == Some(&b'-'));
    match t.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i += digits(&t[i..]),
        _ => return None,
    }
    if t.get(i) == Some(&b'.') {
        let n = digits(&t[i + 1..]);
        if n == 0 {
            return None;
        }
        i += 1 + n;
    }
    if let Some(b'e' | b'E') = t.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = t.get(i) {
            i += 1;
        }
        let n = digits(&t[i..]);
        if n == 0 {
            return None;
        }
        i += n;
    }
    Some(i)
}

/// Whether more input could make `t` a number (`-`, `1.`, `2e+`).
fn is_number_prefix(t: &[u8]) -> bool {
    is_number(&[t, b"0"].concat())
}

#[cfg(test)]
mod tests;
