//! `markport links` as a user runs it, against the scripted server of
//! markport-links on loopback: corpus files rewritten to point at it, the
//! write-back compared field by field with a plain conversion, JSON Lines,
//! the exit codes, and a stopped run resumed from its state. No request
//! leaves 127.0.0.0/8: every rewritten file is checked for that before a
//! link is asked.

mod common;

use std::path::{Path, PathBuf};

use common::{corpus, markport};
use markport_links::loopback::{closed_port, Server};
use serde_json::Value;

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `path` as markport's JSON model.
fn model(path: &Path) -> Value {
    let out = markport()
        .args(["convert", "-t", "json"])
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every bookmark object of a model (an explicit stack).
fn bookmarks_mut(doc: &mut Value) -> Vec<&mut serde_json::Map<String, Value>> {
    let mut out = Vec::new();
    let mut stack: Vec<&mut Value> = vec![doc];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if map.get("type").and_then(Value::as_str) == Some("bookmark") {
                    out.push(map);
                } else {
                    stack.extend(map.values_mut());
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut().rev()),
            _ => {}
        }
    }
    out
}

fn hrefs(doc: &mut Value) -> Vec<String> {
    bookmarks_mut(doc)
        .into_iter()
        .filter_map(|b| b.get("href").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// What each rewritten link becomes: by its place in the file, one moved
/// for good, one gone, one fine, in turn.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Fate {
    Moved,
    Gone,
    Fine,
}

/// `name` from the corpus with every http(s) link pointing at `server`,
/// and each new link's fate.
fn rewritten(name: &str, server: &Server, dir: &Path) -> (PathBuf, Vec<(String, Fate)>) {
    let source = corpus(name);
    let mut text = String::from_utf8(std::fs::read(&source).unwrap()).unwrap();
    let mut links: Vec<String> = hrefs(&mut model(&source))
        .into_iter()
        .filter(|h| h.starts_with("http://") || h.starts_with("https://"))
        .collect();
    links.sort();
    links.dedup();
    // Longest first: a link that is the start of another is replaced last.
    links.sort_by_key(|h| std::cmp::Reverse(h.len()));
    let mut fates = Vec::new();
    for (i, href) in links.iter().enumerate() {
        let (path, fate) = match i % 3 {
            0 => (format!("/go/301/ok-moved{i}"), Fate::Moved),
            1 => (format!("/gone{i}"), Fate::Gone),
            _ => (format!("/ok{i}"), Fate::Fine),
        };
        let new = server.url(&path);
        assert!(
            text.contains(href.as_str()),
            "{href} is not written as is in {name}"
        );
        text = text.replace(href.as_str(), &new);
        fates.push((new, fate));
    }
    let path = dir.join(source.file_name().unwrap());
    std::fs::write(&path, text).unwrap();
    // Nothing may be asked anywhere but the loopback server.
    for href in hrefs(&mut model(&path)) {
        assert!(
            !(href.starts_with("http://") || href.starts_with("https://"))
                || href.starts_with(&server.url("/")),
            "{href} in the rewritten {name} is not on loopback"
        );
    }
    (path, fates)
}

#[test]
fn the_write_back_keeps_every_field_a_conversion_keeps() {
    let server = Server::start("127.0.0.1");
    for name in [
        "netscape/firefox.html",
        "netscape/pinboard.html",
        "netscape/linkding.html",
        "xbel/nested.xbel",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (input, fates) = rewritten(name, &server, dir.path());
        let ext = input.extension().unwrap().to_str().unwrap().to_owned();
        let plain = dir.path().join(format!("plain.{ext}"));
        let checked = dir.path().join(format!("checked.{ext}"));
        let convert = markport()
            .arg("convert")
            .arg(&input)
            .arg("-o")
            .arg(&plain)
            .output()
            .unwrap();
        assert!(convert.status.success(), "{}", stderr(&convert));
        let out = markport()
            .arg("links")
            .arg(&input)
            .args(["--update-redirects", "--tag-dead", "dead", "-o"])
            .arg(&checked)
            .output()
            .unwrap();
        let has_gone = fates.iter().any(|(_, f)| *f == Fate::Gone);
        assert_eq!(
            out.status.code(),
            Some(i32::from(has_gone)),
            "{name}: {}",
            stderr(&out)
        );
        let report = stderr(&out);
        if fates.iter().any(|(_, f)| *f == Fate::Moved) {
            assert!(
                report.contains("updated by --update-redirects: bookmark.href"),
                "{report}"
            );
        }
        if has_gone {
            assert!(
                report.contains("added by --tag-dead: bookmark.tags"),
                "{report}"
            );
        }
        // The plain conversion, with what the flags say done by hand.
        let mut expected = model(&plain);
        for b in bookmarks_mut(&mut expected) {
            let href = b["href"].as_str().unwrap().to_owned();
            match fates.iter().find(|(h, _)| *h == href).map(|(_, f)| *f) {
                Some(Fate::Moved) => {
                    let moved = href.replace("/go/301/", "/");
                    b.insert("href".into(), Value::String(moved));
                }
                Some(Fate::Gone) => {
                    let tags = b.entry("tags").or_insert_with(|| Value::Array(vec![]));
                    tags.as_array_mut().unwrap().push("dead".into());
                }
                _ => {}
            }
        }
        assert_eq!(model(&checked), expected, "{name}");
    }
}

#[test]
fn json_lines_one_object_per_link_with_every_place() {
    let server = Server::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.xbel");
    let ok = server.url("/ok");
    let gone = server.url("/gone");
    std::fs::write(
        &file,
        format!(
            r#"<xbel version="1.0"><folder><title>News</title>
<bookmark href="{ok}"><title>A</title></bookmark>
<bookmark href="{gone}"><title>G</title></bookmark></folder>
<bookmark href="{ok}#again"><title>A again</title></bookmark>
<bookmark href="javascript:void(0)"><title>J</title></bookmark></xbel>"#
        ),
    )
    .unwrap();
    let out = markport()
        .arg("links")
        .arg(&file)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{}", stdout(&out));
    assert_eq!(lines[0]["url"], ok.as_str());
    assert_eq!(lines[0]["status"], "ok");
    assert_eq!(lines[0]["code"], 200);
    assert_eq!(lines[0]["paths"], serde_json::json!(["News/A", "A again"]));
    assert!(lines[0]["checked_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(lines[1]["status"], "gone");
    assert_eq!(lines[1]["code"], 404);
    assert_eq!(lines[2]["status"], "skipped");
    assert_eq!(lines[2]["url"], "javascript:void(0)");
    for l in &lines {
        for key in ["url", "status", "code", "final_url", "paths", "checked_at"] {
            assert!(l.get(key).is_some(), "{key} missing in {l}");
        }
    }
    // The link twice was asked once; the skipped one never.
    assert_eq!(server.count(), 3, "{:?}", server.requests());
}

#[test]
fn exit_0_when_nothing_fails_and_the_summary_says_the_counts() {
    let server = Server::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urls.txt");
    std::fs::write(
        &file,
        format!(
            "{}\n{}\n{}\n",
            server.url("/ok"),
            server.url("/go/302/ok"),
            server.url("/code/403")
        ),
    )
    .unwrap();
    let out = markport().arg("links").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("3 links: 2 ok, 1 blocked"), "{text}");
    assert!(!stderr(&out).contains("checking"), "no bar off a terminal");
    let quiet = markport()
        .args(["-q", "links"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stdout.is_empty() && quiet.stderr.is_empty());
}

#[test]
fn unreachable_links_fail_the_run() {
    let server = Server::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urls.txt");
    let closed = format!("http://127.0.0.1:{}/", closed_port("127.0.0.1"));
    std::fs::write(
        &file,
        format!("{closed}\n{}\n", server.url("/slow/2000/ok")),
    )
    .unwrap();
    let out = markport()
        .arg("links")
        .arg(&file)
        .args(["--timeout", "0.2", "--retries", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("unreachable: {closed} (connection refused)")),
        "{text}"
    );
    assert!(text.contains("(timed out)"), "{text}");
    assert!(text.contains("most failures: 127.0.0.1 (2)"), "{text}");
}

#[test]
fn a_stopped_run_goes_on_from_its_state_asking_only_the_rest() {
    let server = Server::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urls.txt");
    let state = dir.path().join("links.state");
    let list: String = (0..20)
        .map(|i| server.url(&format!("/ok{i}")) + "\n")
        .collect();
    std::fs::write(&file, list).unwrap();
    let run = |extra: &[&str]| {
        markport()
            .arg("links")
            .arg(&file)
            .arg("--state")
            .arg(&state)
            .args(extra)
            .output()
            .unwrap()
    };
    let first = run(&["--stop-after", "7"]);
    assert_eq!(first.status.code(), Some(2), "{}", stderr(&first));
    // 7, and the one running beside the 7th (2 at once to the host).
    let asked = server.count();
    assert!((7..=8).contains(&asked), "{asked}");
    let said = format!("stopped after {asked} links");
    assert!(stderr(&first).contains(&said), "{}", stderr(&first));
    let second = run(&[]);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    let said = format!("20 links ({asked} from the state): 20 ok");
    assert!(stdout(&second).contains(&said), "{}", stdout(&second));
    // Each link asked once in all.
    assert_eq!(server.count(), 20, "{:?}", server.requests());
    let text = std::fs::read_to_string(&state).unwrap();
    assert_eq!(text.lines().count(), 21, "a header and a line per link");
    let mut journal = state.clone().into_os_string();
    journal.push(".journal");
    assert!(!Path::new(&journal).exists());
    let before = server.count();
    let third = run(&[]);
    assert_eq!(third.status.code(), Some(0));
    assert_eq!(
        server.count(),
        before,
        "nothing asked again within --recheck-after"
    );
    run(&["--recheck-after", "0s"]);
    assert_eq!(server.count(), before + 20);
}

#[test]
fn bad_usage_and_unreadable_input_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urls.txt");
    std::fs::write(&file, "place:sort=8\n").unwrap();
    let out = markport()
        .arg("links")
        .arg(&file)
        .arg("--remove-dead")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a write-back flag needs -o");
    let out = markport()
        .arg("links")
        .arg(dir.path().join("missing.html"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let broken = dir.path().join("broken.xbel");
    std::fs::write(&broken, "<xbel version=\"1.0\">\n<folder>").unwrap();
    let out = markport().arg("links").arg(&broken).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("broken.xbel:"), "{}", stderr(&out));
    let state = dir.path().join("bad.state");
    std::fs::write(&state, "{\"markport_links_state\":1}\n{\"url\": 3}\n").unwrap();
    let out = markport()
        .arg("links")
        .arg(&file)
        .arg("--state")
        .arg(&state)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.state:2:"), "{}", stderr(&out));
    let out = markport()
        .arg("links")
        .arg(&file)
        .args(["--recheck-after", "soon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_progress_bar_on_a_terminal_only_and_never_when_quiet() {
    let server = Server::start_with_delay("127.0.0.1", std::time::Duration::from_millis(150));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urls.txt");
    let list: String = (0..4)
        .map(|i| server.url(&format!("/ok{i}")) + "\n")
        .collect();
    std::fs::write(&file, list).unwrap();
    let on_a_terminal = |flags: &str| {
        let bin = assert_cmd::cargo::cargo_bin("markport");
        let line = format!(
            "{} {flags} links {} --per-host 1",
            bin.display(),
            file.display()
        );
        std::process::Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .output()
            .expect("script(1), from util-linux, makes a terminal for this test")
    };
    let shown = stdout(&on_a_terminal(""));
    assert!(shown.contains("checking"), "{shown}");
    assert!(shown.contains("4 links: 4 ok"), "{shown}");
    let quiet = stdout(&on_a_terminal("-q"));
    assert!(
        !quiet.contains("checking") && !quiet.contains("4 ok"),
        "{quiet}"
    );
}

#[test]
fn a_killed_run_goes_on_from_its_journal() {
    let server = Server::start_with_delay("127.0.0.1", std::time::Duration::from_millis(60));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urls.txt");
    let state = dir.path().join("links.state");
    let list: String = (0..20)
        .map(|i| server.url(&format!("/ok{i}")) + "\n")
        .collect();
    std::fs::write(&file, list).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .arg("links")
        .arg(&file)
        .arg("--state")
        .arg(&state)
        .args(["--per-host", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed (SIGKILL: no handler runs) once a few links are answered.
    let waited = std::time::Instant::now();
    while server.count() < 6 && waited.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let asked = server.count();
    assert!((6..20).contains(&asked), "{asked}");
    assert!(!state.exists(), "the killed run never wrote the file whole");
    let mut journal = state.clone().into_os_string();
    journal.push(".journal");
    let journal = std::fs::read_to_string(&journal).unwrap();
    let recorded: Vec<String> = journal
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|v| v["url"].as_str().unwrap().to_owned())
        .collect();
    let kept = recorded.len();
    assert!(kept + 1 >= asked, "{kept} of {asked} kept");
    let again = markport()
        .arg("links")
        .arg(&file)
        .arg("--state")
        .arg(&state)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    // Nothing the journal kept was asked again; the rest was, once (and
    // the request in flight at the kill may be logged late, once more).
    let later: Vec<String> = server.requests()[asked..]
        .iter()
        .map(|r| server.url(r.trim_start_matches("HEAD ")))
        .collect();
    assert!(
        later.iter().all(|u| !recorded.contains(u)),
        "asked again: {later:?}"
    );
    assert!(later.len() <= 20 - kept + 1, "{later:?}");
    assert!(stdout(&again).contains(&format!("20 links ({kept} from the state): 20 ok")));
}
