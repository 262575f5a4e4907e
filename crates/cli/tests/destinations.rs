//! `--for DESTINATION` on the command line: the destination chooses the
//! file (whatever the extension), names the role folders as it shows them,
//! says how to import the file, and the summary says in plain words what
//! its import will not keep; the field-level lines come with `-v`.

use std::fmt::Write as _;

use predicates::prelude::*;
use serde_json::Value;

mod common;

use common::{corpus, markport};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The line of `text` that starts with `prefix`.
fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting {prefix:?} in:\n{text}"))
}

#[test]
fn for_firefox_writes_its_html_whatever_the_extension_and_says_how_to_import_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("for-firefox.json");
    let run = markport()
        .args(["convert", "--for", "firefox", "-o"])
        .arg(&out)
        .arg(corpus("safari/bookmarks.plist"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let err = stderr(&run);
    assert_eq!(
        line(&err, "wrote "),
        format!(
            "wrote {}: 5 bookmarks in 5 folders, for Firefox's Import",
            out.display()
        )
    );
    assert!(
        err.contains("  In Firefox: Bookmarks > Manage bookmarks > Import and Backup > Import Bookmarks from HTML"),
        "{err}"
    );
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE NETSCAPE-Bookmark-file-1>"),
        "{html}"
    );
    // Safari's role folders as Firefox shows them.
    for shown in [
        ">Bookmarks Toolbar</H3>",
        ">Bookmarks Menu</H3>",
        ">Reading List</H3>",
    ] {
        assert!(html.contains(shown), "{shown} in {html}");
    }
    for raw in ["BookmarksBar", "BookmarksMenu", ">com.apple.ReadingList<"] {
        assert!(!html.contains(raw), "{raw} in {html}");
    }
}

#[test]
fn each_browser_shows_its_own_names_and_xbel_keeps_the_titles_as_read() {
    let dir = tempfile::tempdir().unwrap();
    for (dest, bar) in [
        ("safari", "Favorites"),
        ("edge", "Favorites bar"),
        ("chrome", "Bookmarks bar"),
    ] {
        let out = dir.path().join(format!("{dest}.html"));
        markport()
            .args(["convert", "--for", dest, "-o"])
            .arg(&out)
            .arg(corpus("safari/bookmarks.plist"))
            .assert()
            .success();
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(html.contains(&format!(">{bar}</H3>")), "{dest}: {html}");
    }
    let out = dir.path().join("kept.xbel");
    markport()
        .args(["convert", "--for", "firefox", "--to", "xbel", "-o"])
        .arg(&out)
        .arg(corpus("safari/bookmarks.plist"))
        .assert()
        .success()
        .stderr(predicate::str::contains(", for Firefox (xbel as asked)"));
    let xbel = std::fs::read_to_string(&out).unwrap();
    assert!(xbel.contains("<title>BookmarksBar</title>"), "{xbel}");
    assert!(
        xbel.contains("<title>com.apple.ReadingList</title>"),
        "{xbel}"
    );
}

#[test]
fn the_summary_says_in_plain_words_what_firefox_will_drop_and_v_lists_the_fields() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.html");
    // Two bookmarks with descriptions, one untitled folder's worth of tags.
    let input = dir.path().join("in.html");
    std::fs::write(
        &input,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n\
         <DT><A HREF=\"https://a.example/\" TAGS=\"z,a\">A</A>\n<DD>first note\n\
         <DT><A HREF=\"https://b.example/\">B</A>\n<DD>second note\n</DL>\n",
    )
    .unwrap();
    let run = markport()
        .args(["convert", "--for", "firefox", "-o"])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    assert!(run.status.success());
    let err = stderr(&run);
    let will = line(&err, "Firefox will ");
    assert!(
        will.contains("drop the description of 2 bookmarks"),
        "{will}"
    );
    assert!(
        will.contains("change") && will.contains("the tags of 1 bookmark"),
        "{will}"
    );
    assert!(err.contains("netscape -> netscape: nothing lost"), "{err}");
    assert!(
        !err.contains("at the destination:"),
        "field lines only with -v: {err}"
    );
    let verbose = markport()
        .args(["-v", "convert", "--for", "firefox", "-o"])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr(&verbose);
    assert!(
        err.contains("at the destination: bookmark.desc on 2 nodes: Firefox's HTML import drops descriptions (DD) (A, B)"),
        "{err}"
    );
    assert!(
        err.contains("at the destination: bookmark.tags on 1 node: Firefox sorts tags (A)"),
        "{err}"
    );
}

