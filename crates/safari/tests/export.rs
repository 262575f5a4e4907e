//! Safari's exported ZIP: `Bookmarks.html` read as Netscape, the Reading
//! List as its role; archives that are not the export, or are hostile,
//! are refused with the entry named.

use std::io::Write;

use markport_model::{ErrorKind, ReadOptions, Role};
use zip::write::SimpleFileOptions;

/// Bookmarks.html as Safari writes it: top-level folders outside any list,
/// the Reading List marked by its id.
const HTML: &str = "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n\t<HTML>\n\t<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n\t<Title>Bookmarks</Title>\n\t<H1>Bookmarks</H1>\n\t<DT><H3 FOLDED>Favourites</H3>\n\t<DL><p>\n\t\t<DT><A HREF=\"https://www.apple.com/\">Apple</A>\n\t\t<DT><A HREF=\"https://www.rust-lang.org/\">Rust</A>\n\t</DL><p>\n\t<DT><H3 FOLDED id=\"com.apple.ReadingList\">Reading List</H3>\n\t<DL><p>\n\t\t<DT><A HREF=\"https://blog.rust-lang.org/\">Rust Blog</A>\n\t</DL><p>\n</HTML>\n";

fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        z.start_file(*name, SimpleFileOptions::default()).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap().into_inner()
}

#[test]
fn the_export_reads_its_bookmarks_and_the_reading_list() {
    let bytes = zip(&[
        ("History.json", b"{\"history\": []}"),
        ("Bookmarks.html", HTML.as_bytes()),
        ("Extensions.json", b"{}"),
    ]);
    assert!(markport_safari::detect(&bytes).is_some());
    let doc = markport_safari::read(&bytes, &ReadOptions::default())
        .unwrap()
        .document;
    // Counted in the HTML itself: one <A per bookmark, one <H3 per folder.
    assert_eq!(doc.census().bookmarks, HTML.matches("<A HREF").count());
    assert_eq!(doc.census().folders, HTML.matches("<H3").count());
    let list = doc.children(None)[1];
    let f = doc.node(list).as_folder().unwrap();
    assert_eq!(f.role, Some(Role::ReadingList));
    let item = doc.node(doc.children(Some(list))[0]).as_bookmark().unwrap();
    assert_eq!(item.href, "https://blog.rust-lang.org/");
}

#[test]
fn the_export_in_a_folder_of_the_zip_reads_too() {
    let bytes = zip(&[("Safari Export/Bookmarks.html", HTML.as_bytes())]);
    let doc = markport_safari::read(&bytes, &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().bookmarks, 3);
}

#[test]
fn a_zip_without_bookmarks_html_is_not_the_export() {
    let bytes = zip(&[("part_000000.csv", b"title,url\n")]);
    assert!(markport_safari::detect(&bytes).is_none());
    let err = markport_safari::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    assert!(err.message.contains("part_000000.csv"), "{err}");
}

#[test]
fn an_entry_that_climbs_out_is_refused_with_its_name() {
    let bytes = zip(&[("../Bookmarks.html", HTML.as_bytes())]);
    let err = markport_safari::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsafe);
    assert!(err.message.contains("../Bookmarks.html"), "{err}");
}

#[test]
fn a_bomb_is_refused_with_its_name() {
    // 64 MB of one byte deflates to about 64 KB: a ratio of 1000.
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated =
        SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    z.start_file("Bookmarks.html", deflated).unwrap();
    let block = vec![b'a'; 1 << 20];
    for _ in 0..64 {
        z.write_all(&block).unwrap();
    }
    let bytes = z.finish().unwrap().into_inner();
    let err = markport_safari::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsafe);
    assert!(err.message.contains("Bookmarks.html"), "{err}");
}

/// The export is known by its entries, whatever their compression: stored
/// entries lie in the archive as plain text, so a ZIP whose history merely
/// mentions `Bookmarks.html` is not the export, and one that holds it
/// stored is.
#[test]
fn the_export_is_known_by_its_entries_stored_or_deflated() {
    use zip::CompressionMethod::{Deflated, Stored};
    let build = |method, entries: &[(&str, &[u8])]| {
        let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, bytes) in entries {
            z.start_file(
                *name,
                SimpleFileOptions::default().compression_method(method),
            )
            .unwrap();
            z.write_all(bytes).unwrap();
        }
        z.finish().unwrap().into_inner()
    };
    for method in [Stored, Deflated] {
        let export = build(
            method,
            &[
                ("History.json", b"{\"history\": []}"),
                ("Bookmarks.html", HTML.as_bytes()),
            ],
        );
        assert_eq!(markport_safari::detect(&export), Some(95), "{method:?}");
        let doc = markport_safari::read(&export, &ReadOptions::default())
            .unwrap()
            .document;
        assert_eq!(doc.census().bookmarks, 3, "{method:?}");
        let other = build(
            method,
            &[("History.json", b"{\"title\": \"Bookmarks.html\"}")],
        );
        assert_eq!(markport_safari::detect(&other), None, "{method:?}");
    }
}
