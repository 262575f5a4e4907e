//! Pages shaped to make a reader slow: what they read as, content asserted.
//! The sizes are the issue's: 100,000 deep or wide. (An HTML5 tree builder
//! takes minutes on the deep ones and the wide tag; the reader's own walk is
//! linear. Times are measured in scripts/bench-scaling.sh, not here.)

use markport_model::{Document, ReadOptions};

fn read(page: &str) -> Document {
    markport_xfolk::read(page.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document
}

/// Entries nested in entries: each keeps its own link and title; the text of
/// an inner entry is not its outer entry's.
#[test]
fn nested_entries_each_keep_their_own_title() {
    let n = 100_000;
    let mut page = String::from("<html><body>");
    for i in 0..n {
        page.push_str(&format!(
            "<div class=\"xfolkentry\"><a class=\"taggedlink\" href=\"http://e/{i}\">t{i}</a>"
        ));
    }
    page.push_str(&"</div>".repeat(n));
    let doc = read(&page);
    let titles: Vec<_> = doc
        .preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .map(|b| (b.href.clone(), b.title.clone().unwrap()))
        .collect();
    assert_eq!(titles.len(), n);
    assert_eq!(titles[0], ("http://e/0".to_owned(), "t0".to_owned()));
    assert_eq!(titles[n - 1].1, format!("t{}", n - 1));
}

/// Descriptions nested in one entry: their text counts once, in the
/// outermost, with the paragraphs their blocks make.
#[test]
fn nested_descriptions_count_their_text_once() {
    let n = 100_000;
    let mut page =
        String::from("<div class=\"xfolkentry\"><a class=\"taggedlink\" href=\"http://e/\">T</a>");
    for i in 0..n {
        page.push_str(&format!("<div class=\"description\">d{i}"));
    }
    page.push_str(&"</div>".repeat(n));
    page.push_str("</div>");
    let doc = read(&page);
    let b = doc
        .node(doc.find_by_href("http://e/").unwrap())
        .as_bookmark()
        .unwrap();
    let expected: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
    assert_eq!(b.desc.as_deref(), Some(expected.join("\n\n").as_str()));
}

/// A description with a nested entry in it: the outer entry's description
/// has its own text, the inner entry its own title and description.
#[test]
fn an_entry_inside_a_description_keeps_its_text() {
    let page = "<div class=\"xfolkentry\"><a class=\"taggedlink\" href=\"http://a/\">A</a>\
        <p class=\"description\">outer <span class=\"xfolkentry\"><a class=\"taggedlink\" href=\"http://b/\">B</a>\
        <span class=\"description\">inner</span></span> after</p></div>";
    let doc = read(page);
    let a = doc
        .node(doc.find_by_href("http://a/").unwrap())
        .as_bookmark()
        .unwrap();
    let b = doc
        .node(doc.find_by_href("http://b/").unwrap())
        .as_bookmark()
        .unwrap();
    assert_eq!(a.desc.as_deref(), Some("outer after"));
    assert_eq!(b.title.as_deref(), Some("B"));
    assert_eq!(b.desc.as_deref(), Some("inner"));
}

/// An entry after 100,000 unclosed plain elements is still read, and a
/// second entry after them is not inside the first.
#[test]
fn deep_plain_markup_around_entries() {
    let n = 100_000;
    let page = format!(
        "<div class=\"xfolkentry\"><a class=\"taggedlink\" href=\"http://a/\">A</a>{}<span class=\"description\">deep</span>{}</div>\
         <div class=\"xfolkentry\"><a class=\"taggedlink\" href=\"http://b/\">B</a></div>",
        "<div><span><em>".repeat(n / 3),
        "</em></span></div>".repeat(n / 3),
    );
    let doc = read(&page);
    let hrefs: Vec<_> = doc
        .preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .map(|b| (b.href.as_str(), b.desc.as_deref()))
        .collect();
    assert_eq!(hrefs, [("http://a/", Some("deep")), ("http://b/", None)]);
}

/// A link with 100,000 attributes: the ones that matter are found, the
/// first of a duplicated name wins, as in browsers.
#[test]
fn a_tag_with_a_hundred_thousand_attributes() {
    let n = 100_000;
    let junk: String = (0..n).map(|i| format!(" data-x{i}=\"v{i}\"")).collect();
    let page = format!(
        "<div class=\"xfolkentry\"><a{junk} class=\"taggedlink\" href=\"http://e/\" href=\"http://no/\" title=\"T\">t</a></div>"
    );
    let doc = read(&page);
    let b = doc
        .node(doc.find_by_href("http://e/").unwrap())
        .as_bookmark()
        .unwrap();
    assert_eq!(b.title.as_deref(), Some("T"));
}

/// An entry of a score of bytes is an entry and a node of hundreds: a page
/// of 2,000 reads within its own budget and, past a smaller one, is
/// refused where it passes, naming the flag.
#[test]
fn a_page_of_tiny_entries_is_refused_past_its_budget() {
    let page = "<b class=xfolkentry><a class=taggedlink href=a>t</a></b>\n".repeat(2_000);
    let read = |budget: Option<u64>| {
        let mut opts = markport_model::ReadOptions::default();
        opts.memory_budget = budget;
        markport_xfolk::read(page.as_bytes(), &opts)
    };
    assert_eq!(read(None).unwrap().document.len(), 2_000);
    let e = read(Some(500_000)).unwrap_err();
    assert_eq!(e.kind, markport_model::ErrorKind::Unsafe, "{e}");
    assert!(e.message.contains("--memory-budget"), "{}", e.message);
    let line = e.location.expect("where it passed").line;
    assert!(line > 100 && line < 2_000, "line {line}");
}
