//! Helpers for markport's conformance tests: where the corpora are, and
//! how a test that needs the shared peer corpus skips (never under CI).

pub mod imported;

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// The project's own samples: every file under `corpus/<format>/` except
/// expected results and notes, with the format its folder names.
pub fn corpus_samples() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let Ok(dirs) = std::fs::read_dir(root().join("corpus")) else {
        return out;
    };
    for dir in dirs.flatten() {
        let format = dir.file_name().to_string_lossy().into_owned();
        // corpus/check/ holds one broken file per `markport check` rule,
        // not samples of a format.
        // corpus/mistakes/ holds conformance cases of common mistakes, each
        // format in a folder of its own (crates/cli/tests/conformance_mistakes.rs).
        // corpus/merge3/ holds three-way merge cases (base, ours, theirs,
        // expected), read by crates/markport/tests/merge3_cases.rs.
        if format == "check" || format == "mistakes" || format == "merge3" {
            continue;
        }
        // A format whose collection is a directory (favorites): each
        // directory directly under its folder is one sample.
        if markport::format(&format).is_some_and(|f| f.directory().is_some()) {
            for e in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if e.path().is_dir() {
                    out.push((format.clone(), e.path()));
                }
            }
            continue;
        }
        for f in walk(&dir.path()) {
            let name = f
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if name.ends_with(".expected.json") || name.ends_with(".md") || name.starts_with('.') {
                continue;
            }
            out.push((format.clone(), f));
        }
    }
    out.sort();
    out
}

/// Every file below `dir`, sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The expected model beside a sample: `NAME.expected.json` for `NAME.EXT`.
pub fn expected_for(sample: &Path) -> PathBuf {
    let stem = sample.file_stem().unwrap_or_default().to_string_lossy();
    sample.with_file_name(format!("{stem}.expected.json"))
}

/// The shared peer corpus (`../shared` beside the checkout), or `None` with a
/// printed reason when it is absent outside CI. Under `CI=true` its absence fails.
pub fn shared() -> Option<PathBuf> {
    let dir = root().join("..").join("shared");
    if dir.join("corpus").is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "CI=true but the shared corpus is missing at {}",
            dir.display()
        );
    }
    eprintln!(
        "skipped: the shared peer corpus is not at {} (it sits beside the checkout in CI)",
        dir.display()
    );
    None
}

/// Peer files the conformance tests run through every writer: each format
/// lists the folders (under `shared/corpus/peers/`) and the file endings of
/// its valid inputs.
pub const PEER_INPUTS: &[(&str, &str, &str)] = &[
    ("xbel", "xbel", ".xbel"),
    ("xbel", "desktop/glib/bookmarks", "valid-"),
    ("desktop", "desktop/glib/bookmarks", "valid-"),
    ("desktop", "desktop/glib-written", "spec-01-basic.glib.xbel"),
    (
        "desktop",
        "desktop/glib-written",
        "spec-03-added-only.glib.xbel",
    ),
    ("desktop", "desktop/recentinfo-manager", ".xbel"),
    ("netscape", "netscape", ".html"),
    ("netscape", "netscape", ".htm"),
    ("firefox", "browsers/firefox-json", ".json"),
    ("firefox", "browsers/firefox-json", ".jsonlz4"),
    ("pocket", "browsers/other", "pocket-"),
    ("pinboard", "browsers/other", "pinboard-"),
    ("instapaper", "browsers/other", "instapaper-"),
    ("netscape", "browsers/other", "raindrop-html"),
    ("csv", "browsers/other", ".csv"),
    ("chromium", "browsers/chromium", ".Bookmarks"),
    ("safari", "browsers/safari", ".plist"),
];

/// Peer files under [`PEER_INPUTS`] that hold no bookmark structure at all
/// (empty, a bare comment, a foreign DOCTYPE): the Netscape reader refuses
/// them (`WrongFormat`, as netscape-go does), so they are not inputs of the
/// round-trip tests; `netscape_not_bookmarks` checks the refusal.
pub const NOT_BOOKMARK_FILES: &[&str] = &[
    "netscape/shaarli-netscape-bookmark-parser/input/empty.htm",
    "netscape/virtualtam-netscape-go/inline/empty-document.htm",
    "netscape/virtualtam-netscape-go/inline/invalid-doctype.htm",
    "netscape/virtualtam-netscape-go/inline/missing-doctype.htm",
];

/// The peer files of [`PEER_INPUTS`], with their format.
pub fn peer_inputs(shared: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for (format, dir, pattern) in PEER_INPUTS {
        for f in walk(&shared.join("corpus/peers").join(dir)) {
            let name = f
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let wanted = if pattern.starts_with('.') {
                name.ends_with(pattern)
            } else {
                name.starts_with(pattern)
            };
            let refused = NOT_BOOKMARK_FILES
                .iter()
                .any(|n| f == shared.join("corpus/peers").join(n));
            if wanted && !refused {
                out.push((format.to_string(), f));
            }
        }
    }
    out
}

