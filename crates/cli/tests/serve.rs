//! `markport serve` as a person or a program starts it: the address on
//! standard output, and a conversion through the API that equals
//! `markport convert`'s output and `--json` report on the same file.

#![cfg(feature = "serve")]

mod common;
mod serving;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use common::{corpus, markport};
use serving::{serve, serve_with, tool, Serving};

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

#[test]
fn the_page_converts_in_a_real_chromium_with_and_without_script() {
    if !tool("python3") || !tool("chromium") {
        return;
    }
    let s = serve(&[]);
    let url = s.url.clone();
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
        let said = serving::said(&out);
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

/// The report and the plain summary are the library's for both: the API's
/// `report` is `convert --json`'s with the same names (the upload's and
/// the download's), `for` and an empty `destination` list included, and
/// its `summary` lines are the lines `convert` says, but for the reader's
/// notes (in `report.diagnostics`) and the `-v` hint.
#[test]
fn the_api_says_the_command_lines_report_and_summary() {
    let s = serve(&[]);
    let dir = tempfile::tempdir().unwrap();
    for (name, fields) in [
        ("netscape/delicious.html", &[("for", "firefox")][..]),
        ("xbel/nested.xbel", &[("for", "chrome")][..]),
        // A format other than the destination's: its import rules do not
        // apply, and both say so by leaving `destination` out.
        (
            "xbel/nested.xbel",
            &[("for", "firefox"), ("to", "json")][..],
        ),
        (
            "netscape/delicious.html",
            &[("to", "xbel"), ("dedupe", "exact")][..],
        ),
    ] {
        let bytes = std::fs::read(corpus(name)).unwrap();
        // An upload's name whose output name differs from it.
        let stem = name.rsplit('/').next().unwrap().split('.').next().unwrap();
        let upload = format!("{stem}.in");
        std::fs::write(dir.path().join(&upload), &bytes).unwrap();
        let (status, body) = post(&s, "/api/convert", (&upload, &bytes), fields, true);
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        let api: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let filename = api["filename"].as_str().unwrap();
        let _ = std::fs::remove_file(dir.path().join(filename));
        let mut args: Vec<String> = vec!["convert".into(), upload.clone(), "-o".into()];
        args.push(filename.into());
        for (k, v) in fields {
            match *k {
                "dedupe" => args.push("--dedupe".into()),
                k => args.extend([format!("--{k}"), v.to_string()]),
            }
        }
        let json = markport()
            .current_dir(dir.path())
            .args(&args)
            .arg("--json")
            .output()
            .unwrap();
        assert!(json.status.success(), "{args:?}");
        let want: serde_json::Value = serde_json::from_slice(&json.stderr).unwrap();
        assert_eq!(
            api["report"], want,
            "{args:?}: the API's report is convert --json's"
        );
        assert_eq!(
            api["output"].as_str().unwrap().as_bytes(),
            &std::fs::read(dir.path().join(filename)).unwrap()[..],
            "{args:?}"
        );
        let text = markport()
            .current_dir(dir.path())
            .args(&args)
            .output()
            .unwrap();
        assert!(text.status.success(), "{args:?}");
        let said: String = String::from_utf8(text.stderr)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("markport: ") && !l.starts_with("  (-v lists"))
            .map(|l| format!("{l}\n"))
            .collect();
        let lines = api["summary"]["lines"].as_array().unwrap();
        let summary: String = lines
            .iter()
            .map(|l| {
                let indent = "  ".repeat(l["level"].as_u64().unwrap() as usize);
                format!("{indent}{}\n", l["text"].as_str().unwrap())
            })
            .collect();
        assert_eq!(summary, said, "{args:?}: the API's summary is convert's");
        assert_eq!(lines[0]["kind"], "written", "{summary}");
        if fields.contains(&("for", "firefox")) && !fields.iter().any(|(k, _)| *k == "to") {
            assert!(summary.contains("Firefox will "), "{summary}");
            assert!(
                lines.iter().any(|l| l["kind"] == "destination"),
                "{summary}"
            );
        }
    }
}

