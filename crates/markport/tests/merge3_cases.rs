//! The three-way merge cases of `corpus/merge3/`: each folder holds
//! `base.xbel`, `ours.xbel`, `theirs.xbel`, the tree the merge must make
//! (`expected.xbel`, absent when the merge must refuse) and `case.json`
//! (what it is about, how dogear differs, the conflicts by class, some
//! outcomes, the options). Written for this project from the scenarios of
//! dogear's test suite, the canonical move/move case and the failures users
//! reported to Floccus, GitSyncMarks and application-services.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use markport::merge3::{merge, MergeError, Options, Side};
use markport::model::Step;
use markport::{format, read_bytes, Document, ReadOptions};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/merge3");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("corpus/merge3 is in the repository")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn read(path: &Path) -> Document {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let xbel = format("xbel").expect("xbel is built in");
    read_bytes(&bytes, xbel, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .document
}

/// The tree as indented lines, to show a difference.
fn outline(doc: &Document) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for step in doc.walk() {
        let (id, open) = match step {
            Step::Open(id) => (id, true),
            Step::Leaf(id) => (id, false),
            Step::Close(_) => {
                depth -= 1;
                continue;
            }
        };
        let node = doc.node(id);
        let what = match node.as_bookmark() {
            Some(b) => format!("{} <{}>", b.title.as_deref().unwrap_or(""), b.href),
            None => node.title().unwrap_or("(separator)").to_string(),
        };
        out.push_str(&format!(
            "{}{what} [{}]\n",
            "  ".repeat(depth),
            node.id().unwrap_or("")
        ));
        if open {
            depth += 1;
        }
    }
    out
}

fn options(meta: &serde_json::Value) -> Options {
    let mut opts = Options::default();
    if meta["prefer"] == "theirs" {
        opts.prefer = Side::Theirs;
    }
    if let Some(held) = meta["cannot_hold"].as_object() {
        for (side, schemes) in held {
            let k = if side == "ours" { 1 } else { 2 };
            opts.unheld[k] = schemes
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
        }
    }
    opts
}

#[test]
fn every_case_merges_to_its_expected_tree_with_its_conflicts() {
    let all = cases();
    assert!(all.len() >= 25, "{} cases", all.len());
    let mut failed = Vec::new();
    for dir in all {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("case.json")).unwrap()).unwrap();
        let [base, ours, theirs] =
            ["base", "ours", "theirs"].map(|s| read(&dir.join(format!("{s}.xbel"))));
        let result = merge(&base, &ours, &theirs, &options(&meta));
        if let Some(side) = meta["refused"].as_str() {
            match result {
                Err(MergeError::MassDelete { side: s, .. }) if s.name() == side => {}
                other => failed.push(format!(
                    "{name}: expected {side}'s mass deletion refused, got {other:?}"
                )),
            }
            continue;
        }
        let merged = match result {
            Ok(m) => m,
            Err(e) => {
                failed.push(format!("{name}: {e}"));
                continue;
            }
        };
        let expected = read(&dir.join("expected.xbel"));
        if merged.document != expected {
            failed.push(format!(
                "{name}: the tree differs\n--- merged\n{}--- expected\n{}",
                outline(&merged.document),
                outline(&expected)
            ));
        }
        let mut classes: BTreeMap<String, u64> = BTreeMap::new();
        for c in &merged.report.conflicts {
            let class = serde_json::to_value(c.class).unwrap();
            *classes
                .entry(class.as_str().unwrap().to_string())
                .or_default() += 1;
        }
        let want: BTreeMap<String, u64> =
            serde_json::from_value(meta["conflicts"].clone()).unwrap();
        if classes != want {
            failed.push(format!(
                "{name}: conflicts {classes:?}, expected {want:?}: {:#?}",
                merged.report.conflicts
            ));
        }
        if let Some(outcomes) = meta["outcomes"].as_object() {
            let had: BTreeMap<String, usize> = merged
                .report
                .outcomes()
                .into_iter()
                .map(|(o, n)| {
                    (
                        serde_json::to_value(o)
                            .unwrap()
                            .as_str()
                            .unwrap()
                            .to_string(),
                        n,
                    )
                })
                .collect();
            for (o, n) in outcomes {
                if had.get(o).copied() != n.as_u64().map(|n| n as usize) {
                    failed.push(format!("{name}: {o} {:?}, expected {n}", had.get(o)));
                }
            }
        }
        let in_result = merged
            .report
            .ledger
            .iter()
            .filter(|e| e.outcome.in_result())
            .count();
        assert_eq!(
            in_result,
            merged.document.len(),
            "{name}: the ledger against the tree"
        );
        let inputs = base.len() + ours.len() + theirs.len();
        let sides: usize = merged.report.ledger.iter().map(|e| e.sides.len()).sum();
        assert_eq!(
            sides, inputs,
            "{name}: every node of the inputs is in one ledger entry"
        );
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
