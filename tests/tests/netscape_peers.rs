//! Every Netscape HTML file of the shared peer corpus reads into what its
//! `.expected.json` says: counts, titles, paths, links, attributes (dates,
//! tags, flags, roles, unknown ones), descriptions, the charset. The expected
//! values are the corpus's reference reading (FINDINGS.md); where markport
//! reads differently on purpose, the check says so and docs/formats/netscape.md
//! explains why.

use std::path::Path;

use markport::model::{Attribute, DateValue, Document, Node, NodeId, Role};
use markport::ReadOptions;
use markport_tests::{shared, walk, NOT_BOOKMARK_FILES};
use serde_json::Value;

fn read(path: &Path) -> Result<markport::Parsed, markport::Error> {
    let bytes = std::fs::read(path).expect("readable peer file");
    markport::read_bytes(
        &bytes,
        markport::format("netscape").unwrap(),
        &ReadOptions::default(),
    )
}

fn titles_to(doc: &Document, id: NodeId) -> Vec<String> {
    let mut path = Vec::new();
    let mut at = doc.parent(id);
    while let Some(p) = at {
        path.push(doc.node(p).title().unwrap_or("").to_string());
        at = doc.parent(p);
    }
    path.reverse();
    path
}

/// The instant `value` names in any unit, as nanoseconds.
fn same_date(got: Option<&DateValue>, value: &str) -> bool {
    if value.bytes().all(|b| b == b'0') {
        return got.is_none();
    }
    match (got, value.parse::<i128>()) {
        (Some(DateValue::Instant(t)), Ok(n)) => {
            let nanos = t.unix_seconds() as i128 * 1_000_000_000 + t.subsec_nanos() as i128;
            [1_000_000_000, 1_000_000, 1000, 1]
                .iter()
                .any(|k| n * k == nanos)
        }
        (Some(DateValue::Raw(r)), Err(_)) => &**r == value,
        _ => false,
    }
}

fn has_extra(extra: &[Attribute], k: &str, v: &str) -> bool {
    extra.iter().any(|a| a.name == k && a.value == v)
}

/// Checks one expected attribute of a bookmark (or of the bookmark an alias shows).
fn bookmark_attr(doc: &Document, id: NodeId, k: &str, v: &str) -> Result<(), String> {
    let node = doc.node(id);
    if let Node::Alias(a) = node {
        return match k {
            "ALIASOF" if a.target == v => Ok(()),
            "HREF" => Ok(()),
            _ if has_extra(&a.extra, k, v) => Ok(()),
            _ => Err(format!("alias lacks {k}={v:?}")),
        };
    }
    let b = node.as_bookmark().ok_or("not a bookmark")?;
    let ok = match k {
        "ADD_DATE" => same_date(b.added.as_ref(), v),
        "LAST_MODIFIED" => same_date(b.modified.as_ref(), v),
        "LAST_VISIT" => same_date(b.details().visited.as_ref(), v),
        "ICON" => b.favicon.as_deref() == Some(v),
        "ICON_URI" => b.details().favicon_uri.as_deref() == Some(v),
        "SHORTCUTURL" => b.details().firefox().keyword.as_deref() == Some(v),
        "POST_DATA" => b.details().firefox().post_data.as_deref() == Some(v),
        "FEEDURL" => b.details().firefox().feed_url.as_deref() == Some(v),
        "LAST_CHARSET" => b.details().firefox().charset.as_deref() == Some(v),
        "ID" | "ALIASID" => b.details().id.as_deref() == Some(v),
        "TAGS" => {
            let want: Vec<&str> = v
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect();
            b.tags == want
        }
        "PRIVATE" => b.private == Some(v == "1"),
        "TOREAD" => b.to_read == Some(v == "1"),
        _ => has_extra(&b.details().extra, k, v),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{k}={v:?} not read (got {b:?})"))
    }
}

fn folder_attr(doc: &Document, id: NodeId, k: &str, v: &str) -> Result<(), String> {
    let f = doc.node(id).as_folder().ok_or("not a folder")?;
    let ok = match k {
        "ADD_DATE" => same_date(f.added.as_ref(), v),
        "LAST_MODIFIED" => same_date(f.modified.as_ref(), v),
        "FOLDED" => f.folded == Some(true),
        "PERSONAL_TOOLBAR_FOLDER" => f.role == Some(Role::Toolbar),
        "UNFILED_BOOKMARKS_FOLDER" => f.role == Some(Role::Unfiled),
        "ID" if v == "com.apple.ReadingList" => f.role == Some(Role::ReadingList),
        "ID" => f.id.as_deref() == Some(v),
        _ => has_extra(&f.extra, k, v),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{k}={v:?} not read (got {f:?})"))
    }
}

