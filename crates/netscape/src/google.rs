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

use std::collections::{HashMap, HashSet};

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
    // Each link's bookmark, and the labels it has, by the label's number:
    // a link listed under many labels costs one lookup a listing. The
    // listings are moved out of the page's document, not copied.
    let mut by_href: HashMap<String, NodeId> = HashMap::new();
    let mut labels: HashMap<String, u32> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut has: HashSet<(NodeId, u32)> = HashSet::new();
    let mut path: Vec<Option<u32>> = Vec::new();
    let (mut listings, mut differing) = (0usize, 0usize);
    let steps: Vec<Step> = listed.walk().collect();
    for step in steps {
        match step {
            Step::Open(id) => {
                let title = listed.node(id).title().unwrap_or("");
                let label = (title != UNLABELED && !title.is_empty()).then(|| {
                    let next = labels.len() as u32;
                    match labels.get(title) {
                        Some(&n) => n,
                        None => {
                            labels.insert(title.to_string(), next);
                            names.push(title.to_string());
                            next
                        }
                    }
                });
                path.push(label);
            }
            Step::Close(_) => {
                path.pop();
            }
            Step::Leaf(id) => {
                if !matches!(listed.node(id), Node::Bookmark(_)) {
                    continue;
                }
                let Node::Bookmark(b) =
                    std::mem::replace(listed.node_mut(id), Separator::new().into())
                else {
                    unreachable!("a bookmark, just matched")
                };
                listings += 1;
                let at = match by_href.get(b.href.as_str()) {
                    Some(&at) => {
                        let first = doc.node(at).as_bookmark().expect("a bookmark");
                        if first.title != b.title || first.desc != b.desc {
                            differing += 1;
                        }
                        at
                    }
                    None => {
                        // Tags the page wrote itself (`TAGS=`, which Google
                        // never wrote) stay first, from the first listing.
                        budget.bookmark(&b)?;
                        let href = b.href.clone();
                        let at = doc.push(None, b);
                        by_href.insert(href, at);
                        at
                    }
                };
                for &n in path.iter().flatten() {
                    if has.insert((at, n)) {
                        let label = &names[n as usize];
                        budget.charge(label.len() + 32)?;
                        doc.as_bookmark_mut(at)
                            .expect("a bookmark")
                            .tags
                            .push(label.to_string());
                    }
                }
            }
        }
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

    #[test]
    fn a_browser_export_is_not_google() {
        let chrome = br#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p><DT><H3 ADD_DATE="1316018418">rust</H3>
<DL><p><DT><A HREF="https://www.rust-lang.org/" ADD_DATE="1316018418">Rust</A></DL></DL>"#;
        assert_eq!(detect(chrome), None);
        assert!(crate::detect(chrome).is_some());
    }
}
