//! The reader: XBEL with the freedesktop metadata (the XBEL reader maps it
//! into the model), then the desktop-bookmark spec's semantics on top.

use markport_model::{DateValue, Diagnostic, Document, Error, Node, Parsed, ReadOptions};

/// A date the XBEL reader kept raw, read again with GLib's ISO 8601 forms.
fn glib_date(d: &mut Option<DateValue>) {
    if let Some(DateValue::Raw(r)) = d {
        if let Some(t) = crate::iso::parse(r) {
            *d = Some(DateValue::Instant(t));
        }
    }
}

pub(crate) fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let read = markport_xbel::read(input, opts)?;
    let mut diagnostics = read.diagnostics;
    let source = read.document;
    let mut doc = Document::new();
    doc.header = source.header.clone();
    // The spec's files have no place for comments; the desktop writer
    // reports them lost, so reading keeps none either.
    doc.header.comments.clear();
    let (mut folders, mut separators, mut aliases) = (0, 0, 0);
    for id in source.preorder() {
        match source.node(id) {
            Node::Bookmark(b) => {
                let mut b = b.clone();
                glib_date(&mut b.added);
                glib_date(&mut b.modified);
                glib_date(&mut b.details_mut().visited);
                // One registration per application name: a later element
                // updates the first one's entry (GLib's rule).
                let mut apps: Vec<markport_model::Application> = Vec::new();
                for mut app in std::mem::take(&mut b.details_mut().applications) {
                    glib_date(&mut app.modified);
                    // GLib and the spec: a registration without a count was made once.
                    app.count.get_or_insert(1);
                    match apps.iter_mut().find(|a| a.name == app.name) {
                        Some(first) => *first = app,
                        None => apps.push(app),
                    }
                }
                b.details_mut().applications = apps;
                if !b.details().extra.is_empty() || !b.details().metadata.is_empty() {
                    // Kept (the XBEL writer carries them); GLib rejects the file.
                    diagnostics.push(Diagnostic::note(
                        format!(
                            "{}: attributes or metadata GLib does not know are kept (GLib rejects such a file)",
                            b.href
                        ),
                        None,
                    ));
                }
                doc.push(None, b);
            }
            Node::Folder(_) => folders += 1,
            Node::Separator(_) => separators += 1,
            Node::Alias(_) => aliases += 1,
            // A kind of node added to the model later: not a bookmark, ignored.
            _ => {}
        }
    }
    // The spec: folders, separators and aliases "should be ignored" (GLib
    // rejects the file); their bookmarks are kept, in document order.
    for (n, what) in [
        (folders, "folder"),
        (separators, "separator"),
        (aliases, "alias"),
    ] {
        if n > 0 {
            diagnostics.push(Diagnostic::note(
                format!("{n} {what}(s) ignored, as the desktop-bookmark spec says (GLib rejects such files); bookmarks inside folders are kept"),
                None,
            ));
        }
    }
    Ok(Parsed::new(doc, diagnostics))
}
