//! Every service reader on any bytes: an error or a document, never a
//! panic. The first byte picks the reader (and, by its high bit, whether
//! it checks); the CSV headers are put in front so the fuzzer reaches the
//! rows.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;
use markport_services::{instapaper, pinboard, pocket};

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let mut opts = ReadOptions::default();
    // The high bit reads as check does: past every problem it can.
    opts.checking = which & 0x80 != 0;
    let with = |header: &[u8]| [header, rest].concat();
    let _ = match which % 5 {
        0 => pocket::read(&with(b"title,url,time_added,tags,status\n"), &opts),
        1 => pocket::read(rest, &opts),
        2 => instapaper::read(&with(b"URL,Title,Selection,Folder,Timestamp\n"), &opts),
        3 => instapaper::read(rest, &opts),
        _ => pinboard::read(rest, &opts),
    };
});
