//! Any bytes as a Firefox JSON backup: the reader returns a document or an
//! error, never panics; a document it returns writes and reads back with
//! exactly the reported loss.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::{diff, ReadOptions, WriteOptions};

fuzz_target!(|data: &[u8]| {
    // Asked for check's rules, the reader reads on past what it otherwise
    // refuses: that path must not panic either.
    let mut checking = ReadOptions::default();
    checking.checking = true;
    let _ = markport_firefox::read(data, &checking);
    let Ok(read) = markport_firefox::read(data, &ReadOptions::default()) else {
        return;
    };
    let mut out = Vec::new();
    let loss = markport_firefox::write(&read.document, &WriteOptions::default(), &mut out)
        .expect("writing to memory succeeds");
    let back = markport_firefox::read(&out, &ReadOptions::default()).expect("own output reads back");
    assert_eq!(diff(&read.document, &back.document).fields(), loss.fields());
});
