//! The comparison of what a tool wrote with what it should have written.
//!
//! `reference` is what a perfect tool yields (the expected model carried
//! through markport's own writer for the target format and read back);
//! `got` is the tool's output, read by markport. Only the reference's values
//! count: each is kept, changed or lost. What the tool adds is not held
//! against it. The rules (docs/conformance.md):
//!
//! - folders pair by role first (roots by role, wherever they stand), then by
//!   path: the same title, after [`normalize_title`], under the paired parent;
//! - bookmarks pair by link in WHATWG form ([`canonical_url`]), in document
//!   order, preferring one in the paired folder; a bookmark whose link
//!   changed pairs by title in the paired folder (`bookmark.href` changed);
//! - titles compare after [`normalize_title`];
//! - dates compare by instant, and when the instant is kept, by how they were
//!   written (the `.form` checks); tags as sets unless asked for lists;
//! - `order`: in each paired folder, the fewest nodes that would have to move
//!   to restore the reference's order are `changed`.
//!
//! Every step is linear in the documents (hash maps keyed by the pairing
//! keys, one longest-increasing-subsequence per folder), whatever the shape.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use markport_model::{
    Document, Field, Holder, NodeId, NodeKind, Role, Scope, Support, Value, MAX_PATHS,
};
use serde::Serialize;

use crate::level::extra;

/// How to compare.
#[derive(Clone, Debug, Default)]
pub struct CompareOptions {
    /// Compare tags as lists (order and repeats count) instead of sets.
    pub ordered_tags: bool,
    /// Modify-then-reload: the link and title the tool was asked to add.
    pub added: Option<(String, String)>,
    /// Hold titles as written to the input's own (a round trip: the format
    /// can hold them as they were), not to what markport's writer made of
    /// them; for the `.form` checks of titles.
    pub titles_as_input: bool,
}

/// One check's count on one file, or on a whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// How many values the reference holds.
    pub values: usize,
    /// How many the tool wrote the same.
    pub kept: usize,
    /// How many it wrote differently.
    pub changed: usize,
    /// How many it left out.
    pub lost: usize,
    /// The first paths of changed values (`file: Folder/Title`).
    pub changed_paths: Vec<String>,
    /// The first paths of lost values.
    pub lost_paths: Vec<String>,
    /// The first values changed or lost, before and after.
    pub examples: Vec<Example>,
    /// How many changed values each likely cause explains ([`crate::cause`]).
    pub causes: BTreeMap<&'static str, usize>,
}

/// One value a tool changed or lost: where, what it was, what it became.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Example {
    /// `file: Folder/Title`, as in the paths.
    pub path: String,
    /// The value a perfect tool writes.
    pub before: String,
    /// What the tool wrote; `None` when it lost the value.
    pub after: Option<String>,
}

impl Tally {
    /// Add `other`'s counts, its paths prefixed with `prefix`, keeping the first few.
    pub fn absorb(&mut self, other: &Tally, prefix: &str) {
        self.values += other.values;
        self.kept += other.kept;
        self.changed += other.changed;
        self.lost += other.lost;
        for (mine, theirs) in [
            (&mut self.changed_paths, &other.changed_paths),
            (&mut self.lost_paths, &other.lost_paths),
        ] {
            for p in theirs {
                if mine.len() < MAX_PATHS {
                    mine.push(format!("{prefix}{p}"));
                }
            }
        }
        for e in &other.examples {
            if self.examples.len() < MAX_PATHS {
                self.examples.push(Example {
                    path: format!("{prefix}{}", e.path),
                    ..e.clone()
                });
            }
        }
        for (&cause, &n) in &other.causes {
            *self.causes.entry(cause).or_default() += n;
        }
    }

    /// Whether every value was kept.
    pub fn all_kept(&self) -> bool {
        self.changed == 0 && self.lost == 0
    }
}

/// What [`compare`] found on one file: a tally per check that had values.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// Check name (a field name or one of [`extra`]) to its tally.
    pub checks: HashMap<&'static str, Tally>,
}

/// A link in the WHATWG URL Standard's serialization (what browsers store):
/// `HTTPS://Example.org` and `https://example.org/` are one link. A link
/// the standard cannot parse (relative, empty) is compared as written,
/// without surrounding whitespace.
pub fn canonical_url(href: &str) -> String {
    match url::Url::parse(href) {
        Ok(u) => u.into(),
        Err(_) => href.trim().to_owned(),
    }
}

