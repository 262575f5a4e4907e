//! `markport profiles` on a fake home holding Firefox (usual place and
//! snap) and Chromium-family profiles.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn markport(home: &Path) -> Command {
    let mut c = Command::cargo_bin("markport").unwrap();
    c.env("HOME", home).env_remove("XDG_CONFIG_HOME");
    c
}

fn places() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/places/firefox-esr.sqlite")
}

/// A minimal Chromium `Bookmarks` file with one bookmark.
const CHROMIUM: &str = r#"{"checksum":"0","roots":{"bookmark_bar":{"children":[{"date_added":"13300000000000000","id":"4","name":"Rust","type":"url","url":"https://www.rust-lang.org/"}],"date_added":"0","date_modified":"0","id":"1","name":"Bookmarks bar","type":"folder"},"other":{"children":[],"date_added":"0","date_modified":"0","id":"2","name":"Other bookmarks","type":"folder"},"synced":{"children":[],"date_added":"0","date_modified":"0","id":"3","name":"Mobile bookmarks","type":"folder"}},"version":1}"#;

fn fake_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let ff = h.join(".mozilla/firefox");
    for p in ["old.default", "new.default-release"] {
        std::fs::create_dir_all(ff.join(p)).unwrap();
        std::fs::copy(places(), ff.join(p).join("places.sqlite")).unwrap();
    }
    std::fs::write(
        ff.join("profiles.ini"),
        "[Profile0]\nName=default\nIsRelative=1\nPath=old.default\n\n\
         [Profile1]\nName=default-release\nIsRelative=1\nPath=new.default-release\n\n\
         [Install4F96D1932A9F858E]\nDefault=new.default-release\n",
    )
    .unwrap();
    let snap = h.join("snap/firefox/common/.mozilla/firefox");
    std::fs::create_dir_all(snap.join("s.default")).unwrap();
    std::fs::write(snap.join("s.default/places.sqlite"), b"not a database").unwrap();
    std::fs::write(
        snap.join("profiles.ini"),
        "[Profile0]\nName=snappy\nIsRelative=1\nPath=s.default\nDefault=1\n",
    )
    .unwrap();
    for dir in [
        ".config/chromium/Default",
        ".config/chromium/Profile 1",
        ".config/opera",
    ] {
        std::fs::create_dir_all(h.join(dir)).unwrap();
        std::fs::write(h.join(dir).join("Bookmarks"), CHROMIUM).unwrap();
    }
    home
}

#[test]
fn profiles_lists_every_browser_profile_with_its_file_and_count() {
    let home = fake_home();
    let out = markport(home.path())
        .args(["profiles", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let found: Value = serde_json::from_slice(&out).unwrap();
    let rows: Vec<(String, String, bool)> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let browser = match p["variant"].as_str() {
                Some(v) => format!("{} {v}", p["browser"].as_str().unwrap()),
                None => p["browser"].as_str().unwrap().to_string(),
            };
            (
                browser,
                p["profile"].as_str().unwrap().to_string(),
                p["default"].as_bool().unwrap(),
            )
        })
        .collect();
    let row = |b: &str, p: &str, d: bool| (b.to_string(), p.to_string(), d);
    assert_eq!(
        rows,
        [
            row("firefox", "default-release", true),
            row("firefox", "default", false),
            row("firefox snap", "snappy", true),
            row("chromium", "Default", true),
            row("chromium", "Profile 1", false),
            row("opera", "Default", true),
        ]
    );
    let list = found.as_array().unwrap();
    assert_eq!(list[0]["bookmarks"], 6, "{}", list[0]);
    assert_eq!(list[0]["format"], "places");
    assert!(list[2]["error"]
        .as_str()
        .unwrap()
        .contains("not an SQLite database"));
    // Chromium's files are counted once the chromium format is registered.
    if markport::format("chromium").is_some() {
        assert_eq!(list[3]["bookmarks"], 1, "{}", list[3]);
    } else {
        assert_eq!(list[3]["error"], "unknown format chromium");
    }
    markport(home.path())
        .arg("profiles")
        .assert()
        .success()
        .stdout(predicate::str::contains("default-release (default)"))
        .stdout(predicate::str::contains("6 bookmarks"))
        .stdout(predicate::str::contains("firefox (snap)"));
}

