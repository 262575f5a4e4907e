//! `markport check` run like a user: every problem with its place, the
//! exit codes, --json, and a file that cannot be read among others.

mod common;

use common::markport;

const BROKEN: &str = r#"<?xml version="1.0"?>
<xbel version="1.0">
  <folder id="a"><title>One</title></folder>
  <folder id="a"><title>Two</title></folder>
  <bookmark added="yesterday"/>
  <alias ref="nowhere"/>
</xbel>
"#;

#[test]
fn lists_every_problem_with_file_line_column_and_rule_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.xbel");
    std::fs::write(&file, BROKEN).unwrap();
    let out = markport().arg("check").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let name = file.display().to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].starts_with(&format!("{name}:4:11: error: xbel/duplicate-id: ")),
        "{text}"
    );
    assert!(lines[1].starts_with(&format!("{name}:5:3: error: xbel/bookmark-without-href: ")));
    assert!(lines[2].starts_with(&format!("{name}:5:13: error: xbel/bad-date: ")));
    assert!(lines[3].starts_with(&format!("{name}:6:10: error: xbel/dangling-alias: ")));
}

#[test]
fn a_clean_file_exits_0_silently() {
    let out = markport()
        .args([
            "check",
            "../../corpus/xbel/nested.xbel",
            "../../corpus/netscape/chrome.html",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn json_gives_one_object_per_problem() {
    let out = markport()
        .args(["check", "--json", "-"])
        .write_stdin(BROKEN)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 4);
    let first = &objects[0];
    assert_eq!(first["file"], "<stdin>");
    assert_eq!(first["line"], 4);
    assert_eq!(first["column"], 11);
    assert_eq!(first["severity"], "error");
    assert_eq!(first["rule"], "xbel/duplicate-id");
    assert!(first["message"].as_str().unwrap().contains("line 3"));
    let keys: Vec<&String> = first.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 6, "{keys:?}");
}

#[test]
fn an_unreadable_file_exits_2_and_the_others_are_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.xbel");
    std::fs::write(&file, BROKEN).unwrap();
    let missing = dir.path().join("missing.xbel");
    let out = markport()
        .arg("check")
        .arg(&missing)
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("missing.xbel") && err.contains("cannot read"),
        "{err}"
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 4);
}

#[test]
fn from_chooses_the_rules() {
    // A GLib file without a MIME type: plain XBEL has nothing to say, the
    // desktop rules do.
    let file = r#"<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0">
  <bookmark href="file:///home/ana/a.txt" added="2024-05-01T08:00:00Z"/>
</xbel>
"#;
    let plain = markport()
        .args(["check", "--from", "xbel", "-"])
        .write_stdin(file)
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(0));
    let desktop = markport()
        .args(["check", "--from", "desktop", "-"])
        .write_stdin(file)
        .output()
        .unwrap();
    assert_eq!(desktop.status.code(), Some(1));
    let text = String::from_utf8(desktop.stdout).unwrap();
    assert!(text.contains("desktop/missing-mime-type"), "{text}");
    assert!(text.contains("desktop/missing-application"), "{text}");
}

/// A Pocket ZIP of 20,000 rows of a few bytes: each costs a whole
/// bookmark, far more than its bytes.
fn tiny_rows_zip() -> Vec<u8> {
    use std::io::Write;
    let mut csv = String::from("title,url,time_added\n");
    for i in 0..20_000 {
        csv.push_str(&format!(",{i},\n"));
    }
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("part_000000.csv", options).unwrap();
    zip.write_all(csv.as_bytes()).unwrap();
    zip.finish().unwrap().into_inner()
}

#[test]
fn memory_budget_refuses_a_hostile_export_in_check_and_diff_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("tiny-rows.zip");
    std::fs::write(&input, tiny_rows_zip()).unwrap();
    let out = markport()
        .args(["check", "--json", "--memory-budget", "1M"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let problem: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(problem["rule"], "reader/error", "{text}");
    let message = problem["message"].as_str().unwrap();
    assert!(
        message.contains(
            "more than 1.0 MB of memory (the budget given): refused; --memory-budget SIZE"
        ),
        "{message}"
    );
    // Under a budget it fits, the file is clean.
    let out = markport()
        .args(["check", "--memory-budget", "64M"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // diff reads both files under the budget given.
    let out = markport()
        .args(["diff", "--memory-budget", "1M"])
        .arg(&input)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--memory-budget SIZE"), "{err}");
    let out = markport()
        .args(["diff", "--memory-budget", "64M"])
        .arg(&input)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn check_and_convert_place_an_unclosed_quote_alike() {
    // Issue 30: check said 3:1 (a row of 2 fields), convert 3:12 (the
    // quote). One scanner now reads both.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("export.csv");
    std::fs::write(
        &input,
        "URL,Title,Selection,Folder,Timestamp,Tags\nhttps://a/,A,,Unread,1,\nhttps://b/,\"B,,Unread,2,\n",
    )
    .unwrap();
    let name = input.display().to_string();
    let out = markport().arg("check").arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!("{name}:3:12: error: export/row: unclosed quote")),
        "{text}"
    );
    let out = markport()
        .arg("convert")
        .arg(&input)
        .args(["--to", "xbel"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(":3:12"), "{err}");
    assert!(err.contains("unclosed quote"), "{err}");
}
