//! The exports people migrate from, through the command: Pocket's and
//! Omnivore's export ZIPs convert as they are, each ZIP export is taken for
//! its own format, hostile archives exit 2 naming the file and the entry,
//! and Instapaper's and Raindrop's CSV are found without `--from`.

use std::io::{Cursor, Read, Write};
use std::path::Path;

use predicates::prelude::*;

mod common;

use common::{corpus, markport};

fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// The links of every part in the ZIP, read with the zip and csv crates.
fn links_in(path: &Path) -> Vec<String> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut links = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        if !entry.name().unwrap().ends_with(".csv") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        let mut csv = csv::Reader::from_reader(text.as_bytes());
        let url = csv
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == "url")
            .unwrap();
        links.extend(csv.records().map(|r| r.unwrap()[url].to_string()));
    }
    links
}

#[test]
fn a_pocket_export_zip_converts_to_xbel_as_it_is() {
    let input = corpus("pocket/pocket-export.zip");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pocket.xbel");
    markport()
        .arg("convert")
        .arg(&input)
        .args(["--to", "xbel", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("pocket -> xbel"));
    let xbel = std::fs::read_to_string(&out).unwrap();
    let links = links_in(&input);
    assert_eq!(links.len(), 5);
    assert_eq!(xbel.matches("<bookmark ").count(), links.len(), "{xbel}");
    for link in links {
        assert!(
            xbel.contains(&format!("href=\"{link}\"")),
            "{link} in {xbel}"
        );
    }
    // The highlights are the description.
    assert!(
        xbel.contains("<desc>A language empowering everyone"),
        "{xbel}"
    );
}

#[test]
fn hostile_archives_exit_2_naming_the_file_and_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let part = b"title,url,time_added,tags,status\nA,https://a/,1700000000,,unread\n";
    let mut bomb = part.to_vec();
    bomb.extend(std::iter::repeat_n(b'a', 16 << 20));
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "bomb.zip",
            zip(&[("part_000000.csv", &bomb)]),
            "ZIP entry \"part_000000.csv\": inflates more than",
        ),
        (
            "escape.zip",
            zip(&[("part_000000.csv", part), ("../x", b"x")]),
            "ZIP entry \"../x\": has a `..` component",
        ),
        (
            "broken.zip",
            zip(&[(
                "part_000000.csv",
                b"title,url,time_added\n\"A,https://a/,1\n",
            )]),
            "ZIP entry part_000000.csv:2:1: unclosed quote",
        ),
    ];
    for (name, bytes, says) in cases {
        let input = dir.path().join(name);
        std::fs::write(&input, bytes).unwrap();
        let out = dir.path().join(format!("{name}.xbel"));
        markport()
            .arg("convert")
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{}: error: ",
                input.display()
            )))
            .stderr(predicate::str::contains(says));
        assert!(!out.exists(), "{name}: nothing written");
    }
}

/// An export shaped to cost more memory than its budget is refused with
/// exit 2, the file, the row, the budget and the flag that raises it; the
/// flag given, it reads.
#[test]
fn a_file_over_its_memory_budget_exits_2_naming_the_flag_that_raises_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("title,url,time_added\n");
    for i in 0..20_000 {
        csv.push_str(&format!(",{i},\n"));
    }
    let input = dir.path().join("tiny-rows.zip");
    std::fs::write(&input, zip(&[("part_000000.csv", csv.as_bytes())])).unwrap();
    markport()
        .args(["info", "--memory-budget", "1M"])
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: error: ZIP entry part_000000.csv:",
            input.display()
        )))
        .stderr(predicate::str::contains(
            "more than 1.0 MB of memory (the budget given): refused; --memory-budget SIZE",
        ));
    markport()
        .args(["info", "--memory-budget", "64M"])
        .arg(&input)
        .assert()
        .success()
        .stdout(predicate::str::contains("20000 bookmarks"));
    markport()
        .args(["info", "--memory-budget", "lots"])
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a size"));
}

/// Two parts of one name: the first's rows are not read, and `info` says
/// so, with where each copy is.
#[test]
fn a_pocket_part_name_given_twice_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let built = zip(&[
        (
            "part_000000.csv",
            b"title,url,time_added\na,https://a/,1700000000\n",
        ),
        (
            "part_000007.csv",
            b"title,url,time_added\nb,https://b/,1700000000\n",
        ),
    ]);
    // The writer refuses a repeated name: rename the second entry in its
    // local header and the central directory (names are in no CRC).
    let mut renamed = built;
    let from = b"part_000007.csv";
    let mut i = 0;
    while i + from.len() <= renamed.len() {
        if &renamed[i..i + from.len()] == from {
            renamed[i..i + from.len()].copy_from_slice(b"part_000000.csv");
        }
        i += 1;
    }
    let input = dir.path().join("twice.zip");
    std::fs::write(&input, renamed).unwrap();
    markport()
        .arg("info")
        .arg(&input)
        .assert()
        .success()
        .stdout(predicate::str::contains("1 bookmark, 1 folder"))
        .stdout(predicate::str::contains(
            "ZIP entry part_000000.csv is in the archive 2 times (entry 1 at byte 0, entry 2 at byte",
        ));
}

