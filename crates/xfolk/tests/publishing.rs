//! Publishing pages and reading pages, as people use them.

use markport_model::{diff, Bookmark, Document, Field, Folder, ReadOptions, WriteOptions};

fn publish(doc: &Document, opts: &WriteOptions) -> (String, Vec<Field>) {
    let mut out = Vec::new();
    let loss = markport_xfolk::write(doc, opts, &mut out).unwrap();
    (
        String::from_utf8(out).unwrap(),
        loss.fields().into_iter().collect(),
    )
}

fn hostile() -> Document {
    let mut doc = Document::new();
    doc.header.title = Some("</title><script>alert('t')</script>".into());
    let f = doc.push(None, Folder::titled("<img src=x onerror=alert(1)>"));
    let mut b = Bookmark::new("https://example.com/?q=\"><script>alert(1)</script>&x='y'");
    b.title = Some("<script>alert(\"title\")</script> &amp; \"quotes\" 'single'".into());
    b.desc = Some("<iframe src=javascript:alert(2)></iframe> &lt;already escaped&gt;".into());
    b.tags = vec!["\"><script>alert(3)</script>".into(), "a/b c+d".into()];
    doc.push(Some(f), b);
    let mut js = Bookmark::new("  JavaScript:alert(document.cookie)");
    js.title = Some("Bookmarklet".into());
    doc.push(Some(f), js);
    doc.push(
        Some(f),
        Bookmark::new("data:text/html,<script>alert(4)</script>"),
    );
    let mut private = Bookmark::new("https://intranet.example/secret-plans");
    private.title = Some("Secret plans".into());
    private.private = Some(true);
    doc.push(Some(f), private);
    doc
}

