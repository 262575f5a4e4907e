//! What `markport` leaves beside what it writes, however it ends: a signal
//! while a tree is written leaves no staging directory, what a run killed
//! outright left is removed by the next run (only markport's own, of a
//! process that is gone), and a refused `-o` leaves no lock file.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::markport;

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("markport")
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The id of a process that has ended.
fn dead_pid() -> u32 {
    let mut child = Process::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// A Netscape file of `folders` folders of 100 bookmarks each.
fn big_input(dir: &Path, folders: usize) -> PathBuf {
    let mut html = String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL>\n");
    for f in 0..folders {
        html.push_str(&format!("<DT><H3>Folder {f}</H3>\n<DL>\n"));
        for b in 0..100 {
            html.push_str(&format!(
                "<DT><A HREF=\"https://example.org/{f}/{b}\">Bookmark {f} {b}</A>\n"
            ));
        }
        html.push_str("</DL>\n");
    }
    html.push_str("</DL>\n");
    let path = dir.join("big.html");
    std::fs::write(&path, html).unwrap();
    path
}

#[test]
fn a_signal_while_a_tree_is_written_leaves_no_staging_directory() {
    let input_dir = tempfile::tempdir().unwrap();
    // 20,000 files: seconds of writing, a wide window for the signal.
    let input = big_input(input_dir.path(), 200);
    for signal in [libc::SIGTERM, libc::SIGQUIT, libc::SIGUSR1, libc::SIGPIPE] {
        let mut caught = false;
        // The write may be over before the signal comes: try again.
        for _ in 0..5 {
            let work = tempfile::tempdir().unwrap();
            let out = work.path().join("tree");
            let mut child = Process::new(bin())
                .args(["convert", "--to", "favorites", "-o"])
                .arg(&out)
                .arg(&input)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let started = Instant::now();
            // Once the staging directory holds files, the write is under way.
            let staging = loop {
                let staging = names_in(work.path())
                    .into_iter()
                    .find(|n| n.starts_with("tree.markport-tmp-"));
                if let Some(s) = staging {
                    let s = work.path().join(s);
                    if std::fs::read_dir(&s).is_ok_and(|d| d.count() > 10) {
                        break Some(s);
                    }
                }
                if out.exists() || started.elapsed() > Duration::from_secs(60) {
                    break None;
                }
                std::thread::sleep(Duration::from_millis(2));
            };
            if staging.is_none() {
                child.wait().unwrap();
                continue;
            }
            // SAFETY: signalling our own child.
            unsafe { libc::kill(child.id() as i32, signal) };
            let status = child.wait().unwrap();
            if status.success() {
                // Done before the signal arrived.
                continue;
            }
            assert_eq!(status.code(), Some(128 + signal), "signal {signal}");
            let left = names_in(work.path());
            assert!(
                !left.iter().any(|n| n.contains(".markport-tmp-")),
                "signal {signal} left {left:?}"
            );
            assert!(!out.exists(), "signal {signal}: a tree at the target");
            caught = true;
            break;
        }
        assert!(caught, "signal {signal}: every write finished first");
    }
}

#[test]
fn the_next_run_removes_what_dead_runs_left_and_only_that() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let dead = dead_pid();
    let me = std::process::id();
    // What kill -9 left: a staging directory with its manifest and part of
    // its files, and an output's temporary file.
    let staging = w.join(format!("tree.markport-tmp-{dead}-0"));
    std::fs::create_dir(&staging).unwrap();
    std::fs::write(
        staging.join(".markport-publish.json"),
        br#"{"markport_publish":1,"files":["A.url","B.url"]}"#,
    )
    .unwrap();
    std::fs::write(staging.join("A.url"), b"[InternetShortcut]\r\n").unwrap();
    std::fs::write(
        w.join(format!(".out.json.markport-{dead}-Ab12Cd.tmp")),
        b"{",
    )
    .unwrap();
    // What must stay: a live process's (this test's) staging and temporary
    // file, a name without an id, a staging directory holding a file its
    // manifest does not list, and a lookalike of someone else's.
    let live = w.join(format!("tree.markport-tmp-{me}-0"));
    std::fs::create_dir(&live).unwrap();
    std::fs::write(w.join(format!(".out.json.markport-{me}-Xy34Zw.tmp")), b"{").unwrap();
    std::fs::write(w.join(".out.json.markport-Ab12Cd.tmp"), b"{").unwrap();
    let foreign = w.join(format!("tree.markport-old-{dead}-1"));
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), b"mine").unwrap();
    std::fs::write(w.join(format!("out.json.markport-{dead}-Ab12Cd.tmp")), b"x").unwrap();
    let mut keep = names_in(w);
    keep.retain(|n| !n.starts_with(&format!(".out.json.markport-{dead}-")));

    let input = common::corpus("xbel/nested.xbel");
    markport()
        .arg("convert")
        .arg(&input)
        .arg("-o")
        .arg(w.join("out.json"))
        .assert()
        .success();
    let mut want = keep.clone();
    want.push("out.json".into());
    want.sort();
    assert_eq!(names_in(w), want, "an output's write");

    // A tree's write removes the dead run's staging directories of that
    // tree (under the tree's lock); an output's write leaves them.
    std::fs::create_dir(w.join(format!("tree.markport-tmp-{dead}-5"))).unwrap();
    markport()
        .args(["convert", "--to", "favorites", "-o"])
        .arg(w.join("tree"))
        .arg(&input)
        .assert()
        .success();
    want.retain(|n| *n != format!("tree.markport-tmp-{dead}-0"));
    want.extend(["tree".to_owned(), "tree.markport-lock".to_owned()]);
    want.sort();
    assert_eq!(names_in(w), want, "a tree's write");
}

#[test]
fn a_refused_output_directory_leaves_no_lock_file() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    std::fs::write(w.join("file"), b"not a directory").unwrap();
    std::fs::create_dir(w.join("mine")).unwrap();
    std::fs::write(w.join("mine/notes.txt"), b"not markport's").unwrap();
    let input = common::corpus("xbel/nested.xbel");
    for target in ["file", "mine"] {
        markport()
            .args(["convert", "--to", "favorites", "-o"])
            .arg(w.join(target))
            .arg(&input)
            .assert()
            .code(2);
    }
    assert_eq!(names_in(w), ["file", "mine"]);
}
