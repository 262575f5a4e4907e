//! The migration operations (`convert --dedupe`, `--folders-as-tags`, ...,
//! `markport merge`) on corpus files, as people run them.

use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

mod common;

use common::{corpus, markport};

/// Convert `input` to markport JSON with `flags`; the JSON report and the output.
fn convert_json(input: &Path, flags: &[&str]) -> (Value, Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let assert = markport()
        .arg("convert")
        .arg(input)
        .arg("-o")
        .arg(&out)
        .args(flags)
        .arg("--json")
        .assert()
        .success();
    let report = serde_json::from_slice(&assert.get_output().stderr).unwrap();
    let doc = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    (report, doc)
}

/// Every node of a markport JSON document (a flat list, each node naming
/// its parent's index), in document order.
fn nodes(doc: &Value) -> Vec<&Value> {
    doc["nodes"].as_array().unwrap().iter().collect()
}

/// The top-level nodes.
fn top(doc: &Value) -> Vec<&Value> {
    nodes(doc)
        .into_iter()
        .filter(|n| n.get("parent").is_none())
        .collect()
}

fn of_type<'a>(doc: &'a Value, t: &str) -> Vec<&'a Value> {
    nodes(doc).into_iter().filter(|n| n["type"] == t).collect()
}

fn change<'a>(report: &'a Value, reason: &str, field: &str) -> Option<&'a Value> {
    report["changes"]
        .as_array()?
        .iter()
        .find(|c| c["reason"] == reason && c["field"] == field)
}

#[test]
fn folders_become_tags_and_the_report_lists_them_as_changes() {
    let (report, doc) = convert_json(&corpus("xbel/nested.xbel"), &["--folders-as-tags"]);
    let tagged = change(&report, "added by --folders-as-tags", "bookmark.tags").unwrap();
    assert!(tagged["count"].as_u64().unwrap() > 0);
    assert_eq!(report["lost"], false, "a requested change is not a loss");
    // Every bookmark in a folder carries the folder's title as a tag.
    let all = of_type(&doc, "bookmark");
    let with_tags = all.iter().filter(|b| b["tags"].is_array()).count() as u64;
    assert!(with_tags >= tagged["count"].as_u64().unwrap());
    assert!(!of_type(&doc, "folder").is_empty(), "folders stay");
}

#[test]
fn merge_keeps_duplicates_when_asked_and_dedupe_removes_them_later() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("chrome-again.html");
    std::fs::copy(corpus("netscape/chrome.html"), &copy).unwrap();
    let both = dir.path().join("both.json");
    markport()
        .arg("merge")
        .arg(corpus("netscape/chrome.html"))
        .arg(&copy)
        .arg("--keep-duplicates")
        .arg("-o")
        .arg(&both)
        .assert()
        .success()
        .stderr(predicate::str::contains("4 bookmarks, 4 added, 0 merged"));
    let (report, doc) = convert_json(&both, &["--dedupe"]);
    let removed = change(&report, "removed by --dedupe", "bookmark").unwrap();
    assert_eq!(removed["count"], 4);
    assert_eq!(of_type(&doc, "bookmark").len(), 4);
    // --fail-on-loss is about the format, not about what was asked for.
    markport()
        .arg("convert")
        .arg(&both)
        .args(["--dedupe", "--fail-on-loss", "--to", "json"])
        .assert()
        .success()
        .stderr(predicate::str::contains("requested changes (not losses):"))
        .stderr(predicate::str::contains(
            "removed by --dedupe: bookmark on 4 nodes",
        ));
}

#[test]
fn merge_joins_the_toolbars_of_two_browsers_and_merges_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("merged.json");
    markport()
        .arg("merge")
        .arg(corpus("netscape/firefox.html"))
        .arg(corpus("netscape/chrome.html"))
        .arg(corpus("netscape/chrome.html"))
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "chrome.html (netscape): 4 bookmarks, 0 added, 4 merged into an earlier one",
        ));
    let doc: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let toolbars = of_type(&doc, "folder")
        .into_iter()
        .filter(|f| f["role"] == "toolbar")
        .count();
    assert_eq!(
        toolbars, 1,
        "Firefox's toolbar and Chrome's bookmarks bar are one"
    );
    assert_eq!(of_type(&doc, "bookmark").len(), 6 + 4);
}

