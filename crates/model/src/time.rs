//! Timestamps: instants with their sub-second part, plus how they were written.
//!
//! Formats disagree on time: XBEL uses W3C date/time strings of any precision,
//! Netscape HTML uses Unix seconds (sometimes milliseconds or microseconds),
//! desktop-bookmarks uses ISO 8601 with microseconds. The model keeps the
//! instant exactly (nanoseconds) and remembers the precision and offset it was
//! written with, so a writer of the same format can reproduce the text, while
//! comparisons ([`Timestamp::same_instant`]) look at the instant only.

use std::fmt;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Timelike};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How finely a timestamp was written in its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    /// `1997`
    Year,
    /// `1997-07`
    Month,
    /// `1997-07-16`
    Day,
    /// `1997-07-16T19:20+01:00`
    Minute,
    /// `1997-07-16T19:20:30+01:00`, or Unix seconds.
    Second,
    /// A fraction of a second with this many digits (1 to 9).
    Fraction(u8),
}

/// An instant in time, kept to the nanosecond, with the offset and precision
/// its source wrote it with.
///
/// Two timestamps are the same *instant* when [`Timestamp::same_instant`] says
/// so; `PartialEq` also compares offset and precision (presentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timestamp {
    secs: i64,
    nanos: u32,
    /// Seconds east of UTC; `None` when the source gave no zone (read as UTC).
    offset: Option<i32>,
    precision: Precision,
}

impl Timestamp {
    /// An instant from Unix seconds and nanoseconds, in UTC, with the
    /// precision the nanoseconds need.
    pub fn from_unix(secs: i64, nanos: u32) -> Option<Timestamp> {
        if nanos >= 1_000_000_000 {
            return None;
        }
        DateTime::from_timestamp(secs, nanos)?;
        Some(Timestamp {
            secs,
            nanos,
            offset: Some(0),
            precision: precision_for_nanos(nanos),
        })
    }

    /// An instant from whole Unix seconds, in UTC.
    pub fn from_unix_seconds(secs: i64) -> Option<Timestamp> {
        Timestamp::from_unix(secs, 0)
    }

    /// The current time, to the microsecond, remembered as written with six
    /// fractional digits (as GLib writes it), so a store that records it
    /// writes back the same form.
    pub fn now() -> Timestamp {
        let now = chrono::Utc::now();
        let nanos = now.timestamp_subsec_micros() * 1000;
        let t = Timestamp::from_unix(now.timestamp(), nanos).expect("the clock is in range");
        if nanos == 0 {
            t
        } else {
            t.with_precision(Precision::Fraction(6))
        }
    }

    /// Seconds since 1970-01-01T00:00:00Z (floor).
    pub fn unix_seconds(&self) -> i64 {
        self.secs
    }

    /// The sub-second part in nanoseconds.
    pub fn subsec_nanos(&self) -> u32 {
        self.nanos
    }

    /// The offset from UTC in seconds the source gave, if any.
    pub fn offset_seconds(&self) -> Option<i32> {
        self.offset
    }

    /// How finely the source wrote it.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// Whether two timestamps name the same instant (offset and precision aside).
    pub fn same_instant(&self, other: &Timestamp) -> bool {
        self.secs == other.secs && self.nanos == other.nanos
    }

    /// The same instant with another offset (seconds east of UTC); `None` if
    /// the offset is not within ±24 hours.
    pub fn with_offset(mut self, offset: Option<i32>) -> Option<Timestamp> {
        if let Some(o) = offset {
            FixedOffset::east_opt(o)?;
        }
        self.offset = offset;
        Some(self)
    }

    /// The same instant remembered with another precision (presentation only).
    pub fn with_precision(mut self, precision: Precision) -> Timestamp {
        self.precision = precision;
        self
    }

    /// The instant as a chrono date-time in its own offset (UTC when none).
    pub fn to_datetime(&self) -> DateTime<FixedOffset> {
        let offset = FixedOffset::east_opt(self.offset.unwrap_or(0)).expect("offset validated");
        DateTime::from_timestamp(self.secs, self.nanos)
            .expect("range validated")
            .with_timezone(&offset)
    }

