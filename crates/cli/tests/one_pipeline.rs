//! One pipeline, held by behaviour: every subcommand that reads goes through
//! the library's one door and every one that writes through its one
//! pipeline (`markport::run`), so they all see the same bookmarks and keep
//! the same promises. A private path in one subcommand once read every
//! input as bytes and dropped a live profile's newest bookmark, pending in
//! places.sqlite's `-wal`; another wrote plain JSON into `out.jsonlz4`.
//! These tests fail when either comes back, in any subcommand.

#[path = "../../places/tests/schema.rs"]
mod schema;

use std::path::Path;

use rusqlite::Connection;
use schema::{item, place, places, T0};
use serde_json::Value;

mod common;

use common::{corpus, markport};

/// The link only the `-wal` holds.
const WAL_ONLY: &str = "https://example.org/only-in-the-wal";

/// A live Firefox database: six bookmarks in the file, a seventh pending
/// in its `-wal`; the connection keeps it live (it is returned).
fn live_places(dir: &Path) -> (std::path::PathBuf, Connection) {
    let path = dir.join("places.sqlite");
    let firefox = Connection::open(&path).unwrap();
    firefox
        .execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA wal_autocheckpoint = 0;",
        )
        .unwrap();
    places(&firefox);
    for i in 0..6 {
        let p = place(&firefox, &format!("https://example.org/{i}"), None);
        item(
            &firefox,
            1,
            Some(p),
            3,
            i,
            Some(&format!("bookmark {i}")),
            T0,
            &format!("bookmark{i:04}"),
        );
    }
    firefox
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
    let p = place(&firefox, WAL_ONLY, None);
    item(
        &firefox,
        1,
        Some(p),
        3,
        6,
        Some("only in the wal"),
        T0,
        "walonly00001",
    );
    let wal = dir.join("places.sqlite-wal");
    assert!(
        std::fs::metadata(&wal).unwrap().len() > 0,
        "the seventh is in the -wal"
    );
    (path, firefox)
}

fn run(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let out = markport().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "markport {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned()
}

#[test]
fn every_subcommand_sees_the_bookmark_pending_in_the_wal() {
    let dir = tempfile::tempdir().unwrap();
    let (db, firefox) = live_places(dir.path());
    let d = dir.path();
    let other = corpus("netscape/chrome.html");

    let xbel = d.join("out.xbel");
    run(&[
        "convert".as_ref(),
        db.as_os_str(),
        "-o".as_ref(),
        xbel.as_os_str(),
    ]);
    assert!(text(&xbel).contains(WAL_ONLY), "convert");

    let merged = d.join("merged.xbel");
    run(&[
        "merge".as_ref(),
        other.as_os_str(),
        db.as_os_str(),
        "-o".as_ref(),
        merged.as_os_str(),
    ]);
    assert!(text(&merged).contains(WAL_ONLY), "merge");

    let site = d.join("site");
    run(&[
        "publish".as_ref(),
        db.as_os_str(),
        "-o".as_ref(),
        site.as_os_str(),
    ]);
    assert!(
        text(&site.join("index.html")).contains("only in the wal") || {
            // The bookmark is on the page of its folder.
            std::fs::read_dir(&site)
                .unwrap()
                .filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
                .any(|e| text(&e.path()).contains(WAL_ONLY))
        },
        "publish"
    );

    let out = run(&["info".as_ref(), "--json".as_ref(), db.as_os_str()]);
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["bookmarks"], 7, "info");

    // Round trip through xFolk, which has no place for a guid: the report
    // and the differences name every bookmark, the seventh too.
    let out = run(&[
        "roundtrip".as_ref(),
        db.as_os_str(),
        "--via".as_ref(),
        "xfolk".as_ref(),
        "--json".as_ref(),
    ]);
    let trip: Value = serde_json::from_slice(&out.stdout).unwrap();
    let guids = trip["reported"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["field"] == "bookmark.guid")
        .unwrap_or_else(|| panic!("roundtrip reports guids: {trip}"));
    assert_eq!(guids["count"], 7, "roundtrip");

    // The converted file lacks nothing; an XBEL of the six alone lacks the
    // seventh, and diff names it.
    let six = d.join("six.xbel");
    std::fs::write(
        &six,
        text(&xbel).replace(WAL_ONLY, "https://example.org/elsewhere"),
    )
    .unwrap();
    let out = markport()
        .arg("diff")
        .arg(&db)
        .arg(&six)
        .arg("--values")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(WAL_ONLY),
        "diff: {out:?}"
    );
    let out = markport().arg("diff").arg(&db).arg(&xbel).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "diff of the same bookmarks: {out:?}"
    );
    drop(firefox);
}

