//! A published page, read by real independent parsers and a real browser:
//! HTML::Microformats (through the project's driver `tests/peers/xfolk_peer.py`) finds the
//! same url, title, tags and descriptions for every entry; mf2py finds the
//! same entries as h-entry items; headless Chromium renders every entry and
//! its filter narrows the list. `.ci/setup.d/xfolk.sh` installs all three.

use std::path::{Path, PathBuf};
use std::process::Command;

use markport::model::{Bookmark, Document, Node};
use markport::{ReadOptions, WriteOptions};
use markport_tests::{mf2py_entries, root, xfolk_peer_entries};
use serde_json::Value;

/// A collection worth publishing: the project's Firefox and Pinboard samples.
fn collection() -> Document {
    let mut doc = Document::new();
    doc.header.title = Some("Published bookmarks".into());
    for sample in [
        "netscape/firefox.html",
        "netscape/pinboard.html",
        "netscape/chrome.html",
    ] {
        let bytes = std::fs::read(root().join("corpus").join(sample)).unwrap();
        let read = markport::read_bytes(
            &bytes,
            markport::format("netscape").unwrap(),
            &ReadOptions::default(),
        )
        .unwrap()
        .document;
        let folder = doc.push(None, markport::model::Folder::titled(sample));
        // Copy the tree under a folder named after the sample.
        let mut map = std::collections::HashMap::new();
        for id in read.preorder() {
            let parent = read.parent(id).map(|p| map[&p]).or(Some(folder));
            let node = read.node(id).clone();
            if matches!(node, Node::Bookmark(_) | Node::Folder(_)) {
                map.insert(id, doc.push(parent, node));
            }
        }
    }
    doc
}

fn publish(dir: &Path) -> (PathBuf, Vec<Bookmark>) {
    let mut opts = WriteOptions::default();
    opts.xfolk.tag_base = Some("https://example.org/tags/".into());
    publish_with(dir, &opts)
}

