//! The managers' JSON exports through the command: each corpus sample is
//! found by content and counted as serde_json counts its entries; a broken
//! export is exit 2 with the file and line:column.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn corpus(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(path)
}

fn markport() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("markport"))
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn each_export_is_found_by_content_and_counted() {
    let linkwarden = corpus("linkwarden/linkwarden.json");
    let karakeep = corpus("karakeep/karakeep.json");
    let wallabag = corpus("wallabag/wallabag.json");
    let omnivore = corpus("omnivore/metadata_0_to_3.json");
    let links_of = |v: &Value| -> usize {
        v["collections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["links"].as_array().unwrap().len())
            .sum()
    };
    let cases = [
        ("linkwarden", &linkwarden, links_of(&json(&linkwarden))),
        (
            "karakeep",
            &karakeep,
            json(&karakeep)["bookmarks"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|b| b["content"]["type"] == "link")
                .count(),
        ),
        (
            "wallabag",
            &wallabag,
            json(&wallabag).as_array().unwrap().len(),
        ),
        (
            "omnivore",
            &omnivore,
            json(&omnivore).as_array().unwrap().len(),
        ),
    ];
    for (format, path, count) in cases {
        let out = markport()
            .args(["info", "--json"])
            .arg(path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let info: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(info["format"], format);
        assert_eq!(info["bookmarks"], count, "{format}");
        let out = markport()
            .args(["convert", "--to", "xbel", "-q"])
            .arg(path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}: {out:?}");
    }
}

#[test]
fn a_broken_export_is_exit_2_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("wallabag.json");
    let text = std::fs::read_to_string(corpus("wallabag/wallabag.json")).unwrap();
    // Cut inside the second entry.
    let at = text.find("\"Crêpes").unwrap();
    std::fs::write(&cut, &text[..at]).unwrap();
    let line = text[..at].lines().count();
    let out = markport()
        .args(["convert", "--from", "wallabag", "--to", "xbel"])
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("wallabag.json:{line}:")), "{err}");
}