/// A title as compared: leading and trailing whitespace removed and each
/// run of whitespace inside (Unicode `White_Space`: spaces, tabs, line
/// ends, no-break spaces, ...) made one space. Case and everything else count.
pub fn normalize_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for word in title.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

fn title_of(doc: &Document, id: NodeId) -> String {
    doc.node(id)
        .title()
        .map(normalize_title)
        .unwrap_or_default()
}

/// A value as an example shows it: text as it is, a list as JSON, a date
/// as written (W3C), a flag as `true`/`false`.
fn shown(v: &Value<'_>) -> String {
    let json = match *v {
        Value::Str(s) | Value::Text(Some(s)) => return s.to_owned(),
        Value::Text(None) => return String::new(),
        Value::Texts(t) => serde_json::to_value(t),
        Value::Date(Some(d)) => serde_json::to_value(d),
        Value::Flag(Some(b)) => return b.to_string(),
        Value::Role(r) => serde_json::to_value(r),
        Value::Applications(a) => serde_json::to_value(a),
        Value::DesktopIcon(i) => serde_json::to_value(i),
        Value::Metadata(m) => serde_json::to_value(m),
        Value::Attributes(a) => serde_json::to_value(a),
        Value::Date(None) | Value::Flag(None) => return String::new(),
        _ => return format!("{v:?}"),
    };
    match json {
        Ok(serde_json::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(_) => format!("{v:?}"),
    }
}

/// Where a node stands in the other document: the root, or a node there.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Place {
    Root,
    In(usize),
}

/// What a perfect tool writes, with what the writer made up on its own
/// told apart: values the expected model does not hold (a root the target
/// always has, ids a browser's format requires) are not held against a tool.
#[derive(Debug)]
pub struct Reference {
    /// The expected model as markport's writer for the target writes it and
    /// its reader reads it back.
    pub doc: Document,
    origin: Document,
    /// For each node of `doc`, its node in `origin`.
    origin_pair: Vec<Option<NodeId>>,
}

impl Reference {
    /// `doc`, the expected model carried through the target, and `origin`,
    /// the expected model itself.
    pub fn new(doc: Document, origin: Document) -> Reference {
        let opts = CompareOptions::default();
        let mut c = Cmp::new(&doc, &origin, full, &opts, None);
        c.pair_folders();
        c.pair_bookmarks();
        c.pair_others();
        let origin_pair = c.pair;
        Reference {
            doc,
            origin,
            origin_pair,
        }
    }
}

fn full(_: Field) -> Support {
    Support::Full
}

struct Cmp<'a> {
    r: &'a Document,
    /// The expected model and each reference node's node there: nodes and
    /// values it does not have are not counted.
    origin: Option<(&'a Document, &'a [Option<NodeId>])>,
    g: &'a Document,
    support: fn(Field) -> Support,
    opts: &'a CompareOptions,
    out: Comparison,
    /// For each node of the reference, the node of the output it pairs with.
    pair: Vec<Option<NodeId>>,
}

enum Outcome {
    Kept,
    Changed,
    Lost,
}

