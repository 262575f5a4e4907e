//! `--for chrome`: the report names everything a real Chromium's HTML
//! import changes of the file written for it.
//!
//! Every sample of corpus/ (whatever its format) is run through the
//! pipeline for Chrome (`Job::destination`, the format it chooses); a real
//! Chromium (headless, through tests/peers/chromium_bookmarks.py's import
//! mode: its own `bookmark_html_reader` on a first run) imports each file,
//! and the tree it then holds (`chrome.bookmarks.getTree()`) is read as a
//! Chromium `Bookmarks` file. The file as markport reads it is compared
//! with that, paired as `markport diff` pairs (folders by path, bookmarks
//! by link): every field Chromium holds differently must be named in the
//! report's `destination` list (or `losses`) on at least as many nodes,
//! file by file. A value Chromium adds where the file had none (an id, the
//! date of the import) is not counted. Chrome, Chromium, Edge, Brave,
//! Vivaldi and Opera share this importer. Runs under CI=true; elsewhere
//! skips when Chromium is missing.

use std::collections::BTreeMap;
use std::process::Command;

use markport::{Document, Field, LossReport, ReadOptions};
use markport_tests::{corpus_samples, peer_driver, tool};
use serde_json::{json, Value};

use markport_tests::imported::{changes, written_for};

/// How many nodes the report names `field` on, lost or changed at the
/// destination.
fn reported(report: &LossReport, field: Field) -> usize {
    report
        .losses
        .iter()
        .chain(&report.destination)
        .filter(|e| e.field == field)
        .map(|e| e.count)
        .sum()
}

/// Chromium's time (microseconds since 1601) of a JavaScript time in
/// milliseconds since 1970, as the `Bookmarks` file writes it.
fn webkit(ms: &Value) -> String {
    let ms = ms.as_f64().unwrap_or(0.0) as i64;
    ((ms + 11_644_473_600_000) * 1000).to_string()
}

/// One node of `getTree()` as the `Bookmarks` file writes it. The depth is
/// a corpus sample's, which the driver's JSON already carried.
fn node(v: &Value) -> Value {
    match v.get("url") {
        Some(url) => json!({
            "type": "url", "name": v["title"], "url": url, "id": v["id"],
            "date_added": webkit(&v["dateAdded"]),
        }),
        None => json!({
            "type": "folder", "name": v["title"], "id": v["id"],
            "date_added": webkit(&v["dateAdded"]),
            "date_modified": v.get("dateGroupModified").map_or("0".to_string(), webkit),
            "children": v["children"].as_array().map_or(Vec::new(), |c| c.iter().map(node).collect()),
        }),
    }
}

/// What Chromium holds after its import (`getTree()`), as markport reads a
/// `Bookmarks` file.
fn imported(tree: &Value) -> Document {
    let mut roots = serde_json::Map::new();
    for root in tree[0]["children"].as_array().expect("Chromium's roots") {
        let key = match root["folderType"].as_str() {
            Some("bookmarks-bar") => "bookmark_bar",
            Some("other") => "other",
            Some("mobile") => "synced",
            _ => continue,
        };
        roots.insert(key.to_string(), node(root));
    }
    let file = json!({ "roots": roots, "version": 1 });
    let chromium = markport::format("chromium").unwrap();
    markport::read_bytes(
        &serde_json::to_vec(&file).unwrap(),
        chromium,
        &ReadOptions::default(),
    )
    .expect("Chromium's tree reads as a Bookmarks file")
    .document
}

#[test]
fn the_report_for_chrome_names_every_field_its_html_import_changes() {
    if !(tool("python3", "the Chromium driver runs on Python")
        && tool("chromium", "imports markport's output --for chrome")
        && tool(
            "unshare",
            "Chromium's import is given the file in a mount namespace",
        ))
    {
        return;
    }
    let mut sources = corpus_samples();
    // To look at some files only while changing a rule.
    if let Ok(only) = std::env::var("MARKPORT_LIVE_ONLY") {
        sources.retain(|(_, p)| p.to_string_lossy().contains(&only));
    }
    let chrome = markport::destination("chrome").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut totals: BTreeMap<Field, (usize, usize)> = BTreeMap::new();
    for (i, (format, src)) in sources.iter().enumerate() {
        let (html, loss, ours) = written_for(src, format, chrome);
        let input = dir.path().join(format!("{i}.html"));
        std::fs::write(&input, &html).unwrap();
        let out = Command::new("python3")
            .arg(peer_driver("chromium_bookmarks.py"))
            .arg("import")
            .arg(&input)
            .output()
            .expect("python3 runs");
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "the Chromium driver printed no JSON ({e}): {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        if !out.status.success() {
            failures.push(format!("{}: Chromium's import: {answer}", src.display()));
            continue;
        }
        let theirs = imported(&answer["tree"]);
        for (field, (n, first)) in changes(&ours, &theirs) {
            let said = reported(&loss, field);
            let t = totals.entry(field).or_default();
            t.0 += n;
            t.1 += said;
            if said < n {
                failures.push(format!(
                    "{}: Chromium changed {field} on {n} nodes ({first}), the report names {said}",
                    src.display()
                ));
            }
        }
    }
    eprintln!(
        "{} files imported by Chromium; per field (changed, reported): {totals:?}",
        sources.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
