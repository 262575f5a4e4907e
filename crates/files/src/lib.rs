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
pub mod output;
pub mod private;
pub mod tree;