/// GET `path` with the token (or without); the status and body.
fn get(s: &Serving, path: &str, token: bool) -> (u16, Vec<u8>) {
    let auth = if token {
        format!("Authorization: Bearer {}\r\n", s.token)
    } else {
        String::new()
    };
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{auth}Connection: close\r\n\r\n",
        s.port
    );
    let mut c = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    c.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    c.read_to_end(&mut raw).unwrap();
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let status = String::from_utf8_lossy(&raw[9..12]).parse().unwrap();
    (status, raw[end + 4..].to_vec())
}

/// A home holding a Firefox profile (the corpus's places.sqlite) and a
/// Chromium one, as `markport profiles` finds them.
fn fake_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let ff = home.path().join(".mozilla/firefox/abc.default-release");
    std::fs::create_dir_all(&ff).unwrap();
    std::fs::copy(
        corpus("places/firefox-esr.sqlite"),
        ff.join("places.sqlite"),
    )
    .unwrap();
    std::fs::write(
        home.path().join(".mozilla/firefox/profiles.ini"),
        "[Profile0]\nName=default-release\nIsRelative=1\nPath=abc.default-release\nDefault=1\n",
    )
    .unwrap();
    let chromium = home.path().join(".config/chromium/Default");
    std::fs::create_dir_all(&chromium).unwrap();
    std::fs::copy(
        corpus("chromium/chrome-2024.Bookmarks"),
        chromium.join("Bookmarks"),
    )
    .unwrap();
    home
}

/// Every file under `dir` with its bytes, to tell that nothing was written.
fn snapshot(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.push((p, bytes));
            }
        }
    }
    out.sort();
    out
}

