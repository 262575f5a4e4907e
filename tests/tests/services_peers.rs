//! Real service exports (../shared/corpus/peers/browsers/other): every
//! Pocket, Pinboard and Instapaper file is detected as its format and read
//! with the counts Python's own csv, json and a plain scan of the HTML find;
//! Raindrop's HTML exports are detected and read as Netscape HTML.

use std::path::Path;
use std::process::Command;

use markport::model::Document;
use markport::ReadOptions;
use markport_tests::{shared, tool, walk};
use serde_json::Value;

/// Python's count of the file: bookmarks, folders (distinct sections) and
/// tags (summed over bookmarks).
const COUNT: &str = r#"
import csv, json, re, sys
path, kind = sys.argv[1], sys.argv[2]
data = open(path, encoding="utf-8", newline="").read()
if kind == "pinboard":
    posts = json.loads(data)
    print(json.dumps([len(posts), 0, sum(len(p["tags"].split()) for p in posts)]))
elif kind == "raindrop-html":
    links = re.findall(r'<A HREF="[^"]*"[^>]* TAGS="([^"]*)"', data)
    folders = re.findall(r"<H3", data)
    print(json.dumps([len(links), len(folders), sum(len([t for t in l.split(",") if t]) for l in links)]))
elif kind == "pocket-html":
    links = re.findall(r'<a href="[^"]*" time_added="[^"]*" tags="([^"]*)"', data)
    sections = re.findall(r"<h1>", data)
    print(json.dumps([len(links), len(sections), sum(len([t for t in l.split(",") if t]) for l in links)]))
else:
    rows = list(csv.DictReader(data.splitlines(keepends=True)))
    if kind == "pocket-csv":
        print(json.dumps([len(rows), len({r["status"] for r in rows}),
                          sum(len([t for t in r["tags"].split("|") if t]) for r in rows)]))
    else:
        # A folder path nests where a slash has no space beside it; every
        # distinct prefix of a path is a folder.
        folders = set()
        for r in rows:
            parts = [p.strip() for p in re.split(r"(?<! )/(?! )", r["Folder"]) if p.strip()] or ["Unread"]
            for i in range(len(parts)):
                folders.add(tuple(parts[: i + 1]))
        tags = sum(len([t for t in json.loads(r["Tags"] or "[]") if t.strip()]) for r in rows) if "Tags" in (rows[0] if rows else {}) else 0
        print(json.dumps([len(rows), len(folders), tags]))
"#;

fn python_count(path: &Path, kind: &str) -> Vec<usize> {
    let out = Command::new("python3")
        .args(["-c", COUNT])
        .arg(path)
        .arg(kind)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap() as usize)
        .collect()
}

fn markport_count(doc: &Document) -> Vec<usize> {
    let c = doc.census();
    let tags = doc
        .preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .map(|b| b.tags.len())
        .sum();
    vec![c.bookmarks, c.folders, tags]
}

#[test]
fn service_exports_read_with_the_counts_python_finds() {
    let Some(shared) = shared() else { return };
    if !tool("python3", "the independent count of the service exports") {
        return;
    }
    let mut checked = 0;
    for path in walk(&shared.join("corpus/peers/browsers/other")) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (format, kind) = if name.starts_with("pinboard-") {
            ("pinboard", "pinboard")
        } else if name.starts_with("pocket-html") {
            ("pocket", "pocket-html")
        } else if name.starts_with("pocket-csv") {
            ("pocket", "pocket-csv")
        } else if name.starts_with("instapaper-") {
            ("instapaper", "instapaper")
        } else if name.starts_with("raindrop-html") {
            ("netscape", "raindrop-html")
        } else {
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            markport::detect(&bytes).map(|f| f.name),
            Some(format),
            "{name} is detected"
        );
        let parsed = markport::read_bytes(
            &bytes,
            markport::format(format).unwrap(),
            &ReadOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            markport_count(&parsed.document),
            python_count(&path, kind),
            "{name}: [bookmarks, folders, tags]"
        );
        checked += 1;
    }
    assert_eq!(checked, 10, "the peer corpus has 10 service exports");
}
