//! # markport-arc
//!
//! Arc's sidebar (`StorableSidebar.json`) for markport: read only.
//!
//! Arc keeps no bookmarks file: what a user pinned lives in its sidebar
//! store, `StorableSidebar.json`, in Arc's directory
//! (`~/Library/Application Support/Arc/` on macOS,
//! `%LOCALAPPDATA%\Packages\TheBrowserCompany.Arc_*\LocalCache\Local\Arc\`
//! on Windows). The file holds two copies of the sidebar: `sidebar`
//! (`containers[…]` with `spaces`, `items` and `topAppsContainerIDs`, each
//! an `id, object, id, object…` list) and, when account sync is on,
//! `sidebarSyncState` (the same items and spaces each wrapped in
//! `{"value": …}`, the spaces' order in `container.value.orderedSpaceIDs`).
//! The two differ in real files: `sidebar` is read, and
//! `sidebarSyncState` only when `sidebar` holds no spaces and no items; a
//! note says which was read.
//!
//! | Arc                                          | model                                   |
//! |----------------------------------------------|-----------------------------------------|
//! | the favorites (`topAppsContainerIDs`' items) | one top-level folder, `Favorites`, first |
//! | a space (`spaces`, in the sidebar's order)    | a top-level folder titled as the space (`Space N` when untitled) |
//! | the space's pinned container's items          | that folder's children, in `childrenIds` order |
//! | a `list` item                                 | a folder (empty ones kept)               |
//! | a `tab` item's `savedURL`                     | `bookmark.href`                          |
//! | the item's `title` (the user's rename), else `savedTitle` | `bookmark.title`            |
//! | `createdAt` (seconds since 2001-01-01)        | `bookmark.added`, `folder.added`         |
//!
//! The unpinned half of each space (Arc's "Today" tabs) is skipped, and
//! counted in a note; with [`ArcReadOptions::keep_today`] it is kept, in a
//! folder [`TODAY`] inside the space's, after its pinned items. An item whose parent's `childrenIds` forget it is
//! placed after the listed ones (by its `parentID`); an item is placed
//! once whatever the ids say, so a list that contains itself ends.
//!
//! ```
//! let json = br#"{"sidebar": {"containers": [{"global": {}}, {
//!   "spaces": ["S", {"id": "S", "title": "Work", "containerIDs": ["pinned", "P", "unpinned", "U"]}],
//!   "items": [
//!     "P", {"id": "P", "childrenIds": ["T"], "data": {"itemContainer": {}}},
//!     "T", {"id": "T", "parentID": "P", "title": "Docs", "childrenIds": [], "createdAt": 700000000,
//!           "data": {"tab": {"savedURL": "https://docs.rs/", "savedTitle": "Docs.rs"}}}
//!   ]}]}}"#;
//! assert!(markport_arc::detect(json).is_some());
//! let doc = markport_arc::read(json, &Default::default()).unwrap().document;
//! let space = doc.children(None)[0];
//! assert_eq!(doc.node(space).title(), Some("Work"));
//! let b = doc.node(doc.children(Some(space))[0]).as_bookmark().unwrap();
//! assert_eq!((b.href.as_str(), b.title.as_deref()), ("https://docs.rs/", Some("Docs")));
//! assert_eq!(b.added.as_ref().unwrap().instant().unwrap().to_w3c(), "2023-03-08T20:26:40Z");
//! ```
#![warn(missing_docs)]

mod read;

#[cfg(doc)]
use markport_model::ArcReadOptions;

use markport_model::{Error, Parsed, ReadOptions};

pub use read::{date, ARC_EPOCH, FAVORITES, TODAY};

/// How sure it is that `input` is Arc's `StorableSidebar.json`: a JSON
/// object with a `sidebar` or `sidebarSyncState` key and Arc's own keys
/// (`containers`, `childrenIds`, `spaceModels`) at either end of the file
/// (the first and last 64 KiB: Arc writes its keys in no fixed order).
///
/// ```
/// assert_eq!(markport_arc::detect(br#"{"sidebar": {"containers": []}}"#), Some(95));
/// assert_eq!(markport_arc::detect(br#"{"roots": {}}"#), None);
/// ```
pub fn detect(input: &[u8]) -> Option<u8> {
    use markport_markup::sniff::{either_end, first_byte, has_key};
    if first_byte(input)? != b'{' {
        return None;
    }
    let has = |k: &str| either_end(input, |w| has_key(w, k));
    let top = has("sidebar") || has("sidebarSyncState");
    let arc = has("containers") || has("childrenIds") || has("spaceModels");
    (top && arc).then_some(95)
}

/// Read Arc's `StorableSidebar.json`. See the crate documentation.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    read::read(input, opts)?.enforce(opts)
}

/// This format as the registry lists it (`markport::format("arc")`): its
/// name, description, extensions, detector and reader, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "arc",
    "Arc's sidebar (StorableSidebar.json): spaces, pinned tabs and favorites",
    &[],
    detect,
    read,
);
