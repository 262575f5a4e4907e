//! Helpers every CLI test file shares: the `markport` binary and the
//! project's own corpus.
// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The `markport` binary built for these tests.
pub fn markport() -> Command {
    Command::cargo_bin("markport").unwrap()
}

/// A file of the project's `corpus/` (`name` is relative to it).
pub fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(name)
}
