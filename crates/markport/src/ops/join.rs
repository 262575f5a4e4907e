//! What a folder keeps of a later one [`merge`](super::merge) joins with it
//! (the same title in the same folder, or the same browser role).

use std::collections::HashSet;

use markport_model::{Field, Folder, Scope};

use super::absorb::pick;

/// Fields whose later value is never a loss: the descriptions are joined,
/// and of the dates the earliest added and the latest modified are kept
/// (the policy `--dedupe` applies to bookmarks).
fn kept_by_policy(field: Field, later: &Folder) -> bool {
    let instant = |d: &Option<markport_model::DateValue>| {
        d.as_ref()
            .and_then(markport_model::DateValue::instant)
            .is_some()
    };
    match field {
        Field::FolderDesc => true,
        Field::FolderAdded | Field::FolderAddedForm => instant(&later.added),
        Field::FolderModified | Field::FolderModifiedForm => instant(&later.modified),
        _ => false,
    }
}

/// `mine` takes `theirs` when it has no value of its own.
fn fill<T>(mine: &mut Option<T>, theirs: Option<T>) {
    if mine.is_none() {
        *mine = theirs;
    }
}

/// `mine` takes `theirs` when it is empty.
fn fill_list<T>(mine: &mut Vec<T>, theirs: Vec<T>) {
    if mine.is_empty() {
        *mine = theirs;
    }
}

/// The descriptions a joined folder already holds, so that one said again
/// by a later folder is not repeated; kept per joined folder, so that each
/// join costs the later folder's description, not the joined text.
#[derive(Default)]
pub(crate) struct Descriptions(HashSet<String>);

impl Descriptions {
    /// Add `more` to `desc` as a paragraph of its own, unless it is empty
    /// or already one of the descriptions joined there.
    fn join(&mut self, desc: &mut Option<String>, more: Option<String>) {
        if self.0.is_empty() {
            if let Some(d) = desc.as_ref().filter(|d| !d.is_empty()) {
                self.0.insert(d.clone());
            }
        }
        let Some(more) = more.filter(|m| !m.is_empty()) else {
            return;
        };
        if self.0.contains(&more) {
            return;
        }
        match desc.as_mut().filter(|d| !d.is_empty()) {
            Some(d) => {
                d.push_str("\n\n");
                d.push_str(&more);
            }
            None => *desc = Some(more.clone()),
        }
        self.0.insert(more);
    }
}

/// Join `later` into `kept`: the descriptions joined (each different one
/// once, as its own paragraph), the earliest added and the latest modified
/// date, and every other field of `later` that `kept` has no value for.
/// Returns the fields `later` had set that `kept` could not take (its id
/// and guid when `kept` has its own, say): what the merge loses.
pub(crate) fn join(kept: &mut Folder, later: Folder, descs: &mut Descriptions) -> Vec<Field> {
    // The later folder's own data is small (no children): a copy to compare
    // against after the join costs what the folder holds.
    let before = later.clone();
    let Folder {
        title,
        desc,
        id,
        added,
        modified,
        folded,
        icon,
        role,
        metadata,
        extra,
        guid,
        meta_info,
        ..
    } = later;
    descs.join(&mut kept.desc, desc);
    pick(&mut kept.added, added, false);
    pick(&mut kept.modified, modified, true);
    fill(&mut kept.title, title);
    fill(&mut kept.id, id);
    fill(&mut kept.folded, folded);
    fill(&mut kept.icon, icon);
    fill(&mut kept.role, role);
    fill(&mut kept.guid, guid);
    fill_list(&mut kept.metadata, metadata);
    fill_list(&mut kept.extra, extra);
    fill_list(&mut kept.meta_info, meta_info);
    Field::of(Scope::Folder)
        .filter(|&f| !kept_by_policy(f, &before))
        .filter(|f| {
            let (Some(theirs), Some(mine)) = (f.get(&before), f.get(&*kept)) else {
                return false;
            };
            theirs.is_present() && !theirs.same(&mine)
        })
        .collect()
}
