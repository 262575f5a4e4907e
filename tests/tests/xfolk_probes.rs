//! Every xFolk probe of the shared corpus gives the entries the stored
//! outputs of the real parsers show. markport follows Operator (the
//! Firefox microformats code) for links and titles (the taggedlink's `title`
//! attribute first, the seed's rule), and HTML::Microformats for tags
//! (`REL="Tag"` counts, `rust.html` is the tag `rust.html`); where it departs
//! from both, the check below says so.

use markport::model::Node;
use markport::ReadOptions;
use markport_tests::shared;
use serde_json::Value;

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(str::to_string))
        .collect()
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_probe_reads_as_the_peers_do() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("corpus/peers/xfolk");
    let mut failures = Vec::new();
    let mut probes = 0;
    let mut entries_checked = 0;
    let mut names: Vec<_> = std::fs::read_dir(dir.join("probes"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    names.sort();
    for probe in names {
        let stem = probe.file_stem().unwrap().to_string_lossy().into_owned();
        let op: Value = serde_json::from_slice(
            &std::fs::read(dir.join(format!("operator/{stem}.json"))).unwrap(),
        )
        .unwrap();
        let hm: Value = serde_json::from_slice(
            &std::fs::read(dir.join(format!("html-microformats/{stem}.json"))).unwrap(),
        )
        .unwrap();
        let mut opts = ReadOptions::default();
        opts.xfolk.base_url = op["document_url"].as_str().map(str::to_string);
        let read = markport::read_bytes(
            &std::fs::read(&probe).unwrap(),
            markport::format("xfolk").unwrap(),
            &opts,
        )
        .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let doc = &read.document;
        let got: Vec<_> = doc
            .preorder()
            .filter_map(|id| match doc.node(id) {
                Node::Bookmark(b) => Some(b.clone()),
                _ => None,
            })
            .collect();
        // Entries with no usable link are skipped (a bookmark needs one); the
        // peers report them with url null, "" or the page's own address.
        let hm_entries = hm["entries"].as_array().cloned().unwrap_or_default();
        // Operator throws on tabs and newlines between class tokens (its bug,
        // NOTES.md): where its entry is empty, HTML::Microformats' stands.
        let op_entries = op["entries"].as_array().cloned().unwrap_or_default();
        let want: Vec<(usize, Value)> = hm_entries
            .iter()
            .enumerate()
            .filter_map(|(i, hm_e)| {
                let op_e = op_entries.get(i).cloned().unwrap_or(Value::Null);
                match op_e["url"].as_str() {
                    Some("") => None,
                    Some(_) => Some((i, op_e)),
                    None if hm_e["url"].is_string()
                        && hm_e["title"].is_string()
                        && op_e["title"].is_null()
                        && op_e["tags"].is_null() =>
                    {
                        Some((i, hm_e.clone()))
                    }
                    None => None,
                }
            })
            .collect();
        if got.len() != want.len() {
            failures.push(format!(
                "{stem}: {} entries, the peers have {}",
                got.len(),
                want.len()
            ));
            continue;
        }
        for (b, (i, op_e)) in got.iter().zip(&want) {
            let i = *i;
            let hm_e = hm_entries.get(i).cloned().unwrap_or(Value::Null);
            let op_e = if op_e.get("descriptions_text").is_some() {
                &hm_e
            } else {
                op_e
            };
            let at = format!("{stem} entry {i}");
            if b.href != op_e["url"].as_str().unwrap() {
                failures.push(format!("{at}: url {:?}, Operator {}", b.href, op_e["url"]));
            }
            // Title: Operator's rule; an image-only link takes its alt text,
            // as HTML::Microformats does (Operator gives none).
            let want_title = op_e["title"]
                .as_str()
                .or(hm_e["title"].as_str())
                .map(collapse);
            if b.title != want_title {
                failures.push(format!(
                    "{at}: title {:?}, expected {want_title:?}",
                    b.title
                ));
            }
            // Tags: HTML::Microformats' reading, duplicates dropped (the rule).
            let mut want_tags = Vec::new();
            for t in strings(&hm_e["tags"]) {
                if !want_tags.contains(&t) {
                    want_tags.push(t);
                }
            }
            if b.tags != want_tags {
                failures.push(format!("{at}: tags {:?}, expected {want_tags:?}", b.tags));
            }
            // Descriptions: all of them, empty ones dropped (Operator), joined by
            // a blank line. markport also reads the legacy class `extended`,
            // which neither peer does.
            let mut descs: Vec<String> = strings(&op_e["descriptions"])
                .into_iter()
                .map(|d| collapse(&d))
                .filter(|d| !d.is_empty())
                .collect();
            let legacy = std::fs::read_to_string(&probe)
                .unwrap()
                .contains("class=\"extended\"")
                && descs.is_empty()
                && b.desc.is_some();
            if legacy {
                descs = vec![collapse(b.desc.as_deref().unwrap())];
            }
            let got_desc = b.desc.as_deref().map(collapse);
            let want_desc = (!descs.is_empty()).then(|| descs.join(" "));
            if got_desc != want_desc {
                failures.push(format!(
                    "{at}: description {:?}, expected {want_desc:?}",
                    b.desc
                ));
            }
            entries_checked += 1;
        }
        probes += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        probes >= 14 && entries_checked >= 25,
        "{probes} probes, {entries_checked} entries"
    );
}
