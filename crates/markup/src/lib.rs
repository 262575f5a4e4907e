//! The markup layer under markport's formats.
//!
//! What every reader and writer of a format needs to read and write text and
//! none should own: HTML tokenizing and HTML5's element walk, JSON pull
//! parsing, charset detection, character references, escaping, XML's
//! character classes and element writing, [`decimal`], numbers written
//! into output text, and [`shell`], the one shell quoting of command lines. The format crates sit on this one floor above it, as
//! pandoc keeps `Text.Pandoc.XML` apart from its readers. What markport does
//! with files (the atomic output writer, private copies, archives, trees
//! written whole) is `markport-files`, beside it.
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

pub mod charset;
pub mod decimal;
pub mod entities;
pub mod html;
pub mod json;
mod replace;
pub mod shell;
pub mod sniff;
pub mod walk;
pub mod xml;
