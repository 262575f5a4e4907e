//! Shaarli's datastore (as a file, and its inflated `serialize()` text
//! directly, so the fuzzer reaches the PHP reader without having to make
//! valid deflate) and Delicious/Pinboard v1 XML on any bytes: an error or a
//! document, never a panic. The first byte picks the reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;
use markport_services::{delicious, shaarli};

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let mut opts = ReadOptions::default();
    // A small budget, so that shapes that would take the default's
    // hundreds of MiB are refused quickly instead of slowing the run.
    opts.memory_budget = Some(8 << 20);
    let _ = match which % 4 {
        0 => shaarli::read(rest, &opts),
        1 => shaarli::read_serialized(rest, &opts),
        2 => shaarli::read(&[b"<?php /* ", rest, b" */ ?>"].concat(), &opts),
        _ => delicious::read(rest, &opts),
    };
});
