//! The report of `--to firefox` names everything a real Firefox changes.
//!
//! Every sample of corpus/ (whatever its format) and, when the shared
//! corpus is there, every public Firefox backup of the peer corpus is
//! written with markport's Firefox writer; a real Firefox (firefox-esr,
//! headless, through tests/peers/firefox_bookmarks.py) restores each backup
//! and writes its own. Item by item (paired by guid, which Firefox keeps),
//! every field of markport's backup that Firefox's backup holds differently
//! must be named in the writer's report, in `losses` or in `destination`, on
//! at least as many nodes. A value Firefox adds where the source had none
//! (an id, the date of the restore) is not a field of the source and is not
//! counted. Runs under CI=true; elsewhere skips when Firefox is missing.

mod firefox_driver;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use markport::model::{Document, Field, Holder, LossReport, Node, NodeId};
use markport::{ReadOptions, WriteOptions};
use markport_tests::{corpus_samples, shared, walk};

/// Where an item is found on both sides: bookmarks and folders by guid,
/// separators by their folder's guid and their rank among its separators.
fn keys(doc: &Document) -> HashMap<String, NodeId> {
    let mut out = HashMap::new();
    let mut separators: HashMap<String, usize> = HashMap::new();
    for id in doc.preorder() {
        let key = match doc.node(id) {
            Node::Bookmark(b) => b.details().guid.clone(),
            Node::Folder(f) => f.guid.clone(),
            Node::Separator(_) => {
                let parent = parent_key(doc, id);
                let n = separators.entry(parent.clone()).or_default();
                *n += 1;
                Some(format!("{parent}/separator {n}"))
            }
            _ => None,
        };
        if let Some(k) = key {
            out.insert(k, id);
        }
    }
    out
}

fn parent_key(doc: &Document, id: NodeId) -> String {
    doc.parent(id)
        .and_then(|p| doc.node(p).as_folder())
        .and_then(|f| f.guid.clone())
        .unwrap_or_default()
}

/// The rank of `id` among its siblings that the other side has too (a
/// sibling Firefox dropped does not move the others).
fn position(
    doc: &Document,
    id: NodeId,
    mine: &HashMap<NodeId, String>,
    other: &HashMap<String, NodeId>,
) -> Option<usize> {
    doc.children(doc.parent(id))
        .iter()
        .filter(|c| mine.get(c).is_some_and(|k| other.contains_key(k)))
        .position(|c| *c == id)
}

fn keys_of(doc: &Document) -> HashMap<NodeId, String> {
    keys(doc).into_iter().map(|(k, id)| (id, k)).collect()
}

/// (field, node paths of `ours`) that Firefox's backup holds differently.
fn changes(ours: &Document, theirs: &Document) -> BTreeMap<Field, Vec<String>> {
    let mut out: BTreeMap<Field, Vec<String>> = BTreeMap::new();
    let mut compare = |a: Holder, b: Option<Holder>, path: String| {
        for f in a.present() {
            let same = b
                .and_then(|b| f.get(b))
                .zip(f.get(a))
                .is_some_and(|(y, x)| x.same(&y));
            if !same {
                out.entry(f).or_default().push(path.clone());
            }
        }
    };
    compare(
        Holder::from(&ours.header),
        Some(Holder::from(&theirs.header)),
        "(document)".into(),
    );
    let found = keys(theirs);
    let mine = keys(ours);
    let (ours_keys, theirs_keys) = (keys_of(ours), keys_of(theirs));
    let mut placed = Vec::new();
    for (key, &id) in &mine {
        let node = ours.node(id);
        let path = ours.path(id);
        let Some(&other) = found.get(key) else {
            let field = match node {
                Node::Folder(_) => Field::Folder,
                Node::Separator(_) => Field::Separator,
                _ => Field::Bookmark,
            };
            placed.push((field, path));
            continue;
        };
        compare(
            Holder::from(node),
            Some(Holder::from(theirs.node(other))),
            path.clone(),
        );
        if parent_key(ours, id) != parent_key(theirs, other)
            || position(ours, id, &ours_keys, &found)
                != position(theirs, other, &theirs_keys, &mine)
        {
            placed.push((Field::Folder, path));
        }
    }
    for (field, path) in placed {
        out.entry(field).or_default().push(path);
    }
    out
}

/// How many nodes the report names `field` on, lost or changed at the destination.
fn reported(report: &LossReport, field: Field) -> usize {
    report
        .losses
        .iter()
        .chain(&report.destination)
        .filter(|l| l.field == field)
        .map(|l| l.count)
        .sum()
}

