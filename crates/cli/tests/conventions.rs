//! The conventions people expect of a converter's command line: quiet means
//! quiet, one form for every message, a loss gate that can pass, `--strict`,
//! manual pages, and help for the usual slips.

use std::path::{Path, PathBuf};

mod common;

use common::{corpus, markport};

/// A Netscape file whose one bookmark has a date the reader warns about.
fn warned(dir: &Path) -> PathBuf {
    let path = dir.join("warned.html");
    std::fs::write(
        &path,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n\
         <DT><A HREF=\"https://a.example/\" ADD_DATE=\"soon\">A</A>\n</DL>\n",
    )
    .unwrap();
    path
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn quiet_means_quiet_for_convert_merge_and_publish() {
    let dir = tempfile::tempdir().unwrap();
    let input = warned(dir.path());
    let chrome = corpus("netscape/chrome.html");
    // Each of these prints a report, counts or a warning without -q.
    let runs: Vec<Vec<std::ffi::OsString>> = vec![
        vec![
            "convert".into(),
            input.clone().into(),
            "-t".into(),
            "firefox".into(),
        ],
        vec![
            "merge".into(),
            input.clone().into(),
            chrome.clone().into(),
            "-o".into(),
            dir.path().join("m.xbel").into(),
        ],
        vec![
            "publish".into(),
            input.clone().into(),
            "-o".into(),
            dir.path().join("site").into(),
        ],
    ];
    for args in runs {
        let loud = markport().args(&args).output().unwrap();
        assert!(loud.status.success(), "{args:?}: {}", stderr(&loud));
        assert!(
            !loud.stderr.is_empty(),
            "{args:?} says something without -q"
        );
        let quiet = markport().arg("-q").args(&args).output().unwrap();
        assert!(quiet.status.success(), "{args:?}: {}", stderr(&quiet));
        assert_eq!(stderr(&quiet), "", "{args:?} -q");
    }
}

#[test]
fn quiet_still_says_why_nothing_was_written() {
    let out = markport()
        .args([
            "-q",
            "convert",
            "--fail-on-loss",
            "-t",
            "xbel",
            "--xbel-strict",
        ])
        .arg(corpus("netscape/chrome.html"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("nothing written: --fail-on-loss"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_warning_has_the_form_of_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = warned(dir.path());
    let name = input.display().to_string();
    let expected = format!(
        "markport: {name}:3:34: warning: ADD_DATE=\"soon\" is not a date; kept as written\n"
    );
    let convert = markport()
        .args(["convert", "-t", "xbel"])
        .arg(&input)
        .output()
        .unwrap();
    let merge = markport()
        .arg("merge")
        .arg(&input)
        .arg(corpus("netscape/chrome.html"))
        .args(["-t", "xbel"])
        .output()
        .unwrap();
    for out in [convert, merge] {
        assert!(out.status.success());
        assert!(stderr(&out).starts_with(&expected), "{}", stderr(&out));
    }
    let broken = markport()
        .args(["convert", "-f", "xbel", "-t", "json"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        stderr(&broken).starts_with(&format!("markport: {name}:")),
        "an error has the same form: {}",
        stderr(&broken)
    );
}

#[test]
fn allow_loss_lets_the_gate_pass_on_what_the_user_accepts_only() {
    let input = corpus("netscape/chrome.html");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("strict.xbel");
    let strict = |allowed: &str| {
        markport()
            .args([
                "convert",
                "-t",
                "xbel",
                "--xbel-strict",
                "--allow-loss",
                allowed,
            ])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap()
    };
    // --xbel-strict loses folder.modified, folder.role and bookmark.favicon here.
    let partly = strict("folder.modified,folder.role");
    assert_eq!(partly.status.code(), Some(1), "{}", stderr(&partly));
    assert!(
        stderr(&partly).contains("nothing written: --fail-on-loss (bookmark.favicon not allowed)"),
        "{}",
        stderr(&partly)
    );
    assert!(!out.exists());
    let all = strict("folder.modified,folder.role,bookmark.favicon");
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    assert!(out.exists());
    let unknown = strict("bookmark.colour");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("bookmark.guid"),
        "lists the names"
    );
}

#[test]
fn merge_allows_loss_too_and_offers_only_writers() {
    let dir = tempfile::tempdir().unwrap();
    let out = markport()
        .arg("merge")
        .arg(corpus("netscape/chrome.html"))
        .arg(corpus("netscape/firefox.html"))
        .args(["-t", "places"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("places is read only"),
        "{}",
        stderr(&out)
    );
    let gate = |allowed: &str| {
        markport()
            .arg("-v")
            .arg("merge")
            .arg(corpus("netscape/chrome.html"))
            .arg(corpus("xbel/nested.xbel"))
            .args(["-o"])
            .arg(dir.path().join("m.html"))
            .args(["--allow-loss", allowed])
            .output()
            .unwrap()
    };
    let refused = gate("bookmark.guid");
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    let report = stderr(&refused);
    let lost: Vec<&str> = report
        .lines()
        .filter_map(|l| l.strip_prefix("lost "))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert!(!lost.is_empty(), "{report}");
    let passed = gate(&lost.join(","));
    assert_eq!(passed.status.code(), Some(0), "{}", stderr(&passed));
}

#[test]
fn strict_lists_every_warning_then_fails() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("two.html");
    std::fs::write(
        &input,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n\
         <DT><A HREF=\"https://a.example/\" ADD_DATE=\"soon\">A</A>\n\
         <DT><A HREF=\"https://b.example/\" ADD_DATE=\"later\">B</A>\n</DL>\n",
    )
    .unwrap();
    let info = markport()
        .args(["info", "--strict"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(info.status.code(), Some(1));
    let text = String::from_utf8(info.stdout).unwrap();
    assert!(
        text.contains("\"soon\"") && text.contains("\"later\""),
        "{text}"
    );
    let lenient = markport().arg("info").arg(&input).output().unwrap();
    assert_eq!(lenient.status.code(), Some(0));
}

#[test]
fn check_fails_on_warnings_only_with_strict() {
    // Allowed XBEL that readers such as GLib refuse: a warning, no error.
    let file = corpus("check/xbel-missing-version.xbel");
    let plain = markport().arg("check").arg(&file).output().unwrap();
    let listed = String::from_utf8(plain.stdout.clone()).unwrap();
    assert!(
        !listed.is_empty() && listed.lines().all(|l| l.contains(": warning: ")),
        "only warnings: {listed}"
    );
    assert_eq!(plain.status.code(), Some(0), "{listed}");
    let strict = markport()
        .args(["check", "--strict"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(strict.stdout, plain.stdout);
}

#[test]
fn html_is_netscape_and_a_second_file_is_not_the_output() {
    let out = markport()
        .args(["convert", "-t", "html"])
        .arg(corpus("xbel/nested.xbel"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out
        .stdout
        .starts_with(b"<!DOCTYPE NETSCAPE-Bookmark-file-1>"));
    let dir = tempfile::tempdir().unwrap();
    let second = dir.path().join("out.xbel");
    let out = markport()
        .arg("convert")
        .arg(corpus("netscape/chrome.html"))
        .arg(&second)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("say `-o {}`", second.display())),
        "{}",
        stderr(&out)
    );
    assert!(!second.exists());
}

/// Run `markport ARGS` with a terminal as standard output (`script` makes one).
fn on_a_terminal(args: &str) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("markport");
    std::process::Command::new("script")
        .args(["-qec", &format!("{} {args}", bin.display()), "/dev/null"])
        .output()
        .expect("script(1), from util-linux, makes a terminal for this test")
}

#[test]
fn binary_output_is_refused_on_a_terminal_and_written_elsewhere() {
    let input = corpus("netscape/chrome.html");
    let out = on_a_terminal(&format!("convert {} -t firefox --jsonlz4", input.display()));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("refusing to write binary firefox output to the terminal"),
        "{said}"
    );
    assert!(
        !said.contains("mozLz40"),
        "no compressed bytes on the terminal"
    );
    let text = on_a_terminal(&format!("convert {} -t firefox", input.display()));
    assert!(String::from_utf8_lossy(&text.stdout).contains("\"guid\""));
    let piped = markport()
        .args(["convert", "-t", "firefox", "--jsonlz4"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert!(piped.stdout.starts_with(b"mozLz40\0"));
}

#[test]
fn a_manual_page_per_subcommand_with_every_option_and_examples() {
    let page = markport().args(["man", "convert"]).output().unwrap();
    assert!(page.status.success());
    let page = String::from_utf8(page.stdout).unwrap();
    assert!(page.contains(".TH markport-convert 1"), "{page}");
    let help = markport().args(["convert", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let options: Vec<&str> = help
        .split_whitespace()
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.split(['[', '=', ',', '.', '`', ')']).next().unwrap())
        .collect();
    assert!(options.len() > 20, "{options:?}");
    for option in options {
        assert!(
            page.contains(&option.replace('-', "\\-")),
            "{option} is missing from markport-convert(1)"
        );
    }
    for section in [".SH EXAMPLES", ".SH \"EXIT STATUS\"", ".SH \"SEE ALSO\""] {
        assert!(page.contains(section), "{section}");
    }
    let nested = markport().args(["man", "desktop", "add"]).output().unwrap();
    assert!(String::from_utf8_lossy(&nested.stdout).contains(".TH markport-desktop-add 1"));
    let none = markport().args(["man", "nosuch"]).output().unwrap();
    assert_eq!(none.status.code(), Some(2));

    let dir = tempfile::tempdir().unwrap();
    let out = markport()
        .args(["man", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let sub = markport().args(["--help"]).output().unwrap();
    let sub = String::from_utf8(sub.stdout).unwrap();
    let commands: Vec<&str> = sub
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.contains(&"convert") && commands.contains(&"man"));
    for c in commands {
        let page = dir.path().join(format!("markport-{c}.1"));
        let text = std::fs::read_to_string(&page).unwrap_or_else(|_| panic!("{page:?}"));
        assert!(text.contains(".SH EXAMPLES"), "{c}");
    }
    assert!(dir.path().join("markport.1").exists());
}

#[test]
fn progress_shows_on_a_terminal_only_and_never_when_quiet() {
    let inputs = ["chrome.html", "firefox.html", "delicious.html"]
        .map(|n| corpus(&format!("netscape/{n}")).display().to_string())
        .join(" ");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.xbel");
    let merge = |flags: &str| format!("{flags} merge {inputs} -t xbel -o {}", out.display());
    let shown = String::from_utf8_lossy(&on_a_terminal(&merge("")).stdout).into_owned();
    assert!(shown.contains("reading 3/3"), "{shown}");
    let quiet = on_a_terminal(&merge("-q"));
    assert!(
        quiet.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stdout)
    );
    let piped = markport()
        .args(merge("").split(' ').filter(|w| !w.is_empty()))
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert!(!stderr(&piped).contains("reading"), "{}", stderr(&piped));
}