#[test]
fn merge_json_report_says_per_input_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("merged.xbel");
    let assert = markport()
        .arg("merge")
        .arg(corpus("netscape/chrome.html"))
        .arg(corpus("netscape/chrome.html"))
        .arg("-o")
        .arg(&out)
        .arg("--json")
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&assert.get_output().stderr).unwrap();
    let second = &report["inputs"][1];
    assert_eq!(
        (second["added"].as_u64(), second["merged"].as_u64()),
        (Some(0), Some(4))
    );
    assert_eq!(report["to"], "xbel");
}

#[test]
fn bad_operations_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let cases: [(&[&str], &str); 4] = [
        (&["--only-folder", "Nowhere"], "no folder \"Nowhere\""),
        (
            &["--only-tag", "no-such-tag"],
            "no bookmark is tagged no-such-tag",
        ),
        (&["--flatten", "--tags-as-folders"], "cannot be used with"),
        (&["--since", "yesterday"], "not a W3C date"),
    ];
    for (flags, message) in cases {
        markport()
            .arg("convert")
            .arg(corpus("netscape/firefox.html"))
            .arg("-o")
            .arg(&out)
            .args(flags)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
        assert!(!out.exists(), "{flags:?} wrote output");
    }
    markport()
        .arg("merge")
        .arg(corpus("netscape/firefox.html"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at least two input files"));
    markport()
        .arg("merge")
        .arg(corpus("netscape/firefox.html"))
        .arg(dir.path().join("missing.html"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.html"));
    assert!(!out.exists());
}

#[test]
fn public_only_publishes_an_xfolk_page_without_private_bookmarks() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("links.html");
    markport()
        .arg("convert")
        .arg(corpus("netscape/pinboard.html"))
        .arg("--public-only")
        .arg("-o")
        .arg(&page)
        .args(["--to", "xfolk"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "dropped by --public-only: bookmark on 1 node",
        ));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("lwn.net/Articles/531114"),
        "the private one is gone"
    );
}

#[test]
fn tags_become_folders_with_copies_reported() {
    let (report, doc) = convert_json(
        &corpus("netscape/delicious.html"),
        &["--tags-as-folders=all"],
    );
    let folders = of_type(&doc, "folder");
    assert!(!folders.is_empty());
    let titles: Vec<&str> = folders
        .iter()
        .map(|f| f["title"].as_str().unwrap())
        .collect();
    let mut sorted = titles.clone();
    sorted.sort_by_key(|t| t.to_lowercase());
    assert_eq!(titles, sorted, "ordered by tag");
    // Three bookmarks, with 3, 2 and 1 tags: three copies.
    let copied = change(&report, "copied by --tags-as-folders=all", "bookmark").unwrap();
    assert_eq!(copied["count"], 3);
    assert_eq!(of_type(&doc, "bookmark").len(), 3 + 3);
}

#[test]
fn only_folder_makes_the_folder_the_root() {
    let (report, doc) = convert_json(
        &corpus("netscape/firefox.html"),
        &["--only-folder", "Bookmarks Toolbar"],
    );
    assert!(change(&report, "dropped by --only-folder", "bookmark").is_some());
    let top = top(&doc);
    assert!(top.iter().all(|n| n["title"] != "Bookmarks Toolbar"));
    assert!(top.iter().any(|n| n["title"] == "The Guardian"), "{top:?}");
}

#[test]
fn roundtrip_with_operations_shows_the_changes_and_a_true_report() {
    markport()
        .arg("roundtrip")
        .arg(corpus("netscape/firefox.html"))
        .args(["--via", "xfolk", "--flatten"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "removed by --flatten: folder on 2 nodes",
        ))
        .stdout(predicate::str::contains("not exact").not());
}

/// A markport JSON file of top-level folders, each `(title, desc, id, guid, added)`.
fn folders_json(path: &Path, folders: &[(&str, &str, &str, &str, &str)]) {
    let nodes: Vec<Value> = folders
        .iter()
        .map(|(title, desc, id, guid, added)| {
            serde_json::json!({"type": "folder", "title": title, "desc": desc,
                "id": id, "guid": guid, "added": added})
        })
        .collect();
    let doc = serde_json::json!({"markport": 1, "nodes": nodes});
    std::fs::write(path, serde_json::to_vec(&doc).unwrap()).unwrap();
}

#[test]
fn merge_keeps_a_joined_folders_data_reports_what_it_cannot_and_fails_on_loss() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    folders_json(&a, &[("Dev", "Work", "f1", "g1", "2024-02-01T00:00:00Z")]);
    folders_json(
        &b,
        &[
            ("Dev", "Play", "f2", "g2", "2024-01-01T00:00:00Z"),
            ("Dev", "Work", "f1", "g1", "2024-03-01T00:00:00Z"),
        ],
    );
    let out = dir.path().join("merged.json");
    let assert = markport()
        .arg("merge")
        .arg(&a)
        .arg(&b)
        .arg("-o")
        .arg(&out)
        .arg("--json")
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&assert.get_output().stderr).unwrap();
    assert_eq!(report["lost"], true, "{report:#}");
    let lost: Vec<(&str, u64, &str)> = report["losses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["field"].as_str().unwrap(),
                l["count"].as_u64().unwrap(),
                l["paths"][0].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(lost, [("folder.id", 1, "Dev"), ("folder.guid", 1, "Dev")]);
    let joined = &report["changes"][0];
    assert_eq!(
        (joined["field"].as_str(), joined["count"].as_u64()),
        (Some("folder"), Some(1))
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let dev = &of_type(&doc, "folder")[0];
    assert_eq!(of_type(&doc, "folder").len(), 1);
    assert_eq!(dev["desc"], "Work\n\nPlay");
    assert_eq!(
        (dev["id"].as_str(), dev["guid"].as_str()),
        (Some("f1"), Some("g1"))
    );
    assert_eq!(dev["added"], "2024-01-01T00:00:00Z");

    // The same as text, and --fail-on-loss refuses and writes nothing.
    let refused = dir.path().join("refused.json");
    markport()
        .arg("-v")
        .arg("merge")
        .arg(&a)
        .arg(&b)
        .arg("-o")
        .arg(&refused)
        .arg("--fail-on-loss")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "merged -> json: could not carry the id of 1 folder and the guid of 1 folder",
        ))
        .stderr(predicate::str::contains("lost folder.id on 1 node"))
        .stderr(predicate::str::contains("lost folder.guid on 1 node"))
        .stderr(predicate::str::contains(
            "joined by merge (the same title twice in one folder of this input): folder on 1 node",
        ))
        .stderr(predicate::str::contains("nothing written: --fail-on-loss"));
    assert!(!refused.exists());
}

