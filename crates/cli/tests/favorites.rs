//! Favorites trees (directories of link files) through the `markport`
//! command: read by `convert`, `info` and `diff`, written with
//! `--to favorites -o DIR`, hostile trees refused cleanly.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn markport() -> Command {
    Command::cargo_bin("markport").unwrap()
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(name)
}

fn json(out: &[u8]) -> serde_json::Value {
    serde_json::from_slice(out).unwrap()
}

/// The (title, href) of every bookmark in a markport JSON document, and
/// the folder titles, in document order.
fn listing(doc: &serde_json::Value) -> (Vec<(String, String)>, Vec<String>) {
    let mut marks = Vec::new();
    let mut folders = Vec::new();
    for n in doc["nodes"].as_array().unwrap() {
        let title = n["title"].as_str().unwrap_or_default().to_string();
        match n["type"].as_str() {
            Some("bookmark") => marks.push((title, n["href"].as_str().unwrap().to_string())),
            Some("folder") => folders.push(title),
            _ => {}
        }
    }
    (marks, folders)
}

#[test]
fn a_directory_converts_by_detection_and_counts_what_it_holds() {
    let tree = corpus("favorites/mixed");
    let out = markport()
        .arg("convert")
        .arg(&tree)
        .args(["--to", "json"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "mixed/Docs/notes.txt: warning: not a link file (.url, .webloc, .desktop): skipped",
        ))
        .get_output()
        .stdout
        .clone();
    let (marks, folders) = listing(&json(&out));
    // An independent count: the link files under the tree, by extension.
    let links = walk(&tree)
        .iter()
        .filter(|p| {
            let e = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            ["url", "webloc", "desktop"].contains(&e)
        })
        .count();
    assert_eq!(marks.len(), links);
    let dirs = walk_dirs(&tree);
    assert_eq!(folders.len(), dirs);
    assert!(marks.contains(&(
        "Crème brûlée".into(),
        "https://fr.wikipedia.org/wiki/Crème_brûlée".into()
    )));
    assert!(marks.contains(&(
        "The Rust Book".into(),
        "https://doc.rust-lang.org/book/".into()
    )));
    assert!(marks.contains(&("Binary".into(), "https://developer.apple.com/".into())));

    markport()
        .arg("info")
        .arg(&tree)
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("{links} bookmarks")));
    // check lists what the reader said, in the file it is about; a
    // warning fails only --strict.
    markport()
        .arg("check")
        .arg(&tree)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "mixed/Docs/notes.txt:1:1: warning: reader/warning: not a link file",
        ));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.path().is_dir() {
                todo.push(e.path());
            } else {
                out.push(e.path());
            }
        }
    }
    out
}

fn walk_dirs(dir: &Path) -> usize {
    let mut n = 0;
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.path().is_dir() {
                n += 1;
                todo.push(e.path());
            }
        }
    }
    n
}

#[test]
fn written_as_internet_shortcuts_with_safe_names_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("in.xbel");
    std::fs::write(
        &src,
        r#"<xbel version="1.0">
  <folder><title>News</title>
    <bookmark href="https://www.bbc.co.uk/" modified="2013-03-12T14:17:45.0940608Z"><title>BBC</title></bookmark>
    <bookmark href="https://a.example/"><title>a/b: c?</title></bookmark>
    <bookmark href="https://b.example/"><title>CON</title></bookmark>
    <bookmark href="https://c.example/"><title>Same</title></bookmark>
    <bookmark href="https://d.example/"><title>same</title></bookmark>
    <separator/>
  </folder>
  <bookmark href="https://untitled.example/path"/>
</xbel>"#,
    )
    .unwrap();
    let out = dir.path().join("Favorites");
    markport()
        .arg("-v")
        .arg("convert")
        .arg(&src)
        .args(["--to", "favorites", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("bookmark.title"))
        .stderr(predicate::str::contains("separator"));
    let bbc = std::fs::read(out.join("News/BBC.url")).unwrap();
    assert_eq!(
        bbc,
        b"[InternetShortcut]\r\nURL=https://www.bbc.co.uk/\r\nModified=C0A4AC5D2C1FCE0187\r\n"
    );
    for name in [
        "News/a_b_ c_.url",
        "News/CON_.url",
        "News/Same.url",
        "News/same (2).url",
        "untitled.example.url",
    ] {
        assert!(out.join(name).is_file(), "{name} written");
    }
    // Read back: the links all arrive.
    let back = markport()
        .arg("convert")
        .arg(&out)
        .args(["--to", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let (marks, folders) = listing(&json(&back));
    assert_eq!(folders, ["News"]);
    assert_eq!(marks.len(), 6);

    // Writing again over markport's own tree replaces it whole.
    std::fs::write(&src, r#"<xbel version="1.0"><bookmark href="https://x.example/"><title>X</title></bookmark></xbel>"#).unwrap();
    markport()
        .arg("convert")
        .arg(&src)
        .args(["--to", "favorites", "-o"])
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("X.url").is_file());
    assert!(!out.join("News").exists(), "the old tree is gone");
}

#[test]
fn a_foreign_directory_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("mine");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("thesis.tex"), "precious").unwrap();
    markport()
        .arg("convert")
        .arg(corpus("xbel/nested.xbel"))
        .args(["--to", "favorites", "-o"])
        .arg(&foreign)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("refusing to replace it"));
    assert_eq!(
        std::fs::read(foreign.join("thesis.tex")).unwrap(),
        b"precious"
    );
    assert_eq!(std::fs::read_dir(&foreign).unwrap().count(), 1);
    // Nothing staged is left beside it.
    assert_eq!(
        std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().is_dir())
            .count(),
        1
    );
    // Standard output cannot take a tree.
    markport()
        .arg("convert")
        .arg(corpus("xbel/nested.xbel"))
        .args(["--to", "favorites"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("name one with -o DIR"));
}

