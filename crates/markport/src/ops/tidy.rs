//! Operations that make a collection fit a tool that is stricter than the
//! one it came from: tags in the one style a tag-based service accepts,
//! and no keys only the source browser understands.

use std::collections::HashSet;

use markport_model::{Document, Node, NodeId};

/// How `--tag-style` writes a tag. Shaarli splits tags on spaces and
/// linkding refuses a tag with one (linkding#182), so a folder title such
/// as "New folder" made a tag needs another form there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TagStyle {
    /// As they are.
    Keep,
    /// Each run of white space a hyphen: `New-folder`.
    Hyphen,
    /// Each run of white space an underscore: `New_folder`.
    Underscore,
    /// Lower case, each run of white space a hyphen: `new-folder`.
    LowerHyphen,
}

impl TagStyle {
    /// The style's name, as `--tag-style` takes it.
    pub fn name(self) -> &'static str {
        match self {
            TagStyle::Keep => "keep",
            TagStyle::Hyphen => "hyphen",
            TagStyle::Underscore => "underscore",
            TagStyle::LowerHyphen => "lower-hyphen",
        }
    }

    /// `tag` in this style: trimmed, runs of white space (and commas, which
    /// every comma-separated TAGS attribute would split on) joined by the
    /// style's separator.
    ///
    /// ```
    /// use markport::ops::TagStyle;
    ///
    /// assert_eq!(TagStyle::Hyphen.apply(" New  folder "), "New-folder");
    /// assert_eq!(TagStyle::Underscore.apply("a, b"), "a_b");
    /// assert_eq!(TagStyle::LowerHyphen.apply("Rust Lang"), "rust-lang");
    /// assert_eq!(TagStyle::Keep.apply("As Is"), "As Is");
    /// ```
    pub fn apply(self, tag: &str) -> String {
        let separator = match self {
            TagStyle::Keep => return tag.to_string(),
            TagStyle::Hyphen | TagStyle::LowerHyphen => "-",
            TagStyle::Underscore => "_",
        };
        let words: Vec<&str> = tag
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        let joined = words.join(separator);
        if self == TagStyle::LowerHyphen {
            joined.to_lowercase()
        } else {
            joined
        }
    }
}

/// Rewrite every bookmark's tags in `style`; two tags of one bookmark that
/// become the same are one, where the first was, and a tag that becomes
/// empty goes. Returns how many bookmarks changed.
///
/// ```
/// use markport::ops::{restyle_tags, TagStyle};
/// use markport::{Bookmark, Document};
///
/// let mut doc = Document::new();
/// let mut b = Bookmark::new("https://example.org/");
/// b.tags = vec!["New folder".into(), "new-folder".into(), " ".into(), "x".into()];
/// let id = doc.push(None, b);
/// assert_eq!(restyle_tags(&mut doc, TagStyle::LowerHyphen), 1);
/// assert_eq!(doc.node(id).as_bookmark().unwrap().tags, ["new-folder", "x"]);
/// ```
pub fn restyle_tags(doc: &mut Document, style: TagStyle) -> usize {
    if style == TagStyle::Keep {
        return 0;
    }
    let ids: Vec<NodeId> = doc.ids().collect();
    let mut changed = 0;
    for id in ids {
        let Some(b) = doc.as_bookmark_mut(id) else {
            continue;
        };
        if b.tags.is_empty() {
            continue;
        }
        let mut seen = HashSet::with_capacity(b.tags.len());
        let styled: Vec<String> = b
            .tags
            .iter()
            .map(|t| style.apply(t))
            .filter(|t| !t.is_empty() && seen.insert(t.clone()))
            .collect();
        if styled != b.tags {
            b.tags = styled;
            changed += 1;
        }
    }
    changed
}

