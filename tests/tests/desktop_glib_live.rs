//! What markport writes as desktop bookmarks, the real GLib loads, with the
//! same values: every corpus file of every format, converted, is loaded by
//! GBookmarkFile (through the project's driver `tests/peers/glib_bookmarks.py`,
//! which needs only Python and libglib2.0-0; `.ci/setup.d/desktop.sh` installs
//! them).

use markport::model::Node;
use markport::{ReadOptions, WriteOptions};
use markport_tests::{corpus_samples, peer_driver, read_parsed, tool};
use serde_json::Value;

#[test]
fn glib_loads_what_markport_writes_with_the_same_values() {
    if !tool("python3", "the GLib driver runs on Python") {
        return;
    }
    let script = peer_driver("glib_bookmarks.py");
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
        eprintln!(
            "skipped: GLib cannot be loaded (libglib2.0-0 is not installed): {}",
            String::from_utf8_lossy(&probe.stderr)
        );
        return;
    }
    let desktop = markport::format("desktop").unwrap();
    let dir = std::env::temp_dir().join(format!("markport-glib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (format, path) in corpus_samples() {
        let doc = read_parsed(&format, &path).unwrap().document;
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
        let ours = markport::read_bytes(&out, desktop, &ReadOptions::default())
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
                .desktop()
                .applications
                .iter()
                .map(|a| (a.name.clone(), a.exec.clone(), u64::from(a.count.unwrap())))
                .collect();
            let same = g["uri"].as_str() == Some(b.href.as_str())
                && g["title"].as_str().map(String::from) == b.title
                && g["description"].as_str().map(String::from) == b.desc
                && g["mime_type"].as_str().map(String::from) == b.details().desktop().mime_type
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

/// GLib's dump shows path bytes that are not UTF-8 as `\xNN`
/// (Python's `backslashreplace`); markport's bytes are shown the same way.
fn backslashreplace(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// `markport desktop add --exec` stores a command line as GLib's
/// `g_bookmark_file_set_application_info` does (`g_shell_quote`), and
/// `markport desktop exec` prints what `g_bookmark_file_get_application_info`
/// gives (unquoted, then expanded): both compared with the real GLib for
/// quotes, backslashes, spaces, non-ASCII and non-UTF-8 paths, and every
/// `%` code.
#[test]
fn exec_lines_are_stored_and_expanded_as_glib_does() {
    use markport::desktop::spec::{exec_command_line, register, Registration};
    if !tool("python3", "the GLib driver runs on Python") {
        return;
    }
    let script = peer_driver("glib_bookmarks.py");
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
        eprintln!(
            "skipped: GLib cannot be loaded (libglib2.0-0 is not installed): {}",
            String::from_utf8_lossy(&probe.stderr)
        );
        return;
    }
    let execs = [
        "gedit %f",
        "gedit %u",
        "it's \"q\" %F",
        "back\\slash \\\"x\\\" %U",
        "été %f --x=%x 100%% 50%",
        "sh -c 'open \"%f\"'",
        "'%f' \"%u\"",
        "",
    ];
    let uris = [
        "file:///tmp/%C3%A9t%C3%A9%20x.txt",
        "file:///tmp/it's%20a%5Cb%22.txt",
        "file:///tmp/caf%E9.txt",
        "file:///tmp/a%3Bb%3F.txt",
        "https://example.org/a%20b",
    ];
    let now = markport::model::Timestamp::from_unix_seconds(1_700_000_000).unwrap();
    let mut doc = markport::model::Document::new();
    let mut spec_items = Vec::new();
    for uri in uris {
        let mut apps = Vec::new();
        for (i, exec) in execs.iter().enumerate() {
            let r = Registration {
                uri: uri.into(),
                app: format!("app{i}"),
                exec: Some(exec.to_string()),
                ..Default::default()
            };
            register(&mut doc, &r, now).unwrap();
            apps.push(serde_json::json!({"name": format!("app{i}"), "exec": if exec.is_empty() { format!("app{i} %u") } else { exec.to_string() }}));
        }
        spec_items.push(serde_json::json!({"uri": uri, "applications": apps}));
    }
    let dir = std::env::temp_dir().join(format!("markport-glib-exec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let desktop = markport::format("desktop").unwrap();
    let (ours, loss) = markport::write_to_vec(&doc, desktop, &WriteOptions::default()).unwrap();
    assert!(loss.is_empty(), "{loss:?}");
    std::fs::write(dir.join("ours.xbel"), &ours).unwrap();
    std::fs::write(
        dir.join("spec.json"),
        serde_json::json!({ "bookmarks": spec_items }).to_string(),
    )
    .unwrap();
    let glib_written = std::process::Command::new("python3")
        .arg(&script)
        .arg("--write")
        .arg(dir.join("glib.xbel"))
        .arg(dir.join("spec.json"))
        .output()
        .unwrap();
    assert!(glib_written.status.success(), "{glib_written:?}");
    let dump = |name: &str| -> Value {
        let run = std::process::Command::new("python3")
            .arg(&script)
            .arg(dir.join(name))
            .output()
            .unwrap();
        serde_json::from_slice(&run.stdout).unwrap()
    };
    let (of_ours, of_glib) = (dump("ours.xbel"), dump("glib.xbel"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(of_ours["ok"], Value::Bool(true), "{of_ours}");
    let mut compared = 0;
    let mut failures = Vec::new();
    for (b, g) in of_ours["bookmarks"]
        .as_array()
        .unwrap()
        .iter()
        .zip(of_glib["bookmarks"].as_array().unwrap())
    {
        let uri = b["uri"].as_str().unwrap();
        for (a, ga) in b["applications"]
            .as_array()
            .unwrap()
            .iter()
            .zip(g["applications"].as_array().unwrap())
        {
            let stored = a["exec"].as_str().unwrap();
            if ga["exec"].as_str() != Some(stored) {
                failures.push(format!(
                    "{uri} {}: stored {stored:?}, GLib stores {}",
                    a["name"], ga["exec"]
                ));
            }
            let mine = exec_command_line(stored, uri)
                .map(|l| backslashreplace(&l))
                .ok();
            let glib = a["exec_expanded"].as_str().map(String::from);
            if mine != glib {
                failures.push(format!(
                    "{uri} {stored:?}: markport gives {mine:?}, GLib {glib:?} {}",
                    a["exec_error"]
                ));
            }
            compared += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(compared, execs.len() * uris.len());
}

/// A store cleaned in place (`remove`, then `prune --missing` and
/// `--older-than`) is one GLib loads, holding exactly the entries left, in
/// their order, with their values: the corpus store, GLib's own sample
/// written by GLib, and entries for real files, one of them deleted.
#[test]
fn glib_loads_a_pruned_store_with_exactly_the_entries_left() {
    use markport::desktop::spec::{
        prune_file, register, remove_from_file, update, Prune, Registration, UpdateOptions,
    };
    if !tool("python3", "the GLib driver runs on Python") {
        return;
    }
    let script = peer_driver("glib_bookmarks.py");
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
        eprintln!(
            "skipped: GLib cannot be loaded (libglib2.0-0 is not installed): {}",
            String::from_utf8_lossy(&probe.stderr)
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let store = root.join("recently-used.xbel");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/desktop/recently-used.xbel"),
        &store,
    )
    .unwrap();
    let kept = root.join("kept file.txt");
    let gone = root.join("Résumé.jpg");
    std::fs::write(&kept, "x").unwrap();
    std::fs::write(&gone, "x").unwrap();
    let uri = |p: &std::path::Path| markport::desktop::spec::uri_for_path(p).unwrap();
    update(&store, |doc| {
        for (u, private) in [
            (uri(&kept), true),
            (uri(&gone), false),
            ("https://example.org/removed".to_owned(), false),
        ] {
            let r = Registration {
                uri: u,
                app: "eog".into(),
                private,
                ..Default::default()
            };
            register(doc, &r, markport::model::Timestamp::now())?;
        }
        Ok(())
    })
    .unwrap();
    std::fs::remove_file(&gone).unwrap();
    let opts = UpdateOptions::default();
    let removed = remove_from_file(
        &store,
        &["https://example.org/removed".to_owned()],
        Some(&opts),
    )
    .unwrap();
    assert_eq!(removed.removed.len(), 1);
    let pruned = prune_file(
        &store,
        &Prune {
            missing: true,
            older_than: markport::model::Timestamp::parse_w3c("2024-03-03T00:00:00Z"),
        },
        Some(&opts),
    )
    .unwrap();
    let gone_ones: Vec<&str> = pruned.removed.iter().map(|r| r.href.as_str()).collect();
    // The corpus's report and its café picture name files not on this
    // machine; its diary (a web URI) is newer than the limit.
    assert_eq!(
        gone_ones,
        [
            "file:///home/ana/Documents/report%202024.odt",
            "file:///home/ana/Pictures/caf%E9-latin1.png",
            uri(&gone).as_str(),
        ]
    );
    let run = std::process::Command::new("python3")
        .arg(&script)
        .arg(&store)
        .output()
        .unwrap();
    let dump: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(dump["ok"], Value::Bool(true), "GLib refuses it: {dump}");
    let seen: Vec<(String, bool)> = dump["bookmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["uri"].as_str().unwrap().to_owned(),
                b["is_private"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("https://example.org/diary.txt".to_owned(), true),
            (uri(&kept), true),
        ]
    );
    let diary = &dump["bookmarks"][0];
    assert_eq!(
        diary["description"],
        "Private: only the editor that registered it sees it."
    );
    assert_eq!(diary["applications"][0]["count"], 3);
}
