//! `markport` with Firefox backups: plain JSON by `--to firefox`, the
//! compressed form by the output's extension or `--jsonlz4`, and broken
//! backups refused with where.

use predicates::prelude::*;

mod common;

use common::{corpus, markport};

#[test]
fn to_firefox_writes_json_and_a_jsonlz4_extension_writes_the_compressed_form() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("bookmarks-2024-01-01.json");
    markport()
        .arg("convert")
        .arg(corpus("xbel/nested.xbel"))
        .args(["--to", "firefox", "-o"])
        .arg(&plain)
        .assert()
        .success();
    let text = std::fs::read_to_string(&plain).unwrap();
    assert!(text.starts_with(r#"{"guid":"root________""#), "{text}");
    for (name, flag) in [
        ("backup.jsonlz4", None),
        ("b.baklz4", None),
        ("c.bin", Some("--jsonlz4")),
    ] {
        let out = dir.path().join(name);
        let mut cmd = markport();
        cmd.arg("convert").arg(&plain).args(["--to", "firefox"]);
        if let Some(f) = flag {
            cmd.arg(f);
        }
        cmd.arg("-o").arg(&out).assert().success();
        let bytes = std::fs::read(&out).unwrap();
        assert!(bytes.starts_with(b"mozLz40\0"), "{name}");
        // Read back by content, with the same bookmarks.
        markport()
            .arg("diff")
            .arg(&plain)
            .arg(&out)
            .assert()
            .success();
    }
    // .jsonlz4 alone says which format: no --to needed.
    let lz = dir.path().join("auto.jsonlz4");
    markport()
        .arg("convert")
        .arg(corpus("xbel/nested.xbel"))
        .arg("-o")
        .arg(&lz)
        .assert()
        .success();
    assert!(std::fs::read(&lz).unwrap().starts_with(b"mozLz40\0"));
}

#[test]
fn broken_backups_exit_2_with_where() {
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.json");
    let whole = std::fs::read(corpus("firefox/firefox122-roots.json")).unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    markport()
        .args(["convert", "--from", "firefox"])
        .arg(&cut)
        .args(["--to", "xbel"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cut.json:1:"));
    let lying = dir.path().join("lying.jsonlz4");
    let mut bytes = b"mozLz40\0".to_vec();
    bytes.extend_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    bytes.extend_from_slice(b"\x10x");
    std::fs::write(&lying, bytes).unwrap();
    markport()
        .arg("convert")
        .arg(&lying)
        .args(["--to", "xbel"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at byte 8"));
}

#[test]
fn the_firefox_3_trailing_comma_is_read_with_a_warning_and_refused_under_strict() {
    markport()
        .arg("convert")
        .arg(corpus("firefox/firefox3-annos-tags.json"))
        .args(["--to", "json"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "15:202: warning: a comma before a closing bracket",
        ));
    markport()
        .args(["convert", "--strict"])
        .arg(corpus("firefox/firefox3-annos-tags.json"))
        .args(["--to", "json"])
        .assert()
        .code(2);
}
