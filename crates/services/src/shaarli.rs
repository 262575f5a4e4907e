//! Shaarli's `data/datastore.php`: the bookmarks as PHP's `serialize()`,
//! deflated (`gzdeflate`, raw deflate) and in base64, inside a PHP comment
//! (`<?php /* ... */ ?>`), as Shaarli's `FileUtils::writeFlatDB` writes it
//! (`docs/formats/shaarli.md`).
//!
//! Two layouts: since Shaarli 0.12 a `Shaarli\Bookmark\BookmarkArray`
//! object whose `bookmarks` are `Shaarli\Bookmark\Bookmark` objects (id,
//! shortUrl, url, title, description, tags, thumbnail, sticky, created,
//! updated, private, additionalContent), dates as PHP `DateTime` objects
//! with their zone; before it (`LinkDB`) an array of arrays with the same
//! names in lower case, `tags` as one space-separated string and, in the
//! oldest files, `linkdate` (`20110823_124546`, the server's local time) in
//! place of `created`.
//!
//! A Shaarli note (a bookmark whose url is empty, `?shorturl` or
//! `/shaare/shorturl`) has no link: it is skipped, and said.

use std::io::Read;

use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, LineIndex,
    Location, Parsed, Precision, ReadOptions, Timestamp,
};

use crate::php::{self, Entries, Record, Tree, Val};

/// What Shaarli writes before and after the payload.
const PREFIX: &[u8] = b"<?php /* ";
const SUFFIX: &[u8] = b" */ ?>";

/// The most bytes the payload may inflate to (as an archive entry may).
const MAX_INFLATED: usize = 512 << 20;
/// The most inflated bytes per compressed byte, checked past
/// [`RATIO_FLOOR`]: serialized PHP compresses about tenfold, a bomb a
/// thousandfold.
const MAX_RATIO: usize = 200;
const RATIO_FLOOR: usize = 1 << 20;

/// How sure it is that `input` is a Shaarli datastore: Shaarli's PHP
/// comment around the whole file (what it holds is checked by reading, so
/// that a damaged payload is an error at its place, not an unknown file).
pub fn detect(input: &[u8]) -> Option<u8> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    (input.starts_with(PREFIX) && input.trim_ascii_end().ends_with(b"*/ ?>")).then_some(90)
}

/// Read a Shaarli datastore, either layout.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let lines = LineIndex::new(input);
    let bom = if input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let not_shaarli = |why: &str| {
        Error::new(
            ErrorKind::WrongFormat,
            format!("not a Shaarli datastore: {why}"),
            Some(lines.locate(bom)),
        )
    };
    let Some(body) = input[bom..].strip_prefix(PREFIX) else {
        return Err(not_shaarli("it does not start with `<?php /* `"));
    };
    let start = bom + PREFIX.len();
    let trimmed = body.trim_ascii_end();
    let Some(payload) = trimmed
        .strip_suffix(SUFFIX)
        .or_else(|| trimmed.strip_suffix(b"*/ ?>"))
    else {
        return Err(not_shaarli("it does not end with ` */ ?>`"));
    };
    let compressed = base64(payload)
        .map_err(|(at, what)| Error::syntax(format!("base64: {what}"), lines.locate(start + at)))?;
    let mut budget = Budget::new(opts, input.len());
    let here = Some(lines.locate(start));
    let data = inflate(&compressed).map_err(|m| Error::new(ErrorKind::Syntax, m, here))?;
    budget.read_more(data.len());
    serialized(&data, budget, here, opts)
}

/// Read what a datastore holds once inflated: the `serialize()` text of
/// either layout (what `php -r 'echo gzinflate(base64_decode(...));'`
/// prints). Positions are bytes of that text.
pub fn read_serialized(data: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    serialized(data, Budget::new(opts, data.len()), None, opts)
}

