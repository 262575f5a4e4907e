//! The CSV exports' reader under `ReadOptions::checking`: every rule broken,
//! each tagged and placed where convert places the same problem.

use markport_model::{Diagnostic, Location, ReadOptions};
use markport_services::{instapaper, pocket};

fn checking() -> ReadOptions {
    let mut opts = ReadOptions::default();
    opts.checking = true;
    opts
}

fn at(line: u32, column: u32) -> Option<Location> {
    Some(Location { line, column })
}

/// Each tagged diagnostic as (rule, line, column).
fn tagged(diags: &[Diagnostic]) -> Vec<(&str, u32, u32)> {
    diags
        .iter()
        .filter_map(|d| {
            let l = d.location?;
            Some((d.rule.as_deref()?, l.line, l.column))
        })
        .collect()
}

#[test]
fn an_unclosed_quote_is_one_answer_for_check_and_convert() {
    // Issue 30: check said `3:1 export/row: 2 fields where the header has
    // 6`, convert `3:12 unclosed quote`. One scanner, one answer.
    let csv = "title,url,time_added,cursor,tags,status\nA,https://a/,1,,,unread\nB,https://b/,\"2,,,unread\n";
    let converting = pocket::read(csv.as_bytes(), &ReadOptions::default()).unwrap_err();
    let checked = pocket::read(csv.as_bytes(), &checking()).unwrap_err();
    assert_eq!(converting.location, at(3, 14), "{converting:?}");
    assert_eq!(checked.location, converting.location);
    assert_eq!(checked.message, converting.message);
    assert!(checked.message.contains("unclosed quote"), "{checked}");
    assert_eq!(checked.rule, Some("export/row"));
}

#[test]
fn checking_reads_past_every_row_problem_and_tags_each() {
    let csv = "URL,Title,Selection,Folder,Timestamp\n\
               https://a/,A,,Unread,1700000000\n\
               https://b/,B,Unread,1700000100\n\
               ,No link,,Unread,1700000200\n\
               https://c/,C,,Unread,yesterday\n\
               https://d/,D,,Unread,1,extra\n\
               https://e/,E,,Unread,1700000300\n";
    // Convert stops at the first row of the wrong width, where check
    // says it is.
    let err = instapaper::read(csv.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location, at(3, 1), "{err:?}");
    let parsed = instapaper::read(csv.as_bytes(), &checking()).unwrap();
    assert_eq!(
        tagged(&parsed.diagnostics),
        [
            ("export/row", 3, 1),
            ("export/row", 4, 1),
            ("export/bad-date", 5, 1),
            ("export/row", 6, 1),
        ]
    );
    assert!(parsed.diagnostics[0]
        .message
        .contains("4 fields where the header has 5"));
    assert!(parsed.diagnostics[1]
        .message
        .contains("the URL field is empty"));
    // The rows of the right width are read.
    assert_eq!(parsed.document.census().bookmarks, 4);
}

#[test]
fn a_header_lacking_a_column_is_said_after_the_rows_are_looked_at() {
    let csv = "URL,Title,Folder,Folder\nhttps://a/,A,Unread\n";
    let err = instapaper::read(csv.as_bytes(), &checking()).unwrap_err();
    assert_eq!(err.rule, Some("export/header"));
    assert!(err.message.contains("no Selection column"), "{err}");
    assert_eq!(
        tagged(&err.found),
        [("export/header", 1, 18), ("export/row", 2, 1)]
    );
    // Convert refuses the repeated column where it is.
    let err = instapaper::read(csv.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location, at(1, 18), "{err:?}");
}

#[test]
fn bytes_that_are_not_utf8_are_said_per_row_when_checking() {
    let csv = b"title,url,time_added\nA\xff,https://a/,1\nB,https://b/,2\n";
    let parsed = pocket::read(csv, &checking()).unwrap();
    assert_eq!(tagged(&parsed.diagnostics), [("export/row", 2, 1)]);
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.message.contains("the title field is not UTF-8")));
    // Convert says it once, as before, and nothing is tagged.
    let parsed = pocket::read(csv, &ReadOptions::default()).unwrap();
    assert!(tagged(&parsed.diagnostics).is_empty());
    assert_eq!(parsed.document.census().bookmarks, 2);
}

#[test]
fn a_pocket_header_without_time_added_is_a_csv_lacking_it() {
    let err =
        pocket::read(b"title,url,tags\nA,https://a/,x\n", &ReadOptions::default()).unwrap_err();
    assert!(err.message.contains("no time_added column"), "{err}");
}

fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, data) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn the_parts_of_a_pocket_zip_are_checked_each_led_by_its_part() {
    let bytes = zip(&[
        (
            "part_000000.csv",
            b"title,url,time_added\nA,https://a/,soon\n",
        ),
        (
            "part_000001.csv",
            b"title,url,time_added\nB,https://b/,1\n\"C,https://c/,2\n",
        ),
    ]);
    let err = pocket::read(&bytes, &checking()).unwrap_err();
    assert_eq!(err.rule, Some("export/row"));
    assert!(
        err.message
            .starts_with("ZIP entry part_000001.csv:3:1: unclosed quote"),
        "{err}"
    );
    let found: Vec<_> = err.found.iter().map(|d| d.rule.as_deref()).collect();
    assert_eq!(found, [Some("export/bad-date")]);
    assert!(err.found[0]
        .message
        .starts_with("ZIP entry part_000000.csv:2:1: "));
}
