//! Chromium's dates: microseconds since 1601-01-01T00:00:00Z as a decimal
//! string (`base::Time::ToDeltaSinceWindowsEpoch`); `"0"` means unset.

use markport_model::{DateValue, Timestamp};

/// Seconds from 1601-01-01 to 1970-01-01.
const EPOCH_DELTA: i64 = 11_644_473_600;

/// A date value as read: `None` for `"0"`, an instant for a number of
/// microseconds, the text itself for anything else.
pub fn parse(text: &str) -> Option<DateValue> {
    let Ok(micros) = text.parse::<i64>() else {
        return Some(DateValue::Raw(text.into()));
    };
    if micros == 0 {
        return None;
    }
    let secs = micros.div_euclid(1_000_000) - EPOCH_DELTA;
    let nanos = (micros.rem_euclid(1_000_000) * 1000) as u32;
    Some(match Timestamp::from_unix(secs, nanos) {
        Some(t) => DateValue::Instant(t),
        None => DateValue::Raw(text.into()),
    })
}

/// The text Chromium stores for a date (`"0"` for none); sub-microsecond
/// parts are cut, as Chromium keeps microseconds.
pub fn format(date: Option<&DateValue>) -> String {
    match date {
        None => "0".into(),
        Some(DateValue::Raw(text)) => text.to_string(),
        Some(DateValue::Instant(t)) => {
            let micros = (i128::from(t.unix_seconds()) + i128::from(EPOCH_DELTA)) * 1_000_000
                + i128::from(t.subsec_nanos() / 1000);
            match i64::try_from(micros) {
                Ok(m) if m != 0 => m.to_string(),
                // The Windows epoch itself would read back as unset: one
                // microsecond later is the nearest date that does not.
                Ok(_) => "1".into(),
                Err(_) => "0".into(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microseconds_since_1601() {
        let d = parse("13395182602237324").unwrap();
        let t = d.instant().unwrap();
        assert_eq!(t.to_w3c(), "2025-06-23T20:03:22.237324Z");
        assert_eq!(format(Some(&d)), "13395182602237324");
        assert_eq!(parse("0"), None);
        assert_eq!(parse("soon"), Some(DateValue::Raw("soon".into())));
        assert_eq!(format(None), "0");
    }
}