/// The serialized text as bookmarks; `here` is where messages point (the
/// payload's start in the file).
fn serialized(
    data: &[u8],
    mut budget: Budget,
    here: Option<Location>,
    opts: &ReadOptions,
) -> Result<Parsed, Error> {
    let mut reading = Reading {
        doc: Document::new(),
        diags: Vec::new(),
        note_count: 0,
        notes: Vec::new(),
        unreadable: 0,
        local_dates: 0,
        items: 0,
        not_items: 0,
        here,
        zone: None,
    };
    // The bookmarks are the entries of the BookmarkArray's `bookmarks`, or
    // of the old layout's top array: each is read as soon as it is whole,
    // so the tree never holds more than one.
    // The BookmarkArray's indexes (`ids`, `keys`, `urls`: an entry per
    // bookmark each) are dropped as they are read.
    let is_record = |tree: &Tree<'_>, path: &[(u32, u32)]| match path {
        [(top, _)] if matches!(tree.get(*top).1, Val::Array(_)) => Record::Hand,
        [(top, key), (list, _)]
            if matches!(tree.get(*top).1, Val::Object(class, _) if class.ends_with(b"BookmarkArray"))
                && matches!(tree.get(*list).1, Val::Array(_)) =>
        {
            match tree.get(*key).1 {
                Val::Str(k) if php::property(k) == b"bookmarks" => Record::Hand,
                _ => Record::Drop,
            }
        }
        _ => Record::Keep,
    };
    let tree = php::parse(data, &mut budget, &is_record, &mut |tree, item, budget| {
        reading.item(tree, item, budget)
    })
    .map_err(|e| match e.budget {
        Some(mut refused) => {
            // The place in the file is the payload's: the byte of the
            // inflated text says which bookmark.
            refused.message = format!(
                "{} (at byte {} of the inflated data)",
                refused.message, e.at
            );
            refused.location = here;
            refused
        }
        None => Error::new(
            ErrorKind::Syntax,
            format!(
                "serialized PHP, at byte {} of the inflated data: {}",
                e.at, e.message
            ),
            here,
        ),
    })?;
    reading.layout(&tree)?;
    let Reading {
        doc,
        mut diags,
        notes,
        note_count,
        local_dates,
        not_items,
        unreadable,
        ..
    } = reading;
    if not_items > 0 {
        diags.push(Diagnostic::warning(
            format!("{not_items} entries of the list are neither objects nor arrays: skipped"),
            here,
        ));
    }
    if unreadable > 0 {
        diags.push(Diagnostic::warning(
            format!("{unreadable} dates not understood: kept as written"),
            here,
        ));
    }
    if note_count > 0 {
        diags.push(Diagnostic::warning(
            format!(
                "{note_count} note{} without a link not read (markport keeps links): {}",
                if note_count == 1 { "" } else { "s" },
                crate::first_names(&notes.iter().map(String::as_str).collect::<Vec<_>>())
            ),
            here,
        ));
    }
    if local_dates > 0 {
        diags.push(Diagnostic::note(
            format!(
                "{local_dates} dates of the old layout (`linkdate`, `updated`: Ymd_His) are in the server's local time with no zone: read as UTC"
            ),
            here,
        ));
    }
    Parsed::new(doc, diags).enforce(opts)
}

/// Standard base64 (PHP's `base64_encode`), line breaks skipped; the
/// offset and what is wrong otherwise.
fn base64(text: &[u8]) -> Result<Vec<u8>, (usize, &'static str)> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0;
    let mut end = None;
    for (i, &b) in text.iter().enumerate() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                end.get_or_insert(i);
                continue;
            }
            b'\r' | b'\n' => continue,
            _ => return Err((i, "a character that is not base64")),
        };
        if let Some(e) = end {
            return Err((e, "`=` before the end"));
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

/// The payload inflated, within the bounds an archive entry has.
fn inflate(compressed: &[u8]) -> Result<Vec<u8>, String> {
    let mut decoder = flate2::read::DeflateDecoder::new(compressed);
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = decoder.read(&mut chunk).map_err(|e| {
            format!(
                "the data does not inflate (at inflated byte {}): {e}",
                out.len()
            )
        })?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&chunk[..n]);
        if out.len() > MAX_INFLATED {
            return Err(format!(
                "the data inflates past {} MiB: refused",
                MAX_INFLATED >> 20
            ));
        }
        if out.len() > RATIO_FLOOR && out.len() / compressed.len().max(1) > MAX_RATIO {
            return Err(format!(
                "the data inflates more than {MAX_RATIO} times its size, as a bomb does: refused"
            ));
        }
    }
}

