//! # markport-desktop
//!
//! The freedesktop desktop-bookmark format (spec 0.8.5): the XBEL dialect of
//! `recently-used.xbel`, `recent-applications.xbel`, `shortcuts.xbel` and
//! applications' own bookmark files, with the spec's semantics, interoperable
//! with GLib's GBookmarkFile.
//!
//! * Reading takes every file GLib accepts, with GLib's values (mime types,
//!   groups, applications with exec, count and date, icon, private), and
//!   follows the spec where it is more lenient than GLib: folders, separators
//!   and aliases are ignored (their bookmarks kept) with a note.
//! * Writing is GLib's exact layout (a file GLib wrote comes back
//!   byte-identical) under the spec's rules, each change reported: one flat
//!   list, one item per URI (duplicates merged by the registration rules),
//!   local paths as file: URIs, a MIME type and a registering application for
//!   every item (`--app-name`, `--app-exec`).
//! * [`spec`]: registering, visibility of private bookmarks, exec quoting and
//!   expansion as GLib does them, file: URIs, the standard locations, and
//!   updates under an advisory lock with atomic replace that never lose what
//!   a file holds; cleaning a store in place ([`spec::remove_from_file`],
//!   [`spec::prune_file`]) under the same lock.
//!
//! ```
//! use markport_model::{ReadOptions, Timestamp, WriteOptions};
//! use markport_desktop::spec::{exec_command_line, register, Registration};
//!
//! let mut doc = markport_model::Document::new();
//! let now = Timestamp::from_unix_seconds(1_700_000_000).unwrap();
//! let r = Registration { uri: "/home/me/plan.odt".into(), app: "writer".into(), ..Default::default() };
//! register(&mut doc, &r, now).unwrap();
//! let mut out = Vec::new();
//! let loss = markport_desktop::write(&doc, &WriteOptions::default(), &mut out).unwrap();
//! assert!(loss.is_empty());
//! let text = String::from_utf8(out.clone()).unwrap();
//! assert!(text.contains(r#"<bookmark href="file:///home/me/plan.odt" added="2023-11-14T22:13:20Z""#));
//! assert!(text.contains(r#"<mime:mime-type type="application/vnd.oasis.opendocument.text"/>"#));
//! let back = markport_desktop::read(&out, &ReadOptions::default()).unwrap().document;
//! let b = back.node(back.children(None)[0]).as_bookmark().unwrap();
//! // Stored quoted, as GLib stores it; given back unquoted and expanded, as GLib gives it.
//! assert_eq!(b.details().desktop().applications[0].exec, "'writer %u'");
//! assert_eq!(exec_command_line(&b.details().desktop().applications[0].exec, &b.href).unwrap(), b"writer file:///home/me/plan.odt");
//! ```
#![warn(missing_docs)]

mod clean;
mod mime;
mod read;
mod shell;
/// POSIX shell quoting as GLib's `g_shell_quote` does it: the whole value
/// in single quotes, each `'` written `'\''`.
pub use shell::shell_quote;
pub mod spec;
mod uri;
mod write;

use markport_model::{
    Document, Error, Field, LossReport, Parsed, ReadOptions, Support, WriteOptions,
};

pub use mime::mime_for;

/// The rules of `markport check` this format's reader finds under
/// [`ReadOptions::checking`]: a desktop bookmark file breaks XBEL's
/// ([`markport_xbel::RULES`]) or these, found in the one pass of the XBEL
/// reader, which knows the freedesktop block.
pub const RULES: &[markport_model::rule::Rule] = markport_xbel::DESKTOP_RULES;
pub use uri::{file_uri_to_path, path_to_file_uri};
pub use write::glib_date;

/// How sure it is that `input` is a desktop-bookmark file: XBEL with
/// registered applications in the desktop-bookmark namespace, no folders
/// and no markport block (KDE's and markport's own XBEL files, which use the
/// namespace too, read better as plain XBEL).
pub fn detect(input: &[u8]) -> Option<u8> {
    let head = String::from_utf8_lossy(&input[..input.len().min(1 << 16)]);
    let desktop = head.contains("<xbel")
        && head.contains(markport_xbel::BOOKMARK_NS)
        && head.contains("applications>");
    let structured = head.contains("<folder") || head.contains("<separator");
    (desktop && !structured && !head.contains(markport_xbel::MARKPORT_OWNER)).then_some(85)
}

/// Read a desktop-bookmark file. See the crate documentation.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    read::read(input, opts)?.enforce(opts)
}

/// Write a desktop-bookmark file in GLib's layout; returns what could not be
/// carried and what the spec's rules changed.
pub fn write(
    doc: &Document,
    opts: &WriteOptions,
    out: &mut dyn std::io::Write,
) -> Result<LossReport, Error> {
    write::write(doc, opts, out)
}

/// What a desktop-bookmark file carries.
pub fn support(field: Field) -> Support {
    use Field::*;
    match field {
        DocumentTitle | DocumentDesc | BookmarkTitle | BookmarkDesc | BookmarkGroups => {
            Support::Partial("no carriage returns, NUL, U+FFFE or U+FFFF (other controls go as `&#x1;`, as GLib writes them)")
        }
        Bookmark => Support::Partial("one item per URI: duplicates merged"),
        BookmarkHref => Support::Partial("local paths become file: URIs"),
        BookmarkAdded | BookmarkModified | BookmarkVisited => Support::Partial("microseconds"),
        BookmarkAddedForm | BookmarkModifiedForm | BookmarkVisitedForm => {
            Support::Partial("written to the second, or to the microsecond when there is a fraction")
        }
        BookmarkMimeType => {
            Support::Partial("always present: given from the file name when missing")
        }
        BookmarkApplications => {
            Support::Partial("always one at least; counts above 0; no deprecated timestamp")
        }
        BookmarkDesktopIcon => Support::Partial("href and type"),
        BookmarkPrivate => Support::Partial("private ones only"),
        _ => Support::None,
    }
}

/// This format as the registry lists it (`markport::format("desktop")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "desktop",
    "freedesktop desktop bookmarks (recently-used.xbel), GLib's layout",
    &[],
    detect,
    read,
)
.writes(write, support)
.with_rules(RULES);