/// Leave out what only the source program understands: every node's and
/// the document's `extra` attributes and keys (Netscape's unknown
/// attributes, Chromium's `ROOTS.SYNC_TRANSACTION_VERSION`), Chromium's
/// `meta_info`, and node ids no alias refers to (Netscape `ID=`, XBEL
/// `id`). Returns how many nodes (the document counting as one) changed.
///
/// A file Floccus syncs (its header carries Floccus' highestId comment,
/// [`Header::floccus_highest_id`](crate::Header::floccus_highest_id))
/// keeps every folder's and bookmark's id: they are the sync's identity,
/// not the source program's private data, and Floccus takes an item whose
/// id it cannot find for one removed (floccus#1426).
///
/// ```
/// use markport::ops::drop_extra;
/// use markport::model::Attribute;
/// use markport::{Bookmark, Document};
///
/// let mut doc = Document::new();
/// let mut b = Bookmark::new("https://example.org/");
/// b.details_mut().extra.push(Attribute::new("WEB_PANEL", "true"));
/// b.details_mut().id = Some("rdf:#$1".into());
/// let id = doc.push(None, b);
/// assert_eq!(drop_extra(&mut doc), 1);
/// let b = doc.node(id).as_bookmark().unwrap();
/// assert!(b.details().extra.is_empty() && b.details().id.is_none());
/// ```
pub fn drop_extra(doc: &mut Document) -> usize {
    let referred: HashSet<String> = doc
        .ids()
        .filter_map(|id| match doc.node(id) {
            Node::Alias(a) => Some(a.target.clone()),
            _ => None,
        })
        .collect();
    // Dropping a Floccus file's ids would make the XBEL writer number every
    // item anew, which Floccus reads as everything removed and added again.
    let floccus = doc.header.floccus_highest_id().is_some();
    let keep_id =
        |id: &Option<String>| floccus || id.as_ref().is_some_and(|i| referred.contains(i));
    let mut changed = usize::from(!doc.header.extra.is_empty());
    doc.header.extra.clear();
    let ids: Vec<NodeId> = doc.ids().collect();
    for id in ids {
        let node = doc.node_mut(id);
        let touched = match node {
            Node::Bookmark(b) => {
                let d = b.details();
                let touched = !d.extra.is_empty()
                    || !d.meta_info.is_empty()
                    || (d.id.is_some() && !keep_id(&d.id));
                if touched {
                    let drop_id = !keep_id(&b.details().id);
                    let d = b.details_mut();
                    d.extra.clear();
                    d.meta_info.clear();
                    if drop_id {
                        d.id = None;
                    }
                }
                touched
            }
            Node::Folder(f) => {
                let touched = !f.extra.is_empty()
                    || !f.meta_info.is_empty()
                    || (f.id.is_some() && !keep_id(&f.id));
                f.extra.clear();
                f.meta_info.clear();
                if !keep_id(&f.id) {
                    f.id = None;
                }
                touched
            }
            Node::Separator(s) => {
                let touched = !s.extra.is_empty();
                s.extra.clear();
                touched
            }
            Node::Alias(a) => {
                let touched = !a.extra.is_empty();
                a.extra.clear();
                touched
            }
            _ => false,
        };
        changed += usize::from(touched);
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::{Attribute, Bookmark, Folder};

    /// A folder holding a bookmark, each with an id and an extra attribute.
    fn with_ids(comment: &str) -> (Document, NodeId, NodeId) {
        let mut doc = Document::new();
        doc.header.comments.push(comment.into());
        let mut f = Folder::titled("Reading");
        f.id = Some("1".into());
        f.extra.push(Attribute::new("folded", "no"));
        let folder = doc.push(None, f);
        let mut b = Bookmark::new("https://example.org/");
        b.details_mut().id = Some("2".into());
        b.details_mut()
            .extra
            .push(Attribute::new("WEB_PANEL", "true"));
        let bookmark = doc.push(Some(folder), b);
        (doc, folder, bookmark)
    }

    #[test]
    fn a_floccus_file_keeps_its_ids_and_loses_its_extra_attributes() {
        let (mut doc, folder, bookmark) =
            with_ids("- highestId :2: for Floccus bookmark sync browser extension ");
        assert_eq!(drop_extra(&mut doc), 2);
        let f = doc.node(folder).as_folder().unwrap();
        assert_eq!((f.id.as_deref(), f.extra.len()), (Some("1"), 0));
        let b = doc.node(bookmark).as_bookmark().unwrap().details();
        assert_eq!((b.id.as_deref(), b.extra.len()), (Some("2"), 0));
        assert!(doc.header.floccus_highest_id().is_some());
    }

    #[test]
    fn the_same_ids_without_floccus_comment_are_dropped() {
        let (mut doc, folder, bookmark) = with_ids(" exported for a test ");
        drop_extra(&mut doc);
        assert_eq!(doc.node(folder).as_folder().unwrap().id, None);
        let b = doc.node(bookmark).as_bookmark().unwrap().details();
        assert_eq!(b.id, None);
    }
}
