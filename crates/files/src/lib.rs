//! The file layer under markport's formats and commands.
//!
//! What markport does with files, kept apart from the text layer
//! (`markport-markup`) so that each crate's name says what it holds:
//!
//! - [`output`]: the one writer of every file markport replaces — written
//!   beside it and renamed into place only when whole; a link followed; a
//!   device or FIFO written through, never renamed over;
//! - [`private`]: owner-only temporary directories for a reader's copy of a
//!   user's data (a live places.sqlite and its `-wal`), removed on every exit;
//! - [`archive`]: the bounded reader of export ZIPs (entries, sizes and
//!   inflation ratio limited; names checked);
//! - [`tree`]: a directory of files written whole (favorites, a published
//!   site): staged beside it, swapped in, never over files it did not write.
//!
//! Every temporary these make is removed by [`remove_temporaries`] (a
//! program's signal handler calls it), and what a run killed outright left
//! is removed by the next run that writes in the same place (see
//! `leftovers.rs`: markport's names, this user's, their maker gone).
//!
//! ```
//! use std::io::Write;
//! use markport_files::output::OutputFile;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("bookmarks.html");
//! let mut out = OutputFile::create(&path).unwrap();
//! out.write_all(b"<!DOCTYPE NETSCAPE-Bookmark-file-1>").unwrap();
//! assert!(!path.exists(), "nothing is visible before the commit");
//! out.commit().unwrap();
//! assert!(std::fs::read(&path).unwrap().starts_with(b"<!DOCTYPE"));
//! ```
#![warn(missing_docs)]

pub mod archive;
mod leftovers;
pub mod output;
pub mod private;
pub mod tree;

/// Remove every temporary this process has made and not finished with:
/// unfinished outputs' temporary files ([`output::remove_unfinished`]),
/// private directories ([`private::remove_all`]) and staged or swapped-out
/// trees ([`tree::remove_unfinished`]); none is made after. Meant for a
/// signal handler running in a normal thread just before the process exits
/// (it takes locks, so not from inside a raw signal handler).
pub fn remove_temporaries() {
    tree::remove_unfinished();
    private::remove_all();
    output::remove_unfinished();
}

/// How many temporaries of this process exist now (all kinds together).
static LIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Count `n` more temporaries (`made`) or fewer.
fn count(made: bool, n: usize) {
    use std::sync::atomic::Ordering;
    if made {
        LIVE.fetch_add(n, Ordering::SeqCst);
    } else {
        LIVE.fetch_sub(n, Ordering::SeqCst);
    }
}

/// Whether this process has any temporary that [`remove_temporaries`]
/// would remove. One atomic load: safe to call from a raw signal handler,
/// which may then let a signal end the process at once when there is
/// nothing to clean (a closed pipe, quietly, as `cat` ends).
pub fn temporaries_exist() -> bool {
    LIVE.load(std::sync::atomic::Ordering::SeqCst) > 0
}
