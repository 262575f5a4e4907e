//! One JSON object of a manager's export, read one level deep with markup's
//! pull parser: strings, numbers, booleans and nulls as values, arrays and
//! objects as their text and offset, so a reader goes back to a nested value
//! (`Parser::value_at`) only when it needs it. Every value is read at most
//! twice (once skipped, once read), so reading stays linear, and no tree of
//! the file is held. Positions are located through one [`LineIndex`] for
//! the whole input.

use std::borrow::Cow;
use std::fmt::{self, Display};

use markport_markup::json::{Event, Parser, SyntaxError};
use markport_model::{
    Attribute, Bookmark, DateValue, Diagnostic, Error, ErrorKind, LineIndex, Timestamp,
};

/// Which entry a message is about (`entry 3`, `collection 2, link 5`),
/// written only when a message is: reading a valid file makes no text.
#[derive(Clone, Copy)]
pub(crate) struct Item {
    /// The entry that holds this one, if any: its kind and number.
    pub(crate) within: Option<(&'static str, usize)>,
    /// What the entry is (`entry`, `link`, ...).
    pub(crate) kind: &'static str,
    /// Its 1-based number.
    pub(crate) n: usize,
}

impl Item {
    pub(crate) fn new(kind: &'static str, n: usize) -> Item {
        Item {
            within: None,
            kind,
            n,
        }
    }
}

impl Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((kind, n)) = self.within {
            write!(f, "{kind} {n}, ")?;
        }
        write!(f, "{} {}", self.kind, self.n)
    }
}

/// One member's value.
pub(crate) enum Val<'a> {
    /// A string, unescaped.
    Str(Cow<'a, str>),
    /// A number, as written.
    Num(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// An array or object, as its text as written (the member's offset
    /// says where it starts).
    Nested(&'a str),
}

impl Val<'_> {
    /// The value as an `extra` attribute keeps it: a string as itself,
    /// anything else as its JSON text.
    pub(crate) fn text(&self) -> Cow<'_, str> {
        match self {
            Val::Str(s) => Cow::Borrowed(s),
            Val::Num(n) => Cow::Borrowed(n),
            Val::Bool(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
            Val::Null => Cow::Borrowed("null"),
            Val::Nested(t) => Cow::Borrowed(t),
        }
    }
}

/// An object's members in the order written, with where each value starts.
pub(crate) struct Record<'a> {
    /// Where the object's `{` is.
    pub(crate) at: usize,
    pub(crate) members: Vec<(Cow<'a, str>, usize, Val<'a>)>,
}

