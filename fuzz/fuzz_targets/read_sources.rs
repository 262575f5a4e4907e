//! The readers of the current exports on any bytes: Pocket's export ZIP
//! (through markport-files' bounded archive reader), Pocket's cursor
//! generation, Instapaper's CSV with `Tags`, Raindrop's CSV. An error or a
//! document, never a panic. The first byte picks the reader; CSV headers
//! are put in front so the fuzzer reaches the rows. Seed it from the corpus:
//! `cargo fuzz run read_sources fuzz/corpus/read_sources corpus/pocket corpus/instapaper corpus/raindrop`
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;
use markport_services::{instapaper, pocket, raindrop};

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let opts = ReadOptions::default();
    let with = |header: &[u8]| [header, rest].concat();
    let _ = match which % 5 {
        // A seed ZIP loses its first byte to the selector: put it back.
        0 => pocket::read(&with(b"P"), &opts),
        1 => pocket::read(&with(b"title,url,time_added,cursor,tags,status\n"), &opts),
        2 => instapaper::read(&with(b"URL,Title,Selection,Folder,Timestamp,Tags\n"), &opts),
        3 => raindrop::read(
            &with(b"id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n"),
            &opts,
        ),
        _ => raindrop::read(rest, &opts),
    };
});