/// A Netscape export with a folder the user wants left out, a tag with a
/// space, a source-only ID and a folder that dedupe empties.
const TIDY: &str = r#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
<DT><A HREF="https://example.org/" ID="rdf:#$1" TAGS="New folder,Rust">First</A>
<DT><H3>Old stuff</H3>
<DL><p>
<DT><A HREF="https://example.org">Again</A>
</DL><p>
<DT><H3>Private</H3>
<DL><p>
<DT><A HREF="https://p.example/">P</A>
</DL><p>
<DT><H3>Empty before</H3>
<DL><p>
</DL><p>
</DL><p>
"#;

#[test]
fn exclude_folder_tag_style_drop_extra_and_emptied_folders() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("tidy.html");
    std::fs::write(&input, TIDY).unwrap();
    let run = |flags: &[&str]| {
        let (report, doc) = convert_json(&input, flags);
        let folders: Vec<String> = top_level(&doc)
            .into_iter()
            .filter(|n| n["type"] == "folder")
            .map(|n| n["title"].as_str().unwrap().to_string())
            .collect();
        (report, doc, folders)
    };
    let (report, doc, folders) = run(&[
        "--exclude-folder",
        "Private",
        "--dedupe",
        "--tag-style",
        "lower-hyphen",
        "--drop-extra",
    ]);
    assert_eq!(
        folders,
        ["Empty before"],
        "Old stuff was emptied by --dedupe"
    );
    let first = top_level(&doc)[0];
    assert_eq!(first["tags"], serde_json::json!(["new-folder", "rust"]));
    assert!(first.get("id").is_none(), "{first}");
    let reasons: Vec<&str> = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["reason"].as_str().unwrap())
        .collect();
    for reason in [
        "dropped by --exclude-folder",
        "removed (left empty) by --dedupe",
        "restyled by --tag-style",
        "dropped by --drop-extra",
    ] {
        assert!(reasons.contains(&reason), "{reason} in {reasons:?}");
    }
    let (_, _, kept) = run(&["--dedupe", "--keep-empty"]);
    assert_eq!(kept, ["Old stuff", "Private", "Empty before"]);
    markport()
        .arg("convert")
        .arg(&input)
        .args(["-t", "json", "--exclude-folder", "Nowhere"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--exclude-folder: no folder \"Nowhere\"",
        ));
}

