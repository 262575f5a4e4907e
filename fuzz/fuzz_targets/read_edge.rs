//! Any bytes as Edge's Collections database: detection and reading give an
//! answer, an error or a document, never a panic (SQLite itself is fuzzed
//! by its authors; this reaches markport's detection, the header checks,
//! its tables' checks and its reading of whatever values the rows hold).
//! Seed it from `corpus/edge/`:
//! `cargo fuzz run read_edge fuzz/corpus/read_edge corpus/edge` (from the
//! repository root; the first directory collects what the fuzzer finds).
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    let _ = markport_edge::detect(data);
    let _ = markport_edge::read(data, &ReadOptions::default());
});
