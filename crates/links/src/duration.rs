//! Durations as people write them on a command line.

use std::time::Duration;

/// A duration written as a number and a unit: `45s`, `30m`, `12h`, `7d`,
/// `2w` (a bare number is seconds). The error says what was expected.
///
/// ```
/// use std::time::Duration;
/// use markport_links::parse_duration;
///
/// assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(7 * 86_400)));
/// assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
/// assert!(parse_duration("soon").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let unit_secs: f64 = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        "w" => 7.0 * 86_400.0,
        _ => return Err(expected(text)),
    };
    let n: f64 = number.parse().map_err(|_| expected(text))?;
    Duration::try_from_secs_f64(n * unit_secs).map_err(|_| expected(text))
}

fn expected(text: &str) -> String {
    format!("{text:?} is not a duration: a number and a unit, as 200ms, 45s, 30m, 12h, 7d or 2w")
}
