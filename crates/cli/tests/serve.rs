//! `markport serve` as a person or a program starts it: the address on
//! standard output, and a conversion through the API that equals
//! `markport convert`'s output and `--json` report on the same file.

#![cfg(feature = "serve")]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use common::{corpus, markport};

/// The server, ended (by its own id) when the test ends.
struct Serving {
    child: Child,
    port: u16,
    token: String,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Serving {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .arg("serve")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim();
    let rest = url
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("{url}"));
    let (port, token) = rest.split_once("/?token=").unwrap();
    assert_eq!(token.len(), 32, "128 bits: {url}");
    Serving {
        port: port.parse().unwrap(),
        token: token.to_string(),
        child,
    }
}

/// POST a multipart form of `file` and `fields`; the status and body.
fn post(
    s: &Serving,
    path: &str,
    file: (&str, &[u8]),
    fields: &[(&str, &str)],
    json: bool,
) -> (u16, Vec<u8>) {
    let b = "markport-cli-test-boundary";
    let mut body = Vec::new();
    for (n, v) in fields {
        body.extend_from_slice(
            format!("--{b}\r\nContent-Disposition: form-data; name=\"{n}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{}\"\r\n\r\n",
            file.0
        )
        .as_bytes(),
    );
    body.extend_from_slice(file.1);
    body.extend_from_slice(format!("\r\n--{b}--\r\n").as_bytes());
    let accept = if json {
        "Accept: application/json\r\n"
    } else {
        ""
    };
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\n{accept}Content-Type: multipart/form-data; boundary={b}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        s.port,
        s.token,
        body.len()
    );
    let mut c = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    c.write_all(head.as_bytes()).unwrap();
    c.write_all(&body).unwrap();
    let mut raw = Vec::new();
    c.read_to_end(&mut raw).unwrap();
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let status = String::from_utf8_lossy(&raw[9..12]).parse().unwrap();
    let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
    assert!(!head.contains("transfer-encoding: chunked"), "{head}");
    (status, raw[end + 4..].to_vec())
}

#[test]
fn a_conversion_through_the_api_is_the_command_lines() {
    let s = serve(&[]);
    for (name, to) in [
        ("netscape/delicious.html", "xbel"),
        ("xbel/nested.xbel", "netscape"),
        ("firefox/firefox-restore-changes.json", "chromium"),
    ] {
        let path = corpus(name);
        let bytes = std::fs::read(&path).unwrap();
        let cli = markport()
            .args(["convert", "--to", to, "--json"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(cli.status.success());
        let (status, body) = post(&s, "/api/convert", (name, &bytes), &[("to", to)], true);
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        let api: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            api["output"].as_str().unwrap().as_bytes(),
            &cli.stdout[..],
            "{name}"
        );
        let mut want: serde_json::Value = serde_json::from_slice(&cli.stderr).unwrap();
        let mut got = api["report"].clone();
        // Only the names differ: a path and <stdout> there, the upload's
        // name and the download's here.
        for r in [&mut want, &mut got] {
            r["input"] = serde_json::Value::Null;
            r["output"] = serde_json::Value::Null;
        }
        assert_eq!(got, want, "{name}: the API's report is convert --json's");
        // Without asking for JSON: the file itself.
        let (status, file) = post(&s, "/api/convert", (name, &bytes), &[("to", to)], false);
        assert_eq!(status, 200);
        assert_eq!(file, cli.stdout);
    }
}

#[test]
fn the_port_asked_for_is_the_port_listened_on_and_a_taken_one_is_said() {
    let first = serve(&[]);
    let port = first.port.to_string();
    let taken = markport()
        .args(["serve", "--port", &port])
        .output()
        .unwrap();
    assert_eq!(taken.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&taken.stderr).contains(&format!("cannot listen on port {port}")),
        "{}",
        String::from_utf8_lossy(&taken.stderr)
    );
    let bad = markport()
        .args(["serve", "--max-size", "lots"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// Whether `name` runs; when not, the test skips saying why, except under
/// CI=true, where `.ci/setup.d` installs it and its absence fails.
fn tool(name: &str) -> bool {
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
        eprintln!("skipped: {name} is missing (the page's real-browser test needs it)");
    }
    runs
}

#[test]
fn the_page_converts_in_a_real_chromium_with_and_without_script() {
    if !tool("python3") || !tool("chromium") {
        return;
    }
    let s = serve(&[]);
    let url = format!("http://127.0.0.1:{}/?token={}", s.port, s.token);
    let input = corpus("netscape/chrome.html");
    let want = markport()
        .args(["convert", "--to", "xbel"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(want.status.success());
    let driver =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/serve_page.py");
    for script in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("python3");
        cmd.arg(&driver)
            .arg(&url)
            .arg(&input)
            .args(["--to", "xbel", "--downloads"])
            .arg(dir.path());
        if !script {
            cmd.arg("--no-script");
        }
        let out = cmd.output().unwrap();
        let said: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        assert_eq!(said["ok"], true, "script {script}: {said}");
        let downloaded = std::fs::read(said["downloaded"].as_str().unwrap()).unwrap();
        assert_eq!(
            downloaded, want.stdout,
            "script {script}: the page's download is convert's output"
        );
        assert!(said["downloaded"]
            .as_str()
            .unwrap()
            .ends_with("chrome.xbel"));
        if script {
            let read = said["read"].as_str().unwrap();
            assert!(
                read.contains("chrome.html") && read.contains("4 bookmarks"),
                "{read}"
            );
            assert!(read.contains("Bookmarks bar"), "the folder tree: {read}");
            let result = said["result"].as_str().unwrap();
            assert!(result.contains("netscape → xbel"), "{result}");
        }
    }
}
