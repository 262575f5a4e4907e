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