fn publish_with(dir: &Path, opts: &WriteOptions) -> (PathBuf, Vec<Bookmark>) {
    let doc = collection();
    let (page, _) = markport::write_to_vec(&doc, markport::format("xfolk").unwrap(), opts).unwrap();
    let path = dir.join("published.html");
    std::fs::write(&path, &page).unwrap();
    let back = markport::read_bytes(
        &page,
        markport::format("xfolk").unwrap(),
        &ReadOptions::default(),
    )
    .unwrap()
    .document;
    let entries = back
        .preorder()
        .filter_map(|id| back.node(id).as_bookmark().cloned())
        .collect();
    (path, entries)
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn html_microformats_reads_the_published_entries() {
    let dir = tempfile_dir();
    let (page, entries) = publish(&dir);
    let Some(found) = xfolk_peer_entries(&page, "https://publisher.example/bookmarks.html") else {
        return;
    };
    assert_eq!(found.len(), entries.len(), "entry count");
    assert!(entries.len() >= 10);
    for (b, e) in entries.iter().zip(&found) {
        assert_eq!(e["url"].as_str(), Some(b.href.as_str()), "url");
        assert_eq!(
            e["title"].as_str().map(collapse),
            b.title.clone(),
            "title of {}",
            b.href
        );
        let tags: Vec<String> = e["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        assert_eq!(tags, b.tags, "tags of {}", b.href);
        let descs: Vec<String> = e["descriptions_text"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| collapse(d.as_str().unwrap()))
            .collect();
        let want: Vec<String> = b.desc.iter().map(|d| collapse(d)).collect();
        assert_eq!(descs, want, "descriptions of {}", b.href);
    }
}

#[test]
fn mf2py_finds_the_same_entries_as_h_entry() {
    let dir = tempfile_dir();
    let (page, entries) = publish(&dir);
    let Some(found) = mf2py_entries(&page, "https://publisher.example/") else {
        return;
    };
    assert_eq!(found.len(), entries.len());
    for (b, e) in entries.iter().zip(&found) {
        assert_eq!(e["url"].as_str(), Some(b.href.as_str()));
        assert_eq!(e["name"].as_str().map(collapse), b.title.clone());
        let cats: Vec<&str> = e["category"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(cats, b.tags.iter().map(String::as_str).collect::<Vec<_>>());
    }
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

fn headless(browser: &str, profile: &Path, extra: &[&str], url: &str) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("the browser starts")
}

#[test]
fn chromium_renders_every_entry_and_the_filter_works() {
    let browser = match chromium() {
        Some(b) => b,
        None => {
            assert!(
                !std::env::var("CI").is_ok_and(|v| v == "true"),
                "CI=true but chromium is not installed"
            );
            eprintln!("skipped: chromium is not installed (apt-get install chromium)");
            return;
        }
    };
    let dir = tempfile_dir();
    let (page, entries) = publish(&dir);
    let url = markport::desktop::path_to_file_uri(page.as_os_str().as_encoded_bytes());
    let profile = dir.join("profile");
    // Every entry is in the rendered DOM, none hidden.
    let dom = headless(browser, &profile, &["--dump-dom"], &url);
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(
        dom.matches("<li class=\"xfolkentry h-entry\"").count(),
        entries.len(),
        "{dom}"
    );
    assert!(
        dom.contains("<p class=\"filter\">"),
        "the script shows the filter box"
    );
    // The filter, pre-filled from the address (#q=tag:NAME), hides the rest.
    let tagged = entries
        .iter()
        .filter(|b| b.tags.iter().any(|t| t == "linux"))
        .count();
    assert!(tagged > 0 && tagged < entries.len());
    let dom = headless(
        browser,
        &profile,
        &["--dump-dom"],
        &format!("{url}#q=tag:linux"),
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(hidden_entries(&dom), entries.len() - tagged, "{dom}");
    assert!(dom.contains(&format!("{tagged} of {}", entries.len())));
    // A screenshot for people to look at (target/xfolk-page.png).
    let shot = root().join("target/xfolk-page.png");
    // A checkout whose build goes to another CARGO_TARGET_DIR has no target/.
    std::fs::create_dir_all(shot.parent().unwrap()).unwrap();
    let out = headless(
        browser,
        &profile,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=900,1200",
            "--hide-scrollbars",
        ],
        &url,
    );
    assert!(shot.exists(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The entries `li` of a dumped DOM that are hidden.
fn hidden_entries(dom: &str) -> usize {
    dom.split("<li class=\"xfolkentry h-entry\"")
        .skip(1)
        .filter(|rest| {
            rest.split('>')
                .next()
                .is_some_and(|tag| tag.contains("hidden"))
        })
        .count()
}

#[test]
fn chromium_a_tag_click_filters_a_page_published_without_tag_base() {
    let Some(browser) = chromium() else {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "CI=true but chromium is not installed"
        );
        eprintln!("skipped: chromium is not installed (apt-get install chromium)");
        return;
    };
    let dir = tempfile_dir();
    let (page, entries) = publish_with(&dir, &WriteOptions::default());
    let tagged = entries
        .iter()
        .filter(|b| b.tags.iter().any(|t| t == "linux"))
        .count();
    assert!(tagged > 0 && tagged < entries.len());
    // A person's click on the first `linux` tag link, after the page's own
    // script has run.
    let mut html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("href=\"tags/linux\""), "the tag stays a link");
    html.push_str(
        "<script>document.querySelector('a[rel~=tag][href=\"tags/linux\"]').click();</script>\n",
    );
    let clicked = dir.join("clicked.html");
    std::fs::write(&clicked, html).unwrap();
    let url = format!("file://{}", clicked.display());
    let dom = headless(browser, &dir.join("profile"), &["--dump-dom"], &url);
    let dom = String::from_utf8_lossy(&dom.stdout);
    // Still this page (the link to the missing tags/linux was not followed),
    // filtered to the tag.
    assert_eq!(hidden_entries(&dom), entries.len() - tagged, "{dom}");
    assert!(
        dom.contains(&format!("{tagged} of {}", entries.len())),
        "{dom}"
    );
}

fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "markport-xfolk-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