impl<'a> Record<'a> {
    /// The value of `key` (for a key given twice, the last, as a JSON
    /// object's map holds it).
    pub(crate) fn get(&self, key: &str) -> Option<&Val<'a>> {
        self.members
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, _, v)| v)
    }

    /// Where the value of `key` starts.
    pub(crate) fn offset(&self, key: &str) -> Option<usize> {
        self.members
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, at, _)| *at)
    }

    /// Where the value of `key` starts, when it is an array or an object
    /// (to be read with `Parser::value_at`, [`each_object`] or
    /// [`strings`]).
    pub(crate) fn nested(&self, key: &str) -> Option<usize> {
        match self.members.iter().rev().find(|(k, _, _)| k == key) {
            Some((_, at, Val::Nested(_))) => Some(*at),
            _ => None,
        }
    }

    /// Whether `key` is absent, null or an array: a list key whose value is
    /// anything else is not read as a list and stays in `extra`.
    pub(crate) fn list_or_none(&self, key: &str) -> bool {
        matches!(self.get(key), None | Some(Val::Null) | Some(Val::Nested(_)))
    }

    /// The keys of `mapped` but those of `lists` whose value is not a list
    /// ([`Record::list_or_none`]): such a value is not read, so it stays in
    /// `extra` as written.
    pub(crate) fn mapped<'k>(&self, mapped: &[&'k str], lists: &[&str]) -> Vec<&'k str> {
        mapped
            .iter()
            .copied()
            .filter(|k| !lists.contains(k) || self.list_or_none(k))
            .collect()
    }

    /// The strings of the list `key` ([`strings`], objects by their
    /// `name_key`), none when it is not an array or object; messages name
    /// `what` and the key (`bookmark 3: tags`).
    pub(crate) fn strings(
        &self,
        input: &[u8],
        key: &str,
        name_key: &str,
        what: impl Display,
        lines: &LineIndex<'_>,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Vec<String>, Error> {
        match self.nested(key) {
            Some(at) => strings(
                input,
                at,
                name_key,
                format_args!("{what}: {key}"),
                lines,
                diags,
            ),
            None => Ok(Vec::new()),
        }
    }

    /// The link of the entry `what` (its non-empty `url`); `None`, with a
    /// warning that it is skipped, when it has none.
    pub(crate) fn url(
        &self,
        what: impl Display,
        lines: &LineIndex<'_>,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        let url = self.text("url");
        if url.is_none() {
            warn(diags, lines, self.at, format!("{what} has no url; skipped"));
        }
        url
    }

    /// The string value of `key`, if it is one.
    pub(crate) fn str(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            Some(Val::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// The non-empty string value of `key`, owned.
    pub(crate) fn text(&self, key: &str) -> Option<String> {
        self.str(key).filter(|s| !s.is_empty()).map(String::from)
    }

    /// `key` as a truth value: a boolean, or the numbers 0 and 1 (wallabag
    /// writes those); `None` when absent or null, `Err` with its text for
    /// anything else.
    pub(crate) fn flag(&self, key: &str) -> Result<Option<bool>, String> {
        match self.get(key) {
            None | Some(Val::Null) => Ok(None),
            Some(Val::Bool(b)) => Ok(Some(*b)),
            Some(Val::Num("0")) => Ok(Some(false)),
            Some(Val::Num("1")) => Ok(Some(true)),
            Some(other) => Err(other.text().into_owned()),
        }
    }

    /// The members whose key is not in `mapped` nor in `dropped`, as
    /// attributes (the last value of a key given twice), in key order.
    pub(crate) fn extra(&self, mapped: &[&str], dropped: &[&str]) -> Vec<Attribute> {
        // Backwards, so that a key given twice counts once, with its last
        // value: a key met again is one already in `out` (a later member of
        // that key was kept, or was itself a key met again). A small
        // object's (all of the managers') are searched, a large one's
        // hashed.
        let small = self.members.len() <= 32;
        let mut seen = std::collections::HashSet::new();
        let mut out: Vec<Attribute> = Vec::new();
        for (k, _, v) in self.members.iter().rev() {
            if mapped.contains(&&**k) || dropped.contains(&&**k) {
                continue;
            }
            let again = if small {
                out.iter().any(|a| a.name == **k)
            } else {
                !seen.insert(&**k)
            };
            if again {
                continue;
            }
            out.push(Attribute::new(k.as_ref(), v.text()));
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }
}

/// Set the bookmark's id and extra attributes, leaving its details unmade
/// when it has neither.
pub(crate) fn details(b: &mut Bookmark, id: Option<String>, extra: Vec<Attribute>) {
    if id.is_some() || !extra.is_empty() {
        let d = b.details_mut();
        d.id = id;
        d.extra = extra;
    }
}

/// A JSON syntax error as a markport error with its position.
pub(crate) fn syntax(e: SyntaxError) -> Error {
    Error::syntax(format!("JSON: {}", e.message), e.location)
}

/// The next event; the end of the text reads as `null`, which no caller
/// accepts where a value is due.
pub(crate) fn next<'a>(p: &mut Parser<'a>) -> Result<(usize, Event<'a>), Error> {
    match p.next().map_err(syntax)? {
        Some(e) => Ok(e),
        None => Ok((p.pos(), Event::Null)),
    }
}

/// The members of the object whose `{` (at `at`) was just read.
pub(crate) fn record<'a>(p: &mut Parser<'a>, at: usize) -> Result<Record<'a>, Error> {
    record_sized(p, at, 0)
}