/// Whether the program `name` can be run (`name --version` or `name -v`
/// starts). When it cannot: `false` with a printed reason outside CI; under
/// `CI=true` (where `.ci/setup.d` installs it) a panic.
pub fn tool(name: &str, why: &str) -> bool {
    let runs = ["--version", "-v"].iter().any(|flag| {
        std::process::Command::new(name)
            .arg(flag)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok()
    });
    runs || missing(name, why)
}

/// Whether `probe` (a command that loads what a test needs, such as
/// `perl -MSome::Module -e1`) exits with success; when not, as [`tool`].
pub fn installed(what: &str, probe: &mut std::process::Command, why: &str) -> bool {
    let ok = probe
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok || missing(what, why)
}

fn missing(what: &str, why: &str) -> bool {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {what} is missing ({why}); .ci/setup.d installs it");
    }
    eprintln!("skipped: {what} is not installed ({why}); .ci/setup.d/ says how to install it");
    false
}

/// Read a sample as the format named `format` (panics with the path when it
/// does not read: a sample that does not read is a broken test input).
pub fn read_sample(format: &str, path: &Path) -> markport::Document {
    read_parsed(format, path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .document
}

/// Read a sample as `format` through the library's one door
/// ([`markport::read`]): a file by its path, a directory (a favorites tree)
/// by its format's path reader.
pub fn read_parsed(format: &str, path: &Path) -> Result<markport::Parsed, markport::Error> {
    let reader = markport::format(format).unwrap_or_else(|| panic!("no format {format}"));
    markport::read(path, Some(reader), &markport::ReadOptions::default())
        .map(|read| markport::Parsed::new(read.document, read.diagnostics))
        .map_err(|e| e.error)
}

/// The h-entry items mf2py finds on `page` (read as if published at
/// `url`), each as `{"url", "name", "category"}`, in document order, nested
/// items and items inside properties included. `None` (with the reason
/// printed) when Python or mf2py is missing outside CI; under `CI=true` a panic.
pub fn mf2py_entries(page: &Path, url: &str) -> Option<Vec<serde_json::Value>> {
    if !tool("python3", "mf2py runs on Python")
        || !installed(
            "mf2py",
            std::process::Command::new("python3").args(["-c", "import mf2py"]),
            "pip install mf2py",
        )
    {
        return None;
    }
    let script = r#"
import json, sys, mf2py
doc = mf2py.parse(doc=open(sys.argv[1], encoding="utf-8").read(), url=sys.argv[2])
out = []
def walk(items):
    for it in items:
        if "h-entry" in it.get("type", []):
            p = it["properties"]
            out.append({"url": p.get("bookmark-of", [None])[0], "name": p.get("name", [None])[0],
                        "category": p.get("category", [])})
        walk(it.get("children", []))
        for vals in it.get("properties", {}).values():
            walk([v for v in vals if isinstance(v, dict) and "type" in v])
walk(doc["items"])
print(json.dumps(out))
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(page)
        .arg(url)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "mf2py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("mf2py's entries as JSON"))
}

/// The xFolk entries HTML::Microformats finds on `page` (read as if
/// published at `url`), through the project's driver
/// `tests/peers/xfolk_peer.py`: each with `url`, `title`, `tags` and
/// `descriptions_text`. `None` (with the reason printed) when Python or the
/// Perl module is missing outside CI; under `CI=true` a panic.
pub fn xfolk_peer_entries(page: &Path, url: &str) -> Option<Vec<serde_json::Value>> {
    if !tool("python3", "the xFolk peer's driver runs on Python")
        || !installed(
            "HTML::Microformats",
            std::process::Command::new("perl").args(["-MHTML::Microformats", "-e1"]),
            "the Perl xFolk parser",
        )
    {
        return None;
    }
    let out = std::process::Command::new("python3")
        .arg(peer_driver("xfolk_peer.py"))
        .arg(page)
        .arg("--url")
        .arg(url)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "xfolk_peer.py failed (is libhtml-microformats-perl installed?): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut peer: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("xfolk_peer.py's entries as JSON");
    match peer["entries"].take() {
        serde_json::Value::Array(entries) => Some(entries),
        other => panic!("xfolk_peer.py: no entries array: {other}"),
    }
}

/// The project's own driver for a live peer: `tests/peers/NAME`.
pub fn peer_driver(name: &str) -> std::path::PathBuf {
    root().join("tests").join("peers").join(name)
}
