//! Running a real Firefox through the project's own driver,
//! `tests/peers/firefox_bookmarks.py` (shared by the Firefox live tests).

#![allow(dead_code)] // each live test uses its part

use std::path::{Path, PathBuf};
use std::process::Command;

use markport_tests::{peer_driver, tool};

/// Whether Firefox and Python can run here; when not, the test skips with
/// the reason printed (never under `CI=true`, where that panics).
pub fn available(why: &str) -> bool {
    tool("python3", "the Firefox driver is a Python script") && tool("firefox-esr", why)
}

/// The driver, run with `args`; its answer (a JSON object). Panics with
/// Firefox's message when the driver fails.
pub fn drive(args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let out = Command::new("python3")
        .arg(peer_driver("firefox_bookmarks.py"))
        .args(args)
        .output()
        .expect("python3 runs");
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "the Firefox driver printed no JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(out.status.success(), "the Firefox driver: {answer}");
    answer
}

/// One file for Firefox to take in (restore a JSON backup, or import HTML)
/// and the files it then writes.
#[derive(Default)]
pub struct Job {
    /// The file Firefox takes in.
    pub input: PathBuf,
    /// Bookmarks HTML (imported) rather than a JSON backup (restored).
    pub html: bool,
    /// Where Firefox writes its JSON backup.
    pub json: Option<PathBuf>,
    /// Where Firefox writes its compressed backup.
    pub jsonlz4: Option<PathBuf>,
}

/// Firefox takes in each job in turn (one Firefox for all); for each,
/// whether Firefox took it (`Err` with its message when not).
pub fn run_jobs(dir: &Path, jobs: &[Job]) -> Vec<Result<(), String>> {
    let list: Vec<serde_json::Value> = jobs
        .iter()
        .map(|j| {
            serde_json::json!({
                "input": j.input, "html": j.html, "json": j.json, "jsonlz4": j.jsonlz4,
            })
        })
        .collect();
    let file = dir.join("jobs.json");
    std::fs::write(&file, serde_json::to_vec(&list).unwrap()).unwrap();
    let answer = drive(&["--jobs".as_ref(), file.as_os_str()]);
    let results = answer["results"].as_array().expect("one result per job");
    assert_eq!(results.len(), jobs.len(), "{answer}");
    results
        .iter()
        .map(|r| match r["ok"].as_bool() {
            Some(true) => Ok(()),
            _ => Err(r["error"].to_string()),
        })
        .collect()
}
