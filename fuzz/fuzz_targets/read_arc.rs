//! Any bytes as Arc's StorableSidebar.json: detection and reading give an
//! answer, an error or a document, never a panic or a hang (ids that point
//! anywhere, loops, lists in lists). Seed it from `corpus/arc/`:
//! `cargo fuzz run read_arc fuzz/corpus/read_arc corpus/arc` (from the
//! repository root; the first directory collects what the fuzzer finds).
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    let _ = markport_arc::detect(data);
    let _ = markport_arc::read(data, &ReadOptions::default());
});
