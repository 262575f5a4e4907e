//! Files shaped to make a reader slow or large: what they read as, content
//! asserted. (Times and memory are measured in scripts/bench-scaling.sh,
//! not here.)

use markport_lists::{csv, urls};
use markport_model::{ErrorKind, ReadOptions, WriteOptions};

const N: usize = 100_000;
const BIG: usize = 50 << 20;

/// 100,000 columns: one link column, the rest kept as extra, every one.
#[test]
fn a_csv_with_100000_columns_keeps_every_column() {
    let mut header = String::from("url");
    let mut row = String::from("https://e/");
    for i in 1..N {
        header.push_str(&format!(",c{i}"));
        row.push_str(&format!(",{i}"));
    }
    let file = format!("{header}\n{row}\n");
    let doc = csv::read(file.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    let extra = &b.details().extra;
    assert_eq!(extra.len(), N - 1);
    assert_eq!(extra[N - 2].name, format!("c{}", N - 1));
    assert_eq!(extra[N - 2].value, format!("{}", N - 1));
    // Written back, the table stays in proportion: every column comes back.
    let mut out = Vec::new();
    let loss = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert!(loss.is_empty(), "{loss}");
    assert!(out.len() < 2 * file.len() + 200);
}

/// One 50 MB field: read whole, as the description.
#[test]
fn a_csv_with_one_50_mb_field_reads_it_whole() {
    let desc = "x".repeat(BIG);
    let file = format!("url,note\nhttps://e/,\"{desc}\"\n");
    let doc = csv::read(file.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(b.desc.as_deref().map(str::len), Some(BIG));
}

/// A 50 MB field whose quote is never closed: an error at the quote.
#[test]
fn a_50_mb_field_without_its_closing_quote_is_an_error_at_the_quote() {
    let file = format!("url,note\nhttps://e/,ok\nhttps://f/,\"{}", "x".repeat(BIG));
    let e = csv::read(file.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    let at = e.location.unwrap();
    assert_eq!((at.line, at.column), (3, 12), "{e}");
}

/// A folder path of 400,000 parts (2.8 MB): the folders a file's paths
/// make are bounded by its size (a folder costs the model hundreds of
/// bytes, a part two), the rest of the path is one folder's title, said
/// once; nested without recursion.
#[test]
fn a_folder_path_400000_deep_makes_folders_in_proportion_to_the_file() {
    let parts = 400_000;
    let path = vec!["folder"; parts].join("/");
    let file = format!("url,folder\nhttps://e/,{path}\nhttps://f/,{path}\n");
    let read = csv::read(file.as_bytes(), &ReadOptions::default()).unwrap();
    let doc = read.document;
    let budget = csv::FOLDERS + file.len() / csv::FOLDER_BYTES;
    assert_eq!(doc.census().folders, budget + 1);
    assert_eq!(doc.max_depth(), budget + 1);
    // Both rows lead to the same folder, whose title is the rest.
    let ids: Vec<_> = doc
        .preorder()
        .filter(|&id| doc.node(id).as_bookmark().is_some())
        .collect();
    assert_eq!(doc.parent(ids[0]), doc.parent(ids[1]));
    let last = doc.node(doc.parent(ids[0]).unwrap()).title().unwrap();
    assert_eq!(last.len(), (parts - budget) * 7 - 1);
    assert_eq!(
        read.diagnostics.len(),
        1,
        "one warning, not one per row or part"
    );
    let d = &read.diagnostics[0];
    assert!(
        d.message.starts_with("2 folder path(s) cut"),
        "{}",
        d.message
    );
    assert_eq!(d.location.map(|l| (l.line, l.column)), Some((2, 12)));
    // Written back, the file is about as large, so the reader cuts the
    // path at the same part and the tree comes back whole.
    let mut out = Vec::new();
    let loss = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert!(loss.is_empty(), "{loss}");
}

/// A path within the bound makes every folder, as before.
#[test]
fn a_folder_path_within_the_bound_nests_in_full() {
    let path = vec!["f"; 4000].join("/");
    let file = format!("url,folder\nhttps://e/,{path}\n");
    let read = csv::read(file.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(read.document.census().folders, 4000);
    assert!(read.diagnostics.is_empty());
}

/// 200,000 rows with 20 cells past the header each: one value per row, for
/// as many rows as the file's size allows, the rest dropped and counted,
/// and one warning for the file (it was 20 attributes and 20 warnings per
/// row, 1.4 GB for 12 MB).
#[test]
fn rows_with_cells_past_the_header_cost_one_value_and_one_warning() {
    let rows = 200_000;
    let tail = vec!["a"; 20].join(",");
    let mut file = String::from("url,title\n");
    for i in 0..rows {
        file.push_str(&format!("https://e/{i},t{i},{tail}\n"));
    }
    let read = csv::read(file.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(read.document.census().bookmarks, rows);
    let budget = csv::PAST_ROWS + file.len() / csv::PAST_BYTES;
    assert_eq!(read.diagnostics.len(), 1);
    let message = &read.diagnostics[0].message;
    assert!(message.starts_with("200000 row(s)"), "{message}");
    assert!(
        message.contains(&format!(
            "those of the {} row(s) after the first {budget} are dropped",
            rows - budget
        )),
        "{message}"
    );
    for (n, id) in read.document.ids().enumerate() {
        let extra = &read
            .document
            .node(id)
            .as_bookmark()
            .unwrap()
            .details()
            .extra;
        if n < budget {
            assert_eq!(extra.len(), 1);
            assert_eq!(extra[0].value, tail);
        } else {
            assert!(extra.is_empty());
        }
    }
}

/// A 50 MB single-line URL list: one bookmark with a 50 MB title.
#[test]
fn a_50_mb_single_line_url_list_is_one_bookmark() {
    let file = format!("https://e/ {}", "t".repeat(BIG));
    assert_eq!(urls::detect(file.as_bytes()), Some(20));
    let doc = urls::read(file.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.len(), 1);
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(b.title.as_deref().map(str::len), Some(BIG));
}

/// 100,000 lines that are not URLs: each kept and warned once, at its line.
#[test]
fn many_lines_that_are_not_urls_are_each_kept_and_warned() {
    let file: String = (0..N).map(|i| format!("  word{i} title\n")).collect();
    let read = urls::read(file.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(read.document.len(), N);
    assert_eq!(read.diagnostics.len(), N);
    let last = read.diagnostics[N - 1].location.unwrap();
    assert_eq!((last.line, last.column), (N as u32, 3));
}

/// Every bookmark with an extra attribute of its own name: the writer
/// keeps the table in proportion and reports the attributes it leaves out.
#[test]
fn an_extra_name_per_bookmark_does_not_square_the_output() {
    let mut file = String::new();
    let n = 3_000;
    file.push_str("url");
    for i in 0..n {
        file.push_str(&format!(",x{i}"));
    }
    file.push('\n');
    for i in 0..n {
        file.push_str(&format!("https://e/{i}"));
        for j in 0..n {
            file.push(',');
            if i == j {
                file.push('v');
            }
        }
        file.push('\n');
    }
    let doc = csv::read(file.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    let mut out = Vec::new();
    let loss = csv::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    assert!(out.len() < file.len() / 10, "{} bytes", out.len());
    let lost = loss
        .losses
        .iter()
        .find(|l| l.field.name() == "bookmark.extra");
    assert!(lost.is_some_and(|l| l.count > n / 2), "{loss}");
}

/// A list of `lines` copies of `line`.
fn lines(line: &str, lines: usize) -> Vec<u8> {
    line.repeat(lines).into_bytes()
}

/// Reads `file` with its own budget (the default: twice its bytes plus
/// 128 MiB) and with a budget of `given` bytes.
fn read_both(
    read: fn(&[u8], &ReadOptions) -> Result<markport_model::Parsed, markport_model::Error>,
    file: &[u8],
    given: u64,
) -> (
    Result<markport_model::Parsed, markport_model::Error>,
    Result<markport_model::Parsed, markport_model::Error>,
) {
    let mut small = ReadOptions::default();
    small.memory_budget = Some(given);
    (read(file, &ReadOptions::default()), read(file, &small))
}

/// Lines of three bytes, each a bookmark of a few hundred: 2,000,000 of
/// them (6 MB) would take about 800 MB; the reader refuses at the line
/// that passes its budget, naming the flag, and the same file reads under
/// a budget that holds it.
#[test]
fn a_url_list_of_short_lines_is_refused_past_its_budget() {
    let file = lines("a:\n", 2_000_000);
    let (default, _) = read_both(urls::read, &file, 0);
    let e = default.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    assert!(e.message.contains("--memory-budget"), "{}", e.message);
    let at = e.location.expect("the line is named");
    assert!(at.line > 100_000 && at.line < 2_000_000, "{at:?}");
    let small = lines("a:\n", 1_000);
    let (_, given) = read_both(urls::read, &small, 100_000);
    assert_eq!(given.unwrap_err().kind, ErrorKind::Unsafe);
    let (_, given) = read_both(urls::read, &small, 1_000_000);
    assert_eq!(given.unwrap().document.len(), 1_000);
}

/// Lines that are not URLs each draw a warning: the warnings count too.
#[test]
fn warnings_on_every_short_line_count_against_the_budget() {
    // 1,000 bookmarks of one byte fit in 500 KB; with a warning each, not.
    let file = lines("x\n", 1_000);
    let (_, given) = read_both(urls::read, &file, 500_000);
    assert_eq!(given.unwrap_err().kind, ErrorKind::Unsafe);
    let quiet = lines("h://\n", 1_000);
    let (_, given) = read_both(urls::read, &quiet, 500_000);
    assert!(given.is_ok());
}

/// A CSV of one-byte rows under its link header, and one of rows with no
/// link (each warned): refused past the budget at the row, read within it.
#[test]
fn a_csv_of_short_rows_is_refused_past_its_budget() {
    let mut file = b"url\n".to_vec();
    file.extend(lines("a\n", 2_000_000));
    let (default, _) = read_both(csv::read, &file, 0);
    let e = default.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe);
    assert!(e.location.expect("the row is named").line > 100_000);
    let mut small = b"url,title\n".to_vec();
    small.extend(lines(",\n", 1_000));
    let (_, given) = read_both(csv::read, &small, 500_000);
    assert_eq!(given.unwrap_err().kind, ErrorKind::Unsafe);
    let (_, given) = read_both(csv::read, &small, 2_000_000);
    assert_eq!(given.unwrap().document.len(), 1_000);
}
