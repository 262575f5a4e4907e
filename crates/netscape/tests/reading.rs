//! Reading real-world shapes of Netscape HTML, and writing them back.

use markport_model::{diff, DateValue, Document, Node, ReadOptions, Role, WriteOptions};

fn read(input: &str) -> markport_model::Parsed {
    markport_netscape::read(input.as_bytes(), &ReadOptions::default()).expect("reads")
}

fn roundtrip(doc: &Document) -> Document {
    let mut out = Vec::new();
    let loss = markport_netscape::write(doc, &WriteOptions::default(), &mut out).unwrap();
    assert!(loss.is_empty(), "{loss:?}");
    let back = markport_netscape::read(&out, &ReadOptions::default()).unwrap();
    assert!(
        diff(doc, &back.document).is_empty(),
        "{}",
        String::from_utf8_lossy(&out)
    );
    back.document
}

fn hrefs(doc: &Document) -> Vec<String> {
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark().map(|b| b.href.clone()))
        .collect()
}

#[test]
fn lower_case_one_line_no_dt_no_p_and_any_heading_level() {
    let r = read(
        "<dl><h2>One</h2><dl><a href=a>A</a><h4 folded>Two</h4><dl><a href=b>B</a></dl></dl><a href=c>C</a></dl>",
    );
    let doc = &r.document;
    assert_eq!(hrefs(doc), ["a", "b", "c"]);
    let two = doc.find_by_href("b").and_then(|b| doc.parent(b)).unwrap();
    assert_eq!(doc.path(two), "One/Two");
    assert_eq!(doc.node(two).as_folder().unwrap().folded, Some(true));
    assert_eq!(doc.parent(doc.find_by_href("c").unwrap()), None);
    roundtrip(doc);
}

#[test]
fn missing_and_extra_closing_lists() {
    let r = read("<DL><p><DT><H3>F</H3><DL><p><DT><A HREF=\"x\">X</A>");
    assert_eq!(r.document.census().folders, 1);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("still open")));
    let r = read("<DL><p><DT><A HREF=\"x\">X</A></DL></DL></DL><DT><A HREF=\"y\">Y</A>");
    assert_eq!(hrefs(&r.document), ["x", "y"]);
    assert!(r.document.children(None).len() == 2);
}

#[test]
fn descriptions_are_text_and_belong_to_what_precedes_them() {
    let r = read(
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>T</TITLE><H1>T</H1>\n<DD>About these.\n<DL><p>\n<DT><H3>F</H3>\n<DD>Folder note\n<DL><p>\n<DT><A HREF=\"https://a/\">A</A>\n<DD>Look: <a href=\"https://evil/\">not a bookmark</a> &amp; <script>alert(1)</script>\nsecond line\n</DL><p>\n</DL>",
    );
    let doc = &r.document;
    assert_eq!(doc.header.desc.as_deref(), Some("About these."));
    assert_eq!(hrefs(doc), ["https://a/"]);
    let f = doc.node(doc.children(None)[0]).as_folder().unwrap();
    assert_eq!(f.desc.as_deref(), Some("Folder note"));
    let a = doc
        .node(doc.find_by_href("https://a/").unwrap())
        .as_bookmark()
        .unwrap();
    assert_eq!(
        a.desc.as_deref(),
        Some("Look: <a href=\"https://evil/\">not a bookmark</a> & <script>alert(1)</script>\nsecond line")
    );
    let back = roundtrip(doc);
    assert_eq!(hrefs(&back), ["https://a/"]);
}

