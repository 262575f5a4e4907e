//! Any bytes as a places database: an error or a document, never a panic
//! (SQLite itself is fuzzed by its authors; this reaches markport's header
//! checks and its reading of whatever tables and values a file holds).
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    let _ = markport_places::read(data, &ReadOptions::default());
});
