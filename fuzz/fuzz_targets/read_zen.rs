//! Any bytes as a Zen session, as JSON and inside the mozLz40 container:
//! detection and reading give an answer, an error or a document, never a
//! panic or a hang (folders whose parents loop, tabs copied into every
//! window). Seed it from `corpus/zen/`:
//! `cargo fuzz run read_zen fuzz/corpus/read_zen corpus/zen` (from the
//! repository root; the first directory collects what the fuzzer finds).
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    let _ = markport_zen::detect(data);
    let _ = markport_zen::read(data, &ReadOptions::default());
    if let Ok(file) = markport_firefox::lz4::compress(data) {
        let _ = markport_zen::detect(&file);
        let _ = markport_zen::read(&file, &ReadOptions::default());
    }
});
