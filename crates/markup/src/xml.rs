//! XML 1.0 for the writers: which characters XML can carry, how text and
//! attribute values are escaped, and one small element writer.
//!
//! The XBEL writer and the desktop-bookmark writer both write through
//! [`XmlWriter`]; they differ only in the [`Escaping`] they choose.

mod chars;
mod escape;
mod writer;

pub use chars::{has_unwritable, is_name, is_xml_char};
pub use escape::{push_escaped, Escaping};
pub use writer::{Indent, XmlWriter};

/// Deeper nesting is written at this indentation: beyond it, indenting
/// would make the output grow with the square of the depth. Shared by
/// every indenting writer (XBEL, Netscape, Chromium).
pub const MAX_INDENT_DEPTH: usize = 40;
