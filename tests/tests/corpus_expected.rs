//! Every sample under corpus/ reads into exactly the model its
//! `NAME.expected.json` holds.

use markport::WriteOptions;
use markport_tests::{corpus_samples, expected_for, read_parsed};

#[test]
fn every_sample_reads_into_its_expected_model() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (format, path) in corpus_samples() {
        let expected_path = expected_for(&path);
        let Ok(expected) = std::fs::read(&expected_path) else {
            failures.push(format!(
                "{}: no {} beside it",
                path.display(),
                expected_path.display()
            ));
            continue;
        };
        let read = match read_parsed(&format, &path) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let json = markport::format("json").unwrap();
        let (got, _) =
            markport::write_to_vec(&read.document, json, &WriteOptions::default()).unwrap();
        let got: serde_json::Value = serde_json::from_slice(&got).unwrap();
        let want: serde_json::Value = match serde_json::from_slice(&expected) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: {e}", expected_path.display()));
                continue;
            }
        };
        if got != want {
            failures.push(format!(
                "{}: read differs from {}:\n{}",
                path.display(),
                expected_path.display(),
                serde_json::to_string_pretty(&got).unwrap()
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 5, "only {checked} samples checked");
}
