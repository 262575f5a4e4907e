//! `markport publish` as people use it.

use predicates::prelude::*;

mod common;

use common::{corpus, markport};

#[test]
fn publish_writes_a_site_and_says_what_was_withheld() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    markport()
        .arg("publish")
        .arg(corpus("netscape/firefox.html"))
        .arg("-o")
        .arg(&site)
        .assert()
        .success()
        .stderr(predicate::str::contains("published"))
        .stderr(predicate::str::contains("not published as a link"));
    for f in [
        "index.html",
        "f/index.html",
        "feed.atom",
        "style.css",
        "search.json",
    ] {
        assert!(site.join(f).is_file(), "{f}");
    }
}

#[test]
fn several_inputs_are_merged() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    markport()
        .arg("publish")
        .arg(corpus("netscape/firefox.html"))
        .arg(corpus("netscape/chrome.html"))
        .args(["--title", "Both", "--recent", "3", "--page-size", "2"])
        .arg("-o")
        .arg(&site)
        .assert()
        .success();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("<h1>Both</h1>"));
    assert_eq!(index.matches("class=\"xfolkentry").count(), 3);
}

#[test]
fn a_foreign_directory_is_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("thesis.tex"), "mine").unwrap();
    markport()
        .arg("publish")
        .arg(corpus("netscape/firefox.html"))
        .arg("-o")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("refusing to replace it"));
    assert!(dir.path().join("thesis.tex").is_file());
}

#[test]
fn bad_input_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.xbel");
    std::fs::write(
        &bad,
        "<?xml version=\"1.0\"?>\n<xbel>\n<folder><title>x</folder>\n",
    )
    .unwrap();
    markport()
        .arg("publish")
        .arg(&bad)
        .arg("-o")
        .arg(dir.path().join("site"))
        .assert()
        .code(2)
        .stderr(predicate::str::is_match(r"bad\.xbel:\d+:\d+: error").unwrap());
    assert!(!dir.path().join("site").exists());
}

#[test]
fn quiet_publish_says_nothing_when_nothing_was_lost() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let input = corpus("xfolk/delicious-list.html");
    markport()
        .arg("publish")
        .arg(&input)
        .arg("-o")
        .arg(&site)
        .assert()
        .success()
        .stderr(predicate::str::contains("nothing lost"));
    markport()
        .args(["-q", "publish"])
        .arg(&input)
        .arg("-o")
        .arg(&site)
        .assert()
        .success()
        .stderr("");
}

/// Two `markport publish` processes into one directory, ten times: both
/// succeed, and after each pair the site is whole (index.html and every
/// file its manifest lists).
#[test]
fn two_publishes_at_once_leave_a_whole_site() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let bin = assert_cmd::cargo::cargo_bin("markport");
    for round in 0..10 {
        let runs: Vec<_> = ["netscape/firefox.html", "netscape/chrome.html"]
            .iter()
            .map(|input| {
                std::process::Command::new(&bin)
                    .args(["publish", "-q"])
                    .arg(corpus(input))
                    .arg("-o")
                    .arg(&site)
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut r in runs {
            assert!(r.wait().unwrap().success(), "round {round}");
        }
        let manifest: serde_json::Value =
            serde_json::from_slice(&std::fs::read(site.join(".markport-publish.json")).unwrap())
                .unwrap();
        assert!(site.join("index.html").is_file(), "round {round}");
        for f in manifest["files"].as_array().unwrap() {
            let f = f.as_str().unwrap();
            assert!(site.join(f).is_file(), "round {round}: {f} missing");
        }
    }
}

/// A script link hidden behind a control character inside its scheme
/// (`java&#1;script:`, which the writers would write as `javascript:`) is
/// published nowhere: not by `publish` (pages, feed, search index), not by
/// `convert --to xfolk`.
#[test]
fn a_control_character_does_not_hide_a_script_link() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.html");
    std::fs::write(
        &input,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n\
         <DT><A HREF=\"java&#1;script:alert(1)\" ADD_DATE=\"1700000001\" TAGS=\"t\">one</A>\n\
         <DT><A HREF=\"da&#2;ta:text/html,x\" ADD_DATE=\"1700000002\" TAGS=\"t\">two</A>\n\
         <DT><A HREF=\"https://fine.example/\" ADD_DATE=\"1700000000\" TAGS=\"t\">fine</A>\n</DL>\n",
    )
    .unwrap();
    let site = dir.path().join("site");
    markport()
        .arg("publish")
        .arg(&input)
        .arg("-o")
        .arg(&site)
        .assert()
        .success()
        .stderr(predicate::str::contains("not published as a link"));
    let page = dir.path().join("page.html");
    markport()
        .args(["convert", "--to", "xfolk", "-o"])
        .arg(&page)
        .arg(&input)
        .assert()
        .success();
    let mut files = vec![page];
    let mut stack = vec![site];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    let mut fine = 0;
    for f in files {
        let text = String::from_utf8(std::fs::read(&f).unwrap()).unwrap();
        // Every link (an attribute, or a search index entry), as a browser
        // reads it: controls and spaces trimmed, tabs and newlines removed,
        // any case. (An inert link is shown as text, not as a link.)
        let links = text
            .split("href=\"")
            .skip(1)
            .chain(text.split("\",\"").skip(1))
            .map(|rest| rest.split('"').next().unwrap());
        for link in links {
            let bare: String = link
                .replace("\\u0001", "")
                .replace("\\u0002", "")
                .replace("&#9;", "")
                .replace("&#x9;", "")
                .chars()
                .filter(|c| !c.is_control())
                .collect::<String>()
                .to_ascii_lowercase();
            assert!(
                !bare.starts_with("javascript:") && !bare.starts_with("data:"),
                "{}: {link:?}",
                f.display()
            );
        }
        fine += usize::from(text.contains("https://fine.example/"));
    }
    // The single page, index.html, the folder and tag pages, the feed and the
    // search index.
    assert_eq!(fine, 6, "the fine link is published");
}

