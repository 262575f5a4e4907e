//! The pipeline's three-way merge ([`Job::three_way`](crate::Job::three_way)):
//! the inputs are base, ours and theirs, merged by [`markport_merge3`] with
//! what each input's format cannot hold said, so that a field or a link
//! its format or program drops is not taken for a deletion.

use markport_merge3::{MergeError, Options, Report, Side};
use markport_model::{Document, Error, ErrorKind, Field, Support};

use crate::plan::JobError;
use crate::registry::Format;

/// Refuse anything but three inputs, before any is read.
pub(crate) fn check_inputs(count: usize) -> Result<(), JobError> {
    if count == 3 {
        return Ok(());
    }
    Err(JobError::operate(Error::new(
        ErrorKind::Invalid,
        format!("a three-way merge reads three inputs (base, ours, theirs), got {count}"),
        None,
    )))
}

/// Merge `docs` (base, ours, theirs) read as `formats`.
pub(crate) fn merge(
    docs: Vec<Document>,
    formats: &[&Format],
    opts: &Options,
) -> Result<(Document, Report), JobError> {
    check_inputs(docs.len().min(formats.len()))?;
    let [base, ours, theirs]: [Document; 3] = docs.try_into().expect("three, checked");
    let mut opts = opts.clone();
    for (k, f) in formats.iter().enumerate() {
        opts.uncarried[k] = uncarried(f);
        opts.unheld[k] = unheld(f).iter().map(|s| s.to_string()).collect();
    }
    markport_merge3::merge(&base, &ours, &theirs, &opts)
        .map(|m| (m.document, m.report))
        .map_err(refused)
}

/// A merge that made nothing as the pipeline says it: a side's mass
/// deletion is refused for safety ([`ErrorKind::Unsafe`]), its input the
/// side's.
fn refused(e: MergeError) -> JobError {
    let (kind, input) = match &e {
        MergeError::MassDelete { side, .. } => (
            ErrorKind::Unsafe,
            Some(match side {
                Side::Base => 0,
                Side::Ours => 1,
                _ => 2,
            }),
        ),
        _ => (ErrorKind::Invalid, None),
    };
    let mut err = JobError::operate(Error::new(kind, e.to_string(), None));
    err.input = input;
    err
}

/// The fields `format`'s writer cannot carry (none for a format markport
/// only reads: its reader is taken to read what the file has).
pub fn uncarried(format: &Format) -> Vec<Field> {
    if format.write.is_none() {
        return Vec::new();
    }
    Field::ALL
        .iter()
        .copied()
        .filter(|&f| (format.support)(f) == Support::None)
        .collect()
}

/// The link schemes the program of `format` refuses to hold: Firefox's
/// files have no `chrome://` (or other Chromium browsers') pages, which
/// Firefox will not bookmark; Chromium's have no Firefox `place:` queries.
pub fn unheld(format: &Format) -> &'static [&'static str] {
    match format.name {
        "firefox" | "places" | "zen" => &["chrome", "edge", "brave", "opera", "vivaldi"],
        "chromium" | "edge" | "arc" => &["place"],
        _ => &[],
    }
}
