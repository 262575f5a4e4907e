//! Plists shaped to break a reader: a cycle, containers shared to expand
//! exponentially, 100,000 levels, 100,000 keys. Each is an answer (a
//! document or an error with its position), never a panic, a stack
//! overflow or a hang. Times and memory are measured in
//! scripts/bench-scaling.sh, not here.

mod common;

use common::Bplist;
use markport_model::{Error, ErrorKind, Parsed, ReadOptions};

const N: usize = 100_000;

/// Read on a thread with a small stack: a reader that recursed once per
/// level would overflow it long before 100,000 levels.
fn read_small_stack(bytes: Vec<u8>) -> Result<Parsed, Error> {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || markport_safari::read(&bytes, &ReadOptions::default()))
        .unwrap()
        .join()
        .expect("the reader does not overflow its stack")
}

#[test]
fn a_container_that_contains_itself_is_refused_with_its_offset() {
    let mut p = Bplist::default();
    let root = p.reserve();
    let children = p.string("Children");
    let kind = p.string("WebBookmarkType");
    let list = p.string("WebBookmarkTypeList");
    // The top dictionary's Children array holds the top dictionary.
    let array = p.array(&[root]);
    p.set_dict(root, &[(children, array), (kind, list)]);
    let bytes = p.finish(root);
    assert!(markport_safari::detect(&bytes).is_some());
    let err = read_small_stack(bytes).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsafe, "{err}");
    assert!(err.message.contains("cycle"), "{err}");
    assert!(err.message.contains("at byte "), "{err}");
}

#[test]
fn shared_containers_that_expand_exponentially_are_refused() {
    // 64 arrays, each holding the one before twice: 2^64 values from a
    // file of a kilobyte.
    let mut p = Bplist::default();
    let mut a = p.string("x");
    for _ in 0..64 {
        a = p.array(&[a, a]);
    }
    let (children, kind, url) = (
        p.string("Children"),
        p.string("WebBookmarkType"),
        p.string("URLString"),
    );
    let (leaf_type, href, bomb) = (
        p.string("WebBookmarkTypeLeaf"),
        p.string("https://example.org/"),
        p.string("Bomb"),
    );
    let leaf = p.dict(&[(kind, leaf_type), (url, href), (bomb, a)]);
    let array = p.array(&[leaf]);
    let root = p.dict(&[(children, array)]);
    let bytes = p.finish(root);
    let len = bytes.len();
    let err = read_small_stack(bytes).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsafe, "{err}");
    assert!(err.message.contains(&format!("{len} bytes")), "{err}");
}

#[test]
fn a_shared_string_is_no_expansion() {
    // The same string object under every leaf, as Apple's writer shares
    // equal strings: read, not refused.
    let mut p = Bplist::default();
    let (kind, url, leaf_type) = (
        p.string("WebBookmarkType"),
        p.string("URLString"),
        p.string("WebBookmarkTypeLeaf"),
    );
    let href = p.string("https://example.org/same");
    let leaves: Vec<u32> = (0..1000)
        .map(|_| p.dict(&[(kind, leaf_type), (url, href)]))
        .collect();
    let array = p.array(&leaves);
    let children = p.string("Children");
    let root = p.dict(&[(children, array)]);
    let doc = read_small_stack(p.finish(root)).unwrap().document;
    assert_eq!(doc.census().bookmarks, 1000);
}

/// 100,000 nested lists, the innermost holding one leaf.
fn deep_binary() -> Vec<u8> {
    let mut p = Bplist::default();
    let (children, kind, title, url) = (
        p.string("Children"),
        p.string("WebBookmarkType"),
        p.string("Title"),
        p.string("URLString"),
    );
    let (list, leaf_type, name, href) = (
        p.string("WebBookmarkTypeList"),
        p.string("WebBookmarkTypeLeaf"),
        p.string("level"),
        p.string("https://example.org/deep"),
    );
    let mut node = p.dict(&[(kind, leaf_type), (url, href)]);
    for _ in 0..N {
        let array = p.array(&[node]);
        node = p.dict(&[(children, array), (kind, list), (title, name)]);
    }
    let array = p.array(&[node]);
    let root = p.dict(&[(children, array), (kind, list)]);
    p.finish(root)
}

#[test]
fn a_binary_plist_100000_deep_reads() {
    let doc = read_small_stack(deep_binary()).unwrap().document;
    assert_eq!(doc.census().folders, N);
    assert_eq!(doc.census().bookmarks, 1);
    assert_eq!(doc.max_depth(), N);
}

#[test]
fn an_xml_plist_100000_deep_reads() {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>Children</key><array>\n");
    for _ in 0..N {
        s.push_str("<dict><key>WebBookmarkType</key><string>WebBookmarkTypeList</string><key>Children</key><array>\n");
    }
    s.push_str(&common::leaf_xml(0));
    for _ in 0..N {
        s.push_str("</array></dict>\n");
    }
    s.push_str("</array></dict></plist>\n");
    let doc = read_small_stack(s.into_bytes()).unwrap().document;
    assert_eq!(doc.census().folders, N);
    assert_eq!(doc.census().bookmarks, 1);
    assert_eq!(doc.max_depth(), N);
}

#[test]
fn a_value_nested_100000_deep_inside_a_leaf_is_kept() {
    // Not children: a value of the leaf, kept whole as its JSON text.
    let mut s = String::from("<plist version=\"1.0\"><dict><key>Children</key><array><dict><key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string><key>URLString</key><string>https://e/</string><key>Deep</key>");
    for _ in 0..N {
        s.push_str("<array>");
    }
    s.push_str("<string>bottom</string>");
    for _ in 0..N {
        s.push_str("</array>");
    }
    s.push_str("</dict></array></dict></plist>");
    let doc = read_small_stack(s.into_bytes()).unwrap().document;
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    let extra = &b.details().extra;
    assert_eq!(extra.len(), 1);
    assert_eq!(extra[0].name, "Deep");
    assert_eq!(
        extra[0].value,
        format!("{}\"bottom\"{}", "[".repeat(N), "]".repeat(N))
    );
}

#[test]
fn a_leaf_with_100000_keys_keeps_every_one() {
    let mut s = String::from("<plist version=\"1.0\"><dict><key>Children</key><array><dict><key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string><key>URLString</key><string>https://e/</string>");
    for i in 0..N {
        s.push_str(&format!("<key>k{i}</key><integer>{i}</integer>"));
    }
    s.push_str("</dict></array></dict></plist>");
    let doc = read_small_stack(s.into_bytes()).unwrap().document;
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    let extra = &b.details().extra;
    assert_eq!(extra.len(), N);
    assert_eq!(
        (extra[N - 1].name.as_str(), extra[N - 1].value.as_str()),
        ("k99999", "99999")
    );
}

#[test]
fn a_folder_of_100000_leaves_reads_every_one() {
    let xml = common::store_xml((0..N).map(common::leaf_xml));
    let bin = common::xml_to_binary(xml.as_bytes());
    for bytes in [xml.into_bytes(), bin] {
        let doc = read_small_stack(bytes).unwrap().document;
        let bar = doc.children(None)[0];
        assert_eq!(doc.children(Some(bar)).len(), N);
        let last = doc
            .node(doc.children(Some(bar))[N - 1])
            .as_bookmark()
            .unwrap();
        assert_eq!(
            last.href,
            format!("https://example.org/{}/page?q=markport", N - 1)
        );
    }
}