/// [`record`], with room made for `size` members at once (the size of the
/// record before, in an array of like records): one allocation, not one
/// for each doubling.
fn record_sized<'a>(p: &mut Parser<'a>, at: usize, size: usize) -> Result<Record<'a>, Error> {
    let mut members = Vec::with_capacity(size);
    while let (_, Event::Key(key)) = next(p)? {
        let (vat, first) = next(p)?;
        let value = match first {
            Event::Str(s) => Val::Str(s),
            Event::Num(n) => Val::Num(n),
            Event::Bool(b) => Val::Bool(b),
            Event::Null => Val::Null,
            nested => Val::Nested(p.skip_value(vat, &nested).map_err(syntax)?),
        };
        members.push((key, vat, value));
    }
    Ok(Record { at, members })
}

/// The first value of an export, which must open with `start` (`{` or
/// `[`): where it starts, or an error saying the file is `not_what`
/// (`not a wallabag export: it is not a JSON array of entries`).
fn opening(
    p: &mut Parser<'_>,
    lines: &LineIndex<'_>,
    start: Event<'_>,
    not_what: &str,
) -> Result<usize, Error> {
    let (at, first) = next(p)?;
    if first != start {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            not_what,
            Some(lines.locate(at)),
        ));
    }
    Ok(at)
}

/// Where the top-level array of an export starts, or an error saying the
/// file is `not_what` (`not a wallabag export: it is not a JSON array of
/// entries`).
pub(crate) fn top_array(
    input: &[u8],
    lines: &LineIndex<'_>,
    not_what: &str,
) -> Result<usize, Error> {
    opening(&mut Parser::new(input), lines, Event::ArrayStart, not_what)
}

/// The top-level object of a `what` export (`Linkwarden`), which must
/// hold `key`: the object's members and where `key`'s value starts.
pub(crate) fn top_object<'a>(
    input: &'a [u8],
    lines: &LineIndex<'_>,
    what: &str,
    key: &str,
) -> Result<(Record<'a>, usize), Error> {
    let mut p = Parser::new(input);
    let at = opening(
        &mut p,
        lines,
        Event::ObjectStart,
        &format!("not a {what} export: it is not a JSON object"),
    )?;
    let top = record(&mut p, at)?;
    p.next().map_err(syntax)?;
    let Some(value) = top.offset(key) else {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            format!("not a {what} export: it has no `{key}`"),
            Some(lines.locate(at)),
        ));
    };
    Ok((top, value))
}

/// Each member of the array that starts at `at` in `input`: objects as
/// records handed to `each` (with their 1-based number), anything else
/// skipped with a warning naming `what`. Returns the offset just past the
/// array.
pub(crate) fn each_object<'a>(
    input: &'a [u8],
    at: usize,
    what: impl Display,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
    mut each: impl FnMut(usize, Record<'a>, &mut Vec<Diagnostic>) -> Result<(), Error>,
) -> Result<usize, Error> {
    let mut p = Parser::value_at(input, at);
    let (start, first) = next(&mut p)?;
    if first != Event::ArrayStart {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("{what}: expected an array"),
            Some(lines.locate(start)),
        ));
    }
    let mut size = 0;
    for i in 1.. {
        let (at, event) = next(&mut p)?;
        match event {
            Event::ArrayEnd => break,
            Event::ObjectStart => {
                // Capped, so that one huge record costs no room in the rest.
                let rec = record_sized(&mut p, at, size.min(64))?;
                size = rec.members.len();
                each(i, rec, diags)?;
            }
            other => {
                p.skip_value(at, &other).map_err(syntax)?;
                diags.push(Diagnostic::warning(
                    format!("{what} {i} is not an object; skipped"),
                    Some(lines.locate(at)),
                ));
            }
        }
    }
    Ok(p.pos())
}

