//! The generic CSV reader and writer on small files whose every value is
//! checked: columns by name, `--csv-map`, tags, dates, flags, extra
//! columns, and what the writer reports.

use markport_lists::csv;
use markport_model::{
    Bookmark, Document, ErrorKind, Field, Folder, ReadOptions, Separator, Severity, WriteOptions,
};

fn read(file: &str) -> Document {
    csv::read(file.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document
}

fn bookmarks(doc: &Document) -> Vec<&Bookmark> {
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .collect()
}

#[test]
fn columns_are_found_by_name_in_any_order_and_case() {
    let doc = read(
        " Keywords ,DESCRIPTION,href,Name,Time_Added,Category\n\
         a;b,words,https://e/1,One,1600000000,Top/Sub\n",
    );
    let b = bookmarks(&doc)[0];
    assert_eq!(b.href, "https://e/1");
    assert_eq!(b.title.as_deref(), Some("One"));
    assert_eq!(b.desc.as_deref(), Some("words"));
    assert_eq!(b.tags, ["a", "b"]);
    assert_eq!(
        b.added.as_ref().unwrap().instant().unwrap().unix_seconds(),
        1_600_000_000
    );
    let id = doc.find_by_href("https://e/1").unwrap();
    assert_eq!(doc.path(id), "Top/Sub/One");
}

#[test]
fn the_more_telling_name_wins_and_the_other_column_is_kept() {
    // `name` and `title` both mean the title: `title` wins, `name` is extra.
    let doc = read("name,url,title\nN,https://e/,T\n");
    let b = bookmarks(&doc)[0];
    assert_eq!(b.title.as_deref(), Some("T"));
    assert_eq!(b.details().extra.len(), 1);
    assert_eq!(b.details().extra[0].name, "name");
    assert_eq!(b.details().extra[0].value, "N");
}

#[test]
fn csv_map_overrides_the_names_and_can_turn_a_field_off() {
    let mut opts = ReadOptions::default();
    opts.csv.map = vec![
        ("url".into(), "Address".into()),
        ("title".into(), "Label".into()),
        ("folder".into(), "".into()),
    ];
    let file = "Address,Label,url,folder\nhttps://a/,A,https://not/,F\n";
    let doc = csv::read(file.as_bytes(), &opts).unwrap().document;
    assert_eq!(doc.census().folders, 0);
    let b = bookmarks(&doc)[0];
    assert_eq!(b.href, "https://a/");
    assert_eq!(b.title.as_deref(), Some("A"));
    let extra: Vec<(&str, &str)> = b
        .details()
        .extra
        .iter()
        .map(|a| (a.name.as_str(), a.value.as_str()))
        .collect();
    assert_eq!(extra, [("url", "https://not/"), ("folder", "F")]);

    opts.csv.map = vec![("colour".into(), "Label".into())];
    let e = csv::read(file.as_bytes(), &opts).unwrap_err();
    assert!(e.message.contains("no field \"colour\""), "{e}");
    opts.csv.map = vec![("title".into(), "Nope".into())];
    let e = csv::read(file.as_bytes(), &opts).unwrap_err();
    assert!(e.message.contains("no column \"Nope\""), "{e}");
}

#[test]
fn explain_says_which_column_became_which_field() {
    let mut opts = ReadOptions::default();
    opts.csv.explain = true;
    let read = csv::read(b"Link\tName\tStars\nhttps://e/\tE\t3\n", &opts).unwrap();
    let notes: Vec<&str> = read
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Note)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        notes,
        [
            "CSV delimiter tab (from the header)",
            "column 1 \"Link\" is url",
            "column 2 \"Name\" is title",
            "column 3 \"Stars\" is kept with each bookmark (bookmark.extra)",
        ]
    );
    // Without the option the reader says nothing.
    let quiet = csv::read(b"Link\tName\nhttps://e/\tE\n", &ReadOptions::default()).unwrap();
    assert!(quiet.diagnostics.is_empty());
}

#[test]
fn tags_split_on_the_separator_most_cells_hold() {
    let doc = read("url,tags\nhttps://a/,x|y\nhttps://b/,\"p, q|r\"\nhttps://c/,s|t\n");
    let tags: Vec<&[String]> = bookmarks(&doc).iter().map(|b| &b.tags[..]).collect();
    assert_eq!(tags[0], ["x", "y"]);
    assert_eq!(tags[1], ["p, q", "r"]);
    assert_eq!(tags[2], ["s", "t"]);
}

#[test]
fn flags_shared_no_is_private_and_a_word_not_understood_is_private_and_kept() {
    let doc = read(
        "url,shared,toread\nhttps://a/,no,1\nhttps://b/,yes,0\nhttps://c/,perhaps,\nhttps://d/,,\n",
    );
    let b = bookmarks(&doc);
    assert_eq!((b[0].private, b[0].to_read), (Some(true), Some(true)));
    assert_eq!((b[1].private, b[1].to_read), (Some(false), Some(false)));
    assert_eq!(b[2].private, Some(true));
    assert_eq!(b[2].details().extra[0].value, "perhaps");
    assert_eq!((b[3].private, b[3].to_read), (None, None));
}

