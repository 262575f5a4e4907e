//! A document nested 100,000 folders deep converts through every format, or
//! fails cleanly: never a stack overflow.

use markport::{ReadOptions, WriteOptions};

#[test]
fn a_hundred_thousand_folders_deep_converts_through_every_format() {
    const DEPTH: usize = 100_000;
    let mut xbel = String::from("<?xml version=\"1.0\"?>\n<xbel version=\"1.0\">\n");
    for i in 0..DEPTH {
        xbel.push_str(&format!("<folder><title>f{i}</title>\n"));
    }
    xbel.push_str("<bookmark href=\"https://deep.example/\"><title>bottom</title></bookmark>\n");
    xbel.push_str(&"</folder>\n".repeat(DEPTH));
    xbel.push_str("</xbel>\n");
    let doc = markport::read_bytes(
        xbel.as_bytes(),
        markport::format("xbel").unwrap(),
        &ReadOptions::default(),
    )
    .expect("deep XBEL reads")
    .document;
    assert_eq!(doc.census().depth, DEPTH);
    for w in markport::writable() {
        // A tree of files (favorites) is as deep as the file system lets a
        // path go: written into a private directory, it converts or fails
        // cleanly.
        if w.directory().is_some() {
            match markport::roundtrip(&doc, w, &WriteOptions::default()) {
                Ok(trip) => assert!(trip.exact(), "{}: report vs diff", w.name),
                Err(e) => eprintln!("{}: fails cleanly: {e}", w.name),
            }
            continue;
        }
        let (out, loss) = markport::write_to_vec(&doc, w, &WriteOptions::default())
            .unwrap_or_else(|e| panic!("{} cannot write it: {e}", w.name));
        match markport::read_bytes(&out, w, &ReadOptions::default()) {
            Ok(back) => {
                let d = markport::diff(&doc, &back.document);
                assert_eq!(d.fields(), loss.fields(), "{}: report vs diff", w.name);
            }
            Err(e) => eprintln!("{}: reading back fails cleanly: {e}", w.name),
        }
    }
}
