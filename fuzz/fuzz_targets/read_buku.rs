//! Any bytes as a buku database: detection and reading give an answer, an
//! error or a document, never a panic (SQLite itself is fuzzed by its
//! authors; this reaches markport's detection over the first page, the
//! header checks, and its reading of whatever columns and values a
//! `bookmarks` table holds). Seed it from `corpus/buku/`:
//! `cargo fuzz run read_buku fuzz/corpus/read_buku corpus/buku` (from the
//! repository root; the first directory collects what the fuzzer finds).
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    let _ = markport_buku::detect(data);
    let _ = markport_buku::read(data, &ReadOptions::default());
});
