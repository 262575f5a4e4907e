//! `Modified=` in an Internet Shortcut: a Windows FILETIME (100-nanosecond
//! intervals since 1601-01-01 UTC) stored the way `WritePrivateProfileStruct`
//! stores a struct: its 8 bytes little-endian as hex, followed by a checksum
//! byte (the sum of the bytes, modulo 256) — 18 hex digits, e.g.
//! `Modified=C0A4AC5D2C1FCE0187`. Files with the 16 digits alone are read too.

use markport_model::{DateValue, Timestamp};

/// Seconds from 1601-01-01 to 1970-01-01.
const EPOCH_DELTA: i64 = 11_644_473_600;
/// FILETIME ticks per second.
const TICKS: i64 = 10_000_000;

/// What a `Modified=` value says.
#[derive(Debug, PartialEq)]
pub(crate) enum Parsed {
    /// An instant; `checksum_ok` is false when a checksum byte was given
    /// and does not match.
    Date(DateValue, bool),
    /// Zero: no date (what Windows writes for a shortcut never saved).
    Unset,
}

/// Read a `Modified=` value: an instant, or the text kept as written when
/// it is not 16 or 18 hex digits or names no representable instant.
pub(crate) fn parse(text: &str) -> Parsed {
    let raw = || Parsed::Date(DateValue::Raw(text.into()), true);
    let t = text.trim();
    if !(t.len() == 16 || t.len() == 18) || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return raw();
    }
    let mut bytes = [0u8; 9];
    for (i, pair) in t.as_bytes().chunks(2).enumerate() {
        let s = std::str::from_utf8(pair).unwrap_or("00");
        bytes[i] = u8::from_str_radix(s, 16).unwrap_or(0);
    }
    let mut le = [0u8; 8];
    le.copy_from_slice(&bytes[..8]);
    let ticks = u64::from_le_bytes(le);
    let checksum_ok = t.len() == 16 || checksum(&le) == bytes[8];
    if ticks == 0 {
        return Parsed::Unset;
    }
    let Ok(ticks) = i64::try_from(ticks) else {
        return raw();
    };
    let secs = ticks.div_euclid(TICKS) - EPOCH_DELTA;
    let nanos = (ticks.rem_euclid(TICKS) * 100) as u32;
    match Timestamp::from_unix(secs, nanos) {
        Some(ts) => Parsed::Date(DateValue::Instant(ts), checksum_ok),
        None => raw(),
    }
}

/// The `Modified=` text for a date (18 hex digits), or the raw text as it
/// was read; `None` when an instant is before 1601 or beyond FILETIME.
pub(crate) fn format(date: &DateValue) -> Option<String> {
    match date {
        DateValue::Raw(text) => Some(text.to_string()),
        DateValue::Instant(t) => {
            let ticks = (i128::from(t.unix_seconds()) + i128::from(EPOCH_DELTA))
                * i128::from(TICKS)
                + i128::from(t.subsec_nanos() / 100);
            let ticks = u64::try_from(ticks).ok().filter(|&t| t > 0)?;
            let le = ticks.to_le_bytes();
            let mut out = String::with_capacity(18);
            for b in le.iter().chain(std::iter::once(&checksum(&le))) {
                out.push_str(&format!("{b:02X}"));
            }
            Some(out)
        }
    }
}

fn checksum(bytes: &[u8; 8]) -> u8 {
    bytes.iter().fold(0u8, |a, b| a.wrapping_add(*b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_windows_written_value_reads_and_writes_back() {
        // The checksum 87 is 0xC0+0xA4+0xAC+0x5D+0x2C+0x1F+0xCE+0x01 = 903, mod 256.
        let Parsed::Date(d, ok) = parse("C0A4AC5D2C1FCE0187") else {
            panic!()
        };
        assert!(ok);
        let t = d.instant().unwrap();
        // An independent count: 0x01CE1F2C5DACA4C0 ticks since 1601.
        let ticks: i64 = 0x01CE_1F2C_5DAC_A4C0;
        assert_eq!(t.unix_seconds(), ticks / 10_000_000 - 11_644_473_600);
        assert_eq!(i64::from(t.subsec_nanos()), (ticks % 10_000_000) * 100);
        assert_eq!(format(&d).unwrap(), "C0A4AC5D2C1FCE0187");
        // The 16 digits alone, and a wrong checksum.
        assert!(matches!(parse("C0A4AC5D2C1FCE01"), Parsed::Date(_, true)));
        assert!(matches!(
            parse("C0A4AC5D2C1FCE0100"),
            Parsed::Date(_, false)
        ));
        assert_eq!(parse("0000000000000000"), Parsed::Unset);
        assert_eq!(
            parse("yesterday"),
            Parsed::Date(DateValue::Raw("yesterday".into()), true)
        );
    }
}