impl<'a> Cmp<'a> {
    fn new(
        r: &'a Document,
        g: &'a Document,
        support: fn(Field) -> Support,
        opts: &'a CompareOptions,
        origin: Option<&'a Reference>,
    ) -> Cmp<'a> {
        Cmp {
            r,
            origin: origin.map(|o| (&o.origin, o.origin_pair.as_slice())),
            g,
            support,
            opts,
            out: Comparison::default(),
            pair: vec![None; r.len()],
        }
    }

    /// Whether the reference node is one the writer made up.
    fn invented(&self, id: NodeId) -> bool {
        self.origin
            .is_some_and(|(_, pair)| pair[id.index()].is_none())
    }

    /// The expected model's node behind a reference node.
    fn origin_of(&self, id: NodeId) -> Option<Holder<'a>> {
        let (doc, pair) = self.origin?;
        pair[id.index()].map(|o| Holder::from(doc.node(o)))
    }

    fn carried(&self, field: Field) -> bool {
        (self.support)(field) != Support::None
    }

    fn count(&mut self, check: &'static str, outcome: Outcome, node: Option<NodeId>) {
        self.count_values(check, outcome, node, None);
    }

    /// [`Cmp::count`], with the value before and after (none: lost) for
    /// the examples and the likely cause of a change.
    fn count_values(
        &mut self,
        check: &'static str,
        outcome: Outcome,
        node: Option<NodeId>,
        values: Option<(String, Option<String>)>,
    ) {
        let r = self.r;
        let t = self.out.checks.entry(check).or_default();
        if let (Outcome::Changed | Outcome::Lost, Some((before, after))) = (&outcome, values) {
            if let (Outcome::Changed, Some(after)) = (&outcome, &after) {
                *t.causes
                    .entry(crate::cause::of(check, &before, after))
                    .or_default() += 1;
            }
            if t.examples.len() < MAX_PATHS {
                t.examples.push(Example {
                    path: node.map_or_else(|| "(document)".to_owned(), |id| r.path(id)),
                    before,
                    after,
                });
            }
        }
        t.values += 1;
        let paths = match outcome {
            Outcome::Kept => {
                t.kept += 1;
                return;
            }
            Outcome::Changed => {
                t.changed += 1;
                &mut t.changed_paths
            }
            Outcome::Lost => {
                t.lost += 1;
                &mut t.lost_paths
            }
        };
        if paths.len() < MAX_PATHS {
            paths.push(node.map_or_else(|| "(document)".to_owned(), |id| r.path(id)));
        }
    }

    /// Where `id`'s parent stands in the output: `None` when the parent has
    /// no counterpart.
    fn mapped_parent(&self, id: NodeId) -> Option<Place> {
        match self.r.parent(id) {
            None => Some(Place::Root),
            Some(p) => self.pair[p.index()].map(|g| Place::In(g.index())),
        }
    }

    fn place_in_output(&self, id: NodeId) -> Place {
        self.g
            .parent(id)
            .map_or(Place::Root, |p| Place::In(p.index()))
    }

    fn same_value(&self, field: Field, p: &Value<'_>, q: &Value<'_>) -> bool {
        match (field, p, q) {
            (Field::BookmarkTags, Value::Texts(a), Value::Texts(b)) if !self.opts.ordered_tags => {
                let a: BTreeSet<&str> = a.iter().map(String::as_str).collect();
                let b: BTreeSet<&str> = b.iter().map(String::as_str).collect();
                a == b
            }
            _ => p.same(q),
        }
    }

    /// Every field of one scope the target carries, on a reference holder
    /// and its counterpart (none: lost), except those in `skip`.
    fn fields(
        &mut self,
        scope: Scope,
        r: Holder<'_>,
        g: Option<Holder<'_>>,
        origin: Option<Holder<'_>>,
        node: Option<NodeId>,
        skip: &[Field],
    ) {
        for field in Field::of(scope) {
            if skip.contains(&field) || !self.carried(field) {
                continue;
            }
            let Some(p) = field.get(r).filter(Value::is_present) else {
                continue;
            };
            // A value only the writer's output has is not the tool's to keep.
            let o = origin.and_then(|o| field.get(o)).filter(Value::is_present);
            if self.origin.is_some() && o.is_none() {
                continue;
            }
            let q = g.and_then(|g| field.get(g)).filter(Value::is_present);
            let Some(q) = q else {
                self.count_values(field.name(), Outcome::Lost, node, Some((shown(&p), None)));
                if let Some(form) = field.form().filter(|&f| self.carried(f)) {
                    self.count_values(form.name(), Outcome::Lost, node, Some((shown(&p), None)));
                }
                continue;
            };
            // The input's own value, written back as it was, is kept too
            // (markport's writer may complete or normalise it).
            let p = match o {
                Some(o) if !self.same_value(field, &p, &q) && self.same_value(field, &o, &q) => o,
                _ => p,
            };
            let values = || Some((shown(&p), Some(shown(&q))));
            if !self.same_value(field, &p, &q) {
                self.count_values(field.name(), Outcome::Changed, node, values());
                if let Some(form) = field.form().filter(|&f| self.carried(f)) {
                    self.count_values(form.name(), Outcome::Changed, node, values());
                }
                continue;
            }
            self.count(field.name(), Outcome::Kept, node);
            if let Some(form) = field.form().filter(|&f| self.carried(f)) {
                let outcome = if p.same_form(&q) {
                    Outcome::Kept
                } else {
                    Outcome::Changed
                };
                self.count_values(form.name(), outcome, node, values());
            }
        }
    }

    fn pair_folders(&mut self) {
        let (r, g) = (self.r, self.g);
        let mut taken = vec![false; g.len()];
        let mut by_role: HashMap<Role, VecDeque<NodeId>> = HashMap::new();
        let mut by_path: HashMap<(Place, String), VecDeque<NodeId>> = HashMap::new();
        for id in g.preorder() {
            if let Some(f) = g.node(id).as_folder() {
                if let Some(role) = f.role {
                    by_role.entry(role).or_default().push_back(id);
                }
                let key = (self.place_in_output(id), title_of(g, id));
                by_path.entry(key).or_default().push_back(id);
            }
        }
        // Roots by role, wherever the tool put them.
        for id in r.preorder() {
            let Some(role) = r.node(id).as_folder().and_then(|f| f.role) else {
                continue;
            };
            if let Some(found) = by_role.get_mut(&role).and_then(VecDeque::pop_front) {
                taken[found.index()] = true;
                self.pair[id.index()] = Some(found);
            }
        }
        // The rest by path, parents first (preorder).
        for id in r.preorder() {
            if r.node(id).kind() != NodeKind::Folder || self.pair[id.index()].is_some() {
                continue;
            }
            let Some(parent) = self.mapped_parent(id) else {
                continue;
            };
            if let Some(queue) = by_path.get_mut(&(parent, title_of(r, id))) {
                while let Some(found) = queue.pop_front() {
                    if !taken[found.index()] {
                        taken[found.index()] = true;
                        self.pair[id.index()] = Some(found);
                        break;
                    }
                }
            }
        }
    }

    /// Pair bookmarks; returns, for each paired reference bookmark, whether
    /// its link was kept (false: paired by title, its link changed).
    fn pair_bookmarks(&mut self) -> HashMap<usize, bool> {
        let (r, g) = (self.r, self.g);
        let added = self.opts.added.as_ref().map(|(u, _)| canonical_url(u));
        let candidates: Vec<NodeId> = g
            .preorder()
            .filter(|&id| {
                g.node(id)
                    .as_bookmark()
                    .is_some_and(|b| added.as_deref() != Some(canonical_url(&b.href).as_str()))
            })
            .collect();
        let wanted: Vec<NodeId> = r
            .preorder()
            .filter(|&id| r.node(id).kind() == NodeKind::Bookmark)
            .collect();
        let mut taken = vec![false; g.len()];
        let mut link_kept = HashMap::new();
        let href = |d: &Document, id: NodeId| {
            canonical_url(&d.node(id).as_bookmark().expect("a bookmark").href)
        };
        // Pass 1: same link in the paired folder; 2: same link anywhere;
        // 3: same title in the paired folder (the link changed).
        for pass in 0..3 {
            let mut pool: HashMap<(Option<Place>, String), VecDeque<NodeId>> = HashMap::new();
            for &id in &candidates {
                if taken[id.index()] {
                    continue;
                }
                let key = match pass {
                    0 => (Some(self.place_in_output(id)), href(g, id)),
                    1 => (None, href(g, id)),
                    _ => (Some(self.place_in_output(id)), title_of(g, id)),
                };
                pool.entry(key).or_default().push_back(id);
            }
            for &id in &wanted {
                if self.pair[id.index()].is_some() {
                    continue;
                }
                let key = match pass {
                    0 => match self.mapped_parent(id) {
                        Some(p) => (Some(p), href(r, id)),
                        None => continue,
                    },
                    1 => (None, href(r, id)),
                    _ => match (self.mapped_parent(id), title_of(r, id)) {
                        (Some(p), t) if !t.is_empty() => (Some(p), t),
                        _ => continue,
                    },
                };
                if let Some(found) = pool.get_mut(&key).and_then(VecDeque::pop_front) {
                    taken[found.index()] = true;
                    self.pair[id.index()] = Some(found);
                    link_kept.insert(id.index(), pass < 2);
                }
            }
        }
        link_kept
    }

    /// Separators pair by their rank among the separators of the paired
    /// folder; aliases by target in the paired folder.
    fn pair_others(&mut self) {
        let (r, g) = (self.r, self.g);
        let key = |d: &Document, id: NodeId, parent: Place, rank: usize| match d.node(id) {
            markport_model::Node::Alias(a) => Some((parent, format!("alias\0{}", a.target), 0)),
            markport_model::Node::Separator(_) => Some((parent, "separator".to_owned(), rank)),
            _ => None,
        };
        let mut pool: HashMap<(Place, String, usize), NodeId> = HashMap::new();
        let mut ranks: HashMap<Place, usize> = HashMap::new();
        for id in g.preorder() {
            let parent = self.place_in_output(id);
            let rank = if g.node(id).kind() == NodeKind::Separator {
                let n = ranks.entry(parent).or_default();
                *n += 1;
                *n
            } else {
                0
            };
            if let Some(k) = key(g, id, parent, rank) {
                pool.entry(k).or_insert(id);
            }
        }
        let mut ranks: HashMap<usize, usize> = HashMap::new();
        for id in r.preorder() {
            let rank = if r.node(id).kind() == NodeKind::Separator {
                let n = ranks
                    .entry(r.parent(id).map_or(usize::MAX, NodeId::index))
                    .or_default();
                *n += 1;
                *n
            } else {
                0
            };
            let Some(parent) = self.mapped_parent(id) else {
                continue;
            };
            if let Some(k) = key(r, id, parent, rank) {
                self.pair[id.index()] = pool.remove(&k);
            }
        }
    }

    fn nodes(&mut self, link_kept: &HashMap<usize, bool>) {
        let (r, g) = (self.r, self.g);
        let structure = self.carried(Field::Folder);
        for id in r.preorder() {
            if self.invented(id) {
                continue;
            }
            let found = self.pair[id.index()];
            let gh = found.map(|f| Holder::from(g.node(f)));
            let rh = Holder::from(r.node(id));
            let oh = self.origin_of(id);
            match r.node(id).kind() {
                NodeKind::Bookmark => {
                    let outcome = if found.is_some() {
                        Outcome::Kept
                    } else {
                        Outcome::Lost
                    };
                    let link = |d: &Document, id: NodeId| {
                        d.node(id)
                            .as_bookmark()
                            .map_or_else(String::new, |b| b.href.clone())
                    };
                    let before = link(r, id);
                    let after = found.map(|f| link(g, f));
                    let values = Some((before.clone(), after.clone()));
                    self.count_values(Field::Bookmark.name(), outcome, Some(id), values.clone());
                    let href = match (found, link_kept.get(&id.index())) {
                        (None, _) => Outcome::Lost,
                        (Some(_), Some(true)) => Outcome::Kept,
                        _ => Outcome::Changed,
                    };
                    self.count_values(Field::BookmarkHref.name(), href, Some(id), values);
                    self.title(Field::BookmarkTitle, id, found);
                    if let (Some(f), true) = (found, structure) {
                        let same = self.mapped_parent(id) == Some(self.place_in_output(f));
                        let outcome = if same {
                            Outcome::Kept
                        } else {
                            Outcome::Changed
                        };
                        self.count(extra::PLACEMENT, outcome, Some(id));
                    }
                    let skip = [Field::BookmarkHref, Field::BookmarkTitle];
                    self.fields(Scope::Bookmark, rh, gh, oh, Some(id), &skip);
                }
                NodeKind::Folder => {
                    if structure {
                        let outcome = if found.is_some() {
                            Outcome::Kept
                        } else {
                            Outcome::Lost
                        };
                        let before = r.node(id).title().unwrap_or_default().to_owned();
                        self.count_values(
                            Field::Folder.name(),
                            outcome,
                            Some(id),
                            Some((before, None)),
                        );
                    }
                    if self.carried(Field::FolderTitle) {
                        self.title(Field::FolderTitle, id, found);
                    }
                    self.fields(Scope::Folder, rh, gh, oh, Some(id), &[Field::FolderTitle]);
                }
                kind => {
                    let (presence, scope) = match kind {
                        NodeKind::Separator => (Field::Separator, Scope::Separator),
                        _ => (Field::Alias, Scope::Alias),
                    };
                    if self.carried(presence) {
                        let outcome = if found.is_some() {
                            Outcome::Kept
                        } else {
                            Outcome::Lost
                        };
                        self.count(presence.name(), outcome, Some(id));
                        self.fields(scope, rh, gh, oh, Some(id), &[]);
                    }
                }
            }
        }
    }

    /// A title compared after [`normalize_title`] (`must`), then, when that
    /// is kept, as written (the `.form` check, `may`): a tool that collapses
    /// runs of spaces still shows.
    fn title(&mut self, field: Field, id: NodeId, found: Option<NodeId>) {
        let want = title_of(self.r, id);
        if want.is_empty() {
            return;
        }
        let exact = |d: &Document, id: NodeId| d.node(id).title().unwrap_or_default().to_owned();
        let before = exact(self.r, id);
        let after = found.map(|f| exact(self.g, f));
        let outcome = match found.map(|f| title_of(self.g, f)) {
            None => Outcome::Lost,
            Some(t) if t.is_empty() => Outcome::Lost,
            Some(t) if t == want => Outcome::Kept,
            Some(_) => Outcome::Changed,
        };
        let kept = matches!(outcome, Outcome::Kept);
        let after = after.filter(|a| !a.is_empty());
        self.count_values(
            field.name(),
            outcome,
            Some(id),
            Some((before.clone(), after.clone())),
        );
        if !kept {
            return;
        }
        let after = after.unwrap_or_default();
        // The input's own title, written back as it was, is kept too
        // (markport's writer may have normalised it).
        let origin = self
            .origin_of(id)
            .and_then(|o| field.get(o))
            .and_then(|v| match v {
                Value::Text(t) => t.map(str::to_owned),
                _ => None,
            });
        let form = if field == Field::FolderTitle {
            extra::FOLDER_TITLE_FORM
        } else {
            extra::BOOKMARK_TITLE_FORM
        };
        let as_input = self.opts.titles_as_input && origin.is_some();
        let outcome = if (after == before && !as_input) || origin.as_deref() == Some(after.as_str())
        {
            Outcome::Kept
        } else {
            Outcome::Changed
        };
        let before = origin.unwrap_or(before);
        self.count_values(form, outcome, Some(id), Some((before, Some(after))));
    }

    /// In each folder of the reference and its counterpart, the children
    /// that stayed there keep their order unless they must move: the nodes
    /// outside one longest increasing run of output positions are `changed`.
    fn order(&mut self) {
        let (r, g) = (self.r, self.g);
        let mut position = vec![0usize; g.len()];
        let mut parents: Vec<Option<NodeId>> = vec![None];
        parents.extend(
            g.ids()
                .filter(|&id| g.node(id).kind() == NodeKind::Folder)
                .map(Some),
        );
        for p in parents {
            for (i, &c) in g.children(p).iter().enumerate() {
                position[c.index()] = i;
            }
        }
        let mut containers: Vec<Option<NodeId>> = vec![None];
        containers.extend(
            r.ids()
                .filter(|&id| r.node(id).kind() == NodeKind::Folder)
                .map(Some),
        );
        for parent in containers {
            let target = match parent {
                None => Place::Root,
                Some(p) => match self.pair[p.index()] {
                    Some(gp) => Place::In(gp.index()),
                    None => continue,
                },
            };
            let stayed: Vec<(NodeId, usize)> = r
                .children(parent)
                .iter()
                .filter_map(|&c| {
                    if self.invented(c) {
                        return None;
                    }
                    let f = self.pair[c.index()]?;
                    (self.place_in_output(f) == target).then_some((c, position[f.index()]))
                })
                .collect();
            let in_run = longest_increasing(&stayed.iter().map(|s| s.1).collect::<Vec<_>>());
            for (i, (id, _)) in stayed.into_iter().enumerate() {
                let outcome = if in_run[i] {
                    Outcome::Kept
                } else {
                    Outcome::Changed
                };
                self.count(extra::ORDER, outcome, Some(id));
            }
        }
    }

    fn added(&mut self) {
        let Some((url, title)) = self.opts.added.clone() else {
            return;
        };
        let (want_url, want_title) = (canonical_url(&url), normalize_title(&title));
        let g = self.g;
        let mut seen = None;
        for id in g.preorder() {
            if let Some(b) = g.node(id).as_bookmark() {
                if canonical_url(&b.href) == want_url {
                    let same = title_of(g, id) == want_title;
                    seen = Some(seen.unwrap_or(false) || same);
                }
            }
        }
        let outcome = match seen {
            Some(true) => Outcome::Kept,
            Some(false) => Outcome::Changed,
            None => Outcome::Lost,
        };
        let t = self.out.checks.entry(extra::ADDED).or_default();
        t.values += 1;
        let label = format!("(added) {url}");
        match outcome {
            Outcome::Kept => t.kept += 1,
            Outcome::Changed => {
                t.changed += 1;
                t.changed_paths.push(label);
            }
            Outcome::Lost => {
                t.lost += 1;
                t.lost_paths.push(label);
            }
        }
    }
}