/// The strings of the array at `at`: a string as itself, an object by its
/// member `name_key` (tags written as objects), anything else as its JSON
/// text with a warning.
pub(crate) fn strings(
    input: &[u8],
    at: usize,
    name_key: &str,
    what: impl Display,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<String>, Error> {
    let mut p = Parser::value_at(input, at);
    let (_, first) = next(&mut p)?;
    if first != Event::ArrayStart {
        let text = p.skip_value(at, &first).map_err(syntax)?;
        diags.push(Diagnostic::warning(
            format!("{what} {text} is not an array; kept as written"),
            Some(lines.locate(at)),
        ));
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    loop {
        let (vat, event) = next(&mut p)?;
        match event {
            Event::ArrayEnd => break,
            Event::Str(s) => out.push(s.into_owned()),
            Event::ObjectStart => {
                let rec = record(&mut p, vat)?;
                match rec.str(name_key) {
                    Some(name) => out.push(name.to_string()),
                    None => diags.push(Diagnostic::warning(
                        format!("{what}: an entry without a `{name_key}` string; skipped"),
                        Some(lines.locate(vat)),
                    )),
                }
            }
            other => {
                let text = p.skip_value(vat, &other).map_err(syntax)?;
                diags.push(Diagnostic::warning(
                    format!("{what}: {text} is not a string; kept as its JSON text"),
                    Some(lines.locate(vat)),
                ));
                out.push(text.to_string());
            }
        }
    }
    Ok(out)
}

/// An ISO 8601 date string (the managers write them with an offset or `Z`);
/// what is not one is kept as written, with a warning.
pub(crate) fn iso_date(
    rec: &Record<'_>,
    key: &str,
    what: impl Display,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<DateValue> {
    let text = rec.str(key).filter(|s| !s.is_empty())?;
    let date = DateValue::from_w3c(text);
    if date.instant().is_none() {
        diags.push(Diagnostic::warning(
            format!("{what}: {key} {text:?} is not a date; kept as written"),
            rec.offset(key).map(|at| lines.locate(at)),
        ));
    }
    Some(date)
}

/// A date in Unix seconds (Karakeep's `createdAt`), a number or a string of
/// one; anything else kept as written, with a warning.
pub(crate) fn unix_seconds(
    rec: &Record<'_>,
    key: &str,
    what: impl Display,
    lines: &LineIndex<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<DateValue> {
    let text = match rec.get(key)? {
        Val::Num(n) => *n,
        Val::Str(s) => s.as_ref(),
        Val::Null => return None,
        other => {
            let text = other.text().into_owned();
            diags.push(Diagnostic::warning(
                format!("{what}: {key} {text} is not a date; kept as written"),
                rec.offset(key).map(|at| lines.locate(at)),
            ));
            return Some(DateValue::Raw(text.into()));
        }
    };
    match text
        .parse::<i64>()
        .ok()
        .and_then(Timestamp::from_unix_seconds)
    {
        Some(t) => Some(DateValue::Instant(t)),
        None => {
            diags.push(Diagnostic::warning(
                format!("{what}: {key} {text} is not a date in Unix seconds; kept as written"),
                rec.offset(key).map(|at| lines.locate(at)),
            ));
            Some(DateValue::Raw(text.into()))
        }
    }
}

/// Nothing but whitespace may follow the top-level value, which ends at
/// `end`.
pub(crate) fn nothing_after(input: &[u8], end: usize, lines: &LineIndex<'_>) -> Result<(), Error> {
    match input[end.min(input.len())..]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
    {
        None => Ok(()),
        Some(k) => Err(Error::syntax(
            "JSON: more text after the top-level value",
            lines.locate(end + k),
        )),
    }
}

/// The first byte of `input` that is not whitespace (after a byte-order
/// mark), and a lossy look at both its ends (the first and last 64 KiB,
/// [`markport_markup::sniff::ends`], one after the other with a line
/// break between): what detection reads. Both ends, because keys come in
/// any order: the keys that name a format may follow its one big array.
pub(crate) fn head(input: &[u8]) -> Option<(u8, Cow<'_, str>)> {
    let first = markport_markup::sniff::first_byte(input)?;
    let (head, tail) = markport_markup::sniff::ends(input);
    if head.len() + 3 >= input.len() {
        // The whole input (a byte-order mark aside) is the head.
        return Some((first, String::from_utf8_lossy(head)));
    }
    let mut text = String::from_utf8_lossy(head).into_owned();
    text.push('\n');
    text.push_str(&String::from_utf8_lossy(tail));
    Some((first, Cow::Owned(text)))
}

/// A warning at `at`.
pub(crate) fn warn(diags: &mut Vec<Diagnostic>, lines: &LineIndex<'_>, at: usize, message: String) {
    diags.push(Diagnostic::warning(message, Some(lines.locate(at))));
}
