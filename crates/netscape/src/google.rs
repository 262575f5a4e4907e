//! Google Bookmarks' HTML export (`GoogleBookmarks.html`, from Google
//! Takeout until the service closed in 2021): Netscape bookmark HTML in
//! which every label is a folder (`<H3>`) and a bookmark is listed once
//! under each of its labels, a bookmark without one under `Unlabeled`, all
//! dates (`ADD_DATE`) in microseconds (`docs/formats/google.md`).
//!
//! Read as what it was: one bookmark per link, in the order of its first
//! listing, with its labels as tags (`Unlabeled` is no label), and no
//! folders. The copies' titles, notes and dates are the first listing's;
//! a later listing that differs is said. `--from netscape` still reads the
//! file as plain Netscape HTML, one folder per label.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};

use markport_model::{
    Budget, Diagnostic, Document, Error, Node, NodeId, Parsed, ReadOptions, Separator, Step,
};

/// The folder Google lists the bookmarks without a label under.
pub const UNLABELED: &str = "Unlabeled";

/// How sure it is that `input` is Google Bookmarks' export: Netscape HTML
/// whose first date, on its first folder, is in microseconds (16 digits:
/// every browser writes seconds), before any link.
pub fn detect(input: &[u8]) -> Option<u8> {
    crate::detect(input)?;
    let head = &input[..input.len().min(8192)];
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    let h3 = lower.find("<h3")?;
    if lower.find("<a ").is_some_and(|a| a < h3) {
        return None;
    }
    let date = &lower[h3..];
    let end = date.find('>')?;
    let value = date[..end].split("add_date=\"").nth(1)?;
    let digits = value.bytes().take_while(u8::is_ascii_digit).count();
    (digits == 16 && value.as_bytes().get(16) == Some(&b'"')).then_some(95)
}

/// Read Google Bookmarks' export: one bookmark per link, labels as tags.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let Parsed {
        document: mut listed,
        mut diagnostics,
        ..
    } = crate::read::read(input, opts)?;
    let mut doc = Document::new();
    doc.header = std::mem::take(&mut listed.header);
    let mut budget = Budget::new(opts, input.len());
    // First the page is only looked at: each link is found by its href
    // borrowed from the page (one hash a listing, no copy), and numbered in
    // the order of its first listing, which is its place in `doc`. Then the
    // first listings are moved out of the page, the later ones dropped with
    // it, and the labels given as tags.
    //
    // The pair set and list are sized once from the listings (a first
    // label a listing is the common case) rather than grown by doubling,
    // which moves every entry again at each step.
    let listed_links = listed
        .ids()
        .filter(|&id| matches!(listed.node(id), Node::Bookmark(_)))
        .count();
    let mut by_href: HashMap<&str, u32> = HashMap::new();
    let mut firsts: Vec<NodeId> = Vec::new();
    let mut labels: HashMap<&str, u32> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    // (link, label) pairs already given: numbers we make, so a seeded mix
    // of the two is as safe as SipHash and far cheaper.
    let mut has: HashSet<u64, Seeded> =
        HashSet::with_capacity_and_hasher(listed_links, Seeded::new());
    // Each link's labels in the order they were listed: (link, label).
    let mut given: Vec<(u32, u32)> = Vec::with_capacity(listed_links);
    let mut path: Vec<Option<u32>> = Vec::new();
    let (mut listings, mut differing) = (0usize, 0usize);
    for step in listed.walk() {
        match step {
            Step::Open(id) => {
                let title = listed.node(id).title().unwrap_or("");
                let label = (title != UNLABELED && !title.is_empty()).then(|| {
                    let next = names.len() as u32;
                    *labels.entry(title).or_insert_with(|| {
                        names.push(title);
                        next
                    })
                });
                path.push(label);
            }
            Step::Close(_) => {
                path.pop();
            }
            Step::Leaf(id) => {
                let Node::Bookmark(b) = listed.node(id) else {
                    continue;
                };
                listings += 1;
                let next = firsts.len() as u32;
                let link = *by_href.entry(b.href.as_str()).or_insert(next);
                if link == next {
                    // Tags the page wrote itself (`TAGS=`, which Google
                    // never wrote) stay first, from the first listing.
                    budget.bookmark(b)?;
                    firsts.push(id);
                } else {
                    let first = listed.node(firsts[link as usize]);
                    let first = first.as_bookmark().expect("a bookmark");
                    if first.title != b.title || first.desc != b.desc {
                        differing += 1;
                    }
                }
                for &n in path.iter().flatten() {
                    if has.insert(u64::from(link) << 32 | u64::from(n)) {
                        budget.charge(names[n as usize].len() + 32)?;
                        given.push((link, n));
                    }
                }
            }
        }
    }
    let names: Vec<String> = names.into_iter().map(str::to_string).collect();
    drop((by_href, labels, has));
    let mut ids = Vec::with_capacity(firsts.len());
    for id in firsts {
        let Node::Bookmark(b) = std::mem::replace(listed.node_mut(id), Separator::new().into())
        else {
            unreachable!("a bookmark, found by the walk")
        };
        ids.push(doc.push(None, b));
    }
    for (link, n) in given {
        doc.as_bookmark_mut(ids[link as usize])
            .expect("a bookmark")
            .tags
            .push(names[n as usize].clone());
    }
    let kept = doc.len();
    if listings > kept {
        diagnostics.push(Diagnostic::note(
            format!(
                "{listings} listings under labels read as {kept} bookmarks, each link once with its labels as tags (--from netscape reads a folder per label)"
            ),
            None,
        ));
    }
    if differing > 0 {
        diagnostics.push(Diagnostic::warning(
            format!(
                "{differing} later listings of a link had another title or note: the first listing's were kept"
            ),
            None,
        ));
    }
    Parsed::new(doc, diagnostics).enforce(opts)
}

