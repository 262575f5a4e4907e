//! The reader: XBEL with the freedesktop metadata (the XBEL reader maps it
//! into the model), then the desktop-bookmark spec's semantics on top.

use std::collections::HashMap;

use markport_model::{
    Application, Bookmark, DateValue, Diagnostic, Document, Error, Node, Parsed, ReadOptions,
};

/// A date the XBEL reader kept raw, read again with GLib's ISO 8601 forms.
fn glib_date(d: &mut Option<DateValue>) {
    if let Some(DateValue::Raw(r)) = d {
        if let Some(t) = markport_model::Timestamp::parse_glib(r) {
            *d = Some(DateValue::Instant(t));
        }
    }
}

/// One registration per application name: a later element updates the
/// first one's entry, in the first one's place (GLib's rule). Linear in
/// the number of registrations, however many share a name.
fn merge_registrations(apps: &mut Vec<Application>) {
    if apps.len() < 2 {
        return;
    }
    let mut first: HashMap<&str, usize> = HashMap::with_capacity(apps.len());
    let mut target = Vec::with_capacity(apps.len());
    let mut kept = 0;
    for app in apps.iter() {
        match first.get(app.name.as_str()) {
            Some(&slot) => target.push(slot),
            None => {
                first.insert(&app.name, kept);
                target.push(kept);
                kept += 1;
            }
        }
    }
    drop(first);
    if kept == apps.len() {
        return;
    }
    let mut merged: Vec<Option<Application>> = (0..kept).map(|_| None).collect();
    for (app, slot) in std::mem::take(apps).into_iter().zip(target) {
        merged[slot] = Some(app);
    }
    *apps = merged.into_iter().flatten().collect();
}

/// The spec's semantics on one bookmark as the XBEL reader mapped it.
fn as_desktop_bookmark(b: &mut Bookmark) {
    glib_date(&mut b.added);
    glib_date(&mut b.modified);
    let more = b.details_mut();
    glib_date(&mut more.visited);
    if more.desktop().applications.is_empty() {
        return;
    }
    let desktop = more.desktop_mut();
    for app in &mut desktop.applications {
        glib_date(&mut app.modified);
        // GLib and the spec: a registration without a count was made once.
        app.count.get_or_insert(1);
    }
    merge_registrations(&mut desktop.applications);
}

pub(crate) fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let read = markport_xbel::read_desktop(input, opts)?;
    let mut diagnostics = read.diagnostics;
    // The document is changed where it is: a copy would double the peak
    // memory of reading (the spec's files are large and flat).
    let mut doc = read.document;
    // The spec's files have no place for comments; the desktop writer
    // reports them lost, so reading keeps none either.
    doc.header.comments.clear();
    let (mut folders, mut separators, mut aliases) = (0, 0, 0);
    let order: Vec<_> = doc.preorder().collect();
    for id in order {
        match doc.node_mut(id) {
            Node::Bookmark(b) => {
                as_desktop_bookmark(b);
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
            }
            Node::Folder(_) => folders += 1,
            Node::Separator(_) => separators += 1,
            Node::Alias(_) => aliases += 1,
            // A kind of node added to the model later: not a bookmark, ignored.
            _ => {}
        }
    }
    if folders + separators + aliases > 0 {
        // The spec: folders, separators and aliases "should be ignored"
        // (GLib rejects the file); their bookmarks are kept, in document
        // order, as one flat list.
        let mut flat = Document::new();
        flat.header = std::mem::take(&mut doc.header);
        for node in doc.into_preorder() {
            if let Node::Bookmark(_) = node {
                flat.push(None, node);
            }
        }
        doc = flat;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn app(name: &str, exec: &str) -> Application {
        Application::new(name, exec)
    }

    #[test]
    fn a_later_registration_replaces_the_first_in_its_place() {
        let mut apps = vec![app("a", "1"), app("b", "2"), app("a", "3"), app("a", "4")];
        merge_registrations(&mut apps);
        let got: Vec<_> = apps.iter().map(|a| (&*a.name, &*a.exec)).collect();
        assert_eq!(got, [("a", "4"), ("b", "2")]);
    }

    #[test]
    fn many_registrations_of_one_name_merge_in_linear_time() {
        // Quadratic merging would take minutes here.
        let mut apps: Vec<_> = (0..200_000).map(|i| app("same", &i.to_string())).collect();
        apps.push(app("other", "x"));
        merge_registrations(&mut apps);
        assert_eq!(apps.len(), 2);
        assert_eq!(apps[0].exec, "199999");
    }
}
