//! Field-by-field comparison of two documents.
//!
//! Nodes of each kind are paired in document order. Bookmarks are paired by
//! position when both documents have as many; otherwise by href, in order,
//! and the unpaired ones count as a [`Field::Bookmark`] difference (a writer
//! merged or withheld entries). Folders and separators are paired the same
//! way when their counts differ (by title, in order), and each unpaired one
//! counts on its own, so a writer that drops 29 folders differs in
//! [`Field::Folder`] on 29 nodes, as its report says. Placement (which folder
//! holds a node) is part of [`Field::Folder`]; where separators and aliases
//! stand is part of their own fields.

use std::collections::{BTreeSet, HashMap, VecDeque};

use serde::Serialize;

use crate::document::{Document, NodeId};
use crate::field::Field;
use crate::loss::MAX_PATHS;
use crate::node::{Node, NodeKind};
use crate::value::Holder;

/// One field that differs, on how many nodes, and where (paths in the first document).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Difference {
    /// The field.
    pub field: Field,
    /// On how many nodes it differs.
    pub count: usize,
    /// The first few node paths, in the first document (empty for document fields).
    pub paths: Vec<String>,
    /// The nodes behind `paths`: each node of the first document with the
    /// node of the second it was compared with (none when it has no
    /// counterpart), so that a caller can show the two values.
    #[serde(skip)]
    pub nodes: Vec<(NodeId, Option<NodeId>)>,
}

/// The result of [`diff`]: every differing field, in [`Field::ALL`] order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Diff {
    /// The differences.
    pub differences: Vec<Difference>,
}

impl Diff {
    /// Whether the documents carry the same information.
    pub fn is_empty(&self) -> bool {
        self.differences.is_empty()
    }

    /// The fields that differ.
    pub fn fields(&self) -> BTreeSet<Field> {
        self.differences.iter().map(|d| d.field).collect()
    }
}

/// One line for people: `bookmark.tags differs on 2 nodes: News/BBC, ...`.
/// A date's written form says that the instant is the same:
/// `bookmark.added precision/offset differs on 1 node, same instant: ...`.
impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nodes = if self.count == 1 { "node" } else { "nodes" };
        match self.field.date_of_form() {
            Some(date) => write!(
                f,
                "{date} precision/offset differs on {} {nodes}, same instant",
                self.count
            )?,
            None => write!(f, "{} differs on {} {nodes}", self.field, self.count)?,
        }
        if !self.paths.is_empty() {
            write!(f, ": {}", self.paths.join(", "))?;
            if self.count > self.paths.len() {
                write!(f, ", ...")?;
            }
        }
        Ok(())
    }
}

struct Collector<'a> {
    a: &'a Document,
    found: HashMap<Field, Difference>,
    /// The node of the second document being compared, if any.
    other: Option<NodeId>,
}

impl Collector<'_> {
    fn add(&mut self, field: Field, node: Option<NodeId>) {
        let a = self.a;
        let d = self.found.entry(field).or_insert(Difference {
            field,
            count: 0,
            paths: Vec::new(),
            nodes: Vec::new(),
        });
        d.count += 1;
        if let Some(id) = node {
            if d.paths.len() < MAX_PATHS {
                d.paths.push(a.path(id));
                d.nodes.push((id, self.other));
            }
        }
    }

    fn check(&mut self, field: Field, node: Option<NodeId>, same: bool) {
        if !same {
            self.add(field, node);
        }
    }

    /// Every field of two holders of one scope: the value, and for a date
    /// whose instant is the same, how it was written (the field's [`Field::form`]).
    fn compare(&mut self, node: Option<NodeId>, x: Holder<'_>, y: Holder<'_>) {
        for field in Field::of(x.scope()) {
            let (Some(p), Some(q)) = (field.get(x), field.get(y)) else {
                continue;
            };
            if !p.same(&q) {
                self.add(field, node);
            } else if let Some(form) = field.form() {
                self.check(form, node, p.same_form(&q));
            }
        }
    }
}

