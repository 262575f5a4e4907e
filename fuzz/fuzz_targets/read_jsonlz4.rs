//! Any bytes after the mozLz40 magic: a size field and a block that may
//! lie. The reader refuses or reads, never panics or allocates past the cap.
#![no_main]

use libfuzzer_sys::fuzz_target;
use markport_model::ReadOptions;

fuzz_target!(|data: &[u8]| {
    let mut file = markport_firefox::lz4::MAGIC.to_vec();
    file.extend_from_slice(data);
    let _ = markport_firefox::read(&file, &ReadOptions::default());
    let mut checking = ReadOptions::default();
    checking.checking = true;
    let _ = markport_firefox::read(&file, &checking);
});
