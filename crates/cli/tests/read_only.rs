//! Formats markport reads but does not write (Firefox's places.sqlite):
//! converted from, never to, and said so clearly.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

mod common;

use common::markport;

fn places() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/places/firefox-esr.sqlite")
}

#[test]
fn a_places_database_converts_to_xbel_without_being_touched() {
    let before = std::fs::read(places()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("all.xbel");
    markport()
        .arg("convert")
        .arg(places())
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("places -> xbel"));
    let xbel = std::fs::read_to_string(&out).unwrap();
    assert!(xbel.contains("https://duckduckgo.com/?q=%s"), "{xbel}");
    assert_eq!(std::fs::read(places()).unwrap(), before);
}

#[test]
fn to_places_is_refused_listing_the_writable_formats() {
    for flag in [["convert", "--to"], ["roundtrip", "--via"]] {
        markport()
            .arg(flag[0])
            .arg(places())
            .args([flag[1], "places"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "places is read only; markport writes: desktop, xbel",
            ));
    }
    // An output path never resolves to a read-only format either.
    let dir = tempfile::tempdir().unwrap();
    markport()
        .arg("convert")
        .arg(places())
        .arg("-o")
        .arg(dir.path().join("copy.sqlite"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no format writes .sqlite files"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn formats_marks_places_read_only_and_gives_it_no_column() {
    let out = markport().arg("formats").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("(read only)"), "{text}");
    let listed = text
        .lines()
        .find_map(|l| l.strip_prefix("read only (no writer): "))
        .unwrap_or_else(|| panic!("no list of read-only formats: {text}"));
    assert!(listed.split(", ").any(|f| f == "places"), "{listed}");
}

#[test]
fn a_file_that_is_not_places_is_refused_with_the_file_named() {
    let dir = tempfile::tempdir().unwrap();
    let half = dir.path().join("half.sqlite");
    let bytes = std::fs::read(places()).unwrap();
    std::fs::write(&half, &bytes[..bytes.len() / 2 + 100]).unwrap();
    markport()
        .arg("convert")
        .arg(&half)
        .args(["-t", "json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("half.sqlite: error: truncated"));
}
