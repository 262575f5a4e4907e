//! Peer files with no bookmark structure at all are refused by the Netscape
//! reader with `WrongFormat` and a position, never read as an empty collection.

use markport::{ErrorKind, ReadOptions};
use markport_tests::{shared, NOT_BOOKMARK_FILES};

#[test]
fn peer_files_without_bookmark_structure_are_refused() {
    let Some(shared) = shared() else { return };
    let netscape = markport::format("netscape").unwrap();
    for name in NOT_BOOKMARK_FILES {
        let bytes = std::fs::read(shared.join("corpus/peers").join(name)).unwrap();
        let err = markport::read_bytes(&bytes, netscape, &ReadOptions::default()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::WrongFormat, "{name}");
        assert!(err.location.is_some(), "{name}");
    }
}
