//! Any bytes as a Chromium `Bookmarks` file: the reader returns a document
//! or an error, never panics; a document it returns writes, and markport's
//! own output reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::{ReadOptions, WriteOptions};

fuzz_target!(|data: &[u8]| {
    // Asked for check's rules, the reader reads on past what it otherwise
    // refuses: that path must not panic either.
    let mut checking = ReadOptions::default();
    checking.checking = true;
    let _ = markport_chromium::read(data, &checking);
    let Ok(read) = markport_chromium::read(data, &ReadOptions::default()) else {
        return;
    };
    let mut out = Vec::new();
    markport_chromium::write(&read.document, &WriteOptions::default(), &mut out)
        .expect("writing to memory succeeds");
    markport_chromium::read(&out, &ReadOptions::default()).expect("own output reads back");
});
