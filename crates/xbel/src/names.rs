//! The owners and namespaces the interpreted `<metadata>` blocks are known by.

/// The metadata owner of the freedesktop desktop-bookmark fields.
pub const FREEDESKTOP_OWNER: &str = "http://freedesktop.org";
/// The namespace of `bookmark:` elements.
pub const BOOKMARK_NS: &str = "http://www.freedesktop.org/standards/desktop-bookmarks";
/// The namespace of `mime:` elements.
pub const MIME_NS: &str = "http://www.freedesktop.org/standards/shared-mime-info";
/// The metadata owner (and namespace) of markport's own block.
pub const MARKPORT_OWNER: &str = "https://markport.dev/ns/1";
