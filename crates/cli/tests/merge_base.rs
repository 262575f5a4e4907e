//! `markport merge --base BASE OURS THEIRS`: a three-way merge through the
//! one pipeline, written like `convert` (OURS' format unless asked, atomic,
//! `--json`), exiting 0 clean, 1 on a conflict, 2 on an error or refusal.

mod common;

use std::path::Path;

use common::{corpus, markport};

fn case(name: &str, side: &str) -> std::path::PathBuf {
    corpus(&format!("merge3/{name}/{side}.xbel"))
}

fn merge3(name: &str) -> assert_cmd::Command {
    let mut cmd = markport();
    cmd.arg("merge")
        .arg("--base")
        .arg(case(name, "base"))
        .arg(case(name, "ours"))
        .arg(case(name, "theirs"));
    cmd
}

fn json(out: &[u8]) -> serde_json::Value {
    serde_json::from_slice(out).expect("the report is JSON")
}

#[test]
fn a_clean_merge_exits_0_and_writes_both_sides_changes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("merged.xbel");
    merge3("value-structure-conflict")
        .arg("-o")
        .arg(&out)
        .assert()
        .code(0)
        .stderr(predicates::str::contains("no conflict"));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("https://example.org/e-moved"), "{text}");
    assert!(text.contains("<title>E renamed</title>"), "{text}");
}

#[test]
fn a_conflict_exits_1_lists_it_and_prefer_theirs_changes_the_winner() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("merged.xbel");
    merge3("title-and-link")
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "changed both ways: bookmark.title: ours \"B by ours\", theirs \"B by theirs\"; ours' kept",
        ));
    assert!(std::fs::read_to_string(&out).unwrap().contains("B by ours"));
    merge3("title-and-link")
        .args(["--prefer", "theirs", "-o"])
        .arg(&out)
        .assert()
        .code(1);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("B by theirs") && !text.contains("B by ours"),
        "{text}"
    );
    // Ours' title on a, theirs' link, whoever wins conflicts.
    assert!(
        text.contains("A by ours") && text.contains("a-by-theirs"),
        "{text}"
    );
}

#[test]
fn a_mass_deletion_exits_2_writes_nothing_and_says_which_side() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("merged.xbel");
    merge3("gitsyncmarks-210")
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "theirs deletes 37 of the base's 44 items",
        ))
        .stderr(predicates::str::contains("--allow-mass-delete"));
    assert!(!out.exists());
    merge3("gitsyncmarks-210")
        .args(["--allow-mass-delete", "-o"])
        .arg(&out)
        .assert()
        .code(0);
    assert!(out.exists());
}

#[test]
fn the_json_report_has_a_ledger_entry_for_every_item() {
    let assert = merge3("locally-deleted-remotely-modified")
        .args(["--json", "-o", "-"])
        .assert()
        .code(1);
    // The report goes to standard error, the tree to standard output.
    let report = json(&assert.get_output().stderr);
    assert_eq!(report["markport_report"], 1);
    assert_eq!(report["conflicted"], true);
    let ledger = report["ledger"].as_array().unwrap();
    let sides: usize = ledger
        .iter()
        .map(|e| e["sides"].as_array().unwrap().len())
        .sum();
    // base 9 nodes, ours 4, theirs 10: each in exactly one entry.
    assert_eq!(sides, 9 + 4 + 10);
    let kept: Vec<_> = ledger
        .iter()
        .filter(|e| e["outcome"] == "kept-against-deletion")
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(kept, ["Menu/A edited", "Menu/EE"]);
    assert_eq!(report["outcomes"]["deleted-by-ours"], 3);
    let classes: Vec<_> = report["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["class"].as_str().unwrap())
        .collect();
    assert_eq!(
        classes,
        [
            "delete-modify",
            "delete-modify",
            "folder-deleted",
            "folder-deleted"
        ]
    );
}

#[test]
fn the_output_is_in_ours_format_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let ours = dir.path().join("ours.html");
    markport()
        .arg("convert")
        .arg(case("delete-modify", "ours"))
        .arg("-o")
        .arg(&ours)
        .assert()
        .success();
    let run = |extra: &[&str]| {
        let mut cmd = markport();
        cmd.arg("merge")
            .arg("--base")
            .arg(case("delete-modify", "base"))
            .arg(&ours)
            .arg(case("delete-modify", "theirs"))
            .args(extra)
            .args(["-o", "-"]);
        let out = cmd.assert().code(1).get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    };
    let netscape = run(&[]);
    assert!(
        netscape.starts_with("<!DOCTYPE NETSCAPE-Bookmark-file-1>"),
        "{netscape}"
    );
    assert!(netscape.contains("A edited"), "{netscape}");
    let xbel = run(&["--to", "xbel"]);
    assert!(xbel.contains("<xbel"), "{xbel}");
}

#[test]
fn merge_base_takes_two_inputs_and_refuses_union_flags() {
    merge3("delete-modify")
        .arg(case("delete-modify", "base"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "takes two inputs, OURS and THEIRS; got 3",
        ));
    merge3("delete-modify")
        .arg("--keep-duplicates")
        .assert()
        .code(2);
    markport()
        .args(["merge", "--prefer", "theirs"])
        .arg(case("delete-modify", "ours"))
        .arg(case("delete-modify", "theirs"))
        .assert()
        .code(2);
}

#[test]
fn a_file_written_over_is_replaced_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("merged.xbel");
    std::fs::write(&out, "old").unwrap();
    merge3("floccus-152").arg("-o").arg(&out).assert().code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    assert!(Path::new(&out).exists());
}
