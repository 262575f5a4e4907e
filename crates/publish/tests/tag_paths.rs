//! A published site works from disk on every file system: crawled as
//! files (`file:` URLs, as a browser opens a site from disk), every local
//! link resolves without an encoded `/` (which Chromium refuses in `file:`
//! URLs and only some servers decode); no two paths of the site are one
//! path on a case-insensitive, normalising file system; every tag has a
//! page and its links read back as the exact tag wherever a tag can be a
//! file name, and are reported where it cannot.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use icu_normalizer::DecomposingNormalizerBorrowed;
use markport_model::{Bookmark, Document, Field, Folder, NodeId, ReadOptions};
use markport_publish::{build, publish, Options};
use url::Url;

const PORTABLE: &[&str] = &[
    "HTML",
    "html",
    "Html",
    "σοφία",
    "ςοφία",
    "Σοφία",
    "s",
    "ſ",
    "S",
    "café",
    "cafe\u{301}",
    "CAFÉ",
    "C++",
    "50%",
    "New York",
    "日本",
    "Straße",
    "STRASSE",
    "strasse",
    "index.html",
    "index",
    "tags",
    "a+b",
    "a%2Fb",
    "folder",
    "tag",
];
const NOT_NAMES: &[&str] = &[
    "a/b", "A/B", "via:me", "what?", "con", "trail.", ".", "..", "x\\y",
];

fn over_long() -> String {
    "long".repeat(100)
}

fn doc() -> (Document, HashMap<NodeId, String>) {
    let mut doc = Document::new();
    let mut by_id = HashMap::new();
    let long = over_long();
    let titles = [
        "Σίσυφος",
        "σίσυφος",
        "ΣΊΣΥΦΟΣ",
        "sun",
        "ſun",
        "SUN",
        "CON",
        "Straße",
        "STRASSE",
        "café",
        "cafe\u{301}",
        "Index",
        "folder",
        "tags",
    ];
    let mut n = 0;
    for (i, t) in titles.iter().enumerate() {
        let f = doc.push(None, Folder::titled(*t));
        for tag in PORTABLE
            .iter()
            .chain(NOT_NAMES)
            .copied()
            .chain([long.as_str()])
            .skip(i * 3)
            .take(3)
            .chain((i == 0).then_some(long.as_str()))
        {
            n += 1;
            let mut b =
                Bookmark::new(format!("https://example.org/{n}")).with_title(format!("b{n}"));
            b.tags = vec![tag.to_owned()];
            by_id.insert(doc.push(Some(f), b), tag.to_owned());
        }
    }
    // Every tag on one more bookmark at the top level.
    let f = doc.push(None, Folder::titled("All"));
    for tag in PORTABLE
        .iter()
        .chain(NOT_NAMES)
        .copied()
        .chain([long.as_str()])
    {
        n += 1;
        let mut b = Bookmark::new(format!("https://example.org/{n}")).with_title(format!("b{n}"));
        b.tags = vec![tag.to_owned()];
        by_id.insert(doc.push(Some(f), b), tag.to_owned());
    }
    (doc, by_id)
}

/// What a case-insensitive, normalising file system takes a name for:
/// NFD(fold(NFD(s))).
fn fold(s: &str) -> String {
    let nfd = |s: &str| {
        DecomposingNormalizerBorrowed::new_nfd()
            .normalize(s)
            .into_owned()
    };
    nfd(&unicase::UniCase::unicode(nfd(s)).to_folded_case())
}

/// Every file and directory under `dir`, relative, `/`-separated.
fn paths(dir: &Path) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_owned(), String::new())];
    while let Some((d, rel)) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            let rel = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let is_dir = e.file_type().unwrap().is_dir();
            if is_dir {
                stack.push((e.path(), rel.clone()));
            }
            out.push((rel, is_dir));
        }
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

fn attributes(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for (at, _) in html.match_indices(attr) {
            let rest = &html[at + attr.len()..];
            out.push(unescape(&rest[..rest.find('"').unwrap()]));
        }
    }
    out
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 3 <= b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn the_site_works_from_disk_on_every_file_system() {
    let (doc, tag_of) = doc();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("site");
    let site = build(&doc, &Options::default());
    publish(&site.files, &dir).unwrap();
    let dir = dir.canonicalize().unwrap();
    let all = paths(&dir);

    // No two paths are one on a case-insensitive, normalising file system.
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for (p, _) in &all {
        if let Some(other) = seen.insert(fold(p), p) {
            panic!("{p:?} and {other:?} are one path on macOS and Windows");
        }
    }

    // Every local link of every page resolves as a file: URL.
    let mut tag_pages: BTreeMap<String, String> = BTreeMap::new();
    let mut read_back: HashMap<String, Vec<String>> = HashMap::new();
    for (p, is_dir) in &all {
        if *is_dir || !p.ends_with(".html") {
            continue;
        }
        let file = dir.join(p);
        let html = std::fs::read_to_string(&file).unwrap();
        let base = Url::from_file_path(&file).unwrap();
        for link in attributes(&html) {
            let u = base.join(&link).unwrap();
            if u.scheme() != "file" {
                continue;
            }
            for seg in u.path_segments().unwrap() {
                let decoded = percent_decode(seg);
                assert!(
                    !decoded.contains(['/', '\\']),
                    "{link:?} on {p} has an encoded slash: browsers do not open it from disk"
                );
            }
            let mut target = u.to_file_path().unwrap();
            if u.path().ends_with('/') {
                target.push("index.html");
            }
            assert!(target.is_file(), "{link:?} on {p} leads to nothing");
        }
        if let Some(h1) = html.split("<h1>Tag: ").nth(1) {
            let tag = unescape(&h1[..h1.find("</h1>").unwrap()]);
            assert!(
                tag_pages.insert(tag, p.clone()).is_none(),
                "two pages of one tag"
            );
        }
        if p.starts_with("f/") {
            let read = markport_xfolk::read(html.as_bytes(), &ReadOptions::default())
                .unwrap()
                .document;
            for id in read.preorder() {
                if let Some(b) = read.node(id).as_bookmark() {
                    read_back.insert(b.href.clone(), b.tags.clone());
                }
            }
        }
    }

    // Every tag has its page; a tag that can be a file name reads back
    // exactly, one that cannot is reported on each bookmark that has it.
    let mut unexact = 0;
    for (id, tag) in &tag_of {
        assert!(tag_pages.contains_key(tag), "no page for {tag:?}");
        let b = doc.node(*id).as_bookmark().unwrap();
        let read = &read_back[&b.href];
        if PORTABLE.contains(&tag.as_str()) {
            assert_eq!(read, &b.tags, "{tag:?} does not read back");
        } else {
            assert_ne!(read, &b.tags);
            unexact += 1;
        }
    }
    let reported = site
        .loss
        .losses
        .iter()
        .find(|l| l.field == Field::BookmarkTags && l.reason.contains("cannot be a file name"))
        .map_or(0, |l| l.count);
    assert_eq!(reported, unexact, "{:?}", site.loss.losses);
    assert_eq!(tag_pages.len(), PORTABLE.len() + NOT_NAMES.len() + 1);
}
