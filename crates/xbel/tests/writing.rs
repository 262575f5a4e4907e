//! What the writer checks: every string of every field, through the model's
//! field table, so a field added to the model is checked without a change here.

use markport_model::{Attribute, Bookmark, Document, Field, Folder, Separator, WriteOptions};

/// Characters XML 1.0 cannot hold, in fields of every kind of holder: each
/// is reported on its own field, and what is written reads back.
#[test]
fn unwritable_characters_are_reported_on_every_field() {
    let mut doc = Document::new();
    doc.header.id = Some("doc\u{1}".into());
    let mut folder = Folder::titled("Bar");
    folder.guid = Some("guid\u{2}".into());
    folder.meta_info = vec![Attribute::new("k", "v\u{3}")];
    let f = doc.push(None, folder);
    let mut b = Bookmark::new("https://example.org/");
    b.details_mut().guid = Some("g\u{4}".into());
    b.details_mut().meta_info = vec![Attribute::new("n\u{5}", "v")];
    doc.push(Some(f), b);
    let mut sep = Separator::default();
    sep.title = Some("--\u{6}--".into());
    doc.push(Some(f), sep);

    let mut out = Vec::new();
    let loss = markport_xbel::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let mut lost: Vec<Field> = loss.losses.iter().map(|l| l.field).collect();
    lost.sort();
    assert_eq!(
        lost,
        [
            Field::DocumentId,
            Field::BookmarkGuid,
            Field::BookmarkMetaInfo,
            Field::FolderGuid,
            Field::FolderMetaInfo,
            Field::SeparatorTitle,
        ]
    );
    let back = markport_xbel::read(&out, &Default::default())
        .unwrap()
        .document;
    let folder = back.node(back.children(None)[0]).as_folder().unwrap();
    assert_eq!(folder.guid.as_deref(), Some("guid"));
}
