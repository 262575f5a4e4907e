//! `markport serve` started as a person or a program starts it, for the
//! tests that talk to it: the printed address read from its standard
//! output, and the process killed and waited for when the test ends,
//! however it ends.
// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The server, ended (by its own id) and waited for when dropped.
pub struct Serving {
    pub child: Child,
    pub port: u16,
    pub token: String,
    /// The address printed: `http://127.0.0.1:PORT/TOKEN/`.
    pub url: String,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Serving {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A field of the server's /proc/PID/status, in kB (`VmHWM`, `VmRSS`).
    pub fn status_kb(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in {status}"))
    }

    /// How many descriptors the server has open.
    pub fn descriptors(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.pid()))
            .unwrap()
            .count()
    }
}

/// `markport serve ARGS`.
pub fn serve(args: &[&str]) -> Serving {
    serve_with(args, &[])
}

/// `markport serve ARGS` with `env` set (a fake `HOME`, a fake opener).
pub fn serve_with(args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Serving {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .arg("serve")
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().to_string();
    let parsed = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.split_once('/'))
        .and_then(|(port, token)| Some((port.parse().ok()?, token.strip_suffix('/')?)));
    let Some((port, token)) = parsed else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("not the address of a page under its token: {url:?}");
    };
    let token = token.to_string();
    let serving = Serving {
        child,
        port,
        token,
        url,
    };
    assert_eq!(serving.token.len(), 32, "128 bits: {}", serving.url);
    serving
}

/// Whether `name` runs; when not, the test skips saying why, except under
/// CI=true, where `.ci/setup.d` installs it and its absence fails.
pub fn tool(name: &str) -> bool {
    let runs = Command::new(name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !runs {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but {name} is missing; .ci/setup.d installs it"
        );
        eprintln!("skipped: {name} is missing (a real-browser test of serve needs it)");
    }
    runs
}

/// What a driver of tests/peers printed (one JSON object), or a panic
/// showing all it said.
pub fn said(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}
