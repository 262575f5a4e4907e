//! The public Firefox backups (Firefox 3.6 to 122, plain and .jsonlz4) read
//! with the counts an independent reader (Python's json module) finds, and
//! broken backups fail with where.

use std::process::Command;

use markport::{ErrorKind, ReadOptions};
use markport_tests::{shared, tool, walk};

/// (bookmarks, folders, separators) as Python counts them: livemarks are
/// bookmarks, the placesRoot and the tags root are not folders.
fn python_counts(path: &std::path::Path) -> (usize, usize, usize) {
    let script = r#"
import json, sys, struct
raw = open(sys.argv[1], 'rb').read()
if raw.startswith(b'mozLz40\0'):
    import subprocess
    raise SystemExit('lz4')
text = raw.decode('utf-8')
try:
    tree = json.loads(text)
except ValueError:
    tree = json.loads(text.replace(',]}', ']}'))
b = f = s = 0
stack = [(tree, True)]
while stack:
    n, top = stack.pop()
    t = n.get('type')
    live = n.get('livemark') or any(a.get('name') == 'livemark/feedURI' for a in n.get('annos') or [])
    if n.get('root') == 'tagsFolder':
        continue
    if t == 'text/x-moz-place' or (live and 'uri' not in n):
        b += 1
        continue
    if t == 'text/x-moz-place-separator':
        s += 1
        continue
    if not top:
        f += 1
    stack.extend((c, False) for c in n.get('children', []))
print(b, f, s)
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(path)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Vec<usize> = text
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(
        v.len(),
        3,
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    (v[0], v[1], v[2])
}

#[test]
fn every_public_firefox_backup_reads_with_the_counts_python_finds() {
    let Some(shared) = shared() else { return };
    if !tool("python3", "counts the peer backups independently") {
        return;
    }
    let ff = markport::format("firefox").unwrap();
    let files = walk(&shared.join("corpus/peers/browsers/firefox-json"));
    assert_eq!(files.len(), 9);
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        assert_eq!(
            markport::detect(&bytes).map(|f| f.name),
            Some("firefox"),
            "{}",
            f.display()
        );
        let parsed = markport::read_bytes(&bytes, ff, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let c = parsed.document.census();
        let got = (c.bookmarks, c.folders, c.separators);
        if bytes.starts_with(b"mozLz40\0") {
            // Python has no LZ4: the plain text markport decompressed is counted.
            let text = markport_firefox_text(&bytes);
            let tmp = std::env::temp_dir().join(format!("markport-ff-{}.json", std::process::id()));
            std::fs::write(&tmp, text).unwrap();
            assert_eq!(got, python_counts(&tmp), "{}", f.display());
            std::fs::remove_file(&tmp).ok();
        } else {
            assert_eq!(got, python_counts(&f), "{}", f.display());
        }
        let trailing = parsed
            .diagnostics
            .iter()
            .find(|d| d.message.contains("Firefox 3.x"));
        if f.to_string_lossy().contains("trailing-comma") {
            let d = trailing.expect("the trailing comma is warned about");
            let text = String::from_utf8_lossy(&bytes);
            let last = text.lines().count() as u32;
            assert_eq!(d.location.unwrap().line, last, "{d}");
        } else {
            assert!(trailing.is_none(), "{}", f.display());
        }
    }
}

/// The JSON inside a .jsonlz4, through markport's own decompressor.
fn markport_firefox_text(bytes: &[u8]) -> Vec<u8> {
    markport_firefox::lz4::decompress(bytes).unwrap()
}

#[test]
fn tags_keywords_and_descriptions_of_the_peers_are_read() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("corpus/peers/browsers/firefox-json");
    let doc = markport_tests::read_sample(
        "firefox",
        &dir.join("firefox86-2021-keyword-postdata.edwelker.json"),
    );
    // Its postData members are all null (no keyword there posts a form).
    let census = doc.census();
    for f in [
        markport::Field::BookmarkTags,
        markport::Field::BookmarkKeyword,
        markport::Field::BookmarkGuid,
        markport::Field::FolderRole,
    ] {
        assert!(census.has(f), "{f}");
    }
    let old =
        markport_tests::read_sample("firefox", &dir.join("firefox11-2012-livemarks.eddy.json"));
    assert!(old.census().has(markport::Field::BookmarkFeedUrl));
    assert!(old.census().has(markport::Field::BookmarkDesc));
}

#[test]
fn broken_backups_fail_with_where() {
    let ff = markport::format("firefox").unwrap();
    let read = |b: &[u8]| markport::read_bytes(b, ff, &ReadOptions::default());
    let good = br#"{"title":"","type":"text/x-moz-place-container","root":"placesRoot","children":[{"title":"a","type":"text/x-moz-place","uri":"https://a.example/"}]}"#;
    assert_eq!(read(good).unwrap().document.len(), 1);
    // Truncated anywhere: a syntax error at the end, never a panic.
    for cut in 1..good.len() {
        let e = read(&good[..cut]).unwrap_err();
        assert!(e.location.is_some(), "cut at {cut}: {e}");
    }
    // A .jsonlz4 whose size lies: refused by byte offset, nothing huge allocated.
    let mut lz = b"mozLz40\0".to_vec();
    lz.extend_from_slice(&u32::MAX.to_le_bytes());
    lz.extend_from_slice(&[0x10, b'x']);
    let e = read(&lz).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(e.message.contains("at byte 8"), "{e}");
    // A block that decodes past its declared size.
    let mut past = b"mozLz40\0".to_vec();
    past.extend_from_slice(&2u32.to_le_bytes());
    past.extend_from_slice(&[0x50, b'a', b'b', b'c', b'd', b'e']);
    let e = read(&past).unwrap_err();
    assert!(e.message.contains("at byte 12"), "{e}");
}

#[test]
fn a_hundred_thousand_deep_backup_reads_without_recursion() {
    let depth = 100_000;
    let mut s =
        String::from(r#"{"type":"text/x-moz-place-container","root":"placesRoot","children":["#);
    s.push_str(&r#"{"type":"text/x-moz-place-container","title":"f","children":["#.repeat(depth));
    s.push_str(&"]}".repeat(depth));
    s.push_str("]}");
    let doc = markport::read_bytes(
        s.as_bytes(),
        markport::format("firefox").unwrap(),
        &ReadOptions::default(),
    )
    .unwrap()
    .document;
    assert_eq!(doc.census().depth, depth);
}
