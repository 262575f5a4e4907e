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
    // A local file as its path, then the date of last use; what gedit may
    // not see is counted, not listed.
    let date = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z";
    let notes = format!("/home/me/notes\\.txt\t{date}\ttext/plain\tgedit×2\n");
    markport()
        .args(["desktop", "list", "--app", "gedit", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(
            predicate::str::is_match(format!(
                "^{notes}1 bookmark; 1 private to other applications or groups not shown\n$"
            ))
            .unwrap(),
        );
    markport()
        .args(["desktop", "list", "--app", "evince", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(
            predicate::str::is_match(format!(
                "https://example\\.org/a\\.pdf\t{date}\tapplication/pdf\tevince×1\t\\[private\\]\n"
            ))
            .unwrap(),
        );
    markport()
        .args(["desktop", "list", "--group", "Office", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::is_match(format!("^{notes}1 bookmark\n$")).unwrap());
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
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains(&format!("href=\"{base}/report.odt\"")),
        "{text}"
    );
    assert!(
        text.contains(&format!("href=\"{base}/sub%20dir/report%3B1.odt\"")),
        "{text}"
    );
    let out = markport()
        .args(["desktop", "list", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    let lines: Vec<Vec<String>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    let real = real.to_str().unwrap();
    assert_eq!(lines[0][0], format!("{real}/report.odt"));
    assert_eq!(lines[1][0], format!("{real}/sub dir/report;1.odt"));
    assert_eq!(
        lines[1][2..],
        ["application/vnd.oasis.opendocument.text", "writer×1"]
    );
    assert_eq!(lines[2], ["2 bookmarks"]);
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
    // Every entry, private ones too, each a line, then the count.
    // The corpus has a path that is not UTF-8: printed as its bytes.
    assert!(text
        .stdout
        .windows(30)
        .any(|w| w == b"/home/ana/Pictures/caf\xe9-latin1"));
    let text = String::from_utf8_lossy(&text.stdout);
    let (body, count) = text.trim_end().rsplit_once('\n').unwrap();
    assert_eq!(count, "3 bookmarks, 1 private");
    let lines: Vec<String> = body
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
    let shown: Vec<String> = hrefs
        .iter()
        .map(|h| match markport::desktop::file_uri_to_path(h) {
            Some(p) => String::from_utf8_lossy(&p).into_owned(),
            None => h.clone(),
        })
        .collect();
    assert_eq!(hrefs.len(), 3);
    assert_eq!(shown, lines);
    assert!(v[0]["applications"]
        .as_array()
        .is_some_and(|a| !a.is_empty()));
}

/// `desktop remove` takes what a person types (a path, with its spaces and
/// accents), says each entry it removed, and exits 1 naming a URI that has
/// no entry; the others are removed all the same.
#[test]
fn remove_says_what_it_removed_and_what_was_not_there() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    std::fs::copy(corpus("recently-used.xbel"), &file).unwrap();
    markport()
        .args([
            "desktop",
            "add",
            "/home/ana/Résumé.jpg",
            "--app",
            "eog",
            "--file",
        ])
        .arg(&file)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("href=\"file:///home/ana/R%C3%A9sum%C3%A9.jpg\""));
    let shown = file.display();
    markport()
        .args([
            "desktop",
            "remove",
            "/home/ana/Résumé.jpg",
            "https://example.org/diary.txt",
            "--dry-run",
            "--file",
        ])
        .arg(&file)
        .assert()
        .success()
        .stdout(format!(
            "would remove https://example.org/diary.txt\n\
             would remove /home/ana/Résumé.jpg\n\
             would remove 2 of 4 entries from {shown} (dry run: nothing changed)\n"
        ));
    assert_eq!(read_desktop(&file).census().bookmarks, 4);
    markport()
        .args([
            "desktop",
            "remove",
            "/home/ana/Résumé.jpg",
            "/home/ana/nothing here.txt",
            "--file",
        ])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(format!(
            "removed /home/ana/Résumé.jpg\nremoved 1 of 4 entries from {shown}\n"
        ))
        .stderr(format!(
            "markport: {shown}: no entry for /home/ana/nothing here.txt\n"
        ));
    let doc = read_desktop(&file);
    assert!(doc
        .find_by_href("file:///home/ana/R%C3%A9sum%C3%A9.jpg")
        .is_none());
    assert_eq!(doc.census().bookmarks, 3);
    // A URI is taken as it is.
    markport()
        .args([
            "desktop",
            "remove",
            "https://example.org/diary.txt",
            "--file",
        ])
        .arg(&file)
        .assert()
        .success();
    assert_eq!(read_desktop(&file).census().bookmarks, 2);
}

fn read_desktop(file: &std::path::Path) -> markport::model::Document {
    markport::desktop::read(&std::fs::read(file).unwrap(), &Default::default())
        .unwrap()
        .document
}

/// `desktop prune`: local files that are gone, entries unused since a date,
/// each said; `--dry-run` says the same and changes nothing.
#[test]
fn prune_removes_gone_files_and_old_entries_and_says_each() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let file = root.join("recently-used.xbel");
    let here = root.join("here.txt");
    let gone = root.join("Résumé.jpg");
    std::fs::write(&here, "x").unwrap();
    std::fs::write(&gone, "x").unwrap();
    for p in [&here, &gone] {
        markport()
            .args(["desktop", "add"])
            .arg(p)
            .args(["--app", "eog", "--file"])
            .arg(&file)
            .assert()
            .success();
    }
    std::fs::remove_file(&gone).unwrap();
    let shown = file.display();
    let before = std::fs::read(&file).unwrap();
    markport()
        .args(["desktop", "prune", "--missing", "--dry-run", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(format!(
            "would remove {} (the file is gone)\n\
             would remove 1 of 2 entries from {shown} (dry run: nothing changed)\n",
            gone.display()
        ));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    markport()
        .args(["desktop", "prune", "--missing", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(format!(
            "removed {} (the file is gone)\nremoved 1 of 2 entries from {shown}\n",
            gone.display()
        ));
    let doc = read_desktop(&file);
    assert_eq!(doc.census().bookmarks, 1);
    assert!(doc
        .find_by_href(&markport::desktop::path_to_file_uri(
            here.to_str().unwrap().as_bytes()
        ))
        .is_some());
    // By last use: the corpus entries were used in March 2024; the one
    // registered just now stays.
    std::fs::copy(corpus("recently-used.xbel"), &file).unwrap();
    markport()
        .args(["desktop", "add"])
        .arg(&here)
        .args(["--app", "eog", "--file"])
        .arg(&file)
        .assert()
        .success();
    let out = markport()
        .args(["desktop", "prune", "--older-than", "2024-03-04", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    // The path's own bytes (not UTF-8), then the date of last use.
    let mut want =
        b"removed /home/ana/Pictures/caf\xe9-latin1.png (last used 2024-03-02T09:00:00Z)\n\
        removed https://example.org/diary.txt (last used 2024-03-03T08:00:00Z)\n"
            .to_vec();
    want.extend(format!("removed 2 of 4 entries from {shown}\n").bytes());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&want)
    );
    assert_eq!(out.stdout, want);
    markport()
        .args(["desktop", "prune", "--older-than", "30d", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("removed 1 of 2 entries"));
    let doc = read_desktop(&file);
    assert_eq!(doc.census().bookmarks, 1);
    // Nothing to prune by, or a date that is none: usage errors.
    markport()
        .args(["desktop", "prune", "--file"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--missing|--older-than"));
    markport()
        .args(["desktop", "prune", "--older-than", "last year", "--file"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("neither a W3C date"));
}

/// `prune` takes the lock `add` takes: registrations made while a prune of
/// a large store runs all survive, and so does the prune.
#[test]
fn adds_while_prune_runs_both_survive() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    // 3,000 entries, every other one a local file that does not exist, so
    // the prune looks at 1,500 paths while holding the lock.
    let mut doc = markport::model::Document::new();
    for i in 0..3000 {
        let uri = if i % 2 == 0 {
            format!("file:///nonexistent-markport-test/{i}.txt")
        } else {
            format!("https://example.org/{i}")
        };
        let r = markport::desktop::spec::Registration {
            uri,
            app: "seed".into(),
            ..Default::default()
        };
        markport::desktop::spec::register(
            &mut doc,
            &r,
            markport::model::Timestamp::from_unix_seconds(1_700_000_000).unwrap(),
        )
        .unwrap();
    }
    let (bytes, _) = markport::write_to_vec(
        &doc,
        markport::format("desktop").unwrap(),
        &Default::default(),
    )
    .unwrap();
    std::fs::write(&file, bytes).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("markport");
    let adder = {
        let (bin, file) = (bin.clone(), file.clone());
        std::thread::spawn(move || {
            for i in 0..12 {
                let status = std::process::Command::new(&bin)
                    .args(["desktop", "add", &format!("https://added.example/{i}")])
                    .args(["--app", "adder", "--wait", "600", "--file"])
                    .arg(&file)
                    .status()
                    .unwrap();
                assert!(status.success());
            }
        })
    };
    let pruner = std::process::Command::new(&bin)
        .args(["desktop", "prune", "--missing", "--wait", "600", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    adder.join().unwrap();
    assert!(pruner.status.success());
    let said = String::from_utf8(pruner.stdout).unwrap();
    assert_eq!(said.matches("(the file is gone)").count(), 1500, "{said}");
    let doc = read_desktop(&file);
    for i in 0..12 {
        assert!(
            doc.find_by_href(&format!("https://added.example/{i}"))
                .is_some(),
            "registration {i} was lost"
        );
    }
    assert_eq!(doc.census().bookmarks, 1500 + 12);
}