#[test]
fn fail_on_loss_leaves_no_tree() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    markport()
        .arg("convert")
        .arg(corpus("netscape/pinboard.html"))
        .args(["--to", "favorites", "--fail-on-loss", "-o"])
        .arg(&out)
        .assert()
        .code(1);
    assert!(!out.exists());
    // Nothing but the lock file publish's machinery keeps beside it.
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["out.markport-lock"], "no staging left");
}

#[cfg(unix)]
#[test]
fn symlinks_outside_are_not_followed_and_a_loop_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(tree.join("A")).unwrap();
    std::fs::write(
        tree.join("A/in.url"),
        "[InternetShortcut]\nURL=https://in.example/\n",
    )
    .unwrap();
    let outside = dir.path().join("secret");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(
        outside.join("s.url"),
        "[InternetShortcut]\nURL=https://secret.example/\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, tree.join("out")).unwrap();
    std::os::unix::fs::symlink("A/in.url", tree.join("same.url")).unwrap();
    let out = markport()
        .arg("convert")
        .arg(&tree)
        .args(["--to", "json"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "tree/out: warning: a symbolic link to outside the tree",
        ))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains("secret.example"));
    assert_eq!(
        text.matches("https://in.example/").count(),
        2,
        "a link inside is followed"
    );

    std::os::unix::fs::symlink("..", tree.join("A/loop")).unwrap();
    markport()
        .arg("convert")
        .arg(&tree)
        .args(["--to", "json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("A/loop: a symbolic link loop"));
}

#[test]
fn a_huge_file_and_a_broken_link_file_are_skipped_with_their_paths() {
    let dir = tempfile::tempdir().unwrap();
    let mut big = b"[InternetShortcut]\r\nURL=https://big.example/\r\n".to_vec();
    big.resize(3 << 20, b' ');
    std::fs::write(dir.path().join("big.url"), big).unwrap();
    std::fs::write(
        dir.path().join("nourl.url"),
        "[InternetShortcut]\r\nIconIndex=0\r\nthis is junk\r\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("ok.url"),
        "[InternetShortcut]\r\nURL=https://ok.example/\r\n",
    )
    .unwrap();
    markport()
        .arg("info")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("1 bookmark,"))
        .stdout(predicate::str::contains(
            "big.url: warning: skipped: larger than any link file",
        ))
        .stdout(predicate::str::contains(
            "nourl.url:3:1: warning: a line that is neither",
        ))
        .stdout(predicate::str::contains(
            "nourl.url: warning: skipped: an Internet Shortcut without URL=",
        ));
    // check names each problem in its own file, under the tree; a tree's
    // warnings fail only --strict, as a file's do.
    let tree = dir.path().display().to_string();
    markport()
        .arg("check")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "{tree}/nourl.url:3:1: warning: reader/warning: a line that is neither"
        )))
        .stdout(predicate::str::contains(format!(
            "{tree}/big.url:1:1: warning: reader/warning: skipped: larger than any link file"
        )));
    markport()
        .args(["check", "--strict", "--json"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            "\"file\":\"{tree}/nourl.url\""
        )));
    // convert says each warning in the file it is about.
    markport()
        .args(["convert", "--to", "xbel"])
        .arg(dir.path())
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "markport: {tree}/nourl.url:3:1: warning: a line that is neither"
        )));
    // --strict lists every warning, then fails.
    markport()
        .args(["info", "--strict"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "skipped: an Internet Shortcut without URL=",
        ));
}

#[test]
fn a_deep_tree_reads_without_recursion_as_deep_as_paths_go() {
    // Linux refuses paths over PATH_MAX (4096 bytes): 1,500 levels of
    // `d/` is as deep as a path-based walk can go, and it reads.
    let dir = tempfile::tempdir().unwrap();
    let depth = 1_500;
    let mut p = dir.path().to_path_buf();
    for _ in 0..depth {
        p.push("d");
    }
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(
        p.join("deep.url"),
        "[InternetShortcut]\nURL=https://deep.example/\n",
    )
    .unwrap();
    markport()
        .arg("info")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "1 bookmark, {depth} folders"
        )))
        .stdout(predicate::str::contains(format!("depth {depth}")));
}
