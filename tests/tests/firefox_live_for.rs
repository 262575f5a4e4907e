//! `--for firefox`: the report names everything a real Firefox's HTML
//! import changes of the file written for it.
//!
//! Every sample of corpus/ (whatever its format) and, when the shared
//! corpus is there, every peer input of the loss-truth test is run through
//! the pipeline for Firefox (`Job::destination`, the format it chooses);
//! a real Firefox (firefox-esr, headless, through
//! tests/peers/firefox_bookmarks.py) imports each file
//! (`BookmarkHTMLUtils.importFromFile`) and writes its JSON backup. The
//! file as markport reads it is compared with Firefox's backup, paired as
//! `markport diff` pairs (folders by path, bookmarks by link): every field
//! Firefox holds differently must be named in the report's `destination`
//! list (or `losses`) on at least as many nodes, file by file. A value
//! Firefox adds where the file had none (an id, a guid, the date of the
//! import) is not counted, nor how a date is written. Runs under CI=true;
//! elsewhere skips when Firefox is missing.

mod firefox_driver;

use std::collections::BTreeMap;
use std::path::PathBuf;

use markport::{Document, Field, LossReport, ReadOptions};
use markport_tests::{corpus_samples, peer_inputs, shared};

use markport_tests::imported::{changes, written_for};

/// Firefox's roots with the titles Firefox shows for them (its backup
/// says `toolbar`, `menu`), which the file written for it gives the role
/// folders: so a root pairs with the folder that became it, and a
/// bookmark on the toolbar is where the file put it.
fn as_shown(doc: &mut Document, dest: &markport::Destination) {
    let roles = dest.roles.expect("a browser shows its roots' names");
    let ids: Vec<_> = doc.preorder().collect();
    for id in ids {
        if let markport::Node::Folder(f) = doc.node_mut(id) {
            // Only the roots the Import fills: Firefox's mobile root stays
            // apart from a folder of the file that was a phone's.
            let filled = f.role.filter(|r| {
                matches!(
                    r,
                    markport::model::Role::Toolbar
                        | markport::model::Role::Menu
                        | markport::model::Role::Unfiled
                )
            });
            if let Some(title) = filled.and_then(|r| roles.of(r)) {
                f.title = Some(title.to_string());
            }
        }
    }
}

/// How many nodes the report names `field` on, lost or changed at the
/// destination.
fn reported(report: &LossReport, field: Field) -> usize {
    report
        .losses
        .iter()
        .chain(&report.destination)
        .filter(|e| e.field == field)
        .map(|e| e.count)
        .sum()
}

#[test]
fn the_report_for_firefox_names_every_field_its_html_import_changes() {
    if !firefox_driver::available("imports markport's output --for firefox") {
        return;
    }
    let mut sources: Vec<(String, PathBuf)> = corpus_samples();
    if let Some(shared) = shared() {
        sources.extend(peer_inputs(&shared));
    }
    // To look at some files only while changing a rule.
    if let Ok(only) = std::env::var("MARKPORT_LIVE_ONLY") {
        sources.retain(|(_, p)| p.to_string_lossy().contains(&only));
    }
    let firefox = markport::destination("firefox").unwrap();
    let ff = markport::format("firefox").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (mut ours, mut reports, mut jobs) = (Vec::new(), Vec::new(), Vec::new());
    for (i, (format, src)) in sources.iter().enumerate() {
        let (html, loss, doc) = written_for(src, format, firefox);
        ours.push(doc);
        reports.push(loss);
        let input = dir.path().join(format!("{i}.html"));
        std::fs::write(&input, html).unwrap();
        jobs.push(firefox_driver::Job {
            json: Some(dir.path().join(format!("{i}.firefox.json"))),
            html: true,
            input,
            ..Default::default()
        });
    }
    let taken = firefox_driver::run_jobs(dir.path(), &jobs);
    let mut failures = Vec::new();
    // field -> (nodes Firefox changed, nodes the reports name)
    let mut totals: BTreeMap<Field, (usize, usize)> = BTreeMap::new();
    for (i, ((_, src), taken)) in sources.iter().zip(taken).enumerate() {
        if let Err(e) = taken {
            failures.push(format!(
                "{}: Firefox refused markport's HTML: {e}",
                src.display()
            ));
            continue;
        }
        let json = jobs[i].json.as_ref().unwrap();
        let mut theirs =
            markport::read_bytes(&std::fs::read(json).unwrap(), ff, &ReadOptions::default())
                .unwrap_or_else(|e| panic!("{}: {e}", json.display()))
                .document;
        as_shown(&mut theirs, firefox);
        for (field, (n, first)) in changes(&ours[i], &theirs) {
            let said = reported(&reports[i], field);
            let t = totals.entry(field).or_default();
            t.0 += n;
            t.1 += said;
            if said < n {
                failures.push(format!(
                    "{}: Firefox changed {field} on {n} nodes (first {first:?}), the report names {said}",
                    src.display()
                ));
            }
        }
    }
    eprintln!(
        "{} files imported by Firefox; per field (changed, reported): {totals:?}",
        sources.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
