//! The reader with `ReadOptions::checking`: every rule of `markport check`
//! the file breaks, tagged, at the line and column check reports, found in
//! the reader's one pass.

use markport_model::{Diagnostic, Error, ReadOptions};

fn checking() -> ReadOptions {
    let mut opts = ReadOptions::default();
    opts.checking = true;
    opts
}

/// (line, column, rule) of each tagged diagnostic, in order of position.
fn tagged(found: &[Diagnostic]) -> Vec<(u32, u32, &str)> {
    let mut out: Vec<_> = found
        .iter()
        .filter_map(|d| {
            let rule = d.rule.as_deref()?;
            let loc = d.location.expect("a finding has a place");
            Some((loc.line, loc.column, rule))
        })
        .collect();
    out.sort();
    out
}

fn check_xbel(text: &str) -> Vec<(u32, u32, String)> {
    let read = markport_xbel::read(text.as_bytes(), &checking()).unwrap();
    tagged(&read.diagnostics)
        .into_iter()
        .map(|(l, c, r)| (l, c, r.to_string()))
        .collect()
}

fn fatal(result: Result<markport_model::Parsed, Error>) -> Error {
    match result {
        Ok(read) => panic!("read, with {:?}", read.diagnostics),
        Err(e) => e,
    }
}

const BROKEN: &str = r#"<?xml version="1.0"?>
<xbel version="1.1">
  <folder id="a" folded="maybe"><title>One</title><title>Two</title></folder>
  <folder id="a"><desc>x</desc><title>late</title></folder>
  <bookmark added="yesterday" color="red"/>
  <alias ref="nowhere"/>
  <info></info>
  stray
</xbel>
"#;

#[test]
fn checking_tags_each_rule_at_its_place() {
    let got = check_xbel(BROKEN);
    let want: Vec<(u32, u32, String)> = [
        (2, 7, "xbel/version"),
        (3, 18, "xbel/bad-attribute-value"),
        (3, 51, "xbel/element-order"),
        (4, 11, "xbel/duplicate-id"),
        (4, 32, "xbel/element-order"),
        (5, 3, "xbel/bookmark-without-href"),
        (5, 13, "xbel/bad-date"),
        (5, 31, "xbel/unknown-attribute"),
        (6, 10, "xbel/dangling-alias"),
        // An <info> after the content, and empty.
        (7, 3, "xbel/element-order"),
        (7, 3, "xbel/empty-info"),
        (8, 3, "xbel/text-not-allowed"),
    ]
    .into_iter()
    .map(|(l, c, r)| (l, c, r.to_string()))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn without_checking_the_reader_tags_nothing_and_reads_the_same() {
    let plain = markport_xbel::read(BROKEN.as_bytes(), &ReadOptions::default()).unwrap();
    assert!(plain.diagnostics.iter().all(|d| d.rule.is_none()));
    let checked = markport_xbel::read(BROKEN.as_bytes(), &checking()).unwrap();
    assert!(markport_model::diff(&plain.document, &checked.document).is_empty());
    // What the reader says of how it read is said either way.
    let untagged: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| d.rule.is_none())
        .collect();
    assert_eq!(untagged.len(), plain.diagnostics.len());
}

#[test]
fn a_file_not_well_formed_ends_in_its_rule_keeping_what_came_before() {
    let text = "<?xml version=\"1.0\"?>\n<xbel>\n  <bookmark href=\"x\" added=\"soon\">\n  </folder>\n</xbel>\n";
    let e = fatal(markport_xbel::read(text.as_bytes(), &checking()));
    assert_eq!(e.rule, Some("xbel/not-well-formed"));
    let loc = e.location.unwrap();
    assert_eq!((loc.line, loc.column), (4, 3), "{e:?}");
    assert_eq!(
        tagged(&e.found),
        [(2, 1, "xbel/missing-version"), (3, 22, "xbel/bad-date")]
    );
    // Without checking: the same error, untagged, nothing kept.
    let e = fatal(markport_xbel::read(
        text.as_bytes(),
        &ReadOptions::default(),
    ));
    assert_eq!((e.rule, e.found.len()), (None, 0));
}

