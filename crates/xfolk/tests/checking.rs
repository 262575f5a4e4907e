//! The reader under `ReadOptions::checking`: the rules of `markport check`
//! found on its own walk, tagged and placed, and nothing of them otherwise.

use markport_model::{Diagnostic, ReadOptions};

fn checking() -> ReadOptions {
    let mut opts = ReadOptions::default();
    opts.checking = true;
    opts
}

/// (rule, line, column) of every tagged diagnostic, in order of place.
fn rules(diags: &[Diagnostic]) -> Vec<(&str, u32, u32)> {
    let mut found: Vec<_> = diags
        .iter()
        .filter_map(|d| {
            let rule = d.rule.as_deref()?;
            let at = d.location.expect("a rule's finding has a place");
            Some((rule, at.line, at.column))
        })
        .collect();
    found.sort_by_key(|f| (f.1, f.2));
    found
}

const PAGE: &str = r#"<!DOCTYPE html>
<html><body>
<div class="xfolkentry"><a class="taggedlink" href="https://a.example/">A</a>
  <span class="tags"><a rel="tag" href="/tag/one">one</a></span>
  <span class="tags">two three</span>
  <div class="tags"><span class="tag">four</span><span class="tag"><a rel="tag" href="/tag/five">five</a></span></div>
</div>
<div class="xfolkentry"><p class="description">No link</p>
  <div class="xfolkentry"><a class="taggedlink" href="https://inner.example/">Inner</a></div>
</div>
<div class="xfolkentry"><a class="taggedlink" href="">Empty link</a></div>
<p class="tags">outside every entry</p>
</body></html>
"#;

#[test]
fn checking_finds_each_entry_without_its_link_and_tags_that_are_not_links() {
    let read = markport_xfolk::read(PAGE.as_bytes(), &checking()).unwrap();
    assert_eq!(
        rules(&read.diagnostics),
        [
            ("xfolk/tag-not-rel-tag", 5, 3),
            // The container holds a tag link, but this tag does not.
            ("xfolk/tag-not-rel-tag", 6, 21),
            // A nested entry's link is its own: the outer one has none.
            ("xfolk/missing-taggedlink", 8, 1),
            // An empty link is none: the reader skips the entry.
            ("xfolk/missing-taggedlink", 11, 1),
        ]
    );
    // Exactly the entries the reader skips.
    assert_eq!(read.document.len(), 2);
}

#[test]
fn without_checking_the_reading_is_the_same_and_says_no_rule() {
    let plain = markport_xfolk::read(PAGE.as_bytes(), &ReadOptions::default()).unwrap();
    let checked = markport_xfolk::read(PAGE.as_bytes(), &checking()).unwrap();
    assert!(plain.diagnostics.iter().all(|d| d.rule.is_none()));
    assert!(markport_model::diff(&plain.document, &checked.document).is_empty());
    let untagged = checked.diagnostics.iter().filter(|d| d.rule.is_none());
    assert_eq!(untagged.count(), plain.diagnostics.len());
}

#[test]
fn what_markport_publishes_breaks_no_rule() {
    let mut doc = markport_model::Document::new();
    let mut b = markport_model::Bookmark::new("https://e.example/").with_title("E");
    b.tags = vec!["one".into(), "two words".into()];
    doc.push(None, b);
    let mut page = Vec::new();
    markport_xfolk::write(&doc, &Default::default(), &mut page).unwrap();
    let read = markport_xfolk::read(&page, &checking()).unwrap();
    assert_eq!(rules(&read.diagnostics), []);
}

/// Checking changes nothing of the reading: every xFolk sample of the
/// corpus, the broken ones too, reads to the same outcome and document.
#[test]
fn checking_reads_every_sample_as_reading_does() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut files: Vec<_> = std::fs::read_dir(corpus.join("xfolk"))
        .unwrap()
        .chain(std::fs::read_dir(corpus.join("check")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    assert!(files.len() > 5, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let plain = markport_xfolk::read(&bytes, &ReadOptions::default());
        let checked = markport_xfolk::read(&bytes, &checking());
        match (plain, checked) {
            (Ok(p), Ok(c)) => assert!(
                markport_model::diff(&p.document, &c.document).is_empty(),
                "{}",
                file.display()
            ),
            (Err(p), Err(c)) => assert_eq!(p.message, c.message, "{}", file.display()),
            (p, c) => panic!(
                "{}: {:?} but checking {:?}",
                file.display(),
                p.err(),
                c.err()
            ),
        }
    }
}
