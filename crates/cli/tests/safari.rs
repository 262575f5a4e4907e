//! Safari's store on the command line: `markport convert Bookmarks.plist
//! --to chromium` (binary and XML, detected by content), the exported ZIP,
//! `markport profiles` finding `~/Library/Safari/Bookmarks.plist`, and bad
//! stores refused with exit 2, the file and the position.

use std::path::{Path, PathBuf};

use predicates::prelude::*;
use serde_json::Value;

mod common;

use common::markport;

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/safari")
        .join(name)
}

/// Every `url` node of a Chromium file, with an explicit stack.
fn chromium_urls(file: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo: Vec<&Value> = file["roots"].as_object().unwrap().values().collect();
    while let Some(n) = todo.pop() {
        match n["type"].as_str() {
            Some("url") => out.push(n["url"].as_str().unwrap().to_string()),
            _ => todo.extend(n["children"].as_array().into_iter().flatten()),
        }
    }
    out.sort();
    out
}

#[test]
fn a_store_converts_to_chromium_in_both_encodings() {
    let xml = std::fs::read_to_string(corpus("bookmarks.plist")).unwrap();
    // Every leaf's URLString, counted in the XML itself.
    let mut want: Vec<String> = xml
        .split("<key>URLString</key>")
        .skip(1)
        .map(|s| {
            let s = &s[s.find("<string>").unwrap() + 8..];
            s[..s.find("</string>").unwrap()].replace("&amp;", "&")
        })
        .collect();
    want.sort();
    assert_eq!(want.len(), 5);
    for name in ["bookmarks.plist", "bookmarks-binary.plist"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("Bookmarks");
        markport()
            .arg("convert")
            .arg(corpus(name))
            .args(["--to", "chromium", "-o"])
            .arg(&out)
            .assert()
            .success()
            .stderr(predicate::str::contains("safari -> chromium"));
        let file: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(chromium_urls(&file), want, "{name}");
        // The toolbar is Chromium's bookmark bar.
        let bar = &file["roots"]["bookmark_bar"]["children"];
        assert!(
            bar.as_array()
                .unwrap()
                .iter()
                .any(|n| n["url"] == "https://doc.rust-lang.org/book/"),
            "{bar}"
        );
    }
}

#[test]
fn the_exported_zip_converts_too() {
    let out = markport()
        .arg("convert")
        .arg(corpus("safari-export.zip"))
        .args(["--to", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: Value = serde_json::from_slice(&out).unwrap();
    let roles: Vec<&str> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["role"].as_str())
        .collect();
    assert_eq!(roles, ["reading-list"]);
}

/// Safari's export with its entries stored, not deflated: a ZIP read as a
/// ZIP, its Bookmarks.html the bookmarks, never its bytes as HTML (whose
/// History.json would then give bookmarks of its own).
#[test]
fn a_stored_export_is_read_by_its_entries() {
    use std::io::Write;
    let html = std::fs::read(corpus("safari-export.zip")).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(html)).unwrap();
    let mut page = Vec::new();
    std::io::Read::read_to_end(&mut archive.by_name("Bookmarks.html").unwrap(), &mut page).unwrap();
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    z.start_file("History.json", stored).unwrap();
    z.write_all(
        br#"{"history": [{"title": "<DT><A HREF=\"https://history.example/\">visited</A>"}]}"#,
    )
    .unwrap();
    z.start_file("Bookmarks.html", stored).unwrap();
    z.write_all(&page).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("export.zip");
    std::fs::write(&input, z.finish().unwrap().into_inner()).unwrap();
    let out = markport()
        .arg("convert")
        .arg(&input)
        .args(["--to", "json"])
        .assert()
        .success()
        .stderr(predicate::str::contains("safari -> json"))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains("history.example"), "{text}");
    let links = String::from_utf8_lossy(&page).matches("HREF=").count();
    assert_eq!(text.matches("\"href\"").count(), links, "{text}");
}

#[test]
fn profiles_finds_the_store_under_library_safari() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("Library/Safari");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        corpus("bookmarks-binary.plist"),
        dir.join("Bookmarks.plist"),
    )
    .unwrap();
    let out = markport()
        .env("HOME", home.path())
        .env_remove("XDG_CONFIG_HOME")
        .args(["profiles", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let found: Value = serde_json::from_slice(&out).unwrap();
    let safari: Vec<&Value> = found
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["browser"] == "safari")
        .collect();
    assert_eq!(safari.len(), 1, "{found}");
    assert_eq!(safari[0]["format"], "safari");
    assert_eq!(safari[0]["bookmarks"], 5);
    assert_eq!(
        Path::new(safari[0]["path"].as_str().unwrap()),
        dir.join("Bookmarks.plist")
    );
}

/// `bplist00`; a dictionary whose `Children` array holds the dictionary
/// itself; the offset table; the trailer.
fn cycle() -> Vec<u8> {
    let mut b = b"bplist00".to_vec();
    b.extend_from_slice(&[0xD1, 0x01, 0x02]); // 8: {1: 2}
    b.push(0x58); // 11: "Children"
    b.extend_from_slice(b"Children");
    b.extend_from_slice(&[0xA1, 0x00]); // 20: [0]
    b.extend_from_slice(&[8, 11, 20]); // 22: offsets
    b.extend_from_slice(&[0; 6]);
    b.extend_from_slice(&[1, 1]);
    for n in [3u64, 0, 22] {
        b.extend_from_slice(&n.to_be_bytes());
    }
    b
}

#[test]
fn a_cycle_is_exit_2_with_the_file_and_the_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Bookmarks.plist");
    std::fs::write(&path, cycle()).unwrap();
    markport()
        .arg("convert")
        .arg(&path)
        .args(["--from", "safari", "--to", "xbel"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "markport: {}: error: binary plist: a container contains itself (a reference cycle) at byte",
            path.display()
        )));
}

#[test]
fn broken_xml_is_exit_2_with_the_line_and_column() {
    let xml = std::fs::read_to_string(corpus("bookmarks.plist")).unwrap();
    let broken = xml.replacen("<key>URLString</key>", "<key>URLString</kye>", 1);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Bookmarks.plist");
    std::fs::write(&path, broken).unwrap();
    let out = markport()
        .arg("convert")
        .arg(&path)
        .args(["--to", "xbel"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let said = String::from_utf8(out).unwrap();
    let prefix = format!("markport: {}:", path.display());
    let rest = said
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{said}"));
    let (line, rest) = rest.split_once(':').unwrap();
    let (col, _) = rest.split_once(':').unwrap();
    assert!(line.parse::<u32>().unwrap() > 1, "{said}");
    assert!(col.parse::<u32>().unwrap() >= 1, "{said}");
}

#[test]
fn nothing_writes_plist_files() {
    let dir = tempfile::tempdir().unwrap();
    markport()
        .arg("convert")
        .arg(corpus("bookmarks.plist"))
        .arg("-o")
        .arg(dir.path().join("copy.plist"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no format writes .plist files"));
}