/// Hashes the (link, label) numbers: a random seed, then a 64-bit
/// finalizer (MurmurHash3's), whose every output bit depends on every
/// input bit. The numbers are the reader's own: a file chooses only which
/// pairs occur, and without the seed it cannot know which of them collide.
#[derive(Clone)]
struct Seeded(u64);

impl Seeded {
    fn new() -> Seeded {
        Seeded(RandomState::new().hash_one(0x9e37_79b9_7f4a_7c15u64))
    }
}

impl BuildHasher for Seeded {
    type Hasher = Mix;
    fn build_hasher(&self) -> Mix {
        Mix(self.0)
    }
}

/// The hasher [`Seeded`] builds.
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let mut x = self.0 ^ n;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^= x >> 33;
        self.0 = x;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// This format as the registry lists it (`markport::format("google")`).
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "google",
    "Google Bookmarks' HTML export (labels as tags, one bookmark per link)",
    &[],
    detect,
    read,
);

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &[u8] = br#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p><DT><H3 ADD_DATE="1316018418437000">rust</H3>
<DL><p><DT><A HREF="https://www.rust-lang.org/" ADD_DATE="1316018418437000">Rust</A>
</DL><p><DT><H3 ADD_DATE="1316018418437000">lang</H3>
<DL><p><DT><A HREF="https://www.rust-lang.org/" ADD_DATE="1316018418437000">Rust</A>
</DL><p><DT><H3 ADD_DATE="1316018418437000">Unlabeled</H3>
<DL><p><DT><A HREF="https://lwn.net/" ADD_DATE="1316018418000001">LWN</A>
</DL><p></DL><p>"#;

    #[test]
    fn one_bookmark_per_link_with_its_labels() {
        assert_eq!(detect(PAGE), Some(95));
        let doc = read(PAGE, &ReadOptions::default()).unwrap().document;
        let top = doc.children(None);
        assert_eq!(top.len(), 2);
        let rust = doc.node(top[0]).as_bookmark().unwrap();
        assert_eq!(rust.tags, ["rust", "lang"]);
        let lwn = doc.node(top[1]).as_bookmark().unwrap();
        assert!(lwn.tags.is_empty());
        let added = lwn.added.as_ref().unwrap().instant().unwrap();
        assert_eq!(
            (added.unix_seconds(), added.subsec_nanos()),
            (1316018418, 1000)
        );
    }

    /// A label whose folder comes twice, a label folder inside another and
    /// a link listed twice in one folder: each label once, in the order of
    /// its first listing, and the later listing's other title said.
    #[test]
    fn a_label_listed_again_is_one_tag() {
        let page = br#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p><DT><H3 ADD_DATE="1316018418437000">b</H3>
<DL><p><DT><A HREF="https://x/">X</A><DT><A HREF="https://y/">Y</A><DT><A HREF="https://x/">X again</A>
<DT><H3>a</H3><DL><p><DT><A HREF="https://x/">X</A></DL><p>
</DL><p><DT><H3>b</H3>
<DL><p><DT><A HREF="https://y/">Y</A><DT><A HREF="https://x/">X</A></DL><p>
<DT><H3>Unlabeled</H3><DL><p><DT><A HREF="https://z/">Z</A></DL><p>
</DL><p>"#;
        let parsed = read(page, &ReadOptions::default()).unwrap();
        let doc = &parsed.document;
        let read: Vec<(&str, Option<&str>, Vec<&str>)> = doc
            .children(None)
            .iter()
            .map(|&id| {
                let b = doc.node(id).as_bookmark().unwrap();
                let tags = b.tags.iter().map(String::as_str).collect();
                (b.href.as_str(), b.title.as_deref(), tags)
            })
            .collect();
        assert_eq!(
            read,
            [
                ("https://x/", Some("X"), vec!["b", "a"]),
                ("https://y/", Some("Y"), vec!["b"]),
                ("https://z/", Some("Z"), vec![]),
            ]
        );
        let said: Vec<&str> = parsed
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert!(
            said.iter()
                .any(|m| m.starts_with("7 listings under labels read as 3 bookmarks")),
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|m| m.starts_with("1 later listings of a link had another title")),
            "{said:?}"
        );
    }

    #[test]
    fn a_browser_export_is_not_google() {
        let chrome = br#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p><DT><H3 ADD_DATE="1316018418">rust</H3>
<DL><p><DT><A HREF="https://www.rust-lang.org/" ADD_DATE="1316018418">Rust</A></DL></DL>"#;
        assert_eq!(detect(chrome), None);
        assert!(crate::detect(chrome).is_some());
    }
}
