//! Folders an operation left empty: dedupe and merge move a folder's
//! bookmarks into earlier copies, and a folder with nothing left in it is
//! clutter the user did not make. They go, reported, unless the user keeps
//! them (`--keep-empty`); a folder that was empty to begin with, and a
//! browser root, always stays.

use markport_model::{Document, NodeId, Step};

/// Mark in `gone` every folder that `was_filled` says had something in it,
/// has no role, and of whose contents nothing is left: bottom up, so a
/// folder holding only such folders goes too. One pass over the tree.
pub(super) fn mark_emptied(
    doc: &Document,
    gone: &mut [bool],
    was_filled: impl Fn(NodeId) -> bool,
) -> usize {
    // For each open folder: whether anything in it stays.
    let mut keeps: Vec<bool> = Vec::new();
    let mut marked = 0;
    for step in doc.walk() {
        match step {
            Step::Open(_) => keeps.push(false),
            Step::Close(id) => {
                let kept_inside = keeps.pop().unwrap_or(true);
                let role = doc.node(id).as_folder().and_then(|f| f.role);
                let empties = !kept_inside && role.is_none() && was_filled(id) && !gone[id.index()];
                if empties {
                    gone[id.index()] = true;
                    marked += 1;
                }
                if !gone[id.index()] {
                    if let Some(k) = keeps.last_mut() {
                        *k = true;
                    }
                }
            }
            Step::Leaf(id) => {
                if !gone[id.index()] {
                    if let Some(k) = keeps.last_mut() {
                        *k = true;
                    }
                }
            }
        }
    }
    marked
}