    /// Parse any W3C date/time profile (W3C NOTE-datetime, the XBEL date
    /// format): `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mmTZD`,
    /// `YYYY-MM-DDThh:mm:ssTZD`, `YYYY-MM-DDThh:mm:ss.sTZD`. `TZD` is `Z` or
    /// `±hh:mm`; for leniency it may be missing (read as UTC), `z`, or `±hhmm`,
    /// a space may stand for `T`, a comma for the fraction's point, and a
    /// leap second `60` is read as `59`. [`Timestamp::parse_w3c_strict`]
    /// takes the profiles exactly.
    pub fn parse_w3c(text: &str) -> Option<Timestamp> {
        parse_w3c(text, false)
    }

    /// Parse exactly the W3C profiles (W3C NOTE-datetime), as a validator
    /// holds a file to them: `T` between date and time, a time always with
    /// its zone (`Z` or `±hh:mm`), seconds 00 to 59, every field in range.
    ///
    /// ```
    /// use markport_model::Timestamp;
    ///
    /// assert!(Timestamp::parse_w3c_strict("1997-07-16T19:20:30.45+01:00").is_some());
    /// assert!(Timestamp::parse_w3c("1997-07-16 19:20").is_some());
    /// assert!(Timestamp::parse_w3c_strict("1997-07-16 19:20").is_none());
    /// ```
    pub fn parse_w3c_strict(text: &str) -> Option<Timestamp> {
        parse_w3c(text, true)
    }

    /// Parse an ISO 8601 date/time exactly as GLib's
    /// `g_date_time_new_from_iso8601` reads one in a desktop-bookmark file:
    /// `<date><sep><time><zone>`, date `YYYY-MM-DD`, `YYYYMMDD`, `YYYY-DDD`,
    /// `YYYYDDD`, `YYYY-Www-D` or `YYYYWwwD` (years 1 to 9999); sep `T`,
    /// `t` or a space; time `hh:mm:ss` or `hhmmss` with an optional fraction
    /// after `.` or `,` (kept to the microsecond, as GLib keeps it); zone
    /// `Z`, `±hh:mm`, `±hhmm` or `±hh`. `None` where GLib fails too.
    ///
    /// ```
    /// use markport_model::Timestamp;
    ///
    /// let want = Some(1128121528);
    /// let secs = |t: &str| Timestamp::parse_glib(t).map(|t| t.unix_seconds());
    /// assert_eq!(secs("2005-09-30T23:05:28Z"), want);
    /// assert_eq!(secs("2005-W39-5 23:05:28Z"), want);
    /// assert_eq!(secs("2005-274T01:05:28+0200"), want);
    /// assert_eq!(secs("2005-09-30T23:05:28"), None);
    /// ```
    pub fn parse_glib(text: &str) -> Option<Timestamp> {
        let b = text.as_bytes();
        let sep = b.iter().position(|&c| matches!(c, b'T' | b't' | b' '))?;
        let date = glib_date(&b[..sep])?;
        let rest = &b[sep + 1..];
        let zone_at = rest
            .iter()
            .position(|&c| matches!(c, b'Z' | b'+' | b'-'))
            .unwrap_or(rest.len());
        let (time, zone) = rest.split_at(zone_at);
        let (hour, minute, second, nanos, digits) = glib_time(time)?;
        let offset = glib_zone(zone)?;
        let local = date.and_time(NaiveTime::from_hms_nano_opt(
            hour,
            minute,
            second.min(59),
            nanos,
        )?);
        let secs = local.and_utc().timestamp() - i64::from(offset);
        let precision = match digits {
            0 => Precision::Second,
            d => Precision::Fraction(d),
        };
        let t = Timestamp::from_unix(secs, nanos)?.with_precision(precision);
        // GLib takes a zone of ±24 hours, which a fixed offset cannot hold:
        // the instant is kept, written in UTC.
        Some(t.with_offset(Some(offset)).unwrap_or(t))
    }

    #[allow(clippy::too_many_arguments)]
    fn from_parts(
        year: i32,
        month: u32,
        day: u32,
        hour: u32,
        minute: u32,
        second: u32,
        nanos: u32,
        offset: Option<i32>,
        precision: Precision,
    ) -> Option<Timestamp> {
        let date = NaiveDate::from_ymd_opt(year, month, day)?;
        // A leap second (`60`) is read as the last second of the minute.
        let time = NaiveTime::from_hms_nano_opt(hour, minute, second.min(59), nanos)?;
        let local = NaiveDateTime::new(date, time);
        let off = FixedOffset::east_opt(offset.unwrap_or(0))?;
        let utc = local.and_local_timezone(off).single()?.naive_utc();
        Some(Timestamp {
            secs: utc.and_utc().timestamp(),
            nanos,
            offset,
            precision,
        })
    }