#[test]
fn path_prints_the_default_profile_s_file_for_convert() {
    let home = fake_home();
    let out = markport(home.path())
        .args(["profiles", "--path", "firefox"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let path = String::from_utf8(out).unwrap();
    let path = Path::new(path.trim_end_matches('\n'));
    assert!(
        path.ends_with("new.default-release/places.sqlite"),
        "{}",
        path.display()
    );
    let xbel = home.path().join("all.xbel");
    markport(home.path())
        .arg("convert")
        .arg(path)
        .arg("-o")
        .arg(&xbel)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&xbel)
        .unwrap()
        .contains("duckduckgo.com"));
    let chrome = markport(home.path())
        .args(["profiles", "--path", "chromium"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(chrome)
        .unwrap()
        .ends_with("chromium/Default/Bookmarks\n"));
}

#[test]
fn path_of_a_browser_not_found_fails_naming_what_was_found() {
    let home = fake_home();
    markport(home.path())
        .args(["profiles", "--path", "edge"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no edge profile with bookmarks found (found: firefox, chromium, opera)",
        ));
    let empty = tempfile::tempdir().unwrap();
    markport(empty.path())
        .arg("profiles")
        .assert()
        .success()
        .stdout("no browser profiles with bookmarks found\n");
}

/// A Firefox profile directory (`profiles.ini` and one profile) in `dir`.
fn firefox_in(dir: &Path, profile: &str) {
    std::fs::create_dir_all(dir.join(profile)).unwrap();
    std::fs::copy(places(), dir.join(profile).join("places.sqlite")).unwrap();
    std::fs::write(
        dir.join("profiles.ini"),
        format!("[Profile0]\nName={profile}\nIsRelative=1\nPath={profile}\nDefault=1\n"),
    )
    .unwrap();
}

/// The default profile's file of `browser`, as `--path` prints it.
fn path_of(c: &mut Command, browser: &str) -> String {
    let out = c
        .args(["profiles", "--path", browser])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn firefox_in_the_xdg_config_directory_is_found_and_xdg_config_home_is_honoured() {
    // Firefox 153 on a fresh install: ~/.config/mozilla/firefox.
    let home = tempfile::tempdir().unwrap();
    firefox_in(
        &home.path().join(".config/mozilla/firefox"),
        "x.default-release",
    );
    let path = path_of(&mut markport(home.path()), "firefox");
    assert!(
        path.ends_with(".config/mozilla/firefox/x.default-release/places.sqlite\n"),
        "{path}"
    );
    // $XDG_CONFIG_HOME moves it, and the Chromium family with it.
    let config = tempfile::tempdir().unwrap();
    firefox_in(&config.path().join("mozilla/firefox"), "moved.default");
    let chrome = config.path().join("google-chrome/Default");
    std::fs::create_dir_all(&chrome).unwrap();
    std::fs::write(chrome.join("Bookmarks"), CHROMIUM).unwrap();
    let xdg = || {
        let mut c = markport(home.path());
        c.env("XDG_CONFIG_HOME", config.path());
        c
    };
    let firefox = path_of(&mut xdg(), "firefox");
    assert_eq!(
        firefox,
        format!(
            "{}\n",
            config
                .path()
                .join("mozilla/firefox/moved.default/places.sqlite")
                .display()
        )
    );
    let chrome_path = path_of(&mut xdg(), "chrome");
    assert_eq!(
        chrome_path,
        format!("{}\n", chrome.join("Bookmarks").display())
    );
    // A relative $XDG_CONFIG_HOME is invalid (the XDG spec): ~/.config.
    let mut relative = markport(home.path());
    relative.env("XDG_CONFIG_HOME", "relative/config");
    assert!(path_of(&mut relative, "firefox").contains("x.default-release"));
}

#[test]
fn verbose_says_every_place_it_looked() {
    let home = fake_home();
    let h = home.path().display().to_string();
    let out = markport(home.path())
        .args(["profiles", "-v"])
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    let said = String::from_utf8(out).unwrap();
    for line in [
        format!("looked for firefox in {h}/.mozilla/firefox: 2 profiles"),
        format!("looked for firefox in {h}/.config/mozilla/firefox: not there"),
        format!("looked for firefox (snap) in {h}/snap/firefox/common/.mozilla/firefox: 1 profile"),
        format!("looked for firefox (flatpak) in {h}/.var/app/org.mozilla.firefox/.mozilla/firefox: not there"),
        format!("looked for google-chrome in {h}/.config/google-chrome: not there"),
        format!("looked for chromium in {h}/.config/chromium: 2 profiles"),
        format!("looked for opera in {h}/.config/opera: 1 profile"),
    ] {
        assert!(said.contains(&line), "{line:?} not in:\n{said}");
    }
    let empty = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(empty.path().join(".mozilla/firefox")).unwrap();
    markport(empty.path())
        .args(["profiles", "--verbose"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "looked for firefox in {}/.mozilla/firefox: no profiles",
            empty.path().display()
        )));
}
