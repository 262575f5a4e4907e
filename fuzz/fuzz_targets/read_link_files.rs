//! Every link-file parser on any bytes (an Internet Shortcut, a desktop
//! entry, a web location in XML or binary), and the sniffing reader: an
//! error or a bookmark, never a panic. The bytes go to all of them, so the
//! files of corpus/favorites/ seed it as they are:
//! `cargo fuzz run read_link_files fuzz/corpus/read_link_files corpus/favorites/mixed`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_favorites::link::{read, Kind};
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    for kind in [Kind::Url, Kind::Desktop, Kind::Webloc] {
        let _ = read(kind, data, None);
    }
    let _ = markport_favorites::read(data, &ReadOptions::default());
});
