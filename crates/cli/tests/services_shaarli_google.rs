//! Shaarli's datastore, Delicious/Pinboard v1 XML and Google Bookmarks'
//! HTML through the command: each found by its content, Google's page read
//! plainly with `--from netscape`, and broken files exit 2 with their place.

use predicates::prelude::*;

mod common;

use common::{corpus, markport};

#[test]
fn each_sample_is_found_by_its_content() {
    for (path, format) in [
        ("shaarli/datastore.php", "shaarli"),
        ("shaarli/legacy-datastore.php", "shaarli"),
        ("delicious/posts-all.xml", "delicious"),
        ("google/GoogleBookmarks.html", "google"),
    ] {
        markport()
            .arg("convert")
            .arg(corpus(path))
            .args(["--to", "json"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!("{format} -> json")));
    }
}

/// Google's page read as the Netscape HTML it is: a folder per label, a
/// bookmark per listing, for whoever wants them so.
#[test]
fn google_bookmarks_read_plainly_with_from_netscape() {
    let out = markport()
        .args(["convert", "--from", "netscape", "--to", "json"])
        .arg(corpus("google/GoogleBookmarks.html"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let nodes = json["nodes"].as_array().unwrap();
    let count = |kind: &str| nodes.iter().filter(|n| n["type"] == kind).count();
    assert_eq!((count("folder"), count("bookmark")), (4, 6));
}

#[test]
fn broken_files_exit_2_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let php = dir.path().join("datastore.php");
    std::fs::write(&php, "<?php /* QUJD!RUY= */ ?>").unwrap();
    markport()
        .arg("info")
        .arg(&php)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("datastore.php:1:14"));
    let xml = dir.path().join("posts.xml");
    std::fs::write(
        &xml,
        "<posts>\n<post href=\"https://a/\" description=\"x\">\n</posts>\n",
    )
    .unwrap();
    markport()
        .arg("info")
        .arg(&xml)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("posts.xml:3:"));
}
