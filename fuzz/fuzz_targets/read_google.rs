//! Google Bookmarks' HTML reader on any bytes: an error or a document,
//! never a panic. The page's opening is put in front so that the fuzzer
//! starts in the layout's folders of labels.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;
use markport_netscape::google;

const OPENING: &[u8] = b"<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p><DT><H3 ADD_DATE=\"1316018418437000\">label</H3>\n<DL><p>";

fuzz_target!(|data: &[u8]| {
    let opts = ReadOptions::default();
    let _ = google::read(&[OPENING, data].concat(), &opts);
    let _ = google::read(data, &opts);
});