/// `-o out.jsonlz4` asks every writing subcommand for Firefox's compressed
/// form, and `--report-file` takes the report from each.
#[test]
fn every_writing_subcommand_writes_jsonlz4_and_a_report_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = corpus("netscape/chrome.html");
    let b = corpus("netscape/firefox.html");
    for (name, args) in [
        ("convert", vec![a.clone()]),
        ("merge", vec![a.clone(), b.clone()]),
    ] {
        let out = d.join(format!("{name}.jsonlz4"));
        let report = d.join(format!("{name}-report.json"));
        let run = markport()
            .arg(name)
            .args(&args)
            .arg("-o")
            .arg(&out)
            .arg("--json")
            .arg("--report-file")
            .arg(&report)
            .output()
            .unwrap();
        assert!(run.status.success(), "{name}: {run:?}");
        assert!(
            std::fs::read(&out).unwrap().starts_with(b"mozLz40\0"),
            "{name} writes mozLz4"
        );
        let json: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        assert_eq!(json["to"], "firefox", "{name}'s report: {json}");
        assert!(
            run.stderr.is_empty(),
            "{name}: the report went to its file: {run:?}"
        );
    }
    let site = d.join("site");
    let report = d.join("publish-report.json");
    let run = markport()
        .args([
            "publish".as_ref(),
            a.as_os_str(),
            b.as_os_str(),
            "-o".as_ref(),
            site.as_os_str(),
        ])
        .args(["--json", "--report-file"])
        .arg(&report)
        .output()
        .unwrap();
    assert!(run.status.success(), "publish: {run:?}");
    let json: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(json["to"], "site");
    assert!(json["bookmarks"].as_u64().unwrap() > 0);
    let report = d.join("roundtrip-report.json");
    let run = markport()
        .args([
            "roundtrip".as_ref(),
            a.as_os_str(),
            "--via".as_ref(),
            "firefox".as_ref(),
        ])
        .args(["--json", "--report-file"])
        .arg(&report)
        .output()
        .unwrap();
    assert!(run.status.success(), "roundtrip: {run:?}");
    assert!(run.stdout.is_empty(), "the trip's report went to its file");
    let json: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(json["via"], "firefox");
}

/// The gates are the pipeline's: `--fail-on-loss` refuses a merge and a
/// publish as it refuses a convert, writing nothing.
#[test]
fn fail_on_loss_writes_nothing_from_every_writing_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = corpus("netscape/chrome.html");
    let b = corpus("netscape/firefox.html");
    let cases: [(&str, Vec<std::ffi::OsString>, std::path::PathBuf); 3] = [
        ("convert", vec![a.clone().into()], d.join("c.txt")),
        (
            "merge",
            vec![a.clone().into(), b.clone().into()],
            d.join("m.txt"),
        ),
        (
            "publish",
            vec![a.clone().into(), b.clone().into()],
            d.join("site"),
        ),
    ];
    for (name, inputs, out) in cases {
        let mut cmd = markport();
        cmd.arg(name)
            .args(&inputs)
            .arg("-o")
            .arg(&out)
            .arg("--fail-on-loss");
        if name != "publish" {
            // A URL list loses every title.
            cmd.args(["--to", "urls"]);
        }
        let run = cmd.output().unwrap();
        assert_eq!(run.status.code(), Some(1), "{name}: {run:?}");
        assert!(!out.exists(), "{name} wrote nothing");
        assert!(
            String::from_utf8_lossy(&run.stderr).contains("nothing written: --fail-on-loss"),
            "{name}: {run:?}"
        );
    }
}

