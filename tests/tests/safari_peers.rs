//! Safari stores (the public sample in ../shared/corpus/peers/browsers/safari
//! and our own corpus/safari samples, XML and binary): each is detected as
//! `safari` and reads with the nodes Python's plistlib finds. plistlib
//! refuses XML dates with a fraction of a second, so the count drops the
//! fraction first; it reads binary plists as they are.

use std::path::Path;
use std::process::Command;

use markport::model::Document;
use markport::ReadOptions;
use markport_tests::{root, shared, tool, walk};
use serde_json::Value;

/// plistlib's walk of the store, with an explicit stack: every leaf as
/// [href, title, guid] in document order, the lists below the top, the
/// proxies, and the Reading List items with a `DateAdded`.
const COUNT: &str = r#"
import json, plistlib, re, sys
data = open(sys.argv[1], "rb").read()
if not data.startswith(b"bplist00"):
    data = re.sub(rb"(<date>[^<.]*)\.[0-9]+Z</date>", rb"\1Z</date>", data)
top = plistlib.loads(data)
leaves, lists, proxies, dated = [], 0, 0, 0
stack = list(reversed(top.get("Children", [])))
while stack:
    node = stack.pop()
    kind = node.get("WebBookmarkType")
    if kind == "WebBookmarkTypeLeaf":
        leaves.append([node.get("URLString"), node.get("URIDictionary", {}).get("title"),
                       node.get("WebBookmarkUUID")])
        dated += "DateAdded" in node.get("ReadingList", {})
    elif kind == "WebBookmarkTypeList":
        lists += 1
        stack.extend(reversed(node.get("Children", [])))
    elif kind == "WebBookmarkTypeProxy":
        proxies += 1
print(json.dumps({"leaves": leaves, "lists": lists, "proxies": proxies, "dated": dated}))
"#;

fn python_count(path: &Path) -> Value {
    let out = Command::new("python3")
        .args(["-c", COUNT])
        .arg(path)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn markport_count(doc: &Document, notes: usize) -> Value {
    let leaves: Vec<Value> = doc
        .preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .map(|b| serde_json::json!([b.href, b.title, b.details().guid]))
        .collect();
    let dated = doc
        .preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .filter(|b| b.added.is_some())
        .count();
    serde_json::json!({
        "leaves": leaves,
        "lists": doc.census().folders,
        "proxies": notes,
        "dated": dated,
    })
}

fn check(path: &Path) {
    let name = path.display();
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(
        markport::detect(&bytes).map(|f| f.name),
        Some("safari"),
        "{name} is detected"
    );
    let parsed = markport::read_bytes(
        &bytes,
        markport::format("safari").unwrap(),
        &ReadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let proxies = parsed
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("WebBookmarkTypeProxy"))
        .count();
    assert_eq!(
        markport_count(&parsed.document, proxies),
        python_count(path),
        "{name}"
    );
}

#[test]
fn safari_stores_read_with_the_nodes_plistlib_finds() {
    if !tool("python3", "the independent count of Safari stores") {
        return;
    }
    let mut checked = 0;
    for path in walk(&root().join("corpus/safari")) {
        if path.extension().is_some_and(|e| e == "plist") {
            check(&path);
            checked += 1;
        }
    }
    assert_eq!(checked, 2, "corpus/safari has an XML and a binary store");
    let Some(shared) = shared() else { return };
    let mut peers = 0;
    for path in walk(&shared.join("corpus/peers/browsers/safari")) {
        check(&path);
        peers += 1;
    }
    assert!(peers >= 1, "the peer corpus has a Safari store");
}
