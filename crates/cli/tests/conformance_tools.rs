//! `markport conformance` against real tools, through the adapters in
//! `conformance/adapters/`: each test holds one defect that
//! docs/conformance-results.md reports, so the page stays true. The tools
//! come from `.ci/setup.d/conformance.sh`; without one a test says so and
//! passes, except under `CI=true`, where a missing tool fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether `program` runs (`program --version` or the probe exits 0);
/// prints why a test is skipped, and panics under CI.
fn available(program: &str, probe: &[&str]) -> bool {
    let ok = Command::new(program)
        .args(probe)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI=true but {program} is not installed (.ci/setup.d/conformance.sh)");
        }
        eprintln!("skipped: {program} is not installed (.ci/setup.d/conformance.sh installs it)");
    }
    ok
}

fn conformance(cmd: &str, from: &str, to: &str) -> Value {
    let out = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args(["conformance", "--json", "--timeout", "120", "--cmd", cmd])
        .args(["--from", from, "--to", to])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn file<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"].as_str().unwrap().ends_with(name))
        .unwrap_or_else(|| panic!("no file {name}"))
}

fn failed(report: &Value) -> Vec<String> {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !f["failure"].is_null())
        .map(|f| f["file"].as_str().unwrap().to_owned())
        .collect()
}

fn lost_paths(report: &Value, check: &str) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == check)
        .map(|c| {
            c["lost_paths"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn glib_refuses_the_kde_places_file_and_keeps_the_others() {
    let probe = ["-c", "import ctypes, ctypes.util; ctypes.CDLL(ctypes.util.find_library('glib-2.0') or 'libglib-2.0.so.0')"];
    if !available("python3", &probe) {
        return;
    }
    let r = conformance(
        "conformance/adapters/glib-bookmarkfile.py {in} {out}",
        "desktop",
        "desktop",
    );
    assert_eq!(failed(&r).len(), 1, "{r:#}");
    let kde = file(&r, "kde-places.xbel");
    assert_eq!(kde["failure"]["kind"], "exit");
    assert!(kde["failure"]["stderr"]
        .as_str()
        .unwrap()
        .contains("folder"));
    assert_eq!(file(&r, "recently-used.xbel")["must_kept"], true, "{r:#}");
}

#[test]
fn buku_stops_on_an_untitled_xbel_bookmark_and_exits_0_on_a_non_utf8_file() {
    if !available("buku", &["--version"]) {
        return;
    }
    let r = conformance("conformance/adapters/buku.sh {in} {out}", "xbel", "xbel");
    let nested = file(&r, "nested.xbel");
    assert_eq!(nested["failure"]["kind"], "exit", "{r:#}");
    assert!(nested["failure"]["stderr"]
        .as_str()
        .unwrap()
        .contains("AttributeError"));

    let r = conformance(
        "conformance/adapters/buku.sh {in} {out}",
        "netscape",
        "netscape",
    );
    for name in ["windows-1252.html", "shift_jis.html"] {
        let f = file(&r, name);
        assert_eq!(f["failure"]["kind"], "no-output", "{name}: {f:#}");
    }
    // Every bookmark lands in one folder of buku's.
    let placement = r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "placement")
        .unwrap();
    assert!(placement["changed"].as_u64().unwrap() > 10, "{placement:#}");
}

#[test]
fn bookmarks_parser_loses_what_follows_safari_s_first_folder() {
    let tools = std::env::var_os("MARKPORT_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/markport-tools")
        });
    let installed = tools.join("npm/node_modules/bookmarks-parser").is_dir();
    if !available("node", &["--version"]) || !(installed || skip_or_fail("bookmarks-parser")) {
        return;
    }
    let r = conformance(
        "conformance/adapters/bookmarks-parser.sh {in} {out}",
        "netscape",
        "json",
    );
    assert!(failed(&r).is_empty(), "{r:#}");
    let lost = lost_paths(&r, "bookmark");
    assert!(
        lost.iter()
            .any(|p| p.contains("safari.html: Reading List/")),
        "{lost:?}"
    );
}

