//! What arrives in Chromium: every corpus file (and, with the shared corpus
//! beside the checkout, every peer `Bookmarks` file) converted with
//! `--to chromium`, loaded by a real Chromium (headless, through the project's
//! driver `tests/peers/chromium_bookmarks.py`) and made to save its
//! `Bookmarks` file (the driver creates one bookmark through the extension
//! API). Then:
//!
//! - every field of the source that differs in what Chromium saved is named
//!   in the report, as a writer loss or at the destination; and every field
//!   the report says Chromium changes does change;
//! - the table "What Chromium's next save does" in docs/formats/chromium.md
//!   is what this run measured, key by key, on the written and the saved
//!   JSON.
//!
//! Runs under CI=true (`.ci/setup.d` installs chromium); elsewhere skips,
//! saying why, when Chromium or Python is missing.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use markport::model::{diff, Document, Field, LossReport, NodeId};
use markport::{ReadOptions, WriteOptions};
use markport_tests::{corpus_samples, peer_driver, read_sample, root, tool, walk};
use serde_json::Value;

/// The bookmark the driver creates to make Chromium save.
const MARKER: &str = "https://markport.invalid/resave-marker";

/// The keys Chromium writes itself; any other key is "any other key" in the
/// table (the keys seen are printed).
const OWN_KEYS: [&str; 14] = [
    "checksum",
    "roots",
    "version",
    "bookmark_bar",
    "other",
    "synced",
    "children",
    "date_added",
    "date_last_used",
    "date_modified",
    "guid",
    "id",
    "meta_info",
    "name",
];
const OWN_NODE_KEYS: [&str; 2] = ["type", "url"];

/// One converted file: its name, the source model, what markport wrote and
/// reported, and where Chromium's saved file goes.
struct Case {
    name: String,
    source: Document,
    written: PathBuf,
    report: LossReport,
    saved: PathBuf,
}

fn inputs() -> Vec<(String, String, PathBuf)> {
    let mut out: Vec<_> = corpus_samples()
        .into_iter()
        .map(|(format, path)| {
            let name = path
                .strip_prefix(root().join("corpus"))
                .unwrap()
                .display()
                .to_string();
            (name, format, path)
        })
        .collect();
    // The peer files join when the shared corpus is there; without it the
    // corpus alone is measured (the table check then allows fewer rows).
    let peers = root().join("../shared/corpus/peers/browsers/chromium");
    for path in walk(&peers) {
        if path.to_string_lossy().ends_with(".Bookmarks") {
            let name = format!("peers/{}", path.file_name().unwrap().to_string_lossy());
            out.push((name, "chromium".into(), path));
        }
    }
    out
}

