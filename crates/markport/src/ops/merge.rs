//! One collection from several.

use std::collections::{BTreeMap, HashMap, HashSet};

use markport_model::{
    Document, Error, ErrorKind, Field, LossReport, Node, NodeId, Role, Separator, Step, MAX_PATHS,
};

use super::absorb::{conflicts, Survivors};
use super::emptied;
use super::join::{join, Descriptions};
use super::link::LinkMatch;

/// What [`merge`] did with one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MergedInput {
    /// The input's bookmarks.
    pub bookmarks: usize,
    /// Bookmarks added to the collection.
    pub added: usize,
    /// Bookmarks merged into an earlier one with the same link.
    pub merged: usize,
    /// Fields a merged bookmark had set differently from the earlier one
    /// (whose value was kept), with on how many bookmarks.
    pub conflicts: BTreeMap<Field, usize>,
    /// What joining this input's folders with others of the same title or
    /// role could not keep (`losses`: a later folder's id or guid, say, with
    /// the joined folder's path), and its folders that were joined with one
    /// of the same title in the same input (`changes`, as `joined by merge`).
    pub report: LossReport,
}

/// Make one collection from `inputs`, in order. Folders with the same role
/// are one folder (Firefox's toolbar and Chrome's bookmarks bar), where the
/// first input put it, with its title; folders with the same title in the
/// same (merged) folder are one folder. A joined folder keeps its own
/// values and takes the later one's where it has none; descriptions are
/// joined (each different one once, as a paragraph), and the earliest added
/// and latest modified dates kept. What it could not take (a later id or
/// guid when it has its own) is a loss in the later input's
/// [`MergedInput::report`], with the folder's path; a folder joined with one
/// of the same title in its own input is a change there. Unless `keep_duplicates`, a
/// bookmark whose link (by [`link_key`](super::link_key)) an earlier one
/// has, in any input, is merged into it as [`dedupe`](super::dedupe) does
/// (the earlier one wins a conflict). The header is the first input's.
/// Returns the collection and what happened to each input. Linear in the
/// total size: one hash lookup per folder and bookmark, no recursion.
///
/// # Errors
/// [`ErrorKind::Invalid`] with fewer than two inputs.
///
/// ```
/// use markport::ops::merge;
/// use markport::model::Role;
/// use markport::{Bookmark, Document, Folder};
///
/// let mut firefox = Document::new();
/// let mut toolbar = Folder::titled("Bookmarks Toolbar");
/// toolbar.role = Some(Role::Toolbar);
/// let t = firefox.push(None, toolbar);
/// firefox.push(Some(t), Bookmark::new("https://www.rust-lang.org/").with_title("Rust"));
///
/// let mut chrome = Document::new();
/// let mut bar = Folder::titled("Bookmarks bar");
/// bar.role = Some(Role::Toolbar);
/// let b = chrome.push(None, bar);
/// chrome.push(Some(b), Bookmark::new("https://WWW.rust-lang.org").with_title("Rust lang"));
/// chrome.push(Some(b), Bookmark::new("https://crates.io/"));
///
/// let (doc, report) = merge(vec![firefox, chrome], false).unwrap();
/// assert_eq!(doc.census().folders, 1);
/// assert_eq!(doc.census().bookmarks, 2);
/// assert_eq!((report[1].added, report[1].merged), (1, 1));
/// assert_eq!(report[1].conflicts.keys().collect::<Vec<_>>(), [&markport::Field::BookmarkTitle]);
/// ```
pub fn merge(
    inputs: Vec<Document>,
    keep_duplicates: bool,
) -> Result<(Document, Vec<MergedInput>), Error> {
    merge_keeping(inputs, keep_duplicates, false)
}

/// [`merge`], which removes a later input's folder left empty because all
/// it held merged into earlier bookmarks (reported as a change of that
/// input); with `keep_empty` such folders stay (`--keep-empty`). A folder
/// empty in its input, and a browser root, always stay.
///
/// # Errors
/// As [`merge`].
///
/// ```
/// use markport::ops::merge_keeping;
/// use markport::{Bookmark, Document, Field, Folder};
///
/// let mut first = Document::new();
/// first.push(None, Bookmark::new("https://example.org/"));
/// let mut second = Document::new();
/// let old = second.push(None, Folder::titled("Old"));
/// second.push(Some(old), Bookmark::new("https://example.org/"));
///
/// let (doc, report) = merge_keeping(vec![first.clone(), second.clone()], false, false).unwrap();
/// assert_eq!(doc.census().folders, 0);
/// assert_eq!(report[1].report.changes[0].field, Field::Folder);
/// let (kept, _) = merge_keeping(vec![first, second], false, true).unwrap();
/// assert_eq!(kept.census().folders, 1);
/// ```
pub fn merge_keeping(
    inputs: Vec<Document>,
    keep_duplicates: bool,
    keep_empty: bool,
) -> Result<(Document, Vec<MergedInput>), Error> {
    merge_by(
        inputs,
        (!keep_duplicates).then_some(LinkMatch::Exact),
        keep_empty,
    )
}

