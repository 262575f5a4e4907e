//! The links of a collection, each once, with every place it sits.

use std::collections::HashMap;

use markport_model::Document;
use url::Url;

/// One distinct link of a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Link {
    /// What is asked: the href in its WHATWG form without its `#fragment`
    /// ([`link_key`]), or the href itself when it is not an http(s) link.
    pub key: String,
    /// Every href of the collection that is this link, each once, in order.
    pub hrefs: Vec<String>,
    /// Where it sits: the path of each bookmark (`Toolbar/News/BBC`), in
    /// document order.
    pub paths: Vec<String>,
}

/// A collection's links: those to ask, and those never asked.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Collected {
    /// The http(s) links, in the order they first appear.
    pub links: Vec<Link>,
    /// The others (`place:`, `javascript:`, `file:`, unparsable), in order.
    pub skipped: Vec<Link>,
}

/// What a link is asked as, or `None` when it is not an http(s) link: the
/// WHATWG form (host lowercased, default port dropped) without the
/// `#fragment`, which never reaches the server, so two hrefs that differ
/// only there are one request.
///
/// ```
/// use markport_links::link_key;
///
/// assert_eq!(link_key("HTTP://Example.ORG:80/a#top").as_deref(), Some("http://example.org/a"));
/// assert_eq!(link_key("place:sort=8"), None);
/// ```
pub fn link_key(href: &str) -> Option<String> {
    let mut url = Url::parse(href.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return None;
    }
    url.set_fragment(None);
    Some(url.into())
}

/// Every distinct link of `doc` with its hrefs and places, in one pass.
pub fn collect(doc: &Document) -> Collected {
    let mut out = Collected::default();
    let mut index: HashMap<(bool, String), usize> = HashMap::new();
    for (id, bookmark) in doc.bookmarks() {
        let (asked, key) = match link_key(&bookmark.href) {
            Some(key) => (true, key),
            None => (false, bookmark.href.clone()),
        };
        let list = if asked {
            &mut out.links
        } else {
            &mut out.skipped
        };
        let at = *index.entry((asked, key.clone())).or_insert_with(|| {
            list.push(Link {
                key,
                hrefs: Vec::new(),
                paths: Vec::new(),
            });
            list.len() - 1
        });
        let link = &mut list[at];
        if !link.hrefs.contains(&bookmark.href) {
            link.hrefs.push(bookmark.href.clone());
        }
        link.paths.push(doc.path(id));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::{Bookmark, Folder};

    #[test]
    fn a_link_twice_is_one_with_both_places() {
        let mut doc = Document::new();
        let news = doc.push(None, Folder::titled("News"));
        let mut a = Bookmark::new("https://example.org/a#one");
        a.title = Some("A".into());
        doc.push(Some(news), a);
        doc.push(None, Bookmark::new("https://EXAMPLE.org/a"));
        doc.push(None, Bookmark::new("javascript:void(0)"));
        let got = collect(&doc);
        assert_eq!(got.links.len(), 1);
        assert_eq!(got.links[0].key, "https://example.org/a");
        assert_eq!(
            got.links[0].hrefs,
            ["https://example.org/a#one", "https://EXAMPLE.org/a"]
        );
        assert_eq!(got.links[0].paths, ["News/A", "https://EXAMPLE.org/a"]);
        assert_eq!(got.skipped.len(), 1);
        assert_eq!(got.skipped[0].key, "javascript:void(0)");
    }
}
