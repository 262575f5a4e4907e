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