#[test]
fn a_file_that_ends_inside_an_element_is_not_well_formed_where_it_opened() {
    let text = "<xbel version=\"1.0\">\n  <folder>\n    <title>x</title>\n";
    let e = fatal(markport_xbel::read(text.as_bytes(), &checking()));
    assert_eq!(e.rule, Some("xbel/not-well-formed"));
    let loc = e.location.unwrap();
    assert_eq!((loc.line, loc.column), (2, 3));
}

#[test]
fn what_stops_the_reader_does_not_stop_the_checking() {
    // A repeated attribute ends the reading; checking lists it and goes
    // on to the date after it.
    let text = "<xbel version=\"1.0\">\n<bookmark href=\"a\" href=\"b\"/>\n<bookmark href=\"c\" added=\"never\"/>\n</xbel>";
    let e = fatal(markport_xbel::read(
        text.as_bytes(),
        &ReadOptions::default(),
    ));
    assert!(e.message.contains("given twice"), "{e}");
    assert_eq!(
        check_xbel(text),
        [
            (2, 20, "xbel/not-well-formed".to_string()),
            (3, 20, "xbel/bad-date".to_string())
        ]
    );
}

#[test]
fn the_events_of_metadata_blocks_are_checked_too() {
    // A foreign block is skipped whole by the reader, and a markport block
    // read on its own: the checker sees both.
    let text = concat!(
        "<xbel version=\"1.0\">\n",
        "<bookmark href=\"https://example.org/\"><info>\n",
        "  <metadata owner=\"https://example.org/ns\"><x a=\"1\" a=\"2\"/></metadata>\n",
        "  <metadata owner=\"https://example.org/ns\"/>\n",
        "</info></bookmark>\n",
        "</xbel>\n"
    );
    assert_eq!(
        check_xbel(text),
        [
            (3, 53, "xbel/not-well-formed".to_string()),
            (4, 13, "xbel/duplicate-owner".to_string())
        ]
    );
}

#[test]
fn desktop_rules_are_found_inside_the_freedesktop_block() {
    let text = concat!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<xbel version=\"1.0\" xmlns:bookmark=\"http://www.freedesktop.org/standards/desktop-bookmarks\"\n",
        "      xmlns:mime=\"http://www.freedesktop.org/standards/shared-mime-info\">\n",
        "  <bookmark href=\"file:///home/ana/a.txt\" added=\"2024-05-01\"><info>\n",
        "    <metadata owner=\"http://freedesktop.org\">\n",
        "      <mime:mime-type type=\"text/plain\"/>\n",
        "      <bookmark:applications>\n",
        "        <bookmark:application name=\"gedit\" exec=\"gedit %u\" modified=\"2024-05-01T08:00:00Z\" count=\"0\"/>\n",
        "      </bookmark:applications>\n",
        "      <bookmark:private>yes</bookmark:private>\n",
        "    </metadata>\n",
        "  </info></bookmark>\n",
        "</xbel>\n"
    );
    let read = markport_xbel::read_desktop(text.as_bytes(), &checking()).unwrap();
    assert_eq!(
        tagged(&read.diagnostics),
        [
            (4, 43, "desktop/bad-date"),
            (8, 92, "desktop/bad-count"),
            (10, 25, "desktop/bad-private"),
        ]
    );
    // The block is read all the same.
    let doc = &read.document;
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(b.details().desktop().applications[0].name, "gedit");
    // Plain XBEL has no desktop rules: a date XBEL takes is no finding.
    assert_eq!(check_xbel(text), []);
}

