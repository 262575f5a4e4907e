//! places.sqlite as a real Firefox writes it: the project's own driver,
//! `tests/peers/firefox_bookmarks.py`, has Firefox (firefox-esr, headless) import corpus files and hand back its
//! places.sqlite and, independently, its own view of the tree
//! (`PlacesUtils.promiseBookmarksTree`). markport reads the database and must
//! find every bookmark and folder Firefox lists, with the same guid, parent,
//! position, title, url, dates, tags, keyword and post data.

mod firefox_driver;

use std::collections::BTreeMap;
use std::path::Path;

use markport::model::{DateValue, Document, Node};
use markport::ReadOptions;
use markport_tests::root;
use serde_json::Value;

/// What both sides say of one item, keyed by guid.
type Items = BTreeMap<String, String>;

fn micros(d: Option<&DateValue>) -> String {
    d.and_then(DateValue::instant)
        .map(|t| {
            (i128::from(t.unix_seconds()) * 1_000_000 + i128::from(t.subsec_nanos() / 1000))
                .to_string()
        })
        .unwrap_or_default()
}

fn sorted_tags(tags: impl IntoIterator<Item = String>) -> String {
    let mut tags: Vec<String> = tags.into_iter().collect();
    tags.sort();
    tags.join(",")
}

/// Firefox's tree, flattened (the places root and the tags root left out,
/// as markport leaves them out).
fn firefox_items(tree: &Value) -> Items {
    let mut out = Items::new();
    let mut stack: Vec<(&Value, String)> = tree["children"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|c| (c, String::new()))
        .collect();
    while let Some((node, parent)) = stack.pop() {
        let guid = node["guid"].as_str().unwrap().to_string();
        let s = |k: &str| node[k].as_str().unwrap_or("").to_string();
        let n = |k: &str| node[k].as_i64().map_or(String::new(), |v| v.to_string());
        // The roots' positions count the tags root, which markport leaves out.
        let index = if parent.is_empty() {
            String::new()
        } else {
            n("index")
        };
        match node["typeCode"].as_i64() {
            Some(1) => {
                let tags = s("tags");
                let tags = tags.split(',').filter(|t| !t.is_empty()).map(String::from);
                out.insert(
                    guid.clone(),
                    format!(
                        "bookmark parent={parent} index={} title={} uri={} added={} modified={} tags={} keyword={} post={}",
                        index, s("title"), s("uri"), n("dateAdded"), n("lastModified"),
                        sorted_tags(tags), s("keyword"), s("postData")
                    ),
                );
            }
            Some(2) => {
                out.insert(
                    guid.clone(),
                    format!(
                        "folder parent={parent} index={} title={} added={} modified={}",
                        index,
                        s("title"),
                        n("dateAdded"),
                        n("lastModified")
                    ),
                );
                for c in node["children"].as_array().into_iter().flatten().rev() {
                    stack.push((c, guid.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

fn markport_items(doc: &Document) -> Items {
    let mut out = Items::new();
    for id in doc.preorder() {
        let parent = doc
            .parent(id)
            .and_then(|p| doc.node(p).as_folder())
            .and_then(|f| f.guid.clone())
            .unwrap_or_default();
        let index = match doc.parent(id) {
            None => String::new(),
            Some(p) => doc
                .children(Some(p))
                .iter()
                .position(|c| *c == id)
                .unwrap()
                .to_string(),
        };
        match doc.node(id) {
            Node::Bookmark(b) => {
                let d = b.details();
                out.insert(
                    d.guid.clone().unwrap(),
                    format!(
                        "bookmark parent={parent} index={index} title={} uri={} added={} modified={} tags={} keyword={} post={}",
                        b.title.as_deref().unwrap_or(""), b.href, micros(b.added.as_ref()),
                        micros(b.modified.as_ref()), sorted_tags(b.tags.clone()),
                        d.firefox().keyword.as_deref().unwrap_or(""), d.firefox().post_data.as_deref().unwrap_or("")
                    ),
                );
            }
            Node::Folder(f) => {
                out.insert(
                    f.guid.clone().unwrap(),
                    format!(
                        "folder parent={parent} index={index} title={} added={} modified={}",
                        f.title.as_deref().unwrap_or(""),
                        micros(f.added.as_ref()),
                        micros(f.modified.as_ref())
                    ),
                );
            }
            _ => {}
        }
    }
    out
}

fn firefox_places(input: &Path, out: &Path) -> Value {
    let said = firefox_driver::drive(&[input.as_os_str(), "--places".as_ref(), out.as_os_str()]);
    assert_eq!(said["ok"], true, "{said}");
    said["tree"].clone()
}

#[test]
fn places_databases_firefox_writes_read_back_with_firefox_s_own_values() {
    if !firefox_driver::available("a real Firefox writes the places.sqlite files read here") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for sample in [
        "firefox.html",
        "chrome.html",
        "pinboard.html",
        "delicious.html",
    ] {
        let input = root().join("corpus/netscape").join(sample);
        let db = dir.path().join(format!("{sample}.sqlite"));
        let tree = firefox_places(&input, &db);
        let parsed = markport::read(&db, None, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{sample}: {e}"));
        assert!(
            parsed.diagnostics.is_empty(),
            "{sample}: {:?}",
            parsed.diagnostics
        );
        let (want, got) = (firefox_items(&tree), markport_items(&parsed.document));
        assert!(
            want.len() > 4,
            "{sample}: Firefox kept {} items",
            want.len()
        );
        for (guid, firefox) in &want {
            assert_eq!(got.get(guid), Some(firefox), "{sample}: {guid}");
        }
        assert_eq!(
            got.len(),
            want.len(),
            "{sample}: markport read more than Firefox lists"
        );
        checked += want.len();
    }
    eprintln!("{checked} items compared with Firefox's own tree");
}
