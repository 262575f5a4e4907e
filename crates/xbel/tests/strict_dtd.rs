//! `--xbel-strict` output validates against the XBEL 1.0 DTD (xmllint).
//! Needs xmllint (Debian libxml2-utils) and the shared peer corpus; skips
//! with a reason outside CI when either is missing, fails under CI.

use std::path::{Path, PathBuf};
use std::process::Command;

use markport_model::{ReadOptions, WriteOptions};

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

fn skip(why: &str) {
    assert!(!in_ci(), "CI=true but {why}");
    eprintln!("skipped: {why}");
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "xbel") {
            out.push(p);
        }
    }
}

#[test]
fn strict_output_of_every_sample_is_dtd_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dtd = root.join("../shared/corpus/peers/xbel/xbel-1.0.dtd");
    if !dtd.exists() {
        return skip("the shared peer corpus (XBEL DTD) is missing");
    }
    if Command::new("xmllint").arg("--version").output().is_err() {
        return skip("xmllint is not installed (apt-get install libxml2-utils)");
    }
    let mut inputs = Vec::new();
    files(&root.join("corpus/xbel"), &mut inputs);
    files(&root.join("../shared/corpus/peers/xbel"), &mut inputs);
    assert!(inputs.len() >= 8);
    let dir = tempfile::tempdir().unwrap();
    let mut opts = WriteOptions::default();
    opts.xbel.strict = true;
    for input in inputs {
        let doc = markport_xbel::read(&std::fs::read(&input).unwrap(), &ReadOptions::default())
            .unwrap()
            .document;
        let out_path = dir.path().join("out.xbel");
        let mut out = Vec::new();
        markport_xbel::write(&doc, &opts, &mut out).unwrap();
        std::fs::write(&out_path, &out).unwrap();
        let status = Command::new("xmllint")
            .args(["--noout", "--nonet", "--dtdvalid"])
            .arg(&dtd)
            .arg(&out_path)
            .env("XML_CATALOG_FILES", dtd.with_file_name("catalog.xml"))
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{}: strict output is not DTD-valid:\n{}\n{}",
            input.display(),
            String::from_utf8_lossy(&status.stderr),
            String::from_utf8_lossy(&out)
        );
        // Without --xbel-strict the same file is well-formed XML.
        let mut full = Vec::new();
        markport_xbel::write(&doc, &WriteOptions::default(), &mut full).unwrap();
        std::fs::write(&out_path, &full).unwrap();
        let wf = Command::new("xmllint")
            .args(["--noout", "--nonet"])
            .arg(&out_path)
            .output()
            .unwrap();
        assert!(
            wf.status.success(),
            "{}: not well-formed: {}",
            input.display(),
            String::from_utf8_lossy(&wf.stderr)
        );
    }
}