    /// Format as W3C date/time, at the precision and offset it was read with.
    /// A date-only value is written as a date; a time without a source zone
    /// is written in UTC with `Z`.
    pub fn to_w3c(&self) -> String {
        self.to_string()
    }

    /// Format at full precision in UTC, with the sub-second digits needed:
    /// `2024-01-02T03:04:05Z`, `2024-01-02T03:04:05.25Z`.
    pub fn to_w3c_utc(&self) -> String {
        Timestamp {
            offset: Some(0),
            precision: precision_for_nanos(self.nanos).max_with(self.precision),
            ..*self
        }
        .to_string()
    }
}

/// The W3C profiles; `strict` takes them exactly, else the lenient forms
/// [`Timestamp::parse_w3c`] lists are taken too.
fn parse_w3c(text: &str, strict: bool) -> Option<Timestamp> {
    let b = text.as_bytes();
    let mut p = Cursor { b, i: 0 };
    let year = p.digits(4)? as i32;
    if p.done() {
        return Timestamp::from_parts(year, 1, 1, 0, 0, 0, 0, None, Precision::Year);
    }
    p.expect(b'-')?;
    let month = p.digits(2)?;
    if p.done() {
        return Timestamp::from_parts(year, month, 1, 0, 0, 0, 0, None, Precision::Month);
    }
    p.expect(b'-')?;
    let day = p.digits(2)?;
    if p.done() {
        return Timestamp::from_parts(year, month, day, 0, 0, 0, 0, None, Precision::Day);
    }
    if !(p.eat(b'T') || (!strict && (p.eat(b't') || p.eat(b' ')))) {
        return None;
    }
    let hour = p.digits(2)?;
    p.expect(b':')?;
    let minute = p.digits(2)?;
    let mut second = 0;
    let mut nanos = 0;
    let mut precision = Precision::Minute;
    if p.eat(b':') {
        second = p.digits(2)?;
        if strict && second > 59 {
            return None;
        }
        precision = Precision::Second;
        if p.eat(b'.') || (!strict && p.eat(b',')) {
            let start = p.i;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.i += 1;
            }
            let digits = &text[start..p.i];
            if digits.is_empty() {
                return None;
            }
            // Beyond nanoseconds the extra digits carry nothing we can keep.
            let kept = &digits[..digits.len().min(9)];
            nanos = kept.parse::<u32>().ok()? * 10u32.pow(9 - kept.len() as u32);
            precision = Precision::Fraction(kept.len() as u8);
        }
    }
    let offset = if p.done() {
        if strict {
            return None;
        }
        None
    } else if p.eat(b'Z') || (!strict && p.eat(b'z')) {
        Some(0)
    } else {
        let sign = if p.eat(b'+') {
            1
        } else if p.eat(b'-') {
            -1
        } else {
            return None;
        };
        let oh = p.digits(2)? as i32;
        let colon = p.eat(b':');
        if strict && !colon {
            return None;
        }
        let om = if p.done() && !strict {
            0
        } else {
            p.digits(2)? as i32
        };
        if oh > 23 || om > 59 {
            return None;
        }
        Some(sign * (oh * 3600 + om * 60))
    };
    if !p.done() {
        return None;
    }
    Timestamp::from_parts(
        year, month, day, hour, minute, second, nanos, offset, precision,
    )
}

/// GLib's date forms: calendar, ordinal or week date, extended or basic.
fn glib_date(b: &[u8]) -> Option<NaiveDate> {
    let mut c = Cursor { b, i: 0 };
    let year = c.digits(4)?;
    if year == 0 {
        return None;
    }
    let dashed = c.eat(b'-');
    if c.eat(b'W') {
        let week = c.digits(2)?;
        if dashed {
            c.expect(b'-')?;
        }
        let day = c.digits(1)?;
        if !c.done() || !(1..=53).contains(&week) || !(1..=7).contains(&day) {
            return None;
        }
        // Counted from the Monday of week 1, so week 53 of a year that
        // has 52 is the next year's first week, as GLib counts it.
        let monday = NaiveDate::from_isoywd_opt(year as i32, 1, chrono::Weekday::Mon)?;
        return monday.checked_add_days(chrono::Days::new(u64::from((week - 1) * 7 + day - 1)));
    }
    match (dashed, b.len() - c.i) {
        (_, 3) => NaiveDate::from_yo_opt(year as i32, c.digits(3)?),
        (true, 5) | (false, 4) => {
            let month = c.digits(2)?;
            if dashed {
                c.expect(b'-')?;
            }
            NaiveDate::from_ymd_opt(year as i32, month, c.digits(2)?)
        }
        _ => None,
    }
}

