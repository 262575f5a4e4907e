//! Reading and writing `Bookmarks` files: bad input, depth, what a document
//! from another format becomes.

use markport_model::{
    Bookmark, Document, ErrorKind, Field, Folder, ReadOptions, Role, WriteOptions,
};

fn read(text: &str) -> Result<markport_model::Parsed, markport_model::Error> {
    markport_chromium::read(text.as_bytes(), &ReadOptions::default())
}

fn write(doc: &Document) -> (String, markport_model::LossReport) {
    let mut out = Vec::new();
    let loss = markport_chromium::write(doc, &WriteOptions::default(), &mut out).unwrap();
    (String::from_utf8(out).unwrap(), loss)
}

#[test]
fn truncated_and_wrongly_typed_files_fail_with_line_and_column() {
    for (text, line, column) in [
        ("{\n  \"roots\": {\n    \"bookmark_bar\": {", 3, 22),
        ("not json", 1, 1),
        ("{\"roots\": {\"bookmark_bar\": {\"type\": \"folder\", \"name\": 5}}, \"version\": 1}", 1, 55),
        ("{\"roots\": {\"bookmark_bar\": {\"type\": \"folder\", \"children\": {}}}, \"version\": 1}", 1, 59),
        ("{\"roots\": {\"bookmark_bar\": {\"type\": \"link\"}}, \"version\": 1}", 1, 37),
        ("[1, 2]", 1, 1),
    ] {
        let e = read(text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax, "{text:?}: {e}");
        let at = e.location.unwrap_or_else(|| panic!("{text:?}: no location"));
        assert_eq!((at.line, at.column), (line, column), "{text:?}: {e}");
    }
}

#[test]
fn a_hundred_thousand_folders_deep_read_and_write_back() {
    const DEPTH: usize = 100_000;
    let mut text = String::from("{\"version\": 1, \"roots\": {\"bookmark_bar\": ");
    for i in 0..DEPTH {
        text.push_str(&format!(
            "{{\"type\": \"folder\", \"id\": \"{}\", \"name\": \"f{i}\", \"children\": [",
            i + 1
        ));
    }
    text.push_str("{\"type\": \"url\", \"id\": \"0\", \"name\": \"bottom\", \"url\": \"https://deep.example/\"}");
    text.push_str(&"]}".repeat(DEPTH));
    text.push_str("}}");
    let doc = read(&text).unwrap().document;
    assert_eq!(doc.census().depth, DEPTH);
    let (out, _) = write(&doc);
    let back = read(&out).unwrap().document;
    assert_eq!(back.census().depth, DEPTH);
    assert_eq!(back.census().bookmarks, 1);
}

#[test]
fn a_document_without_roles_goes_into_the_bar_with_ids_and_guids_made() {
    let mut doc = Document::new();
    let f = doc.push(None, Folder::titled("News"));
    doc.push(
        Some(f),
        Bookmark::new("https://bbc.co.uk/").with_title("BBC"),
    );
    doc.push(None, Bookmark::new("https://example.org/"));
    let (out, loss) = write(&doc);
    let back = read(&out).unwrap().document;
    let roots = back.children(None);
    assert_eq!(roots.len(), 3);
    let bar = back.node(roots[0]).as_folder().unwrap();
    assert_eq!(bar.role, Some(Role::Toolbar));
    assert_eq!(back.children(Some(roots[0])).len(), 2);
    let fields = loss.fields();
    for f in [
        Field::Folder,
        Field::BookmarkId,
        Field::BookmarkGuid,
        Field::FolderId,
    ] {
        assert!(fields.contains(&f), "{f} not reported: {loss}");
    }
    // Every id unique, every guid a UUID.
    let ids: std::collections::HashSet<_> = back.ids().filter_map(|i| back.node(i).id()).collect();
    assert_eq!(ids.len(), back.census().bookmarks + back.census().folders);
}

#[test]
fn loose_entries_beside_a_toolbar_folder_go_into_other_as_chromiums_export_had_them() {
    let mut doc = Document::new();
    let mut bar = Folder::titled("Bookmarks bar");
    bar.role = Some(Role::Toolbar);
    doc.push(None, bar);
    doc.push(None, Bookmark::new("https://other.example/"));
    let (out, _) = write(&doc);
    let back = read(&out).unwrap().document;
    let other = back.children(None)[1];
    assert_eq!(
        back.node(other).as_folder().unwrap().role,
        Some(Role::Unfiled)
    );
    assert_eq!(back.children(Some(other)).len(), 1);
}