/// Which entries of `seq` form one longest strictly increasing
/// subsequence (patience sorting, O(n log n)).
fn longest_increasing(seq: &[usize]) -> Vec<bool> {
    let mut tails: Vec<usize> = Vec::new(); // indices into seq
    let mut prev = vec![usize::MAX; seq.len()];
    for (i, &v) in seq.iter().enumerate() {
        let at = tails.partition_point(|&t| seq[t] < v);
        if at > 0 {
            prev[i] = tails[at - 1];
        }
        if at == tails.len() {
            tails.push(i);
        } else {
            tails[at] = i;
        }
    }
    let mut keep = vec![false; seq.len()];
    let mut at = tails.last().copied().unwrap_or(usize::MAX);
    while at != usize::MAX {
        keep[at] = true;
        at = prev[at];
    }
    keep
}

/// Compare a tool's output (`got`) with the `reference`, counting only the
/// fields the target format carries (`support` is its writer's table) and
/// the values the expected model holds.
pub fn compare(
    reference: &Reference,
    got: &Document,
    support: fn(Field) -> Support,
    opts: &CompareOptions,
) -> Comparison {
    compare_documents(&reference.doc, Some(reference), got, support, opts)
}

/// [`compare`] with a plain document as the reference: every value it
/// holds counts.
pub fn compare_documents(
    reference: &Document,
    origin: Option<&Reference>,
    got: &Document,
    support: fn(Field) -> Support,
    opts: &CompareOptions,
) -> Comparison {
    let mut c = Cmp::new(reference, got, support, opts, origin);
    let origin_header = origin.map(|o| Holder::from(&o.origin.header));
    c.fields(
        Scope::Document,
        Holder::from(&reference.header),
        Some(Holder::from(&got.header)),
        origin_header,
        None,
        &[],
    );
    c.pair_folders();
    let link_kept = c.pair_bookmarks();
    c.pair_others();
    c.nodes(&link_kept);
    if c.carried(Field::Folder) {
        c.order();
    }
    c.added();
    c.out
}