/// The page's profile picker: `/api/profiles` lists what `markport
/// profiles` finds under HOME (token-guarded like the rest), and a profile
/// named by its id converts as `markport convert` converts its file,
/// which is read and never written; an id not in the list is refused.
#[test]
fn a_browser_profile_is_listed_and_converted_by_its_id_and_never_written() {
    let home = fake_home();
    let s = serve_with(
        &[],
        &[
            ("HOME", home.path().as_os_str()),
            ("XDG_CONFIG_HOME", std::ffi::OsStr::new("")),
        ],
    );
    let before = snapshot(home.path());
    let (status, _) = get(&s, "/api/profiles", false);
    assert_eq!(status, 401, "the list needs the token");
    let (status, body) = get(&s, "/api/profiles", true);
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let profiles = list["profiles"].as_array().unwrap();
    let names: Vec<&str> = profiles
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["firefox default-release", "chromium Default"],
        "{list}"
    );
    assert!(
        !String::from_utf8_lossy(&body).contains(home.path().to_str().unwrap()),
        "the page is given ids, not paths: {list}"
    );
    let firefox = &profiles[0];
    assert_eq!(firefox["format"], "places");
    let path = home
        .path()
        .join(".mozilla/firefox/abc.default-release/places.sqlite");
    let cli = markport()
        .args(["convert", "--to", "xbel", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(cli.status.success());
    let id = firefox["id"].as_str().unwrap();
    let (status, body) = post_fields(&s, "/api/convert", &[("profile", id), ("to", "xbel")]);
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let api: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(api["output"].as_str().unwrap().as_bytes(), &cli.stdout[..]);
    assert_eq!(api["filename"], "firefox default-release.xbel");
    let mut want: serde_json::Value = serde_json::from_slice(&cli.stderr).unwrap();
    let mut got = api["report"].clone();
    assert_eq!(got["input"], "firefox default-release");
    for r in [&mut want, &mut got] {
        r["input"] = serde_json::Value::Null;
        r["output"] = serde_json::Value::Null;
    }
    assert_eq!(got, want);
    let bookmarks = firefox["bookmarks"].as_u64().unwrap();
    let (status, body) = post_fields(&s, "/api/info", &[("profile", id)]);
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let info: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(info["files"][0]["bookmarks"].as_u64(), Some(bookmarks));
    assert_eq!(info["files"][0]["format"], "places");
    let (status, body) = post_fields(
        &s,
        "/api/convert",
        &[("profile", "0123456789abcdef"), ("to", "xbel")],
    );
    assert_eq!(status, 400);
    assert!(String::from_utf8_lossy(&body).contains("/api/profiles"));
    assert_eq!(
        snapshot(home.path()),
        before,
        "nothing in the profiles was written"
    );
}

/// POST a multipart form of `fields` only (no file part).
fn post_fields(s: &Serving, path: &str, fields: &[(&str, &str)]) -> (u16, Vec<u8>) {
    let b = "markport-cli-test-boundary";
    let mut body = Vec::new();
    for (n, v) in fields {
        body.extend_from_slice(
            format!("--{b}\r\nContent-Disposition: form-data; name=\"{n}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{b}--\r\n").as_bytes());
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\nAccept: application/json\r\nContent-Type: multipart/form-data; boundary={b}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
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
    (status, raw[end + 4..].to_vec())
}

/// The profile picker is in the page as served, not filled by its
/// script: each profile found is an option named by its id (never its
/// path), and the plain form posting one (its file input left empty, as a
/// browser without JavaScript sends it) downloads what `markport convert`
/// makes of that profile's file. With no profile, the step stays hidden.
#[test]
fn the_page_is_served_with_the_profiles_so_the_plain_form_offers_them() {
    let home = fake_home();
    let s = serve_with(
        &[],
        &[
            ("HOME", home.path().as_os_str()),
            ("XDG_CONFIG_HOME", std::ffi::OsStr::new("")),
        ],
    );
    let (status, page) = get(&s, "/", true);
    assert_eq!(status, 200);
    let page = String::from_utf8(page).unwrap();
    let (_, body) = get(&s, "/api/profiles", true);
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let profiles = list["profiles"].as_array().unwrap();
    assert_eq!(profiles.len(), 2, "{list}");
    assert!(page.contains("<p id=\"profile-step\">"), "{page}");
    let options: Vec<&str> = page
        .lines()
        .filter(|l| l.starts_with("<option value=\"") && !l.contains("value=\"\""))
        .filter(|l| {
            profiles
                .iter()
                .any(|p| l.contains(p["id"].as_str().unwrap()))
        })
        .collect();
    assert_eq!(
        options,
        profiles
            .iter()
            .map(|p| {
                let default = if p["default"] == true {
                    " (default)"
                } else {
                    ""
                };
                format!(
                    "<option value=\"{}\">{}{default} — {} bookmarks</option>",
                    p["id"].as_str().unwrap(),
                    p["name"].as_str().unwrap(),
                    p["bookmarks"]
                )
            })
            .collect::<Vec<_>>(),
        "each profile once, by id, with the words the script used to give it"
    );
    assert!(
        !page.contains(home.path().to_str().unwrap()),
        "the page holds ids, not paths"
    );
    let firefox = profiles[0]["id"].as_str().unwrap();
    // What the plain form posts: every field, the file input empty.
    let (status, got) = post(
        &s,
        "/api/convert",
        ("", b""),
        &[
            ("profile", firefox),
            ("for", ""),
            ("to", "xbel"),
            ("dedupe", "off"),
            ("only_folder", ""),
        ],
        false,
    );
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&got));
    let want = markport()
        .args(["convert", "--to", "xbel"])
        .arg(
            home.path()
                .join(".mozilla/firefox/abc.default-release/places.sqlite"),
        )
        .output()
        .unwrap();
    assert!(want.status.success());
    assert_eq!(got, want.stdout, "the download is convert's output");
    drop(s);

    let empty = tempfile::tempdir().unwrap();
    let s = serve_with(
        &[],
        &[
            ("HOME", empty.path().as_os_str()),
            ("XDG_CONFIG_HOME", std::ffi::OsStr::new("")),
        ],
    );
    let (status, page) = get(&s, "/", true);
    assert_eq!(status, 200);
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains("<p id=\"profile-step\" hidden>"), "{page}");
    assert!(!page.contains("<!--PROFILES"), "{page}");
}

