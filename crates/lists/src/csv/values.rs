//! How a generic CSV's cells become values: dates, yes/no flags, tag
//! lists, and the apostrophe spreadsheets-safe writers put before a formula
//! character.

use markport_model::{DateValue, Timestamp};

/// A date cell: Unix seconds, Unix milliseconds or ISO 8601 / W3C text.
///
/// A whole number is read by its size, one value at a time: below 10^11
/// it is seconds (10^11 seconds is the year 5138), from 10^11 on it is
/// milliseconds (10^11 milliseconds is 1973). A number with a fraction is
/// seconds. Anything else is `None` (the caller keeps the text as written).
pub(crate) fn date(cell: &str) -> Option<DateValue> {
    let cell = cell.trim();
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let n: i64 = cell.parse().ok()?;
        let t = if n.unsigned_abs() < 100_000_000_000 {
            Timestamp::from_unix_seconds(n)?
        } else {
            Timestamp::from_unix(n.div_euclid(1000), (n.rem_euclid(1000) * 1_000_000) as u32)?
                .with_precision(markport_model::Precision::Fraction(3))
        };
        return Some(DateValue::Instant(t));
    }
    if let Some((whole, frac)) = digits.split_once('.') {
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if all_digits(whole) && all_digits(frac) && frac.len() <= 9 {
            let secs: i64 = whole.parse().ok()?;
            let nanos: u32 = format!("{frac:0<9}").parse().ok()?;
            if cell.starts_with('-') {
                return None; // a negative fraction: rare enough to keep as written
            }
            let t = Timestamp::from_unix(secs, nanos)?
                .with_precision(markport_model::Precision::Fraction(frac.len() as u8));
            return Some(DateValue::Instant(t));
        }
    }
    Timestamp::parse_w3c(cell).map(DateValue::Instant)
}

/// A yes/no cell: `Some(answer)`, `None` when empty, `Err` when it is not
/// a word this reader knows.
pub(crate) fn flag(cell: &str) -> Result<Option<bool>, ()> {
    let c = cell.trim();
    if c.is_empty() {
        return Ok(None);
    }
    const YES: &[&str] = &["1", "true", "yes", "y", "on", "t", "x"];
    const NO: &[&str] = &["0", "false", "no", "n", "off", "f"];
    if YES.iter().any(|w| c.eq_ignore_ascii_case(w)) {
        Ok(Some(true))
    } else if NO.iter().any(|w| c.eq_ignore_ascii_case(w)) {
        Ok(Some(false))
    } else {
        Err(())
    }
}

/// The characters a tags cell may be split on, in the order a tie is
/// decided.
pub(crate) const SEPARATORS: [char; 3] = [',', '|', ';'];

/// Counts, over a file's tags cells, how many cells hold each separator.
#[derive(Default)]
pub(crate) struct SeparatorVote {
    cells: [usize; 3],
}

impl SeparatorVote {
    /// Count one tags cell.
    pub(crate) fn count(&mut self, cell: &str) {
        for (i, sep) in SEPARATORS.iter().enumerate() {
            if cell.contains(*sep) {
                self.cells[i] += 1;
            }
        }
    }

    /// The separator of the file: the one found in the most cells; on a
    /// tie, and when none is found, the earlier of `,` `|` `;`.
    pub(crate) fn separator(&self) -> char {
        let mut best = 0;
        for i in 1..SEPARATORS.len() {
            if self.cells[i] > self.cells[best] {
                best = i;
            }
        }
        SEPARATORS[best]
    }
}

/// A tags cell split on `sep`, each tag trimmed, empty ones dropped.
pub(crate) fn split_tags(cell: &str, sep: char) -> Vec<String> {
    cell.split(sep)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

/// Whether a spreadsheet would read a cell starting with `c` as a formula
/// (OWASP's list: `=`, `+`, `-`, `@`, tab, carriage return).
pub(crate) fn is_formula_start(c: Option<char>) -> bool {
    matches!(c, Some('=' | '+' | '-' | '@' | '\t' | '\r'))
}

/// A text cell without the `'` a spreadsheet-safe writer puts before a
/// formula character (markport's writer and others do): `'=SUM(A1)` reads
/// as `=SUM(A1)`.
pub(crate) fn unguard(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if is_formula_start(rest.chars().next()) => rest,
        _ => cell,
    }
}

/// A text cell as the writer puts it: with a `'` before a formula
/// character, so a spreadsheet shows it rather than runs it.
pub(crate) fn guard(cell: &str) -> std::borrow::Cow<'_, str> {
    if is_formula_start(cell.chars().next()) {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(cell: &str) -> Option<i64> {
        date(cell).and_then(|d| d.instant().map(|t| t.unix_seconds()))
    }

    #[test]
    fn dates_by_their_values() {
        assert_eq!(secs("1700000000"), Some(1_700_000_000));
        assert_eq!(secs("1700000000123"), Some(1_700_000_000));
        let ms = date("1700000000123").unwrap();
        assert_eq!(ms.instant().unwrap().subsec_nanos(), 123_000_000);
        assert_eq!(secs("99999999999"), Some(99_999_999_999));
        assert_eq!(secs("2023-11-14T22:13:20Z"), Some(1_700_000_000));
        assert_eq!(secs("2023-11-14 22:13:20"), Some(1_700_000_000));
        assert_eq!(secs("1700000000.5"), Some(1_700_000_000));
        assert!(date("last tuesday").is_none());
        assert!(date("").is_none());
    }

    #[test]
    fn flags_and_words_not_understood() {
        assert_eq!(flag(" Yes "), Ok(Some(true)));
        assert_eq!(flag("0"), Ok(Some(false)));
        assert_eq!(flag(""), Ok(None));
        assert_eq!(flag("maybe"), Err(()));
    }

    #[test]
    fn the_separator_is_the_one_most_cells_hold() {
        let mut v = SeparatorVote::default();
        for c in ["a|b", "c|d", "x,y", "single"] {
            v.count(c);
        }
        assert_eq!(v.separator(), '|');
        let mut v = SeparatorVote::default();
        v.count("a;b");
        v.count("c,d");
        assert_eq!(v.separator(), ',', "a tie goes to the comma");
        assert_eq!(split_tags(" a ; ;b", ';'), ["a", "b"]);
    }

    #[test]
    fn guard_and_unguard_are_inverse_for_formulas() {
        for s in ["=SUM(A1)", "+1", "-x", "@home", "plain", "'quoted"] {
            assert_eq!(unguard(&guard(s)), s);
        }
        assert_eq!(guard("=1"), "'=1");
        assert_eq!(guard("plain"), "plain");
    }
}
