//! What the page shows of a file before converting it. (The report of a
//! conversion is the library's, [`markport::report`]: the JSON `markport
//! convert --json` prints and the plain summary it says.)

use serde_json::{json, Value};

use markport::model::Step;
use markport::{Node, Reading};

/// What the page shows of a file read: its format, counts, the reader's
/// notes, and its folders in document order, each with its depth and the
/// bookmarks directly in it (the walk is the model's explicit-stack one).
pub(crate) fn info(name: &str, read: &Reading) -> Value {
    let doc = &read.document;
    let census = doc.census();
    let mut folders = Vec::new();
    // Index in `folders` of each open folder, innermost last.
    let mut open: Vec<usize> = Vec::new();
    let mut top_bookmarks = 0usize;
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                let title = match doc.node(id) {
                    Node::Folder(f) => f.title.clone().unwrap_or_default(),
                    _ => String::new(),
                };
                folders.push((open.len(), title, 0usize));
                open.push(folders.len() - 1);
            }
            Step::Close(_) => {
                open.pop();
            }
            Step::Leaf(id) => {
                if matches!(doc.node(id), Node::Bookmark(_)) {
                    match open.last() {
                        Some(&i) => folders[i].2 += 1,
                        None => top_bookmarks += 1,
                    }
                }
            }
        }
    }
    let folders: Vec<Value> = folders
        .into_iter()
        .map(|(depth, title, bookmarks)| json!({ "depth": depth, "title": title, "bookmarks": bookmarks }))
        .collect();
    json!({
        "file": name,
        "format": read.from.format.name,
        "bookmarks": census.bookmarks,
        "folders": census.folders,
        "separators": census.separators,
        "depth": census.depth,
        "top_level_bookmarks": top_bookmarks,
        "diagnostics": read.diagnostics,
        "tree": folders,
    })
}
