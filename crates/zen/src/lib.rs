//! # markport-zen
//!
//! The Zen browser's pinned tabs, essentials and workspaces for markport:
//! read only.
//!
//! Zen keeps what its users think of as their bookmarks (the essentials,
//! each workspace's pinned tabs) in its session store, not in its
//! bookmarks: `zen-sessions.jsonlz4` in the profile in newer versions
//! (top-level `spaces`, `folders` and `tabs`), `sessionstore.jsonlz4` in
//! older ones (`windows[…]` each with its `tabs` and `spaces`). Both are
//! Mozilla's LZ4 container (`mozLz40\0`, read by
//! [`markport_firefox::lz4`]) around JSON; plain JSON is read too.
//!
//! | Zen                                                   | model                          |
//! |-------------------------------------------------------|--------------------------------|
//! | tabs with `zenEssential`                              | one top-level folder, `Essentials`, first |
//! | a workspace (`spaces[…]`: `uuid`, `name`), in order   | a top-level folder named after it (`Workspace N` when unnamed) |
//! | a pinned tab whose `zenWorkspace` is that `uuid`       | a bookmark in that folder, in tab order |
//! | one of Zen's folders (`folders[…]`: `id`, `name`, `parentId`) | a folder of that name inside its parent, inside the workspace's; empty ones too |
//! | a pinned tab in one of Zen's folders (`groupId`)       | a bookmark in that folder |
//! | the entry the tab was pinned on (`_zenPinnedInitialState.entry`, older `zenPinnedEntry`), else the current entry | `bookmark.href` |
//! | `zenStaticLabel` (the user's label), else that entry's title | `bookmark.title`        |
//!
//! Each container is in the order Zen's restore gives it: a top-level
//! folder where its first tab (its placeholder) is in tab order, a nested
//! one right after its previous sibling (`prevSiblingInfo`). Flags are read
//! as Zen's code reads them (`"zenEssential": "true"` in older sessions).
//!
//! Ordinary tabs are skipped and counted in a note; a pinned tab whose
//! workspace is not in the file goes into a folder `Pinned`; a pinned tab
//! Zen copied into several windows (one `zenSyncId`) is read once.
//!
//! ```
//! let json = br#"{"spaces": [{"uuid": "{w1}", "name": "Work"}],
//!   "tabs": [
//!     {"pinned": true, "zenWorkspace": "{w1}", "zenStaticLabel": "Mail",
//!      "entries": [{"url": "https://mail.example/inbox", "title": "Inbox"},
//!                  {"url": "https://mail.example/msg/7", "title": "A message"}], "index": 2,
//!      "_zenPinnedInitialState": {"entry": {"url": "https://mail.example/inbox", "title": "Inbox"}}},
//!     {"pinned": false, "zenWorkspace": "{w1}", "entries": [{"url": "https://news.example/"}], "index": 1}
//!   ]}"#;
//! assert!(markport_zen::detect(json).is_some());
//! let parsed = markport_zen::read(json, &Default::default()).unwrap();
//! let doc = &parsed.document;
//! let work = doc.children(None)[0];
//! assert_eq!(doc.node(work).title(), Some("Work"));
//! let b = doc.node(doc.children(Some(work))[0]).as_bookmark().unwrap();
//! assert_eq!((b.href.as_str(), b.title.as_deref()), ("https://mail.example/inbox", Some("Mail")));
//! assert!(parsed.diagnostics.iter().any(|d| d.message.contains("1 ordinary (unpinned) tab was skipped")));
//! ```
#![warn(missing_docs)]

mod read;

use markport_firefox::lz4;
use markport_model::{Budget, Error, Parsed, ReadOptions};

pub use read::{ESSENTIALS, OTHER_PINNED};

/// Keys only Zen writes into a session.
const ZEN_KEYS: [&str; 4] = [
    "zenWorkspace",
    "zenEssential",
    "zenSyncId",
    "zenStaticLabel",
];

/// How sure it is that `input` is a Zen session: 99 for a Mozilla LZ4 file
/// whose JSON holds one of Zen's own tab keys (`zenWorkspace`,
/// `zenEssential`, …) at either end (the first and last 64 KiB), so that
/// it wins over Firefox's claim on every `mozLz40` file; 90 for the same
/// JSON uncompressed. The compressed file is decompressed to look: LZ4
/// decodes at gigabytes a second.
///
/// ```
/// assert_eq!(markport_zen::detect(br#"{"tabs": [{"zenWorkspace": "{w}"}]}"#), Some(90));
/// assert_eq!(markport_zen::detect(br#"{"windows": [{"tabs": []}]}"#), None);
/// ```
pub fn detect(input: &[u8]) -> Option<u8> {
    use markport_markup::sniff::{either_end, first_byte, has_key};
    let zen = |text: &[u8]| {
        first_byte(text) == Some(b'{')
            && ZEN_KEYS.iter().any(|k| either_end(text, |w| has_key(w, k)))
    };
    if input.starts_with(lz4::MAGIC) {
        return lz4::decompress(input)
            .ok()
            .filter(|text| zen(text))
            .map(|_| 99);
    }
    zen(input).then_some(90)
}

/// Read a Zen session (`zen-sessions.jsonlz4`, `sessionstore.jsonlz4`,
/// or their JSON). See the crate documentation.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let parsed = if input.starts_with(lz4::MAGIC) {
        let text = lz4::decompress(input)?;
        let mut budget = Budget::new(opts, text.len());
        read::read(&text, " (decompressed)", &mut budget)?
    } else {
        read::read(input, "", &mut Budget::new(opts, input.len()))?
    };
    parsed.enforce(opts)
}

/// This format as the registry lists it (`markport::format("zen")`): its
/// name, description, extensions, detector and reader, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "zen",
    "Zen browser sessions (zen-sessions.jsonlz4, sessionstore.jsonlz4): essentials and workspaces' pinned tabs",
    &[],
    detect,
    read,
);
