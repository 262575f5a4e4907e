//! The white space of folder and bookmark titles that markport's Netscape
//! reader keeps is what the browsers' own HTML imports keep (the table
//! "White space in titles" of docs/formats/netscape.md): a real Firefox
//! (firefox-esr, `BookmarkHTMLUtils.importFromFile`, through
//! tests/peers/firefox_bookmarks.py) keeps every folder title as markport
//! reads it and trims bookmark titles; a real Chromium (its first-run HTML
//! import, through tests/peers/chromium_bookmarks.py `import`) keeps every
//! title, a tab made a space and a character reference left as text. Elsewhere than under CI=true, skips saying
//! why when a browser is missing.

mod firefox_driver;

use std::collections::HashMap;
use std::process::Command;

use markport::model::Node;
use markport::ReadOptions;
use markport_tests::{peer_driver, tool};
use serde_json::Value;

/// Titles as written in the file, each on its element's line, and as
/// markport reads them.
const ROWS: [(&str, &str); 10] = [
    ("Folder with space ", "Folder with space "),
    (" Leading", " Leading"),
    ("\tTabs\t", "\tTabs\t"),
    ("Inner   three  spaces", "Inner   three  spaces"),
    ("  both  ", "  both  "),
    ("   ", "   "),
    ("nbsp\u{a0}end\u{a0}", "nbsp\u{a0}end\u{a0}"),
    ("&#32;entity&#9;", " entity\t"),
    // How markport's writer gives a line break: a reference keeps the
    // title on its element's line, which Chromium's line-based reader needs.
    ("line&#10;break", "line\nbreak"),
    ("cr&#13;&#10;lf", "cr\r\nlf"),
];

/// Folder `i` holds one bookmark, `https://f{i}.example/`; bookmark `i`
/// is `https://b{i}.example/`; both titled as row `i` is written.
fn file() -> String {
    let mut html = String::from(
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n\
         <META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n\
         <TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n",
    );
    for (i, (written, _)) in ROWS.iter().enumerate() {
        html.push_str(&format!(
            "    <DT><H3 ADD_DATE=\"1\">{written}</H3>\n    <DL><p>\n        \
             <DT><A HREF=\"https://f{i}.example/\">in {i}</A>\n    </DL><p>\n"
        ));
    }
    for (i, (written, _)) in ROWS.iter().enumerate() {
        html.push_str(&format!(
            "    <DT><A HREF=\"https://b{i}.example/\" ADD_DATE=\"1\">{written}</A>\n"
        ));
    }
    html.push_str("</DL><p>\n");
    html
}

/// From a browser's tree: the title of each folder by the link of its
/// first bookmark, and of each bookmark by its link. `kids`, `link` and
/// `title` name the tree's keys.
fn titles(tree: &Value, kids: &str, link: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut stack = vec![tree];
    while let Some(n) = stack.pop() {
        if let Some(children) = n[kids].as_array() {
            if let Some(first) = children.first().and_then(|c| c[link].as_str()) {
                let t = n["title"].as_str().unwrap_or("").to_string();
                out.insert(format!("folder {first}"), t);
            }
            stack.extend(children);
        } else if let Some(url) = n[link].as_str() {
            let t = n["title"].as_str().unwrap_or("").to_string();
            out.insert(url.to_string(), t);
        }
    }
    out
}

#[test]
fn markport_reads_title_white_space_as_written() {
    let doc = markport::read_bytes(
        file().as_bytes(),
        markport::format("netscape").unwrap(),
        &ReadOptions::default(),
    )
    .unwrap()
    .document;
    for (i, (_, read)) in ROWS.iter().enumerate() {
        let b = doc.find_by_href(&format!("https://b{i}.example/")).unwrap();
        assert_eq!(
            doc.node(b).as_bookmark().unwrap().title.as_deref(),
            Some(*read)
        );
        let f = doc.find_by_href(&format!("https://f{i}.example/")).unwrap();
        let folder = doc.parent(f).unwrap();
        assert!(matches!(doc.node(folder), Node::Folder(x) if x.title.as_deref() == Some(*read)));
    }
}

#[test]
fn firefox_keeps_folder_titles_as_markport_reads_them() {
    if !firefox_driver::available("measures what Firefox's HTML import keeps of titles") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("titles.html");
    std::fs::write(&input, file()).unwrap();
    let answer = firefox_driver::drive(&[input.as_os_str(), "--html".as_ref()]);
    let got = titles(&answer["tree"], "children", "uri");
    for (i, (written, read)) in ROWS.iter().enumerate() {
        let folder = &got[&format!("folder https://f{i}.example/")];
        assert_eq!(folder, read, "Firefox's folder titled {written:?}");
        // Firefox trims a bookmark's title (JavaScript's trim).
        let bookmark = &got[&format!("https://b{i}.example/")];
        assert_eq!(
            bookmark,
            read.trim(),
            "Firefox's bookmark titled {written:?}"
        );
    }
}

#[test]
fn chromium_keeps_every_title_as_markport_reads_it() {
    if !(tool("python3", "the Chromium driver runs on Python")
        && tool(
            "chromium",
            "measures what Chromium's HTML import keeps of titles",
        )
        && tool(
            "unshare",
            "Chromium's import is given the file in a mount namespace",
        ))
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("titles.html");
    std::fs::write(&input, file()).unwrap();
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
    assert!(out.status.success(), "the Chromium driver: {answer}");
    let got = titles(&answer["tree"][0], "children", "url");
    for (i, (written, read)) in ROWS.iter().enumerate() {
        // Chromium makes a tab a space, and decodes no numeric reference.
        let want = if written.contains('&') {
            written.replace('\t', " ")
        } else {
            read.replace('\t', " ")
        };
        for key in [
            format!("folder https://f{i}.example/"),
            format!("https://b{i}.example/"),
        ] {
            assert_eq!(got[&key], want, "Chromium's {key} titled {written:?}");
        }
    }
}
