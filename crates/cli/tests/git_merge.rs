//! `markport git-merge` as git's merge driver, in a real repository: two
//! branches edit one XBEL and one Netscape file the way people do (adds to
//! the same folder, a move, a rename, a delete); git's own merge conflicts,
//! the driver's finishes clean, and the merged files read back with no
//! problem. A real conflict stops the merge with no marker in the file.
//! Skips without git, never under CI=true.

mod common;

use std::path::Path;
use std::process::Command;

use common::markport;

/// `git ARGS` in `repo`, waited for; its status and output.
fn git(repo: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", repo)
        .output()
        .expect("git runs")
}

fn ok(repo: &Path, args: &[&str]) -> String {
    let out = git(repo, args);
    assert!(
        out.status.success(),
        "git {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn have_git() -> bool {
    let found = Command::new("git").arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but git is missing"
        );
        eprintln!("skipped: git is not installed");
    }
    found
}

const XBEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0">
  <folder><title>News</title>
    <bookmark href="https://www.bbc.co.uk/"><title>BBC</title></bookmark>
    <bookmark href="https://lwn.net/"><title>LWN</title></bookmark>
  </folder>
  <folder><title>Reading</title>
    <bookmark href="https://example.org/essay"><title>An essay</title></bookmark>
    <bookmark href="https://example.org/old"><title>Old page</title></bookmark>
  </folder>
</xbel>
"#;

const HTML: &str = "<!DOCTYPE NETSCAPE-Bookmark-file-1>
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3>Tools</H3>
    <DL><p>
        <DT><A HREF=\"https://git-scm.com/\">Git</A>
        <DT><A HREF=\"https://www.rust-lang.org/\">Rust</A>
    </DL><p>
    <DT><A HREF=\"https://example.org/gone\">Gone soon</A>
</DL><p>
";

/// A repository with the two files on `main`, a branch `a` and a branch
/// `b` each editing both.
fn repository(dir: &Path) {
    ok(dir, &["init", "-q", "-b", "main"]);
    ok(dir, &["config", "user.email", "test@example.org"]);
    ok(dir, &["config", "user.name", "Test"]);
    std::fs::write(dir.join("bookmarks.xbel"), XBEL).unwrap();
    std::fs::write(dir.join("bookmarks.html"), HTML).unwrap();
    ok(dir, &["add", "."]);
    ok(dir, &["commit", "-q", "-m", "base"]);
    // a: adds to News, renames the essay, adds a tool.
    ok(dir, &["checkout", "-q", "-b", "a"]);
    let x = XBEL
        .replace(
            "<title>LWN</title></bookmark>",
            "<title>LWN</title></bookmark>\n    <bookmark href=\"https://apnews.com/\"><title>AP</title></bookmark>",
        )
        .replace("An essay", "A fine essay");
    std::fs::write(dir.join("bookmarks.xbel"), x).unwrap();
    let h = HTML.replace(
        "<DT><A HREF=\"https://www.rust-lang.org/\">Rust</A>",
        "<DT><A HREF=\"https://www.rust-lang.org/\">Rust</A>\n        <DT><A HREF=\"https://crates.io/\">crates.io</A>",
    );
    std::fs::write(dir.join("bookmarks.html"), h).unwrap();
    ok(dir, &["commit", "-q", "-am", "a"]);
    // b: adds to News too, moves the essay into News, deletes the old page;
    // adds a tool and deletes a bookmark.
    ok(dir, &["checkout", "-q", "main"]);
    ok(dir, &["checkout", "-q", "-b", "b"]);
    let x = XBEL
        .replace(
            "<title>LWN</title></bookmark>",
            "<title>LWN</title></bookmark>\n    <bookmark href=\"https://www.reuters.com/\"><title>Reuters</title></bookmark>\n    <bookmark href=\"https://example.org/essay\"><title>An essay</title></bookmark>",
        )
        .replace(
            "    <bookmark href=\"https://example.org/essay\"><title>An essay</title></bookmark>\n    <bookmark href=\"https://example.org/old\"><title>Old page</title></bookmark>\n",
            "",
        );
    std::fs::write(dir.join("bookmarks.xbel"), x).unwrap();
    let h = HTML
        .replace(
            "<DT><A HREF=\"https://www.rust-lang.org/\">Rust</A>",
            "<DT><A HREF=\"https://www.rust-lang.org/\">Rust</A>\n        <DT><A HREF=\"https://docs.rs/\">Docs.rs</A>",
        )
        .replace("    <DT><A HREF=\"https://example.org/gone\">Gone soon</A>\n", "");
    std::fs::write(dir.join("bookmarks.html"), h).unwrap();
    ok(dir, &["commit", "-q", "-am", "b"]);
    ok(dir, &["checkout", "-q", "a"]);
}

/// The driver configured as the docs say, with this build's binary.
fn configure(dir: &Path) {
    let bin = assert_cmd::cargo::cargo_bin("markport");
    std::fs::write(
        dir.join(".gitattributes"),
        "*.xbel merge=markport\n*.html merge=markport\n",
    )
    .unwrap();
    ok(
        dir,
        &[
            "config",
            "merge.markport.name",
            "markport three-way bookmark merge",
        ],
    );
    ok(
        dir,
        &[
            "config",
            "merge.markport.driver",
            &format!("'{}' git-merge %O %A %B %P", bin.display()),
        ],
    );
}