fn skip_or_fail(what: &str) -> bool {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {what} is not installed (.ci/setup.d/conformance.sh)");
    }
    eprintln!("skipped: {what} is not installed (.ci/setup.d/conformance.sh installs it)");
    false
}

#[test]
fn bookmarks_converter_refuses_html_that_is_not_chrome_s() {
    if !available("bookmarks-converter", &["--version"]) {
        return;
    }
    let r = conformance(
        "bookmarks-converter -i {in} -I chrome/html -o {out} -O chrome/html",
        "netscape",
        "netscape",
    );
    let refused = failed(&r);
    assert!(refused.len() >= 10, "{refused:?}");
    assert!(file(&r, "chrome.html")["failure"].is_null());
    assert!(file(&r, "firefox.html")["failure"]["stderr"]
        .as_str()
        .unwrap()
        .contains("not a valid bookmarks file"));
}

#[test]
fn firefox_drops_a_relative_link_without_a_word() {
    if !available("firefox-esr", &["--version"]) {
        return;
    }
    // The smallest file of docs/conformance-results.md, with a link Firefox keeps.
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("relative.html");
    std::fs::write(
        &html,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p><DT><A HREF=\"?aBcDeF\">Note</A>\
         <DT><A HREF=\"https://example.org/\">Kept</A></DL>\n",
    )
    .unwrap();
    let expected = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args(["-q", "convert", "--to", "json"])
        .arg(&html)
        .output()
        .unwrap();
    assert!(expected.status.success());
    std::fs::write(dir.path().join("relative.expected.json"), expected.stdout).unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args(["conformance", "--json", "--timeout", "120"])
        .args(["--cmd", "conformance/adapters/firefox.sh html {in} {out}"])
        .args(["--from", "netscape", "--to", "netscape", "--corpus"])
        .arg(dir.path())
        .current_dir(root())
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(failed(&r).is_empty(), "{r:#}");
    let lost = lost_paths(&r, "bookmark");
    assert_eq!(lost.len(), 1, "{r:#}");
    assert!(lost[0].ends_with("relative.html: Note"), "{lost:?}");
}

/// The example of a check's first changed or lost value: (before, after).
fn first_example(report: &Value, check: &str) -> (Value, Value) {
    let c = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == check)
        .unwrap_or_else(|| panic!("no check {check}: {report:#}"));
    let e = &c["examples"][0];
    (e["before"].clone(), e["after"].clone())
}

#[test]
fn shaarli_s_parser_leaves_character_references_in_links_and_titles() {
    let library = Path::new("/usr/share/php/Shaarli/NetscapeBookmarkParser/autoload.php");
    if !available("php", &["--version"])
        || !(library.is_file() || skip_or_fail("php-netscape-bookmark-parser"))
    {
        return;
    }
    // The smallest file of docs/conformance-results.md.
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("entities.html");
    std::fs::write(
        &html,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n\
         <DT><A HREF=\"https://example.org/?a=1&amp;b=2\">Query</A>\n\
         <DT><A HREF=\"https://example.com/\">Fish &amp; chips</A>\n</DL><p>\n",
    )
    .unwrap();
    let expected = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args(["-q", "convert", "--to", "json"])
        .arg(&html)
        .output()
        .unwrap();
    assert!(expected.status.success());
    std::fs::write(dir.path().join("entities.expected.json"), expected.stdout).unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args(["conformance", "--json", "--timeout", "120"])
        .args([
            "--cmd",
            "php conformance/adapters/shaarli-parser.php {in} {out}",
        ])
        .args(["--from", "netscape", "--to", "json", "--corpus"])
        .arg(dir.path())
        .current_dir(root())
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(failed(&r).is_empty(), "{r:#}");
    assert_eq!(
        first_example(&r, "bookmark.href"),
        (
            "https://example.org/?a=1&b=2".into(),
            "https://example.org/?a=1&amp;b=2".into()
        ),
        "{r:#}"
    );
    assert_eq!(
        first_example(&r, "bookmark.title"),
        ("Fish & chips".into(), "Fish &amp; chips".into()),
        "{r:#}"
    );
}
