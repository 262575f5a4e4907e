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

/// The writer finds these characters where it escapes the strings, and
/// looks for the field only then: a field it does not write as text (a
/// foreign block left out, an alias's target, a raw date, a tag in
/// markport's block) is still reported, and a clean node is not.
#[test]
fn unwritable_characters_are_found_where_they_are_escaped_and_where_they_are_left_out() {
    use markport_model::{Alias, DateValue, Metadata};
    let mut doc = Document::new();
    let mut b = Bookmark::new("https://example.org/a");
    b.tags = vec!["ok".into(), "bad\u{FFFE}".into()];
    b.added = Some(DateValue::Raw("soon\u{7}".into()));
    let mut foreign = Metadata::new("https://other.example/", "<x:y/>");
    foreign.namespaces = vec![("x".into(), "urn:x\u{8}".into())];
    b.details_mut().metadata = vec![foreign];
    b.details_mut().id = Some("a".into());
    doc.push(None, b);
    doc.push(None, Alias::new("a\u{b}"));
    doc.push(
        None,
        Bookmark::new("https://example.org/clean").with_title("Clean"),
    );

    let mut out = Vec::new();
    let loss = markport_xbel::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let mut lost: Vec<(Field, usize)> = loss.losses.iter().map(|l| (l.field, l.count)).collect();
    lost.sort();
    assert_eq!(
        lost,
        [
            (Field::BookmarkAdded, 1),
            (Field::BookmarkTags, 1),
            (Field::BookmarkMetadata, 1),
            (Field::Alias, 1),
        ]
    );
    assert!(markport_xbel::read(&out, &Default::default()).is_ok());
}
