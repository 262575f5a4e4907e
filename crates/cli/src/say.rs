//! Printing that never panics: `eprintln!` panics when standard error is
//! full or closed (`2>/dev/full`), and a message about a failure must not
//! turn into a crash.

use std::io::Write;

/// Write to standard error, ignoring a standard error that cannot be written.
pub(crate) fn err(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}
