//! The Safari reader on any bytes: an error or a document, never a panic,
//! a hang or a stack overflow. Seeded from corpus/safari (XML, binary and
//! the exported ZIP); binary plists reach the reader as they are, since
//! their magic number is all it checks before streaming.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    let _ = markport_safari::read(data, &ReadOptions::default());
});
