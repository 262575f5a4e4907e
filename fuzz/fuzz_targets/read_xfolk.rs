//! Any bytes: the reader returns a document or an error, never panics; a
//! document it returns writes and reads back with exactly the reported loss.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::{diff, ReadOptions, WriteOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(read) = markport_xfolk::read(data, &ReadOptions::default()) else {
        return;
    };
    let mut out = Vec::new();
    let loss = markport_xfolk::write(&read.document, &WriteOptions::default(), &mut out)
        .expect("writing to memory succeeds");
    let back = markport_xfolk::read(&out, &ReadOptions::default()).expect("own output reads back");
    assert_eq!(diff(&read.document, &back.document).fields(), loss.fields());
});
