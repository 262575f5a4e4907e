//! markport's Netscape output imported by a real Firefox (through the
//! project's own driver, tests/peers/firefox_bookmarks.py: HTML import, then
//! Firefox's own JSON backup read back by markport): each bookmark, found by
//! its link, keeps what Firefox keeps. The fields Firefox drops or changes
//! are the table in docs/formats/firefox.md; this test measures them.
//! Runs under CI=true; elsewhere skips when Firefox is missing.

mod firefox_driver;

use std::collections::{BTreeMap, HashMap};

use markport::{Bookmark, Document, Field, Node, ReadOptions, WriteOptions};
use markport_tests::root;

fn bookmarks(doc: &Document) -> Vec<&Bookmark> {
    doc.ids()
        .filter_map(|id| match doc.node(id) {
            Node::Bookmark(b) => Some(b),
            _ => None,
        })
        .collect()
}

/// The fields compared.
const CHECKED: &[Field] = &[
    Field::BookmarkTitle,
    Field::BookmarkDesc,
    Field::BookmarkAdded,
    Field::BookmarkModified,
    Field::BookmarkTags,
    Field::BookmarkKeyword,
    Field::BookmarkPostData,
    Field::BookmarkCharset,
    Field::BookmarkFavicon,
    Field::BookmarkFaviconUri,
    Field::BookmarkFeedUrl,
];

/// The fields of `a` that `b` holds differently (dates to the second, as
/// Netscape HTML carries them).
fn differing(a: &Bookmark, b: &Bookmark) -> Vec<Field> {
    let secs = |d: &Option<markport::model::DateValue>| {
        d.as_ref()
            .and_then(|d| d.instant())
            .map(|t| t.unix_seconds())
    };
    let (x, y) = (a.details(), b.details());
    let mut out = Vec::new();
    let mut check = |f: Field, same: bool| {
        if !same {
            out.push(f);
        }
    };
    check(
        Field::BookmarkTitle,
        a.title.as_deref().unwrap_or("") == b.title.as_deref().unwrap_or(""),
    );
    check(Field::BookmarkDesc, a.desc == b.desc);
    check(Field::BookmarkAdded, secs(&a.added) == secs(&b.added));
    check(
        Field::BookmarkModified,
        a.modified.is_none() || secs(&a.modified) == secs(&b.modified),
    );
    // Firefox lists tags sorted: only the set counts.
    let sorted = |t: &[String]| {
        let mut t = t.to_vec();
        t.sort();
        t
    };
    check(Field::BookmarkTags, sorted(&a.tags) == sorted(&b.tags));
    check(
        Field::BookmarkKeyword,
        x.firefox().keyword == y.firefox().keyword,
    );
    check(
        Field::BookmarkPostData,
        x.firefox().post_data == y.firefox().post_data,
    );
    check(
        Field::BookmarkCharset,
        x.firefox().charset == y.firefox().charset,
    );
    check(Field::BookmarkFavicon, a.favicon.is_none());
    check(Field::BookmarkFaviconUri, x.favicon_uri == y.favicon_uri);
    check(
        Field::BookmarkFeedUrl,
        x.firefox().feed_url == y.firefox().feed_url,
    );
    out
}

#[test]
fn firefox_keeps_of_markports_netscape_output_what_the_docs_say() {
    if !firefox_driver::available("imports markport's Netscape output") {
        return;
    }
    let samples = [
        ("netscape", "netscape/firefox.html"),
        ("netscape", "netscape/chrome.html"),
        ("netscape", "netscape/pinboard.html"),
        ("firefox", "firefox/firefox3-annos-tags.json"),
        ("firefox", "firefox/firefox122-roots.json"),
    ];
    let netscape = markport::format("netscape").unwrap();
    let ff = markport::format("firefox").unwrap();
    let dir = std::env::temp_dir().join(format!("markport-ff-ns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // field -> (bookmarks that had it, of which Firefox changed)
    let mut measured: BTreeMap<Field, (usize, usize)> = BTreeMap::new();
    let mut missing = Vec::new();
    for (format, sample) in samples {
        let doc = markport_tests::read_sample(format, &root().join("corpus").join(sample));
        let (html, _) = markport::write_to_vec(&doc, netscape, &WriteOptions::default()).unwrap();
        // What Firefox sees is what markport's HTML says.
        let ours = markport::read_bytes(&html, netscape, &ReadOptions::default())
            .unwrap()
            .document;
        let (input, json) = (dir.join("in.html"), dir.join("out.json"));
        std::fs::write(&input, &html).unwrap();
        firefox_driver::drive(&[input.as_os_str(), "--json".as_ref(), json.as_os_str()]);
        let theirs =
            markport::read_bytes(&std::fs::read(&json).unwrap(), ff, &ReadOptions::default())
                .unwrap()
                .document;
        let mut by_href: HashMap<&str, Vec<&Bookmark>> = HashMap::new();
        for b in bookmarks(&theirs) {
            by_href.entry(b.href.as_str()).or_default().push(b);
        }
        for a in bookmarks(&ours) {
            let Some(b) = by_href
                .get_mut(a.href.as_str())
                .and_then(|v| (!v.is_empty()).then(|| v.remove(0)))
            else {
                missing.push(format!("{sample}: {}", a.href));
                continue;
            };
            let changed = differing(a, b);
            for f in markport::model::bookmark_fields(a).filter(|f| CHECKED.contains(f)) {
                let e = measured.entry(f).or_default();
                e.0 += 1;
                if changed.contains(&f) {
                    e.1 += 1;
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    for (f, (had, changed)) in &measured {
        eprintln!("| {f} | {had} | {changed} |");
    }
    // Measured with firefox-esr 153 (docs/formats/firefox.md).
    let dropped = [
        Field::BookmarkDesc,
        Field::BookmarkFavicon,
        Field::BookmarkFaviconUri,
        Field::BookmarkFeedUrl,
        Field::BookmarkCharset,
    ];
    let mut failures = missing;
    for (f, (had, changed)) in measured {
        let expect_changed = dropped.contains(&f);
        if expect_changed && changed == 0 {
            failures.push(format!(
                "{f}: Firefox now keeps it ({had} bookmarks): update the docs"
            ));
        }
        if !expect_changed && changed > 0 {
            failures.push(format!("{f}: Firefox changed {changed} of {had}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