/// A Chromium `Bookmarks` file holding `links` on its bar, each titled by
/// its index.
fn chromium_bookmarks(path: &std::path::Path, links: &[&str]) {
    let children: Vec<serde_json::Value> = links
        .iter()
        .enumerate()
        .map(|(i, l)| {
            serde_json::json!({
                "date_added": (13_300_000_000_000_000u64 + i as u64).to_string(),
                "guid": format!("00000000-0000-4000-8000-{:012}", i + 1),
                "id": (10 + i).to_string(),
                "name": format!("link {i}"),
                "type": "url",
                "url": l,
            })
        })
        .collect();
    let root = |name: &str, id: &str, children: Vec<serde_json::Value>| {
        serde_json::json!({
            "children": children, "date_added": "13300000000000000", "date_modified": "0",
            "guid": format!("00000000-0000-4000-9000-00000000000{id}"), "id": id,
            "name": name, "type": "folder",
        })
    };
    let file = serde_json::json!({
        "roots": {
            "bookmark_bar": root("Bookmarks bar", "1", children),
            "other": root("Other bookmarks", "2", vec![]),
            "synced": root("Mobile bookmarks", "3", vec![]),
        },
        "version": 1,
    });
    std::fs::write(path, serde_json::to_vec_pretty(&file).unwrap()).unwrap();
}

/// Every file under `root`, as text.
fn texts(root: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                out.push((p, text));
            }
        }
    }
    out
}

/// A Chrome file's links to the browser's own pages (`chrome://settings/`,
/// Edge's flags, `about:config`, a local file, one hidden behind a leading
/// control and upper case) are on no page, feed or search index as links:
/// shown as text, counted in plain words; `--allow-browser-urls` publishes
/// them.
#[test]
fn browser_internal_links_are_withheld_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("Bookmarks");
    let internal = [
        "chrome://settings/",
        "edge://flags/",
        "about:config",
        "file:///home/me/notes.txt",
        " \u{1}CHROME://version",
    ];
    let mut links = internal.to_vec();
    links.push("https://www.rust-lang.org/");
    chromium_bookmarks(&input, &links);
    let site = dir.path().join("site");
    markport()
        .arg("publish")
        .arg(&input)
        .arg("-o")
        .arg(&site)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "withheld 5 links to a browser's own pages or local files",
        ))
        .stderr(predicate::str::contains("published "))
        .stderr(predicate::str::contains(": 1 bookmarks,"));
    let bar = std::fs::read_to_string(site.join("f/bookmarks-bar.html")).unwrap();
    assert!(bar.contains("<code>chrome://settings/</code> (not published as a link)"));
    assert!(bar.contains("href=\"https://www.rust-lang.org/\""));
    for (path, text) in texts(&site) {
        let lower = text.to_ascii_lowercase();
        for scheme in ["chrome:", "edge:", "about:", "file:"] {
            assert!(
                !lower.contains(&format!("href=\"{scheme}"))
                    && !lower.contains(&format!("\"{scheme}//"))
                    && !lower.contains(&format!("\"{scheme}config")),
                "{scheme} as a link in {}",
                path.display()
            );
        }
    }
    markport()
        .args(["publish", "--allow-browser-urls"])
        .arg(&input)
        .arg("-o")
        .arg(&site)
        .assert()
        .success()
        .stderr(predicate::str::contains("a browser's own").not());
    let bar = std::fs::read_to_string(site.join("f/bookmarks-bar.html")).unwrap();
    for link in &internal[..4] {
        assert!(bar.contains(&format!("href=\"{link}\"")), "{link}");
    }
}

