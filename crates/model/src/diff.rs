//! Field-by-field comparison of two documents.
//!
//! Nodes of each kind are paired, and what is left unpaired counts as a
//! difference of the kind's presence field on its own: a writer that drops
//! 29 folders differs in [`Field::Folder`] on 29 nodes, as its report says,
//! and a node only the second document has is listed by its path there.
//!
//! - Folders pair by path first (the titles from the top level down), so a
//!   browser that reorders its roots differs in nothing; then, top-down, by
//!   title under the folder their parent paired with, by title anywhere (a
//!   moved folder), and by position among their parent's unpaired folders
//!   (a renamed one).
//! - Bookmarks of a link both documents hold equally often (more than
//!   once) pair in order; the others by link and title, then by link, then by link as an XML
//!   attribute reads back, then by [`link_key`] (the WHATWG form, so a link
//!   a browser rewrote, `HTTP://Example.COM` as `http://example.com/`, is a
//!   changed `bookmark.href`); when both documents have as many bookmarks,
//!   the rest pair by position.
//! - Separators pair by position when their counts agree, else by title;
//!   aliases by position when their counts agree, else by target.
//!
//! Placement (which folder holds a node) is part of [`Field::Folder`]: a
//! paired node whose parent did not pair with its counterpart's parent. A
//! node whose own folder did not pair is not counted again (its folder is
//! the difference); one that stood at the top level or in a paired folder
//! and now sits in a folder only the second document has moved (a writer
//! putting loose items into a root it adds moves each of them).
//! Where separators and aliases stand is part of their own fields. Every
//! pairing is a hash lookup per node: linear in both documents.

use std::collections::{BTreeSet, HashMap, VecDeque};

use serde::Serialize;

use crate::display::{shown, VALUE_CHARS};
use crate::document::{Document, NodeId};
use crate::field::Field;
use crate::link::link_key;
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
    /// The first few nodes only the second document has, by their paths
    /// there (a folder or bookmark added).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_second: Vec<String>,
    /// The nodes of the second document behind `only_second`.
    #[serde(skip)]
    pub second_nodes: Vec<NodeId>,
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
/// Paths are shown escaped and cut ([`crate::display::shown`]).
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
        let list = |paths: &[String]| {
            paths
                .iter()
                .map(|p| shown(p, VALUE_CHARS))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.paths.is_empty() {
            write!(f, ": {}", list(&self.paths))?;
        }
        if !self.only_second.is_empty() {
            let sep = if self.paths.is_empty() { ":" } else { ";" };
            write!(f, "{sep} only in the second: {}", list(&self.only_second))?;
        }
        if self.count > self.paths.len() + self.only_second.len()
            && !(self.paths.is_empty() && self.only_second.is_empty())
        {
            write!(f, ", ...")?;
        }
        Ok(())
    }
}

struct Collector<'a> {
    a: &'a Document,
    b: &'a Document,
    found: HashMap<Field, Difference>,
    /// The node of the second document being compared, if any.
    other: Option<NodeId>,
    /// How many paths each difference lists (of each document).
    max_paths: usize,
}

