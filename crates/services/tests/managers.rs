//! The managers' JSON exports (Linkwarden, Karakeep, wallabag, Omnivore):
//! each corpus sample read and its values checked against what serde_json
//! finds in the same file (an independent reading of the layout); detection
//! among them and the other JSON formats; bad input located; hostile shapes
//! read whole.

use std::collections::BTreeSet;
use std::path::PathBuf;

use markport_model::{Document, ErrorKind, Location, NodeId, ReadOptions};
use markport_services::{karakeep, linkwarden, omnivore, pinboard, wallabag};
use serde_json::Value;

fn corpus(path: &str) -> Vec<u8> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    std::fs::read(root.join(path)).unwrap()
}

fn bookmarks(doc: &Document) -> Vec<(NodeId, &markport_model::Bookmark)> {
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark().map(|b| (id, b)))
        .collect()
}

fn extra<'a>(b: &'a markport_model::Bookmark, name: &str) -> Option<&'a str> {
    b.details()
        .extra
        .iter()
        .find(|a| a.name == name)
        .map(|a| a.value.as_str())
}

fn s(v: &Value) -> Option<&str> {
    v.as_str().filter(|s| !s.is_empty())
}

#[test]
fn linkwarden_collections_are_folders_with_their_links() {
    let bytes = corpus("linkwarden/linkwarden.json");
    assert_eq!(linkwarden::detect(&bytes), Some(90));
    let parsed = linkwarden::read(&bytes, &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    let collections = json["collections"].as_array().unwrap();
    let top = doc.children(None);
    assert_eq!(top.len(), collections.len());
    let pinned: BTreeSet<&str> = json["pinnedLinks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["url"].as_str().unwrap())
        .collect();
    let mut archived = 0;
    for (&folder, c) in top.iter().zip(collections) {
        let f = doc.node(folder).as_folder().unwrap();
        assert_eq!(f.title.as_deref(), s(&c["name"]));
        assert_eq!(f.desc.as_deref(), s(&c["description"]));
        let links = c["links"].as_array().unwrap();
        let children = doc.children(Some(folder));
        assert_eq!(children.len(), links.len());
        for (&id, l) in children.iter().zip(links) {
            let b = doc.node(id).as_bookmark().unwrap();
            assert_eq!(b.href, l["url"].as_str().unwrap());
            assert_eq!(b.title.as_deref(), s(&l["name"]));
            assert_eq!(b.desc.as_deref(), s(&l["description"]));
            let tags: Vec<&str> = l["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap())
                .collect();
            assert_eq!(b.tags, tags);
            assert_eq!(
                b.added
                    .as_ref()
                    .and_then(|d| d.instant())
                    .map(|t| t.to_w3c()),
                l["createdAt"]
                    .as_str()
                    .map(|d| markport_model::DateValue::from_w3c(d)
                        .instant()
                        .unwrap()
                        .to_w3c())
            );
            assert_eq!(b.private, Some(!c["isPublic"].as_bool().unwrap()));
            assert_eq!(extra(b, "pinned").is_some(), pinned.contains(&*b.href));
            assert_eq!(extra(b, "type"), l["type"].as_str());
            assert!(
                extra(b, "textContent").is_none(),
                "the archived text is not carried"
            );
            archived += usize::from(s(&l["textContent"]).is_some());
        }
    }
    assert_eq!(archived, 1);
    let note = &parsed.diagnostics[0].message;
    assert!(note.starts_with("1 of 3 links' archived text"), "{note}");
    // The account's fields are the document's.
    let user = |k: &str| {
        doc.header
            .extra
            .iter()
            .find(|a| a.name == k)
            .map(|a| a.value.as_str())
    };
    assert_eq!(user("username"), json["username"].as_str());
}

#[test]
fn karakeep_lists_nest_and_text_notes_are_no_bookmarks() {
    let bytes = corpus("karakeep/karakeep.json");
    assert_eq!(karakeep::detect(&bytes), Some(90));
    assert_eq!(linkwarden::detect(&bytes), None);
    let parsed = karakeep::read(&bytes, &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    let lists = json["lists"].as_array().unwrap();
    let links: Vec<&Value> = json["bookmarks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["content"]["type"] == "link")
        .collect();
    let texts = json["bookmarks"].as_array().unwrap().len() - links.len();
    assert_eq!(texts, 1);
    let census = doc.census();
    assert_eq!(census.folders, lists.len());
    assert_eq!(census.bookmarks, links.len());
    assert!(parsed.diagnostics[0].message.starts_with("1 text notes"));
    // Each folder is its list, under its parent list.
    for id in doc.preorder() {
        let Some(f) = doc.node(id).as_folder() else {
            continue;
        };
        let list = lists
            .iter()
            .find(|l| l["id"].as_str() == f.id.as_deref())
            .unwrap();
        assert_eq!(f.title.as_deref(), list["name"].as_str());
        let parent = doc
            .parent(id)
            .map(|p| doc.node(p).as_folder().unwrap().id.clone().unwrap());
        assert_eq!(parent.as_deref(), list["parentId"].as_str());
    }
    // Each bookmark in its first list, with its values.
    for ((id, b), l) in bookmarks(doc).into_iter().zip({
        // Document order: folders' bookmarks in list order come where their
        // folder is; compare by link instead.
        let mut sorted = links.clone();
        sorted.sort_by_key(|l| {
            bookmarks(doc)
                .iter()
                .position(|(_, b)| b.href == l["content"]["url"].as_str().unwrap())
                .unwrap()
        });
        sorted
    }) {
        assert_eq!(b.href, l["content"]["url"].as_str().unwrap());
        assert_eq!(b.title.as_deref(), s(&l["title"]));
        assert_eq!(b.desc.as_deref(), s(&l["note"]));
        let tags: Vec<&str> = l["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(b.tags, tags);
        let secs = l["createdAt"].as_i64().unwrap();
        assert_eq!(
            b.added.as_ref().unwrap().instant().unwrap().unix_seconds(),
            secs
        );
        let first = l["lists"]
            .as_array()
            .unwrap()
            .first()
            .and_then(|v| v.as_str());
        let folder = doc
            .parent(id)
            .map(|p| doc.node(p).as_folder().unwrap().id.clone().unwrap());
        assert_eq!(folder.as_deref(), first);
        assert_eq!(
            extra(b, "lists").is_some(),
            l["lists"].as_array().unwrap().len() > 1
        );
        assert_eq!(b.private, Some(true));
    }
}

#[test]
fn karakeep_list_cycles_and_missing_parents_go_to_the_top() {
    let json = br#"{"bookmarks": [{"createdAt": 1, "content": {"type": "link", "url": "https://a/"}, "lists": ["b"]}],
      "lists": [{"id": "a", "name": "A", "parentId": "b"}, {"id": "b", "name": "B", "parentId": "a"},
                {"id": "c", "name": "C", "parentId": "gone"}]}"#;
    let parsed = karakeep::read(json, &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    assert_eq!(doc.census().folders, 3);
    let top: Vec<_> = doc
        .children(None)
        .iter()
        .map(|&id| doc.node(id).title().unwrap())
        .collect();
    assert_eq!(top, ["B", "C"]);
    let messages: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("\"b\" is its own ancestor")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("parent \"gone\"")),
        "{messages:?}"
    );
}

#[test]
fn wallabag_entries_carry_archived_starred_and_tags() {
    let bytes = corpus("wallabag/wallabag.json");
    assert_eq!(wallabag::detect(&bytes), Some(90));
    assert_eq!(pinboard::detect(&bytes), None);
    let parsed = wallabag::read(&bytes, &ReadOptions::default()).unwrap();
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    let entries = json.as_array().unwrap();
    let doc = &parsed.document;
    let marks = bookmarks(doc);
    assert_eq!(marks.len(), entries.len());
    for ((_, b), e) in marks.iter().zip(entries) {
        assert_eq!(b.href, e["url"].as_str().unwrap());
        assert_eq!(b.title.as_deref(), s(&e["title"]));
        assert_eq!(b.details().id.as_deref(), Some(&*e["id"].to_string()));
        let tags: Vec<&str> = e["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(b.tags, tags);
        assert_eq!(b.to_read, Some(e["is_archived"] == 0));
        assert_eq!(extra(b, "is_starred"), Some(&*e["is_starred"].to_string()));
        assert_eq!(b.private, Some(e["is_public"] != true));
        assert!(extra(b, "content").is_none());
        let added = markport_model::DateValue::from_w3c(e["created_at"].as_str().unwrap());
        assert_eq!(b.added.as_ref().unwrap().instant(), added.instant());
    }
    let with_content = entries
        .iter()
        .filter(|e| s(&e["content"]).is_some())
        .count();
    assert_eq!(with_content, 1);
    assert!(parsed.diagnostics[0]
        .message
        .starts_with("1 entries' saved article"));
}

#[test]
fn omnivore_items_carry_labels_and_state() {
    let bytes = corpus("omnivore/metadata_0_to_3.json");
    assert_eq!(omnivore::detect(&bytes), Some(90));
    assert_eq!(wallabag::detect(&bytes), None);
    let parsed = omnivore::read(&bytes, &ReadOptions::default()).unwrap();
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    let items = json.as_array().unwrap();
    let marks = bookmarks(&parsed.document);
    assert_eq!(marks.len(), items.len());
    for ((_, b), item) in marks.iter().zip(items) {
        assert_eq!(b.href, item["url"].as_str().unwrap());
        assert_eq!(b.title.as_deref(), s(&item["title"]));
        assert_eq!(b.desc.as_deref(), s(&item["description"]));
        assert_eq!(b.details().id.as_deref(), item["id"].as_str());
        let labels: Vec<&str> = item["labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(b.tags, labels);
        assert_eq!(b.to_read, Some(item["state"] != "Archived"));
        assert_eq!(extra(b, "slug"), item["slug"].as_str());
    }
}

#[test]
fn bad_input_is_an_error_with_its_position() {
    let opts = ReadOptions::default();
    // Cut in the middle of an entry.
    let err = wallabag::read(b"[{\"url\": \"https://a/\",\n \"is_archived\": ", &opts).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Syntax);
    assert_eq!(err.location.map(|l| l.line), Some(2), "{err:?}");
    let err = linkwarden::read(b"{\"name\": \"x\"}", &opts).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    assert!(err.message.contains("no `collections`"));
    let err = karakeep::read(b"[1]", &opts).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    // Text after the array: where it starts.
    let err = omnivore::read(b"[]\n  x", &opts).unwrap_err();
    assert_eq!(
        err.location,
        Some(Location { line: 2, column: 3 }),
        "{err:?}"
    );
    let err = omnivore::read(b"{}", &opts).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    // Collections that are not an array: where they are.
    let err = linkwarden::read(b"{\"collections\":\n  5}", &opts).unwrap_err();
    assert_eq!(
        err.location,
        Some(Location { line: 2, column: 3 }),
        "{err:?}"
    );
    // An entry that is not an object, a bad date, an odd flag: warnings
    // with their places, the rest read.
    let parsed = wallabag::read(
        b"[1,\n{\"url\": \"https://a/\", \"created_at\": \"soon\", \"is_archived\": 7}]",
        &opts,
    )
    .unwrap();
    let at: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| (d.location.unwrap().line, d.message.as_str()))
        .collect();
    assert_eq!(at.len(), 3, "{at:?}");
    assert_eq!(at[0], (1, "entry 1 is not an object; skipped"));
    assert!(
        at[1].1.contains("created_at \"soon\"") && at[1].0 == 2,
        "{at:?}"
    );
    assert!(at[2].1.contains("is_archived 7"), "{at:?}");
    let b = parsed
        .document
        .node(parsed.document.children(None)[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(extra(b, "is_archived"), Some("7"));
}

#[test]
fn hostile_shapes_read_whole() {
    const N: usize = 100_000;
    let opts = ReadOptions::default();
    // A chain of N nested lists (the depth is the file's to choose).
    let mut lists: Vec<String> = (0..N)
        .map(|i| {
            format!(
                "{{\"id\": \"l{i}\", \"name\": \"L{i}\", \"parentId\": \"l{}\"}}",
                i + 1
            )
        })
        .collect();
    lists.push(format!("{{\"id\": \"l{N}\", \"name\": \"top\"}}"));
    let json = format!(
        "{{\"bookmarks\": [{{\"createdAt\": 1, \"content\": {{\"type\": \"link\", \"url\": \"https://a/\"}}, \"lists\": [\"l0\"]}}], \"lists\": [{}]}}",
        lists.join(",")
    );
    let doc = karakeep::read(json.as_bytes(), &opts).unwrap().document;
    assert_eq!(doc.census().folders, N + 1);
    assert_eq!(doc.max_depth(), N + 1);
    // One entry with N keys, each twice: the last value of each kept.
    let keys: String = (0..N)
        .map(|i| format!(",\"k{i}\": 1, \"k{i}\": 2"))
        .collect();
    let json =
        format!("[{{\"url\": \"https://a/\", \"is_archived\": 0, \"is_starred\": 0{keys}}}]");
    let doc = wallabag::read(json.as_bytes(), &opts).unwrap().document;
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(b.details().extra.len(), N + 1);
    assert!(b
        .details()
        .extra
        .iter()
        .all(|a| a.name == "is_starred" || a.value == "2"));
    // N tags on one link.
    let tags: Vec<String> = (0..N).map(|i| format!("{{\"name\": \"t{i}\"}}")).collect();
    let json = format!(
        "{{\"collections\": [{{\"name\": \"c\", \"links\": [{{\"url\": \"https://a/\", \"tags\": [{}]}}]}}]}}",
        tags.join(",")
    );
    let doc = linkwarden::read(json.as_bytes(), &opts).unwrap().document;
    let (_, b) = bookmarks(&doc)[0];
    assert_eq!(b.tags.len(), N);
}