/// `--public-only` on a file whose format cannot mark a bookmark private
/// says so and points to `--exclude-folder`; on one that can, and has a
/// private bookmark, it says nothing and leaves that bookmark out.
#[test]
fn public_only_says_when_the_source_has_no_private_bookmarks() {
    let dir = tempfile::tempdir().unwrap();
    let chrome = dir.path().join("Bookmarks");
    chromium_bookmarks(&chrome, &["https://www.rust-lang.org/"]);
    markport()
        .args(["publish", "--public-only"])
        .arg(&chrome)
        .arg("-o")
        .arg(dir.path().join("a"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "Bookmarks (chromium) out: that format cannot mark a bookmark private",
        ))
        .stderr(predicate::str::contains(
            "notice: --public-only leaves nothing of ",
        ))
        .stderr(predicate::str::contains("--exclude-folder PATH"));
    // Without the flag there is nothing to say.
    markport()
        .arg("publish")
        .arg(&chrome)
        .arg("-o")
        .arg(dir.path().join("b"))
        .assert()
        .success()
        .stderr(predicate::str::contains("--public-only").not());
    let html = dir.path().join("in.html");
    std::fs::write(
        &html,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n\
         <DT><A HREF=\"https://secret.example/\" PRIVATE=\"1\">secret</A>\n\
         <DT><A HREF=\"https://open.example/\">open</A>\n</DL>\n",
    )
    .unwrap();
    markport()
        .args(["publish", "--public-only"])
        .arg(&html)
        .arg("-o")
        .arg(dir.path().join("c"))
        .assert()
        .success()
        .stderr(predicate::str::contains("notice:").not());
    // A Netscape file can mark one private; this one marks none.
    let plain = dir.path().join("plain.html");
    std::fs::write(
        &plain,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n\
         <DT><A HREF=\"https://open.example/\">open</A>\n</DL>\n",
    )
    .unwrap();
    markport()
        .args(["publish", "--public-only"])
        .arg(&plain)
        .arg("-o")
        .arg(dir.path().join("d"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "notice: --public-only leaves nothing out: no bookmark read is marked private",
        ));
}

/// A site that is a git checkout served by GitHub Pages: `.git/`,
/// `.nojekyll`, `.github/` and `CNAME` are there before the first publish
/// and stay, byte for byte, through two republishings, while the pages are
/// new each time; a file of the owner's that is none of these is still
/// refused, and nothing is touched then.
#[test]
fn a_pages_checkout_keeps_its_git_and_cname_across_republishing() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let kept: [(&str, &[u8]); 5] = [
        (".git/HEAD", b"ref: refs/heads/main\n"),
        (".git/objects/ab/cdef", b"\x78\x01\x00binary"),
        (".nojekyll", b""),
        (".github/workflows/pages.yml", b"on: push\n"),
        ("CNAME", b"links.example.org\n"),
    ];
    for (p, bytes) in kept {
        let p = site.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    for (round, input) in ["netscape/firefox.html", "netscape/chrome.html"]
        .iter()
        .enumerate()
    {
        markport()
            .args(["publish", "--title"])
            .arg(format!("Round {round}"))
            .arg(corpus(input))
            .arg("-o")
            .arg(&site)
            .assert()
            .success();
        for (p, bytes) in kept {
            assert_eq!(
                std::fs::read(site.join(p)).unwrap(),
                bytes,
                "round {round}: {p}"
            );
        }
        let index = std::fs::read_to_string(site.join("index.html")).unwrap();
        assert!(
            index.contains(&format!("<h1>Round {round}</h1>")),
            "round {round}"
        );
        let manifest = std::fs::read_to_string(site.join(".markport-publish.json")).unwrap();
        assert!(!manifest.contains(".git") && !manifest.contains("CNAME"));
    }
    // Nothing of the old sites is left beside it.
    let mut beside: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    beside.sort();
    assert_eq!(beside, ["site", "site.markport-lock"]);
    std::fs::write(site.join("README.md"), "mine").unwrap();
    let before = std::fs::read(site.join("index.html")).unwrap();
    markport()
        .arg("publish")
        .arg(corpus("netscape/firefox.html"))
        .arg("-o")
        .arg(&site)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("README.md"))
        .stderr(predicate::str::contains(
            "only dot files and CNAME at its top are kept",
        ));
    assert_eq!(std::fs::read(site.join("index.html")).unwrap(), before);
    assert_eq!(
        std::fs::read(site.join("CNAME")).unwrap(),
        b"links.example.org\n"
    );
}
