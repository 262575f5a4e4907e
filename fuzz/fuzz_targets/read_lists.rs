//! The CSV and URL-list readers on any bytes: an error or a document,
//! never a panic; and whatever they read, both writers write (each reads
//! its own output back, so a row or line it cannot read back fails here).
//! The first byte picks the reader; a header is put in front of the rest
//! for the CSV reader so the fuzzer reaches the rows. Seed it from the
//! corpus: `cargo fuzz run read_lists fuzz/corpus/read_lists corpus/csv corpus/urls`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_lists::{csv, urls};
use markport_model::{ReadOptions, WriteOptions};

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let opts = ReadOptions::default();
    let with = |header: &[u8]| [header, rest].concat();
    let read = match which % 4 {
        0 => csv::read(&with(b"url,title,tags,folder,created,private,toread,x\n"), &opts),
        1 => csv::read(&with(b"Link;Name;Labels;Collection;Added;Shared\n"), &opts),
        2 => csv::read(rest, &opts),
        _ => urls::read(rest, &opts),
    };
    if let Ok(read) = read {
        let w = WriteOptions::default();
        csv::write(&read.document, &w, &mut Vec::new()).expect("csv writes what it read");
        urls::write(&read.document, &w, &mut Vec::new()).expect("urls writes what it read");
    }
});
