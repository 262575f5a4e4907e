//! Any bytes: the reader returns a document or an error, never panics, with
//! checking or without; a document it returns writes and reads back with
//! exactly the reported loss.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::{diff, ReadOptions, WriteOptions};

fuzz_target!(|data: &[u8]| {
    // Checking (`markport check`) reads on past what reading refuses: it
    // must not panic either, and every finding it lists has a place.
    let mut checking = ReadOptions::default();
    checking.checking = true;
    let found = match markport_xbel::read(data, &checking) {
        Ok(read) => read.diagnostics,
        Err(e) => e.found,
    };
    assert!(found
        .iter()
        .filter(|d| d.rule.is_some())
        .all(|d| d.location.is_some()));
    let Ok(read) = markport_xbel::read(data, &ReadOptions::default()) else {
        return;
    };
    let mut out = Vec::new();
    let loss = markport_xbel::write(&read.document, &WriteOptions::default(), &mut out)
        .expect("writing to memory succeeds");
    let back = markport_xbel::read(&out, &ReadOptions::default()).expect("own output reads back");
    assert_eq!(diff(&read.document, &back.document).fields(), loss.fields());
});