#[test]
fn check_and_info_read_the_pocket_zip() {
    markport()
        .arg("info")
        .arg(corpus("pocket/pocket-export.zip"))
        .assert()
        .success()
        .stdout(predicate::str::contains("pocket"))
        .stdout(predicate::str::contains("5 bookmarks, 2 folders"));
    // check reports the highlight that no part lists, and does not fail on
    // the archive's binary bytes: a warning, which fails only --strict.
    markport()
        .arg("check")
        .arg(corpus("pocket/pocket-export.zip"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no part lists"));
    markport()
        .args(["check", "--strict"])
        .arg(corpus("pocket/pocket-export.zip"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("no part lists"));
}

#[test]
fn instapaper_and_raindrop_csv_are_found_without_from() {
    for (path, format) in [
        ("instapaper/instapaper-tags.csv", "instapaper"),
        ("raindrop/raindrop.csv", "raindrop"),
    ] {
        markport()
            .arg("convert")
            .arg(corpus(path))
            .args(["--to", "json"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!("{format} -> json")));
    }
}

/// The items of every metadata file in Omnivore's ZIP, read with the zip
/// and serde_json crates.
fn omnivore_items(path: &Path) -> Vec<serde_json::Value> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut items = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        if !entry.name().unwrap().starts_with("metadata_") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        items.extend(value.as_array().unwrap().iter().cloned());
    }
    items
}

#[test]
fn an_omnivore_export_zip_converts_to_xbel_as_it_is() {
    let input = corpus("omnivore/omnivore-export.zip");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("omnivore.xbel");
    markport()
        .arg("convert")
        .arg(&input)
        .args(["--to", "xbel", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("omnivore -> xbel"));
    let xbel = std::fs::read_to_string(&out).unwrap();
    let items = omnivore_items(&input);
    assert_eq!(items.len(), 5);
    assert_eq!(xbel.matches("<bookmark ").count(), items.len(), "{xbel}");
    for item in &items {
        let href = item["url"].as_str().unwrap().replace('&', "&amp;");
        assert!(
            xbel.contains(&format!("href=\"{href}\"")),
            "{href} in {xbel}"
        );
    }
    // The highlights follow the description, or are all of it.
    assert!(
        xbel.contains("An introductory book about Rust.\n\n&gt; Rust is a language"),
        "{xbel}"
    );
    assert!(
        xbel.contains("<desc>&gt; Caramelise the sugar at the last minute.</desc>"),
        "{xbel}"
    );
}

#[test]
fn each_export_zip_is_taken_for_its_own_format() {
    for (path, format) in [
        ("omnivore/omnivore-export.zip", "omnivore"),
        ("pocket/pocket-export.zip", "pocket"),
        ("safari/safari-export.zip", "safari"),
    ] {
        markport()
            .arg("convert")
            .arg(corpus(path))
            .args(["--to", "json"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!("{format} -> json")));
    }
}

#[test]
fn hostile_omnivore_archives_exit_2_naming_the_file_and_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let meta = b"[{\"url\": \"https://a/\", \"slug\": \"a\", \"labels\": [], \"savedAt\": null}]";
    let mut bomb = meta.to_vec();
    bomb.extend(std::iter::repeat_n(b' ', 16 << 20));
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "bomb.zip",
            zip(&[("metadata_0_to_1.json", &bomb)]),
            "ZIP entry \"metadata_0_to_1.json\": inflates more than",
        ),
        (
            "escape.zip",
            zip(&[("metadata_0_to_1.json", meta), ("../x", b"x")]),
            "ZIP entry \"../x\": has a `..` component",
        ),
        (
            "broken.zip",
            zip(&[
                ("metadata_0_to_1.json", meta),
                ("metadata_1_to_2.json", b"[\n  {\"url\": }\n]"),
            ]),
            "ZIP entry metadata_1_to_2.json:2:11: JSON: ",
        ),
    ];
    for (name, bytes, says) in cases {
        let input = dir.path().join(name);
        std::fs::write(&input, bytes).unwrap();
        let out = dir.path().join(format!("{name}.xbel"));
        markport()
            .arg("convert")
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{}: error: ",
                input.display()
            )))
            .stderr(predicate::str::contains(says));
        assert!(!out.exists(), "{name}: nothing written");
    }
}
