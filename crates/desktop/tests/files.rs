//! Desktop-bookmark files as GNOME and KDE keep them.

use markport_model::{ReadOptions, WriteOptions};

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus/desktop")
            .join(name),
    )
    .unwrap()
}

#[test]
fn a_glib_layout_file_comes_back_byte_identical() {
    let bytes = corpus("recently-used.xbel");
    let doc = markport_desktop::read(&bytes, &ReadOptions::default())
        .unwrap()
        .document;
    let mut out = Vec::new();
    let loss = markport_desktop::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert!(loss.is_empty(), "{loss:?}");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        String::from_utf8(bytes).unwrap()
    );
}

#[test]
fn exec_lines_expand_to_the_exact_path_bytes() {
    let doc = markport_desktop::read(&corpus("recently-used.xbel"), &ReadOptions::default())
        .unwrap()
        .document;
    let b = doc.node(doc.children(None)[1]).as_bookmark().unwrap();
    let line =
        markport_desktop::spec::expand_exec(&b.details().desktop().applications[0].exec, &b.href)
            .unwrap();
    assert_eq!(line, b"eog /home/ana/Pictures/caf\xe9-latin1.png");
    let diary = doc.node(doc.children(None)[2]).as_bookmark().unwrap();
    assert!(!markport_desktop::spec::visible_to(
        diary,
        Some("Files"),
        &[]
    ));
    assert!(markport_desktop::spec::visible_to(
        diary,
        Some("Text Editor"),
        &[]
    ));
}

#[test]
fn kde_places_keep_their_bookmarks_and_say_what_was_ignored() {
    let read = markport_desktop::read(&corpus("kde-places.xbel"), &ReadOptions::default()).unwrap();
    assert_eq!(read.document.census().bookmarks, 2);
    assert_eq!(read.document.census().folders, 0);
    assert!(read
        .diagnostics
        .iter()
        .any(|d| d.message.contains("folder(s) ignored")));
    let home = read
        .document
        .node(read.document.children(None)[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(
        home.details()
            .desktop()
            .desktop_icon
            .as_ref()
            .and_then(|i| i.name.as_deref()),
        Some("user-home")
    );
    // GLib needs an icon href: writing reports the icon, and the missing MIME type.
    let mut out = Vec::new();
    let loss = markport_desktop::write(&read.document, &WriteOptions::default(), &mut out).unwrap();
    let lost: Vec<&str> = loss.fields().iter().map(|f| f.name()).collect();
    assert_eq!(
        lost,
        [
            "bookmark.mime-type",
            "bookmark.applications",
            "bookmark.desktop-icon"
        ]
    );
}

#[test]
fn a_missing_exec_takes_the_specs_default() {
    let input = br#"<?xml version="1.0"?>
<xbel version="1.0" xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks">
<bookmark href="file:///a"><info><metadata owner="http://freedesktop.org">
<bookmark:applications><bookmark:application name="gimp" count="2"/></bookmark:applications>
</metadata></info></bookmark></xbel>"#;
    let read = markport_desktop::read(input, &ReadOptions::default()).unwrap();
    let b = read
        .document
        .node(read.document.children(None)[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(b.details().desktop().applications[0].exec, "gimp %u");
    assert!(read
        .diagnostics
        .iter()
        .any(|d| d.message.contains("has no exec") && d.location.is_some()));
}

/// Control characters go out as GLib writes them (`&#x1;`) and come back;
/// only what XML cannot keep (CR in text, NUL) is reported lost.
#[test]
fn control_characters_are_written_as_glib_writes_them() {
    use markport_model::{Application, Bookmark, Document, Field};
    let registered = |mut b: Bookmark| {
        b.details_mut().desktop_mut().mime_type = Some("text/plain".into());
        let mut app = Application::new("gedit", "gedit %u");
        app.count = Some(1);
        b.details_mut().desktop_mut().applications.push(app);
        b
    };
    let mut doc = Document::new();
    let mut b =
        Bookmark::new("file:///tmp/a.txt").with_title("bell\u{7} del\u{7f} c1\u{86} nel\u{85}");
    b.desc = Some("tab\there".into());
    doc.push(None, registered(b));
    let mut out = Vec::new();
    let loss = markport_desktop::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert!(loss.is_empty(), "{loss:?}");
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(
        text.contains("<title>bell&#x7; del&#x7f; c1&#x86; nel\u{85}</title>"),
        "{text}"
    );
    let back = markport_desktop::read(&out, &ReadOptions::default())
        .unwrap()
        .document;
    let b = back.node(back.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(
        b.title.as_deref(),
        Some("bell\u{7} del\u{7f} c1\u{86} nel\u{85}")
    );
    assert_eq!(b.desc.as_deref(), Some("tab\there"));

    let mut doc = Document::new();
    doc.push(
        None,
        Bookmark::new("file:///tmp/b.txt").with_title("cr\r nul\0"),
    );
    let loss = markport_desktop::write(&doc, &WriteOptions::default(), &mut Vec::new()).unwrap();
    assert!(loss.fields().contains(&Field::BookmarkTitle), "{loss:?}");
    let mut out = Vec::new();
    markport_desktop::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert!(
        !out.contains(&0),
        "NUL is left out, not written into the XML"
    );
}
