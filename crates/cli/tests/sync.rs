//! `markport sync A B`: the first run a union that deletes nothing, later
//! runs three-way merges from the state; both files written only after
//! both are made, with backups, under a lock; `--dry-run` writes nothing.

mod common;

use std::path::Path;

use common::markport;

fn xbel(items: &[(&str, &str)]) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xbel version=\"1.0\">\n<folder><title>Links</title>\n");
    for (title, href) in items {
        s.push_str(&format!(
            "<bookmark href=\"{href}\"><title>{title}</title></bookmark>\n"
        ));
    }
    s.push_str("</folder>\n</xbel>\n");
    s
}

fn html(items: &[(&str, &str)]) -> String {
    let mut s =
        String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Links</H3>\n<DL><p>\n");
    for (title, href) in items {
        s.push_str(&format!("<DT><A HREF=\"{href}\">{title}</A>\n"));
    }
    s.push_str("</DL><p>\n</DL><p>\n");
    s
}

/// The links a file holds, as markport reads it.
fn links(path: &Path) -> Vec<String> {
    let out = markport()
        .args(["convert", "--to", "urls"])
        .arg(path)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let mut v: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        // Each line is the link, then its title.
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    v.sort();
    v
}

fn sync(dir: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    markport()
        .arg("sync")
        .arg(dir.join("a.xbel"))
        .arg(dir.join("b.html"))
        .arg("--state")
        .arg(dir.join("state"))
        .args(extra)
        .assert()
}

#[test]
fn the_first_run_is_a_union_and_later_runs_merge_from_the_state() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("a.xbel"),
        xbel(&[("X", "https://x.example/"), ("Y", "https://y.example/")]),
    )
    .unwrap();
    std::fs::write(
        d.join("b.html"),
        html(&[("Y", "https://y.example/"), ("Z", "https://z.example/")]),
    )
    .unwrap();
    sync(d, &[]).code(0).stderr(predicates::str::contains(
        "first sync of these files: a union, nothing deleted",
    ));
    let all = [
        "https://x.example/",
        "https://y.example/",
        "https://z.example/",
    ];
    assert_eq!(links(&d.join("a.xbel")), all);
    assert_eq!(links(&d.join("b.html")), all);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(d.join("state"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o700);
        let mode = std::fs::metadata(d.join("state/base.json"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600);
    }
    // A deletes X; B renames Z: both files get both changes.
    std::fs::write(
        d.join("a.xbel"),
        xbel(&[("Y", "https://y.example/"), ("Z", "https://z.example/")]),
    )
    .unwrap();
    let b = std::fs::read_to_string(d.join("b.html"))
        .unwrap()
        .replace(">Z<", ">Zed<");
    std::fs::write(d.join("b.html"), b).unwrap();
    sync(d, &[]).code(0);
    let two = ["https://y.example/", "https://z.example/"];
    assert_eq!(links(&d.join("a.xbel")), two);
    assert_eq!(links(&d.join("b.html")), two);
    assert!(std::fs::read_to_string(d.join("a.xbel"))
        .unwrap()
        .contains("Zed"));
    let backups = std::fs::read_dir(d.join("state/backups")).unwrap().count();
    assert_eq!(backups, 4, "each run backs up both files");
    assert!(!d.join("state/lock").exists(), "the lock is released");
}

#[test]
fn a_dry_run_says_the_plan_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = xbel(&[("X", "https://x.example/")]);
    let b = html(&[("Z", "https://z.example/")]);
    std::fs::write(d.join("a.xbel"), &a).unwrap();
    std::fs::write(d.join("b.html"), &b).unwrap();
    sync(d, &["--dry-run"])
        .code(0)
        .stderr(predicates::str::contains(
            "a.xbel (xbel) would become the merged tree: 1 added, 0 removed",
        ))
        .stderr(predicates::str::contains("dry run: nothing written"));
    assert_eq!(std::fs::read_to_string(d.join("a.xbel")).unwrap(), a);
    assert_eq!(std::fs::read_to_string(d.join("b.html")).unwrap(), b);
    assert!(!d.join("state/base.json").exists());
}

#[test]
fn a_stale_copy_is_refused_and_a_held_lock_waits_for_no_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let many: Vec<(String, String)> = (0..12)
        .map(|i| (format!("P{i}"), format!("https://p{i}.example/")))
        .collect();
    let items: Vec<(&str, &str)> = many.iter().map(|(t, h)| (t.as_str(), h.as_str())).collect();
    std::fs::write(d.join("a.xbel"), xbel(&items)).unwrap();
    std::fs::write(d.join("b.html"), html(&items)).unwrap();
    sync(d, &[]).code(0);
    // B comes back from a restore with one bookmark.
    let stale = html(&items[..1]);
    std::fs::write(d.join("b.html"), &stale).unwrap();
    let a_before = std::fs::read_to_string(d.join("a.xbel")).unwrap();
    sync(d, &[])
        .code(2)
        .stderr(predicates::str::contains(
            "theirs deletes 11 of the base's 13 items",
        ))
        .stderr(predicates::str::contains("--allow-mass-delete"));
    assert_eq!(std::fs::read_to_string(d.join("a.xbel")).unwrap(), a_before);
    assert_eq!(std::fs::read_to_string(d.join("b.html")).unwrap(), stale);
    // A lock held by a running process (this one) refuses; one left by a
    // process that is gone is taken over.
    std::fs::write(d.join("state/lock"), std::process::id().to_string()).unwrap();
    sync(d, &["--allow-mass-delete"])
        .code(2)
        .stderr(predicates::str::contains(
            "another sync of these files is running",
        ));
    std::fs::write(d.join("state/lock"), "999999999").unwrap();
    sync(d, &["--allow-mass-delete"]).code(0);
    assert_eq!(links(&d.join("a.xbel")), ["https://p0.example/"]);
}
