//! Firefox's tag and keyword service, as both of its ways in meet it: the
//! restore of a backup (`BookmarkJSONUtils.importFromFile`) and the HTML
//! import (`BookmarkHTMLUtils.importFromFile`) hand every bookmark's tags and
//! keyword to the same `PlacesUtils` code, so the same rules hold on both.
//! What Firefox keeps per collection or per link rather than per bookmark:
//! one spelling of each tag (case folded, the last one taken in wins), the
//! tags of a link (every bookmark of it gets all of them, sorted), and
//! keywords (lower case, one link each, the last bookmark with it wins).
//!
//! Measured with a real Firefox on both paths
//! (`tests/tests/firefox_live_report.rs`, `tests/tests/firefox_live_for.rs`).
//! Only the words differ between the paths ([`Way`]). The rules live here,
//! below both, because the restore is the firefox crate's and the HTML
//! import is the facade's `--for firefox`, which works without that crate.

use std::collections::{HashMap, HashSet};

use crate::{Bookmark, Document, Node, NodeId};

/// Firefox's longest tag (`PlacesUtils.bookmarks.MAX_TAG_LENGTH`), in UTF-16 units.
pub const MAX_TAG: usize = 100;
/// Firefox's longest title (`PlacesUtils.bookmarks.MAX_TITLE_LENGTH`), in UTF-16 units.
pub const MAX_TITLE: usize = 4096;

/// How Firefox's JavaScript trims (`String.prototype.trim`: Unicode white
/// space and the BOM).
///
/// ```
/// assert_eq!(markport_model::firefox_tags::js_trim("\u{feff} a\u{a0}"), "a");
/// ```
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// A text's length as JavaScript counts it (UTF-16 units).
pub fn js_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// The tags Firefox takes of a bookmark: each value split at commas (a
/// backup's comma string, an HTML file's `TAGS`), trimmed, empty and
/// over-long ones left out.
pub fn taken(b: &Bookmark) -> impl Iterator<Item = &str> {
    b.tags
        .iter()
        .flat_map(|t| t.split(','))
        .map(js_trim)
        .filter(|t| !t.is_empty() && js_len(t) <= MAX_TAG)
}

/// The way into Firefox the bookmarks take: only the words of a reason
/// depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Way {
    /// Restoring a backup (Bookmarks > Manage bookmarks > Restore).
    Restore,
    /// Importing an HTML file (Import Bookmarks from HTML).
    HtmlImport,
}

/// Why Firefox will not list a bookmark's tags as the bookmark has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TagChange {
    /// A tag is trimmed, or an empty or over-long one dropped.
    Trimmed,
    /// A tag is spelled otherwise elsewhere: one spelling is kept.
    Spelling,
    /// The bookmark has a tag twice.
    Merged,
    /// Another bookmark of the same link adds its tags.
    PerLink,
    /// The tags are listed in another order.
    Sorted,
}

impl TagChange {
    /// The report's reason, in the words of `way`.
    pub fn why(self, way: Way) -> &'static str {
        match (self, way) {
            (TagChange::Trimmed, Way::Restore) => {
                "Firefox trims tags and drops empty ones and those over 100 characters on restore"
            }
            (TagChange::Trimmed, Way::HtmlImport) => {
                "Firefox trims tags and drops empty ones and those over 100 characters"
            }
            (TagChange::Spelling, Way::Restore) => {
                "Firefox keeps one spelling of a tag across the collection (case folded: the last one restored wins)"
            }
            (TagChange::Spelling, Way::HtmlImport) => {
                "Firefox keeps one spelling of a tag across the collection (case folded)"
            }
            (TagChange::Merged, Way::Restore) => "Firefox merges duplicate tags on restore",
            (TagChange::Merged, Way::HtmlImport) => "Firefox merges duplicate tags",
            (TagChange::PerLink, _) => {
                "Firefox keeps tags per link: each bookmark of a link gets the tags of all of them"
            }
            (TagChange::Sorted, Way::Restore) => "Firefox lists tags sorted on restore",
            (TagChange::Sorted, Way::HtmlImport) => "Firefox sorts tags",
        }
    }
}

/// Why Firefox will not keep a bookmark's keyword as it has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeywordChange {
    /// Keywords are kept in lower case (and trimmed).
    LowerCase,
    /// Another bookmark of another link has the same keyword, and is
    /// taken in after this one.
    OneLink,
    /// The link's bookmarks have several keywords: the link keeps one.
    PerLink,
}

impl KeywordChange {
    /// The report's reason, in the words of `way`.
    pub fn why(self, way: Way) -> &'static str {
        match (self, way) {
            (KeywordChange::LowerCase, Way::Restore) => {
                "Firefox keeps keywords in lower case on restore"
            }
            (KeywordChange::LowerCase, Way::HtmlImport) => "Firefox keeps keywords in lower case",
            (KeywordChange::OneLink, Way::Restore) => {
                "a keyword names one link in Firefox: the last bookmark restored with it keeps it"
            }
            (KeywordChange::OneLink, Way::HtmlImport) => {
                "a keyword names one link in Firefox: the last bookmark with it keeps it"
            }
            (KeywordChange::PerLink, Way::Restore) => {
                "Firefox keeps one keyword per link on restore"
            }
            (KeywordChange::PerLink, Way::HtmlImport) => "Firefox keeps one keyword per link",
        }
    }
}

