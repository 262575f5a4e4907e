//! `markport publish`, crawled: every public bookmark of the input is on
//! exactly one folder page and on the page of each of its tags, every local
//! link resolves to a file of the site, nothing private is anywhere in the
//! directory, the feed parses (feedparser), and the folder pages read the
//! same in HTML::Microformats, mf2py and markport's own xFolk reader.
//! Re-publishing is byte-identical; a foreign directory is refused; each
//! step of the swap leaves a whole site.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

use markport::model::{Bookmark, DateValue, Document, Folder, Node, Timestamp};
use markport::ReadOptions;
use markport_publish::{build, publish, stage, Options, MANIFEST};
use markport_tests::{mf2py_entries, root, tool, walk, xfolk_peer_entries};
use serde_json::Value;

const SECRET: &str = "private-secret.example";

/// Folders three deep, tags with spaces, non-ASCII, `+`, `/` and `%`,
/// private bookmarks, script and browser-only links, and a folder big
/// enough to be split into pages.
fn generated() -> Document {
    let mut doc = Document::new();
    doc.header.title = Some("Generated <collection>".into());
    doc.header.desc = Some("A collection made by a test.".into());
    let tags = ["rust", "New York", "café", "C++", "a/b", "50%", "日本"];
    let mut n = 0;
    for top in 0..3 {
        let t = doc.push(None, Folder::titled(format!("Top {top} & co")));
        for sub in 0..3 {
            let s = doc.push(Some(t), Folder::titled(format!("Sub {sub}")));
            let deep = doc.push(Some(s), Folder::titled("Deep"));
            for parent in [t, s, deep] {
                for _ in 0..(if top == 0 && sub == 0 { 9 } else { 2 }) {
                    n += 1;
                    let mut b = Bookmark::new(format!("https://example.org/{n}?a=1&b=<2>"))
                        .with_title(format!("Bookmark {n} <b>"));
                    b.tags = vec![
                        tags[n % tags.len()].into(),
                        tags[(n * 3) % tags.len()].into(),
                    ];
                    b.tags.dedup();
                    b.added = Timestamp::from_unix_seconds(1_600_000_000 + n as i64 * 3600)
                        .map(DateValue::Instant);
                    b.desc = (n % 4 == 0).then(|| format!("Why {n} matters"));
                    doc.push(Some(parent), b);
                }
            }
            let mut p = Bookmark::new(format!("https://{SECRET}/{top}/{sub}"));
            p.private = Some(true);
            p.tags = vec!["rust".into(), "secret-tag".into()];
            doc.push(Some(s), p);
        }
    }
    doc.push(
        None,
        Bookmark::new("javascript:alert(1)").with_title("script"),
    );
    doc.push(
        None,
        Bookmark::new("https://top.example/").with_title("At the top"),
    );
    doc
}

fn corpus(name: &str) -> Document {
    let bytes = std::fs::read(root().join("corpus").join(name)).unwrap();
    markport::read_bytes(
        &bytes,
        markport::format("netscape").unwrap(),
        &ReadOptions::default(),
    )
    .unwrap()
    .document
}

fn site_dir(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    (tmp, dir)
}

fn rel(dir: &Path, p: &Path) -> String {
    p.strip_prefix(dir)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

fn entries_of(page: &[u8]) -> Vec<Bookmark> {
    let doc = markport::read_bytes(
        page,
        markport::format("xfolk").unwrap(),
        &ReadOptions::default(),
    )
    .unwrap()
    .document;
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark().cloned())
        .collect()
}

fn public(doc: &Document) -> Vec<Bookmark> {
    doc.preorder()
        .filter_map(|id| match doc.node(id) {
            Node::Bookmark(b) if markport::xfolk::entry::is_published(b, &Default::default()) => {
                Some(b.clone())
            }
            _ => None,
        })
        .collect()
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
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

/// Text as the pages escape it, unescaped.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Every `href="..."` and `src="..."` of a page, unescaped.
fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for (at, _) in html.match_indices(attr) {
            let rest = &html[at + attr.len()..];
            let end = rest.find('"').unwrap();
            out.push(unescape(&rest[..end]));
        }
    }
    out
}

