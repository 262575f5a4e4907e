//! `markport desktop` as people (and programs) use it.

use predicates::prelude::*;

mod common;

use common::markport;

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
        .stderr(format!(
            "markport: {}: error: nobody has not registered https://example.org/a.pdf\n",
            file.display()
        ));
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
fn desktop_errors_read_like_every_other_markport_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    std::fs::write(
        &file,
        "<xbel version=\"1.0\">\n  <bookmark href=\"a\">\n</xbel>\n",
    )
    .unwrap();
    for args in [
        &["list"][..],
        &["exec", "https://a.example/", "--app", "gedit"],
    ] {
        markport()
            .arg("desktop")
            .args(args)
            .arg("--file")
            .arg(&file)
            .assert()
            .code(2)
            .stderr(
                predicate::str::is_match(format!(
                    "^markport: {}:3:[0-9]+: error: .+\n$",
                    regex_escape(&file.display().to_string())
                ))
                .unwrap(),
            );
    }
    // The same file given to convert: the same shape.
    markport()
        .args(["convert", "-f", "desktop", "-t", "json"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(format!(
            "markport: {}:3:",
            file.display()
        )));
    // Without a file or a position: no empty parts.
    markport()
        .args(["desktop", "add", "", "--app", "gedit", "--file"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr("markport: error: the URI is empty\n");
}

fn regex_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            let special = "\\.+*?()|[]{}^$".contains(c);
            special.then_some('\\').into_iter().chain([c])
        })
        .collect()
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
                            // The test is about losing nothing; on a loaded
                            // machine a process may wait its turn long.
                            "--wait",
                            "600",
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
            .desktop()
            .applications
            .iter()
            .map(|a| a.count.unwrap())
            .sum::<u32>();
        if b.href == "file:///shared/doc.txt" {
            let counts: Vec<_> = b
                .details()
                .desktop()
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

fn corpus(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/desktop")
        .join(name)
}

/// Folders, separators and KDE's icon names are valid XBEL that GLib
/// ignores: `desktop add` keeps every one of them.
#[test]
fn add_keeps_folders_separators_and_icons() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("places.xbel");
    std::fs::copy(corpus("kde-places.xbel"), &file).unwrap();
    let before = markport::read_bytes(
        &std::fs::read(&file).unwrap(),
        markport::format("xbel").unwrap(),
        &Default::default(),
    )
    .unwrap()
    .document;
    markport()
        .args([
            "desktop",
            "add",
            "/home/ana/new.txt",
            "--app",
            "gedit",
            "--file",
        ])
        .arg(&file)
        .assert()
        .success();
    let after = markport::read_bytes(
        &std::fs::read(&file).unwrap(),
        markport::format("xbel").unwrap(),
        &Default::default(),
    )
    .unwrap()
    .document;
    let (b, a) = (before.census(), after.census());
    assert_eq!((a.folders, a.separators), (b.folders, b.separators));
    assert_eq!(a.bookmarks, b.bookmarks + 1);
    // Everything that was there is there still, unchanged.
    for id in before.preorder() {
        if let Some(old) = before.node(id).as_bookmark() {
            let new = after
                .find_by_href(&old.href)
                .and_then(|n| after.node(n).as_bookmark())
                .unwrap();
            assert_eq!(new, old);
        }
    }
    let home = after.find_by_href("file:///home/ana").unwrap();
    let icon = after
        .node(home)
        .as_bookmark()
        .unwrap()
        .details()
        .desktop()
        .desktop_icon
        .clone();
    assert_eq!(icon.unwrap().name.as_deref(), Some("user-home"));
    assert!(after.find_by_href("file:///home/ana/new.txt").is_some());
}

/// What cannot be written back is refused, named, and the file is left
/// byte-identical.
#[test]
fn add_refuses_what_it_would_lose_and_leaves_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    std::fs::copy(corpus("recently-used.xbel"), &file).unwrap();
    let before = std::fs::read(&file).unwrap();
    markport()
        .args([
            "desktop",
            "add",
            "/home/ana/x.txt",
            "--app",
            "tab\there",
            "--file",
        ])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("would lose bookmark.applications"));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // A GLib-layout file stays in GLib's layout.
    markport()
        .args([
            "desktop",
            "add",
            "/home/ana/x.txt",
            "--app",
            "gedit",
            "--file",
        ])
        .arg(&file)
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xbel version=\"1.0\"\n"));
    assert!(text.ends_with("</xbel>"));
}

#[test]
fn relative_paths_become_absolute_file_uris() {
    let dir = tempfile::tempdir().unwrap();
    let real = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(real.join("sub dir")).unwrap();
    std::fs::write(real.join("sub dir/report;1.odt"), "x").unwrap();
    let file = real.join("recently-used.xbel");
    for uri in ["report.odt", "./sub dir/../sub dir/report;1.odt"] {
        markport()
            .current_dir(&real)
            .args(["desktop", "add", uri, "--app", "writer", "--file"])
            .arg(&file)
            .assert()
            .success();
    }
    let base = markport::desktop::path_to_file_uri(real.to_str().unwrap().as_bytes());
    markport()
        .args(["desktop", "list", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(format!(
            "{base}/report.odt\tapplication/vnd.oasis.opendocument.text\twriter×1\n\
             {base}/sub%20dir/report%3B1.odt\tapplication/vnd.oasis.opendocument.text\twriter×1\n"
        ));
}

#[test]
fn empty_uri_and_empty_app_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    for (args, why) in [
        (["", "--app", "gedit"], "the URI is empty"),
        (["/tmp/a.txt", "--app", ""], "the application name is empty"),
    ] {
        markport()
            .args(["desktop", "add"])
            .args(args)
            .arg("--file")
            .arg(&file)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(why));
    }
    assert!(!file.exists());
}