/// One read under way.
struct Reading {
    doc: Document,
    diags: Vec<Diagnostic>,
    /// The notes skipped, and the first five by title or short url.
    note_count: usize,
    notes: Vec<String>,
    unreadable: usize,
    local_dates: usize,
    /// Entries of the list seen, and those that were not bookmarks.
    items: usize,
    not_items: usize,
    /// Where the payload starts: every message points there.
    here: Option<Location>,
    /// The zone the last date named, looked up.
    zone: Option<(String, jiff::tz::TimeZone)>,
}

/// One bookmark's fields, in the tree that holds them.
struct Fields<'t, 'a> {
    tree: &'t Tree<'a>,
    e: Entries,
}

/// Bytes as text, invalid UTF-8 replaced.
fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Reading {
    /// The top value, once read: a `BookmarkArray` (whose `bookmarks` were
    /// read as records), or the old layout's array; anything else is not
    /// a datastore.
    fn layout(&mut self, tree: &Tree<'_>) -> Result<(), Error> {
        match tree.get(tree.root).1 {
            Val::Object(class, e) if class.ends_with(b"BookmarkArray") => {
                match tree.member(e, "bookmarks") {
                    Some((_, Val::Array(_) | Val::Null)) | None => Ok(()),
                    _ => Err(self.wrong("its BookmarkArray's bookmarks are not an array")),
                }
            }
            Val::Array(_) => Ok(()),
            _ => Err(self.wrong("it holds neither a BookmarkArray nor an array of links")),
        }
    }

    /// One entry of the list, as a bookmark charged to `budget`.
    fn item(&mut self, tree: &Tree<'_>, item: u32, budget: &mut Budget) -> Result<(), Error> {
        self.items += 1;
        let e = match tree.resolve(item).1 {
            Val::Object(_, e) | Val::Array(e) => e,
            _ => {
                self.not_items += 1;
                return Ok(());
            }
        };
        if let Some(b) = self.bookmark(&Fields { tree, e }) {
            budget.bookmark(&b)?;
            self.doc.push(None, b);
        }
        Ok(())
    }

    fn wrong(&self, why: &str) -> Error {
        Error::new(
            ErrorKind::WrongFormat,
            format!("not a Shaarli datastore: {why}"),
            self.here,
        )
    }

    /// A string member, however PHP typed it (Shaarli's ids and flags
    /// have been integers, booleans and strings across versions).
    fn string(tree: &Tree<'_>, e: Entries, name: &str) -> Option<String> {
        match tree.member(e, name)?.1 {
            Val::Str(s) => Some(text(s)),
            Val::Int(n) => Some(n.to_string()),
            Val::Float(f) => Some(f.to_string()),
            _ => None,
        }
    }

    fn flag(tree: &Tree<'_>, e: Entries, name: &str) -> bool {
        match tree.member(e, name).map(|m| m.1) {
            Some(Val::Bool(b)) => b,
            Some(Val::Int(n)) => n != 0,
            Some(Val::Str(s)) => !(s.is_empty() || s == b"0"),
            _ => false,
        }
    }

    fn bookmark(&mut self, f: &Fields<'_, '_>) -> Option<Bookmark> {
        let (tree, e, n) = (f.tree, f.e, self.items);
        let url = Self::string(tree, e, "url").unwrap_or_default();
        let title = Self::string(tree, e, "title").filter(|t| !t.is_empty());
        let short = Self::string(tree, e, "shortUrl").or_else(|| Self::string(tree, e, "shorturl"));
        let is_note = url.is_empty() || url.starts_with('?') || url.starts_with("/shaare/");
        if is_note {
            self.note_count += 1;
            if self.notes.len() < 5 {
                let name = title.clone().or(short).unwrap_or_else(|| format!("#{n}"));
                self.notes.push(name);
            }
            return None;
        }
        let mut b = Bookmark::new(url);
        b.title = title;
        b.desc = Self::string(tree, e, "description").filter(|d| !d.is_empty());
        b.tags = match tree.member(e, "tags").map(|m| m.1) {
            Some(Val::Array(tags)) => tree
                .entries(tags)
                .iter()
                .filter_map(|&(_, t)| match tree.resolve(t).1 {
                    Val::Str(s) if !s.is_empty() => Some(text(s)),
                    _ => None,
                })
                .collect(),
            Some(Val::Str(s)) => text(s).split_whitespace().map(String::from).collect(),
            _ => Vec::new(),
        };
        b.private = Some(Self::flag(tree, e, "private"));
        b.added = self
            .date(tree, e, "created")
            .or_else(|| self.linkdate(tree, e, "linkdate"));
        b.modified = self
            .date(tree, e, "updated")
            .or_else(|| self.linkdate(tree, e, "updated"));
        let mut extra = Vec::new();
        if Self::flag(tree, e, "sticky") {
            extra.push(Attribute::new("pinned", "true"));
        }
        if let Some(s) = short {
            extra.push(Attribute::new("shorturl", s));
        }
        if let Some(t) = Self::string(tree, e, "thumbnail").filter(|t| !t.is_empty()) {
            extra.push(Attribute::new("thumbnail", t));
        }
        let id = Self::string(tree, e, "id");
        if id.is_some() || !extra.is_empty() {
            let d = b.details_mut();
            d.id = id;
            d.extra = extra;
        }
        Some(b)
    }

    /// A `DateTime` member as an instant in UTC.
    fn date(&mut self, tree: &Tree<'_>, e: Entries, name: &str) -> Option<DateValue> {
        let Val::Object(_, fields) = tree.member(e, name)?.1 else {
            return None;
        };
        let date = Self::string(tree, fields, "date")?;
        let kind = tree.member(fields, "timezone_type").map(|m| m.1);
        let zone = Self::string(tree, fields, "timezone").unwrap_or_default();
        match php_date(&date, kind, &zone, &mut self.zone) {
            Some(t) => Some(DateValue::Instant(t)),
            None => {
                self.unreadable += 1;
                Some(DateValue::Raw(format!("{date} {zone}").trim().into()))
            }
        }
    }

    /// A date of the old layout (`20110823_124546`), in no zone.
    fn linkdate(&mut self, tree: &Tree<'_>, e: Entries, name: &str) -> Option<DateValue> {
        let raw = Self::string(tree, e, name).filter(|s| !s.is_empty())?;
        let parsed = (|| {
            let b = raw.as_bytes();
            if b.len() != 15 || b[8] != b'_' {
                return None;
            }
            let num = |r: std::ops::Range<usize>| raw.get(r)?.parse::<i32>().ok();
            let dt = jiff::civil::DateTime::new(
                num(0..4)? as i16,
                num(4..6)? as i8,
                num(6..8)? as i8,
                num(9..11)? as i8,
                num(11..13)? as i8,
                num(13..15)? as i8,
                0,
            )
            .ok()?;
            let ts = dt.to_zoned(jiff::tz::TimeZone::UTC).ok()?.timestamp();
            Timestamp::from_unix(ts.as_second(), 0)?.with_offset(None)
        })();
        Some(match parsed {
            Some(t) => {
                self.local_dates += 1;
                DateValue::Instant(t)
            }
            None => {
                self.unreadable += 1;
                DateValue::Raw(raw.into())
            }
        })
    }
}

