//! The real `Bookmarks` files of ../shared/corpus/peers/browsers/chromium
//! (Chrome, Edge, Brave, Vivaldi, Opera): counts checked against
//! serde_json's own count, a same-format round trip with the same JSON
//! values, and the checksum as Chromium computes it.

use std::path::PathBuf;

use markport_model::{ReadOptions, WriteOptions};
use serde_json::Value;

fn peers() -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/peers/browsers/chromium");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    Some(files)
}

fn parse(bytes: &[u8]) -> Value {
    let text = std::str::from_utf8(bytes).unwrap();
    serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap()
}

/// (urls, folders) counted by serde_json: every object with a `type`, plus
/// Opera's `custom_root` members, which have one too.
fn count(v: &Value) -> (usize, usize) {
    let mut stack = vec![v];
    let (mut urls, mut folders) = (0, 0);
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                match m.get("type").and_then(Value::as_str) {
                    Some("url") => urls += 1,
                    Some("folder") => folders += 1,
                    _ => {}
                }
                stack.extend(m.iter().filter(|(k, _)| *k != "meta_info").map(|(_, v)| v));
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    (urls, folders)
}

fn strip_guids(v: &mut Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                m.remove("guid");
                stack.extend(m.values_mut());
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}

#[test]
fn every_peer_file_reads_with_the_independent_count_and_round_trips() {
    let Some(files) = peers() else {
        eprintln!("skipped: no ../shared/corpus/peers/browsers/chromium");
        return;
    };
    assert!(files.len() >= 12, "{} files", files.len());
    let mut same_checksum = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let json = parse(&bytes);
        let parsed = markport_chromium::read(&bytes, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc = &parsed.document;
        let census = doc.census();
        // The custom_root map is a folder in the model but has no type in the file.
        let maps = doc
            .ids()
            .filter(|&id| {
                doc.node(id).as_folder().is_some_and(|f| {
                    f.extra
                        .iter()
                        .any(|a| a.name == markport_chromium::MAP_ATTR)
                })
            })
            .count();
        assert_eq!(
            (census.bookmarks, census.folders - maps),
            count(&json),
            "{}",
            path.display()
        );
        let mut out = Vec::new();
        let loss = markport_chromium::write(doc, &WriteOptions::default(), &mut out).unwrap();
        let mut back = parse(&out);
        // Files from before Chromium had guids (2018 and older) get them,
        // as Chromium gives them on load; the report says so.
        let mut json = json;
        let no_guids = !census.has(markport_model::Field::FolderGuid);
        if no_guids {
            assert!(loss.fields().contains(&markport_model::Field::FolderGuid));
            strip_guids(&mut back);
            strip_guids(&mut json);
        } else {
            assert!(loss.is_empty(), "{}: {loss}", path.display());
        }
        let stored = json["checksum"].as_str().unwrap().to_owned();
        let warned = parsed
            .diagnostics
            .iter()
            .any(|d| d.message.contains("checksum"));
        if back["checksum"].as_str() == Some(stored.as_str()) {
            same_checksum += 1;
            assert!(
                !warned,
                "{}: a matching checksum is warned about",
                path.display()
            );
        } else {
            eprintln!("{}: checksum differs from the stored one", path.display());
            // The reader's check and the writer's sum agree on every file.
            assert!(warned, "{}: a wrong checksum passes unsaid", path.display());
        }
        let reread = markport_chromium::read(&out, &ReadOptions::default()).unwrap();
        assert!(
            !reread
                .diagnostics
                .iter()
                .any(|d| d.message.contains("checksum")),
            "{}: markport's own output fails its checksum",
            path.display()
        );
        back["checksum"] = json["checksum"].clone();
        if back != json {
            let name = path.file_name().unwrap().to_string_lossy();
            let _ = std::fs::write(std::env::temp_dir().join(format!("{name}.out")), &out);
        }
        assert!(
            back == json,
            "{}: the round trip changes JSON values",
            path.display()
        );
    }
    assert!(same_checksum >= 10, "only {same_checksum} checksums agree");
}
