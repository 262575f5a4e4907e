//! A real Firefox (firefox-esr, headless, through the project's own driver,
//! tests/peers/firefox_bookmarks.py) restores markport's Firefox backups
//! with the same titles, links, tags, keywords and dates, and the backups
//! Firefox then writes (JSON and .jsonlz4) read back in markport with the
//! values Firefox holds: the Firefox samples of corpus/, and the public
//! backups of the shared peer corpus when it is there. Runs under CI=true;
//! elsewhere skips when Firefox is missing.

mod firefox_driver;

use std::collections::BTreeMap;

use markport::{Node, ReadOptions, WriteOptions};
use markport_tests::{corpus_samples, shared, walk};

/// (href, title, tags, keyword, dateAdded µs) of every bookmark, sorted.
type Entries = Vec<(String, String, Vec<String>, String, Option<i64>)>;

fn from_doc(doc: &markport::Document) -> Entries {
    let mut v: Entries =
        doc.ids()
            .filter_map(|id| match doc.node(id) {
                Node::Bookmark(b) => {
                    let mut tags = b.tags.clone();
                    tags.sort();
                    let added =
                        b.added.as_ref().and_then(|d| d.instant()).map(|t| {
                            t.unix_seconds() * 1_000_000 + i64::from(t.subsec_nanos() / 1000)
                        });
                    Some((
                        b.href.clone(),
                        b.title.clone().unwrap_or_default(),
                        tags,
                        b.details().firefox().keyword.clone().unwrap_or_default(),
                        added,
                    ))
                }
                _ => None,
            })
            .collect();
    v.sort();
    v
}

fn from_firefox(tree: &serde_json::Value) -> Entries {
    let mut v = Entries::new();
    let mut stack = vec![tree];
    while let Some(n) = stack.pop() {
        if let Some(uri) = n.get("uri").and_then(|u| u.as_str()) {
            let s = |k: &str| n.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
            let mut tags: Vec<String> = s("tags")
                .split(',')
                .filter(|t| !t.is_empty())
                .map(String::from)
                .collect();
            tags.sort();
            v.push((
                uri.into(),
                s("title"),
                tags,
                s("keyword"),
                n.get("dateAdded").and_then(|d| d.as_i64()),
            ));
        }
        if let Some(c) = n.get("children").and_then(|c| c.as_array()) {
            stack.extend(c.iter());
        }
    }
    v.sort();
    v
}

/// Firefox's tree of one of its JSON backups, as the driver's tree would be.
fn tree_of(json: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(json).unwrap()).expect("Firefox writes JSON")
}

fn differences(a: &Entries, b: &Entries) -> Vec<String> {
    let count = |e: &Entries| {
        let mut m: BTreeMap<String, i64> = BTreeMap::new();
        for x in e {
            *m.entry(format!("{x:?}")).or_default() += 1;
        }
        m
    };
    let (ca, mut cb) = (count(a), count(b));
    let mut out = Vec::new();
    for (k, n) in ca {
        let m = cb.remove(&k).unwrap_or(0);
        if n != m {
            out.push(format!("markport {n} / firefox {m}: {k}"));
        }
    }
    out.extend(
        cb.into_iter()
            .map(|(k, m)| format!("markport 0 / firefox {m}: {k}")),
    );
    out
}

#[test]
fn firefox_restores_markport_backups_and_markport_reads_firefox_backups() {
    if !firefox_driver::available("restores markport's Firefox backups") {
        return;
    }
    let mut sources: Vec<std::path::PathBuf> = corpus_samples()
        .into_iter()
        // The hard cases of firefox-restore-changes.json are what Firefox
        // changes; firefox_live_report holds the report to them.
        .filter(|(format, path)| {
            format == "firefox" && !path.ends_with("firefox-restore-changes.json")
        })
        .map(|(_, path)| path)
        .collect();
    // The peer backups when the shared corpus is there (skipped with its
    // reason otherwise; required under CI=true).
    if let Some(shared) = shared() {
        sources.extend(walk(&shared.join("corpus/peers/browsers/firefox-json")));
    }
    let ff = markport::format("firefox").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let mut docs = Vec::new();
    let mut jobs = Vec::new();
    for (i, src) in sources.iter().enumerate() {
        let doc = markport_tests::read_sample("firefox", src);
        let (bytes, _) = markport::write_to_vec(&doc, ff, &WriteOptions::default()).unwrap();
        let ours = dir.join(format!("{i}.in.json"));
        std::fs::write(&ours, bytes).unwrap();
        jobs.push(firefox_driver::Job {
            input: ours,
            json: Some(dir.join(format!("{i}.out.json"))),
            jsonlz4: Some(dir.join(format!("{i}.out.jsonlz4"))),
            ..Default::default()
        });
        docs.push(doc);
    }
    let taken = firefox_driver::run_jobs(dir, &jobs);
    let mut failures = Vec::new();
    for (((src, doc), job), taken) in sources.iter().zip(&docs).zip(&jobs).zip(taken) {
        let name = src.file_name().unwrap().to_string_lossy().into_owned();
        if let Err(e) = taken {
            failures.push(format!("{name}: Firefox refused markport's backup: {e}"));
            continue;
        }
        let (json, lz4) = (job.json.clone().unwrap(), job.jsonlz4.clone().unwrap());
        let restored = from_firefox(&tree_of(&json));
        // Firefox keeps dates to the millisecond (measured: it truncates the
        // microseconds of a backup it restores); everything else is ours.
        let mut expected: Entries = from_doc(doc);
        // It also rewrites the root names of old place: queries into guids,
        // and dates an undated item with the time of the restore.
        let undated: std::collections::HashSet<String> = expected
            .iter_mut()
            .filter_map(|e| {
                e.4 = e.4.map(|us| us.div_euclid(1000) * 1000);
                for (old, new) in [
                    ("folder=BOOKMARKS_MENU", "parent=menu________"),
                    ("folder=UNFILED_BOOKMARKS", "parent=unfiled_____"),
                    ("folder=TOOLBAR", "parent=toolbar_____"),
                ] {
                    e.0 = e.0.replace(old, new);
                }
                e.4.is_none().then(|| e.0.clone())
            })
            .collect();
        expected.sort();
        let mut restored = restored;
        for e in &mut restored {
            if undated.contains(&e.0) {
                e.4 = None;
            }
        }
        restored.sort();
        for d in differences(&expected, &restored) {
            failures.push(format!("{name} restored: {d}"));
        }
        for out in [&json, &lz4] {
            let back =
                markport::read_bytes(&std::fs::read(out).unwrap(), ff, &ReadOptions::default())
                    .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
            let mut back = from_doc(&back.document);
            for e in &mut back {
                if undated.contains(&e.0) {
                    e.4 = None;
                }
            }
            back.sort();
            for d in differences(&back, &restored) {
                failures.push(format!("{name} Firefox's {}: {d}", out.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
