//! The exit codes, one meaning each across the subcommands.

/// Success.
pub const OK: u8 = 0;
/// `--fail-on-loss` and something was lost, `diff` found differences,
/// `check` problems, or `conformance` a `must` value changed or lost.
pub const DIFFERENT: u8 = 1;
/// Bad usage, or input that could not be read.
pub const ERROR: u8 = 2;