/// `jobs` run on a few threads at once: a Chromium run mostly waits.
fn parallel<T: Send, R: Send>(jobs: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let queue = Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| loop {
                let Some((i, job)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let r = f(job);
                results.lock().unwrap().push((i, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn resave(driver: &Path, input: &Path, output: &Path) {
    let run = Command::new("python3")
        .arg(driver)
        .arg("resave")
        .arg(input)
        .arg("-o")
        .arg(output)
        .output()
        .expect("python3 runs");
    assert!(
        run.status.success(),
        "{}: {}{}",
        input.display(),
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}

/// Chromium's saved file as markport reads it, without the driver's marker
/// and its trace (the folder it went into has a new `date_modified`).
fn saved_without_marker(case: &Case, written: &Document) -> Document {
    let bytes = std::fs::read(&case.saved).unwrap();
    let chromium = markport::format("chromium").unwrap();
    let mut doc = markport::read_bytes(&bytes, chromium, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: Chromium's file: {e}", case.name))
        .document;
    let marker = doc
        .preorder()
        .find(|&id| doc.node(id).as_bookmark().is_some_and(|b| b.href == MARKER))
        .unwrap_or_else(|| panic!("{}: no marker in Chromium's file", case.name));
    let parent = doc.parent(marker).expect("the marker sits in a root");
    let role = doc.node(parent).as_folder().unwrap().role;
    doc.remove(marker);
    let before = written
        .children(None)
        .iter()
        .find_map(|&id| {
            let f = written.node(id).as_folder()?;
            (f.role == role).then(|| f.modified.clone())
        })
        .flatten();
    let parent = doc
        .children(None)
        .iter()
        .copied()
        .find(|&id| doc.node(id).as_folder().is_some_and(|f| f.role == role))
        .unwrap();
    if let markport::model::Node::Folder(f) = doc.node_mut(parent) {
        f.modified = before;
    }
    doc
}

#[test]
fn every_field_chromium_changes_on_its_next_save_is_in_the_report() {
    if !tool("python3", "the Chromium driver runs on Python")
        || !tool("chromium", "loads and re-saves markport's Chromium files")
    {
        return;
    }
    let driver = peer_driver("chromium_bookmarks.py");
    let dir = tempfile::tempdir().unwrap();
    let chromium = markport::format("chromium").unwrap();
    let mut cases = Vec::new();
    for (i, (name, format, path)) in inputs().into_iter().enumerate() {
        let source = read_sample(&format, &path);
        let (bytes, report) = markport::write_to_vec(&source, chromium, &WriteOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = dir.path().join(format!("{i}.written"));
        std::fs::write(&written, &bytes).unwrap();
        let saved = dir.path().join(format!("{i}.saved"));
        cases.push(Case {
            name,
            source,
            written,
            report,
            saved,
        });
    }
    assert!(cases.len() >= 35, "only {} files", cases.len());
    let jobs: Vec<(&Path, &Path)> = cases
        .iter()
        .map(|c| (c.written.as_path(), c.saved.as_path()))
        .collect();
    parallel(jobs, |(input, output)| resave(&driver, input, output));

    let mut failures = Vec::new();
    let mut rows = BTreeSet::new();
    let mut other_keys = BTreeSet::new();
    let mut totals: BTreeMap<Field, usize> = BTreeMap::new();
    for case in &cases {
        let bytes = std::fs::read(&case.written).unwrap();
        let written = markport::read_bytes(&bytes, chromium, &ReadOptions::default())
            .unwrap()
            .document;
        let saved = saved_without_marker(case, &written);
        let named: BTreeSet<Field> = case
            .report
            .losses
            .iter()
            .chain(&case.report.destination)
            .map(|l| l.field)
            .collect();
        // Every field of the source Chromium does not keep is named. When
        // Chromium drops nodes the diff pairs what is left by title, so a
        // root Chromium renamed, or a folder under a root it dropped, can be
        // paired with another folder: what differs on such a node is named
        // by the rename or the drop.
        let explained = explained_nodes(&case.source, &case.report);
        for d in diff(&case.source, &saved).differences {
            let by_node =
                d.count == d.nodes.len() && d.nodes.iter().all(|(a, _)| explained.contains(a));
            if !named.contains(&d.field) && !by_node {
                failures.push(format!(
                    "{}: {} differs on {} nodes after Chromium's save, unreported ({:?})",
                    case.name, d.field, d.count, d.paths
                ));
            }
        }
        // And what the report says Chromium changes, it changes (a field of
        // a node Chromium dropped shows as the node).
        let changed = diff(&written, &saved).fields();
        for l in &case.report.destination {
            *totals.entry(l.field).or_default() += l.count;
            let node = match l.field.scope() {
                markport::model::Scope::Bookmark => Field::Bookmark,
                markport::model::Scope::Folder => Field::Folder,
                _ => l.field,
            };
            if !changed.contains(&l.field) && !changed.contains(&node) {
                failures.push(format!(
                    "{}: the report says \"{}\" of {}, but Chromium keeps it",
                    case.name, l.reason, l.field
                ));
            }
        }
        let written_json: Value = serde_json::from_slice(&bytes).unwrap();
        let saved_json: Value =
            serde_json::from_slice(&std::fs::read(&case.saved).unwrap()).unwrap();
        measure(&written_json, &saved_json, &mut rows, &mut other_keys);
    }
    eprintln!(
        "{} files re-saved by Chromium; reported at the destination: {totals:?}; other keys dropped: {other_keys:?}",
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    let table = table(&rows);
    let doc = std::fs::read_to_string(root().join("docs/formats/chromium.md")).unwrap();
    let documented = doc
        .split(BEGIN)
        .nth(1)
        .and_then(|rest| rest.split(END).next())
        .expect("docs/formats/chromium.md has the measured table")
        .trim()
        .to_string();
    let with_peers = root()
        .join("../shared/corpus/peers/browsers/chromium")
        .is_dir();
    let fits = if with_peers {
        documented == table
    } else {
        table.lines().all(|l| documented.lines().any(|d| d == l))
    };
    assert!(
        fits,
        "docs/formats/chromium.md's table is not what Chromium did; measured:\n{table}"
    );
}

/// The source nodes whose every change the report names by the node: the
/// roots it says Chromium renames, and everything under a root it says
/// Chromium drops (Vivaldi's `trash`, Opera's `custom_root`).
fn explained_nodes(source: &Document, report: &LossReport) -> HashSet<NodeId> {
    let renamed: Vec<&String> = report
        .destination
        .iter()
        .filter(|l| l.field == Field::FolderTitle && l.reason.contains("renames the top-level"))
        .flat_map(|l| &l.paths)
        .collect();
    let drops = report
        .destination
        .iter()
        .any(|l| l.reason.contains("drops roots other than its three"));
    let mut out = HashSet::new();
    for &top in source.children(None) {
        let Some(f) = source.node(top).as_folder() else {
            continue;
        };
        let other_root = f
            .extra
            .iter()
            .any(|a| a.name == "chromium.key" || a.name == "chromium.map");
        if other_root && drops {
            let mut todo = vec![top];
            while let Some(n) = todo.pop() {
                out.insert(n);
                todo.extend_from_slice(source.children(Some(n)));
            }
        } else if renamed.contains(&&source.path(top)) {
            out.insert(top);
        }
    }
    out
}

const BEGIN: &str = "<!-- measured by tests/tests/chromium_destination.rs: begin -->";
const END: &str = "<!-- measured: end -->";

/// One row of the table: where a key sits, the key, what Chromium did.
type Row = (&'static str, String, &'static str);

fn table(rows: &BTreeSet<Row>) -> String {
    let mut out = String::from("| where | key | Chromium's next save |\n|---|---|---|");
    for (place, key, fate) in rows {
        out.push_str(&format!("\n| {place} | {key} | {fate} |"));
    }
    out
}

fn key_name(key: &str, others: &mut BTreeSet<String>) -> String {
    if OWN_KEYS.contains(&key) || OWN_NODE_KEYS.contains(&key) {
        format!("`{key}`")
    } else {
        others.insert(key.to_owned());
        "any other key".to_owned()
    }
}

/// The nodes of a file by id: (place, node), place `root` for the three
/// roots, else `url` or `folder`; nodes under other roots are left out
/// (their root is one row).
fn nodes(file: &Value) -> HashMap<String, (&'static str, &Value)> {
    let mut out = HashMap::new();
    let mut todo: Vec<(&Value, bool)> = ["bookmark_bar", "other", "synced"]
        .iter()
        .filter_map(|k| file["roots"].get(k))
        .map(|n| (n, true))
        .collect();
    while let Some((n, is_root)) = todo.pop() {
        let place = match (is_root, n["type"].as_str()) {
            (true, _) => "root",
            (_, Some("url")) => "url",
            _ => "folder",
        };
        if n["url"].as_str() == Some(MARKER) {
            continue;
        }
        out.insert(n["id"].as_str().unwrap_or("").to_owned(), (place, n));
        for c in n["children"].as_array().into_iter().flatten() {
            todo.push((c, false));
        }
    }
    out
}

/// What Chromium did to each key of the written file, as table rows.
fn measure(
    written: &Value,
    saved: &Value,
    rows: &mut BTreeSet<Row>,
    others: &mut BTreeSet<String>,
) {
    let (w, s) = (written.as_object().unwrap(), saved.as_object().unwrap());
    for (k, v) in w {
        if k == "roots" || k == "checksum" {
            continue;
        }
        match s.get(k) {
            None => rows.insert(("top level", key_name(k, others), "dropped")),
            Some(sv) if sv != v => rows.insert(("top level", key_name(k, others), "changed")),
            _ => false,
        };
    }
    let (wr, sr) = (&written["roots"], &saved["roots"]);
    for (k, v) in wr.as_object().unwrap() {
        if sr.get(k).is_none() {
            let what = if v.is_object() {
                "dropped, with everything in it"
            } else {
                "dropped"
            };
            // Under `roots` every key is one Chromium's family writes.
            rows.insert(("`roots`", format!("`{k}`"), what));
        }
    }
    let theirs = nodes(saved);
    for (id, (place, n)) in nodes(written) {
        let Some((_, m)) = theirs.get(&id) else {
            let what = match n["url"].as_str().map(|u| url::Url::parse(u).is_ok()) {
                Some(false) => "dropped (a link that is not absolute)",
                _ => "dropped",
            };
            rows.insert((place, "the node".into(), what));
            continue;
        };
        for (k, v) in n.as_object().unwrap() {
            if k == "children" {
                continue;
            }
            // The driver's marker changes the date of the root it goes in.
            if place == "root" && k == "date_modified" {
                continue;
            }
            match m.get(k) {
                None => rows.insert((place, key_name(k, others), "dropped")),
                Some(mv) if mv != v => {
                    let no_number = k.starts_with("date_")
                        && !v
                            .as_str()
                            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()));
                    let what = if no_number {
                        "changed (a date markport could not write as a number)"
                    } else {
                        "changed"
                    };
                    rows.insert((place, key_name(k, others), what))
                }
                _ => false,
            };
        }
        for k in m.as_object().unwrap().keys() {
            if n.get(k).is_none() {
                rows.insert((place, key_name(k, others), "added"));
            }
        }
    }
}
