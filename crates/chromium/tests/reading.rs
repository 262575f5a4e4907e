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

/// What Chromium's next save drops or changes is named in the report's
/// `destination` list, node by node (measured with the real browser by
/// tests/tests/chromium_destination.rs); what it keeps is not.
#[test]
fn what_chromium_drops_on_its_next_save_is_reported_at_the_destination() {
    let file = r#"{ "checksum": "", "version": 1, "sync_metadata": "CgQIARAB", "roots": {
      "bookmark_bar": { "type": "folder", "name": "Favourites", "id": "1", "source": "sync",
        "guid": "00000000-0000-4000-a000-000000000001", "children": [
        { "type": "url", "name": "Kept", "url": "https://kept.example/", "id": "4",
          "date_added": "13300000000000000", "meta_info": { "k": "v" } },
        { "type": "url", "name": "Tab\there", "url": "https://Example.org", "id": "5",
          "date_added": "13300000000000000", "date_modified": "13300000000000001",
          "show_icon": false },
        { "type": "url", "name": "Note", "url": "?aBcDeF", "id": "6" } ] },
      "other": { "type": "folder", "name": "Other bookmarks", "id": "2", "children": [] },
      "synced": { "type": "folder", "name": "Mobile bookmarks", "id": "3", "children": [] },
      "trash": { "type": "folder", "name": "Trash", "id": "7", "children": [
        { "type": "url", "name": "Gone", "url": "https://gone.example/", "id": "8" } ] } } }"#;
    let doc = read(file).unwrap().document;
    let (_, loss) = write(&doc);
    let at = |field: Field| -> Vec<(usize, &str)> {
        loss.destination
            .iter()
            .filter(|l| l.field == field)
            .map(|l| (l.count, l.reason.as_str()))
            .collect()
    };
    let drops_keys = "Chromium drops keys it does not know on its next save";
    assert_eq!(
        at(Field::BookmarkModified),
        [(1, "Chromium drops this on its next save")]
    );
    assert_eq!(at(Field::BookmarkExtra), [(1, drops_keys)]);
    assert_eq!(at(Field::FolderExtra), [(1, drops_keys)]);
    // The file leaves out unset dates Chromium writes as "0".
    assert_eq!(
        at(Field::DocumentExtra),
        [
            (1, drops_keys),
            (
                1,
                "Chromium writes unset dates its own way on its next save"
            )
        ]
    );
    assert_eq!(
        at(Field::FolderTitle),
        [(
            1,
            "Chromium renames the top-level folders to its own titles"
        )]
    );
    assert_eq!(
        at(Field::FolderGuid),
        [(1, "Chromium gives the top-level folders its own guids")]
    );
    assert_eq!(
        at(Field::BookmarkTitle),
        [(
            1,
            "Chromium turns a tab or line break in a title into a space"
        )]
    );
    assert_eq!(
        at(Field::BookmarkHref),
        [(1, "Chromium rewrites a link to its canonical form on load")]
    );
    let dropped_root =
        "Chromium drops roots other than its three, with everything in them, on its next save";
    assert_eq!(
        at(Field::Bookmark),
        [
            (
                1,
                "Chromium drops a bookmark whose link is not an absolute URL on load"
            ),
            (1, dropped_root)
        ]
    );
    assert_eq!(at(Field::Folder), [(1, dropped_root)]);
    assert_eq!(loss.destination.len(), 12, "{loss}");
    assert!(!loss.arrives_whole());
}

/// The checksum as a value: the stored sum and the content's, equal in
/// what Chromium (and markport) wrote, apart once a title is edited, the
/// content's then what a fresh write of that content stores.
#[test]
fn the_checksum_is_given_stored_and_computed() {
    for name in ["chrome-2024", "opera-custom-root", "vivaldi-trash"] {
        let path = format!(
            "{}/../../corpus/chromium/{name}.Bookmarks",
            env!("CARGO_MANIFEST_DIR")
        );
        let file = std::fs::read_to_string(&path).unwrap();
        let sum = markport_chromium::checksum(file.as_bytes())
            .unwrap()
            .unwrap();
        assert_eq!(sum.stored, sum.computed, "{name}");
        assert_eq!(
            &file[sum.offset..sum.offset + 34],
            format!("\"{}\"", sum.stored)
        );

        let (written, _) = write(&read(&file).unwrap().document);
        let edited = written.replacen("\"name\": \"", "\"name\": \"x", 2);
        let sum = markport_chromium::checksum(edited.as_bytes())
            .unwrap()
            .unwrap();
        assert_ne!(sum.stored, sum.computed, "{name}");
        // The reader says so under check's rule, where the sum stands.
        let said = read(&edited).unwrap().diagnostics;
        let d = said.iter().find(|d| d.rule.is_some()).unwrap();
        assert_eq!(d.rule.as_deref(), Some("chromium/checksum"));
        assert_eq!(d.location, Some(sum.location));
        let (rewritten, _) = write(&read(&edited).unwrap().document);
        let fresh = markport_chromium::checksum(rewritten.as_bytes())
            .unwrap()
            .unwrap();
        assert_eq!(fresh.stored, sum.computed, "{name}");
    }
    let unsummed =
        r#"{"roots": {"bookmark_bar": {"type": "folder", "children": []}}, "version": 1}"#;
    assert_eq!(
        markport_chromium::checksum(unsummed.as_bytes()).unwrap(),
        None
    );
}