/// PHP's `DateTime` (`date` as `Y-m-d H:i:s.u`, and its zone by offset,
/// abbreviation or name) as an instant in UTC.
///
/// `last` keeps the last zone looked up by name: a datastore's dates are
/// nearly all in the server's one zone, and a lookup costs more than the
/// rest of the date.
fn php_date(
    date: &str,
    kind: Option<Val<'_>>,
    zone: &str,
    last: &mut Option<(String, jiff::tz::TimeZone)>,
) -> Option<Timestamp> {
    let (whole, fraction) = date.split_once('.').unwrap_or((date, ""));
    let civil: jiff::civil::DateTime = whole.replacen(' ', "T", 1).parse().ok()?;
    let digits = fraction.len();
    if digits > 9 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let nanos: i32 = if digits == 0 {
        0
    } else {
        fraction.parse::<i32>().ok()? * 10i32.pow(9 - digits as u32)
    };
    let civil = civil.with().subsec_nanosecond(nanos).build().ok()?;
    let tz = match kind {
        // An offset (`+02:00`).
        Some(Val::Int(1)) => jiff::tz::TimeZone::fixed(offset(zone)?),
        // An abbreviation (`CEST`): its offset, for the few PHP knows well.
        Some(Val::Int(2)) => jiff::tz::TimeZone::fixed(abbreviation(zone)?),
        // A name (`Europe/Paris`).
        _ => match last {
            Some((name, tz)) if name == zone => tz.clone(),
            _ => {
                let tz = jiff::tz::TimeZone::get(zone).ok()?;
                *last = Some((zone.to_string(), tz.clone()));
                tz
            }
        },
    };
    let ts = tz.to_ambiguous_timestamp(civil).compatible().ok()?;
    let t = Timestamp::from_unix(ts.as_second(), ts.subsec_nanosecond() as u32)?;
    // A date PHP made has microseconds: an instant all zeros after the
    // second was very likely written so by a person or an import.
    Some(if nanos == 0 {
        t.with_precision(Precision::Second)
    } else {
        t.with_precision(Precision::Fraction(6))
    })
}

