//! A writer's loss report, made by reading its own output back.
//!
//! CSV and URL lists lose in many small ways that depend on values (a tag
//! with the file's separator in it, a folder title with a `/`, a title that
//! starts with `|`, a date the reader would read otherwise). Rather than
//! predict each, the writers render into memory, read the bytes back with
//! their own reader and report each field `diff` finds changed: the report
//! is then exactly what a round trip loses, with the reason the format gives
//! for that field.

use std::io::Write;

use markport_model::{diff, Document, Error, ErrorKind, Field, LossReport, Parsed, ReadOptions};

/// Write `bytes` to `out` after reading them back with `read` and
/// reporting every field of `doc` that did not come back the same, with
/// `reason(field)` as the reason.
pub(crate) fn finish(
    doc: &Document,
    bytes: &[u8],
    read: fn(&[u8], &ReadOptions) -> Result<Parsed, Error>,
    reason: fn(Field) -> &'static str,
    out: &mut dyn Write,
) -> Result<LossReport, Error> {
    let back = read(bytes, &ReadOptions::default()).map_err(|e| {
        Error::new(
            ErrorKind::Unwritable,
            format!("the output does not read back ({e}): a bug in the writer"),
            None,
        )
    })?;
    let d = diff(doc, &back.document);
    drop(back);
    // `record_changes` is how a report takes a diff's entries with their
    // counts and paths; here they are losses.
    let mut found = LossReport::new();
    found.record_changes(&d, |f| reason(f).to_string());
    let mut report = LossReport::new();
    report.losses = found.changes;
    out.write_all(bytes).map_err(Error::io)?;
    Ok(report)
}
