//! The generic CSV and URL-list formats against real files: they never
//! take a file another format knows (the service exports in
//! ../shared/corpus/peers/browsers/other and every corpus sample are
//! detected as they were without them), and `--from csv` reads the
//! services' CSV exports row for row as Python's csv module does.

use std::path::Path;
use std::process::Command;

use markport::{Format, ReadOptions, FORMATS};
use markport_tests::{corpus_samples, shared, tool, walk};

/// What detection chose before csv and urls were registered: the most
/// confident of the other formats, the earlier one on a tie.
fn detected_without_lists(bytes: &[u8]) -> Option<&'static str> {
    let mut best: Option<(&Format, u8)> = None;
    for f in FORMATS.iter().filter(|f| !matches!(f.name, "csv" | "urls")) {
        if let Some(score) = (f.detect)(bytes) {
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((f, score));
            }
        }
    }
    best.map(|(f, _)| f.name)
}

fn check_detection(path: &Path, failures: &mut Vec<String>) {
    // A directory (a favorites tree) is detected by its files, not its bytes.
    if path.is_dir() {
        return;
    }
    let bytes = std::fs::read(path).unwrap();
    let before = detected_without_lists(&bytes);
    let now = markport::detect(&bytes).map(|f| f.name);
    // A file nothing knew may now read as a list; one something knew stays.
    if before.is_some() && before != now {
        failures.push(format!(
            "{}: detected as {now:?}, was {before:?}",
            path.display()
        ));
    }
}

#[test]
fn no_file_another_format_knows_is_taken_by_csv_or_urls() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (format, path) in corpus_samples() {
        if format != "csv" && format != "urls" {
            check_detection(&path, &mut failures);
            checked += 1;
        }
    }
    if let Some(shared) = shared() {
        for path in walk(&shared.join("corpus/peers/browsers/other")) {
            check_detection(&path, &mut failures);
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 20, "only {checked} files");
}

/// Python's csv module: the values of the column named `url` (any case),
/// in order.
const URLS: &str = r#"
import csv, json, sys
data = open(sys.argv[1], encoding="utf-8-sig", newline="").read()
rows = list(csv.reader(data.splitlines(keepends=True)))
col = [h.strip().lower() for h in rows[0]].index("url")
print(json.dumps([r[col] for r in rows[1:] if r]))
"#;

#[test]
fn from_csv_reads_the_service_csv_exports_row_for_row_as_python_does() {
    let Some(shared) = shared() else { return };
    if !tool("python3", "the independent reading of the CSV exports") {
        return;
    }
    let csv = markport::format("csv").unwrap();
    let mut checked = 0;
    for path in walk(&shared.join("corpus/peers/browsers/other")) {
        if path.extension().is_none_or(|e| e != "csv") {
            continue;
        }
        let out = Command::new("python3")
            .args(["-c", URLS])
            .arg(&path)
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
        let doc =
            markport::read_bytes(&std::fs::read(&path).unwrap(), csv, &ReadOptions::default())
                .unwrap()
                .document;
        let got: Vec<String> = doc
            .preorder()
            .filter_map(|id| doc.node(id).as_bookmark())
            .map(|b| b.href.clone())
            .collect();
        // Rows in folders come out grouped by folder: compare as multisets
        // and the count.
        let (mut got, mut want) = (got, want);
        assert_eq!(got.len(), want.len(), "{}", path.display());
        got.sort();
        want.sort();
        assert_eq!(got, want, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} CSV exports");
}