impl Collector<'_> {
    fn entry(&mut self, field: Field) -> &mut Difference {
        self.found.entry(field).or_insert(Difference {
            field,
            count: 0,
            paths: Vec::new(),
            nodes: Vec::new(),
            only_second: Vec::new(),
            second_nodes: Vec::new(),
        })
    }

    fn add(&mut self, field: Field, node: Option<NodeId>) {
        let (a, max, other) = (self.a, self.max_paths, self.other);
        let d = self.entry(field);
        d.count += 1;
        if let Some(id) = node {
            if d.paths.len() < max {
                d.paths.push(a.path(id));
                d.nodes.push((id, other));
            }
        }
    }

    /// A node only the second document has.
    fn add_second(&mut self, field: Field, node: NodeId) {
        let (b, max) = (self.b, self.max_paths);
        let d = self.entry(field);
        d.count += 1;
        if d.only_second.len() < max {
            d.only_second.push(b.path(node));
            d.second_nodes.push(node);
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

/// Which node of the other document each node paired with.
struct Pairs {
    /// By index of the first document's node.
    of_a: Vec<Option<NodeId>>,
    /// Whether each node of the second document is taken.
    taken_b: Vec<bool>,
}

impl Pairs {
    fn new(a: &Document, b: &Document) -> Pairs {
        Pairs {
            of_a: vec![None; a.len()],
            taken_b: vec![false; b.len()],
        }
    }

    fn pair(&mut self, x: NodeId, y: NodeId) {
        self.of_a[x.index()] = Some(y);
        self.taken_b[y.index()] = true;
    }

    fn paired(&self, x: NodeId) -> Option<NodeId> {
        self.of_a[x.index()]
    }

    /// The first node of `queue` not yet taken (each is popped once).
    fn next(&self, queue: Option<&mut VecDeque<NodeId>>) -> Option<NodeId> {
        let queue = queue?;
        while let Some(y) = queue.pop_front() {
            if !self.taken_b[y.index()] {
                return Some(y);
            }
        }
        None
    }

    /// Where the parent of `x` (in the first document) stands in the
    /// second: `Some(None)` the top level, `Some(Some(p))` the folder it
    /// paired with, `None` a folder that did not pair.
    fn parent(&self, a: &Document, x: NodeId) -> Option<Option<NodeId>> {
        match a.parent(x) {
            None => Some(None),
            Some(p) => self.paired(p).map(Some),
        }
    }

    /// Whether paired `x` and `y` stand in the same folder. A node whose
    /// folder in the first document did not pair is not counted again: its
    /// folder is the difference. A node whose folder did pair (or that
    /// stood at the top level) but that now sits elsewhere moved, also
    /// when it sits in a folder only the second document has (a writer
    /// that puts loose items into a root it adds moved each of them).
    fn same_place(&self, a: &Document, b: &Document, x: NodeId, y: NodeId) -> bool {
        self.parent(a, x).is_none_or(|p| p == b.parent(y))
    }
}

/// Each folder's path (titles from the top level down) as a number two
/// documents share: one lookup per folder, whatever the depth.
fn path_ids(
    doc: &Document,
    folders: &[NodeId],
    table: &mut HashMap<(usize, Option<String>), usize>,
) -> HashMap<NodeId, usize> {
    let mut ids: HashMap<NodeId, usize> = HashMap::with_capacity(folders.len());
    // `folders` is in document order, so a parent comes before its children.
    for &f in folders {
        let parent = doc.parent(f).map_or(0, |p| ids[&p]);
        let key = (parent, doc.node(f).title().map(str::to_owned));
        let next = table.len() + 1;
        ids.insert(f, *table.entry(key).or_insert(next));
    }
    ids
}

/// Pair folders: by path; then, top-down, by title under the folder the
/// parent paired with, by title anywhere, and by position among the
/// parent's unpaired folders.
fn pair_folders(a: &Document, fa: &[NodeId], b: &Document, fb: &[NodeId], pairs: &mut Pairs) {
    let mut table = HashMap::new();
    let (pa, pb) = (path_ids(a, fa, &mut table), path_ids(b, fb, &mut table));
    let mut by_path: HashMap<usize, VecDeque<NodeId>> = HashMap::new();
    for &y in fb {
        by_path.entry(pb[&y]).or_default().push_back(y);
    }
    for &x in fa {
        if let Some(y) = pairs.next(by_path.get_mut(&pa[&x])) {
            pairs.pair(x, y);
        }
    }
    let title = |d: &Document, id: NodeId| d.node(id).title().map(str::to_owned);
    let mut by_place: HashMap<(Option<NodeId>, Option<String>), VecDeque<NodeId>> = HashMap::new();
    let mut by_title: HashMap<Option<String>, VecDeque<NodeId>> = HashMap::new();
    let mut by_parent: HashMap<Option<NodeId>, VecDeque<NodeId>> = HashMap::new();
    for &y in fb.iter().filter(|y| !pairs.taken_b[y.index()]) {
        by_place
            .entry((b.parent(y), title(b, y)))
            .or_default()
            .push_back(y);
        by_title.entry(title(b, y)).or_default().push_back(y);
        by_parent.entry(b.parent(y)).or_default().push_back(y);
    }
    for &x in fa {
        if pairs.paired(x).is_some() {
            continue;
        }
        let parent = pairs.parent(a, x);
        let t = title(a, x);
        let found = parent
            .and_then(|p| pairs.next(by_place.get_mut(&(p, t.clone()))))
            .or_else(|| pairs.next(by_title.get_mut(&t)))
            .or_else(|| parent.and_then(|p| pairs.next(by_parent.get_mut(&p))));
        if let Some(y) = found {
            pairs.pair(x, y);
        }
    }
}

/// Pair nodes whose `key` agrees, in document order, among those not yet
/// paired. Linear: one queue per key.
fn pair_by_key<K: std::hash::Hash + Eq>(
    a: &Document,
    xa: &[NodeId],
    b: &Document,
    xb: &[NodeId],
    pairs: &mut Pairs,
    key: impl Fn(&Document, NodeId) -> K,
) {
    let mut pool: HashMap<K, VecDeque<NodeId>> = HashMap::new();
    for &y in xb.iter().filter(|y| !pairs.taken_b[y.index()]) {
        pool.entry(key(b, y)).or_default().push_back(y);
    }
    for &x in xa {
        if pairs.paired(x).is_none() {
            if let Some(y) = pairs.next(pool.get_mut(&key(a, x))) {
                pairs.pair(x, y);
            }
        }
    }
}

/// Pair the unpaired nodes of `xa` and `xb` in order.
fn pair_by_position(xa: &[NodeId], xb: &[NodeId], pairs: &mut Pairs) {
    let rest_b = xb.iter().filter(|y| !pairs.taken_b[y.index()]).copied();
    let rest_a: Vec<NodeId> = xa
        .iter()
        .filter(|x| pairs.paired(**x).is_none())
        .copied()
        .collect();
    for (x, y) in rest_a.into_iter().zip(rest_b.collect::<Vec<_>>()) {
        pairs.pair(x, y);
    }
}

/// Pair bookmarks: by link and title (so a left-out duplicate link does not
/// shift the pairing of the others), by link, by link as an XML attribute
/// reads back (a link an XML writer had to change still pairs with its
/// original, and its fields are compared), by [`link_key`]; when the counts
/// agree, the rest by position.
fn pair_bookmarks(a: &Document, xa: &[NodeId], b: &Document, xb: &[NodeId], pairs: &mut Pairs) {
    fn href(d: &Document, id: NodeId) -> Option<&str> {
        d.node(id).as_bookmark().map(|b| b.href.as_str())
    }
    // A link both documents hold equally often, more than once: its
    // bookmarks pair in order, so that a writer changing one twin's title
    // (whitespace collapsed) does not swap it with the other.
    let times = |d: &Document, xs: &[NodeId]| {
        let mut n: HashMap<String, usize> = HashMap::new();
        for &x in xs {
            if let Some(h) = href(d, x) {
                *n.entry(h.to_owned()).or_default() += 1;
            }
        }
        n
    };
    let (na, nb) = (times(a, xa), times(b, xb));
    let mut twins: HashMap<&str, VecDeque<NodeId>> = HashMap::new();
    for &y in xb {
        if let Some(h) = href(b, y).filter(|h| na.get(*h).is_some_and(|&n| n > 1 && nb[*h] == n)) {
            twins.entry(h).or_default().push_back(y);
        }
    }
    for &x in xa {
        if let Some(y) = href(a, x)
            .and_then(|h| twins.get_mut(h))
            .and_then(|q| q.pop_front())
        {
            pairs.pair(x, y);
        }
    }
    pair_by_key(a, xa, b, xb, pairs, |d, id| {
        (
            href(d, id).map(str::to_owned),
            d.node(id).title().map(str::to_owned),
        )
    });
    pair_by_key(a, xa, b, xb, pairs, |d, id| href(d, id).map(str::to_owned));
    pair_by_key(a, xa, b, xb, pairs, |d, id| {
        href(d, id).map(as_xml_attribute)
    });
    pair_by_key(a, xa, b, xb, pairs, |d, id| {
        href(d, id).map(|h| link_key(h).into_owned())
    });
    if xa.len() == xb.len() {
        pair_by_position(xa, xb, pairs);
    }
}

/// Compare two documents field by field, listing up to [`MAX_PATHS`] paths
/// per difference.
pub fn diff(a: &Document, b: &Document) -> Diff {
    diff_listing(a, b, MAX_PATHS)
}

/// [`diff`], listing up to `max_paths` paths of each document per
/// difference (`usize::MAX`: all, as `markport diff --all`).
pub fn diff_listing(a: &Document, b: &Document, max_paths: usize) -> Diff {
    let mut c = Collector {
        a,
        b,
        found: HashMap::new(),
        other: None,
        max_paths,
    };
    c.compare(None, Holder::from(&a.header), Holder::from(&b.header));
    let mut pairs = Pairs::new(a, b);

    // Each kind: pair, compare the pairs, count the unpaired of each side.
    let unpaired = |c: &mut Collector<'_>, pairs: &Pairs, field, xa: &[NodeId], xb: &[NodeId]| {
        for &x in xa.iter().filter(|x| pairs.paired(**x).is_none()) {
            c.add(field, Some(x));
        }
        for &y in xb.iter().filter(|y| !pairs.taken_b[y.index()]) {
            c.add_second(field, y);
        }
    };

    let fa = of_kind(a, NodeKind::Folder);
    let fb = of_kind(b, NodeKind::Folder);
    pair_folders(a, &fa, b, &fb, &mut pairs);
    unpaired(&mut c, &pairs, Field::Folder, &fa, &fb);
    for &x in &fa {
        let Some(y) = pairs.paired(x) else { continue };
        c.other = Some(y);
        c.compare(Some(x), a.node(x).into(), b.node(y).into());
        if !pairs.same_place(a, b, x, y) {
            c.add(Field::Folder, Some(x));
        }
    }
    c.other = None;

    let ba = of_kind(a, NodeKind::Bookmark);
    let bb = of_kind(b, NodeKind::Bookmark);
    pair_bookmarks(a, &ba, b, &bb, &mut pairs);
    unpaired(&mut c, &pairs, Field::Bookmark, &ba, &bb);
    for &x in &ba {
        let Some(y) = pairs.paired(x) else { continue };
        c.other = Some(y);
        c.compare(Some(x), a.node(x).into(), b.node(y).into());
        if !pairs.same_place(a, b, x, y) {
            c.add(Field::Folder, Some(x));
        }
    }
    c.other = None;

    let sa = of_kind(a, NodeKind::Separator);
    let sb = of_kind(b, NodeKind::Separator);
    let separators_align = sa.len() == sb.len();
    if separators_align {
        pair_by_position(&sa, &sb, &mut pairs);
    } else {
        pair_by_key(a, &sa, b, &sb, &mut pairs, |d, id| {
            d.node(id).title().map(str::to_owned)
        });
    }
    unpaired(&mut c, &pairs, Field::Separator, &sa, &sb);
    // Where a separator stands: its folder, and how many non-separator
    // siblings precede it (one pass over each folder that holds one).
    let sibling_counts = |d: &Document, xs: &[NodeId]| -> HashMap<NodeId, usize> {
        let mut out = HashMap::new();
        let mut done = std::collections::HashSet::new();
        for p in xs.iter().map(|&s| d.parent(s)) {
            if !done.insert(p) {
                continue;
            }
            let mut n = 0;
            for &child in d.children(p) {
                if d.node(child).kind() == NodeKind::Separator {
                    out.insert(child, n);
                } else {
                    n += 1;
                }
            }
        }
        out
    };
    let (ka, kb) = (sibling_counts(a, &sa), sibling_counts(b, &sb));
    for &x in &sa {
        let Some(y) = pairs.paired(x) else { continue };
        c.other = Some(y);
        c.compare(Some(x), a.node(x).into(), b.node(y).into());
        if separators_align && (!pairs.same_place(a, b, x, y) || ka[&x] != kb[&y]) {
            c.add(Field::Separator, Some(x));
        }
    }
    c.other = None;

    // Aliases pair by position when their counts agree, else by target;
    // each one left over counts, as a dropped folder does.
    let aa = of_kind(a, NodeKind::Alias);
    let ab = of_kind(b, NodeKind::Alias);
    if aa.len() == ab.len() {
        pair_by_position(&aa, &ab, &mut pairs);
    } else {
        pair_by_key(a, &aa, b, &ab, &mut pairs, |d, id| match d.node(id) {
            Node::Alias(x) => Some(x.target.clone()),
            _ => None,
        });
    }
    unpaired(&mut c, &pairs, Field::Alias, &aa, &ab);
    for &x in &aa {
        let Some(y) = pairs.paired(x) else { continue };
        c.other = Some(y);
        if let (Node::Alias(p), Node::Alias(q)) = (a.node(x), b.node(y)) {
            let placed = pairs.same_place(a, b, x, y);
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
        let f3 = b.push(None, Folder::titled("F3"));
        for id in a.preorder() {
            if let Node::Bookmark(bm) = a.node(id) {
                // The kept folder keeps its bookmark: only the drops differ.
                let parent = (bm.href == "https://3.example/").then_some(f3);
                b.push(parent, bm.clone());
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

        // Added ones count too; and a bookmark put into an added folder
        // from a place that is still there (the top level) moved: 6 + 6.
        let d = diff(&b, &a);
        let folder = d.differences.iter().find(|x| x.field == Field::Folder);
        assert_eq!(folder.unwrap().count, 12);
        assert_eq!(folder.unwrap().only_second.len(), MAX_PATHS);
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

    #[test]
    fn a_node_only_the_second_document_has_is_listed_by_its_path_there() {
        let a = doc();
        let mut b = doc();
        let news = b
            .find_by_href("https://bbc.co.uk/")
            .and_then(|id| b.parent(id));
        let added = b.push(
            news,
            Bookmark::new("https://new.example/").with_title("New"),
        );
        let extra = b.push(None, Folder::titled("Extra"));
        let d = diff(&a, &b);
        let bookmark = d
            .differences
            .iter()
            .find(|x| x.field == Field::Bookmark)
            .unwrap();
        assert_eq!(bookmark.count, 1);
        assert!(bookmark.paths.is_empty());
        assert_eq!(bookmark.only_second, ["Toolbar/News/New"]);
        assert_eq!(bookmark.second_nodes, [added]);
        assert_eq!(
            bookmark.to_string(),
            "bookmark differs on 1 node: only in the second: Toolbar/News/New"
        );
        let folder = d
            .differences
            .iter()
            .find(|x| x.field == Field::Folder)
            .unwrap();
        assert_eq!(
            (folder.count, folder.second_nodes.as_slice()),
            (1, &[extra][..])
        );
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(
            json["differences"][0]["only_second"],
            serde_json::json!(["Toolbar/News/New"])
        );
    }

    #[test]
    fn diff_listing_lifts_the_cap_on_paths() {
        let a = Document::new();
        let mut b = Document::new();
        for i in 0..12 {
            b.push(None, Bookmark::new(format!("https://{i}.example/")));
        }
        assert_eq!(diff(&a, &b).differences[0].only_second.len(), MAX_PATHS);
        let all = diff_listing(&a, &b, usize::MAX);
        assert_eq!(all.differences[0].count, 12);
        assert_eq!(all.differences[0].only_second.len(), 12);
        assert!(!all.differences[0].to_string().ends_with("..."));
        assert!(diff(&a, &b).differences[0].to_string().ends_with(", ..."));
    }

    #[test]
    fn reordered_roots_pair_by_path_and_differ_in_nothing() {
        let mut a = Document::new();
        let mut roots = Vec::new();
        for name in ["Toolbar", "Menu", "Other"] {
            let f = a.push(None, Folder::titled(name));
            let sub = a.push(Some(f), Folder::titled("Sub"));
            for i in 0..10 {
                a.push(
                    Some(sub),
                    Bookmark::new(format!("https://{name}.example/{i}")),
                );
            }
            roots.push(f);
        }
        // The same tree with the roots in another order.
        let mut b = Document::new();
        for &root in roots.iter().rev() {
            let name = a.node(root).title().unwrap();
            let f = b.push(None, Folder::titled(name));
            let sub = b.push(Some(f), Folder::titled("Sub"));
            for i in 0..10 {
                b.push(
                    Some(sub),
                    Bookmark::new(format!("https://{name}.example/{i}")),
                );
            }
        }
        assert!(diff(&a, &b).is_empty(), "{:?}", diff(&a, &b));
        // A renamed root is one title difference, not its whole subtree.
        let Node::Folder(f) = b.node_mut(b.children(None)[0]) else {
            panic!("a folder")
        };
        f.title = Some("Elsewhere".into());
        let d = diff(&a, &b);
        assert_eq!(
            d.fields().into_iter().collect::<Vec<_>>(),
            [Field::FolderTitle]
        );
        assert_eq!(d.differences[0].count, 1);
    }

    #[test]
    fn items_put_into_an_added_root_moved_and_twins_pair_in_order() {
        // As Firefox's writer does: loose items go into a root it adds.
        let twin = |title: &str, desc: &str| {
            let mut b = Bookmark::new("x").with_title(title);
            b.desc = Some(desc.into());
            b
        };
        let mut a = Document::new();
        a.push(None, twin("One  space", "first"));
        a.push(None, twin("One space", "second"));
        a.push(None, Separator::default());
        let mut b = Document::new();
        let menu = b.push(None, Folder::titled("menu"));
        // The writer collapsed the first twin's title: still paired in
        // order, so the descriptions are the same.
        b.push(Some(menu), twin("One space", "first"));
        b.push(Some(menu), twin("One space", "second"));
        b.push(Some(menu), Separator::default());
        let d = diff(&a, &b);
        let count = |f: Field| d.differences.iter().find(|x| x.field == f).map(|x| x.count);
        // The added root, and the two bookmarks moved into it.
        assert_eq!(count(Field::Folder), Some(3));
        assert_eq!(count(Field::Separator), Some(1));
        assert_eq!(count(Field::BookmarkTitle), Some(1));
        assert_eq!(count(Field::BookmarkDesc), None);
        let title = d
            .differences
            .iter()
            .find(|x| x.field == Field::BookmarkTitle);
        assert_eq!(title.unwrap().nodes[0].0, a.children(None)[0]);
        // Dropped aliases count one by one.
        let mut with = Document::new();
        for t in ["p", "q", "r"] {
            with.push(None, crate::node::Alias::new(t));
        }
        let d = diff(&with, &Document::new());
        assert_eq!(d.differences[0].field, Field::Alias);
        assert_eq!(d.differences[0].count, 3);
    }

    #[test]
    fn a_link_the_browser_rewrote_is_a_changed_href_not_a_removal_and_an_addition() {
        let mut a = Document::new();
        a.push(None, Bookmark::new("HTTP://Example.COM").with_title("Ex"));
        a.push(None, Bookmark::new("https://gone.example/"));
        let mut b = Document::new();
        b.push(None, Bookmark::new("http://example.com/").with_title("Ex"));
        let d = diff(&a, &b);
        assert_eq!(
            d.fields().into_iter().collect::<Vec<_>>(),
            [Field::Bookmark, Field::BookmarkHref]
        );
        let bookmark = &d.differences[0];
        assert_eq!(
            (bookmark.count, bookmark.paths.as_slice()),
            (1, &["https://gone.example/".to_owned()][..])
        );
    }
}
