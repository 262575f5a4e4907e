//! The reader under `ReadOptions::checking`: every rule of `markport check`
//! the file breaks, tagged and placed, and nothing of it otherwise.

use markport_model::{Document, ReadOptions, WriteOptions};

fn checking() -> ReadOptions {
    let mut opts = ReadOptions::default();
    opts.checking = true;
    opts
}

/// (rule, line, column) of every tagged diagnostic, in order of place.
fn rules(diags: &[markport_model::Diagnostic]) -> Vec<(String, u32, u32)> {
    let mut found: Vec<_> = diags
        .iter()
        .filter_map(|d| {
            let rule = d.rule.as_deref()?.to_owned();
            let at = d.location.expect("a rule's finding has a place");
            Some((rule, at.line, at.column))
        })
        .collect();
    found.sort_by_key(|f| (f.1, f.2));
    found
}

const BROKEN: &str = r#"<!DOCTYPE html>
<TITLE>Bookmarks</TITLE>
<DT><A HREF="https://outside.example/">Outside</A>
<DL><p>
    <DT><A HREF="https://a.example/" ADD_DATE="yesterday" COLOUR="red">A</A>
    <DT><H3 FOLDED FOLDED>F</H3>
    <DL><p>
        <DD>text with <A HREF="https://in-a-description.example/" ZAP="1">markup</A>
    </DL><p>
</DL><p>
</DL><p>
<DL>
"#;

#[test]
fn checking_finds_every_rule_at_its_place() {
    let read = markport_netscape::read(BROKEN.as_bytes(), &checking()).unwrap();
    let want = [
        ("netscape/doctype", 1, 1),
        ("netscape/item-outside-list", 3, 1),
        ("netscape/bad-date", 5, 38),
        ("netscape/unknown-attribute", 5, 59),
        ("netscape/duplicate-attribute", 6, 20),
        // Markup in a description is the file's, and checked as such.
        ("netscape/unknown-attribute", 8, 67),
        ("netscape/unbalanced-dl", 11, 1),
        ("netscape/unbalanced-dl", 12, 1),
    ];
    let want: Vec<_> = want.iter().map(|&(r, l, c)| (r.to_owned(), l, c)).collect();
    assert_eq!(rules(&read.diagnostics), want);
}

#[test]
fn without_checking_the_reading_is_the_same_and_says_no_rule() {
    let plain = markport_netscape::read(BROKEN.as_bytes(), &ReadOptions::default()).unwrap();
    let checked = markport_netscape::read(BROKEN.as_bytes(), &checking()).unwrap();
    assert!(plain.diagnostics.iter().all(|d| d.rule.is_none()));
    assert!(markport_model::diff(&plain.document, &checked.document).is_empty());
    let untagged: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| d.rule.is_none())
        .collect();
    assert_eq!(untagged.len(), plain.diagnostics.len());
}

#[test]
fn what_markport_writes_breaks_no_rule_though_it_carries_any_attribute() {
    let mut doc = Document::new();
    let mut b = markport_model::Bookmark::new("https://e.example/");
    b.details_mut()
        .extra
        .push(markport_model::Attribute::new("DATA-FROM-ELSEWHERE", "1"));
    doc.push(None, b);
    let mut out = Vec::new();
    markport_netscape::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let read = markport_netscape::read(&out, &checking()).unwrap();
    assert_eq!(rules(&read.diagnostics), []);
    // Without markport's generator, the attribute is no one's.
    let text = String::from_utf8(out).unwrap();
    let generator = "<META NAME=\"generator\" CONTENT=\"markport\">";
    assert!(text.contains(generator));
    let other = text.replace(generator, "");
    let read = markport_netscape::read(other.as_bytes(), &checking()).unwrap();
    let found = rules(&read.diagnostics);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "netscape/unknown-attribute");
}

#[test]
fn a_charset_mismatch_is_placed_in_the_bytes() {
    let mut file = b"<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n<DL><p>\n    <DT><A HREF=\"https://e.example/\">caf"
        .to_vec();
    file.extend_from_slice(b"\xe9</A>\n</DL><p>\n");
    let read = markport_netscape::read(&file, &checking()).unwrap();
    assert_eq!(
        rules(&read.diagnostics),
        [("netscape/charset-mismatch".to_owned(), 4, 41)]
    );
}

#[test]
fn a_file_not_read_keeps_what_the_rules_found() {
    let e = markport_netscape::read(b"", &checking()).unwrap_err();
    assert_eq!(rules(&e.found), [("netscape/doctype".to_owned(), 1, 1)]);
    let e = markport_netscape::read(b"", &ReadOptions::default()).unwrap_err();
    assert!(e.found.is_empty());
}

/// A problem every few bytes: the reader keeps the first of each rule up
/// to the limit and counts the rest in one more, at the last.
#[test]
fn findings_of_one_rule_are_counted_past_the_limit() {
    let n = 5_000;
    let names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
    let html = format!(
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF=\"https://e.example/\" {}>t</A>\n</DL><p>\n",
        names.join(" ")
    );
    let read = markport_netscape::read(html.as_bytes(), &checking()).unwrap();
    let tagged: Vec<_> = read
        .diagnostics
        .iter()
        .filter(|d| d.rule.is_some())
        .collect();
    let limit = markport_model::rule::LIMIT_PER_RULE;
    assert_eq!(tagged.len(), limit + 1);
    let last = tagged[limit];
    assert!(
        last.message.starts_with(&format!("{} more", n - limit)),
        "{last:?}"
    );
    let column = html.find(&format!("a{}", n - 1)).unwrap() - html.find("<DT>").unwrap() + 1;
    assert_eq!(last.location.unwrap().column as usize, column);
}

/// Checking changes nothing of the reading: every Netscape sample of the
/// corpus, the broken ones too, reads to the same outcome and document.
#[test]
fn checking_reads_every_sample_as_reading_does() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut files: Vec<_> = std::fs::read_dir(corpus.join("netscape"))
        .unwrap()
        .chain(std::fs::read_dir(corpus.join("check")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    assert!(files.len() > 15, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let plain = markport_netscape::read(&bytes, &ReadOptions::default());
        let checked = markport_netscape::read(&bytes, &checking());
        match (plain, checked) {
            (Ok(p), Ok(c)) => assert!(
                markport_model::diff(&p.document, &c.document).is_empty(),
                "{}",
                file.display()
            ),
            (Err(p), Err(c)) => assert_eq!(p.message, c.message, "{}", file.display()),
            (p, c) => panic!(
                "{}: {:?} but checking {:?}",
                file.display(),
                p.err(),
                c.err()
            ),
        }
    }
}