/// An output with no bookmark from inputs that had some is a mistake, not
/// a result: nothing is written, exit 1, and the message names the filter
/// that removed them; `--allow-empty` writes it. Held for every writing
/// subcommand, since the pipeline decides it.
#[test]
fn an_empty_output_from_bookmarks_is_not_written_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = corpus("netscape/chrome.html");
    let b = corpus("netscape/firefox.html");
    let cases: [(&str, Vec<std::ffi::OsString>, std::path::PathBuf); 3] = [
        ("convert", vec![a.clone().into()], d.join("c.xbel")),
        (
            "merge",
            vec![a.clone().into(), b.clone().into()],
            d.join("m.xbel"),
        ),
        (
            "publish",
            vec![a.clone().into(), b.clone().into()],
            d.join("site"),
        ),
    ];
    for (name, inputs, out) in cases {
        let run = markport()
            .arg(name)
            .args(&inputs)
            .arg("-o")
            .arg(&out)
            .args(["--since", "2999-01-01"])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{name}: {run:?}");
        assert!(!out.exists(), "{name} wrote nothing");
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(
            said.contains("nothing written: no bookmark is left") && said.contains("--since"),
            "{name}: {said}"
        );
        let run = markport()
            .arg(name)
            .args(&inputs)
            .arg("-o")
            .arg(&out)
            .args(["--since", "2999-01-01", "--allow-empty"])
            .output()
            .unwrap();
        assert!(run.status.success(), "{name} --allow-empty: {run:?}");
        assert!(out.exists(), "{name} --allow-empty writes it");
    }
    // An input with nothing in it is said, and converts.
    let empty = d.join("empty.html");
    std::fs::write(&empty, "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL></DL>\n").unwrap();
    let run = markport()
        .arg("convert")
        .arg(&empty)
        .arg("-o")
        .arg(d.join("e.xbel"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("holds no bookmarks"),
        "{run:?}"
    );
}

/// `--dry-run` reads, converts and reports as the real run does, and
/// writes nothing; the first line says what would be written.
#[test]
fn a_dry_run_says_what_it_would_write_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = corpus("netscape/chrome.html");
    let b = corpus("netscape/firefox.html");
    let out = d.join("m.jsonlz4");
    let real = markport()
        .arg("merge")
        .arg(&a)
        .arg(&b)
        .arg("-o")
        .arg(d.join("real.jsonlz4"))
        .output()
        .unwrap();
    assert!(real.status.success(), "{real:?}");
    let dry = markport()
        .arg("merge")
        .arg(&a)
        .arg(&b)
        .arg("-o")
        .arg(&out)
        .arg("--dry-run")
        .output()
        .unwrap();
    assert!(dry.status.success(), "{dry:?}");
    assert!(!out.exists(), "nothing written");
    assert_eq!(
        std::fs::read_dir(d).unwrap().count(),
        1,
        "no temporary file either"
    );
    let (real, dry) = (
        String::from_utf8_lossy(&real.stderr),
        String::from_utf8_lossy(&dry.stderr),
    );
    let first = dry.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("would write {}: ", out.display())),
        "{dry}"
    );
    assert!(
        first.contains(" bookmarks in ") && first.contains(" folders"),
        "{first}"
    );
    // The same report but for the verb.
    assert_eq!(
        real.lines().skip(1).collect::<Vec<_>>(),
        dry.lines().skip(1).collect::<Vec<_>>(),
        "the dry run's report is the real one's"
    );
    assert!(real.lines().next().unwrap().starts_with("wrote "), "{real}");
    let site = d.join("site");
    let run = markport()
        .arg("publish")
        .arg(&a)
        .arg("-o")
        .arg(&site)
        .arg("--dry-run")
        .output()
        .unwrap();
    assert!(run.status.success() && !site.exists(), "{run:?}");
}