#[test]
fn merge_and_publish_take_the_convert_operations() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("tidy.html");
    std::fs::write(&input, TIDY).unwrap();
    let out = dir.path().join("merged.json");
    markport()
        .arg("merge")
        .arg(&input)
        .arg(corpus("netscape/chrome.html"))
        .arg("-o")
        .arg(&out)
        .args(["--only-folder", "Private", "--tag-style", "hyphen"])
        .assert()
        .success();
    let doc: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let links: Vec<&str> = top_level(&doc)
        .into_iter()
        .map(|n| n["href"].as_str().unwrap())
        .collect();
    assert_eq!(links, ["https://p.example/"]);

    let site = dir.path().join("site");
    markport()
        .arg("publish")
        .arg(&input)
        .arg("-o")
        .arg(&site)
        .args(["--exclude-folder", "Private"])
        .assert()
        .success()
        .stderr(predicate::str::contains("dropped by --exclude-folder"));
    let mut pages = String::new();
    let mut dirs = vec![site.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "html") {
                pages.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    assert!(pages.contains("https://example.org/"));
    assert!(
        !pages.contains("p.example"),
        "the excluded folder is not published"
    );
}

#[test]
fn merge_removes_a_folder_it_left_empty_unless_asked_to_keep_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.html");
    std::fs::write(
        &first,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n\
         <DT><A HREF=\"https://example.org/\">E</A>\n</DL><p>\n",
    )
    .unwrap();
    let second = dir.path().join("second.html");
    std::fs::write(
        &second,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Later</H3>\n<DL><p>\n\
         <DT><A HREF=\"https://example.org\">E again</A>\n</DL><p>\n</DL><p>\n",
    )
    .unwrap();
    let merged = |flags: &[&str]| {
        let out = dir.path().join("m.json");
        let assert = markport()
            .arg("merge")
            .arg(&first)
            .arg(&second)
            .arg("-o")
            .arg(&out)
            .args(flags)
            .assert()
            .success();
        let report = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        let doc: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        (top_level(&doc).len(), report)
    };
    let (nodes, report) = merged(&[]);
    assert_eq!(nodes, 1, "{report}");
    assert!(report.contains("left empty"), "{report}");
    let (nodes, _) = merged(&["--keep-empty"]);
    assert_eq!(nodes, 2);
}

/// The top-level nodes of markport JSON (those without a parent).
fn top_level(doc: &Value) -> Vec<&Value> {
    doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n.get("parent").is_none())
        .collect()
}

/// A Netscape file of `n` pages as Pocket exports them (tracking parameter,
/// a tag), then as Safari has them (http, a trailing slash, a #fragment),
/// in a folder of their own: the overlap of the two exports.
fn pocket_and_safari(n: usize) -> (String, String) {
    let mut pocket = String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n");
    let mut safari = pocket.clone();
    for i in 0..n {
        pocket.push_str(&format!(
            "<DT><A HREF=\"https://news{i}.example/story/{i}?utm_source=pocket_mylist\" \
             ADD_DATE=\"{}\" TAGS=\"pocket\">Story {i}</A>\n",
            1_700_000_000 + i
        ));
    }
    safari.push_str("<DT><H3>Reading List</H3>\n<DL><p>\n");
    for i in 0..n {
        let href = match i % 3 {
            0 => format!("https://news{i}.example/story/{i}/"),
            1 => format!("http://News{i}.example/story/{i}"),
            _ => format!("https://news{i}.example/story/{i}#comments"),
        };
        safari.push_str(&format!(
            "<DT><A HREF=\"{href}\">Story {i}</A>\n<DD>preview {i}\n"
        ));
    }
    safari.push_str("</DL><p>\n");
    pocket.push_str("</DL><p>\n");
    safari.push_str("</DL><p>\n");
    (pocket, safari)
}