/// Crawl a published site and check what the issue promises.
fn crawl(doc: &Document, dir: &Path) {
    let files: Vec<String> = walk(dir).iter().map(|p| rel(dir, p)).collect();
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join(MANIFEST)).unwrap()).unwrap();
    let mut listed: Vec<String> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_owned())
        .collect();
    listed.push(MANIFEST.into());
    listed.sort();
    assert_eq!(listed, files, "the manifest lists exactly the site's files");
    for f in &files {
        let text = std::fs::read(dir.join(f)).unwrap();
        assert!(
            !String::from_utf8_lossy(&text).contains(SECRET)
                && !String::from_utf8_lossy(&text).contains("secret-tag"),
            "{f} holds a private bookmark"
        );
    }
    let want = public(doc);
    assert!(!want.is_empty());
    let mut on_folder_pages: HashMap<String, usize> = HashMap::new();
    let mut on_tag_pages: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| f.ends_with(".html")) {
        let html = std::fs::read_to_string(dir.join(f)).unwrap();
        let entries = entries_of(html.as_bytes());
        if f.starts_with("f/") {
            for e in &entries {
                *on_folder_pages.entry(e.href.clone()).or_default() += 1;
            }
        } else if f.starts_with("tags/") && f != "tags/index.html" {
            // The tag a page is of, from its heading (its directory is a
            // slug, docs/publishing.md).
            let h1 = html.split("<h1>Tag: ").nth(1).unwrap();
            let tag = unescape(&h1[..h1.find("</h1>").unwrap()]);
            for e in &entries {
                assert!(
                    want.iter()
                        .any(|b| b.href == e.href && b.tags.contains(&tag)),
                    "{} on the page of {tag}",
                    e.href
                );
                on_tag_pages
                    .entry(tag.clone())
                    .or_default()
                    .push(e.href.clone());
            }
        }
        // Every local link resolves to a file of the site.
        let here = Path::new(f).parent().unwrap().to_path_buf();
        for link in links(&html) {
            if link.contains(':') || link.starts_with('#') {
                continue;
            }
            let path = link.split(['#', '?']).next().unwrap();
            let mut target = here.clone();
            for part in percent_decode(path).split('/') {
                match part {
                    "" | "." => {}
                    ".." => assert!(target.pop(), "{link} on {f} leaves the site"),
                    p => target.push(p),
                }
            }
            if path.ends_with('/') {
                target.push("index.html");
            }
            let target = target.to_string_lossy().replace('\\', "/");
            assert!(
                files.contains(&target),
                "{link} on {f} leads to {target}, not a file of the site"
            );
        }
    }
    let mut by_href: HashMap<&str, usize> = HashMap::new();
    for b in &want {
        *by_href.entry(&b.href).or_default() += 1;
    }
    for (href, n) in &by_href {
        assert_eq!(
            on_folder_pages.get(*href),
            Some(n),
            "{href}: on exactly one folder page"
        );
    }
    assert_eq!(
        on_folder_pages.len(),
        by_href.len(),
        "nothing else on folder pages"
    );
    for b in &want {
        for t in &b.tags {
            assert!(
                on_tag_pages.get(t).is_some_and(|l| l.contains(&b.href)),
                "{} missing from the page of tag {t:?}",
                b.href
            );
        }
    }
}

#[test]
fn a_generated_collection_crawls_whole() {
    let doc = generated();
    let (_tmp, dir) = site_dir("site");
    let opts = Options {
        page_size: 4,
        ..Options::default()
    };
    let site = build(&doc, &opts);
    publish(&site.files, &dir).unwrap();
    crawl(&doc, &dir);
    // The big folder was split, with links both ways.
    let second = std::fs::read_to_string(dir.join("f/top-0-co-2.html")).unwrap();
    assert!(second.contains("rel=\"prev\" href=\"top-0-co.html\""));
    assert!(second.contains("rel=\"next\" href=\"top-0-co-3.html\""));
    // A tag is its own directory's name, inside a directory of its slug;
    // one that cannot be a file name everywhere has its page in the slug's.
    assert!(dir.join("tags/new-york/New York/index.html").is_file());
    assert!(dir.join("tags/a-b/index.html").is_file());
    // What was withheld is reported.
    let withheld: Vec<String> = site.loss.losses.iter().map(|l| l.reason.clone()).collect();
    assert!(
        withheld.iter().any(|r| r.starts_with("private")),
        "{withheld:?}"
    );
    assert!(
        withheld.iter().any(|r| r.contains("javascript:")),
        "{withheld:?}"
    );
}

#[test]
fn corpus_files_crawl_whole() {
    for name in [
        "netscape/firefox.html",
        "netscape/pinboard.html",
        "netscape/chrome.html",
    ] {
        let doc = corpus(name);
        let (_tmp, dir) = site_dir("site");
        publish(&build(&doc, &Options::default()).files, &dir).unwrap();
        crawl(&doc, &dir);
    }
}

