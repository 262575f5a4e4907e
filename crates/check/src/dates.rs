//! The two date grammars the checked formats name: the W3C profile of
//! ISO 8601 that XBEL requires, and the ISO 8601 subset GLib's
//! `g_date_time_new_from_iso8601` accepts for desktop bookmarks.

/// Whether `s` is a W3C date/time (W3C NOTE-datetime), exactly: `YYYY`,
/// `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mmTZD`, `YYYY-MM-DDThh:mm:ssTZD`
/// or `YYYY-MM-DDThh:mm:ss.sTZD`, with `TZD` `Z` or `±hh:mm`, and every
/// field in range (no 30 February).
pub(crate) fn is_w3c(s: &str) -> bool {
    let b = s.as_bytes();
    let mut c = Cursor { b, i: 0 };
    let Some(year) = c.digits(4) else {
        return false;
    };
    if c.done() {
        return true;
    }
    let Some(month) = c.byte(b'-').and_then(|_| c.digits(2)) else {
        return false;
    };
    if !(1..=12).contains(&month) {
        return false;
    }
    if c.done() {
        return true;
    }
    let Some(day) = c.byte(b'-').and_then(|_| c.digits(2)) else {
        return false;
    };
    if day < 1 || day > days_in_month(year, month) {
        return false;
    }
    if c.done() {
        return true;
    }
    if c.byte(b'T').is_none() {
        return false;
    }
    let (Some(hour), Some(_), Some(minute)) = (c.digits(2), c.byte(b':'), c.digits(2)) else {
        return false;
    };
    if hour > 23 || minute > 59 {
        return false;
    }
    if c.byte(b':').is_some() {
        match c.digits(2) {
            Some(sec) if sec <= 59 => {}
            _ => return false,
        }
        if c.byte(b'.').is_some() && c.run_of_digits() == 0 {
            return false;
        }
    }
    if c.byte(b'Z').is_some() {
        return c.done();
    }
    if c.byte(b'+').is_none() && c.byte(b'-').is_none() {
        return false;
    }
    let (Some(h), Some(_), Some(m)) = (c.digits(2), c.byte(b':'), c.digits(2)) else {
        return false;
    };
    h <= 23 && m <= 59 && c.done()
}

/// Whether GLib reads `s` as a date: `<date><sep><time><tz>`, date
/// `YYYY-MM-DD`, `YYYYMMDD`, `YYYY-DDD`, `YYYYDDD`, `YYYY-Www-D` or
/// `YYYYWwwD`; sep `T`, `t` or a space; time `hh:mm:ss` or `hhmmss` with an
/// optional fraction after `.` or `,`; tz `Z`, `±hh:mm`, `±hhmm` or `±hh`.
/// Years 1 to 9999 (the GBookmarkFile checklist in the peer corpus).
pub(crate) fn is_glib_iso8601(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(sep) = b.iter().position(|&c| matches!(c, b'T' | b't' | b' ')) else {
        return false;
    };
    glib_date(&b[..sep]) && glib_time_zone(&b[sep + 1..])
}

fn glib_date(b: &[u8]) -> bool {
    let mut c = Cursor { b, i: 0 };
    let Some(year) = c.digits(4) else {
        return false;
    };
    if year == 0 {
        return false;
    }
    let dashed = c.byte(b'-').is_some();
    if c.byte(b'W').is_some() {
        let Some(week) = c.digits(2) else {
            return false;
        };
        if dashed && c.byte(b'-').is_none() {
            return false;
        }
        return matches!(c.digits(1), Some(1..=7)) && (1..=53).contains(&week) && c.done();
    }
    let rest = b.len() - c.i;
    match (dashed, rest) {
        (_, 3) => matches!(c.digits(3), Some(d) if d >= 1 && d <= 365 + u32::from(leap(year))),
        (true, 5) | (false, 4) => {
            let Some(month) = c.digits(2) else {
                return false;
            };
            if dashed && c.byte(b'-').is_none() {
                return false;
            }
            let Some(day) = c.digits(2) else {
                return false;
            };
            (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
        }
        _ => false,
    }
}

fn glib_time_zone(b: &[u8]) -> bool {
    let tz = b
        .iter()
        .position(|&c| matches!(c, b'Z' | b'+' | b'-'))
        .unwrap_or(b.len());
    let (time, zone) = b.split_at(tz);
    let mut c = Cursor { b: time, i: 0 };
    let Some(hour) = c.digits(2) else {
        return false;
    };
    let colon = c.byte(b':').is_some();
    let Some(minute) = c.digits(2) else {
        return false;
    };
    if colon && c.byte(b':').is_none() {
        return false;
    }
    let Some(second) = c.digits(2) else {
        return false;
    };
    if (c.byte(b'.').is_some() || c.byte(b',').is_some()) && c.run_of_digits() == 0 {
        return false;
    }
    if !c.done() || hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    match zone {
        [b'Z'] => true,
        [b'+' | b'-', rest @ ..] => {
            let mut c = Cursor { b: rest, i: 0 };
            let Some(h) = c.digits(2) else {
                return false;
            };
            if c.done() {
                return h <= 24;
            }
            // GLib takes the colon or not.
            let _ = c.byte(b':');
            matches!(c.digits(2), Some(m) if m <= 59) && c.done() && h <= 24
        }
        _ => false,
    }
}

fn leap(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn done(&self) -> bool {
        self.i == self.b.len()
    }

    fn byte(&mut self, want: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&want)).then(|| self.i += 1)
    }

    /// Exactly `n` ASCII digits as a number.
    fn digits(&mut self, n: usize) -> Option<u32> {
        let d = self.b.get(self.i..self.i + n)?;
        if !d.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i += n;
        Some(d.iter().fold(0, |v, c| v * 10 + u32::from(c - b'0')))
    }

    fn run_of_digits(&mut self) -> usize {
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w3c_profiles_and_nothing_else() {
        for ok in [
            "1997",
            "1997-07",
            "1997-07-16",
            "1997-07-16T19:20+01:00",
            "1997-07-16T19:20:30+01:00",
            "1997-07-16T19:20:30.45Z",
            "2024-02-29",
        ] {
            assert!(is_w3c(ok), "{ok}");
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
            "1997-07-16T19:20:30z",
            "1997-07-16T24:00Z",
            "1997-07-16T19:20:30.Z",
            "yesterday",
            "1700000000",
        ] {
            assert!(!is_w3c(bad), "{bad}");
        }
    }

    #[test]
    fn glib_reads_what_its_checklist_says() {
        for ok in [
            "2024-03-02T10:00:00+01",
            "2024-03-04T16:30:12.250000Z",
            "20240304T163012Z",
            "2024-03-04 16:30:12+02:00",
            "2024-064T00:00:00-0530",
            "2024-W09-1T00:00:00Z",
        ] {
            assert!(is_glib_iso8601(ok), "{ok}");
        }
        for bad in [
            "2024-03-04",
            "2024-03-04T16:30Z",
            "2024-03-04T16:30:12",
            "2024-03-04T16:30:12z",
            "1709280000",
            "0000-01-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            " 2024-03-04T16:30:12Z",
        ] {
            assert!(!is_glib_iso8601(bad), "{bad}");
        }
    }
}
