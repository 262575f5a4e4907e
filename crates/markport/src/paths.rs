//! Writing a document to a file by its path, with the library's own
//! policies: the format chosen as [`resolve_format`] chooses, the output
//! written as [`output`](crate::output) writes it. (Reading is
//! [`read`](crate::read), the one door.)

use std::path::Path;

use markport_model::{Document, Error, ErrorKind, LossReport, WriteOptions};

use crate::output::{OutputError, OutputFile};
use crate::registry::Format;
use crate::resolve::resolve_format;

/// An I/O failure whose message names the path.
fn io_error(path: &Path, e: std::io::Error) -> Error {
    let mut err = Error::io(e);
    err.message = format!("{}: {}", path.display(), err.message);
    err
}

fn output_error(e: OutputError) -> Error {
    let message = e.to_string();
    let mut err = match e.source {
        Some(io) => Error::io(io),
        None => Error::new(ErrorKind::Io, String::new(), None),
    };
    err.message = message;
    err
}

/// Write `doc` to the file at `path` as `format`, or (`None`) as its
/// extension says (`.xbel`, `.html`, ...), and return what could not be
/// carried. The file is replaced atomically and only when the whole output
/// is written; devices and FIFOs are written through (see
/// [`output`](crate::output)).
///
/// ```
/// use markport::{Bookmark, Document, Field, Folder, Separator};
///
/// let mut doc = Document::new();
/// let news = doc.push(None, Folder::titled("News"));
/// doc.push(Some(news), Bookmark::new("https://www.bbc.co.uk/").with_title("BBC"));
/// doc.push(None, Separator::new());
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("page.xbel");
/// let loss = markport::write_path(&doc, &path, None, &Default::default()).unwrap();
/// assert!(loss.is_empty());
/// let back = markport::read(path.as_path(), None, &Default::default()).unwrap();
/// assert_eq!(back.document, doc);
///
/// // xFolk pages have no separators: the report says so.
/// let page = dir.path().join("page.html");
/// let xfolk = markport::format("xfolk");
/// let loss = markport::write_path(&doc, &page, xfolk, &Default::default()).unwrap();
/// assert!(loss.fields().contains(&Field::Separator));
/// ```
pub fn write_path(
    doc: &Document,
    path: impl AsRef<Path>,
    format: Option<&Format>,
    opts: &WriteOptions,
) -> Result<LossReport, Error> {
    let path = path.as_ref();
    let format = match format {
        Some(f) => f,
        None => resolve_format(None, Some(path), None)?.format,
    };
    let write = format.writer()?;
    let opts = crate::options_for_path(opts.clone(), Some(path));
    let mut out = OutputFile::create(path).map_err(output_error)?;
    let loss = write(doc, &opts, &mut out)?;
    out.commit().map_err(|e| io_error(path, e))?;
    Ok(loss)
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::Bookmark;

    #[test]
    fn a_path_no_format_claims_is_refused_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("links.unknown");
        let mut doc = Document::new();
        doc.push(None, Bookmark::new("https://example.org/"));
        let err = write_path(&doc, &path, None, &WriteOptions::default()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::WrongFormat);
        assert!(!path.exists());
    }

    #[test]
    fn an_unwritable_destination_is_an_io_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_path(
            &Document::new(),
            dir.path(),
            crate::format("xbel"),
            &WriteOptions::default(),
        )
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::Io);
        assert!(
            err.message.contains(&*dir.path().to_string_lossy()),
            "{}",
            err.message
        );
    }
}