/// The page in a real Firefox (headless, the project's Marionette driver):
/// a person picks a file, a destination and a format, reads the summary
/// the library says (with what Firefox will not keep), and clicks the
/// download, which equals `markport convert`'s output; without
/// JavaScript the plain form converts and Firefox saves the answer. A few
/// seconds a run (one Firefox start each, no sleep: every wait polls).
#[test]
fn the_page_converts_in_a_real_firefox_with_and_without_script() {
    let firefox = ["firefox-esr", "firefox"].into_iter().find(|f| {
        Command::new(f)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if !tool("python3") {
        return;
    }
    let Some(firefox) = firefox else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but firefox-esr is missing; .ci/setup.d/browsers.sh installs it"
        );
        eprintln!("skipped: no firefox-esr or firefox (the page's Firefox test needs one)");
        return;
    };
    let s = serve(&[]);
    let url = s.url.clone();
    let input = corpus("netscape/delicious.html");
    let want = markport()
        .args(["convert", "--for", "firefox", "--to", "netscape"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(want.status.success());
    let driver = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/peers/serve_page_firefox.py");
    for script in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("python3");
        cmd.arg(&driver)
            .arg(&url)
            .arg(&input)
            .args(["--to", "netscape", "--for", "firefox", "--firefox", firefox])
            .arg("--downloads")
            .arg(dir.path());
        if !script {
            cmd.arg("--no-script");
        }
        let out = cmd.output().unwrap();
        let said = serving::said(&out);
        assert_eq!(said["ok"], true, "script {script}: {said}");
        let path = said["downloaded"].as_str().unwrap();
        assert!(path.ends_with("delicious.html"), "{path}");
        assert_eq!(
            std::fs::read(path).unwrap(),
            want.stdout,
            "script {script}: the page's download is convert's output"
        );
        if script {
            let summary = said["summary"].as_str().unwrap();
            assert!(
                summary.starts_with("wrote delicious.html: ")
                    && summary.contains("Firefox will drop"),
                "{summary}"
            );
            let result = said["result"].as_str().unwrap();
            assert!(result.contains("What Firefox will not keep:"), "{result}");
        }
    }
}

/// Without JavaScript, in a real Firefox, a browser profile is chosen in
/// the list the page was served with and the plain form's button converts
/// it: Firefox saves what `markport convert` makes of the profile's file.
/// One Firefox start.
#[test]
fn a_profile_is_chosen_and_converted_in_a_real_firefox_without_script() {
    let firefox = ["firefox-esr", "firefox"].into_iter().find(|f| {
        Command::new(f)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if !tool("python3") {
        return;
    }
    let Some(firefox) = firefox else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but firefox-esr is missing; .ci/setup.d/browsers.sh installs it"
        );
        eprintln!("skipped: no firefox-esr or firefox (the page's Firefox test needs one)");
        return;
    };
    let home = fake_home();
    let s = serve_with(
        &[],
        &[
            ("HOME", home.path().as_os_str()),
            ("XDG_CONFIG_HOME", std::ffi::OsStr::new("")),
        ],
    );
    let (_, body) = get(&s, "/api/profiles", true);
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let id = list["profiles"][0]["id"].as_str().unwrap().to_string();
    let want = markport()
        .args(["convert", "--to", "xbel"])
        .arg(
            home.path()
                .join(".mozilla/firefox/abc.default-release/places.sqlite"),
        )
        .output()
        .unwrap();
    assert!(want.status.success());
    let url = s.url.clone();
    let driver = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/peers/serve_page_firefox.py");
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("python3")
        .arg(&driver)
        .args([url.as_str(), "-", "--to", "xbel", "--profile", &id])
        .args(["--firefox", firefox, "--no-script", "--downloads"])
        .arg(dir.path())
        .output()
        .unwrap();
    let said = serving::said(&out);
    assert_eq!(said["ok"], true, "{said}");
    let path = said["downloaded"].as_str().unwrap();
    assert!(path.ends_with("firefox default-release.xbel"), "{path}");
    assert_eq!(std::fs::read(path).unwrap(), want.stdout);
}

/// `--open` hands the printed address, token included, to the desktop's
/// opener (here a fake `xdg-open` first on PATH that records its
/// argument), and the server answers all the same.
#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn open_hands_the_address_with_its_token_to_the_opener() {
    use std::os::unix::fs::PermissionsExt;
    let bin = tempfile::tempdir().unwrap();
    let record = bin.path().join("opened");
    let opener = bin.path().join("xdg-open");
    std::fs::write(
        &opener,
        format!(
            "#!/bin/sh\nprintf '%s' \"$1\" > '{}.part' && mv '{0}.part' '{0}'\n",
            record.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut path = std::ffi::OsString::from(bin.path());
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let s = serve_with(&["--open"], &[("PATH", &path)]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !record.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the opener was never run"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let opened = std::fs::read_to_string(&record).unwrap();
    assert_eq!(opened, format!("http://127.0.0.1:{}/{}/", s.port, s.token));
    assert_eq!(opened, s.url, "the address printed");
    let (status, _) = get(&s, "/api/version", true);
    assert_eq!(status, 200);
}