fn offset(text: &str) -> Option<jiff::tz::Offset> {
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let rest = text[1..].replace(':', "");
    if rest.len() != 4 || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: i32 = rest[..2].parse().ok()?;
    let m: i32 = rest[2..].parse().ok()?;
    jiff::tz::Offset::from_seconds(sign * (h * 3600 + m * 60)).ok()
}

/// The offset of the zone abbreviations a PHP server commonly has.
fn abbreviation(text: &str) -> Option<jiff::tz::Offset> {
    let hours = match text.to_ascii_uppercase().as_str() {
        "UTC" | "GMT" | "Z" | "UT" | "WET" => 0,
        "BST" | "WEST" | "CET" | "MET" => 1,
        "CEST" | "MEST" | "EET" => 2,
        "EEST" | "MSK" => 3,
        "EST" => -5,
        "EDT" | "AST" => -4,
        "CST" => -6,
        "CDT" => -5,
        "MST" => -7,
        "MDT" => -6,
        "PST" => -8,
        "PDT" => -7,
        "JST" | "KST" => 9,
        "AEST" => 10,
        "AEDT" => 11,
        _ => return None,
    };
    jiff::tz::Offset::from_hours(hours).ok()
}

/// This format as the registry lists it (`markport::format("shaarli")`).
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "shaarli",
    "Shaarli's datastore.php (both layouts)",
    &[],
    detect,
    read,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_every_kind_of_zone_become_utc() {
        let utc = |date, kind, zone| {
            php_date(date, Some(Val::Int(kind)), zone, &mut None)
                .map(|t| (t.unix_seconds(), t.subsec_nanos()))
        };
        // 2020-07-01 12:00 in Paris (summer: +02:00) is 10:00 UTC.
        assert_eq!(
            utc("2020-07-01 12:00:00.000000", 3, "Europe/Paris"),
            Some((1593597600, 0))
        );
        assert_eq!(
            utc("2020-01-01 12:00:00.250000", 3, "Europe/Paris"),
            Some((1577876400, 250_000_000))
        );
        assert_eq!(
            utc("2020-07-01 12:00:00.000000", 1, "+02:00"),
            Some((1593597600, 0))
        );
        assert_eq!(
            utc("2020-07-01 12:00:00.000000", 2, "CEST"),
            Some((1593597600, 0))
        );
        assert_eq!(
            utc("2020-07-01 12:00:00.000000", 3, "UTC"),
            Some((1593604800, 0))
        );
        assert_eq!(utc("2020-07-01 12:00:00", 3, "Mars/Olympus"), None);
        assert_eq!(utc("yesterday", 3, "UTC"), None);
    }

    #[test]
    fn base64_is_strict_but_for_line_breaks() {
        assert_eq!(base64(b"aGVs\nbG8=").unwrap(), b"hello");
        assert_eq!(base64(b"aGV!bG8=").unwrap_err().0, 3);
        assert_eq!(base64(b"aG=Vs").unwrap_err().0, 2);
    }
}
