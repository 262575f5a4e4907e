//! `markport conformance` with adapters written here: the identity scores
//! everything kept, a lossy one is caught on exactly what it drops, a
//! hanging one is killed and the run goes on, one that writes nothing fails
//! its file only, and modify-then-reload finds the added bookmark.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

use common::markport;

/// Run `conformance --json` and return (exit code, report).
fn conformance(cmd: &str, from: &str, to: &str, extra: &[&str]) -> (i32, Value) {
    let out = markport()
        .args([
            "conformance",
            "--json",
            "--cmd",
            cmd,
            "--from",
            from,
            "--to",
            to,
        ])
        .args(extra)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), report)
}

/// The checks that did not keep every value.
fn not_kept(report: &Value) -> BTreeSet<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["changed"].as_u64() != Some(0) || c["lost"].as_u64() != Some(0))
        .map(|c| c["check"].as_str().unwrap().to_owned())
        .collect()
}

fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("no check {name} in {report:#}"))
}

fn failures(report: &Value) -> Vec<(String, String)> {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !f["failure"].is_null())
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_owned(),
                f["failure"]["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_identity_adapter_keeps_everything_in_every_format() {
    for format in [
        "netscape", "xbel", "desktop", "chromium", "firefox", "xfolk", "json",
    ] {
        let (code, report) = conformance("cp {in} {out}", format, format, &[]);
        assert_eq!(code, 0, "{format}: {report:#}");
        assert_eq!(report["markport_tests"], 1);
        assert_eq!(report["mode"], "round-trip");
        assert_eq!(report["passed"], true);
        assert!(not_kept(&report).is_empty(), "{format}: {report:#}");
        assert!(failures(&report).is_empty());
        let files = report["files"].as_array().unwrap().len();
        assert!(files >= 1, "{format}: {files} files");
        assert!(check(&report, "bookmark")["kept"].as_u64().unwrap() > 0);
    }
}

#[test]
fn a_lossy_adapter_is_caught_on_exactly_the_fields_it_drops() {
    // Drops every description (<DD>) and every TAGS attribute.
    let drop = r#"perl -0pe 's/<DD>[^<]*//gi; s/ TAGS="[^"]*"//gi' {in} > {out}"#;
    let (code, report) = conformance(drop, "netscape", "netscape", &[]);
    // The DD after the H1 is the document's description.
    let expected: BTreeSet<String> = [
        "document.desc",
        "bookmark.desc",
        "bookmark.tags",
        "folder.desc",
    ]
    .map(String::from)
    .into();
    assert_eq!(not_kept(&report), expected, "{report:#}");
    for name in &expected {
        let c = check(&report, name);
        assert_eq!(c["kept"], 0, "{name}: {c:#}");
        assert_eq!(c["lost"], c["values"], "{name}: {c:#}");
        assert!(!c["lost_paths"].as_array().unwrap().is_empty());
    }
    assert_eq!(check(&report, "bookmark.tags")["level"], "should");
    // Descriptions and tags are `should`: the run still passes.
    assert_eq!(code, 0);
    assert_eq!(report["passed"], true);

    // Dropping every bookmark title is a `must`: exit 1.
    let untitled = r#"perl -0pe 's{(<A [^>]*>)[^<]*</A>}{$1</A>}gi' {in} > {out}"#;
    let (code, report) = conformance(untitled, "netscape", "netscape", &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["passed"], false);
    assert_eq!(
        not_kept(&report),
        BTreeSet::from(["bookmark.title".to_owned()]),
        "{report:#}"
    );
    assert_eq!(check(&report, "bookmark.title")["level"], "must");
}

#[test]
fn an_xbel_adapter_that_strips_desc_is_caught_on_desc_only() {
    let strip = r#"perl -0pe 's{<desc>.*?</desc>}{}gs' {in} > {out}"#;
    let (_, report) = conformance(strip, "xbel", "xbel", &[]);
    let lost = not_kept(&report);
    assert!(lost.contains("bookmark.desc"), "{report:#}");
    assert!(
        lost.iter().all(|c| c.ends_with(".desc")),
        "only descriptions: {lost:?}"
    );
}

