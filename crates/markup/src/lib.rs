//! The markup and file layer under markport's formats.
//!
//! What every reader and writer of a format needs and none should own, in
//! two parts. Text: HTML tokenizing, JSON pull parsing, charset
//! detection, character references, escaping, XML's character classes and
//! element writing, and [`decimal`], numbers written into output text.
//! Files: [`output`], the one (atomic) writer of every file markport
//! replaces; [`private`], the owner-only temporary directories that hold
//! a reader's copy of a user's data; and [`archive`], the bounded reader of
//! the ZIP archives some exports come as; and [`tree`], a directory of files
//! written whole (staged beside it, swapped in, never over files it did not
//! write). The file part is here rather than
//! in a crate of its own because it is small and every format crate already
//! depends on this one; a program that wants only it pays for the HTML
//! tokenizer's dependencies. The format crates sit on
//! this one floor above it, as pandoc keeps `Text.Pandoc.XML` apart from its
//! readers.
//!
//! ```
//! use markport_markup::{charset, entities};
//!
//! let page = "<meta charset=windows-1252><a href=x>caf\u{e9}</a>";
//! let bytes = encoding_rs::WINDOWS_1252.encode(page).0;
//! let decoded = charset::decode(&bytes, None).unwrap();
//! assert_eq!(decoded.encoding, encoding_rs::WINDOWS_1252);
//! assert!(decoded.text.contains("café"));
//! assert_eq!(entities::decode("R&amp;D &eacute;", entities::Context::Text), "R&D é");
//! ```
#![warn(missing_docs)]

pub mod archive;
pub mod charset;
pub mod decimal;
pub mod entities;
pub mod html;
pub mod json;
pub mod output;
pub mod private;
mod replace;
pub mod sniff;
pub mod tree;
pub mod walk;
pub mod xml;
