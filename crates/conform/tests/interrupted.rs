//! A run that `markport::remove_temporaries` interrupts (what a signal
//! handler calls): the tool is ended with what it started, the private
//! directory goes, and the run gives an error, not a report that blames the
//! tool for being killed. Its own test binary: the removal closes the
//! private directories for the rest of the process.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::time::{Duration, Instant};

use markport_conform::{run, Config, Corpus};

/// The processes whose command line holds `marker`.
fn with_marker(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(marker) {
                found.push(cmdline);
            }
        }
    }
    found
}

#[test]
fn an_interrupted_run_ends_the_tool_and_returns_no_report() {
    let marker = format!("1000.{}7", std::process::id());
    let log = tempfile::NamedTempFile::new().unwrap();
    // The tool's child leaves its session; the tool itself waits.
    let command = format!(
        "dirname {{out}} > '{log}'; setsid sleep {marker} & sleep {marker}; cp {{in}} {{out}}",
        log = log.path().display()
    );
    let xbel = markport::format("xbel").unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/xbel");
    let config = Config::new(command, xbel, xbel, Corpus::Dir(corpus));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run(&config));
    });
    let started = Instant::now();
    while with_marker(&marker).len() < 2 {
        assert!(started.elapsed() < Duration::from_secs(30), "no tool ran");
        std::thread::sleep(Duration::from_millis(10));
    }
    let case_dir = std::fs::read_to_string(log.path()).unwrap();
    let case_dir = Path::new(case_dir.trim());
    assert!(case_dir.is_dir());

    markport::remove_temporaries();
    // Both sleeps are killed before it returns.
    assert_eq!(with_marker(&marker), Vec::<String>::new());
    assert!(!case_dir.exists() && !case_dir.parent().unwrap().exists());

    let result = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the run returns once interrupted");
    let err = result.expect_err("an interrupted run gives no report");
    assert_eq!(
        err.io_error().map(|e| e.kind()),
        Some(std::io::ErrorKind::Interrupted),
        "{err}"
    );
}
