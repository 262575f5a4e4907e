//! The API against the running server: each answer is what the library's
//! one pipeline makes of the same bytes, and bad input is a 4xx with its
//! position, never a 500.

mod common;

use common::{config, corpus, start};
use markport::{Input, Job, Target, To, WriteOptions};

/// What `markport::run` writes for `bytes` to `to`.
fn library_output(bytes: &[u8], to: &str) -> Vec<u8> {
    let to = To::Format {
        format: markport::format(to).unwrap(),
        options: WriteOptions::default(),
    };
    let mut out = Vec::new();
    markport::run(
        Job::new(vec![Input::Bytes(bytes.to_vec())], to),
        Target::Stream(&mut out),
    )
    .unwrap();
    out
}

#[test]
fn for_a_program_picks_its_file_and_says_what_its_import_keeps() {
    let s = start(config(|_| {}));
    let file = corpus("netscape/firefox.html");
    let a = s.post(
        "/api/convert",
        &[("firefox.html", &file)],
        &[("for", "chrome")],
        &[("Accept", "application/json")],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let j = a.json();
    let report = &j["report"];
    assert_eq!(report["to"], "netscape", "{report}");
    assert_eq!(report["for"], "chrome", "{report}");
    assert!(j["output"]
        .as_str()
        .unwrap()
        .contains("<!DOCTYPE NETSCAPE-Bookmark-file-1>"));
}

/// The page offers every destination, and what it posts when one is
/// chosen (`for`, and `to` left empty for it) converts for that program.
#[test]
fn the_page_offers_the_destinations_and_its_form_converts_for_one() {
    let s = start(config(|_| {}));
    let page = s.get("/").text();
    for name in markport::destination_names() {
        assert!(
            page.contains(&format!("<option value=\"{name}\">")),
            "{name}"
        );
    }
    let file = corpus("safari/bookmarks.plist");
    let a = s.post(
        "/api/convert",
        &[("Bookmarks.plist", &file)],
        &[("for", "gnome"), ("to", "")],
        &[("Accept", "application/json")],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let j = a.json();
    assert_eq!(j["report"]["to"], "desktop", "{}", j["report"]);
    assert_eq!(j["report"]["for"], "gnome");
}

#[test]
fn convert_answers_json_or_the_file_itself() {
    let s = start(config(|_| {}));
    let file = corpus("netscape/firefox.html");
    let want = library_output(&file, "xbel");
    let a = s.post(
        "/api/convert",
        &[("firefox.html", &file)],
        &[("to", "xbel")],
        &[("Accept", "application/json")],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.header("content-type"), Some("application/json"));
    let j = a.json();
    assert_eq!(j["output"].as_str().unwrap().as_bytes(), &want[..]);
    assert_eq!(j["base64"], false);
    assert_eq!(j["filename"], "firefox.xbel");
    let report = &j["report"];
    assert_eq!(report["markport_report"], 1);
    assert_eq!(report["input"], "firefox.html");
    assert_eq!(report["from"], "netscape");
    assert_eq!(report["to"], "xbel");
    assert_eq!(report["lost"], false, "{report}");

    let a = s.post(
        "/api/convert",
        &[("firefox.html", &file)],
        &[("to", "xbel")],
        &[],
    );
    assert_eq!(a.status, 200);
    assert_eq!(
        a.header("content-disposition"),
        Some("attachment; filename=\"firefox.xbel\"")
    );
    assert_eq!(a.body, want);
}

#[test]
fn a_loss_is_reported_and_fail_on_loss_writes_nothing() {
    let s = start(config(|_| {}));
    let file = corpus("netscape/firefox.html");
    let json = [("Accept", "application/json")];
    let a = s.post(
        "/api/convert",
        &[("firefox.html", &file)],
        &[("to", "urls")],
        &json,
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let report = &a.json()["report"];
    assert_eq!(report["lost"], true);
    assert!(!report["losses"].as_array().unwrap().is_empty(), "{report}");
    let a = s.post(
        "/api/convert",
        &[("firefox.html", &file)],
        &[("to", "urls"), ("fail_on_loss", "on")],
        &json,
    );
    assert_eq!(a.status, 422, "{}", a.text());
    let j = a.json();
    assert!(
        j["error"].as_str().unwrap().starts_with("nothing written"),
        "{j}"
    );
    assert!(j.get("output").is_none());
    assert_eq!(j["report"]["lost"], true);
}

#[test]
fn private_bookmarks_stay_out_of_a_published_page_unless_asked() {
    let s = start(config(|_| {}));
    let file = corpus("netscape/delicious.html");
    let private = "http://microformats.org/wiki/xfolk";
    let a = s.post(
        "/api/convert",
        &[("d.html", &file)],
        &[("to", "xfolk")],
        &[],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.text().contains("www.w3.org/TR/xhtml1/"));
    assert!(
        !a.text().contains(private),
        "a private bookmark was published"
    );
    let a = s.post(
        "/api/convert",
        &[("d.html", &file)],
        &[("to", "xfolk"), ("include_private", "on")],
        &[],
    );
    assert!(a.text().contains(private));
}

#[test]
fn several_files_are_merged_with_merges_report() {
    let s = start(config(|_| {}));
    let a_file = corpus("netscape/firefox.html");
    let b_file = corpus("netscape/chrome.html");
    let a = s.post(
        "/api/convert",
        &[("firefox.html", &a_file), ("chrome.html", &b_file)],
        &[("to", "netscape")],
        &[("Accept", "application/json")],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let j = a.json();
    let inputs = j["report"]["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[0]["input"], "firefox.html");
    assert_eq!(inputs[1]["input"], "chrome.html");
    assert_eq!(j["filename"], "firefox.html");
    let out = j["output"].as_str().unwrap();
    assert!(out.contains("https://www.mozilla.org/en-US/firefox/central/"));
}

#[test]
fn operations_apply_as_on_the_command_line() {
    let s = start(config(|_| {}));
    let mut twice = corpus("netscape/firefox.html");
    let again = twice.clone();
    twice.extend_from_slice(&again);
    let count = |a: &common::Answer| a.text().matches("<bookmark ").count();
    let plain = s.post(
        "/api/convert",
        &[("f.html", &twice)],
        &[("to", "xbel")],
        &[],
    );
    let deduped = s.post(
        "/api/convert",
        &[("f.html", &twice)],
        &[("to", "xbel"), ("dedupe", "exact")],
        &[("Accept", "application/json")],
    );
    assert_eq!(deduped.status, 200, "{}", deduped.text());
    let j = deduped.json();
    let out = j["output"].as_str().unwrap();
    assert!(out.matches("<bookmark ").count() < count(&plain), "{out}");
    assert!(j["report"]["changes"]
        .as_array()
        .is_some_and(|c| !c.is_empty()));
}

#[test]
fn bad_input_is_a_4xx_with_its_position_never_a_500() {
    let s = start(config(|_| {}));
    let broken = b"<xbel version=\"1.0\">\n<bookmark href=\"x\">\n</xbel";
    let a = s.post(
        "/api/convert",
        &[("broken.xbel", broken)],
        &[("to", "netscape"), ("from", "xbel")],
        &[("Accept", "application/json")],
    );
    assert_eq!(a.status, 422, "{}", a.text());
    let j = a.json();
    assert!(j["error"].as_str().unwrap().contains("xbel"), "{j}");
    assert_eq!(
        (j["line"].as_u64(), j["column"].as_u64()),
        (Some(3), Some(1)),
        "{j}"
    );
    assert_eq!(j["file"], "broken.xbel");

    let file = corpus("netscape/firefox.html");
    let files = [("f.html", &file[..])];
    for (fields, why) in [
        (&[("to", "nope")][..], "an unknown format"),
        (&[("to", "places")][..], "a format only read"),
        (&[("to", "favorites")][..], "a tree of files"),
        (&[][..], "no format"),
        (
            &[("to", "xbel"), ("dedup", "exact")][..],
            "a misspelt option",
        ),
        (
            &[("to", "xbel"), ("strict", "maybe")][..],
            "not a yes or no",
        ),
        (
            &[("to", "xbel"), ("allow_loss", "bookmark.nothing")][..],
            "no such field",
        ),
        (
            &[("for", "netscape-navigator")][..],
            "a destination markport does not know",
        ),
    ] {
        let a = s.post("/api/convert", &files, fields, &[]);
        assert_eq!(a.status, 400, "{why}: {}", a.text());
        assert!(a.json()["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
    let a = s.post("/api/convert", &[], &[("to", "xbel")], &[]);
    assert_eq!(a.status, 400, "no file");
    let a = s.send(
        "POST",
        "/api/convert",
        &[s.bearer(), ("Content-Type".into(), "text/plain".into())],
        b"hello",
    );
    assert_eq!(a.status, 400, "not a form: {}", a.text());
    let a = s.post("/api/convert", &[("empty", b"")], &[("to", "xbel")], &[]);
    assert!(
        (400..500).contains(&a.status),
        "an empty file: {}",
        a.status
    );
    let a = s.post(
        "/api/convert",
        &[("junk.bin", &[0xff, 0, 1, 2, 3])],
        &[("to", "xbel")],
        &[],
    );
    assert!(
        (400..500).contains(&a.status),
        "bytes of no format: {}",
        a.status
    );
}

#[test]
fn a_database_upload_is_read_through_a_private_copy() {
    let s = start(config(|_| {}));
    let places = corpus("places/firefox-esr.sqlite");
    let a = s.post(
        "/api/convert",
        &[("places.sqlite", &places)],
        &[("to", "netscape")],
        &[("Accept", "application/json")],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.json()["report"]["from"], "places");
    let buku = corpus("buku/buku.db");
    let a = s.post(
        "/api/convert",
        &[("bookmarks.db", &buku)],
        &[("to", "xbel")],
        &[],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.text().contains("<bookmark "));
}

#[test]
fn check_lists_every_problem_by_rule() {
    let s = start(config(|_| {}));
    let file = b"<xbel version='1.0'><bookmark/></xbel>";
    let a = s.post("/api/check", &[("a.xbel", file)], &[], &[]);
    assert_eq!(a.status, 200, "{}", a.text());
    let j = a.json();
    assert_eq!(j["files"][0]["format"], "xbel");
    assert_eq!(
        j["files"][0]["problems"][0]["rule"],
        "xbel/bookmark-without-href"
    );
}

#[test]
fn info_shows_format_counts_and_the_folder_tree() {
    let s = start(config(|_| {}));
    let file = common::netscape(250);
    let a = s.post("/api/info", &[("gen.html", &file)], &[], &[]);
    assert_eq!(a.status, 200, "{}", a.text());
    let f = &a.json()["files"][0];
    assert_eq!(f["format"], "netscape");
    assert_eq!(f["bookmarks"], 250);
    let tree = f["tree"].as_array().unwrap();
    assert_eq!(tree.len(), 3);
    assert_eq!(tree[2]["title"], "Folder 2");
    assert_eq!(tree[2]["bookmarks"], 50);
    assert_eq!(tree[2]["depth"], 0);
}

#[test]
fn formats_and_version() {
    let s = start(config(|_| {}));
    let v = s.get("/api/version").json();
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    let f = s.get("/api/formats").json();
    let by_name = |n: &str| {
        f["formats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == n)
            .cloned()
            .unwrap()
    };
    assert_eq!(by_name("netscape")["writes"], true);
    assert_eq!(by_name("places")["writes"], false);
    assert_eq!(by_name("favorites")["writes"], false);
    assert_eq!(
        markport::FORMATS.len(),
        f["formats"].as_array().unwrap().len()
    );
    assert_eq!(s.get("/nothing-here").status, 404);
}