/// What Firefox's tag service will make of a collection's tags and
/// keywords, learnt in one pass over it ([`Tags::of`]) and asked bookmark
/// by bookmark ([`Tags::change`], [`Tags::keyword_change`]).
///
/// ```
/// use markport_model::firefox_tags::{TagChange, Tags};
/// use markport_model::{Bookmark, Document};
///
/// let mut doc = Document::new();
/// for (href, tag) in [("https://a.example/", "rhel"), ("https://b.example/", "RHEL")] {
///     let mut b = Bookmark::new(href);
///     b.tags = vec![tag.into()];
///     doc.push(None, b);
/// }
/// let stored = |h: &str| Some(h.to_string());
/// let tags = Tags::of(&doc, stored);
/// let first = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
/// assert_eq!(tags.change(first, "https://a.example/"), Some(TagChange::Spelling));
/// ```
#[derive(Debug)]
pub struct Tags {
    /// Each tag folded (its index is its id) and the spelling Firefox keeps.
    folded: Vec<(String, String)>,
    ids: HashMap<String, u32>,
    /// Link (by the hash of its stored form: a collection of 100,000 links
    /// keeps 8 bytes each, not the link) -> the ids of its tags, each once,
    /// in the order Firefox lists them (once all are seen).
    by_link: HashMap<u64, Vec<u32>>,
    /// Lower-cased keyword -> (the last bookmark with it, its stored link).
    keywords: HashMap<String, (NodeId, String)>,
    /// Stored link -> the keywords its bookmarks have (lower-cased).
    link_keywords: HashMap<String, HashSet<String>>,
}

fn link_key(href: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    href.hash(&mut h);
    h.finish()
}