#[test]
fn republishing_the_same_input_writes_the_same_bytes() {
    let doc = generated();
    let (_tmp, dir) = site_dir("out");
    let read_all = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        walk(dir)
            .iter()
            .map(|p| (rel(dir, p), std::fs::read(p).unwrap()))
            .collect()
    };
    publish(&build(&doc, &Options::default()).files, &dir).unwrap();
    let first = read_all(&dir);
    publish(&build(&doc, &Options::default()).files, &dir).unwrap();
    assert_eq!(read_all(&dir), first);
    // Nothing is left beside it but its lock file.
    let mut siblings: Vec<String> = std::fs::read_dir(dir.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    siblings.sort();
    assert_eq!(siblings, ["out", "out.markport-lock"]);
}

#[test]
fn a_directory_markport_did_not_write_is_refused() {
    let doc = generated();
    let files = build(&doc, &Options::default()).files;
    let (_tmp, dir) = site_dir("mine");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let e = publish(&files, &dir).unwrap_err();
    assert!(e.message.contains("no .markport-publish.json"), "{e}");
    assert_eq!(std::fs::read(dir.join("notes.txt")).unwrap(), b"mine");
    // A published site with a file added later is refused too.
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    publish(&files, &dir).unwrap();
    std::fs::write(dir.join("f/extra.html"), "mine").unwrap();
    let e = publish(&files, &dir).unwrap_err();
    assert!(e.message.contains("did not write (f/extra.html)"), "{e}");
    assert!(dir.join("f/extra.html").is_file());
    // An empty directory is taken.
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir(&dir).unwrap();
    publish(&files, &dir).unwrap();
    assert!(dir.join("index.html").is_file());
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_refused() {
    let (tmp, dir) = site_dir("link");
    std::fs::create_dir(tmp.path().join("real")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("real"), &dir).unwrap();
    let e = publish(&build(&generated(), &Options::default()).files, &dir).unwrap_err();
    assert!(e.message.contains("symbolic link"), "{e}");
}

#[test]
fn each_step_of_the_swap_leaves_a_whole_site() {
    let (_tmp, dir) = site_dir("site");
    let mut old_doc = generated();
    old_doc.header.title = Some("Old".into());
    let old = build(&old_doc, &Options::default()).files;
    let new = build(&generated(), &Options::default()).files;
    publish(&old, &dir).unwrap();
    let whole = |files: &[markport_publish::File]| {
        files
            .iter()
            .all(|f| std::fs::read(dir.join(&f.path)).ok().as_deref() == Some(&f.bytes[..]))
    };
    assert!(whole(&old));
    // Given up after staging: the old site is whole, and the staged one
    // goes when dropped (what `kill -9` leaves, the next publish removes:
    // markport-files' tests).
    let staged = stage(&new, &dir).unwrap();
    assert!(whole(&old));
    let leftover = staged.path().to_owned();
    assert!(leftover.is_dir());
    drop(staged);
    assert!(!leftover.exists());
    assert!(whole(&old));
    // Given up after the swap, before the old site is removed: the new
    // site is whole, and the old one goes when dropped.
    let replaced = stage(&new, &dir).unwrap().swap().unwrap();
    assert!(whole(&new));
    let old_copy = replaced.path().unwrap().to_owned();
    assert!(old_copy.join("index.html").is_file());
    drop(replaced);
    assert!(!old_copy.exists());
    publish(&new, &dir).unwrap();
    assert!(whole(&new));
}

#[test]
fn the_feed_parses_with_feedparser() {
    if !tool("python3", "feedparser runs on Python") {
        return;
    }
    if !Command::new("python3")
        .args(["-c", "import feedparser"])
        .status()
        .unwrap()
        .success()
    {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "CI=true but feedparser is not installed"
        );
        eprintln!("skipped: feedparser is not installed (pip install feedparser)");
        return;
    }
    let doc = generated();
    let (_tmp, dir) = site_dir("site");
    let opts = Options {
        recent: 5,
        ..Options::default()
    };
    publish(&build(&doc, &opts).files, &dir).unwrap();
    let script = r#"
import json, sys, feedparser
f = feedparser.parse(sys.argv[1])
print(json.dumps({"bozo": f.bozo, "version": f.version, "title": f.feed.title, "updated": f.feed.updated,
  "entries": [{"title": e.title, "link": e.link, "id": e.id, "updated": e.updated,
               "tags": [t.term for t in e.get("tags", [])]} for e in f.entries]}))
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(dir.join("feed.atom"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let feed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(feed["bozo"], Value::Bool(false), "{feed}");
    assert_eq!(feed["version"], "atom10");
    assert_eq!(feed["title"], "Generated <collection>");
    // The newest five, newest first; the feed's date is the newest bookmark's.
    let mut want: Vec<Bookmark> = public(&doc)
        .into_iter()
        .filter(|b| b.added.is_some())
        .collect();
    want.sort_by_key(|b| {
        std::cmp::Reverse(b.added.as_ref().unwrap().instant().unwrap().unix_seconds())
    });
    let entries = feed["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 5);
    let newest = want[0]
        .added
        .as_ref()
        .unwrap()
        .instant()
        .unwrap()
        .to_w3c_utc();
    assert_eq!(feed["updated"].as_str(), Some(newest.as_str()));
    for (b, e) in want.iter().zip(entries) {
        assert_eq!(e["link"].as_str(), Some(b.href.as_str()));
        assert_eq!(e["title"].as_str(), b.title.as_deref());
        let tags: Vec<&str> = e["tags"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(tags, b.tags.iter().map(String::as_str).collect::<Vec<_>>());
    }
}

/// The peers read one folder page: url, title, tags.
fn peer_page() -> (tempfile::TempDir, PathBuf, Vec<Bookmark>) {
    let doc = generated();
    let (tmp, dir) = site_dir("site");
    publish(&build(&doc, &Options::default()).files, &dir).unwrap();
    let page = dir.join("f/top-0-co.html");
    let ours = entries_of(&std::fs::read(&page).unwrap());
    assert!(ours.len() >= 9);
    (tmp, page, ours)
}

#[test]
fn html_microformats_reads_a_folder_page_as_markport_does() {
    let (_tmp, page, ours) = peer_page();
    let Some(found) = xfolk_peer_entries(&page, "https://publisher.example/f/top-0-co.html") else {
        return;
    };
    assert_eq!(found.len(), ours.len());
    for (b, e) in ours.iter().zip(&found) {
        assert_eq!(e["url"].as_str(), Some(b.href.as_str()));
        assert_eq!(e["title"].as_str(), b.title.as_deref());
        let tags: Vec<&str> = e["tags"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(
            tags,
            b.tags.iter().map(String::as_str).collect::<Vec<_>>(),
            "{}",
            b.href
        );
    }
}

#[test]
fn mf2py_reads_a_folder_page_as_markport_does() {
    let (_tmp, page, ours) = peer_page();
    let Some(found) = mf2py_entries(&page, "https://publisher.example/f/") else {
        return;
    };
    assert_eq!(found.len(), ours.len());
    for (b, e) in ours.iter().zip(&found) {
        assert_eq!(e["url"].as_str(), Some(b.href.as_str()));
        assert_eq!(e["name"].as_str(), b.title.as_deref());
        let cats: Vec<&str> = e["category"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        // mf2py reads a category from the link's text, the exact tag, where
        // xFolk readers read the link's last segment: the two differ for a
        // tag that cannot be a file name everywhere (`a/b`, whose link is its
        // slug's directory, docs/publishing.md).
        let source = public(&generated())
            .into_iter()
            .find(|s| s.href == b.href)
            .unwrap();
        assert_eq!(
            cats,
            source.tags.iter().map(String::as_str).collect::<Vec<_>>()
        );
        for (read, exact) in b.tags.iter().zip(&source.tags) {
            assert!(
                read == exact || (exact == "a/b" && read == "a-b"),
                "{read:?}"
            );
        }
    }
}

#[test]
fn a_hundred_thousand_folders_deep_publish_in_pages_of_bounded_size() {
    const DEPTH: usize = 100_000;
    let mut doc = Document::new();
    let mut parent = None;
    for _ in 0..DEPTH {
        parent = Some(doc.push(parent, Folder::titled("Deep")));
    }
    doc.push(
        parent,
        Bookmark::new("https://deep.example/").with_title("bottom"),
    );
    let site = build(&doc, &Options::default());
    assert_eq!(site.folder_pages, DEPTH + 1);
    let largest = site.files.iter().map(|f| f.bytes.len()).max().unwrap();
    assert!(largest < 4096, "a page of {largest} bytes");
    let bottom = site
        .files
        .iter()
        .find(|f| f.path == format!("f/deep_{DEPTH}.html"))
        .expect("the deepest folder's page");
    let html = String::from_utf8_lossy(&bottom.bytes);
    assert!(html.contains("https://deep.example/") && html.contains("…"));
    let (_tmp, dir) = site_dir("deep");
    publish(&site.files, &dir).unwrap();
    assert!(dir.join(format!("f/deep_{DEPTH}.html")).is_file());
}
