//! `markport publish` as people use it.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn markport() -> Command {
    Command::cargo_bin("markport").unwrap()
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(name)
}

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
            serde_json::from_slice(&std::fs::read(site.join(".markport-site.json")).unwrap())
                .unwrap();
        assert!(site.join("index.html").is_file(), "round {round}");
        for f in manifest["files"].as_array().unwrap() {
            let f = f.as_str().unwrap();
            assert!(site.join(f).is_file(), "round {round}: {f} missing");
        }
    }
}