/// GLib's time: `hh:mm:ss` or `hhmmss`, a fraction after `.` or `,` kept
/// to the microsecond. Hour, minute, second (60 allowed), nanoseconds and
/// the fraction's digits kept (0 to 6).
fn glib_time(b: &[u8]) -> Option<(u32, u32, u32, u32, u8)> {
    let mut c = Cursor { b, i: 0 };
    let hour = c.digits(2)?;
    let colon = c.eat(b':');
    let minute = c.digits(2)?;
    if colon {
        c.expect(b':')?;
    }
    let second = c.digits(2)?;
    let (mut nanos, mut kept) = (0, 0u8);
    if c.eat(b'.') || c.eat(b',') {
        let start = c.i;
        while c.peek().is_some_and(|d| d.is_ascii_digit()) {
            if c.i - start < 6 {
                nanos = nanos * 10 + u32::from(b[c.i] - b'0');
                kept += 1;
            }
            c.i += 1;
        }
        if kept == 0 {
            return None;
        }
        nanos *= 10u32.pow(9 - u32::from(kept));
    }
    (c.done() && hour <= 23 && minute <= 59 && second <= 60)
        .then_some((hour, minute, second, nanos, kept))
}

/// GLib's zone: `Z`, `±hh`, `±hh:mm` or `±hhmm`, hours to 24; seconds
/// east of UTC.
fn glib_zone(b: &[u8]) -> Option<i32> {
    let (sign, rest) = match b {
        [b'Z'] => return Some(0),
        [b'+', rest @ ..] => (1, rest),
        [b'-', rest @ ..] => (-1, rest),
        _ => return None,
    };
    let mut c = Cursor { b: rest, i: 0 };
    let h = c.digits(2)?;
    let m = if c.done() {
        0
    } else {
        c.eat(b':');
        c.digits(2)?
    };
    (c.done() && h <= 24 && m <= 59).then(|| sign * (h as i32 * 3600 + m as i32 * 60))
}

impl Precision {
    /// At least second precision, keeping the finer of the two.
    fn max_with(self, other: Precision) -> Precision {
        match (self, other) {
            (Precision::Fraction(a), Precision::Fraction(b)) => Precision::Fraction(a.max(b)),
            (Precision::Fraction(a), _) => Precision::Fraction(a),
            (_, Precision::Fraction(b)) => Precision::Fraction(b),
            _ => Precision::Second,
        }
    }
}

fn precision_for_nanos(nanos: u32) -> Precision {
    if nanos == 0 {
        return Precision::Second;
    }
    let mut digits = 9u8;
    let mut n = nanos;
    while n.is_multiple_of(10) {
        n /= 10;
        digits -= 1;
    }
    Precision::Fraction(digits)
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(36);
        self.push_w3c(&mut s);
        f.write_str(&s)
    }
}

