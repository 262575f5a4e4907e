//! The Safari reader on any bytes: an error or a document, never a panic,
//! a hang or a stack overflow. Seeded from corpus/safari (XML, binary and
//! the exported ZIP):
//! `cargo fuzz run read_safari fuzz/corpus/read_safari corpus/safari`.
//! The reader takes the bytes as they are (no detection first), so the
//! binary, XML and ZIP paths are all reached from the seeds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    let _ = markport_safari::read(data, &ReadOptions::default());
});