#[test]
fn a_hanging_adapter_is_killed_at_the_timeout_and_the_run_goes_on() {
    let hang = "case {in} in *chrome.html) sleep 120 & sleep 120;; esac; cp {in} {out}";
    let started = Instant::now();
    let (code, report) = conformance(hang, "netscape", "netscape", &["--timeout", "1"]);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(code, 1);
    let failed = failures(&report);
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(failed[0].0.ends_with("chrome.html"));
    assert_eq!(failed[0].1, "timeout");
    let files = report["files"].as_array().unwrap();
    assert!(files.len() > 5);
    for f in files.iter().filter(|f| f["failure"].is_null()) {
        assert_eq!(f["must_kept"], true, "{f:#}");
    }
}

#[test]
fn an_adapter_that_writes_nothing_fails_that_file_only() {
    let nothing = "case {in} in *safari.html) exit 0;; *delicious.html) echo broken >&2; exit 3;; esac; cp {in} {out}";
    let (code, report) = conformance(nothing, "netscape", "netscape", &[]);
    assert_eq!(code, 1);
    let mut failed = failures(&report);
    failed.sort();
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert!(failed[0].0.ends_with("delicious.html") && failed[0].1 == "exit");
    assert!(failed[1].0.ends_with("safari.html") && failed[1].1 == "no-output");
    let delicious = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"].as_str().unwrap().ends_with("delicious.html"))
        .unwrap();
    assert_eq!(delicious["failure"]["status"], 3);
    assert_eq!(delicious["failure"]["stderr"], "broken");
    // The other files are scored, and kept.
    let ok = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["failure"].is_null() && f["must_kept"] == true)
        .count();
    assert!(ok >= 8, "{report:#}");
}

#[test]
fn out_is_fresh_inside_a_private_directory_removed_afterwards() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let cmd = format!(
        "test ! -e {{out}} || exit 9; d=$(dirname $(dirname {{out}})); \
         stat -c %a \"$d\" >> '{log}'; echo \"$d\" >> '{log}'; cp {{in}} {{out}}",
        log = log.display()
    );
    let (code, report) = conformance(&cmd, "xbel", "xbel", &[]);
    assert_eq!(code, 0, "{report:#}");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 4);
    for pair in lines.chunks(2) {
        assert_eq!(pair[0], "700");
        assert!(!Path::new(pair[1]).exists(), "{} left behind", pair[1]);
    }
}