/// Where a node stands: the ordinal of its folder among all folders (in
/// document order), and how many non-separator siblings precede it.
fn placements(doc: &Document) -> HashMap<NodeId, (Option<usize>, usize)> {
    let mut folder_ord = HashMap::new();
    for id in doc.preorder() {
        if doc.node(id).kind() == NodeKind::Folder {
            let n = folder_ord.len();
            folder_ord.insert(id, n);
        }
    }
    let mut place = HashMap::new();
    let mut parents: Vec<Option<NodeId>> = vec![None];
    parents.extend(folder_ord.keys().map(|&f| Some(f)));
    for parent in parents {
        let mut before = 0;
        for &child in doc.children(parent) {
            place.insert(child, (parent.map(|p| folder_ord[&p]), before));
            if doc.node(child).kind() != NodeKind::Separator {
                before += 1;
            }
        }
    }
    place
}

/// `s` as it reads back from an XML attribute: each tab and line end a space,
/// and what XML 1.0 cannot hold (NUL and most C0 controls, U+FFFE, U+FFFF) gone.
fn as_xml_attribute(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            '\t' | '\n' | '\r' => Some(' '),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => None,
            c => Some(c),
        })
        .collect()
}

fn of_kind(doc: &Document, kind: NodeKind) -> Vec<NodeId> {
    doc.preorder()
        .filter(|&id| doc.node(id).kind() == kind)
        .collect()
}

/// Pair nodes whose `key` agrees, in document order; returns the pairs, the
/// unpaired nodes of `a`, and how many of `b` are unpaired. Linear: one
/// queue per key.
fn pair_by<K: std::hash::Hash + Eq>(
    a: &Document,
    xa: &[NodeId],
    b: &Document,
    xb: &[NodeId],
    key: impl Fn(&Document, NodeId) -> K,
) -> (Vec<(NodeId, NodeId)>, Vec<NodeId>, usize) {
    let mut pool: HashMap<K, VecDeque<NodeId>> = HashMap::new();
    for &id in xb {
        pool.entry(key(b, id)).or_default().push_back(id);
    }
    let mut pairs = Vec::new();
    let mut unpaired_a = Vec::new();
    for &id in xa {
        match pool.get_mut(&key(a, id)).and_then(VecDeque::pop_front) {
            Some(y) => pairs.push((id, y)),
            None => unpaired_a.push(id),
        }
    }
    let unpaired_b = xb.len() - pairs.len();
    (pairs, unpaired_a, unpaired_b)
}

/// Pair bookmarks: by position when counts agree, else by href in order.
fn pair_bookmarks(
    a: &Document,
    xa: &[NodeId],
    b: &Document,
    xb: &[NodeId],
) -> (Vec<(NodeId, NodeId)>, Vec<NodeId>, usize) {
    if xa.len() == xb.len() {
        return (
            xa.iter().copied().zip(xb.iter().copied()).collect(),
            Vec::new(),
            0,
        );
    }
    // Three passes: bookmarks that agree on link and title first, so that a
    // left-out duplicate link does not shift the pairing of the others;
    // then the rest by link, in order; then by link as an XML attribute
    // reads back, so a link an XML writer had to change still pairs with its
    // original and its fields are compared.
    #[derive(Clone, Copy, PartialEq)]
    enum Pass {
        LinkAndTitle,
        Link,
        NormalizedLink,
    }
    let key = |d: &Document, id: NodeId, pass: Pass| {
        d.node(id)
            .as_bookmark()
            .map_or((String::new(), None), |b| match pass {
                Pass::LinkAndTitle => (b.href.clone(), b.title.clone()),
                Pass::Link => (b.href.clone(), None),
                Pass::NormalizedLink => (as_xml_attribute(&b.href), None),
            })
    };
    let mut taken_b = vec![false; xb.len()];
    let mut paired_a = vec![None; xa.len()];
    for pass in [Pass::LinkAndTitle, Pass::Link, Pass::NormalizedLink] {
        let mut pool: HashMap<(String, Option<String>), VecDeque<usize>> = HashMap::new();
        for (j, &id) in xb.iter().enumerate() {
            if !taken_b[j] {
                pool.entry(key(b, id, pass)).or_default().push_back(j);
            }
        }
        for (i, &id) in xa.iter().enumerate() {
            if paired_a[i].is_some() {
                continue;
            }
            if let Some(j) = pool
                .get_mut(&key(a, id, pass))
                .and_then(VecDeque::pop_front)
            {
                taken_b[j] = true;
                paired_a[i] = Some(j);
            }
        }
    }
    let mut pairs = Vec::new();
    let mut unpaired_a = Vec::new();
    for (i, &id) in xa.iter().enumerate() {
        match paired_a[i] {
            Some(j) => pairs.push((id, xb[j])),
            None => unpaired_a.push(id),
        }
    }
    let unpaired_b = taken_b.iter().filter(|t| !**t).count();
    (pairs, unpaired_a, unpaired_b)
}

