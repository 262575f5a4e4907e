//! Printing that never panics: `eprintln!` panics when standard error is
//! full or closed (`2>/dev/full`), and a message about a failure must not
//! turn into a crash.

use std::io::Write;
use std::sync::atomic::{AtomicI8, Ordering};

/// -1 with `--quiet`, 1 with `--verbose`, else 0.
static VERBOSITY: AtomicI8 = AtomicI8::new(0);

/// Set from `-q`/`-v` once, before any command runs.
pub(crate) fn set_verbosity(level: i8) {
    VERBOSITY.store(level, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub(crate) fn quiet() -> bool {
    VERBOSITY.load(Ordering::Relaxed) < 0
}

/// Whether `--verbose` was given.
pub(crate) fn verbose_on() -> bool {
    VERBOSITY.load(Ordering::Relaxed) > 0
}

/// Write to standard error, ignoring a standard error that cannot be written.
pub(crate) fn err(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// A message `--quiet` silences.
pub(crate) fn info(args: std::fmt::Arguments<'_>) {
    if !quiet() {
        err(args);
    }
}

/// A message only `--verbose` shows.
pub(crate) fn verbose(args: std::fmt::Arguments<'_>) {
    if VERBOSITY.load(Ordering::Relaxed) > 0 {
        err(args);
    }
}