impl Tags {
    /// Learn `doc`'s tags and keywords in document order, the order Firefox
    /// takes them in. `stored` gives a link as Firefox stores it, or `None`
    /// for one it cannot parse (its bookmark is dropped, tags and all).
    pub fn of(doc: &Document, stored: impl Fn(&str) -> Option<String>) -> Tags {
        let mut t = Tags {
            folded: Vec::new(),
            ids: HashMap::new(),
            by_link: HashMap::new(),
            keywords: HashMap::new(),
            link_keywords: HashMap::new(),
        };
        // The (link, tag) pairs already listed: a link's list is searched in
        // constant time, not once per tag of each of its bookmarks.
        let mut listed: HashSet<(u64, u32)> = HashSet::new();
        for id in doc.preorder() {
            let Node::Bookmark(b) = doc.node(id) else {
                continue;
            };
            let Some(href) = stored(&b.href) else {
                continue;
            };
            let key = link_key(&href);
            for tag in taken(b) {
                let folded = tag.to_lowercase();
                let n = match t.ids.get(&folded) {
                    Some(&n) => {
                        // The last spelling taken in wins.
                        t.folded[n as usize].1 = tag.to_string();
                        n
                    }
                    None => {
                        let n = t.folded.len() as u32;
                        t.ids.insert(folded.clone(), n);
                        t.folded.push((folded, tag.to_string()));
                        n
                    }
                };
                if listed.insert((key, n)) {
                    t.by_link.entry(key).or_default().push(n);
                }
            }
            if let Some(k) = &b.details().firefox().keyword {
                let k = js_trim(k).to_lowercase();
                t.keywords.insert(k.clone(), (id, href.clone()));
                t.link_keywords.entry(href).or_default().insert(k);
            }
        }
        // Each link's list sorted once, by each tag's rank among the
        // spellings kept (sorted once too): a link with many bookmarks and
        // many tags must not cost their product.
        let mut order: Vec<u32> = (0..t.folded.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&t.folded[a as usize].1, &t.folded[b as usize].1);
            a.encode_utf16().cmp(b.encode_utf16())
        });
        let mut rank = vec![0u32; order.len()];
        for (r, &n) in order.iter().enumerate() {
            rank[n as usize] = r as u32;
        }
        for list in t.by_link.values_mut() {
            list.sort_by_key(|&n| rank[n as usize]);
        }
        t
    }

    /// The spelling Firefox keeps of a tag it takes.
    fn spelling(&self, tag: &str) -> &str {
        let n = self.ids[&tag.to_lowercase()];
        &self.folded[n as usize].1
    }

    /// The ids of the tags Firefox lists for the link stored as `href`.
    fn ids_of(&self, href: &str) -> &[u32] {
        self.by_link
            .get(&link_key(href))
            .map_or(&[][..], Vec::as_slice)
    }

    /// The tags Firefox lists for the link stored as `href`, in its order.
    pub fn listed(&self, href: &str) -> impl Iterator<Item = &str> {
        self.ids_of(href)
            .iter()
            .map(|&n| self.folded[n as usize].1.as_str())
    }

    /// Why Firefox will not list `b`'s tags as `b` has them, if it will
    /// not; `href` is its link as Firefox stores it.
    pub fn change(&self, b: &Bookmark, href: &str) -> Option<TagChange> {
        // Compared item by item, and the link's list counted by its length:
        // a bookmark costs its own tags, not its link's (a link of 20,000
        // bookmarks each with its own tag must not cost 20,000 squared).
        let mut listed = self.listed(href);
        let mut same = true;
        for t in &b.tags {
            if listed.next() != Some(t.as_str()) {
                same = false;
                break;
            }
        }
        if same && listed.next().is_none() {
            return None;
        }
        let own: Vec<&str> = taken(b).collect();
        let folded: HashSet<String> = own.iter().map(|t| t.to_lowercase()).collect();
        Some(
            if own.len() != b.tags.len() || own.iter().zip(&b.tags).any(|(a, t)| a != t) {
                TagChange::Trimmed
            } else if own.iter().any(|t| self.spelling(t) != *t) {
                TagChange::Spelling
            } else if folded.len() < own.len() {
                TagChange::Merged
            } else if self.ids_of(href).len() > own.len() {
                TagChange::PerLink
            } else {
                TagChange::Sorted
            },
        )
    }

    /// Why Firefox will not keep `keyword` on bookmark `id` of the link
    /// stored as `href`, if it will not.
    pub fn keyword_change(&self, id: NodeId, keyword: &str, href: &str) -> Option<KeywordChange> {
        let k = js_trim(keyword).to_lowercase();
        if k != keyword {
            return Some(KeywordChange::LowerCase);
        }
        if self
            .keywords
            .get(&k)
            .is_some_and(|(last, link)| *last != id && link != href)
        {
            return Some(KeywordChange::OneLink);
        }
        if self.link_keywords.get(href).is_some_and(|l| l.len() > 1) {
            return Some(KeywordChange::PerLink);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tagged(href: &str, tags: &[&str]) -> Bookmark {
        let mut b = Bookmark::new(href);
        b.tags = tags.iter().map(|t| t.to_string()).collect();
        b
    }

    fn changes(doc: &Document) -> Vec<Option<TagChange>> {
        let tags = Tags::of(doc, |h| Some(h.to_string()));
        doc.preorder()
            .filter_map(|id| doc.node(id).as_bookmark())
            .map(|b| tags.change(b, &b.href))
            .collect()
    }

    #[test]
    fn each_way_firefox_changes_tags_is_told_apart() {
        let mut doc = Document::new();
        doc.push(None, tagged("https://a.example/", &["b", "a"]));
        doc.push(None, tagged("https://b.example/", &["x", "x"]));
        doc.push(None, tagged("https://c.example/", &["p"]));
        doc.push(None, tagged("https://c.example/", &["q"]));
        doc.push(None, tagged("https://d.example/", &[" t"]));
        doc.push(None, tagged("https://e.example/", &["Web"]));
        doc.push(None, tagged("https://f.example/", &["web"]));
        doc.push(None, tagged("https://g.example/", &["a", "b"]));
        assert_eq!(
            changes(&doc),
            [
                Some(TagChange::Sorted),
                Some(TagChange::Merged),
                Some(TagChange::PerLink),
                Some(TagChange::PerLink),
                Some(TagChange::Trimmed),
                Some(TagChange::Spelling),
                None,
                None,
            ]
        );
    }

    #[test]
    fn a_link_of_many_bookmarks_lists_its_tags_once_sorted_in_utf16_order() {
        let mut doc = Document::new();
        // U+1F600 (a surrogate pair in UTF-16) sorts before U+FF5E in
        // UTF-16, after it in code points: Firefox's JavaScript sort is
        // UTF-16's.
        for tag in ["\u{1F600}", "\u{FF5E}", "b", "a"] {
            doc.push(None, tagged("https://a.example/", &[tag]));
        }
        let tags = Tags::of(&doc, |h| Some(h.to_string()));
        let listed: Vec<&str> = tags.listed("https://a.example/").collect();
        assert_eq!(listed, ["a", "b", "\u{1F600}", "\u{FF5E}"]);
    }

    #[test]
    fn keywords_are_one_per_link_and_one_link_each() {
        let mut doc = Document::new();
        let mut ids = Vec::new();
        for (href, k) in [
            ("https://a.example/", "Go"),
            ("https://b.example/", "s"),
            ("https://c.example/", "s"),
            ("https://d.example/", "x"),
            ("https://d.example/", "y"),
        ] {
            let mut b = Bookmark::new(href);
            b.details_mut().firefox_mut().keyword = Some(k.into());
            ids.push(doc.push(None, b));
        }
        let tags = Tags::of(&doc, |h| Some(h.to_string()));
        let got: Vec<_> = ids
            .iter()
            .map(|&id| {
                let b = doc.node(id).as_bookmark().unwrap();
                let k = b.details().firefox().keyword.clone().unwrap();
                tags.keyword_change(id, &k, &b.href)
            })
            .collect();
        assert_eq!(
            got,
            [
                Some(KeywordChange::LowerCase),
                Some(KeywordChange::OneLink),
                None,
                Some(KeywordChange::PerLink),
                Some(KeywordChange::PerLink),
            ]
        );
    }
}
