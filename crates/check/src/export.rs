//! Services' CSV exports (Pocket's `part_000000.csv`, Instapaper's
//! `instapaper-export.csv`): the header against the columns the service
//! writes, then every row — not only the first that does not parse.
//!
//! RFC 4180 through the `csv` crate, one record at a time.

use csv::{ByteRecord, ReaderBuilder};

use crate::problem::Sink;
use crate::rules::*;

/// What a service writes in its CSV export.
pub(crate) struct Service {
    name: &'static str,
    /// Columns every export has.
    required: &'static [&'static str],
    /// Columns some exports have.
    optional: &'static [&'static str],
    /// The link's column.
    url: &'static str,
    /// The column of seconds since 1970.
    time: &'static str,
}

/// Pocket's CSV export (one generation adds `cursor`; the oldest parts
/// have every column but it).
pub(crate) const POCKET: Service = Service {
    name: "Pocket",
    required: &["title", "url", "time_added"],
    optional: &["cursor", "tags", "status"],
    url: "url",
    time: "time_added",
};

/// Instapaper's CSV export (older ones have no Timestamp, newer ones add
/// Tags).
pub(crate) const INSTAPAPER: Service = Service {
    name: "Instapaper",
    required: &["URL", "Title", "Selection", "Folder"],
    optional: &["Timestamp", "Tags"],
    url: "URL",
    time: "Timestamp",
};

/// Whether `input` starts like Pocket's CSV rather than its HTML export.
pub(crate) fn is_pocket_csv(input: &[u8]) -> bool {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let line = input.split(|&c| c == b'\n').next().unwrap_or_default();
    String::from_utf8_lossy(line)
        .trim()
        .to_ascii_lowercase()
        .starts_with("title,url")
}

/// Check a CSV export of `service` into `sink` (a sink over `input`).
pub(crate) fn check(input: &[u8], service: &Service, sink: &mut Sink<'_>) {
    let body_at = if input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let mut reader = ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(&input[body_at..]);
    let mut record = ByteRecord::new();
    let name = service.name;
    let header: Vec<String> = match reader.read_byte_record(&mut record) {
        Ok(true) => record
            .iter()
            .map(|f| String::from_utf8_lossy(f).trim().to_string())
            .collect(),
        Ok(false) => {
            sink.at(
                &EXPORT_HEADER,
                0,
                format!("the file is empty; {name}'s export starts with its header"),
            );
            return;
        }
        Err(e) => {
            sink.at(
                &EXPORT_ROW,
                body_at,
                format!("the header does not parse: {e}"),
            );
            return;
        }
    };
    let column = |c: &str| header.iter().position(|h| h.eq_ignore_ascii_case(c));
    // A set, not a search of the columns before: a header of 100,000
    // columns costs its length.
    let mut seen = std::collections::HashSet::new();
    for h in &header {
        if !seen.insert(h.to_ascii_lowercase()) {
            sink.at(
                &EXPORT_HEADER,
                body_at,
                format!("column {h:?} is given twice"),
            );
        } else if !service
            .required
            .iter()
            .chain(service.optional)
            .any(|c| c.eq_ignore_ascii_case(h))
        {
            sink.at(
                &EXPORT_UNKNOWN_COLUMN,
                body_at,
                format!(
                    "column {h:?} is not one {name}'s export has ({})",
                    service.required.join(",")
                ),
            );
        }
    }
    let missing: Vec<&str> = service
        .required
        .iter()
        .copied()
        .filter(|c| column(c).is_none())
        .collect();
    if !missing.is_empty() {
        sink.at(
            &EXPORT_HEADER,
            body_at,
            format!(
                "the header has no {} column ({name}'s export has {})",
                missing.join(", "),
                service.required.join(",")
            ),
        );
    }
    let (url, time) = (column(service.url), column(service.time));
    loop {
        let at = body_at + reader.position().byte() as usize;
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                sink.at(&EXPORT_ROW, at, format!("this row does not parse: {e}"));
                break;
            }
        }
        if record.len() == 1 && record[0].is_empty() {
            continue;
        }
        if record.len() != header.len() {
            sink.at(
                &EXPORT_ROW,
                at,
                format!(
                    "{} fields where the header has {}",
                    record.len(),
                    header.len()
                ),
            );
            continue;
        }
        if let Some(bad) = record.iter().position(|f| std::str::from_utf8(f).is_err()) {
            sink.at(
                &EXPORT_ROW,
                at,
                format!("the {} field is not UTF-8", header[bad]),
            );
        }
        if url.is_some_and(|c| record[c].iter().all(u8::is_ascii_whitespace)) {
            sink.at(
                &EXPORT_ROW,
                at,
                format!("the {} field is empty", service.url),
            );
        }
        if let Some(c) = time {
            let t = String::from_utf8_lossy(&record[c]);
            let t = t.trim();
            if !t.is_empty() && !t.bytes().all(|b| b.is_ascii_digit()) {
                sink.at(
                    &EXPORT_BAD_DATE,
                    at,
                    format!("{} {t:?} is not a number of seconds since 1970", header[c]),
                );
            }
        }
    }
}
