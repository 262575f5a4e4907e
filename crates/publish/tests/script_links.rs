//! No script link reaches a published page: hostile links (control
//! characters inside or before the scheme, upper case, tabs and newlines,
//! noncharacters) through `--to xfolk` and `markport publish`; every link
//! written anywhere (each page, the feed, the search index) is parsed as a
//! browser parses it (the `url` crate implements the WHATWG URL parser) and
//! must not be a `javascript:`, `data:` or `vbscript:` link.

use std::path::Path;

use markport_model::{Bookmark, DateValue, Document, Folder, Timestamp, WriteOptions};
use markport_publish::{build, publish, Options};
use url::Url;

/// Links that a check on the raw value misses, or that the writers change.
const HOSTILE: &[&str] = &[
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\u{1}script:alert(1)",
    "javascript\u{FFFF}:alert(1)",
    "java\u{FFFE}script:alert(1)",
    "da\u{2}ta:text/html,<script>alert(1)</script>",
    "\u{1}\u{2} javascript:alert(1)",
    "\u{0}javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\rscript:alert(1)",
    "\t\n javascript:alert(1)",
    "javascript\u{C}:alert(1)",
    "j\u{C}avascript:alert(1)",
    "vb\u{1F}script:msgbox(1)",
    " \u{0}VBSCRIPT:msgbox(1)",
    "DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "javascript:alert(1)\u{0}",
    "\u{B}\u{E}javascript\u{7F}:alert(1)",
];

/// Browser-only links hidden the same way.
const BROWSER_ONLY: &[&str] = &[
    "pla\u{1}ce:sort=8&maxResults=10",
    "PLACE:type=6",
    "\u{2}place:folder=1",
    "https://search.example/?q=%\u{1}s",
    "https://search.example/?q=%\ts",
];

fn doc_of(hrefs: &[&str]) -> Document {
    let mut doc = Document::new();
    let f = doc.push(None, Folder::titled("Links"));
    for (i, h) in hrefs.iter().enumerate() {
        let mut b = Bookmark::new(*h).with_title(format!("link {i}"));
        b.tags = vec!["t".into()];
        b.added = Timestamp::from_unix_seconds(1_600_000_000 + i as i64).map(DateValue::Instant);
        doc.push(Some(f), b);
    }
    let mut fine = Bookmark::new("https://fine.example/").with_title("fine");
    fine.tags = vec!["t".into()];
    fine.added = Timestamp::from_unix_seconds(1_700_000_000).map(DateValue::Instant);
    doc.push(Some(f), fine);
    doc
}

/// Decode the character references markport's writers use.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#9;", "\t")
        .replace("&#10;", "\n")
        .replace("&#13;", "\r")
        .replace("&#x9;", "\t")
        .replace("&#xA;", "\n")
        .replace("&#xD;", "\r")
        .replace("&amp;", "&")
}

/// Every `href="..."` and `src="..."` value of a page or feed.
fn attributes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for (at, _) in text.match_indices(attr) {
            let rest = &text[at + attr.len()..];
            out.push(unescape(&rest[..rest.find('"').unwrap()]));
        }
    }
    out
}

/// What a browser makes of `href` on a page of the site.
fn assert_not_script(href: &str, r#where: &str) {
    let base = Url::parse("https://site.example/f/links.html").unwrap();
    if let Ok(u) = base.join(href) {
        assert!(
            !matches!(u.scheme(), "javascript" | "data" | "vbscript"),
            "{where}: {href:?} is a live {} link",
            u.scheme()
        );
    }
}

fn assert_no_browser_only(href: &str, r#where: &str) {
    let base = Url::parse("https://site.example/f/links.html").unwrap();
    if let Ok(u) = base.join(href) {
        assert_ne!(u.scheme(), "place", "{where}: {href:?}");
        assert!(!u.as_str().contains("%s"), "{where}: {href:?}");
    }
}

fn links_of_site(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let text = String::from_utf8(std::fs::read(&p).unwrap()).unwrap();
            if name == "search.json" {
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                for e in v["entries"].as_array().unwrap() {
                    out.push((name.clone(), e[1].as_str().unwrap().to_owned()));
                }
            } else {
                out.extend(attributes(&text).into_iter().map(|h| (name.clone(), h)));
            }
        }
    }
    out
}

fn check_everywhere(hrefs: &[&str], check: fn(&str, &str)) {
    let doc = doc_of(hrefs);
    // --to xfolk
    let mut page = Vec::new();
    markport_xfolk::write(&doc, &WriteOptions::default(), &mut page).unwrap();
    let page = String::from_utf8(page).unwrap();
    let written = attributes(&page);
    assert!(written.iter().any(|h| h == "https://fine.example/"));
    for h in &written {
        check(h, "--to xfolk");
    }
    // publish
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("site");
    let opts = Options {
        recent: hrefs.len() + 1,
        ..Options::default()
    };
    let site = build(&doc, &opts);
    publish(&site.files, &dir).unwrap();
    let links = links_of_site(&dir);
    for file in [
        "feed.atom",
        "search.json",
        "f/links.html",
        "tags/t/t/index.html",
    ] {
        assert!(
            links
                .iter()
                .any(|(f, h)| f.ends_with(file) && h == "https://fine.example/"),
            "{file} holds the fine link"
        );
    }
    for (file, h) in &links {
        check(h, file);
    }
    // Each hostile link is reported withheld.
    let withheld = site
        .loss
        .losses
        .iter()
        .filter(|l| l.field == markport_model::Field::Bookmark)
        .count();
    assert!(withheld >= 1, "{:?}", site.loss.losses);
}

#[test]
fn no_written_link_is_a_script_link() {
    check_everywhere(HOSTILE, assert_not_script);
}

#[test]
fn no_written_link_is_browser_only() {
    check_everywhere(BROWSER_ONLY, assert_no_browser_only);
}

/// Generated links: scheme names mixed with every character the writers
/// drop and every character URL parsing strips or removes.
#[test]
fn generated_links_with_control_characters_never_publish_a_script() {
    let pieces = [
        "j", "ava", "script", "JAVA", "Script", "da", "ta", "DATA", "vb", ":", ":", "alert(1)",
        "\u{0}", "\u{1}", "\u{8}", "\u{B}", "\u{C}", "\u{E}", "\u{1F}", "\u{7F}", "\t", "\n", "\r",
        " ", "\u{FFFE}", "\u{FFFF}", "\u{A0}", "%0A", "&", "/",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut hrefs = Vec::new();
    for _ in 0..4000 {
        let len = 1 + next(8);
        let mut s = String::new();
        for _ in 0..len {
            s.push_str(pieces[next(pieces.len())]);
        }
        hrefs.push(s);
    }
    // Seeds that are script links once the dropped characters go.
    hrefs.push("java\u{1}script:alert(1)".into());
    let refs: Vec<&str> = hrefs.iter().map(String::as_str).collect();
    for chunk in refs.chunks(500) {
        check_everywhere(chunk, assert_not_script);
    }
}