fn text_of(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

fn desc_matches(got: Option<&str>, raw: &Value) -> bool {
    let want = raw.as_str().map(|r| {
        markport::markup::entities::decode(r, markport::markup::entities::Context::Text)
            .trim()
            .to_string()
    });
    got.map(str::to_string) == want.filter(|w| !w.is_empty())
}

fn check_file(path: &Path, expected: &Value) -> Result<(), String> {
    let r = expected
        .get("derived_reference")
        .ok_or("no derived_reference")?;
    let read = read(path).map_err(|e| format!("does not read: {e}"))?;
    let doc = &read.document;
    let census = doc.census();
    let counts = &r["counts"];
    // Netscape 4 aliases (ALIASOF) become aliases; the reference counts them as bookmarks.
    let got = (
        (census.bookmarks + census.aliases) as u64,
        census.folders as u64,
        census.separators as u64,
        doc.max_depth() as u64,
    );
    let want = (
        counts["bookmarks"].as_u64().unwrap_or(0),
        counts["folders"].as_u64().unwrap_or(0),
        counts["separators"].as_u64().unwrap_or(0),
        counts["max_folder_depth"].as_u64().unwrap_or(0),
    );
    if got != want {
        return Err(format!(
            "counts (bookmarks, folders, separators, depth) {got:?}, expected {want:?}"
        ));
    }
    // Title: TITLE, else H1; an H1 that differs is kept beside it.
    let title = text_of(&r["doc_title"]).filter(|t| !t.is_empty());
    let h1 = text_of(&r["h1"]);
    let h1_extra = doc
        .header
        .extra
        .iter()
        .find(|a| a.name == markport::netscape::H1_EXTRA)
        .map(|a| a.value.clone());
    match (&title, &h1) {
        (Some(t), h) => {
            if doc.header.title.as_deref() != Some(t) {
                return Err(format!("title {:?}, expected {t:?}", doc.header.title));
            }
            let want_extra = h.clone().filter(|h| h != t);
            if h1_extra != want_extra {
                return Err(format!("H1 kept as {h1_extra:?}, expected {want_extra:?}"));
            }
        }
        (None, h) => {
            let want = h.clone().filter(|h| !h.is_empty());
            if doc.header.title != want {
                return Err(format!(
                    "title {:?}, expected the H1 {want:?}",
                    doc.header.title
                ));
            }
        }
    }
    if let Some(attrs) = r.get("h1_attrs").and_then(Value::as_object) {
        for (k, v) in attrs {
            let v = v.as_str().unwrap_or("");
            let ok = match k.as_str() {
                "LAST_MODIFIED" => same_date(doc.header.modified.as_ref(), v),
                "ADD_DATE" => same_date(doc.header.added.as_ref(), v),
                _ => has_extra(&doc.header.extra, k, v),
            };
            if !ok {
                return Err(format!("H1 attribute {k}={v:?} not read"));
            }
        }
    }
    // Folders, in document order.
    let folders: Vec<NodeId> = doc
        .preorder()
        .filter(|&id| matches!(doc.node(id), Node::Folder(_)))
        .collect();
    for (i, want) in r["folders"].as_array().into_iter().flatten().enumerate() {
        let id = folders[i];
        let f = doc.node(id).as_folder().unwrap();
        let where_ = format!("folder {i} ({:?})", f.title);
        if f.title.clone().unwrap_or_default() != want["title"].as_str().unwrap_or("") {
            return Err(format!("{where_}: title, expected {}", want["title"]));
        }
        let path: Vec<String> = serde_json::from_value(want["path"].clone()).unwrap_or_default();
        if titles_to(doc, id) != path {
            return Err(format!(
                "{where_}: path {:?}, expected {path:?}",
                titles_to(doc, id)
            ));
        }
        if let Some(n) = want["child_count"].as_u64() {
            if doc.children(Some(id)).len() as u64 != n {
                return Err(format!(
                    "{where_}: {} children, expected {n}",
                    doc.children(Some(id)).len()
                ));
            }
        }
        for (k, v) in want["attrs"].as_object().into_iter().flatten() {
            folder_attr(doc, id, k, v.as_str().unwrap_or(""))
                .map_err(|e| format!("{where_}: {e}"))?;
        }
        if !want["description_raw"].is_null()
            && !desc_matches(f.desc.as_deref(), &want["description_raw"])
        {
            return Err(format!(
                "{where_}: description {:?}, expected {}",
                f.desc, want["description_raw"]
            ));
        }
    }
    // Bookmarks (and aliases), in document order; large files list a sample.
    let links: Vec<NodeId> = doc
        .preorder()
        .filter(|&id| matches!(doc.node(id), Node::Bookmark(_) | Node::Alias(_)))
        .collect();
    let listed: Vec<(usize, &Value)> = if let Some(all) = r["bookmarks"].as_array() {
        all.iter().enumerate().collect()
    } else {
        let sample = r["bookmarks_sample"]
            .as_array()
            .ok_or("no bookmarks listed")?;
        let n = links.len();
        sample
            .iter()
            .enumerate()
            .map(|(i, v)| (if i < 5 { i } else { n - (sample.len() - i) }, v))
            .collect()
    };
    for (i, want) in listed {
        let id = links[i];
        let shown = match doc.node(id) {
            Node::Alias(a) => doc
                .find_id(&a.target)
                .and_then(|t| doc.node(t).as_bookmark())
                .ok_or(format!("bookmark {i}: alias to nothing"))?,
            n => n.as_bookmark().unwrap(),
        };
        let where_ = format!("bookmark {i} ({})", shown.href);
        if shown.href != want["href"].as_str().unwrap_or("") {
            return Err(format!("{where_}: expected href {}", want["href"]));
        }
        // The reference reading trims titles; markport keeps the white
        // space on the title's line, as the browsers' imports do
        // (docs/formats/netscape.md, "White space in titles").
        let title = shown.title.as_deref().unwrap_or_default();
        if title.trim() != want["title"].as_str().unwrap_or("").trim() {
            return Err(format!(
                "{where_}: title {:?}, expected {}",
                shown.title, want["title"]
            ));
        }
        let path: Vec<String> = serde_json::from_value(want["path"].clone()).unwrap_or_default();
        if titles_to(doc, id) != path {
            return Err(format!(
                "{where_}: path {:?}, expected {path:?}",
                titles_to(doc, id)
            ));
        }
        for (k, v) in want["attrs"].as_object().into_iter().flatten() {
            bookmark_attr(doc, id, k, v.as_str().unwrap_or(""))
                .map_err(|e| format!("{where_}: {e}"))?;
        }
        if !want["description_raw"].is_null()
            && !desc_matches(shown.desc.as_deref(), &want["description_raw"])
        {
            return Err(format!(
                "{where_}: description {:?}, expected {}",
                shown.desc, want["description_raw"]
            ));
        }
    }
    // Declared Mac charsets are honoured.
    if r["encoding_detected"]
        .as_str()
        .is_some_and(|e| e.starts_with("mac_roman"))
        && !read
            .diagnostics
            .iter()
            .any(|d| d.message == "read as macintosh")
    {
        return Err("not read as Mac Roman".into());
    }
    for w in r["warnings"].as_array().into_iter().flatten() {
        if w.as_str().is_some_and(|w| w.contains("without HREF"))
            && !read
                .diagnostics
                .iter()
                .any(|d| d.message.contains("without HREF") && d.location.is_some())
        {
            return Err("no located diagnostic for an <A> without HREF".into());
        }
    }
    Ok(())
}

#[test]
fn every_peer_file_reads_as_expected() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("corpus/peers/netscape");
    let mut failures = Vec::new();
    let mut checked = 0;
    for expected_path in walk(&dir) {
        let name = expected_path.to_string_lossy().into_owned();
        let Some(input) = name.strip_suffix(".expected.json") else {
            continue;
        };
        let input = Path::new(input);
        // No bookmark structure at all: refused (netscape_not_bookmarks).
        if NOT_BOOKMARK_FILES
            .iter()
            .any(|n| input == shared.join("corpus/peers").join(n))
        {
            continue;
        }
        let expected: Value =
            serde_json::from_slice(&std::fs::read(&expected_path).unwrap()).unwrap();
        if name.contains("fuzz-crashers") {
            // netscape-go's crashers: what counts is reading them at all.
            if let Err(e) = read(input) {
                failures.push(format!("{}: {e}", input.display()));
            }
            checked += 1;
            continue;
        }
        if let Err(e) = check_file(input, &expected) {
            failures.push(format!("{}: {e}", input.display()));
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 60, "only {checked} peer files found");
}

#[test]
fn a_pocket_export_is_not_taken_for_a_bookmark_file() {
    let pocket = br#"<!DOCTYPE html><html><head><title>Pocket Export</title></head><body>
<h1>Unread</h1>
<ul>
<li><a href="https://example.com/a" time_added="1600000000" tags="x,y z">A</a></li>
</ul></body></html>"#;
    let err = markport::read_bytes(
        pocket,
        markport::format("netscape").unwrap(),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind, markport::model::ErrorKind::WrongFormat);
    assert!(err.message.contains("Pocket"), "{}", err.message);
}