#[test]
fn every_attribute_goes_to_its_field_and_unknown_ones_stay_in_order() {
    let r = read(
        r#"<DT><H3 ADD_DATE="1" UNFILED_BOOKMARKS_FOLDER="true" X-ZETA="z">U</H3><DL><p>
<DT><A HREF="h" ADD_DATE="1700000000123" LAST_MODIFIED="0" LAST_VISIT="1700000000123456" ICON="data:," ICON_URI="u" SHORTCUTURL="k" POST_DATA="p" FEEDURL="f" LAST_CHARSET="c" ID="i" TAGS=" a, b ,,c d ," PRIVATE="1" TOREAD="0" UUID="u-1" WEB_PANEL="true" SYNCED="1">t</A>
</DL>"#,
    );
    let doc = &r.document;
    let f = doc.node(doc.children(None)[0]).as_folder().unwrap();
    assert_eq!(f.role, Some(Role::Unfiled));
    assert_eq!(f.extra[0].name, "X-ZETA");
    let b = doc
        .node(doc.find_by_href("h").unwrap())
        .as_bookmark()
        .unwrap();
    let secs = |d: &Option<DateValue>| {
        d.as_ref()
            .and_then(|d| d.instant())
            .map(|t| (t.unix_seconds(), t.subsec_nanos()))
    };
    assert_eq!(secs(&b.added), Some((1700000000, 123_000_000)));
    assert_eq!(b.modified, None);
    assert_eq!(secs(&b.details().visited), Some((1700000000, 123_456_000)));
    assert_eq!(
        (
            b.favicon.as_deref(),
            b.details().favicon_uri.as_deref(),
            b.details().firefox().keyword.as_deref(),
            b.details().firefox().post_data.as_deref()
        ),
        (Some("data:,"), Some("u"), Some("k"), Some("p"))
    );
    assert_eq!(
        (
            b.details().firefox().feed_url.as_deref(),
            b.details().firefox().charset.as_deref(),
            b.details().id.as_deref()
        ),
        (Some("f"), Some("c"), Some("i"))
    );
    assert_eq!(b.tags, ["a", "b", "c d"]);
    assert_eq!((b.private, b.to_read), (Some(true), Some(false)));
    let names: Vec<&str> = b.details().extra.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["UUID", "WEB_PANEL", "SYNCED"]);
    // Sub-second dates are written in seconds, and that is reported.
    let mut out = Vec::new();
    let loss = markport_netscape::write(doc, &WriteOptions::default(), &mut out).unwrap();
    let lost: Vec<&str> = loss.fields().iter().map(|f| f.name()).collect();
    assert_eq!(lost, ["bookmark.added", "bookmark.visited"]);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(r#"ADD_DATE="1700000000""#), "{text}");
    assert!(
        text.contains(r#"UUID="u-1" WEB_PANEL="true" SYNCED="1""#),
        "{text}"
    );
}

#[test]
fn unreadable_dates_are_kept_with_a_located_warning() {
    let r = read("<DL>\n<DT><A HREF=\"x\" ADD_DATE=\"invaliddate\">X</A>\n</DL>");
    let b = r
        .document
        .node(r.document.children(None)[0])
        .as_bookmark()
        .unwrap()
        .clone();
    assert_eq!(b.added, Some(DateValue::Raw("invaliddate".into())));
    let w = r
        .diagnostics
        .iter()
        .find(|d| d.message.contains("not a date"))
        .unwrap();
    assert_eq!(w.location.map(|l| (l.line, l.column)), Some((2, 17)));
    roundtrip(&r.document);
}

#[test]
fn hostile_text_is_escaped_and_reads_back() {
    let mut doc = Document::new();
    doc.header.title = Some("<script>alert('t')</script> & \"q\"".into());
    let mut b = markport_model::Bookmark::new("https://x/?a=1&b=\"2\"'");
    b.title = Some("</A><DT><A HREF=\"https://evil/\">evil".into());
    b.desc = Some("<DT><A HREF=\"https://evil/\">evil</A>\r\nline".into());
    b.tags = vec!["a\"b".into(), "<c>".into()];
    doc.push(None, b);
    let mut out = Vec::new();
    markport_netscape::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(
        !text.contains("<script>") && !text.contains("https://evil/\">"),
        "{text}"
    );
    let back = roundtrip(&doc);
    assert_eq!(hrefs(&back), ["https://x/?a=1&b=\"2\"'"]);
}

#[test]
fn a_huge_icon_and_deep_nesting_read_in_linear_time() {
    let icon = format!("data:image/png;base64,{}", "A".repeat(8 << 20));
    let input = format!("<DL><p><DT><A HREF=\"x\" ICON=\"{icon}\">X</A></DL>");
    let r = read(&input);
    let b = r
        .document
        .node(r.document.children(None)[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(b.favicon.as_ref().map(String::len), Some(icon.len()));

    let depth = 100_000;
    let mut deep = String::from("<DL><p>\n");
    for i in 0..depth {
        deep.push_str(&format!("<DT><H3>{i}</H3>\n<DL><p>\n"));
    }
    deep.push_str("<DT><A HREF=\"bottom\">B</A>\n");
    for _ in 0..depth {
        deep.push_str("</DL><p>\n");
    }
    deep.push_str("</DL>\n");
    let r = read(&deep);
    assert_eq!(r.document.max_depth(), depth);
    assert!(r.diagnostics.is_empty(), "{:?}", &r.diagnostics[..1]);
    let mut out = Vec::new();
    markport_netscape::write(&r.document, &WriteOptions::default(), &mut out).unwrap();
    // Indentation is capped, so the output grows linearly with depth.
    let per_level = 3 * 4 * markport_netscape::MAX_INDENT_DEPTH + 64;
    assert!(out.len() < depth * per_level, "{} bytes", out.len());
    let back = markport_netscape::read(&out, &ReadOptions::default()).unwrap();
    assert!(diff(&r.document, &back.document).is_empty());
}

#[test]
fn encoding_can_be_forced() {
    let bytes = b"<DL><DT><A HREF=\"x\">\x82\xa0</A></DL>";
    let mut opts = ReadOptions::default();
    opts.encoding = Some("shift_jis".into());
    let r = markport_netscape::read(bytes, &opts).unwrap();
    let t = r
        .document
        .node(r.document.children(None)[0])
        .title()
        .unwrap()
        .to_string();
    assert_eq!(t, "\u{3042}");
    assert!(matches!(
        r.document.node(r.document.children(None)[0]),
        Node::Bookmark(_)
    ));
}

#[test]
fn control_characters_survive_a_round_trip() {
    // Fuzzer find: a title holding NUL was reported lost though it reads back.
    let r = read("<DL><DT><A HREF=\"x\">a\u{0}\u{0}/A>\n\t</DL>");
    let title = r
        .document
        .node(r.document.children(None)[0])
        .title()
        .unwrap()
        .to_string();
    assert_eq!(title, "a\u{0}\u{0}/A>");
    roundtrip(&r.document);
}

#[test]
fn an_alias_left_out_reports_the_separator_it_moves() {
    // Fuzzer find: the separator after an unwritable alias moved unreported.
    let mut doc = Document::new();
    doc.push(None, markport_model::Alias::new("nowhere"));
    doc.push(None, markport_model::Separator::default());
    let mut out = Vec::new();
    let loss = markport_netscape::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let back = markport_netscape::read(&out, &ReadOptions::default()).unwrap();
    assert_eq!(diff(&doc, &back.document).fields(), loss.fields());
    assert!(loss.fields().contains(&markport_model::Field::Separator));
}

#[test]
fn an_alias_never_shows_itself_or_another_alias() {
    // Fuzzer find: a copy carrying both ALIASID and ALIASOF became an alias of itself.
    let r = read(
        "<DL><DT><A HREF=\"a\" ALIASID=\"0\" ALIASOF=\"0\">T</A>\n<DT><A HREF=\"a\" ALIASOF=\"0\">T</A>\n<DT><A HREF=\"a\" ID=\"0\">T</A></DL>",
    );
    let kinds: Vec<_> = r
        .document
        .preorder()
        .map(|id| r.document.node(id).kind())
        .collect();
    use markport_model::NodeKind::{Alias, Bookmark};
    assert_eq!(kinds, [Alias, Alias, Bookmark]);
    roundtrip(&r.document);
}

/// One line of many unreadable dates: each warning is located by its own
/// column (counted from a checkpoint, not from the start of the line), and
/// every date is kept as written.
#[test]
fn many_bad_dates_on_one_line_are_each_located() {
    let n = 5000;
    let mut input = String::from("<DL><p>");
    for i in 0..n {
        input.push_str(&format!("<DT><A HREF=\"h{i}\" ADD_DATE=\"é{i}\">T</A>"));
    }
    input.push_str("</DL>");
    let r = read(&input);
    let warnings: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("not a date"))
        .collect();
    assert_eq!(warnings.len(), n);
    let (mut column, mut counted) = (1, 0);
    for (i, (w, (at, _))) in warnings
        .iter()
        .zip(input.match_indices("ADD_DATE"))
        .enumerate()
    {
        column += input[counted..at].chars().count() as u32;
        counted = at;
        assert_eq!(w.location.unwrap().line, 1);
        assert_eq!(w.location.unwrap().column, column, "warning {i}");
    }
    let last = r.document.find_by_href(&format!("h{}", n - 1)).unwrap();
    assert_eq!(
        r.document.node(last).as_bookmark().unwrap().added,
        Some(DateValue::Raw(format!("é{}", n - 1).into()))
    );
}

/// An `<A>` with many attributes keeps every one, and only a repeated name
/// (any case, early or late) is dropped with a note.
#[test]
fn many_attributes_on_one_tag_keep_the_first_of_each_name() {
    let mut input = String::from("<DL><p><DT><A HREF=\"x\"");
    for i in 0..5000 {
        input.push_str(&format!(" DATA-{i}=\"{i}\""));
    }
    input.push_str(" data-4000=\"again\" HREF=\"y\" data-3=\"again\">X</A></DL>");
    let r = read(&input);
    let b = r
        .document
        .node(r.document.children(None)[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(b.href, "x");
    let extra = &b.details().extra;
    assert_eq!(extra.len(), 5000);
    assert_eq!(extra[4000].name, "DATA-4000");
    assert_eq!(extra[4000].value, "4000");
    let notes: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("given twice"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        notes,
        [
            "data-4000 is given twice; the first value is used",
            "HREF is given twice; the first value is used",
            "data-3 is given twice; the first value is used"
        ]
    );
}

/// Nothing of a bookmark file at all is an error, not an empty collection;
/// an empty export (DOCTYPE and an empty list) is still read.
#[test]
fn input_without_bookmark_structure_is_the_wrong_format() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01";
    for input in [
        &b""[..],
        b"hello, world\n",
        png,
        b"<html><body><p>text</p></body></html>",
    ] {
        let err = markport_netscape::read(input, &ReadOptions::default()).unwrap_err();
        assert_eq!(
            err.kind,
            markport_model::ErrorKind::WrongFormat,
            "{input:?}"
        );
        assert!(
            err.message.contains("no bookmark structure"),
            "{}",
            err.message
        );
        assert!(err.location.is_some());
    }
    for empty in [
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n</DL><p>\n",
        "<DL><p></DL>",
    ] {
        assert!(read(empty).document.is_empty());
    }
}

/// A Pocket export is recognised by content, and reading it names Pocket.
#[test]
fn a_pocket_export_is_detected_and_named() {
    let pocket = "<!DOCTYPE html>\n<html><head><title>Pocket Export</title></head><body>\n<h1>Unread</h1>\n<ul>\n<li><a href=\"https://e/\" time_added=\"1700000000\" tags=\"a,b\">E</a></li>\n</ul>\n</body></html>\n";
    assert!(markport_netscape::detect(pocket.as_bytes()).is_some());
    let err = markport_netscape::read(pocket.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert!(err.message.contains("Pocket"), "{}", err.message);
}

/// A title with line breaks is written on its element's line, each break
/// as a character reference (Chromium's importer reads one line per
/// element and drops one written over two lines), and reads back exactly.
#[test]
fn titles_with_line_breaks_are_written_as_references_on_one_line_and_read_back() {
    use markport_model::{Bookmark, Folder};
    let mut doc = Document::new();
    doc.header.title = Some("My\nbookmarks".into());
    let f = doc.push(None, Folder::titled("Fol\r\nder"));
    let mut b = Bookmark::new("https://e/");
    b.title = Some("Line one\nline two\rthree\n\nfour".into());
    b.desc = Some("first\nsecond\r\nthird".into());
    doc.push(Some(f), b);
    let mut out = Vec::new();
    markport_netscape::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(
        text.contains(">Line one&#10;line two&#13;three&#10;&#10;four</A>\n"),
        "{text}"
    );
    assert!(text.contains(">Fol&#13;&#10;der</H3>\n"), "{text}");
    assert!(text.contains("<TITLE>My&#10;bookmarks</TITLE>"), "{text}");
    for line in text.lines() {
        if line.contains("<A ")
            || line.contains("<H3")
            || line.contains("<TITLE>")
            || line.contains("<H1")
        {
            assert!(
                line.contains("</A>")
                    || line.contains("</H3>")
                    || line.contains("</TITLE>")
                    || line.contains("</H1>"),
                "{line}"
            );
        }
    }
    // Nothing reported, and nothing changed: the titles, and the
    // description (its breaks written as they are, one `<DD>` over several
    // lines), read back as they were.
    roundtrip(&doc);
}

/// A line break at either end of a title reads as the file's layout (an
/// element laid out over several lines) and is dropped; the writer says so.
#[test]
fn a_line_break_at_either_end_of_a_title_is_reported() {
    use markport_model::{Bookmark, Field};
    let mut doc = Document::new();
    for title in ["\nleading", "trailing \r\n", "inner\nonly"] {
        let mut b = Bookmark::new("https://e/");
        b.title = Some(title.into());
        doc.push(None, b);
    }
    let mut out = Vec::new();
    let loss = markport_netscape::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let back = markport_netscape::read(&out, &ReadOptions::default())
        .unwrap()
        .document;
    let titles: Vec<_> = back
        .preorder()
        .filter_map(|id| back.node(id).title().map(str::to_owned))
        .collect();
    assert_eq!(titles, ["leading", "trailing", "inner\nonly"]);
    let only_titles = std::collections::BTreeSet::from([Field::BookmarkTitle]);
    assert_eq!(loss.fields(), only_titles);
    assert_eq!(diff(&doc, &back).fields(), only_titles);
}

#[test]
fn an_untitled_bookmark_shows_its_link_and_reads_back_untitled() {
    use markport_model::{Bookmark, Field};
    let mut doc = Document::new();
    doc.push(None, Bookmark::new("https://untitled.example/a?b=1&c=2"));
    // A real title that is the link, from a browser that names untitled pages so.
    doc.push(
        None,
        Bookmark::new("https://named.example/").with_title("https://named.example/"),
    );
    let mut out = Vec::new();
    let loss = markport_netscape::write(&doc, &WriteOptions::default(), &mut out).unwrap();
    let html = String::from_utf8(out.clone()).unwrap();
    // Every browser lists it: the link is the text.
    assert!(html.contains(
        r#"<A HREF="https://untitled.example/a?b=1&amp;c=2" MARKPORT_UNTITLED="1">https://untitled.example/a?b=1&amp;c=2</A>"#
    ), "{html}");
    assert!(html.contains(r#"<A HREF="https://named.example/">https://named.example/</A>"#));
    // Only markport reads the marker, so the untitled state is an extension, not a loss.
    assert!(loss.is_empty(), "{loss:?}");
    assert_eq!(
        loss.extensions.iter().map(|l| l.field).collect::<Vec<_>>(),
        [Field::BookmarkTitle]
    );
    let back = markport_netscape::read(&out, &ReadOptions::default())
        .unwrap()
        .document;
    assert!(diff(&doc, &back).is_empty());
    let titles: Vec<_> = back
        .preorder()
        .map(|id| back.node(id).as_bookmark().unwrap().title.clone())
        .collect();
    assert_eq!(titles, [None, Some("https://named.example/".to_owned())]);
    assert!(back.preorder().all(|id| {
        let b = back.node(id).as_bookmark().unwrap();
        b.details().extra.is_empty()
    }));
}

#[test]
fn a_marked_bookmark_given_a_title_since_keeps_it() {
    let r = read(
        r#"<DL><p><DT><A HREF="https://a.example/" MARKPORT_UNTITLED="1">Renamed by hand</A>
<DT><A HREF="https://b.example/" MARKPORT_UNTITLED="1">https://b.example/</A></DL>"#,
    );
    let titles: Vec<_> = r
        .document
        .preorder()
        .map(|id| r.document.node(id).as_bookmark().unwrap().title.clone())
        .collect();
    assert_eq!(titles, [Some("Renamed by hand".to_owned()), None]);
}

#[test]
fn strict_reading_fails_on_the_first_warning_at_its_place() {
    let input = b"<DL>\n<DT><A HREF=\"x\" ADD_DATE=\"invaliddate\">X</A>\n</DL>";
    let mut opts = ReadOptions::default();
    opts.strict = true;
    let err = markport_netscape::read(input, &opts).unwrap_err();
    assert_eq!(err.kind, markport_model::ErrorKind::Strict);
    assert_eq!(err.location.map(|l| (l.line, l.column)), Some((2, 17)));
    assert!(err.message.ends_with("(--strict)"), "{}", err.message);
}

/// The titles of the document's folders and bookmarks, in order.
fn titles(doc: &Document) -> Vec<Option<String>> {
    doc.preorder()
        .filter_map(|id| match doc.node(id) {
            Node::Folder(f) => Some(f.title.clone()),
            Node::Bookmark(b) => Some(b.title.clone()),
            _ => None,
        })
        .collect()
}

/// Titles keep the white space written on their line, as the browsers'
/// imports keep it (docs/formats/netscape.md, "White space in titles");
/// a run of white space holding a line break at either end is the file's
/// layout and is dropped. Written back, each title reads back the same.
#[test]
fn titles_keep_the_white_space_written_on_their_line() {
    let r = read(concat!(
        "<DL><p>\n",
        "<DT><H3>Folder with space </H3>\n<DL><p>\n",
        "<DT><A HREF=\"https://a.example/\"> Leading</A>\n",
        "<DT><A HREF=\"https://b.example/\">\tTabs\t</A>\n",
        "<DT><A HREF=\"https://c.example/\">Inner   three  spaces</A>\n",
        "<DT><A HREF=\"https://d.example/\">nbsp\u{a0}</A>\n",
        "<DT><A HREF=\"https://e.example/\">&#32;entity&#32;</A>\n",
        "<DT><A HREF=\"https://f.example/\">   </A>\n",
        "</DL><p>\n",
        "<DT><H3>\n    Laid out\n  </H3>\n<DL><p>\n",
        "<DT><A HREF=\"https://g.example/\">\n  Over lines \n</A>\n",
        "<DT><A HREF=\"https://h.example/\"> Same line \n</A>\n",
        "</DL><p>\n",
        "</DL><p>\n",
    ));
    let doc = &r.document;
    let want = [
        "Folder with space ",
        " Leading",
        "\tTabs\t",
        "Inner   three  spaces",
        "nbsp\u{a0}",
        " entity ",
        "   ",
        "Laid out",
        "Over lines",
        " Same line",
    ];
    let want: Vec<Option<String>> = want.iter().map(|t| Some(t.to_string())).collect();
    assert_eq!(titles(doc), want);
    let back = roundtrip(doc);
    assert_eq!(titles(&back), want);
}

/// `<DT><A HREF=a>` is sixteen bytes and a bookmark of a few hundred: a
/// file of 2,000 such reads within its own budget and is refused, where it
/// passes a smaller one, naming the flag.
#[test]
fn a_file_of_tiny_bookmarks_is_refused_past_its_budget() {
    let file = "<DL><DT><A HREF=a>\n".repeat(2_000);
    let doc = markport_netscape::read(file.as_bytes(), &Default::default())
        .unwrap()
        .document;
    assert_eq!(doc.len(), 2_000);
    let mut small = markport_model::ReadOptions::default();
    small.memory_budget = Some(300_000);
    let e = markport_netscape::read(file.as_bytes(), &small).unwrap_err();
    assert_eq!(e.kind, markport_model::ErrorKind::Unsafe, "{e}");
    assert!(e.message.contains("--memory-budget"), "{}", e.message);
    let line = e.location.expect("where it passed").line;
    assert!(line > 100 && line < 2_000, "line {line}");
}
