//! # markport-safari
//!
//! Safari's bookmark store, `~/Library/Safari/Bookmarks.plist`, read only,
//! in both of its encodings: the binary plist Safari writes and the XML
//! form `plutil -convert xml1` makes of it.
//!
//! * The top dictionary's `Children` are the roots: `BookmarksBar` is the
//!   toolbar, `BookmarksMenu` the menu and `com.apple.ReadingList` the
//!   Reading List (each a folder with its role and Safari's title).
//! * A `WebBookmarkTypeLeaf` is a bookmark: `URLString` the link,
//!   `URIDictionary.title` the title, `WebBookmarkUUID` the guid; in the
//!   Reading List `ReadingList.DateAdded` is when it was added,
//!   `ReadingList.DateLastViewed` when it was visited and
//!   `ReadingList.PreviewText` its description. A `WebBookmarkTypeList` is
//!   a folder. A `WebBookmarkTypeProxy` (History) is no bookmark: skipped
//!   with a note.
//! * Every other value is kept in the node's `extra`: a scalar under its
//!   key (`imageURL`), a dictionary's members under `Key.member`
//!   (`Sync.ServerID`, `ReadingListNonSync.DateLastFetched`), anything
//!   deeper whole as its JSON text; dates in W3C form, data in base64. The
//!   top dictionary's own keys (`WebBookmarkFileVersion`) are the header's
//!   `extra`.
//! * Dates are instants to the nanosecond, from binary plists' seconds
//!   since 2001-01-01 and from XML's `<date>` with or without a fraction.
//! * A value of another type than Safari writes (an integer or data as
//!   `URLString`) is read as its text, with a warning saying what it was;
//!   a key a dictionary gives twice keeps its last value, with a warning
//!   naming the key and the node.
//!
//! * Safari's newer export, a ZIP with `Bookmarks.html` in Netscape form,
//!   reads through the Netscape reader; its `com.apple.ReadingList` folder
//!   is the Reading List. The archive is read in memory within limits
//!   (`markport_files::archive`).
//!
//! The plist is read as a stream of events with an explicit stack: a file
//! nested 100,000 deep reads, a binary plist whose container contains
//! itself is refused with its byte offset, and one whose shared containers
//! would expand beyond its size is refused too (see `events`). What each
//! reference materialises is charged to the read's memory budget
//! (`ReadOptions::memory_budget`), so one large string shared by many
//! leaves is refused past it rather than copied into gigabytes.
//!
//! ```
//! use markport_model::{ReadOptions, Role};
//!
//! let plist = br#"<?xml version="1.0" encoding="UTF-8"?>
//! <plist version="1.0"><dict>
//!   <key>Children</key><array>
//!     <dict><key>Title</key><string>BookmarksBar</string>
//!       <key>WebBookmarkType</key><string>WebBookmarkTypeList</string>
//!       <key>Children</key><array>
//!         <dict><key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string>
//!           <key>URLString</key><string>https://www.rust-lang.org/</string>
//!           <key>URIDictionary</key><dict><key>title</key><string>Rust</string></dict>
//!         </dict>
//!       </array>
//!     </dict>
//!   </array>
//!   <key>WebBookmarkType</key><string>WebBookmarkTypeList</string>
//! </dict></plist>"#;
//! assert!(markport_safari::detect(plist).is_some());
//! let doc = markport_safari::read(plist, &ReadOptions::default()).unwrap().document;
//! let bar = doc.children(None)[0];
//! assert_eq!(doc.node(bar).as_folder().unwrap().role, Some(Role::Toolbar));
//! let rust = doc.node(doc.children(Some(bar))[0]).as_bookmark().unwrap();
//! assert_eq!(rust.title.as_deref(), Some("Rust"));
//! ```
#![warn(missing_docs)]

mod base64;
mod events;
mod export;
mod read;

use markport_model::{Error, Parsed, ReadOptions};
use memchr::memmem;

pub use events::BINARY_MAGIC;
pub use read::READING_LIST;

/// The key every node of Safari's store has, and nothing else's plist does.
const MARK: &[u8] = b"WebBookmarkType";

/// How sure it is that `input` is Safari's `Bookmarks.plist` (a binary
/// plist, `bplist00`, or an XML plist that names `WebBookmarkType`) or
/// Safari's exported ZIP (one that names `Bookmarks.html`).
pub fn detect(input: &[u8]) -> Option<u8> {
    if markport_files::archive::is_zip(input) {
        return export::detect(input);
    }
    let plist = input.starts_with(BINARY_MAGIC) || {
        let head = &input[..input.len().min(1024)];
        memmem::find(head, b"<plist").is_some()
    };
    (plist && memmem::find(input, MARK).is_some()).then_some(95)
}

/// Read a `Bookmarks.plist`, binary or XML, or Safari's exported ZIP. See
/// the crate documentation.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    if markport_files::archive::is_zip(input) {
        return export::read(input, opts);
    }
    read::read(input, opts)?.enforce(opts)
}

/// This format as the registry lists it (`markport::format("safari")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "safari",
    "Safari's Bookmarks.plist (binary or XML) or exported ZIP; the Reading List as a folder",
    &["plist"],
    detect,
    read,
)
.reads_zip();
