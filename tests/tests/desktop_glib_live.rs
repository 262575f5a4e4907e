//! What markport writes as desktop bookmarks, the real GLib loads, with the
//! same values: every corpus file of every format, converted, is loaded by
//! GBookmarkFile (through `../shared/tools/glib_bookmarks.py`, which needs
//! only libglib2.0-0; `.ci/setup.d/desktop.sh` installs it).

use markport::model::Node;
use markport::{ReadOptions, WriteOptions};
use markport_conformance::{corpus_samples, shared, tool};
use serde_json::Value;

#[test]
fn glib_loads_what_markport_writes_with_the_same_values() {
    let Some(shared) = shared() else { return };
    if !tool("python3", "the GLib peer script runs on Python") {
        return;
    }
    let script = shared.join("tools/glib_bookmarks.py");
    let probe = std::process::Command::new("python3")
        .arg(&script)
        .arg("--version")
        .output()
        .unwrap();
    if !probe.status.success() {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "CI=true but GLib cannot be loaded"
        );
        eprintln!("skipped: libglib2.0-0 is not installed");
        return;
    }
    let desktop = markport::format("desktop").unwrap();
    let dir = std::env::temp_dir().join(format!("markport-glib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (format, path) in corpus_samples() {
        let bytes = std::fs::read(&path).unwrap();
        let doc = markport::read(
            &bytes,
            markport::format(&format).unwrap(),
            &ReadOptions::default(),
        )
        .unwrap()
        .document;
        let (out, _) = markport::write_to_vec(&doc, desktop, &WriteOptions::default()).unwrap();
        let file = dir.join(format!("{checked}.xbel"));
        std::fs::write(&file, &out).unwrap();
        let run = std::process::Command::new("python3")
            .arg(&script)
            .arg(&file)
            .output()
            .unwrap();
        let dump: Value = match serde_json::from_slice(&run.stdout) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: GLib output unreadable: {e}", path.display()));
                continue;
            }
        };
        if dump["ok"] != Value::Bool(true) {
            failures.push(format!(
                "{}: GLib rejects markport's file: {}",
                path.display(),
                dump["error"]
            ));
            continue;
        }
        let ours = markport::read(&out, desktop, &ReadOptions::default())
            .unwrap()
            .document;
        let items: Vec<_> = ours
            .preorder()
            .filter_map(|id| match ours.node(id) {
                Node::Bookmark(b) => Some(b.clone()),
                _ => None,
            })
            .collect();
        let glib = dump["bookmarks"].as_array().cloned().unwrap_or_default();
        if items.len() != glib.len() {
            failures.push(format!(
                "{}: {} items, GLib {}",
                path.display(),
                items.len(),
                glib.len()
            ));
            continue;
        }
        for (b, g) in items.iter().zip(&glib) {
            let apps: Vec<(String, String, u64)> = g["applications"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| {
                    (
                        a["name"].as_str().unwrap().into(),
                        a["exec"].as_str().unwrap_or("").into(),
                        a["count"].as_u64().unwrap(),
                    )
                })
                .collect();
            let want: Vec<(String, String, u64)> = b
                .details()
                .applications
                .iter()
                .map(|a| (a.name.clone(), a.exec.clone(), u64::from(a.count.unwrap())))
                .collect();
            let same = g["uri"].as_str() == Some(b.href.as_str())
                && g["title"].as_str().map(String::from) == b.title
                && g["description"].as_str().map(String::from) == b.desc
                && g["mime_type"].as_str().map(String::from) == b.details().mime_type
                && g["is_private"].as_bool() == Some(b.private == Some(true))
                && apps == want;
            if !same {
                failures.push(format!("{}: {} differs: GLib {g}", path.display(), b.href));
            }
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 15, "{checked} files");
}
