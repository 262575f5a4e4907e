//! The loss report and `diff` tell the truth: comments, date forms,
//! dropped folders, and what only markport's own block carries.

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
fn a_floccus_sync_comment_survives_xbel_and_is_reported_lost_elsewhere() {
    let out = markport()
        .args(["convert", "--to", "xbel"])
        .arg(corpus("xbel/floccus-sync.xbel"))
        .assert()
        .success()
        .stderr(predicate::str::contains("nothing lost"))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    // Floccus finds its state by searching for this exact text.
    assert!(
        text.contains("<!--- highestId :7: for Floccus bookmark sync browser extension -->"),
        "{text}"
    );
    let first = text.find("<!-- exported").unwrap();
    assert!(first < text.find("highestId").unwrap());
    markport()
        .args(["convert", "--to", "netscape"])
        .arg(corpus("xbel/floccus-sync.xbel"))
        .assert()
        .success()
        .stderr(predicate::str::contains("lost document.comments"));
}

#[test]
fn a_comment_xml_cannot_hold_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    std::fs::write(
        &json,
        r#"{"markport":1,"comments":["fine","a -- b","ends-"],"nodes":[]}"#,
    )
    .unwrap();
    let out = markport()
        .args(["convert", "--to", "xbel"])
        .arg(&json)
        .assert()
        .success()
        .stderr(predicate::str::contains("lost document.comments on 1 node"))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("<!--fine-->") && !text.contains("a -- b"),
        "{text}"
    );
}

#[test]
fn diff_counts_every_dropped_folder_as_the_report_does() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flat.xbel");
    markport()
        .args(["convert", "--to", "desktop", "-o"])
        .arg(&out)
        .arg(corpus("xbel/floccus-sync.xbel"))
        .assert()
        .success()
        .stderr(predicate::str::contains("lost folder on 2 nodes"));
    markport()
        .args(["diff", "--from-b", "desktop"])
        .arg(corpus("xbel/floccus-sync.xbel"))
        .arg(&out)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "folder differs on 2 nodes: Reading, Reading/News",
        ));
}

#[test]
fn diff_says_a_date_kept_its_instant_but_not_its_form() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dates.html");
    markport()
        .args(["convert", "--to", "netscape", "-o"])
        .arg(&out)
        .arg(corpus("xbel/dates.xbel"))
        .assert()
        .success()
        .stderr(
            predicate::str::contains("lost bookmark.added.form")
                .and(predicate::str::contains("same instant")),
        );
    markport()
        .arg("diff")
        .arg(corpus("xbel/dates.xbel"))
        .arg(&out)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "bookmark.added precision/offset differs on",
        ));
}