/// Every reference value lost: what a tool that failed on a file scores.
pub fn all_lost(
    reference: &Reference,
    support: fn(Field) -> Support,
    opts: &CompareOptions,
) -> Comparison {
    compare(reference, &Document::new(), support, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::{Bookmark, Folder, Separator};

    fn sample() -> Document {
        let mut d = Document::new();
        let f = d.push(None, Folder::titled("News"));
        let mut b = Bookmark::new("https://www.bbc.co.uk/").with_title("BBC");
        b.tags = vec!["uk".into(), "news".into()];
        b.desc = Some("British".into());
        d.push(Some(f), b);
        d.push(Some(f), Separator::new());
        d.push(Some(f), Bookmark::new("https://lwn.net/").with_title("LWN"));
        d.push(
            None,
            Bookmark::new("https://example.org/").with_title("Example"),
        );
        d
    }

    fn tally(c: &Comparison, check: &str) -> (usize, usize, usize, usize) {
        let t = &c.checks[check];
        (t.values, t.kept, t.changed, t.lost)
    }

    #[test]
    fn the_same_document_keeps_everything() {
        let d = sample();
        let c = compare_documents(&d, None, &d.clone(), full, &CompareOptions::default());
        for (name, t) in &c.checks {
            assert!(t.all_kept(), "{name}: {t:?}");
        }
        assert_eq!(tally(&c, "bookmark"), (3, 3, 0, 0));
        assert_eq!(tally(&c, "order"), (5, 5, 0, 0));
        assert_eq!(tally(&c, "bookmark.tags"), (1, 1, 0, 0));
    }

    #[test]
    fn links_compare_in_whatwg_form_and_titles_by_words() {
        let r = sample();
        let mut g = sample();
        let ids: Vec<_> = g.preorder().collect();
        let b = g.as_bookmark_mut(ids[1]).unwrap();
        b.href = "HTTPS://WWW.BBC.CO.UK".into();
        b.title = Some("  BBC\u{a0}".into());
        b.tags = vec!["news".into(), "uk".into(), "uk".into()];
        let c = compare_documents(&r, None, &g, full, &CompareOptions::default());
        let changed: Vec<_> = c.checks.iter().filter(|(_, t)| !t.all_kept()).collect();
        // The title kept by words shows as written, at level may.
        assert_eq!(changed.len(), 1, "{:?}", c.checks);
        assert_eq!(tally(&c, "bookmark.title.form"), (3, 2, 1, 0));
        let e = &c.checks["bookmark.title.form"].examples[0];
        assert_eq!(
            (e.before.as_str(), e.after.as_deref()),
            ("BBC", Some("  BBC\u{a0}"))
        );
        let lists = CompareOptions {
            ordered_tags: true,
            ..Default::default()
        };
        let c = compare_documents(&r, None, &g, full, &lists);
        assert_eq!(tally(&c, "bookmark.tags"), (1, 0, 1, 0));
    }

    #[test]
    fn a_lost_field_a_changed_link_and_a_move_are_each_counted_once() {
        let r = sample();
        let mut g = sample();
        let ids: Vec<_> = g.preorder().collect();
        g.as_bookmark_mut(ids[1]).unwrap().desc = None;
        g.as_bookmark_mut(ids[3]).unwrap().href = "https://lwn.net/changed".into();
        g.move_to(ids[4], Some(ids[0])).unwrap();
        let c = compare_documents(&r, None, &g, full, &CompareOptions::default());
        assert_eq!(tally(&c, "bookmark.desc"), (1, 0, 0, 1));
        assert_eq!(c.checks["bookmark.desc"].lost_paths, ["News/BBC"]);
        assert_eq!(tally(&c, "bookmark.href"), (3, 2, 1, 0));
        assert_eq!(tally(&c, "placement"), (3, 2, 1, 0));
        assert_eq!(tally(&c, "bookmark"), (3, 3, 0, 0));
        assert_eq!(tally(&c, "bookmark.title"), (3, 3, 0, 0));
    }

    #[test]
    fn order_counts_the_fewest_moves() {
        let mut r = Document::new();
        for i in 0..6 {
            r.push(None, Bookmark::new(format!("https://e.org/{i}")));
        }
        let mut g = Document::new();
        for i in [1, 2, 3, 4, 5, 0] {
            g.push(None, Bookmark::new(format!("https://e.org/{i}")));
        }
        let c = compare_documents(&r, None, &g, full, &CompareOptions::default());
        assert_eq!(tally(&c, "order"), (6, 5, 1, 0));
        assert_eq!(c.checks["order"].changed_paths, ["https://e.org/0"]);
    }

    #[test]
    fn roots_pair_by_role_and_unsupported_fields_do_not_count() {
        let mut r = Document::new();
        let mut bar = Folder::titled("Bookmarks Toolbar");
        bar.role = Some(Role::Toolbar);
        let f = r.push(None, bar);
        let mut b = Bookmark::new("https://a.example/").with_title("A");
        b.desc = Some("d".into());
        r.push(Some(f), b);
        let mut g = Document::new();
        let mut bar = Folder::titled("Bookmarks bar");
        bar.role = Some(Role::Toolbar);
        let other = g.push(None, Folder::titled("Other"));
        let f = g.push(Some(other), bar);
        g.push(Some(f), Bookmark::new("https://a.example").with_title("A"));
        fn no_desc(f: Field) -> Support {
            if f == Field::BookmarkDesc {
                Support::None
            } else {
                Support::Full
            }
        }
        let c = compare_documents(&r, None, &g, no_desc, &CompareOptions::default());
        assert_eq!(tally(&c, "folder"), (1, 1, 0, 0));
        assert_eq!(tally(&c, "folder.title"), (1, 0, 1, 0));
        assert_eq!(tally(&c, "placement"), (1, 1, 0, 0));
        assert!(!c.checks.contains_key("bookmark.desc"));
    }

    #[test]
    fn the_added_bookmark_is_looked_for_and_not_paired() {
        let r = sample();
        let mut g = sample();
        g.push(
            None,
            Bookmark::new("https://added.example/x").with_title("New one"),
        );
        let opts = CompareOptions {
            added: Some(("https://added.example/x".into(), "New  one".into())),
            ..Default::default()
        };
        let c = compare_documents(&r, None, &g, full, &opts);
        assert_eq!(tally(&c, "added"), (1, 1, 0, 0));
        assert!(c.checks.values().all(Tally::all_kept));
        let c = compare_documents(&r, None, &sample(), full, &opts);
        assert_eq!(tally(&c, "added"), (1, 0, 0, 1));
    }

    #[test]
    fn what_the_writer_made_up_is_not_held_against_the_tool() {
        let origin = sample();
        // The target's writer added a root and an id the input never had.
        let mut copy = sample();
        let mut mobile = Folder::titled("Mobile");
        mobile.role = Some(Role::Mobile);
        copy.push(None, mobile);
        let first = copy.preorder().nth(1).unwrap();
        copy.as_bookmark_mut(first).unwrap().details_mut().guid = Some("made-up".into());
        let reference = Reference::new(copy, origin);
        let c = compare(&reference, &sample(), full, &CompareOptions::default());
        assert!(c.checks.values().all(Tally::all_kept), "{:?}", c.checks);
        assert!(!c.checks.contains_key("bookmark.guid"));
        assert_eq!(tally(&c, "folder"), (1, 1, 0, 0));
    }

    #[test]
    fn a_failed_file_loses_everything() {
        let reference = Reference::new(sample(), sample());
        let c = all_lost(&reference, full, &CompareOptions::default());
        assert_eq!(tally(&c, "bookmark"), (3, 0, 0, 3));
        assert_eq!(tally(&c, "folder"), (1, 0, 0, 1));
    }
}
