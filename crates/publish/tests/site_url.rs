//! `--site-url`: the feed says where it lives and where the site is, and a
//! relative bookmark link becomes absolute; without it, both stay relative.

use markport_model::{Bookmark, DateValue, Document, Timestamp};
use markport_publish::{build, site_url, Options};

fn feed(site: Option<&str>) -> String {
    let mut doc = Document::new();
    let added = Some(DateValue::Instant(
        Timestamp::from_unix_seconds(1_700_000_000).unwrap(),
    ));
    let mut absolute = Bookmark::new("https://www.rust-lang.org/").with_title("Rust");
    absolute.added = added.clone();
    doc.push(None, absolute);
    let mut relative = Bookmark::new("notes/reading.html").with_title("Notes");
    relative.added = added;
    doc.push(None, relative);
    let opts = Options {
        site_url: site.map(|s| site_url(s).unwrap()),
        ..Options::default()
    };
    let site = build(&doc, &opts);
    let feed = site.files.iter().find(|f| f.path == "feed.atom").unwrap();
    String::from_utf8(feed.bytes.clone()).unwrap()
}

#[test]
fn the_feed_links_to_itself_and_resolves_relative_links_against_the_site() {
    let with = feed(Some("https://example.org/links"));
    assert!(
        with.contains("<link rel=\"self\" href=\"https://example.org/links/feed.atom\"/>"),
        "{with}"
    );
    assert!(
        with.contains("<link rel=\"alternate\" href=\"https://example.org/links/index.html\"/>")
    );
    assert!(with.contains("href=\"https://example.org/links/notes/reading.html\""));
    assert!(with.contains("href=\"https://www.rust-lang.org/\""));

    let without = feed(None);
    assert!(!without.contains("rel=\"self\""), "{without}");
    assert!(without.contains("href=\"notes/reading.html\""));
}

#[test]
fn a_site_url_must_be_an_absolute_web_address() {
    assert!(site_url("example.org/links").is_err());
    assert!(site_url("file:///srv/links/").is_err());
    assert_eq!(
        site_url("http://example.org").unwrap().as_str(),
        "http://example.org/"
    );
}