#[cfg(unix)]
#[test]
fn a_symlinked_store_stays_a_link_and_its_target_changes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let target = dir.path().join("real/recently-used.xbel");
    std::fs::copy(corpus("recently-used.xbel"), &target).unwrap();
    let link = dir.path().join("link.xbel");
    std::os::unix::fs::symlink("real/recently-used.xbel", &link).unwrap();
    markport()
        .args(["desktop", "add", "/tmp/new.txt", "--app", "gedit", "--file"])
        .arg(&link)
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.contains("href=\"file:///tmp/new.txt\""), "{text}");
}

#[cfg(unix)]
#[test]
fn a_read_only_store_is_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    std::fs::copy(corpus("recently-used.xbel"), &file).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&file).unwrap();
    markport()
        .args(["desktop", "add", "/tmp/new.txt", "--app", "gedit", "--file"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("read-only"));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o444);
}

#[test]
fn a_held_lock_is_waited_for_then_given_up() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    let lock = std::fs::File::create(dir.path().join("recently-used.xbel.lock")).unwrap();
    lock.lock().unwrap();
    let start = std::time::Instant::now();
    markport()
        .args([
            "desktop",
            "add",
            "/tmp/a.txt",
            "--app",
            "gedit",
            "--wait",
            "1.5",
            "--file",
        ])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "note: waiting for another process to release",
        ))
        .stderr(predicate::str::contains("recently-used.xbel.lock"))
        .stderr(predicate::str::contains("gave up"));
    let took = start.elapsed();
    assert!(took >= std::time::Duration::from_millis(1500), "{took:?}");
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    assert!(!file.exists());
    // Released while waiting: the registration goes through.
    let bin = assert_cmd::cargo::cargo_bin("markport");
    let child = std::process::Command::new(bin)
        .args(["desktop", "add", "/tmp/a.txt", "--app", "gedit", "--file"])
        .arg(&file)
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    lock.unlock().unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    assert!(file.exists());
}

#[test]
fn a_lock_path_that_is_a_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    std::fs::create_dir(dir.path().join("recently-used.xbel.lock")).unwrap();
    markport()
        .args(["desktop", "add", "/tmp/a.txt", "--app", "gedit", "--file"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("lock file"))
        .stderr(predicate::str::contains("recently-used.xbel.lock"));
}

/// The stored command line is quoted as GLib quotes it, and `exec` prints
/// what GLib gives: unquoted, then expanded.
#[test]
fn exec_is_stored_quoted_and_printed_as_glib_gives_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    markport()
        .args([
            "desktop",
            "add",
            "/tmp/été x.txt",
            "--app",
            "gedit",
            "--exec",
            "gedit %f",
            "--file",
        ])
        .arg(&file)
        .assert()
        .success();
    markport()
        .args([
            "desktop",
            "add",
            "/tmp/été x.txt",
            "--app",
            "q",
            "--exec",
            "it's \"%u\" 100%% %x",
            "--file",
        ])
        .arg(&file)
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("exec=\"&apos;gedit %f&apos;\""), "{text}");
    assert!(
        text.contains("exec=\"&apos;it&apos;\\&apos;&apos;s &quot;%u&quot; 100%% %x&apos;\""),
        "{text}"
    );
    let exec = |app: &str| {
        markport()
            .args(["desktop", "exec", "/tmp/été x.txt", "--app", app, "--file"])
            .arg(&file)
            .assert()
            .success()
    };
    exec("gedit").stdout("gedit /tmp/été x.txt\n");
    exec("q").stdout("it's \"file:///tmp/%C3%A9t%C3%A9%20x.txt\" 100% x\n");
}

/// Any path bytes: the URI argument and --file need not be UTF-8.
#[cfg(unix)]
#[test]
fn non_utf8_paths_are_accepted() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(OsStr::from_bytes(b"recently-caf\xe9.xbel"));
    markport()
        .args(["desktop", "add"])
        .arg(OsStr::from_bytes(b"/tmp/caf\xe9.txt"))
        .args(["--app", "eog", "--exec", "eog %f", "--file"])
        .arg(&file)
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("href=\"file:///tmp/caf%E9.txt\""), "{text}");
    let out = markport()
        .args(["desktop", "exec"])
        .arg(OsStr::from_bytes(b"/tmp/caf\xe9.txt"))
        .args(["--app", "eog", "--file"])
        .arg(&file)
        .assert()
        .success();
    assert_eq!(out.get_output().stdout, b"eog /tmp/caf\xe9.txt\n");
}

#[test]
fn list_json_gives_the_visible_bookmarks_in_the_model_shape() {
    let file = corpus("recently-used.xbel");
    let text = markport()
        .args(["desktop", "list", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    let lines: Vec<String> = String::from_utf8(text.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
        .collect();
    let json = markport()
        .args(["desktop", "list", "--json", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(json.status.success());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let hrefs: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            assert_eq!(b["type"], "bookmark");
            b["href"].as_str().unwrap().to_owned()
        })
        .collect();
    assert!(!hrefs.is_empty());
    assert_eq!(hrefs, lines);
    assert!(v[0]["applications"]
        .as_array()
        .is_some_and(|a| !a.is_empty()));
}
