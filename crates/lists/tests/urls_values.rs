//! The URL-list reader and writer: every line's link and title checked.

use markport_lists::urls;
use markport_model::{Bookmark, Document, Field, Folder, ReadOptions, WriteOptions};

fn links(doc: &Document) -> Vec<(String, Option<String>)> {
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .map(|b| (b.href.clone(), b.title.clone()))
        .collect()
}

#[test]
fn lines_comments_onetab_crlf_and_bom() {
    let file = "\u{feff}https://a/ A title \r\n#comment\r\n\r\n  https://b/ | B | c\rhttps://c/\n\tjavascript:void(0)\n";
    let read = urls::read(file.as_bytes(), &ReadOptions::default()).unwrap();
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    assert_eq!(
        links(&read.document),
        [
            ("https://a/".into(), Some("A title".into())),
            ("https://b/".into(), Some("B | c".into())),
            ("https://c/".into(), None),
            ("javascript:void(0)".into(), None),
        ]
    );
}

#[test]
fn a_line_that_is_not_a_url_is_kept_and_warned_at_its_line_and_column() {
    let read = urls::read(
        b"https://a/\n\n   www.example.org Example\n",
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(read.document.len(), 2);
    let d = &read.diagnostics[0];
    let at = d.location.unwrap();
    assert_eq!((at.line, at.column), (3, 4));
    assert!(d.message.contains("www.example.org"), "{}", d.message);
    let mut strict = ReadOptions::default();
    strict.strict = true;
    assert!(urls::read(b"www.example.org\n", &strict).is_err());
}

#[test]
fn detection_wants_every_line_a_url() {
    assert_eq!(
        urls::detect(b"# list\nhttps://a/ A\n\nmailto:x@y\n"),
        Some(20)
    );
    assert_eq!(urls::detect(b"https://a/\nnot a url\n"), None);
    assert_eq!(urls::detect(b"# only comments\n"), None);
    assert_eq!(urls::detect(b"url,title\nhttps://a/,A\n"), None);
    assert_eq!(urls::detect(b"<!DOCTYPE NETSCAPE-Bookmark-file-1>\n"), None);
    assert_eq!(urls::detect(b"{\"a\": 1}"), None);
}

#[test]
fn the_writer_gives_the_same_form_and_reports_what_a_line_cannot_hold() {
    let mut doc = Document::new();
    let f = doc.push(None, Folder::titled("F"));
    let mut tagged = Bookmark::new("https://a/").with_title("A");
    tagged.tags = vec!["t".into()];
    doc.push(Some(f), tagged);
    doc.push(None, Bookmark::new("https://b/").with_title("|piped"));
    doc.push(None, Bookmark::new("https://c/"));
    doc.push(None, Bookmark::new("https://d/").with_title("two\nlines"));
    let mut out = Vec::new();
    let loss = urls::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        "https://a/ A\nhttps://b/ | |piped\nhttps://c/\nhttps://d/ two lines\n"
    );
    let fields = loss.fields();
    for f in [Field::Folder, Field::BookmarkTags, Field::BookmarkTitle] {
        assert!(fields.contains(&f), "{f} not in {loss}");
    }
    // The line break became a space: no bookmark more or less.
    assert!(!fields.contains(&Field::Bookmark), "{loss}");
    let back = urls::read(&out, &ReadOptions::default()).unwrap().document;
    assert_eq!(
        links(&back)[1],
        ("https://b/".into(), Some("|piped".into()))
    );
}
