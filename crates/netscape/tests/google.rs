//! Google Bookmarks' export: one bookmark per link with its labels as
//! tags, while the plain Netscape reader still sees a folder per label; a
//! link under very many labels stays linear.

use std::path::PathBuf;

use markport_model::{Node, ReadOptions};
use markport_netscape::google;

fn sample() -> Vec<u8> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/google/GoogleBookmarks.html");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_sample_is_google_and_reads_once_per_link() {
    let page = sample();
    assert!(google::detect(&page) > markport_netscape::detect(&page));
    let doc = google::read(&page, &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().folders, 0);
    let tags: Vec<(&str, Vec<&str>)> = doc
        .children(None)
        .iter()
        .map(|&id| {
            let b = doc.node(id).as_bookmark().unwrap();
            (b.href.as_str(), b.tags.iter().map(String::as_str).collect())
        })
        .collect();
    assert_eq!(
        tags,
        [
            ("https://www.rust-lang.org/", vec!["programming", "rust"]),
            (
                "https://docs.python.org/3/",
                vec!["programming", "café & food"]
            ),
            ("https://example.org/caf%C3%A9?a=1&b=2", vec!["café & food"]),
            ("https://lwn.net/", vec![]),
        ]
    );
    // Read plainly, each label is a folder and each listing a bookmark.
    let plain = markport_netscape::read(&page, &ReadOptions::default())
        .unwrap()
        .document;
    let census = plain.census();
    assert_eq!((census.folders, census.bookmarks), (4, 6));
    assert!(plain.ids().any(
        |id| matches!(plain.node(id), Node::Folder(f) if f.title.as_deref() == Some("Unlabeled"))
    ));
}

/// One link under 20,000 labels: one bookmark with 20,000 tags, each label
/// looked up once (a search of the bookmark's tags per listing would be
/// quadratic).
#[test]
fn a_link_under_many_labels_is_one_bookmark() {
    let mut page = b"<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n".to_vec();
    for i in 0..20_000 {
        page.extend(
            format!("<DT><H3 ADD_DATE=\"1316018418437000\">label {i}</H3>\n<DL><p><DT><A HREF=\"https://a/\" ADD_DATE=\"1316018418437000\">A</A>\n</DL><p>\n")
                .as_bytes(),
        );
    }
    page.extend(b"</DL><p>\n");
    let parsed = google::read(&page, &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    assert_eq!(doc.len(), 1);
    assert_eq!(
        doc.node(doc.children(None)[0])
            .as_bookmark()
            .unwrap()
            .tags
            .len(),
        20_000
    );
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.message.contains("20000 listings")));
}
