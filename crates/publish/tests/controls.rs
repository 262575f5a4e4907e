//! DEL (U+007F) and the C1 controls (U+0080–U+009F, U+0085 a line break in
//! some programs) never reach a published page, the feed or the search
//! index; the report names each field that held one.

use std::path::Path;

use markport_model::{Bookmark, DateValue, Document, Field, Folder, Timestamp, WriteOptions};
use markport_publish::{build, publish, Options};

const TITLE: &str = "del\u{7f} nel\u{85} csi\u{9b}2J";
const DESC: &str = "a description\u{7f} with\u{85} controls";

fn doc() -> Document {
    let mut doc = Document::new();
    let mut folder = Folder::titled("Folder\u{85}name");
    folder.desc = Some("folder\u{7f}note".into());
    let f = doc.push(None, folder);
    let mut b = Bookmark::new("https://a.example/").with_title(TITLE);
    b.desc = Some(DESC.into());
    b.tags = vec!["t".into()];
    b.added = Timestamp::from_unix_seconds(1_700_000_000).map(DateValue::Instant);
    doc.push(Some(f), b);
    doc
}

/// No byte of DEL and no C1 control (UTF-8 `C2 80`..`C2 9F`) in `bytes`.
fn clean(what: &str, bytes: &[u8]) {
    assert!(!bytes.contains(&0x7f), "{what} holds DEL");
    assert!(
        !bytes
            .windows(2)
            .any(|w| w[0] == 0xc2 && (0x80..=0x9f).contains(&w[1])),
        "{what} holds a C1 control"
    );
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out
}

#[test]
fn del_and_c1_controls_are_left_out_of_pages_and_reported() {
    let doc = doc();
    // --to xfolk
    let mut page = Vec::new();
    let loss = markport_xfolk::write(&doc, &WriteOptions::default(), &mut page).unwrap();
    clean("--to xfolk", &page);
    let text = String::from_utf8(page).unwrap();
    assert!(text.contains("del nel csi2J"), "{text}");
    for field in [
        Field::BookmarkTitle,
        Field::BookmarkDesc,
        Field::FolderTitle,
        Field::FolderDesc,
    ] {
        assert!(
            loss.losses
                .iter()
                .any(|l| l.field == field && l.reason.contains("control characters")),
            "--to xfolk does not report {field}: {loss}"
        );
    }
    // What reads back is the value without them, as reported.
    let back = markport_xfolk::read(text.as_bytes(), &Default::default())
        .unwrap()
        .document;
    let titles: Vec<_> = back
        .preorder()
        .filter_map(|id| back.node(id).as_bookmark())
        .filter_map(|b| b.title.clone())
        .collect();
    assert_eq!(titles, ["del nel csi2J"]);

    // publish: every page, the feed and the search index.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("site");
    let site = build(&doc, &Options::default());
    publish(&site.files, &dir).unwrap();
    let written = files(&dir);
    assert!(written.len() > 3);
    for (name, bytes) in &written {
        clean(name, bytes);
    }
    assert!(
        written
            .iter()
            .any(|(_, b)| String::from_utf8_lossy(b).contains("del nel csi2J")),
        "the title is published without them"
    );
    for field in [Field::BookmarkTitle, Field::BookmarkDesc] {
        assert!(
            site.loss.losses.iter().any(|l| l.field == field),
            "publish does not report {field}: {}",
            site.loss
        );
    }
}
