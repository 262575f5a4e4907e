//! XBEL 1.0 (work in progress).
use markport_model::{Document, Error, ErrorKind, Field, LossReport, Read, ReadOptions, Support, WriteOptions};

/// Whether the bytes look like XBEL.
pub fn detect(input: &[u8]) -> Option<u8> {
    let head = &input[..input.len().min(4096)];
    head.windows(5).any(|w| w == b"<xbel").then_some(80)
}

/// Read XBEL.
pub fn read(_input: &[u8], _opts: &ReadOptions) -> Result<Read, Error> {
    Err(Error::new(ErrorKind::Invalid, "XBEL reader not built yet", None))
}

/// Write XBEL.
pub fn write(_doc: &Document, _opts: &WriteOptions, _out: &mut dyn std::io::Write) -> Result<LossReport, Error> {
    Err(Error::new(ErrorKind::Unwritable, "XBEL writer not built yet", None))
}

/// What XBEL carries.
pub fn support(_field: Field) -> Support {
    Support::Full
}
