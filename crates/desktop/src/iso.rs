//! The ISO 8601 forms GLib reads in desktop-bookmark files
//! (`g_date_time_new_from_iso8601`) beyond the W3C profile XBEL uses:
//! basic `20050930T230528Z`, ordinal `2005-273`, week `2005-W39-5`, a space
//! or `t` between date and time, `,` before the fraction, `±hh` and `±hhmm`.

use chrono::{NaiveDate, NaiveTime, Weekday};
use markport_model::{Precision, Timestamp};

/// Parse `text` as GLib does; `None` where GLib fails too.
pub fn parse(text: &str) -> Option<Timestamp> {
    let sep = text.find(['T', 't', ' '])?;
    let (date, rest) = (&text[..sep], &text[sep + 1..]);
    let date = parse_date(date)?;
    let tz_at = rest.find(['Z', '+', '-'])?;
    let (time, tz) = (&rest[..tz_at], &rest[tz_at..]);
    let (time, nanos, digits) = parse_time(time)?;
    let offset = parse_tz(tz)?;
    let local = date.and_time(time);
    let secs = local.and_utc().timestamp() - i64::from(offset);
    let precision = if digits == 0 {
        Precision::Second
    } else {
        Precision::Fraction(digits.min(9))
    };
    Timestamp::from_unix(secs, nanos)?
        .with_offset(Some(offset))
        .map(|t| t.with_precision(precision))
}

fn num(s: &str) -> Option<u32> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

fn parse_date(d: &str) -> Option<NaiveDate> {
    let b = d.as_bytes();
    let year = num(d.get(..4)?)? as i32;
    if year == 0 {
        return None;
    }
    let rest = &d[4..];
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    if let Some(w) = rest.strip_prefix('W') {
        let w = w.replace('-', "");
        if w.len() != 3 {
            return None;
        }
        let week = num(&w[..2])?;
        let day = num(&w[2..])?;
        let weekday = Weekday::try_from(u8::try_from(day.checked_sub(1)?).ok()?).ok()?;
        return NaiveDate::from_isoywd_opt(year, week, weekday);
    }
    match rest.len() {
        3 => NaiveDate::from_yo_opt(year, num(rest)?),
        4 if b.len() == 8 => NaiveDate::from_ymd_opt(year, num(&rest[..2])?, num(&rest[2..])?),
        5 if rest.as_bytes()[2] == b'-' => {
            NaiveDate::from_ymd_opt(year, num(&rest[..2])?, num(&rest[3..])?)
        }
        _ => None,
    }
}

fn parse_time(t: &str) -> Option<(NaiveTime, u32, u8)> {
    let (hms, frac) = match t.find(['.', ',']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let hms = hms.replace(':', "");
    if hms.len() != 6 {
        return None;
    }
    let (h, m, mut s) = (num(&hms[..2])?, num(&hms[2..4])?, num(&hms[4..])?);
    if s == 60 {
        s = 59;
    }
    let (nanos, digits) = match frac {
        None => (0, 0),
        Some(f) => {
            num(f)?;
            // GLib keeps microseconds.
            let micros: String = f.chars().chain("000000".chars()).take(6).collect();
            (num(&micros)? * 1000, f.len().min(6) as u8)
        }
    };
    Some((NaiveTime::from_hms_opt(h, m, s)?, nanos, digits))
}

fn parse_tz(tz: &str) -> Option<i32> {
    if tz == "Z" {
        return Some(0);
    }
    let sign = match tz.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits = tz[1..].replace(':', "");
    let (h, m) = match digits.len() {
        2 => (num(&digits)?, 0),
        4 => (num(&digits[..2])?, num(&digits[2..])?),
        _ => return None,
    };
    if h > 24 || m > 59 {
        return None;
    }
    Some(sign * (h as i32 * 3600 + m as i32 * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glib_forms() {
        let s = |t: &str| parse(t).map(|t| t.unix_seconds());
        let want = Some(1128121528);
        assert_eq!(s("2005-09-30T23:05:28Z"), want);
        assert_eq!(s("20050930T230528Z"), want);
        assert_eq!(s("20050930T23:05:28Z"), want);
        assert_eq!(s("2005-273T23:05:28Z"), want);
        assert_eq!(s("2005-W39-5T23:05:28Z"), want);
        assert_eq!(s("2005-09-30 23:05:28Z"), want);
        assert_eq!(s("2005-10-01T01:05:28+02"), want);
        assert_eq!(s("2005-09-30T23:05:28"), None);
        assert_eq!(s("2005-09-30T23:05:28z"), None);
        assert_eq!(s("2005-09-30"), None);
        assert_eq!(
            parse("2005-09-30T23:05:28,5Z").unwrap().subsec_nanos(),
            500_000_000
        );
    }
}