#[cfg(unix)]
#[test]
fn a_signal_kills_the_tool_and_removes_the_private_directory() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let cmd = format!(
        "echo $$ > '{log}.pid'; dirname {{out}} > '{log}'; sleep 120; cp {{in}} {{out}}",
        log = log.display()
    );
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args([
            "conformance",
            "--cmd",
            &cmd,
            "--from",
            "xbel",
            "--to",
            "xbel",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !log.with_extension("pid").exists() || std::fs::read(&log).map_or(true, |b| b.is_empty())
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the tool never ran"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let case_dir = PathBuf::from(std::fs::read_to_string(&log).unwrap().trim());
    let tool: i32 = std::fs::read_to_string(log.with_extension("pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(case_dir.exists());
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
    assert!(!case_dir.exists(), "{} left behind", case_dir.display());
    assert!(!case_dir.parent().unwrap().exists());
    // The tool's shell is gone (killed with its group); a zombie waiting
    // for its new parent to reap it is gone too.
    let started = Instant::now();
    while running(tool) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the tool {tool} still runs"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether the process runs: it exists and is not a zombie.
#[cfg(unix)]
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) if Path::new("/proc/self/stat").exists() => false,
        // SAFETY: signal 0 only asks whether the process exists.
        Err(_) => (unsafe { libc::kill(pid, 0) }) == 0,
    }
}

#[test]
fn modify_then_reload_finds_the_added_bookmark_and_what_else_was_dropped() {
    // Adds the bookmark before </xbel>, escaped as XML wants.
    let add = r#"perl -e 'my ($in, $out, $url, $title) = @ARGV; local $/; open my $f, "<", $in or die; my $s = <$f>; for ($url, $title) { s/&/&amp;/g; s/</&lt;/g; s/"/&quot;/g } $s =~ s{</xbel>}{<bookmark href="$url"><title>$title</title></bookmark></xbel>}; DROP open my $o, ">", $out or die; print $o $s' {in} {out} {url} {title}"#;
    let (code, report) = conformance(&add.replace("DROP", ""), "xbel", "xbel", &[]);
    assert_eq!(report["mode"], "modify");
    assert_eq!(code, 0, "{report:#}");
    let added = check(&report, "added");
    assert_eq!(added["level"], "must");
    assert_eq!(added["values"], added["kept"]);
    assert!(not_kept(&report).is_empty(), "{report:#}");

    // The same, but it also drops every description.
    let lossy = add.replace("DROP", r"$s =~ s{<desc>.*?</desc>}{}gs;");
    let (_, report) = conformance(&lossy, "xbel", "xbel", &[]);
    let lost = not_kept(&report);
    assert!(lost.contains("bookmark.desc"), "{report:#}");
    assert!(lost.iter().all(|c| c.ends_with(".desc")), "{lost:?}");

    // A tool that does not add it fails the run.
    let (code, report) = conformance("cp {in} {out}; : {url} {title}", "xbel", "xbel", &[]);
    assert_eq!(code, 1);
    assert_eq!(not_kept(&report), BTreeSet::from(["added".to_owned()]));
}

#[test]
fn cross_conversion_with_markport_itself_keeps_everything() {
    let bin = assert_cmd::cargo::cargo_bin("markport");
    let cmd = format!(
        "'{}' -q convert {{in}} --from netscape --to xbel -o {{out}}",
        bin.display()
    );
    let (code, report) = conformance(&cmd, "netscape", "xbel", &[]);
    assert_eq!(report["mode"], "cross");
    assert_eq!(code, 0, "{report:#}");
    assert!(not_kept(&report).is_empty());
}

/// markport's own Netscape writer, read back by its reader, keeps every
/// value of the Netscape corpus in its exact form: titles written over two
/// lines in `ie-crlf.html` and the mistakes corpus keep their line breaks.
#[test]
fn a_netscape_round_trip_through_markport_keeps_every_title_exactly() {
    let bin = assert_cmd::cargo::cargo_bin("markport");
    let cmd = format!(
        "'{}' -q convert {{in}} --from netscape --to netscape -o {{out}}",
        bin.display()
    );
    let (code, report) = conformance(&cmd, "netscape", "netscape", &[]);
    assert_eq!(code, 0, "{report:#}");
    assert!(not_kept(&report).is_empty(), "{:?}", not_kept(&report));
    // The corpus holds titles with line breaks, so the exact-form row
    // compares some.
    let form = check(&report, "bookmark.title.form");
    assert!(form["values"].as_u64().unwrap() >= 60, "{form:#}");
    assert_eq!(form["kept"], form["values"], "{form:#}");
}

#[test]
fn a_large_case_is_generated_on_demand() {
    let empty = tempfile::tempdir().unwrap();
    let corpus_dir = empty.path().to_str().unwrap();
    let (code, report) = conformance(
        "cp {in} {out}",
        "netscape",
        "netscape",
        &["--corpus", corpus_dir, "--large", "3000"],
    );
    assert_eq!(code, 0, "{report:#}");
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["file"], "large-3000");
    assert_eq!(check(&report, "bookmark")["kept"], 3000);
    assert_eq!(check(&report, "bookmark.tags")["kept"], 1500);
}

#[test]
fn the_html_page_is_one_self_contained_table_with_the_failing_paths() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let drop = r#"perl -0pe 's/ TAGS="[^"]*"//gi' {in} > {out}"#;
    markport()
        .args([
            "conformance",
            "--cmd",
            drop,
            "--from",
            "netscape",
            "--to",
            "netscape",
        ])
        .arg("--html")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<table") && html.contains("<code>bookmark.tags</code>"));
    assert!(
        html.contains("class=\"none\""),
        "a check kept nowhere is marked"
    );
    assert!(html.contains("lost:<ul class=\"paths\">"));
    for outside in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(outside), "{outside}");
    }
}