#[test]
fn a_first_line_counts_with_thousands_separators() {
    let dir = tempfile::tempdir().unwrap();
    let mut html = String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n");
    for i in 0..2419 {
        writeln!(html, "<DT><A HREF=\"https://example.org/{i}\">{i}</A>").unwrap();
    }
    html.push_str("</DL>\n");
    let input = dir.path().join("many.html");
    std::fs::write(&input, html).unwrap();
    let out = dir.path().join("for-firefox.html");
    let run = markport()
        .args(["convert", "--for", "firefox", "-o"])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(
        line(&err, "wrote "),
        format!(
            "wrote {}: 2,419 bookmarks in 0 folders, for Firefox's Import",
            out.display()
        )
    );
}

#[test]
fn an_unknown_destination_is_refused_with_the_names() {
    markport()
        .args(["convert", "--for", "netscape-navigator"])
        .arg(corpus("xbel/nested.xbel"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("netscape-navigator"))
        .stderr(predicate::str::contains("firefox"))
        .stderr(predicate::str::contains("linkding"))
        .stderr(predicate::str::contains("buku"));
}

#[test]
fn dry_run_prints_the_same_summary_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("for-chrome.html");
    markport()
        .args(["convert", "--dry-run", "--for", "chrome", "-o"])
        .arg(&out)
        .arg(corpus("netscape/firefox.html"))
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "would write {}: 6 bookmarks in 2 folders, for Chrome's Import",
            out.display()
        )))
        .stderr(predicate::str::contains("Chrome will drop"));
    assert!(!out.exists());
}

#[test]
fn the_json_report_names_the_destination_and_its_list() {
    let run = markport()
        .args(["convert", "--json", "--for", "firefox"])
        .arg(corpus("netscape/firefox.html"))
        .output()
        .unwrap();
    assert!(run.status.success());
    let report: Value = serde_json::from_slice(&run.stderr).unwrap();
    assert_eq!(report["for"], "firefox");
    assert_eq!(report["to"], "netscape");
    let list = report["destination"]
        .as_array()
        .expect("a destination list");
    assert!(
        list.iter().any(|e| e["field"] == "bookmark.post-data"),
        "{list:?}"
    );
}

#[test]
fn for_gnome_writes_glibs_layout_and_a_bare_xbel_says_its_choice() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cleaned.xbel");
    markport()
        .args(["convert", "--for", "gnome", "-o"])
        .arg(&out)
        .arg(corpus("desktop/recently-used.xbel"))
        .assert()
        .success()
        .stderr(predicate::str::contains(", for GTK's recent files"));
    let xml = std::fs::read_to_string(&out).unwrap();
    assert!(xml.contains("bookmark:applications"), "{xml}");
    let plain = dir.path().join("plain.xbel");
    markport()
        .args(["convert", "-o"])
        .arg(&plain)
        .arg(corpus("desktop/recently-used.xbel"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            ", as xbel (plain XBEL; --to desktop for GTK's recently-used.xbel, or --for DESTINATION)",
        ));
    let json = dir.path().join("for-firefox.json");
    markport()
        .args(["convert", "-o"])
        .arg(&json)
        .arg(corpus("netscape/firefox.html"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            ", as json (markport's own model; --to firefox for a Firefox backup",
        ));
}

