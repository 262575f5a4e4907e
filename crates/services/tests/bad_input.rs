//! What each service reader refuses, and where it says the problem is.

use markport_model::{ErrorKind, Location, ReadOptions};
use markport_services::{instapaper, pinboard, pocket};

fn at(line: u32, column: u32) -> Option<Location> {
    Some(Location { line, column })
}

#[test]
fn a_csv_row_with_the_wrong_number_of_fields_is_located() {
    let csv = b"title,url,time_added,tags,status\nA,https://a/,1,,unread\nB,https://b/,2\n";
    let err = pocket::read(csv, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        (err.kind, err.location),
        (ErrorKind::Syntax, at(3, 1)),
        "{err:?}"
    );
    assert!(
        err.message.contains("3 fields where the header has 5"),
        "{}",
        err.message
    );
}

#[test]
fn a_header_with_a_column_the_service_does_not_write_is_located() {
    let csv = b"URL,Title,Selection,Colour\nhttps://a/,A,,red\n";
    assert!(instapaper::detect(csv).is_none());
    let err = instapaper::read(csv, &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location, at(1, 21), "{err:?}");
    assert!(err.message.contains("\"Colour\""), "{}", err.message);
    let err = instapaper::read(b"URL,Title,Selection\n", &ReadOptions::default()).unwrap_err();
    assert!(err.message.contains("no Folder column"), "{}", err.message);
    let err = instapaper::read(b"", &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
}

#[test]
fn a_bad_date_is_kept_with_a_located_warning() {
    let csv = b"URL,Title,Selection,Folder,Timestamp\nhttps://a/,A,,Unread,yesterday\n";
    let parsed = instapaper::read(csv, &ReadOptions::default()).unwrap();
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(parsed.diagnostics[0].location, at(2, 1));
    let mut strict = ReadOptions::default();
    strict.strict = true;
    assert_eq!(
        instapaper::read(csv, &strict).unwrap_err().kind,
        ErrorKind::Strict
    );
}

#[test]
fn broken_pinboard_json_is_located_and_a_non_array_refused() {
    let err = pinboard::read(
        b"[{\"href\":\"https://a/\",\n\"hash\":}]",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        (err.kind, err.location),
        (ErrorKind::Syntax, at(2, 8)),
        "{err:?}"
    );
    let err = pinboard::read(b"{\"href\":1}", &ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    // Deep nesting costs no call stack: the post that is no object is skipped.
    let deep = format!("[{}{}]", "[".repeat(100_000), "]".repeat(100_000));
    let parsed = pinboard::read(deep.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(parsed.document.census().bookmarks, 0);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(parsed.diagnostics[0].location, at(1, 2));
    assert!(parsed.diagnostics[0]
        .message
        .contains("post 1 is not an object"));
    // A cut file and data after the array are errors where they are.
    let err = pinboard::read(b"[{\"href\":\"https://a/\"}", &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location, at(1, 23), "{err:?}");
    let err = pinboard::read(b"[] []", &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location, at(1, 4), "{err:?}");
}

#[test]
fn a_pocket_page_without_sections_or_links_is_not_pocket() {
    let err = pocket::read(
        b"<html><body><p>hello</p></body></html>",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
}

#[test]
fn a_netscape_file_with_time_added_stays_netscape() {
    let html = b"<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><DT><A HREF=\"https://a/\" TIME_ADDED=\"1\">a</A></DL>";
    assert_eq!(pocket::detect(html), None);
}

#[test]
fn an_unclosed_quote_is_named_where_its_field_opens() {
    // The quote swallows the rest of the file: the CSV reader sees too few
    // fields, but what is wrong is the quote.
    let csv = b"title,url,time_added,tags,status\nA,https://a/,1,,unread\n\"B,https://b/,2,,unread\nC,https://c/,3,,unread\n";
    let err = pocket::read(csv, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        (err.kind, err.location),
        (ErrorKind::Syntax, at(3, 1)),
        "{err:?}"
    );
    assert!(err.message.contains("unclosed quote"), "{}", err.message);
    // In the last field the count of fields is right, and the quote still wrong.
    let csv =
        b"title,url,time_added,tags,status\nA,https://a/,1,,\"unread\nB,https://b/,2,,unread\n";
    let err = pocket::read(csv, &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location, at(2, 17), "{err:?}");
    assert!(err.message.contains("unclosed quote"), "{}", err.message);
    let csv = "URL,Title,Selection,Folder\nhttps://a/,\"A \"\"quoted\"\" title\",,Unread\nhttps://b/,\"B é,,Unread\n";
    let err = instapaper::read(csv.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location, at(3, 12), "{err:?}");
    assert!(err.message.contains("unclosed quote"), "{}", err.message);
    // In the header too.
    let err =
        instapaper::read(b"URL,\"Title,Selection,Folder\n", &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location, at(1, 5), "{err:?}");
    assert!(err.message.contains("unclosed quote"), "{}", err.message);
    // Closed quotes, doubled quotes and quoted line breaks are fine.
    let csv = "URL,Title,Selection,Folder\nhttps://a/,\"A \"\"q\"\"\nline\",,Unread\n";
    let doc = instapaper::read(csv.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().bookmarks, 1);
}
