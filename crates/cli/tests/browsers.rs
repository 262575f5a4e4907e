//! Arc's sidebar, Edge's Collections and Zen's sessions through the
//! command: each found without `--from` from the sample, its notes said,
//! Zen's `.jsonlz4` never taken for a Firefox backup, and each found by
//! `markport profiles --path` where its program keeps it.

use std::path::Path;

use predicates::prelude::*;

mod common;

use common::{corpus, markport};

/// The `href`s of a markport JSON document, in order.
fn hrefs(json: &[u8]) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(json).unwrap();
    v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["href"].as_str().map(String::from))
        .collect()
}

#[test]
fn arc_s_sidebar_is_read_without_from_and_says_which_half_it_read() {
    let out = markport()
        .args(["convert", "--to", "json"])
        .arg(corpus("arc/StorableSidebar.json"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: read `sidebar`: 2 spaces, 7 bookmarks",
        ))
        .stderr(predicate::str::contains(
            "2 unpinned Today tabs skipped (--arc-today keeps them)",
        ))
        .stderr(predicate::str::contains("arc -> json"))
        .get_output()
        .stdout
        .clone();
    assert_eq!(hrefs(&out)[0], "https://mail.example.com/inbox");
}

#[test]
fn arc_today_keeps_the_today_tabs_in_a_folder_of_their_space() {
    let out = markport()
        .args(["convert", "--arc-today", "--to", "json"])
        .arg(corpus("arc/StorableSidebar.json"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "2 unpinned Today tabs kept, in the folder \"Today\" of their space",
        ))
        .stderr(predicate::str::contains("skipped (--arc-today").not())
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let nodes = v["nodes"].as_array().unwrap();
    // The folder "Today" comes after the space's pinned items, and holds
    // the two tabs in the sidebar's order.
    let today = nodes
        .iter()
        .position(|n| n["title"] == "Today" && n["href"].is_null())
        .expect("a folder Today");
    let work = nodes.iter().position(|n| n["title"] == "Work").unwrap();
    assert_eq!(nodes[today]["parent"], work);
    let after: Vec<&str> = nodes[today + 1..]
        .iter()
        .filter_map(|n| n["href"].as_str())
        .take(2)
        .collect();
    assert_eq!(
        after,
        [
            "https://news.example.com/today",
            "https://search.example.com/?q=arc+export"
        ]
    );
    assert_eq!(hrefs(&out).len(), 9);
}

#[test]
fn edge_collections_are_read_from_the_file_and_from_standard_input() {
    let path = corpus("edge/collectionsSQLite");
    let by_path = markport()
        .args(["convert", "--to", "json"])
        .arg(&path)
        .assert()
        .success()
        .stderr(predicate::str::contains("edge -> json"))
        .stderr(predicate::str::contains("has no link; skipped"))
        .get_output()
        .stdout
        .clone();
    let by_stdin = markport()
        .args(["convert", "--to", "json", "-"])
        .write_stdin(std::fs::read(&path).unwrap())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(by_path, by_stdin);
    assert_eq!(hrefs(&by_path).len(), 4);
}

#[test]
fn a_zen_session_is_never_taken_for_a_firefox_backup() {
    markport()
        .args(["convert", "--to", "xbel", "-o", "-"])
        .arg(corpus("zen/zen-sessions.jsonlz4"))
        .assert()
        .success()
        .stderr(predicate::str::contains("zen -> xbel"))
        .stderr(predicate::str::contains(
            "2 ordinary (unpinned) tabs were skipped",
        ));
    markport()
        .arg("info")
        .arg(corpus("zen/sessionstore.jsonlz4"))
        .assert()
        .success()
        .stdout(predicate::str::contains("sessionstore.jsonlz4: zen ("));
}

#[test]
fn zen_s_folders_come_where_zen_puts_them_and_the_empty_ones_too() {
    let out = markport()
        .args(["convert", "--to", "json"])
        .arg(corpus("zen/zen-sessions.jsonlz4"))
        .assert()
        .success()
        .stderr(predicate::str::contains("8 bookmarks in 10 folders"))
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    // Each node of the workspace "Work" as "parent title/node title".
    let nodes = v["nodes"].as_array().unwrap();
    let title = |n: &serde_json::Value| n["title"].as_str().unwrap_or_default().to_string();
    let path: Vec<String> = nodes
        .iter()
        .filter_map(|n| {
            let parent = &nodes[n["parent"].as_u64()? as usize];
            Some(format!("{}/{}", title(parent), title(n)))
        })
        .collect();
    let work: Vec<&str> = path
        .iter()
        .map(String::as_str)
        .filter(|p| ["Work/", "Docs/", "API/"].iter().any(|w| p.starts_with(w)))
        .collect();
    assert_eq!(
        work,
        [
            "Work/Board – Tracker",
            "Work/Docs",
            "Docs/Guide",
            "Docs/API",
            "API/API v2 reference",
            "Docs/Drafts",
            "Work/Later",
            "Work/Status – Example",
        ]
    );
    assert!(path.contains(&"Home/Ideas".to_string()));
}

fn write(home: &Path, rel: &str, bytes: &[u8]) {
    let p = home.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

#[test]
fn profiles_path_finds_each_store_where_its_program_keeps_it() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    write(
        h,
        "Library/Application Support/Arc/StorableSidebar.json",
        &std::fs::read(corpus("arc/StorableSidebar.json")).unwrap(),
    );
    write(
        h,
        ".config/microsoft-edge/Default/Collections/collectionsSQLite",
        &std::fs::read(corpus("edge/collectionsSQLite")).unwrap(),
    );
    write(
        h,
        ".zen/profiles.ini",
        b"[Profile0]\nName=Default (release)\nIsRelative=1\nPath=x.default\nDefault=1\n",
    );
    write(
        h,
        ".zen/x.default/zen-sessions.jsonlz4",
        &std::fs::read(corpus("zen/zen-sessions.jsonlz4")).unwrap(),
    );
    for (browser, file, bookmarks) in [
        ("arc", "StorableSidebar.json", "7 bookmarks"),
        ("edge-collections", "collectionsSQLite", "4 bookmarks"),
        ("zen", "zen-sessions.jsonlz4", "8 bookmarks"),
    ] {
        let out = markport()
            .env("HOME", h)
            .env_remove("XDG_CONFIG_HOME")
            .args(["profiles", "--path", browser])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let path = String::from_utf8(out).unwrap();
        assert!(path.trim_end().ends_with(file), "{browser}: {path}");
        markport()
            .args(["info", path.trim_end()])
            .assert()
            .success()
            .stdout(predicate::str::contains(bookmarks));
    }
    // The listing counts each store's bookmarks.
    markport()
        .env("HOME", h)
        .env_remove("XDG_CONFIG_HOME")
        .arg("profiles")
        .assert()
        .success()
        .stdout(predicate::str::contains("edge-collections"))
        .stdout(predicate::str::contains("7 bookmarks"));
}
