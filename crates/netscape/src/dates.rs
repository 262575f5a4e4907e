//! Netscape dates: Unix time as an integer, usually seconds.
//!
//! Google's exports used microseconds and Google+ Takeout milliseconds, so the
//! unit is recognised by range (a value in seconds would be past the year
//! 5000); `0` is what exporters write for "unknown". The unit a value came in
//! is kept only as the timestamp's precision: every importer reads seconds, so
//! seconds are written, and a sub-second part is reported lost.

use markport_model::{DateValue, Precision, Timestamp};

/// What an attribute value means as a date.
pub(crate) enum Parsed {
    /// `0`, `0000000000` or empty: no date.
    Unknown,
    Date(DateValue),
    /// Not a number or a W3C date; kept verbatim.
    Unreadable(DateValue),
}

pub(crate) fn parse(value: &str) -> Parsed {
    let v = value.trim();
    if v.is_empty() || v.bytes().all(|b| b == b'0') {
        return Parsed::Unknown;
    }
    let digits = v.strip_prefix('-').unwrap_or(v);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Every date of a page goes through here: up to 18 digits cannot
        // overflow, so they are summed without `parse`'s checks.
        let n = if digits.len() <= 18 {
            let n = digits
                .bytes()
                .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
            Ok(if digits.len() == v.len() { n } else { -n })
        } else {
            v.parse::<i64>()
        };
        if let Ok(n) = n {
            if let Some(t) = from_number(n) {
                return Parsed::Date(DateValue::Instant(t));
            }
        }
        return Parsed::Unreadable(DateValue::Raw(value.into()));
    }
    // netscape-go writes and reads RFC 3339 too.
    match Timestamp::parse_w3c(v) {
        Some(t) if v == value => Parsed::Date(DateValue::Instant(t)),
        _ => Parsed::Unreadable(DateValue::Raw(value.into())),
    }
}

/// Larger numbers are read as milliseconds (or finer): seconds reach the
/// year 5138 below it.
pub(crate) const SECONDS_LIMIT: i64 = 100_000_000_000;

fn from_number(n: i64) -> Option<Timestamp> {
    const S: i64 = SECONDS_LIMIT;
    let a = n.unsigned_abs() as i128;
    let (secs, nanos, precision) = if a < S as i128 {
        (n, 0, Precision::Second)
    } else if a < (S as i128) * 1000 {
        (
            n.div_euclid(1000),
            n.rem_euclid(1000) * 1_000_000,
            Precision::Fraction(3),
        )
    } else if a < (S as i128) * 1_000_000 {
        (
            n.div_euclid(1_000_000),
            n.rem_euclid(1_000_000) * 1000,
            Precision::Fraction(6),
        )
    } else {
        (
            n.div_euclid(1_000_000_000),
            n.rem_euclid(1_000_000_000),
            Precision::Fraction(9),
        )
    };
    Some(Timestamp::from_unix(secs, nanos as u32)?.with_precision(precision))
}

/// The attribute value for a date, in seconds as every importer expects, and
/// whether the sub-second part had to be dropped.
pub(crate) fn format(value: &DateValue) -> (String, bool) {
    match value {
        DateValue::Raw(r) => (r.to_string(), false),
        DateValue::Instant(t) => {
            let (secs, nanos) = (t.unix_seconds(), t.subsec_nanos());
            if secs == 0 {
                // `0` reads as "unknown": the epoch itself cannot be written.
                return ("0".to_string(), true);
            }
            (secs.to_string(), nanos != 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(v: &str) -> (i64, u32) {
        match parse(v) {
            Parsed::Date(DateValue::Instant(t)) => (t.unix_seconds(), t.subsec_nanos()),
            _ => panic!("{v} is a date"),
        }
    }

    #[test]
    fn units_by_range() {
        assert_eq!(secs("1295938143"), (1295938143, 0));
        assert_eq!(secs("1295938143123"), (1295938143, 123_000_000));
        assert_eq!(secs("1295938143123456"), (1295938143, 123_456_000));
        assert_eq!(secs("1295938143123456789"), (1295938143, 123_456_789));
        assert_eq!(secs("-86400"), (-86400, 0));
        assert!(matches!(parse("0"), Parsed::Unknown));
        assert!(matches!(parse("0000000000"), Parsed::Unknown));
        assert!(matches!(parse("invaliddate"), Parsed::Unreadable(_)));
        assert!(matches!(
            parse("99999999999999999999999"),
            Parsed::Unreadable(_)
        ));
        assert_eq!(secs("2021-03-04T05:06:07Z"), (1614834367, 0));
    }

    #[test]
    fn written_in_seconds() {
        for v in ["1295938143", "-5"] {
            let Parsed::Date(d) = parse(v) else { panic!() };
            assert_eq!(format(&d), (v.to_string(), false));
        }
        let Parsed::Date(d) = parse("1295938143000") else {
            panic!()
        };
        assert_eq!(format(&d), ("1295938143".to_string(), false));
        let Parsed::Date(d) = parse("1295938143123") else {
            panic!()
        };
        assert_eq!(format(&d), ("1295938143".to_string(), true));
        let t = Timestamp::from_unix(10, 5)
            .unwrap()
            .with_precision(Precision::Second);
        assert_eq!(format(&DateValue::Instant(t)), ("10".into(), true));
    }
}