#[test]
fn hostile_input_never_reaches_the_page_as_markup_script_or_data() {
    let doc = hostile();
    let (page, lost) = publish(&doc, &WriteOptions::default());
    // The page's own filter script is its only script.
    assert_eq!(page.matches("<script").count(), 1, "{page}");
    assert!(
        !page.contains("<iframe") && !page.contains("<img"),
        "{page}"
    );
    assert!(!page.to_ascii_lowercase().contains("href=\"  javascript:"));
    assert!(!page.to_ascii_lowercase().contains("href=\"javascript:"));
    assert!(!page.contains("href=\"data:"));
    assert!(!page.contains("intranet.example") && !page.contains("Secret plans"));
    assert!(
        lost.contains(&Field::Bookmark),
        "withheld entries are reported: {lost:?}"
    );
    // What is published reads back exactly.
    let back = markport_xfolk::read(page.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    let b = back
        .node(back.children(Some(back.children(None)[0]))[0])
        .as_bookmark()
        .unwrap();
    let orig = doc
        .node(doc.children(Some(doc.children(None)[0]))[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(
        (&b.href, &b.title, &b.desc, &b.tags),
        (&orig.href, &orig.title, &orig.desc, &orig.tags)
    );
}

#[test]
fn asking_publishes_private_bookmarks_and_script_links() {
    let doc = hostile();
    let mut opts = WriteOptions::default();
    opts.xfolk.include_private = true;
    opts.xfolk.allow_script_urls = true;
    let (page, lost) = publish(&doc, &opts);
    assert!(page.contains("intranet.example/secret-plans"));
    assert!(page.contains("href=\"  JavaScript:alert(document.cookie)\""));
    assert!(!lost.contains(&Field::Bookmark), "{lost:?}");
    assert!(
        lost.contains(&Field::BookmarkPrivate),
        "the flag itself is not on the page"
    );
}

#[test]
fn the_page_has_the_publishing_structure() {
    let mut doc = Document::new();
    doc.header.title = Some("Links".into());
    doc.header.desc = Some("What I read.\n\nSecond paragraph.".into());
    let prog = doc.push(None, Folder::titled("Programming"));
    let rust = doc.push(Some(prog), Folder::titled("Rust"));
    let mut b = Bookmark::new("https://www.rust-lang.org/").with_title("Rust");
    b.desc = Some("A language.\nLine two.".into());
    b.tags = vec!["rust".into(), "New York".into()];
    b.added = Some(markport_model::DateValue::from_w3c("2024-05-01T09:30:00Z"));
    doc.push(Some(rust), b);
    let mut opts = WriteOptions::default();
    opts.xfolk.tag_base = Some("https://example.org/tags/".into());
    let (page, lost) = publish(&doc, &opts);
    assert!(lost.is_empty(), "{lost:?}");
    for needle in [
        "<!DOCTYPE html>",
        "<html lang=\"en\">",
        "<meta charset=\"utf-8\">",
        "<meta name=\"viewport\"",
        "<title>Links</title>",
        "<h1>Links</h1>",
        "<nav aria-label=\"Folders\">",
        "<h2 id=\"f0-h\" class=\"p-name\">Programming</h2>",
        "<h3 id=\"f1-h\" class=\"p-name\">Rust</h3>",
        "<li class=\"xfolkentry h-entry\">",
        "<a class=\"taggedlink u-bookmark-of p-name\" href=\"https://www.rust-lang.org/\">Rust</a>",
        "<div class=\"description p-summary\"><p>A language.<br>\nLine two.</p></div>",
        "<a rel=\"tag\" class=\"p-category\" href=\"https://example.org/tags/New%20York\">New York</a>",
        "<time class=\"dt-published published\" datetime=\"2024-05-01T09:30:00Z\">2024-05-01</time>",
        "prefers-color-scheme: dark",
        "@media print",
        "<p class=\"filter\" hidden>",
    ] {
        assert!(page.contains(needle), "missing {needle:?} in\n{page}");
    }
    assert_eq!(page.matches("<h1>").count(), 1);
    let (again, _) = publish(&doc, &opts);
    assert_eq!(page, again, "output is deterministic");
    let back = markport_xfolk::read(page.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    assert!(diff(&doc, &back).is_empty(), "{:?}", diff(&doc, &back));
}

#[test]
fn relative_links_resolve_against_base_and_the_page_address() {
    let page = br#"<html><head><base href="/bookmarks/"></head><body>
<div class="xfolkentry"><a class="taggedlink" href="sub/page.html">Relative</a>
<a rel="tag" href="../tags/rel">x</a></div>
<div class="xfolkentry"><a class="taggedlink" href="https://abs.example/x">Absolute</a></div>
</body></html>"#;
    let mut opts = ReadOptions::default();
    opts.xfolk.base_url = Some("http://example.org/page.html".into());
    let doc = markport_xfolk::read(page, &opts).unwrap().document;
    let hrefs: Vec<_> = doc
        .preorder()
        .map(|id| doc.node(id).as_bookmark().unwrap().href.clone())
        .collect();
    assert_eq!(
        hrefs,
        [
            "http://example.org/bookmarks/sub/page.html",
            "https://abs.example/x"
        ]
    );
    let first = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(first.tags, ["rel"]);
}

#[test]
fn a_page_without_entries_is_not_xfolk() {
    let err = markport_xfolk::read(
        b"<html><body><a href=x>x</a></body></html>",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind, markport_model::ErrorKind::WrongFormat);
}

#[test]
fn thousands_of_entries_and_deep_folders_publish_and_read_back() {
    let mut doc = Document::new();
    doc.header.title = Some("Many".into());
    let mut parent = None;
    for d in 0..200 {
        parent = Some(doc.push(parent, Folder::titled(format!("Level {d}"))));
        for i in 0..20 {
            doc.push(
                parent,
                Bookmark::new(format!("https://e.example/{d}/{i}")).with_title(format!("Item {i}")),
            );
        }
    }
    let (page, lost) = publish(&doc, &WriteOptions::default());
    assert!(lost.is_empty(), "{lost:?}");
    let back = markport_xfolk::read(page.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    assert!(diff(&doc, &back).is_empty(), "{:?}", diff(&doc, &back));
    assert_eq!(back.census().depth, 200);
}

#[test]
fn place_queries_and_search_templates_are_shown_as_text_unless_asked() {
    let mut doc = Document::new();
    let mut place = Bookmark::new("place:sort=8&maxResults=10");
    place.title = Some("Most Visited".into());
    doc.push(None, place);
    let mut search = Bookmark::new("https://duckduckgo.com/?q=%s");
    search.title = Some("Search".into());
    search.details_mut().firefox_mut().keyword = Some("d".into());
    doc.push(None, search);
    doc.push(
        None,
        Bookmark::new("https://example.org/100%25").with_title("Page"),
    );

    let (page, lost) = publish(&doc, &WriteOptions::default());
    assert!(page.contains(
        "<li class=\"inert\">Most Visited <code>place:sort=8&amp;maxResults=10</code> (not published as a link)</li>"
    ), "{page}");
    assert!(page.contains(
        "<li class=\"inert\">Search <code>https://duckduckgo.com/?q=%s</code> (not published as a link)</li>"
    ));
    assert!(!page.contains("href=\"place:") && !page.contains("href=\"https://duckduckgo.com/"));
    assert!(
        page.contains("href=\"https://example.org/100%25\""),
        "a real page stays a link"
    );
    assert!(lost.contains(&Field::Bookmark), "{lost:?}");
    let back = markport_xfolk::read(page.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(back.document.census().bookmarks, 1);

    let mut asked = WriteOptions::default();
    asked.xfolk.allow_browser_urls = true;
    let (page, lost) = publish(&doc, &asked);
    assert!(page.contains("href=\"place:sort=8&amp;maxResults=10\""));
    assert!(page.contains("href=\"https://duckduckgo.com/?q=%s\""));
    assert!(!lost.contains(&Field::Bookmark), "{lost:?}");
}

#[test]
fn without_a_tag_base_tag_links_filter_the_page_and_still_name_their_tag() {
    let mut doc = Document::new();
    doc.header.title = Some("Links".into());
    let mut b = Bookmark::new("https://www.rust-lang.org/").with_title("Rust");
    b.tags = vec!["rust".into(), "New York".into()];
    doc.push(None, b);
    let (page, _) = publish(&doc, &WriteOptions::default());
    assert!(page.contains("<p class=\"filter\" hidden data-tag-links=\"filter\">"));
    assert!(
        page.contains("<a rel=\"tag\" class=\"p-category\" href=\"tags/New%20York\">New York</a>")
    );
    let back = markport_xfolk::read(page.as_bytes(), &ReadOptions::default()).unwrap();
    let d = diff(&doc, &back.document);
    assert!(d.is_empty(), "{d:?}");

    // Tag pages that exist are followed.
    let mut opts = WriteOptions::default();
    opts.xfolk.tag_base = Some("https://example.org/tags/".into());
    let (page, _) = publish(&doc, &opts);
    assert!(page.contains("<p class=\"filter\" hidden>"));
    assert!(!page.contains("data-tag-links=\"filter\""));
}
