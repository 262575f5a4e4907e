//! The loss report and `diff` tell the truth: comments, date forms,
//! dropped folders, and what only markport's own block carries.

use predicates::prelude::*;

mod common;

use common::{corpus, markport};

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
        .arg("-v")
        .args(["convert", "--to", "netscape"])
        .arg(corpus("xbel/floccus-sync.xbel"))
        .assert()
        .success()
        .stderr(predicate::str::contains("lost document.comments"));
}

/// Merging a browser's bookmarks into a file Floccus syncs keeps every
/// Floccus id on its item (Floccus takes an item whose id it cannot find
/// for one removed), numbers the new items above the highest (the
/// browser's own ids, 1, 2, ..., would clash), and rewrites the comment.
#[test]
fn a_merge_into_a_floccus_file_keeps_its_ids_and_numbers_the_new_items_above() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sync.xbel");
    markport()
        .arg("merge")
        .arg(corpus("xbel/floccus-sync.xbel"))
        .arg(corpus("chromium/chrome-2024.Bookmarks"))
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("given a Floccus id above"));
    let doc = markport::read(out.as_path(), None, &markport::ReadOptions::default())
        .unwrap()
        .document;
    let mut ids = Vec::new();
    for id in doc.preorder() {
        let (id_text, href) = match doc.node(id) {
            markport::Node::Bookmark(b) => (b.details().id.clone(), Some(b.href.as_str())),
            markport::Node::Folder(f) => (f.id.clone(), None),
            _ => continue,
        };
        let n: u64 = id_text.expect("every item has an id").parse().unwrap();
        match href {
            Some("https://www.rust-lang.org/") => assert_eq!(n, 2),
            Some("https://lwn.net/") => assert_eq!(n, 6),
            Some("https://example.org/sync") => assert_eq!(n, 7),
            _ => {}
        }
        ids.push(n);
    }
    let highest = *ids.iter().max().unwrap();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "ids repeat: {ids:?}");
    // The file's own five (folders 1 and 5, bookmarks 2, 6, 7) and nothing
    // else at or below its highest.
    let old: Vec<u64> = unique.iter().copied().filter(|&n| n <= 7).collect();
    assert_eq!(old, [1, 2, 5, 6, 7]);
    assert_eq!(doc.header.floccus_highest_id().map(|h| h.1), Some(highest));
}

/// `--drop-extra` keeps a Floccus file's ids: dropping them made the writer
/// number every item anew, which Floccus takes for every bookmark removed
/// and added again (floccus#1426).
#[test]
fn drop_extra_keeps_every_floccus_id_and_the_round_trip_is_exact() {
    let sample = corpus("xbel/floccus-sync.xbel");
    let ids = |doc: &markport::Document| -> Vec<(String, Option<String>)> {
        doc.preorder()
            .filter_map(|id| match doc.node(id) {
                markport::Node::Bookmark(b) => Some((doc.path(id), b.details().id.clone())),
                markport::Node::Folder(f) => Some((doc.path(id), f.id.clone())),
                _ => None,
            })
            .collect()
    };
    let read = |path: &std::path::Path| {
        markport::read(path, None, &markport::ReadOptions::default())
            .unwrap()
            .document
    };
    let before = read(&sample);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sync.xbel");
    markport()
        .args(["convert", "--to", "xbel", "--drop-extra"])
        .arg(&sample)
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("Floccus").not())
        .stderr(predicate::str::contains("bookmark.id").not());
    let after = read(&out);
    assert_eq!(ids(&after), ids(&before));
    assert_eq!(ids(&after).len(), 5);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("<!--- highestId :7: for Floccus bookmark sync browser extension -->"),
        "{text}"
    );
    markport()
        .args(["roundtrip", "--via", "xbel", "--drop-extra"])
        .arg(&sample)
        .assert()
        .success()
        .stdout(predicate::str::contains("everything survived"))
        .stdout(predicate::str::contains("requested changes").not());
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
        .arg("-v")
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
        .arg("-v")
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
        .arg("-v")
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

#[test]
fn what_only_markports_block_carries_is_said_and_fail_on_extension_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.xbel");
    let input = corpus("xbel/markport-block.xbel");
    // Not a loss: --fail-on-loss keeps its meaning.
    markport()
        .arg("-v")
        .args(["convert", "--to", "xbel", "--fail-on-loss", "-o"])
        .arg(&out)
        .arg(&input)
        .assert()
        .code(0)
        .stderr(
            predicate::str::contains("nothing lost").and(predicate::str::contains(
                "only in an extension: bookmark.tags on 1 node: carried only in markport's block, which other XBEL readers ignore (Bookmarks Toolbar/Rust)",
            )),
        );
    let report = dir.path().join("report.json");
    markport()
        .args([
            "convert",
            "--to",
            "xbel",
            "--fail-on-extension",
            "--report",
            "json",
        ])
        .arg("--report-file")
        .arg(&report)
        .arg("-o")
        .arg(&out)
        .arg(&input)
        .assert()
        .code(1);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["lost"], false);
    assert_eq!(json["extended"], true);
    let fields: Vec<&str> = json["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"bookmark.tags") && fields.contains(&"bookmark.keyword"));
    // Strict output has no block: those fields are losses, not extensions.
    markport()
        .arg("-v")
        .args([
            "convert",
            "--to",
            "xbel",
            "--xbel-strict",
            "--fail-on-extension",
            "-o",
        ])
        .arg(&out)
        .arg(&input)
        .assert()
        .code(0)
        .stderr(
            predicate::str::contains("lost bookmark.tags")
                .and(predicate::str::contains("only in an extension").not()),
        );
    // A file that needs no block passes.
    markport()
        .args(["convert", "--to", "xbel", "--fail-on-extension", "-o"])
        .arg(&out)
        .arg(corpus("xbel/floccus-sync.xbel"))
        .assert()
        .code(0);
}