#[test]
fn dedupe_levels_merge_pocket_and_safari_duplicates_as_asked() {
    let n = 30;
    let (pocket, safari) = pocket_and_safari(n);
    let dir = tempfile::tempdir().unwrap();
    // One file holding both, as a person who concatenated the exports has.
    let both = dir.path().join("both.html");
    let safari_body = safari
        .split_once("<DL><p>\n")
        .unwrap()
        .1
        .rsplit_once("</DL><p>")
        .unwrap()
        .0;
    let mut joined = pocket.rsplit_once("</DL><p>").unwrap().0.to_string();
    joined.push_str(safari_body);
    joined.push_str("</DL><p>\n");
    std::fs::write(&both, joined).unwrap();

    let bookmarks = |flags: &[&str]| {
        let (report, doc) = convert_json(&both, flags);
        (report, of_type(&doc, "bookmark").len(), doc)
    };
    let (_, exact, _) = bookmarks(&["--dedupe"]);
    assert_eq!(exact, 2 * n, "exact merges none of them");
    let (_, exact, _) = bookmarks(&["--dedupe=exact"]);
    assert_eq!(exact, 2 * n);
    // normal: only the trailing slashes, and only where the query agrees:
    // Pocket's copies carry utm_source, so none of the pairs merges yet.
    let (_, normal, _) = bookmarks(&["--dedupe=normal"]);
    assert_eq!(normal, 2 * n);
    let (report, loose, doc) = bookmarks(&["--dedupe=loose"]);
    assert_eq!(loose, n, "every Safari copy merged into Pocket's");
    let removed = change(&report, "removed by --dedupe=loose", "bookmark").unwrap();
    assert_eq!(removed["count"], n);
    assert!(!removed["paths"].as_array().unwrap().is_empty());
    assert!(change(&report, "removed (left empty) by --dedupe=loose", "folder").is_some());
    assert_eq!(report["lost"], false);
    // The first keeps its link and gains the later one's description.
    let first = of_type(&doc, "bookmark")[0];
    assert_eq!(
        first["href"],
        "https://news0.example/story/0?utm_source=pocket_mylist"
    );
    assert_eq!(first["desc"], "preview 0");

    // The same pairs without Pocket's parameter: normal merges the
    // trailing slashes (a third of them), loose all.
    let plain = dir.path().join("plain.html");
    std::fs::write(
        &plain,
        std::fs::read_to_string(&both)
            .unwrap()
            .replace("?utm_source=pocket_mylist", ""),
    )
    .unwrap();
    let (report, _) = convert_json(&plain, &["--dedupe=normal"]);
    assert_eq!(
        change(&report, "removed by --dedupe=normal", "bookmark").unwrap()["count"],
        n / 3
    );

    // merge across the two files: --match LEVEL, per input.
    let (p, s) = (
        dir.path().join("pocket.html"),
        dir.path().join("safari.html"),
    );
    std::fs::write(&p, &pocket).unwrap();
    std::fs::write(&s, &safari).unwrap();
    let merge = |level: Option<&str>| {
        let mut cmd = markport();
        cmd.arg("merge")
            .arg(&p)
            .arg(&s)
            .args(["--to", "json", "-o"]);
        cmd.arg(dir.path().join("merged.json"));
        if let Some(level) = level {
            cmd.args(["--match", level]);
        }
        cmd.assert().success()
    };
    let line = |k: usize| format!("{n} bookmarks, {} added, {k} merged", n - k);
    merge(None).stderr(predicate::str::contains(line(0)));
    merge(Some("exact")).stderr(predicate::str::contains(line(0)));
    merge(Some("loose"))
        .stderr(predicate::str::contains(line(n)))
        .stderr(predicate::str::contains(format!(
            "merged by --match loose: into the earlier bookmark (its path listed) whose link differs as written; the earlier link kept: bookmark on {n} nodes"
        )))
        .stderr(predicate::str::contains("(Story 0, Story 1,"));
    markport()
        .arg("merge")
        .arg(&p)
        .arg(&s)
        .args(["--to", "json", "--match", "loose", "--keep-duplicates"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
    markport()
        .arg("convert")
        .arg(&both)
        .args(["--to", "json", "--dedupe=sloppy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exact, normal, loose"));
}