#[test]
fn git_merge_with_the_driver_is_clean_where_gits_own_conflicts() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    repository(repo);
    // git's own line merge: two adds in one folder conflict.
    let own = git(repo, &["merge", "-q", "--no-edit", "b"]);
    assert!(!own.status.success(), "git's own merge conflicts");
    let xbel = std::fs::read_to_string(repo.join("bookmarks.xbel")).unwrap();
    assert!(xbel.contains("<<<<<<<"), "{xbel}");
    ok(repo, &["merge", "--abort"]);

    configure(repo);
    let merged = git(repo, &["merge", "--no-edit", "b"]);
    assert!(
        merged.status.success(),
        "{}{}",
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&merged.stderr)
    );
    let xbel = ok(repo, &["show", "HEAD:bookmarks.xbel"]);
    for want in ["AP", "Reuters", "A fine essay", "BBC", "LWN"] {
        assert!(xbel.contains(want), "{want} in {xbel}");
    }
    assert!(
        !xbel.contains("Old page") && !xbel.contains("<<<<<<<"),
        "{xbel}"
    );
    // The renamed essay moved into News, once.
    assert_eq!(xbel.matches("example.org/essay").count(), 1, "{xbel}");
    let news = &xbel[xbel.find("News").unwrap()..xbel.find("Reading").unwrap()];
    assert!(news.contains("A fine essay"), "{xbel}");
    let html = ok(repo, &["show", "HEAD:bookmarks.html"]);
    for want in ["crates.io", "Docs.rs", "Git", "Rust"] {
        assert!(html.contains(want), "{want} in {html}");
    }
    assert!(!html.contains("Gone soon"), "{html}");
    // The merge is a commit of both parents, and what it holds reads clean.
    let log = ok(repo, &["log", "--format=%P", "-1"]);
    assert_eq!(log.split_whitespace().count(), 2, "{log}");
    for file in ["bookmarks.xbel", "bookmarks.html"] {
        let content = ok(repo, &["show", &format!("HEAD:{file}")]);
        let path = repo.join(format!("check-{file}"));
        std::fs::write(&path, content).unwrap();
        markport().arg("check").arg(&path).assert().code(0);
    }
    assert!(!repo.join("bookmarks.xbel.markport-conflicts.json").exists());
}

#[test]
fn a_real_conflict_stops_the_merge_without_markers_and_says_it() {
    if !have_git() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    ok(repo, &["init", "-q", "-b", "main"]);
    ok(repo, &["config", "user.email", "test@example.org"]);
    ok(repo, &["config", "user.name", "Test"]);
    configure(repo);
    std::fs::write(repo.join("bookmarks.xbel"), XBEL).unwrap();
    ok(repo, &["add", "."]);
    ok(repo, &["commit", "-q", "-m", "base"]);
    ok(repo, &["checkout", "-q", "-b", "a"]);
    std::fs::write(
        repo.join("bookmarks.xbel"),
        XBEL.replace(">BBC<", ">BBC News<"),
    )
    .unwrap();
    ok(repo, &["commit", "-q", "-am", "a"]);
    ok(repo, &["checkout", "-q", "main"]);
    std::fs::write(
        repo.join("bookmarks.xbel"),
        XBEL.replace(">BBC<", ">The BBC<"),
    )
    .unwrap();
    ok(repo, &["commit", "-q", "-am", "main"]);
    let out = git(repo, &["merge", "--no-edit", "a"]);
    assert!(!out.status.success(), "a conflict stops the merge");
    let stderr =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(stderr.contains("changed both ways"), "{stderr}");
    let xbel = std::fs::read_to_string(repo.join("bookmarks.xbel")).unwrap();
    assert!(
        !xbel.contains("<<<<<<<") && !xbel.contains(">>>>>>>"),
        "{xbel}"
    );
    assert!(
        xbel.contains("The BBC") && !xbel.contains("BBC News"),
        "{xbel}"
    );
    let sidecar = repo.join("bookmarks.xbel.markport-conflicts.json");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&sidecar).unwrap()).unwrap();
    let conflict = &report["conflicts"][0];
    assert_eq!(conflict["class"], "both-changed");
    assert_eq!(conflict["field"], "bookmark.title");
    assert_eq!(
        (conflict["ours"].as_str(), conflict["theirs"].as_str()),
        (Some("The BBC"), Some("BBC News"))
    );
}

#[test]
fn a_floccus_file_keeps_its_ids_and_numbers_new_ones_above_the_highest() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, extra: &str, highest: u32| {
        let text = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE xbel PUBLIC \"+//IDN python.org//DTD XML Bookmark Exchange Language 1.0//EN//XML\" \"http://pyxml.sourceforge.net/topics/dtds/xbel.dtd\">\n<!--- highestId :{highest}: for Floccus bookmark sync browser extension -->\n<xbel version=\"1.0\">\n<folder id=\"1\"><title>Links</title>\n<bookmark href=\"https://a.example/\" id=\"2\"><title>A</title></bookmark>{extra}\n</folder>\n</xbel>\n"
        );
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let base = file("base", "", 2);
    // Both clients numbered their new bookmark 3.
    let ours = file(
        "ours",
        "\n<bookmark href=\"https://b.example/\" id=\"3\"><title>B</title></bookmark>",
        3,
    );
    let theirs = file(
        "theirs",
        "\n<bookmark href=\"https://c.example/\" id=\"3\"><title>C</title></bookmark>",
        3,
    );
    markport()
        .arg("git-merge")
        .args([&base, &ours, &theirs])
        .arg("links.xbel")
        .current_dir(dir.path())
        .assert()
        .code(0);
    let merged = std::fs::read_to_string(&ours).unwrap();
    assert!(merged.contains("highestId :4:"), "{merged}");
    for (href, id) in [
        ("https://a.example/", "2"),
        ("https://b.example/", "3"),
        ("https://c.example/", "4"),
    ] {
        assert!(
            merged.contains(&format!("href=\"{href}\" id=\"{id}\"")),
            "{href} as {id} in {merged}"
        );
    }
}
