//! Any bytes: the reader returns a document or an error, never panics; a
//! document it returns writes and reads back with exactly the reported loss.
//! Read for `markport check` (`ReadOptions::checking`), the same bytes give
//! the same outcome and document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::{diff, ReadOptions, WriteOptions};

fuzz_target!(|data: &[u8]| {
    let mut checking = ReadOptions::default();
    checking.checking = true;
    let checked = markport_netscape::read(data, &checking);
    let Ok(read) = markport_netscape::read(data, &ReadOptions::default()) else {
        assert!(checked.is_err());
        return;
    };
    let checked = checked.expect("checking reads what reading reads");
    assert!(diff(&read.document, &checked.document).is_empty());
    let mut out = Vec::new();
    let loss = markport_netscape::write(&read.document, &WriteOptions::default(), &mut out)
        .expect("writing to memory succeeds");
    let back = markport_netscape::read(&out, &ReadOptions::default()).expect("own output reads back");
    assert_eq!(diff(&read.document, &back.document).fields(), loss.fields());
});
