//! The reports the API answers with: the same JSON `markport convert
//! --json` prints for one file and `markport merge --json` for several
//! (docs/report.md), so a program reads one shape whichever it called;
//! and what the page shows of a file before converting it.

use serde_json::{json, Value};

use markport::model::Step;
use markport::{Done, Node, Reading};

/// The version of the report's shape (docs/report.md).
const REPORT_VERSION: u32 = 1;

/// The `--json` report of `done`: convert's for one input, merge's for
/// several. `input` and `output` are the uploaded and suggested names,
/// `destination` the program it is for (`for`).
pub(crate) fn json(
    done: &Done,
    names: &[String],
    output: &str,
    to: &str,
    destination: Option<&str>,
) -> Value {
    let loss = &done.loss;
    let mut report = if let [one] = &done.inputs[..] {
        let mut r = json!({
            "markport_report": REPORT_VERSION,
            "input": names[0],
            "from": one.from.format.name,
            "output": output,
            "to": to,
            "diagnostics": one.diagnostics,
            "losses": loss.losses,
            "lost": !loss.is_empty(),
            "extensions": loss.extensions,
            "extended": loss.has_extensions(),
        });
        if !loss.destination.is_empty() {
            r["destination"] = json!(loss.destination);
        }
        r
    } else {
        let inputs: Vec<Value> = done
            .inputs
            .iter()
            .zip(names)
            .map(|(read, name)| {
                let m = read.merged.clone().unwrap_or_default();
                let conflicts: Vec<Value> = m
                    .conflicts
                    .into_iter()
                    .map(|(field, count)| json!({ "field": field, "count": count }))
                    .collect();
                json!({
                    "input": name,
                    "from": read.from.format.name,
                    "bookmarks": m.bookmarks,
                    "added": m.added,
                    "merged": m.merged,
                    "conflicts": conflicts,
                })
            })
            .collect();
        json!({
            "markport_report": REPORT_VERSION,
            "inputs": inputs,
            "output": output,
            "to": to,
            "losses": loss.losses,
            "lost": !loss.is_empty(),
            "extensions": loss.extensions,
            "extended": loss.has_extensions(),
        })
    };
    if !loss.changes.is_empty() {
        report["changes"] = json!(loss.changes);
    }
    if let Some(name) = destination {
        report["for"] = json!(name);
        report["destination"] = json!(loss.destination);
    }
    report
}

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
