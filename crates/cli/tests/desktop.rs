//! `markport desktop` as people (and programs) use it.

use assert_cmd::Command;
use predicates::prelude::*;

fn markport() -> Command {
    Command::cargo_bin("markport").unwrap()
}

#[test]
fn add_list_and_exec_follow_the_spec() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    let add = |args: &[&str]| {
        markport()
            .args(["desktop", "add"])
            .args(args)
            .arg("--file")
            .arg(&file)
            .assert()
            .success();
    };
    add(&["/home/me/notes.txt", "--app", "gedit", "--group", "Office"]);
    add(&["/home/me/notes.txt", "--app", "gedit"]);
    add(&[
        "https://example.org/a.pdf",
        "--app",
        "evince",
        "--exec",
        "evince --preview %u",
        "--private",
    ]);
    markport()
        .args(["desktop", "list", "--app", "gedit", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout("file:///home/me/notes.txt\ttext/plain\tgedit×2\n");
    markport()
        .args(["desktop", "list", "--app", "evince", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "https://example.org/a.pdf\tapplication/pdf\tevince×1\tprivate",
        ));
    markport()
        .args(["desktop", "list", "--group", "Office", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout("file:///home/me/notes.txt\ttext/plain\tgedit×2\n");
    markport()
        .args([
            "desktop",
            "exec",
            "/home/me/notes.txt",
            "--app",
            "gedit",
            "--file",
        ])
        .arg(&file)
        .assert()
        .success()
        .stdout("gedit file:///home/me/notes.txt\n");
    markport()
        .args([
            "desktop",
            "exec",
            "https://example.org/a.pdf",
            "--app",
            "nobody",
            "--file",
        ])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nobody has not registered"));
    // The file is GLib's layout and reads back as a desktop file.
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xbel version=\"1.0\"\n"));
    // GLib's g_bookmark_file_add_application stores the default quoted too.
    assert!(text.contains(
        "<bookmark:application name=\"gedit\" exec=\"&apos;gedit %u&apos;\" modified=\""
    ));
    assert!(text.contains("count=\"2\"/>"));
}

#[test]
fn eight_processes_registering_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    let bin = assert_cmd::cargo::cargo_bin("markport");
    let workers: Vec<_> = (0..8)
        .map(|w| {
            let (bin, file) = (bin.clone(), file.clone());
            std::thread::spawn(move || {
                for i in 0..50 {
                    // Every worker registers 25 URIs of its own (most twice) and one shared URI five times.
                    let uri = if i % 10 == 0 {
                        "file:///shared/doc.txt".to_string()
                    } else {
                        format!("file:///w{w}/doc{}.txt", i % 25)
                    };
                    let status = std::process::Command::new(&bin)
                        .args([
                            "desktop",
                            "add",
                            &uri,
                            "--app",
                            &format!("app{w}"),
                            "--file",
                        ])
                        .arg(&file)
                        .status()
                        .unwrap();
                    assert!(status.success());
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let read =
        markport::desktop::read(&std::fs::read(&file).unwrap(), &Default::default()).unwrap();
    let doc = read.document;
    let mut total = 0;
    for id in doc.preorder() {
        let b = doc.node(id).as_bookmark().unwrap();
        total += b
            .details()
            .applications
            .iter()
            .map(|a| a.count.unwrap())
            .sum::<u32>();
        if b.href == "file:///shared/doc.txt" {
            let counts: Vec<_> = b
                .details()
                .applications
                .iter()
                .map(|a| a.count.unwrap())
                .collect();
            assert_eq!(counts, [5; 8].to_vec(), "each worker registered it 5 times");
        }
    }
    assert_eq!(total, 400, "all 400 registrations are counted");
    assert_eq!(doc.census().bookmarks, 8 * 25 + 1);
}

/// Start `markport desktop watch` on a new file with the given poll
/// interval, then register two URIs into it, 300 ms apart.
fn watch_two_changes(interval_ms: &str) -> (tempfile::TempDir, std::process::Child) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    let watcher = std::process::Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args([
            "desktop",
            "watch",
            "--interval",
            interval_ms,
            "--count",
            "2",
            "--file",
        ])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    for uri in ["file:///a", "file:///b"] {
        markport()
            .args(["desktop", "add", uri, "--app", "x", "--file"])
            .arg(&file)
            .assert()
            .success();
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    (dir, watcher)
}

#[test]
fn watch_reports_each_change() {
    let (_dir, watcher) = watch_two_changes("50");
    let out = watcher.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("created\t") && lines[0].ends_with("\t1 bookmarks"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("changed\t") && lines[1].ends_with("\t2 bookmarks"),
        "{text}"
    );
}

#[test]
fn watch_is_woken_by_the_file_system_not_by_its_poll() {
    // With a one-minute poll, only inotify can report these changes in time.
    let (_dir, mut watcher) = watch_two_changes("60000");
    let start = std::time::Instant::now();
    while watcher.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = watcher.kill();
            panic!("watch did not see two changes in 20 s: no file-system notification");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(watcher.wait().unwrap().success());
}

/// A private bookmark file stays private when `desktop add` replaces it.
#[cfg(unix)]
#[test]
fn add_keeps_the_permissions_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    let add = |uri: &str| {
        markport()
            .args(["desktop", "add", uri, "--app", "gedit", "--file"])
            .arg(&file)
            .assert()
            .success();
    };
    add("/home/me/a.txt");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    add("/home/me/b.txt");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}
