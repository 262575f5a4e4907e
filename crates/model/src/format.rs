//! A format's declaration: what a format crate says of itself once — its
//! name, description, extensions, detector, readers, writer and what the
//! writer carries — so that the facade's registry lists it without
//! repeating a field of it.

use std::io::Write;
use std::path::Path;

use crate::rule::Rule;
use crate::{Document, Error, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions};

/// A reader: bytes in, document and diagnostics out.
pub type ReadFn = fn(&[u8], &ReadOptions) -> Result<Parsed, Error>;
/// A reader of a file by its path, for a format whose file has companions
/// the bytes cannot carry (places.sqlite's `-wal`) or that is a directory.
pub type PathReadFn = fn(&Path, &ReadOptions) -> Result<Parsed, Error>;
/// A writer: document in, bytes out, and what could not be carried.
pub type WriteFn = fn(&Document, &WriteOptions, &mut dyn Write) -> Result<LossReport, Error>;

/// One format as its crate declares it (`markport_xbel::FORMAT`); the
/// registry of the `markport` library lists these.
///
/// ```
/// use markport_model::{FormatDef, Parsed, Document};
///
/// fn detect(bytes: &[u8]) -> Option<u8> { bytes.starts_with(b"LINKS\n").then_some(90) }
/// fn read(_: &[u8], _: &markport_model::ReadOptions) -> Result<Parsed, markport_model::Error> {
///     Ok(Parsed::new(Document::new(), Vec::new()))
/// }
/// const LINKS: FormatDef = FormatDef::reader("links", "a list of links", &["links"], detect, read);
/// assert_eq!((LINKS.name, LINKS.write.is_none()), ("links", true));
/// ```
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct FormatDef {
    /// The name used by `--from` and `--to`.
    pub name: &'static str,
    /// A one-line description.
    pub description: &'static str,
    /// File extensions (without the dot) that suggest this format.
    pub extensions: &'static [&'static str],
    /// How sure (0..=100) the format is that the bytes are its own.
    pub detect: fn(&[u8]) -> Option<u8>,
    /// Whether its reader takes a ZIP archive and reads its entries (the
    /// exports of Pocket, Omnivore, Safari): a ZIP is offered to these
    /// formats only, so that its entries decide what it is. An entry stored
    /// without compression lies in the archive as plain text, which a text
    /// format would otherwise take for its own.
    pub reads_zip: bool,
    /// The bytes reader.
    pub read: ReadFn,
    /// The path reader, used instead of `read` when the input is a regular
    /// file or a directory: `None` for a format whose bytes are the whole story.
    pub path_reader: Option<PathReadFn>,
    /// What an output file's extension asks of the write options
    /// (Firefox's `.jsonlz4` asks for its compressed form).
    pub write_options_for_extension: fn(&str, &mut WriteOptions),
    /// Whether what the writer makes with these options is binary.
    pub binary_output: fn(&WriteOptions) -> bool,
    /// The writer; `None` for a format markport only reads.
    pub write: Option<WriteFn>,
    /// How well the writer carries each field (the loss matrix).
    pub support: fn(Field) -> Support,
    /// The rules of `markport check` this format's reader tags its
    /// diagnostics with, when asked ([`ReadOptions::checking`]).
    pub rules: &'static [Rule],
}

fn no_write_options(_: &str, _: &mut WriteOptions) {}

fn text_output(_: &WriteOptions) -> bool {
    false
}

fn read_only(_: Field) -> Support {
    Support::None
}

impl FormatDef {
    /// A format markport reads and does not write, whose output options
    /// and extensions ask for nothing.
    pub const fn reader(
        name: &'static str,
        description: &'static str,
        extensions: &'static [&'static str],
        detect: fn(&[u8]) -> Option<u8>,
        read: ReadFn,
    ) -> FormatDef {
        FormatDef {
            name,
            description,
            extensions,
            detect,
            reads_zip: false,
            read,
            path_reader: None,
            write_options_for_extension: no_write_options,
            binary_output: text_output,
            write: None,
            support: read_only,
            rules: &[],
        }
    }

    /// With a writer, and what it carries.
    pub const fn writes(mut self, write: WriteFn, support: fn(Field) -> Support) -> FormatDef {
        self.write = Some(write);
        self.support = support;
        self
    }

    /// Reading ZIP archives: a ZIP input is offered to this format.
    pub const fn reads_zip(mut self) -> FormatDef {
        self.reads_zip = true;
        self
    }

    /// With a path reader (a file with companions, a directory).
    pub const fn reads_paths(mut self, path_reader: PathReadFn) -> FormatDef {
        self.path_reader = Some(path_reader);
        self
    }

    /// With a rule for what an output's extension asks of the options.
    pub const fn options_for_extension(mut self, rule: fn(&str, &mut WriteOptions)) -> FormatDef {
        self.write_options_for_extension = rule;
        self
    }

    /// With the rules of `markport check` its reader finds.
    pub const fn with_rules(mut self, rules: &'static [Rule]) -> FormatDef {
        self.rules = rules;
        self
    }

    /// With a rule for when its output is binary.
    pub const fn binary_when(mut self, rule: fn(&WriteOptions) -> bool) -> FormatDef {
        self.binary_output = rule;
        self
    }
}

impl std::fmt::Debug for FormatDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FormatDef")
            .field("name", &self.name)
            .finish()
    }
}
