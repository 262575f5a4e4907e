//! What markport prints for a person never passes a file's control
//! characters to the terminal, nor a whole huge value: titles, paths and
//! messages that quote a file are shown escaped (`\u{1b}`) and cut with
//! their length (`markport_model::display::shown`). JSON output stays exact.

mod common;

use common::markport;

const ESC: &str = "\u{1b}[2J";
const BEL: &str = "\u{7}";
const RLO: &str = "\u{202e}";

/// A Netscape file whose titles hold a screen-clearing escape sequence, a
/// bell, a right-to-left override and a 1 MB title; an attribute name with
/// an escape sequence, given twice, makes the reader warn, quoting it.
/// `date` is the ADD_DATE of every bookmark (the diff changes it).
fn hostile(date: u32) -> String {
    let huge = "x".repeat(1_000_000);
    format!(
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<DL><p>\n\
         <DT><H3>{ESC}Clear{BEL}</H3>\n<DL><p>\n\
         <DT><A HREF=\"https://a.example/\" ADD_DATE=\"{date}\">{RLO}gpj.exe</A>\n\
         <DT><A HREF=\"https://b.example/\" ADD_DATE=\"{date}\" {ESC}X=1 {ESC}X=2>{huge}{ESC}</A>\n\
         </DL><p>\n</DL><p>\n"
    )
}

/// `out` holds no raw control character the file held, no line a screen
/// cannot hold, and shows the escape sequence escaped.
fn safe(what: &str, out: &[u8]) {
    let text = String::from_utf8_lossy(out);
    for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(
            !text.contains(raw),
            "{what}: a raw {raw:?} reaches the terminal"
        );
    }
    let longest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(longest < 1500, "{what}: a line of {longest} characters");
    assert!(text.contains("\\u{1b}[2J"), "{what}: {text}");
}

#[test]
fn titles_and_messages_from_a_file_are_shown_escaped_and_cut() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.html"), dir.path().join("b.html"));
    std::fs::write(&a, hostile(1)).unwrap();
    std::fs::write(&b, hostile(2)).unwrap();

    // The report of a conversion that loses the titles names the nodes by
    // their paths, and the reader's warning quotes the attribute name.
    let convert = markport()
        .arg("-v")
        .args(["convert", "--to", "urls"])
        .arg(&a)
        .output()
        .unwrap();
    assert!(convert.status.success());
    safe("convert's report", &convert.stderr);
    let report = String::from_utf8_lossy(&convert.stderr);
    assert!(report.contains("\\u{202e}gpj.exe"), "{report}");
    // The path of the 1 MB title: the folder's 10 characters, `/`, the
    // title's 1,000,004.
    assert!(report.contains("… (1,000,015 characters)"), "{report}");

    // JSON is exact: the path is the title as read.
    let json = markport()
        .args(["convert", "--to", "urls", "--json"])
        .arg(&a)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stderr).unwrap();
    let paths = json["losses"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| l["paths"].as_array().unwrap())
        .filter_map(|p| p.as_str())
        .collect::<Vec<_>>();
    assert!(
        paths.contains(&format!("{ESC}Clear{BEL}/{RLO}gpj.exe").as_str()),
        "{paths:?}"
    );

    let info = markport().arg("info").arg(&a).output().unwrap();
    assert!(info.status.success());
    safe("info", &info.stdout);

    let check = markport().arg("check").arg(&a).output().unwrap();
    safe("check", &check.stdout);

    let diff = markport().arg("diff").arg(&a).arg(&b).output().unwrap();
    assert_eq!(diff.status.code(), Some(1));
    safe("diff", &diff.stdout);
    // The diff's paths are cut too: the 1 MB title is not printed whole.
    assert!(diff.stdout.len() < 10_000, "{} bytes", diff.stdout.len());
}
