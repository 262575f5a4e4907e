//! What a browser's import changed of a file markport wrote: the live
//! `--for` tests (Firefox's and Chromium's HTML import) pair markport's
//! document with the one the browser exports after importing it, and count,
//! field by field, the nodes the browser holds differently.

use std::collections::{BTreeMap, HashMap, HashSet};

use markport::model::Holder;
use markport::{Destination, Document, Field, Input, Job, LossReport, ReadOptions, Target, To};

/// `src` (in `format`) written for `dest` through the one pipeline, as
/// `--for` writes it: the file, what its report says, and the file read
/// back by markport (what the browser is given, as a document).
pub fn written_for(
    src: &std::path::Path,
    format: &str,
    dest: &'static Destination,
) -> (Vec<u8>, LossReport, Document) {
    let mut job = Job::new(
        vec![Input::Path(src.to_path_buf())],
        To::Format {
            format: dest.format(),
            options: markport::WriteOptions::default(),
        },
    );
    job.from = markport::format(format);
    job.destination = Some(dest);
    let mut file = Vec::new();
    let done = markport::run(job, Target::Stream(&mut file))
        .unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    let ours = markport::read_bytes(&file, dest.format(), &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: markport's output reads back: {e}", src.display()))
        .document;
    (file, done.loss, ours)
}

/// Whether `field` of the first document's node counts: present there (a
/// node or a placement always is; a date's written form never is).
pub fn counts(ours: &Document, node: Option<markport::NodeId>, field: Field) -> bool {
    if field.date_of_form().is_some() {
        return false;
    }
    if matches!(
        field,
        Field::Folder | Field::Bookmark | Field::Separator | Field::Alias
    ) {
        return true;
    }
    let holder = match node {
        Some(id) => Holder::from(ours.node(id)),
        None => Holder::from(&ours.header),
    };
    field.get(holder).is_some_and(|v| v.is_present())
}

/// The bookmarks whose link a browser writes as another bookmark's with a
/// different link in the file (`/b` and `/b/`): there they share one
/// link, and pairing by link cannot tell which is which.
pub fn ambiguous(ours: &Document) -> HashSet<markport::NodeId> {
    let mut by_form: HashMap<String, HashSet<&str>> = HashMap::new();
    for id in ours.preorder() {
        if let Some(b) = ours.node(id).as_bookmark() {
            if let Ok(u) = url::Url::parse(&b.href) {
                by_form.entry(u.to_string()).or_default().insert(&b.href);
            }
        }
    }
    ours.preorder()
        .filter(|&id| {
            ours.node(id).as_bookmark().is_some_and(|b| {
                url::Url::parse(&b.href)
                    .is_ok_and(|u| by_form.get(u.as_str()).is_some_and(|s| s.len() > 1))
            })
        })
        .collect()
}

/// Per field, the nodes of `ours` that a browser's import holds differently,
/// with the path of the first.
pub fn changes(ours: &Document, theirs: &Document) -> BTreeMap<Field, (usize, String)> {
    let unpaired = ambiguous(ours);
    let mut out = BTreeMap::new();
    for d in markport::diff_listing(ours, theirs, usize::MAX).differences {
        let (n, first) = if d.field.scope() == markport::model::Scope::Document {
            (usize::from(counts(ours, None, d.field)), String::new())
        } else {
            let nodes: Vec<_> = d
                .nodes
                .iter()
                .filter(|(x, _)| !unpaired.contains(x) && counts(ours, Some(*x), d.field))
                .collect();
            let first = nodes
                .iter()
                .take(10)
                .map(|(x, _)| ours.path(*x))
                .collect::<Vec<_>>()
                .join(" | ");
            (nodes.len(), first)
        };
        if n > 0 {
            out.insert(d.field, (n, first));
        }
    }
    out
}