/// Compare two documents field by field.
pub fn diff(a: &Document, b: &Document) -> Diff {
    let mut c = Collector {
        a,
        found: HashMap::new(),
        other: None,
    };
    c.compare(None, Holder::from(&a.header), Holder::from(&b.header));

    let place_a = placements(a);
    let place_b = placements(b);

    let fa = of_kind(a, NodeKind::Folder);
    let fb = of_kind(b, NodeKind::Folder);
    let folders_align = fa.len() == fb.len();
    // When a writer left folders out (or added some), each one counts, as in
    // the writer's report; the rest pair by title, in order.
    let folder_pairs = if folders_align {
        fa.iter().copied().zip(fb.iter().copied()).collect()
    } else {
        let title = |d: &Document, id: NodeId| d.node(id).title().map(str::to_owned);
        let (pairs, unpaired_a, unpaired_b) = pair_by(a, &fa, b, &fb, title);
        for id in unpaired_a {
            c.add(Field::Folder, Some(id));
        }
        for _ in 0..unpaired_b {
            c.add(Field::Folder, None);
        }
        pairs
    };
    for (x, y) in folder_pairs {
        c.other = Some(y);
        c.compare(Some(x), a.node(x).into(), b.node(y).into());
        if folders_align && place_a[&x].0 != place_b[&y].0 {
            c.add(Field::Folder, Some(x));
        }
    }
    c.other = None;

    let ba = of_kind(a, NodeKind::Bookmark);
    let bb = of_kind(b, NodeKind::Bookmark);
    let (pairs, unpaired_a, unpaired_b) = pair_bookmarks(a, &ba, b, &bb);
    for &id in &unpaired_a {
        c.add(Field::Bookmark, Some(id));
    }
    for _ in 0..unpaired_b {
        c.add(Field::Bookmark, None);
    }
    for (x, y) in pairs {
        c.other = Some(y);
        c.compare(Some(x), a.node(x).into(), b.node(y).into());
        if folders_align && place_a[&x].0 != place_b[&y].0 {
            c.add(Field::Folder, Some(x));
        }
    }
    c.other = None;

    let sa = of_kind(a, NodeKind::Separator);
    let sb = of_kind(b, NodeKind::Separator);
    let separators_align = sa.len() == sb.len();
    let separator_pairs = if separators_align {
        sa.iter().copied().zip(sb.iter().copied()).collect()
    } else {
        let title = |d: &Document, id: NodeId| d.node(id).title().map(str::to_owned);
        let (pairs, unpaired_a, unpaired_b) = pair_by(a, &sa, b, &sb, title);
        for id in unpaired_a {
            c.add(Field::Separator, Some(id));
        }
        for _ in 0..unpaired_b {
            c.add(Field::Separator, None);
        }
        pairs
    };
    for (x, y) in separator_pairs {
        c.other = Some(y);
        c.compare(Some(x), a.node(x).into(), b.node(y).into());
        if separators_align && folders_align && place_a[&x] != place_b[&y] {
            c.add(Field::Separator, Some(x));
        }
    }
    c.other = None;

    let aa = of_kind(a, NodeKind::Alias);
    let ab = of_kind(b, NodeKind::Alias);
    if aa.len() != ab.len() {
        c.add(Field::Alias, aa.first().copied());
    }
    for (&x, &y) in aa.iter().zip(&ab) {
        c.other = Some(y);
        if let (Node::Alias(p), Node::Alias(q)) = (a.node(x), b.node(y)) {
            let placed = !folders_align || place_a[&x].0 == place_b[&y].0;
            c.check(Field::Alias, Some(x), p.target == q.target && placed);
        }
        c.compare(Some(x), a.node(x).into(), b.node(y).into());
    }

    let mut differences: Vec<Difference> = c.found.into_values().collect();
    differences.sort_by_key(|d| d.field);
    Diff { differences }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Bookmark, Folder, Separator};
    use crate::time::DateValue;
    use crate::time::Timestamp;

    fn doc() -> Document {
        let mut d = Document::new();
        d.header.title = Some("Mine".into());
        let t = d.push(None, Folder::titled("Toolbar"));
        let news = d.push(Some(t), Folder::titled("News"));
        let mut b = Bookmark::new("https://bbc.co.uk/").with_title("BBC");
        b.tags = vec!["news".into(), "uk".into()];
        b.added = Some(Timestamp::from_unix(1_000_000_000, 500).unwrap().into());
        d.push(Some(news), b);
        d.push(Some(t), Separator::default());
        d.push(None, Bookmark::new("https://example.org/"));
        d
    }

    #[test]
    fn each_path_comes_with_the_two_nodes_compared() {
        let a = doc();
        let mut b = Document::new();
        // One bookmark fewer, and the other retitled: pairing is by link.
        b.push(None, Bookmark::new("https://example.org/").with_title("Ex"));
        let d = diff(&a, &b);
        let title = d
            .differences
            .iter()
            .find(|x| x.field == Field::BookmarkTitle);
        let (ax, bx) = (
            a.find_by_href("https://example.org/"),
            b.find_by_href("https://example.org/"),
        );
        assert_eq!(title.unwrap().nodes, vec![(ax.unwrap(), bx)]);
        let gone = d.differences.iter().find(|x| x.field == Field::Bookmark);
        assert_eq!(
            gone.unwrap().nodes,
            vec![(a.find_by_href("https://bbc.co.uk/").unwrap(), None)]
        );
    }

    #[test]
    fn identical_documents_do_not_differ() {
        assert!(diff(&doc(), &doc()).is_empty());
    }

    #[test]
    fn a_changed_field_is_named_with_its_path() {
        let a = doc();
        let mut b = doc();
        let bbc = b.find_by_href("https://bbc.co.uk/").unwrap();
        if let Node::Bookmark(bm) = b.node_mut(bbc) {
            bm.tags.pop();
            bm.added = Some(Timestamp::from_unix(1_000_000_000, 0).unwrap().into());
        }
        let d = diff(&a, &b);
        assert_eq!(
            d.fields().into_iter().collect::<Vec<_>>(),
            [Field::BookmarkAdded, Field::BookmarkTags]
        );
        assert_eq!(d.differences[0].paths, ["Toolbar/News/BBC"]);
    }

    #[test]
    fn flattening_is_a_folder_difference_and_dropping_separators_a_separator_one() {
        let a = doc();
        let mut b = Document::new();
        b.header.title = Some("Mine".into());
        for id in a.preorder() {
            if let Node::Bookmark(bm) = a.node(id) {
                b.push(None, bm.clone());
            }
        }
        let fields = diff(&a, &b).fields();
        assert!(fields.contains(&Field::Folder));
        assert!(fields.contains(&Field::Separator));
        assert!(!fields.contains(&Field::Bookmark));
        assert!(!fields.contains(&Field::BookmarkTitle));
    }

    #[test]
    fn each_dropped_folder_and_separator_counts_and_is_named() {
        let mut a = Document::new();
        let mut names = Vec::new();
        for i in 0..7 {
            let f = a.push(None, Folder::titled(format!("F{i}")));
            a.push(Some(f), Bookmark::new(format!("https://{i}.example/")));
            a.push(Some(f), Separator::default());
            names.push(format!("F{i}"));
        }
        let mut b = Document::new();
        b.push(None, Folder::titled("F3"));
        for id in a.preorder() {
            if let Node::Bookmark(bm) = a.node(id) {
                b.push(None, bm.clone());
            }
        }
        let d = diff(&a, &b);
        let folder = d.differences.iter().find(|x| x.field == Field::Folder);
        let folder = folder.unwrap();
        assert_eq!(folder.count, 6);
        assert_eq!(folder.paths, ["F0", "F1", "F2", "F4", "F5"]);
        let sep = d.differences.iter().find(|x| x.field == Field::Separator);
        assert_eq!(sep.unwrap().count, 7);
        assert_eq!(sep.unwrap().paths.len(), MAX_PATHS);

        // Added ones count too.
        let d = diff(&b, &a);
        let folder = d.differences.iter().find(|x| x.field == Field::Folder);
        assert_eq!(folder.unwrap().count, 6);
        let sep = d.differences.iter().find(|x| x.field == Field::Separator);
        assert_eq!(sep.unwrap().count, 7);
    }

    #[test]
    fn a_date_written_differently_is_a_form_difference_not_an_instant_one() {
        let mut a = Document::new();
        let mut year = Bookmark::new("x").with_title("X");
        year.added = Some(DateValue::from_w3c("1997"));
        year.modified = Some(DateValue::from_w3c("1997-07-16T19:20+01:00"));
        a.push(None, year);
        let mut b = Document::new();
        let mut utc = Bookmark::new("x").with_title("X");
        utc.added = Some(DateValue::from_w3c("1997-01-01T00:00:00Z"));
        utc.modified = Some(DateValue::from_w3c("1997-07-16T18:20:00Z"));
        let id = b.push(None, utc);
        let d = diff(&a, &b);
        assert_eq!(
            d.fields().into_iter().collect::<Vec<_>>(),
            [Field::BookmarkAddedForm, Field::BookmarkModifiedForm]
        );
        assert_eq!(
            d.differences[0].to_string(),
            "bookmark.added precision/offset differs on 1 node, same instant: X"
        );
        // A different instant is the date's own difference, not its form's.
        if let Node::Bookmark(bm) = b.node_mut(id) {
            bm.added = Some(DateValue::from_w3c("1998"));
        }
        assert!(diff(&a, &b).fields().contains(&Field::BookmarkAdded));
        assert!(!diff(&a, &b).fields().contains(&Field::BookmarkAddedForm));
    }

    #[test]
    fn a_merged_duplicate_is_a_bookmark_difference() {
        let mut a = Document::new();
        a.push(None, Bookmark::new("x"));
        a.push(None, Bookmark::new("y"));
        a.push(None, Bookmark::new("x"));
        let mut b = Document::new();
        b.push(None, Bookmark::new("x"));
        b.push(None, Bookmark::new("y"));
        assert_eq!(
            diff(&a, &b).fields().into_iter().collect::<Vec<_>>(),
            [Field::Bookmark]
        );
    }

    #[test]
    fn a_link_an_xml_writer_changed_still_pairs_with_its_original() {
        let mut a = Document::new();
        a.push(None, Bookmark::new("x"));
        a.push(None, Bookmark::new("x"));
        a.push(
            None,
            Bookmark::new("https://two.example/\tnew\0").with_title("Two"),
        );
        let mut b = Document::new();
        b.push(None, Bookmark::new("x"));
        b.push(
            None,
            Bookmark::new("https://two.example/ new").with_title("2"),
        );
        assert_eq!(
            diff(&a, &b).fields().into_iter().collect::<Vec<_>>(),
            [Field::Bookmark, Field::BookmarkHref, Field::BookmarkTitle]
        );
    }

    #[test]
    fn a_moved_bookmark_is_a_folder_difference() {
        let mut a = Document::new();
        let f = a.push(None, Folder::titled("F"));
        a.push(Some(f), Bookmark::new("x"));
        let mut b = Document::new();
        b.push(None, Folder::titled("F"));
        b.push(None, Bookmark::new("x"));
        assert_eq!(
            diff(&a, &b).fields().into_iter().collect::<Vec<_>>(),
            [Field::Folder]
        );
    }
}