#[test]
fn bad_usage_exits_2() {
    markport()
        .args([
            "conformance",
            "--cmd",
            "cp {in}",
            "--from",
            "xbel",
            "--to",
            "xbel",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("{out}"));
    markport()
        .args([
            "conformance",
            "--cmd",
            "cp {in} {out}",
            "--from",
            "xbel",
            "--to",
            "places",
        ])
        .assert()
        .code(2);
    for timeout in ["0", "-1", "1e300", "NaN"] {
        markport()
            .args(["conformance", "--cmd", "cp {in} {out}"])
            .args(["--from", "xbel", "--to", "xbel"])
            .arg(format!("--timeout={timeout}"))
            .assert()
            .code(2)
            .stderr(predicates::str::contains("--timeout"));
    }
    let empty = tempfile::tempdir().unwrap();
    markport()
        .args([
            "conformance",
            "--cmd",
            "cp {in} {out}",
            "--from",
            "xbel",
            "--to",
            "xbel",
        ])
        .arg("--corpus")
        .arg(empty.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("expected.json"));
}

/// What a bounded run of `markport` gave: its exit code, its standard
/// output and error, and its peak resident memory in KiB.
#[cfg(target_os = "linux")]
struct Bounded {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    max_rss_kib: i64,
}

/// Run `markport ARGS`, doing `meanwhile` with its pid while it runs; the
/// test fails (and the process is killed) after `bound` rather than hang.
#[cfg(target_os = "linux")]
// The child is reaped by wait4, which also gives its peak memory.
#[allow(clippy::zombie_processes)]
fn bounded(args: &[&str], bound: Duration, meanwhile: impl FnOnce(i32)) -> Bounded {
    use std::io::Read;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let read = |mut from: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = from.read_to_string(&mut s);
            s
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    meanwhile(pid);
    let started = Instant::now();
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    loop {
        // SAFETY: status and usage are valid; WNOHANG never blocks.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            break;
        }
        if started.elapsed() > bound {
            let _ = child.kill();
            panic!("markport {args:?} ran for more than {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let code = if libc::WIFEXITED(status) {
        Some(libc::WEXITSTATUS(status))
    } else {
        None
    };
    Bounded {
        code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        max_rss_kib: usage.ru_maxrss,
    }
}

/// A unique `sleep` argument for this test process and `n`, to find the
/// process by.
fn marker(n: u32) -> String {
    format!("1000.{}{n:02}", std::process::id())
}

/// The processes whose command line holds `marker`.
#[cfg(target_os = "linux")]
fn with_marker(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(marker) {
                found.push(format!(
                    "{}: {cmdline}",
                    entry.file_name().to_string_lossy()
                ));
            }
        }
    }
    found
}

/// A corpus of one xbel file, for runs where one file is enough.
fn one_file_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["nested.xbel", "nested.expected.json"] {
        std::fs::copy(
            common::corpus(&format!("xbel/{name}")),
            dir.path().join(name),
        )
        .unwrap();
    }
    dir
}