#[test]
fn merge_takes_for_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("merged.html");
    let run = markport()
        .args(["merge", "--for", "linkding", "-o"])
        .arg(&out)
        .arg(corpus("netscape/firefox.html"))
        .arg(corpus("safari/bookmarks.plist"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let err = stderr(&run);
    // As convert: what the readers noted (the Safari file's History proxy)
    // comes first, and what was written is said after it, where a person's
    // terminal ends.
    let (noted, said) = (err.find("History"), err.find("wrote "));
    assert!(noted.is_some() && said.is_some() && noted < said, "{err}");
    assert!(
        line(&err, "wrote ").ends_with(", for linkding's Import"),
        "{err}"
    );
    assert!(
        err.contains("  In linkding: Settings > General > Import"),
        "{err}"
    );
    // linkding keeps no folders: every bookmark in one is said.
    assert!(
        line(&err, "linkding will ").contains("the place of"),
        "{err}"
    );
}

/// `roundtrip --for` goes out through the file the destination imports
/// (no --via needed), and says what that import will not keep of it: the
/// same list `convert --for` gives, in JSON and in words; the renaming of
/// the role folders is a requested change, not a difference.
#[test]
fn roundtrip_for_goes_through_the_destinations_file_and_says_what_it_will_not_keep() {
    let input = corpus("safari/bookmarks.plist");
    let convert = markport()
        .args(["convert", "--json", "--for", "firefox", "-o", "-"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(convert.status.success(), "{}", stderr(&convert));
    let converted: Value = serde_json::from_slice(&convert.stderr).unwrap();
    for via in [&[][..], &["--via", "netscape"][..]] {
        let run = markport()
            .args(["roundtrip", "--json", "--for", "firefox"])
            .args(via)
            .arg(&input)
            .output()
            .unwrap();
        assert!(run.status.success(), "{via:?}: {}", stderr(&run));
        let trip: Value = serde_json::from_slice(&run.stdout).unwrap();
        assert_eq!(trip["via"], "netscape");
        assert_eq!(trip["for"], "firefox");
        assert_eq!(trip["report_is_true"], true);
        assert_eq!(
            trip["destination"], converted["destination"],
            "{via:?}: the trip's list is convert's"
        );
        assert!(
            trip["destination"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["field"] == "bookmark.desc"),
            "{trip}"
        );
    }
    let run = markport()
        .args(["roundtrip", "--for", "firefox"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with(": safari -> netscape -> safari, for Firefox's Import"),
        "{text}"
    );
    assert!(
        line(&text, "Firefox will ").contains("the description of 1 bookmark"),
        "{text}"
    );
    assert!(
        text.contains("at the destination: bookmark.desc on 1 node: Firefox's HTML import drops descriptions (DD)"),
        "{text}"
    );
    assert!(
        text.contains("named as Firefox shows it (--for firefox): folder.title on 3 nodes"),
        "{text}"
    );
    // Without --for, nothing is said of a destination.
    let plain = markport()
        .args(["roundtrip", "--json", "--via", "netscape"])
        .arg(&input)
        .output()
        .unwrap();
    let plain: Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(
        plain.get("for").is_none() && plain.get("destination").is_none(),
        "{plain}"
    );
}

/// What the destination will not keep counts for the gate, as in convert:
/// the writer's own losses allowed, the trip passes without --for and is
/// refused with it.
#[test]
fn roundtrip_for_counts_the_destination_for_fail_on_loss() {
    let input = corpus("netscape/firefox.html");
    let writer = markport()
        .args(["roundtrip", "--json", "--via", "netscape"])
        .arg(&input)
        .output()
        .unwrap();
    let writer: Value = serde_json::from_slice(&writer.stdout).unwrap();
    let mut allowed: Vec<String> = writer["reported"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_string())
        .collect();
    allowed.push("bookmark".into());
    let allowed = allowed.join(",");
    markport()
        .args(["roundtrip", "--via", "netscape", "--allow-loss", &allowed])
        .arg(&input)
        .assert()
        .code(0);
    markport()
        .args(["roundtrip", "--for", "firefox", "--allow-loss", &allowed])
        .arg(&input)
        .assert()
        .code(1);
}

/// A --for a command has nothing to say about is refused, never taken and
/// ignored: a published site is pages to open, not a file a program
/// imports; a trip through a format the destination does not import would
/// not meet its rules. Nothing is written.
#[test]
fn for_is_refused_where_it_could_mean_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    markport()
        .args(["publish", "--for", "firefox", "-o"])
        .arg(&site)
        .arg(corpus("netscape/firefox.html"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--for firefox: a published site is pages to open in any browser, not a file Firefox imports",
        ))
        .stderr(predicate::str::contains("markport convert --for firefox"));
    assert!(!site.exists());
    markport()
        .args(["roundtrip", "--for", "chrome", "--via", "xbel"])
        .arg(corpus("netscape/firefox.html"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "--for chrome: Chrome's Import takes netscape, so a trip for it goes through netscape, not xbel; leave --via out or say --via netscape",
        ));
    markport()
        .args(["roundtrip"])
        .arg(corpus("netscape/firefox.html"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--via"));
}

#[test]
fn for_chrome_a_title_on_two_lines_is_written_on_one_and_said_for_firefox_it_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("lines.html");
    std::fs::write(
        &src,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Two&#10;lines</H3>\n<DL><p>\n\
         <DT><A HREF=\"https://example.org/\">first&#13;&#10;second</A>\n</DL><p>\n</DL><p>\n",
    )
    .unwrap();
    let to = |dest: &str| {
        let out = dir.path().join(format!("{dest}.html"));
        let run = markport()
            .args(["convert", "--json", "--for", dest, "-o"])
            .arg(&out)
            .arg(&src)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", stderr(&run));
        let report: Value = serde_json::from_slice(&run.stderr).unwrap();
        (std::fs::read_to_string(&out).unwrap(), report)
    };
    let (chrome, report) = to("chrome");
    assert!(chrome.contains(">Two lines</H3>"), "{chrome}");
    assert!(chrome.contains(">first second</A>"), "{chrome}");
    let changed: Vec<&str> = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["reason"].as_str().unwrap().contains("line break"))
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(changed.len(), 2, "{report}");
    let (firefox, _) = to("firefox");
    assert!(firefox.contains(">first&#13;&#10;second</A>"), "{firefox}");
}