#[test]
fn bytes_not_in_their_encoding_are_found_and_the_rest_checked() {
    let mut bytes =
        b"<?xml version=\"1.0\"?>\n<xbel version=\"1.0\">\n<bookmark href=\"a\"><title>caf"
            .to_vec();
    bytes.extend_from_slice(b"\xe9</title></bookmark>\n<bookmark/>\n</xbel>\n");
    // The reader alone refuses the file.
    assert!(markport_xbel::read(&bytes, &ReadOptions::default()).is_err());
    let read = markport_xbel::read(&bytes, &checking()).unwrap();
    assert_eq!(
        tagged(&read.diagnostics),
        [
            (3, 30, "xbel/encoding-mismatch"),
            (4, 1, "xbel/bookmark-without-href"),
        ]
    );
}

#[test]
fn a_100000_deep_file_checks_and_reads_like_a_flat_one() {
    let depth = 100_000;
    let mut text = String::from("<?xml version=\"1.0\"?>\n<xbel version=\"1.0\">");
    text.push_str(&"<folder>".repeat(depth));
    text.push_str("<bookmark href=\"https://example.org/\" added=\"then\"/>");
    text.push_str(&"</folder>".repeat(depth));
    text.push_str("</xbel>\n");
    let read = markport_xbel::read(text.as_bytes(), &checking()).unwrap();
    assert_eq!(read.document.census().folders, depth);
    let column = 21 + 8 * depth as u32 + 38;
    assert_eq!(tagged(&read.diagnostics), [(2, column, "xbel/bad-date")]);
}

#[test]
fn the_rules_are_declared_once_with_the_format() {
    let ids: Vec<_> = markport_xbel::FORMAT.rules.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), 24);
    assert!(ids.iter().all(|id| id.starts_with("xbel/")));
    assert!(markport_xbel::DESKTOP_RULES
        .iter()
        .all(|r| r.id.starts_with("desktop/")));
}

#[test]
fn reading_and_checking_take_the_same_encoding() {
    // UTF-16 declared in one-byte characters, no byte order mark: both
    // read the file as the UTF-8 it is; checking says the declaration is
    // wrong.
    let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<xbel version=\"1.0\"><bookmark href=\"https://example.org/caf\u{e9}\"/></xbel>\n";
    let plain = markport_xbel::read(text.as_bytes(), &ReadOptions::default()).unwrap();
    let checked = markport_xbel::read(text.as_bytes(), &checking()).unwrap();
    for doc in [&plain.document, &checked.document] {
        let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
        assert_eq!(b.href, "https://example.org/caf\u{e9}");
    }
    assert_eq!(
        tagged(&checked.diagnostics),
        [(1, 1, "xbel/encoding-mismatch")]
    );
    // ISO-8859-1 declared: é is one byte, read as declared by both.
    let mut latin = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<xbel version=\"1.0\"><bookmark href=\"https://example.org/caf".to_vec();
    latin.extend_from_slice(b"\xe9\"/></xbel>\n");
    for opts in [ReadOptions::default(), checking()] {
        let read = markport_xbel::read(&latin, &opts).unwrap();
        let doc = &read.document;
        let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
        assert_eq!(b.href, "https://example.org/caf\u{e9}");
        assert!(read.diagnostics.iter().all(|d| d.rule.is_none()));
    }
}

/// A rule found on every line is kept 1,000 times and counted past that,
/// in one finding more at the last: the reader holds no more messages than
/// check lists.
#[test]
fn findings_of_one_rule_are_kept_to_the_limit_and_counted_past_it() {
    let file = format!(
        "<xbel version=\"1.0\">\n{}</xbel>\n",
        "<bookmark/>\n".repeat(2_500)
    );
    let mut opts = markport_model::ReadOptions::default();
    opts.checking = true;
    let read = markport_xbel::read(file.as_bytes(), &opts).unwrap();
    let found: Vec<_> = read
        .diagnostics
        .iter()
        .filter(|d| d.rule.as_deref() == Some("xbel/bookmark-without-href"))
        .collect();
    let limit = markport_model::rule::LIMIT_PER_RULE;
    assert_eq!(found.len(), limit + 1);
    assert!(
        found[limit].message.starts_with("1500 more problems"),
        "{}",
        found[limit].message
    );
    assert_eq!(found[limit].location.unwrap().line, 2_501);
}