#[test]
fn a_file_without_a_link_column_is_not_a_bookmark_csv() {
    let e = csv::read(b"title,tags\nx,y\n", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::WrongFormat);
    let e = csv::read(b"", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::WrongFormat);
}

#[test]
fn rows_longer_than_the_header_keep_their_cells_as_written_with_one_warning() {
    let file = "url,title\nhttps://a/,A,more,\"x,y\",,\nhttps://b/,B,,\nhttps://c/,C,\"\"\"q\"\n";
    let read = csv::read(file.as_bytes(), &ReadOptions::default()).unwrap();
    let b = bookmarks(&read.document);
    let extra = |i: usize| -> Vec<(String, String)> {
        b[i].details()
            .extra
            .iter()
            .map(|a| (a.name.clone(), a.value.clone()))
            .collect()
    };
    // The cells past the header, as written up to the last that is not
    // empty, in one value per row; empty ones alone are nothing.
    assert_eq!(extra(0), [(csv::PAST_HEADER.into(), "more,\"x,y\"".into())]);
    assert!(extra(1).is_empty());
    assert_eq!(extra(2), [(csv::PAST_HEADER.into(), "\"\"\"q\"".into())]);
    // One warning for the file, counting the rows, at the first such cell.
    assert_eq!(read.diagnostics.len(), 1, "{:?}", read.diagnostics);
    let d = &read.diagnostics[0];
    assert!(
        d.message.starts_with("2 row(s) have fields past"),
        "{}",
        d.message
    );
    let at = d.location.unwrap();
    assert_eq!((at.line, at.column), (2, 14));
    // Written back, the value is a column of its own and comes back.
    let mut out = Vec::new();
    let loss = csv::write(&read.document, &WriteOptions::default(), &mut out).unwrap();
    assert!(loss.is_empty(), "{loss}");
}

#[test]
fn detection_needs_a_link_column_and_is_low() {
    assert_eq!(csv::detect(b"Title,URL,Tags\n"), Some(30));
    assert_eq!(csv::detect(b"\xEF\xBB\xBFname;href\n"), Some(30));
    assert_eq!(csv::detect(b"title,tags\n"), None);
    assert_eq!(csv::detect(b"https://a/,https://b/\n"), None);
    assert_eq!(csv::detect(b"url\n"), None, "one column is not a table");
}

#[test]
fn the_writer_gives_one_row_per_bookmark_with_its_folder_path() {
    let mut doc = Document::new();
    let dev = doc.push(None, Folder::titled("Dev"));
    let rust = doc.push(Some(dev), Folder::titled("Rust"));
    let mut b = Bookmark::new("https://www.rust-lang.org/").with_title("=cmd|' /C calc'!A0");
    b.tags = vec!["lang".into(), "sys tems".into()];
    b.private = Some(true);
    b.added = Some(markport_model::DateValue::from_w3c(
        "2024-05-01T09:30:00.25+02:00",
    ));
    doc.push(Some(rust), b);
    doc.push(Some(dev), Separator::new());
    doc.push(None, Bookmark::new("-https://odd/"));
    let mut out = Vec::new();
    let loss = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        "url,title,description,tags,folder,created,private,toread\n\
         https://www.rust-lang.org/,'=cmd|' /C calc'!A0,,\"lang,sys tems\",Dev/Rust,2024-05-01T09:30:00.25+02:00,true,\n\
         '-https://odd/,,,,,,,\n"
    );
    // The separator is the one thing lost, and it is reported.
    assert_eq!(
        loss.fields().into_iter().collect::<Vec<_>>(),
        [Field::Separator]
    );
    let back = csv::read(&out, &ReadOptions::default()).unwrap().document;
    assert_eq!(bookmarks(&back), bookmarks(&doc));
}

#[test]
fn the_writer_reports_what_a_folder_path_and_a_tags_cell_cannot_hold() {
    let mut doc = Document::new();
    let odd = doc.push(None, Folder::titled("a/b"));
    let mut b = Bookmark::new("https://e/");
    b.tags = vec!["one,two".into()];
    doc.push(Some(odd), b);
    doc.push(None, Folder::titled("empty"));
    let mut out = Vec::new();
    let loss = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let fields = loss.fields();
    assert!(fields.contains(&Field::BookmarkTags), "{loss}");
    assert!(fields.contains(&Field::Folder), "{loss}");
}

#[test]
fn extra_names_that_would_change_the_header_get_no_column_and_are_reported() {
    let mut doc = Document::new();
    let mut b = Bookmark::new("https://e/");
    b.details_mut().extra = vec![
        markport_model::Attribute::new("a;b;c;d;e;f;g;h;i;j", "v"),
        markport_model::Attribute::new("line\nbreak", "w"),
        markport_model::Attribute::new("kept", "k"),
    ];
    doc.push(None, b);
    let mut out = Vec::new();
    let loss = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert!(String::from_utf8(out)
        .unwrap()
        .starts_with("url,title,description,tags,folder,created,private,toread,kept\n"));
    assert_eq!(
        loss.fields().into_iter().collect::<Vec<_>>(),
        [Field::BookmarkExtra]
    );
}