impl Timestamp {
    /// Append [`Timestamp::to_w3c`]'s text to `out` without allocating:
    /// writers format one or more dates per bookmark, and `fmt` machinery
    /// was a tenth of a whole conversion.
    pub fn push_w3c(&self, out: &mut String) {
        let dt = self.to_datetime();
        // A date-only value has no zone; writing it shifted would move the day.
        let date_only = matches!(
            self.precision,
            Precision::Year | Precision::Month | Precision::Day
        );
        let exact_date = date_only
            && self.offset.is_none()
            && dt.hour() == 0
            && dt.minute() == 0
            && dt.second() == 0
            && self.nanos == 0;
        push_year(out, dt.year());
        if exact_date {
            match self.precision {
                Precision::Year if dt.month() == 1 && dt.day() == 1 => {}
                Precision::Year | Precision::Month if dt.day() == 1 => {
                    push_two(out, '-', dt.month());
                }
                _ => {
                    push_two(out, '-', dt.month());
                    push_two(out, '-', dt.day());
                }
            }
            return;
        }
        push_two(out, '-', dt.month());
        push_two(out, '-', dt.day());
        push_two(out, 'T', dt.hour());
        push_two(out, ':', dt.minute());
        let precision = if self.nanos != 0 {
            precision_for_nanos(self.nanos).max_with(self.precision)
        } else if dt.second() != 0 {
            Precision::Second.max_with(self.precision)
        } else {
            self.precision
        };
        match precision {
            Precision::Year | Precision::Month | Precision::Day | Precision::Minute => {}
            Precision::Second => push_two(out, ':', dt.second()),
            Precision::Fraction(d) => {
                push_two(out, ':', dt.second());
                out.push('.');
                let mut digits = [b'0'; 9];
                let mut n = self.nanos;
                for slot in digits.iter_mut().rev() {
                    *slot = b'0' + (n % 10) as u8;
                    n /= 10;
                }
                for &b in &digits[..d.clamp(1, 9) as usize] {
                    out.push(char::from(b));
                }
            }
        }
        match self.offset {
            None | Some(0) => out.push('Z'),
            Some(o) => {
                let sign = if o < 0 { '-' } else { '+' };
                let o = o.unsigned_abs();
                push_two(out, sign, o / 3600);
                push_two(out, ':', (o % 3600) / 60);
            }
        }
    }
}

/// A year in at least four digits, as `{:04}` writes it.
fn push_year(out: &mut String, year: i32) {
    match u32::try_from(year) {
        Ok(y) if y <= 9999 => {
            for d in [y / 1000, y / 100 % 10, y / 10 % 10, y % 10] {
                out.push(char::from(b'0' + d as u8));
            }
        }
        _ => {
            use fmt::Write;
            let _ = write!(out, "{year:04}");
        }
    }
}

/// `sep` then `n` (below 100) in two digits.
fn push_two(out: &mut String, sep: char, n: u32) {
    out.push(sep);
    out.push(char::from(b'0' + (n / 10 % 10) as u8));
    out.push(char::from(b'0' + (n % 10) as u8));
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn done(&self) -> bool {
        self.i == self.b.len()
    }
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }
    fn digits(&mut self, n: usize) -> Option<u32> {
        let s = self.b.get(self.i..self.i + n)?;
        if !s.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i += n;
        Some(s.iter().fold(0, |acc, d| acc * 10 + u32::from(d - b'0')))
    }
}

/// A date field as read: an instant, or the source text when it could not be
/// understood (kept so that nothing is dropped, with a diagnostic from the reader).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DateValue {
    /// A date that was understood.
    Instant(Timestamp),
    /// A value that was not a date this format knows, kept verbatim.
    /// (Boxed: raw dates are rare, and this keeps every date field of the
    /// model 24 bytes.)
    Raw(Box<str>),
}

impl DateValue {
    /// The instant, if the value was understood.
    pub fn instant(&self) -> Option<&Timestamp> {
        match self {
            DateValue::Instant(t) => Some(t),
            DateValue::Raw(_) => None,
        }
    }

    /// Whether two values mean the same: the same instant, or the same raw text.
    pub fn same(&self, other: &DateValue) -> bool {
        match (self, other) {
            (DateValue::Instant(a), DateValue::Instant(b)) => a.same_instant(b),
            (DateValue::Raw(a), DateValue::Raw(b)) => a == b,
            _ => false,
        }
    }

    /// Whether two values are written alike: for two instants, the same
    /// precision and offset as W3C text (`1997` and `1997-01-01T00:00:00Z`
    /// are the same instant written differently); anything else counts as
    /// alike, its difference being the value's own.
    pub fn same_form(&self, other: &DateValue) -> bool {
        match (self, other) {
            (DateValue::Instant(a), DateValue::Instant(b)) => {
                (a.offset == b.offset && a.precision == b.precision) || a.to_w3c() == b.to_w3c()
            }
            _ => true,
        }
    }

    /// A W3C string, parsed if possible, else kept raw.
    pub fn from_w3c(text: &str) -> DateValue {
        match Timestamp::parse_w3c(text) {
            Some(t) => DateValue::Instant(t),
            None => DateValue::Raw(text.into()),
        }
    }
}