#[cfg(target_os = "linux")]
#[test]
fn a_child_escaped_with_setsid_is_killed_and_the_run_returns() {
    let corpus = one_file_corpus();
    let (left, hanging) = (marker(1), marker(2));
    // The issue's command: the tool exits at once, its child holds standard
    // error in a session of its own.
    let cmd = format!("setsid sleep {left} & cp {{in}} {{out}}");
    let done = bounded(
        &[
            "conformance",
            "--cmd",
            &cmd,
            "--from",
            "xbel",
            "--to",
            "xbel",
        ],
        Duration::from_secs(60),
        |_| (),
    );
    let corpus_arg = ["--corpus", corpus.path().to_str().unwrap()];
    assert_eq!(done.code, Some(0), "{}{}", done.stdout, done.stderr);
    assert!(done.stdout.contains("passed"), "{}", done.stdout);
    assert_eq!(with_marker(&left), Vec::<String>::new());
    // One that outlives the timeout, with such a child.
    let cmd = format!("setsid sleep {left} & sleep {hanging}; cp {{in}} {{out}}");
    let started = Instant::now();
    let done = bounded(
        &[
            &["conformance", "--json", "--cmd", &cmd][..],
            &["--from", "xbel", "--to", "xbel", "--timeout", "1"],
            &corpus_arg,
        ]
        .concat(),
        Duration::from_secs(60),
        |_| (),
    );
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(done.code, Some(1), "{}{}", done.stdout, done.stderr);
    let report: Value = serde_json::from_str(&done.stdout).unwrap();
    assert_eq!(failures(&report).len(), 1);
    assert_eq!(failures(&report)[0].1, "timeout");
    for m in [left, hanging] {
        assert_eq!(
            with_marker(&m),
            Vec::<String>::new(),
            "sleep {m} still runs"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_huge_output_fails_its_file_unread_in_modest_memory() {
    let corpus = one_file_corpus();
    let done = bounded(
        &[
            "conformance",
            "--json",
            "--cmd",
            "head -c 200M /dev/zero > {out}",
            "--from",
            "xbel",
            "--to",
            "xbel",
            "--corpus",
            corpus.path().to_str().unwrap(),
        ],
        Duration::from_secs(120),
        |_| (),
    );
    assert_eq!(done.code, Some(1), "{}{}", done.stdout, done.stderr);
    let report: Value = serde_json::from_str(&done.stdout).unwrap();
    let failure = &report["files"][0]["failure"];
    assert_eq!(failure["kind"], "too-large", "{report:#}");
    let message = failure["message"].as_str().unwrap();
    assert!(
        message.contains("209715200 bytes, over the limit of 67108864"),
        "{message}"
    );
    // Neither markport nor anything it waited for held the 200 MB.
    assert!(
        done.max_rss_kib < 100 * 1024,
        "peak {} KiB",
        done.max_rss_kib
    );

    // A FIFO at {out} is refused, not opened for ever.
    let done = bounded(
        &[
            "conformance",
            "--json",
            "--cmd",
            "mkfifo {out}",
            "--from",
            "xbel",
            "--to",
            "xbel",
            "--corpus",
            corpus.path().to_str().unwrap(),
        ],
        Duration::from_secs(60),
        |_| (),
    );
    assert_eq!(done.code, Some(1), "{}{}", done.stdout, done.stderr);
    let report: Value = serde_json::from_str(&done.stdout).unwrap();
    let failure = &report["files"][0]["failure"];
    assert_eq!(failure["kind"], "unreadable", "{report:#}");
    assert!(failure["message"]
        .as_str()
        .unwrap()
        .contains("not a regular file"));
}

#[cfg(target_os = "linux")]
#[test]
fn sigint_during_a_run_exits_130_with_no_report_and_nothing_left() {
    let dir = tempfile::tempdir().unwrap();
    for (n, delay_ms) in [(3, 0), (4, 50), (5, 300)] {
        let log = dir.path().join(format!("log{n}"));
        let sleeper = marker(n);
        let cmd = format!(
            "dirname {{out}} >> '{log}'; sleep {sleeper}; cp {{in}} {{out}}",
            log = log.display()
        );
        let done = bounded(
            &[
                "conformance",
                "--cmd",
                &cmd,
                "--from",
                "netscape",
                "--to",
                "netscape",
            ],
            Duration::from_secs(60),
            |pid| {
                let started = Instant::now();
                while std::fs::read(&log).map_or(true, |b| b.is_empty()) {
                    assert!(started.elapsed() < Duration::from_secs(30), "no tool ran");
                    std::thread::sleep(Duration::from_millis(5));
                }
                std::thread::sleep(Duration::from_millis(delay_ms));
                // SAFETY: signalling our own child.
                unsafe { libc::kill(pid, libc::SIGINT) };
            },
        );
        assert_eq!(done.code, Some(130), "{}{}", done.stdout, done.stderr);
        assert_eq!(done.stdout, "", "no report of an interrupted run");
        assert!(!done.stderr.contains("FAILED"), "{}", done.stderr);
        assert_eq!(with_marker(&sleeper), Vec::<String>::new());
        let case_dir = PathBuf::from(std::fs::read_to_string(&log).unwrap().trim());
        assert!(!case_dir.exists(), "{} left behind", case_dir.display());
        assert!(!case_dir.parent().unwrap().exists());
    }
}

#[test]
fn a_tool_s_standard_error_is_shown_escaped_and_cut_with_a_count() {
    let corpus = one_file_corpus();
    let cmd = r#"head -c 5000 /dev/zero | tr '\0' x >&2; printf '\n\033[2J\033]0;pwned\007 failed\n' >&2; exit 3; : {out}"#;
    let out = markport()
        .args([
            "conformance",
            "--cmd",
            cmd,
            "--from",
            "xbel",
            "--to",
            "xbel",
        ])
        .arg("--corpus")
        .arg(corpus.path())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "raw escapes: {text:?}"
    );
    assert!(
        text.contains(r"    | \u{1b}[2J\u{1b}]0;pwned\u{7} failed"),
        "{text}"
    );
    // 2000 bytes are kept of 5023: what came before is counted.
    assert!(
        text.contains("    | ... (3023 earlier bytes not shown)"),
        "{text}"
    );
    // The JSON report keeps the bytes as written, and the count.
    let (_, report) = conformance(
        cmd,
        "xbel",
        "xbel",
        &["--corpus", corpus.path().to_str().unwrap()],
    );
    let failure = &report["files"][0]["failure"];
    assert!(failure["stderr"]
        .as_str()
        .unwrap()
        .ends_with("\u{1b}[2J\u{1b}]0;pwned\u{7} failed"));
    assert_eq!(failure["stderr_cut"], 3023);
}
