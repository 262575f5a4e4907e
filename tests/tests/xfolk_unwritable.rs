//! Characters an HTML page cannot carry (NUL, other C0 controls, U+FFFE,
//! U+FFFF) through the xFolk writer: left out of the page, and the fields
//! that had them reported, so the report stays exact.

use std::collections::BTreeSet;

use markport::model::{Bookmark, DateValue, Document, Folder};
use markport::{diff, Field, ReadOptions, WriteOptions};

#[test]
fn control_characters_are_left_out_and_reported_exactly() {
    let mut doc = Document::new();
    doc.header.title = Some("Doc\u{0}title".into());
    doc.header.desc = Some("intro\u{1}".into());
    let mut f = Folder::titled("Fol\u{0}der");
    f.desc = Some("folder \u{FFFF}desc".into());
    let f = doc.push(None, f);
    let mut b = Bookmark::new("https://example.com/a\u{0}b");
    b.title = Some("Ti\u{0}tle".into());
    b.desc = Some("de\u{0}sc\u{1B}".into());
    b.added = Some(DateValue::Raw("soon\u{2}".into()));
    b.details_mut().id = Some("id\u{FFFE}".into());
    doc.push(Some(f), b);
    // A link of nothing but controls is no link at all.
    doc.push(Some(f), Bookmark::new("\u{0}\u{1}"));
    let mut plain = Bookmark::new("https://example.com/plain");
    plain.title = Some("Plain\ttab".into());
    doc.push(Some(f), plain);

    let xfolk = markport::format("xfolk").unwrap();
    let (out, loss) = markport::write_to_vec(&doc, xfolk, &WriteOptions::default()).unwrap();
    let page = String::from_utf8(out.clone()).unwrap();
    assert!(
        !page.contains(|c: char| matches!(c, '\0'..='\x08' | '\x0B' | '\x0E'..='\x1F' | '\u{FFFE}' | '\u{FFFF}')),
        "the page carries a control character"
    );
    let back = markport::read_bytes(&out, xfolk, &ReadOptions::default())
        .unwrap()
        .document;
    let found: BTreeSet<Field> = diff(&doc, &back).fields().into_iter().collect();
    let reported: BTreeSet<Field> = loss.fields().into_iter().collect();
    assert_eq!(found, reported);
    for field in [
        Field::DocumentTitle,
        Field::DocumentDesc,
        Field::FolderTitle,
        Field::FolderDesc,
        Field::BookmarkHref,
        Field::BookmarkTitle,
        Field::BookmarkDesc,
        Field::BookmarkAdded,
        Field::BookmarkId,
        Field::Bookmark,
    ] {
        assert!(
            reported.contains(&field),
            "{field:?} not reported: {reported:?}"
        );
    }
    let b = back
        .find_by_href("https://example.com/ab")
        .map(|id| back.node(id).as_bookmark().unwrap().clone())
        .unwrap();
    assert_eq!(b.title.as_deref(), Some("Title"));
    assert_eq!(b.desc.as_deref(), Some("desc"));
}