impl From<Timestamp> for DateValue {
    fn from(t: Timestamp) -> Self {
        DateValue::Instant(t)
    }
}

/// Instants are W3C strings (`"2024-01-02T03:04:05.5Z"`); raw values are
/// `{"raw": "yesterday"}`.
impl Serialize for DateValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            DateValue::Instant(t) => s.collect_str(t),
            DateValue::Raw(r) => {
                use serde::ser::SerializeMap;
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("raw", r)?;
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for DateValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Text(String),
            Raw { raw: String },
        }
        match Repr::deserialize(d)? {
            Repr::Text(t) => Timestamp::parse_w3c(&t)
                .map(DateValue::Instant)
                .ok_or_else(|| serde::de::Error::custom(format!("not a W3C date/time: {t:?}"))),
            Repr::Raw { raw } => Ok(DateValue::Raw(raw.into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_w3c_profile_parses_and_formats_back() {
        for text in [
            "1997",
            "1997-07",
            "1997-07-16",
            "1997-07-16T19:20+01:00",
            "1997-07-16T19:20:30+01:00",
            "1997-07-16T19:20:30.45+01:00",
            "1997-07-16T19:20:30.123456789Z",
            "2004-03-01T00:00:00-05:30",
        ] {
            let t = Timestamp::parse_w3c(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(t.to_w3c(), text);
        }
    }

    #[test]
    fn offsets_give_the_same_instant() {
        let a = Timestamp::parse_w3c("1997-07-16T19:20:30.45+01:00").unwrap();
        let b = Timestamp::parse_w3c("1997-07-16T18:20:30.45Z").unwrap();
        assert!(a.same_instant(&b));
        assert_ne!(a, b);
        assert_eq!(a.subsec_nanos(), 450_000_000);
    }

    #[test]
    fn rejects_what_is_not_a_date() {
        for text in [
            "yesterday",
            "",
            "1997-13",
            "1997-02-30",
            "1997-07-16T25:00Z",
            "1997-07-16T19:20:30+25:00",
            "97-07-16",
        ] {
            assert!(Timestamp::parse_w3c(text).is_none(), "{text}");
        }
        assert_eq!(
            DateValue::from_w3c("yesterday"),
            DateValue::Raw("yesterday".into())
        );
    }

    #[test]
    fn formatting_agrees_with_chrono_across_years_offsets_and_fractions() {
        use chrono::SecondsFormat;
        let mut secs = -61_000_000_000i64; // year 37
        while secs < 253_000_000_000 {
            for offset in [0, 3600, -19_800, 50_400, -43_200] {
                for (nanos, digits, form) in [
                    (0, None, SecondsFormat::Secs),
                    (250_000_000, Some(3), SecondsFormat::Millis),
                    (123_456_789, Some(9), SecondsFormat::Nanos),
                ] {
                    let mut t = Timestamp::from_unix(secs, nanos)
                        .unwrap()
                        .with_offset(Some(offset))
                        .unwrap();
                    if let Some(d) = digits {
                        t = t.with_precision(Precision::Fraction(d));
                    }
                    let want = t.to_datetime().to_rfc3339_opts(form, true);
                    assert_eq!(t.to_w3c(), want, "{secs} {offset} {nanos}");
                }
            }
            secs += 997_331_777;
        }
    }

    #[test]
    fn unix_seconds_round_trip() {
        let t = Timestamp::from_unix(1_136_214_245, 5_000).unwrap();
        assert_eq!(t.to_w3c(), "2006-01-02T15:04:05.000005Z");
        assert_eq!(t.unix_seconds(), 1_136_214_245);
        let back = Timestamp::parse_w3c(&t.to_w3c()).unwrap();
        assert!(back.same_instant(&t));
    }

    #[test]
    fn the_form_is_precision_and_offset_as_written() {
        let year = DateValue::from_w3c("1997");
        let midnight = DateValue::from_w3c("1997-01-01T00:00:00Z");
        assert!(year.same(&midnight) && !year.same_form(&midnight));
        let paris = DateValue::from_w3c("1997-07-16T19:20+01:00");
        let utc = DateValue::from_w3c("1997-07-16T18:20:00Z");
        assert!(paris.same(&utc) && !paris.same_form(&utc));
        // No zone is written as Z: the same text, so the same form.
        let bare = DateValue::from_w3c("1997-07-16T18:20:00");
        assert!(bare.same_form(&utc));
        assert!(DateValue::from_w3c("2001").same_form(&DateValue::Raw("x".into())));
    }

    #[test]
    fn serde_keeps_raw_values() {
        let v = vec![
            DateValue::Raw("yesterday".into()),
            DateValue::from_w3c("2001-02-03"),
        ];
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, r#"[{"raw":"yesterday"},"2001-02-03"]"#);
        let back: Vec<DateValue> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
    }

    /// The strict profiles and nothing else (what `markport check` holds
    /// an XBEL date to).
    #[test]
    fn strict_w3c_takes_the_profiles_and_nothing_else() {
        for ok in [
            "1997",
            "1997-07",
            "1997-07-16",
            "1997-07-16T19:20+01:00",
            "1997-07-16T19:20:30+01:00",
            "1997-07-16T19:20:30.45Z",
            "2024-02-29",
        ] {
            assert!(Timestamp::parse_w3c_strict(ok).is_some(), "{ok}");
        }
        for bad in [
            "",
            "97",
            "1997-7",
            "1997-13",
            "2023-02-29",
            "1997-07-16T19:20",
            "1997-07-16 19:20Z",
            "1997-07-16T19:20:30+0100",
            "1997-07-16T19:20:30+01",
            "1997-07-16T19:20:30+01:",
            "1997-07-16T19:20:30z",
            "1997-07-16T19:20:30,5Z",
            "1997-07-16T19:20:60Z",
            "1997-07-16T24:00Z",
            "1997-07-16T19:20:30.Z",
            "yesterday",
            "1700000000",
        ] {
            assert!(Timestamp::parse_w3c_strict(bad).is_none(), "{bad}");
        }
        // The lenient reading takes some of them, as readers do.
        for lenient in [
            "1997-07-16T19:20",
            "1997-07-16 19:20Z",
            "1997-07-16T19:20:30+0100",
        ] {
            assert!(Timestamp::parse_w3c(lenient).is_some(), "{lenient}");
        }
    }

    /// GLib's forms, from the GBookmarkFile checklist: every one it reads
    /// gives the instant, every one it refuses gives none.
    #[test]
    fn glib_reads_what_its_checklist_says() {
        let want = Some(1128121528);
        let secs = |t: &str| Timestamp::parse_glib(t).map(|t| t.unix_seconds());
        for same in [
            "2005-09-30T23:05:28Z",
            "20050930T230528Z",
            "20050930T23:05:28Z",
            "2005-273T23:05:28Z",
            "2005273T23:05:28Z",
            "2005-W39-5T23:05:28Z",
            "2005W395T23:05:28Z",
            "2005-09-30 23:05:28Z",
            "2005-09-30t23:05:28Z",
            "2005-10-01T01:05:28+02",
            "2005-10-01T01:05:28+0200",
            "2005-09-30T17:35:28-05:30",
        ] {
            assert_eq!(secs(same), want, "{same}");
        }
        for ok in [
            "2024-03-02T10:00:00+01",
            "2024-03-04T16:30:12.250000Z",
            "2024-03-04 16:30:12+02:00",
            "2024-064T00:00:00-0530",
            "2024-W09-1T00:00:00Z",
            "2024-03-04T16:30:60Z",
            "2024-03-04T16:30:12+24",
            "2026-W53-1T00:00:00Z",
        ] {
            assert!(Timestamp::parse_glib(ok).is_some(), "{ok}");
        }
        for bad in [
            "2024-03-04",
            "2024-03-04T16:30Z",
            "2024-03-04T16:30:12",
            "2024-03-04T16:30:12z",
            "2024-03-04T16:3012Z",
            "202403-04T16:30:12Z",
            "2024-03-04T16:30:12.Z",
            "2024-03-04T16:30:12+25",
            "1709280000",
            "0000-01-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2023-366T00:00:00Z",
            "2024-W54-1T00:00:00Z",
            " 2024-03-04T16:30:12Z",
        ] {
            assert!(Timestamp::parse_glib(bad).is_none(), "{bad}");
        }
        let t = Timestamp::parse_glib("2005-09-30T23:05:28,1234567Z").unwrap();
        assert_eq!(t.subsec_nanos(), 123_456_000);
        assert_eq!(t.precision(), Precision::Fraction(6));
    }
}