/// [`merge_keeping`], merging a bookmark into an earlier one whose link has
/// the same key at the level `by` (`merge --match LEVEL`); `None` keeps
/// every bookmark (`--keep-duplicates`). Each link is normalised once.
///
/// # Errors
/// As [`merge`].
///
/// ```
/// use markport::ops::{merge_by, LinkMatch};
/// use markport::{Bookmark, Document};
///
/// let mut pocket = Document::new();
/// pocket.push(None, Bookmark::new("https://example.org/post?utm_source=pocket_saves"));
/// let mut safari = Document::new();
/// safari.push(None, Bookmark::new("http://example.org/post/"));
/// let inputs = vec![pocket, safari];
/// let (_, exact) = merge_by(inputs.clone(), Some(LinkMatch::Exact), false).unwrap();
/// assert_eq!(exact[1].merged, 0);
/// let (doc, loose) = merge_by(inputs, Some(LinkMatch::Loose), false).unwrap();
/// assert_eq!((loose[1].merged, doc.census().bookmarks), (1, 1));
/// ```
pub fn merge_by(
    inputs: Vec<Document>,
    by: Option<LinkMatch>,
    keep_empty: bool,
) -> Result<(Document, Vec<MergedInput>), Error> {
    if inputs.len() < 2 {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("merge needs at least two inputs, got {}", inputs.len()),
            None,
        ));
    }
    let mut out = Document::new();
    let mut by_role: HashMap<Role, NodeId> = HashMap::new();
    let mut by_title: HashMap<(Option<NodeId>, String), NodeId> = HashMap::new();
    let mut by_link: HashMap<String, NodeId> = HashMap::new();
    let mut survivors = Survivors::default();
    // The descriptions of the folders joined.
    let mut descs: HashMap<NodeId, Descriptions> = HashMap::new();
    let mut report = Vec::with_capacity(inputs.len());
    // The folders whose input folder held something, and the input that
    // made each.
    let mut filled: HashMap<NodeId, usize> = HashMap::new();
    // Merging into a file Floccus syncs (the first input), the ids of the
    // other inputs' items mean nothing to Floccus and may be its own items'
    // numbers: they are left out, and the XBEL writer numbers those items
    // above the file's highest.
    let mut floccus = false;
    for (i, mut doc) in inputs.into_iter().enumerate() {
        if i == 0 {
            out.header = std::mem::take(&mut doc.header);
            floccus = out.header.floccus_highest_id().is_some();
        }
        let renumber = floccus && i > 0;
        let mut unnumbered = [0usize; 2];
        let mut done = MergedInput::default();
        // The folders this input's folders became: one met twice is a
        // folder of this input joined with another of the same title.
        let mut mine: HashSet<NodeId> = HashSet::new();
        let mut joined = 0;
        let mut respelled = 0;
        let steps: Vec<Step> = doc.walk().collect();
        let mut parents: Vec<Option<NodeId>> = vec![None];
        for step in steps {
            let parent = *parents.last().expect("the top level is never closed");
            match step {
                Step::Open(id) => {
                    let held_something = !doc.children(Some(id)).is_empty();
                    let Node::Folder(mut f) = take(&mut doc, id) else {
                        unreachable!("walk opens folders only")
                    };
                    let earlier = match f.role {
                        Some(role) => by_role.get(&role),
                        None => by_title.get(&(parent, f.title.clone().unwrap_or_default())),
                    };
                    let target = match earlier.copied() {
                        Some(target) => {
                            let Node::Folder(kept) = out.node_mut(target) else {
                                unreachable!("the keys name folders")
                            };
                            let lost = join(kept, *f, descs.entry(target).or_default());
                            for field in lost {
                                done.report.record(&out, Some(target), field, NOT_KEPT);
                            }
                            if !mine.insert(target) {
                                // A path costs the folder's depth: only the
                                // ones the report lists are made.
                                let paths = if joined < MAX_PATHS {
                                    vec![out.path(target)]
                                } else {
                                    Vec::new()
                                };
                                joined += 1;
                                done.report.record_change(Field::Folder, 1, paths, JOINED);
                            }
                            target
                        }
                        None => {
                            let key = (parent, f.title.clone().unwrap_or_default());
                            let role = f.role;
                            if renumber && f.id.take().is_some() {
                                unnumbered[1] += 1;
                            }
                            let n = out.push(parent, *f);
                            match role {
                                Some(role) => by_role.insert(role, n),
                                None => by_title.insert(key, n),
                            };
                            mine.insert(n);
                            n
                        }
                    };
                    if held_something {
                        filled.entry(target).or_insert(i);
                    }
                    parents.push(Some(target));
                }
                Step::Close(_) => {
                    parents.pop();
                }
                Step::Leaf(id) => match take(&mut doc, id) {
                    Node::Bookmark(mut b) => {
                        done.bookmarks += 1;
                        // Keeping duplicates, no key is made at all.
                        let key = by.map(|m| m.key(&b.href).into_owned());
                        let earlier = key.as_ref().and_then(|k| by_link.get(k));
                        match earlier {
                            Some(&survivor) => {
                                // Beyond the exact key, a merge of two
                                // spellings is the level's doing: listed, so
                                // the person sees what --match took as one.
                                let differs = by.is_some_and(|m| m != LinkMatch::Exact)
                                    && out.node(survivor).as_bookmark().expect("a bookmark").href
                                        != b.href;
                                if differs {
                                    let paths = if respelled < MAX_PATHS {
                                        vec![out.path(survivor)]
                                    } else {
                                        Vec::new()
                                    };
                                    respelled += 1;
                                    let level = by.map_or("", LinkMatch::name);
                                    done.report.record_change(
                                        Field::Bookmark,
                                        1,
                                        paths,
                                        format!("merged by --match {level}: {RESPELLED}"),
                                    );
                                }
                                let s = out.as_bookmark_mut(survivor).expect("a bookmark");
                                for field in conflicts(s, &b) {
                                    *done.conflicts.entry(field).or_default() += 1;
                                }
                                survivors.absorb(survivor, s, b);
                                done.merged += 1;
                            }
                            None => {
                                if renumber && b.details().id.is_some() {
                                    b.details_mut().id = None;
                                    unnumbered[0] += 1;
                                }
                                let n = out.push(parent, b);
                                if let Some(key) = key {
                                    by_link.entry(key).or_insert(n);
                                }
                                done.added += 1;
                            }
                        }
                    }
                    node => {
                        out.push(parent, node);
                    }
                },
            }
        }
        for (field, n) in [Field::BookmarkId, Field::FolderId]
            .into_iter()
            .zip(unnumbered)
        {
            if n > 0 {
                done.report.record_change(field, n, Vec::new(), FLOCCUS_IDS);
            }
        }
        report.push(done);
    }
    if !keep_empty && report.iter().any(|r| r.merged > 0) {
        let mut gone = vec![false; out.len()];
        if emptied::mark_emptied(&out, &mut gone, |f| filled.contains_key(&f)) > 0 {
            let mut listed = vec![0; report.len()];
            for id in out.ids().filter(|id| gone[id.index()]) {
                let input = filled[&id];
                listed[input] += 1;
                let paths = if listed[input] <= MAX_PATHS {
                    vec![out.path(id)]
                } else {
                    Vec::new()
                };
                report[input]
                    .report
                    .record_change(Field::Folder, 1, paths, EMPTIED);
            }
            out.retain(|_, id| !gone[id.index()]);
        }
    }
    Ok((out, report))
}

/// The change an item of a later input merged into a Floccus file is.
const FLOCCUS_IDS: &str = "its id left out: the first input is a file Floccus syncs, which numbers its own items (XBEL output gives them ids above its highestId)";

/// The change a folder left empty by merge is.
const EMPTIED: &str = "removed by merge: left empty, all it held merged into earlier bookmarks (--keep-empty keeps it)";

/// The change a bookmark merged into an earlier one whose link is spelled
/// otherwise is, after `merged by --match LEVEL: `.
const RESPELLED: &str = "into the earlier bookmark (its path listed) whose link differs as written; the earlier link kept";

/// Why a later folder's field is missing from the folder it was joined with.
const NOT_KEPT: &str = "not kept: merge joined the folder with an earlier one of the same title or role, whose value was kept";

/// The change a folder joined with one of the same title in its own input is.
const JOINED: &str = "joined by merge (the same title twice in one folder of this input)";

fn take(doc: &mut Document, id: NodeId) -> Node {
    std::mem::replace(doc.node_mut(id), Separator::new().into())
}
