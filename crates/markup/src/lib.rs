//! The markup layer under markport's formats.
//!
//! What every reader and writer of a markup format needs and none should own:
//! HTML tokenizing, charset detection, character references, escaping, and
//! XML's character classes and element writing; and [`output`], the one
//! writer of every file markport replaces. The format crates sit on
//! this one floor above it, as pandoc keeps `Text.Pandoc.XML` apart from its
//! readers.

pub mod output;
pub mod xml;
