//! The managers' readers (Linkwarden, Karakeep, wallabag, Omnivore's JSON and
//! its export ZIP, through markport-files' bounded archive reader) on any
//! bytes: detection and reading give an answer, an error or a document,
//! never a panic. The first byte picks the reader. Seed it from the corpus:
//! `cargo fuzz run read_managers fuzz/corpus/read_managers corpus/linkwarden corpus/karakeep
//! corpus/wallabag corpus/omnivore` (prefix a byte to pick;
//! a seed ZIP's own first byte, `P`, picks the ZIP, and is put back).
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;
use markport_services::{karakeep, linkwarden, omnivore, wallabag};

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let opts = ReadOptions::default();
    // Detection first, as markport does; the reader then, whatever the
    // detection said (`--from` skips it).
    let _ = match which {
        // A seed ZIP loses its `P` to the selector: put it back.
        b'P' => {
            let zip = [&b"P"[..], rest].concat();
            (omnivore::detect(&zip), omnivore::read(&zip, &opts))
        }
        _ => match which % 4 {
            0 => (linkwarden::detect(rest), linkwarden::read(rest, &opts)),
            1 => (karakeep::detect(rest), karakeep::read(rest, &opts)),
            2 => (wallabag::detect(rest), wallabag::read(rest, &opts)),
            _ => (omnivore::detect(rest), omnivore::read(rest, &opts)),
        },
    };
});