#[test]
fn the_report_names_every_field_firefox_changes_on_restore() {
    if !firefox_driver::available("restores markport's Firefox backups") {
        return;
    }
    let mut sources: Vec<(String, PathBuf)> = corpus_samples();
    let shared_here = shared();
    if let Some(shared) = &shared_here {
        for f in walk(&shared.join("corpus/peers/browsers/firefox-json")) {
            sources.push(("firefox".into(), f));
        }
    }
    let ff = markport::format("firefox").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut written = Vec::new();
    let mut jobs = Vec::new();
    for (format, src) in &sources {
        if format == "places" {
            // Read through its path (the facade's path reader), as convert does.
            let parsed = markport::read(src, None, &ReadOptions::default()).unwrap();
            written.push((src, parsed.document));
        } else {
            written.push((src, markport_tests::read_sample(format, src)));
        }
    }
    let mut reports = Vec::new();
    for (i, (_, doc)) in written.iter().enumerate() {
        let (bytes, report) = markport::write_to_vec(doc, ff, &WriteOptions::default()).unwrap();
        let input = dir.path().join(format!("{i}.json"));
        std::fs::write(&input, bytes).unwrap();
        jobs.push(firefox_driver::Job {
            json: Some(dir.path().join(format!("{i}.firefox.json"))),
            input,
            ..Default::default()
        });
        reports.push(report);
    }
    let taken = firefox_driver::run_jobs(dir.path(), &jobs);
    let mut failures = Vec::new();
    // field -> (nodes Firefox changed, the report's reasons for them)
    let mut table: BTreeMap<Field, (usize, BTreeSet<String>)> = BTreeMap::new();
    for (((src, _), job), (report, taken)) in
        written.iter().zip(&jobs).zip(reports.iter().zip(taken))
    {
        let name = src.display();
        if let Err(e) = taken {
            failures.push(format!("{name}: Firefox refused markport's backup: {e}"));
            continue;
        }
        let read = |p: &PathBuf| {
            markport::read_bytes(&std::fs::read(p).unwrap(), ff, &ReadOptions::default())
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
                .document
        };
        let ours = read(&job.input);
        let theirs = read(job.json.as_ref().unwrap());
        for (field, paths) in changes(&ours, &theirs) {
            let row = table.entry(field).or_default();
            row.0 += paths.len();
            row.1.extend(
                report
                    .destination
                    .iter()
                    .filter(|l| l.field == field)
                    .map(|l| l.reason.clone()),
            );
            let named = reported(report, field);
            if named < paths.len() {
                failures.push(format!(
                    "{name}: Firefox changed {field} on {} nodes, the report names {named}: {:?}",
                    paths.len(),
                    &paths[..paths.len().min(5)]
                ));
            }
        }
    }
    // The table of docs/formats/firefox.md, as scripts/firefox-restore-table.sh prints it.
    // How close the report is: the nodes it names per field (destination
    // and losses) against those Firefox changed.
    for (field, (nodes, _)) in &table {
        let named: usize = reports.iter().map(|r| reported(r, *field)).sum();
        eprintln!("measured {field}: Firefox changed {nodes}, the report names {named}");
    }
    eprintln!("TABLE| {} files", sources.len());
    eprintln!("TABLE| | field | nodes | what the report says |");
    eprintln!("TABLE| | --- | --- | --- |");
    for (field, (nodes, reasons)) in &table {
        let reasons: Vec<&str> = reasons.iter().map(String::as_str).collect();
        eprintln!("TABLE| | `{field}` | {nodes} | {} |", reasons.join("; "));
    }
    failures.extend(doc_disagrees(&table, shared_here.is_some()));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where docs/formats/firefox.md's table of Firefox's changes disagrees with
/// the measurement: a field measured but not in the table (or without one
/// of the report's reasons), or, when every input was measured (the shared
/// corpus there), a field in the table that Firefox did not change.
fn doc_disagrees(
    table: &BTreeMap<Field, (usize, BTreeSet<String>)>,
    complete: bool,
) -> Vec<String> {
    let doc =
        std::fs::read_to_string(markport_tests::root().join("docs/formats/firefox.md")).unwrap();
    let section = doc
        .split("### What Firefox's restore changes")
        .nth(1)
        .expect("docs/formats/firefox.md has the section");
    let rows: BTreeMap<String, &str> = section
        .lines()
        .take_while(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let name = l.strip_prefix("| `")?.split('`').next()?;
            Some((name.to_string(), l))
        })
        .collect();
    let mut out = Vec::new();
    for (field, (_, reasons)) in table {
        match rows.get(field.name()) {
            None => out.push(format!(
                "docs/formats/firefox.md: no row for {field} (scripts/firefox-restore-table.sh)"
            )),
            Some(row) => out.extend(reasons.iter().filter(|r| !row.contains(r.as_str())).map(
                |r| format!("docs/formats/firefox.md: the row of {field} does not say {r:?}"),
            )),
        }
    }
    if complete {
        for name in rows.keys() {
            if !table.keys().any(|f| f.name() == name) {
                out.push(format!(
                    "docs/formats/firefox.md: Firefox no longer changes {name}"
                ));
            }
        }
    }
    out
}
