//! The private copy of a places database: owner-only while it exists, and
//! gone when `markport` ends, however it ends (done, failed, or interrupted
//! by SIGINT, SIGTERM, SIGHUP or another signal that would end it), and
//! what `kill -9` left is removed by the next run. `TMPDIR` points at a
//! directory the test owns, so whatever is left behind is seen.
#![cfg(unix)]

#[path = "../../places/tests/schema.rs"]
mod schema;

use std::io::Write as _;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("markport")
}

/// A places database with a few bookmarks, as bytes.
fn database() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let conn = Connection::open(&path).unwrap();
    schema::places(&conn);
    for i in 0..50 {
        let p = schema::place(&conn, &format!("https://example.org/{i}"), None);
        schema::item(
            &conn,
            1,
            Some(p),
            3,
            i,
            Some("b"),
            schema::T0,
            &format!("b{i:011}"),
        );
    }
    drop(conn);
    std::fs::read(path).unwrap()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates a node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn an_interrupted_convert_leaves_no_copy_and_the_copy_is_owner_only() {
    let bytes = database();
    for signal in [
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGUSR2,
        libc::SIGALRM,
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        // The database arrives through a pipe, half of it now and the rest
        // never: the copy is being made when the signal comes.
        let fifo = work.path().join("places.sqlite");
        mkfifo(&fifo);
        let mut child = Process::new(bin())
            .args(["convert", "--from", "places", "--to", "json"])
            .arg(&fifo)
            .arg("-o")
            .arg(work.path().join("out.json"))
            .env("TMPDIR", tmp.path())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        pipe.write_all(&bytes[..bytes.len() / 2]).unwrap();
        let started = Instant::now();
        let copy = loop {
            let dirs = names_in(tmp.path());
            if let Some(dir) = dirs.iter().find(|n| n.starts_with(".markport-")) {
                let dir = tmp.path().join(dir);
                if dir.join("places.sqlite").exists() {
                    break dir;
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no private copy in TMPDIR: {dirs:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(mode(&copy), 0o700, "the copy's directory is the owner's");
        assert_eq!(
            mode(&copy.join("places.sqlite")),
            0o600,
            "and so is the copy"
        );

        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = child.wait().unwrap();
        drop(pipe);
        assert_eq!(status.code(), Some(128 + signal), "signal {signal}");
        assert_eq!(
            names_in(tmp.path()),
            Vec::<String>::new(),
            "signal {signal} left the copy behind"
        );
        assert_eq!(names_in(work.path()), ["places.sqlite"], "no output either");
    }
}

#[test]
fn a_finished_or_failed_convert_leaves_no_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let db = work.path().join("places.sqlite");
    std::fs::write(&db, database()).unwrap();
    // A -wal beside it means a copy is made.
    std::fs::write(work.path().join("places.sqlite-wal"), b"").unwrap();
    let run = |args: &[&str]| {
        Process::new(bin())
            .arg("convert")
            .arg(&db)
            .args(args)
            .env("TMPDIR", tmp.path())
            .output()
            .unwrap()
    };
    let done = run(&["--to", "json"]);
    assert!(done.status.success(), "{done:?}");
    assert_eq!(names_in(tmp.path()), Vec::<String>::new());
    // A refused output (--fail-on-loss) and a read that fails.
    let refused = run(&["--to", "netscape", "--fail-on-loss"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert_eq!(names_in(tmp.path()), Vec::<String>::new());
    std::fs::write(
        work.path().join("places.sqlite-wal"),
        b"not a wal at all, just bytes",
    )
    .unwrap();
    let mut damaged = database();
    damaged[200..4096].fill(0xff);
    std::fs::write(&db, damaged).unwrap();
    let failed = run(&["--to", "json"]);
    assert_eq!(failed.status.code(), Some(2), "{failed:?}");
    assert_eq!(names_in(tmp.path()), Vec::<String>::new());
}

#[test]
fn a_copy_kill_9_left_is_removed_by_the_next_run_that_makes_one() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let db = work.path().join("places.sqlite");
    std::fs::write(&db, database()).unwrap();
    std::fs::write(work.path().join("places.sqlite-wal"), b"").unwrap();
    let dead = {
        let mut child = Process::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    let me = std::process::id();
    let left = |name: &str| {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("places.sqlite"), database()).unwrap();
    };
    // A dead run's copy, and one whose removal was under way.
    left(&format!(".markport-{dead}-aB3dE9"));
    left(&format!(".markport-{dead}-zZ9yY8.removing"));
    // A live process's (this test's), and names markport's without an id.
    left(&format!(".markport-{me}-qW1eR2"));
    left(".markport-xY7uI8");
    let out = Process::new(bin())
        .arg("convert")
        .arg(&db)
        .args(["--to", "json"])
        .env("TMPDIR", tmp.path())
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        names_in(tmp.path()),
        [
            format!(".markport-{me}-qW1eR2"),
            ".markport-xY7uI8".to_owned()
        ]
    );
}
