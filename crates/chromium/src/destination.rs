//! What Chromium does to a `Bookmarks` file markport wrote, on load and on
//! its next save: the facts behind the report's `destination` list.
//!
//! Measured with the real Chromium (156, Debian): every corpus file and every
//! peer `Bookmarks` file, converted with `--to chromium`, loaded, made to save
//! (the test's driver creates one bookmark), and the saved file compared with
//! the written one key by key (`tests/tests/chromium_destination.rs`, which
//! also holds docs/formats/chromium.md's table to the measurement). Chromium
//! keeps only the keys it knows, gives its roots its own names and guids,
//! and canonicalises links.

/// A bookmark's `date_modified`: Chromium 156 keeps it for folders only.
pub const DROPS_MODIFIED: &str = "Chromium drops this on its next save";
/// A key Chromium does not know, on a node, under `roots` or at the top.
pub const DROPS_KEY: &str = "Chromium drops keys it does not know on its next save";
/// The names of `bookmark_bar`, `other` and `synced`.
pub const RENAMES_ROOTS: &str = "Chromium renames the top-level folders to its own titles";
/// The guids of `bookmark_bar`, `other` and `synced`.
pub const ROOT_GUIDS: &str = "Chromium gives the top-level folders its own guids";
/// Vivaldi's `trash`, Opera's `custom_root`: Chromium knows three roots.
pub const DROPS_ROOT: &str =
    "Chromium drops roots other than its three, with everything in them, on its next save";
/// A tab or line break in a title.
pub const TITLE_SPACES: &str = "Chromium turns a tab or line break in a title into a space";
/// A link not in its canonical form.
pub const CANONICAL_URL: &str = "Chromium rewrites a link to its canonical form on load";
/// A link that is not an absolute URL (`?aBcDeF`, a Shaarli note, ``).
pub const NOT_ABSOLUTE: &str =
    "Chromium drops a bookmark whose link is not an absolute URL on load";
/// A guid with capital letters: Chromium reads guids without regard to
/// case and saves them in lowercase (`base::Uuid::AsLowercaseString`).
pub const LOWERCASE_GUID: &str = "Chromium saves a guid in lowercase on its next save";
/// A date that is no number (a source's unreadable date kept as written):
/// Chromium gives the node the time it loads the file.
pub const UNREADABLE_DATE: &str =
    "Chromium replaces a date that is not a number with the time it loads the file";
/// A file whose unset dates were written another way than Chromium's.
pub const UNSET_DATES: &str = "Chromium writes unset dates its own way on its next save";

/// The keys Chromium keeps on a url node.
const URL_KEYS: [&str; 8] = [
    "date_added",
    "date_last_used",
    "guid",
    "id",
    "meta_info",
    "name",
    "type",
    "url",
];
/// The keys Chromium keeps on a folder.
const FOLDER_KEYS: [&str; 9] = [
    "children",
    "date_added",
    "date_last_used",
    "date_modified",
    "guid",
    "id",
    "meta_info",
    "name",
    "type",
];

/// Whether Chromium keeps the key `key` of a url node (`folder: false`) or
/// a folder on its next save.
pub fn keeps_node_key(key: &str, folder: bool) -> bool {
    if folder {
        FOLDER_KEYS.contains(&key)
    } else {
        URL_KEYS.contains(&key)
    }
}

/// Whether Chromium keeps the top-level key `key` (`roots.NAME` for a member
/// of `roots` that is no root) with the value `value` on its next save.
pub fn keeps_top_key(key: &str, value: &str) -> bool {
    key == "version" && value == "1"
}

/// Whether a title comes back as written: Chromium turns a tab or a line
/// break into a space.
pub fn keeps_title(title: &str) -> bool {
    !title.contains(['\t', '\n', '\r'])
}

/// What Chromium does to a link on load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// Kept as written.
    Kept,
    /// Rewritten to its canonical form (GURL: a lower-case scheme and host,
    /// `/` for the empty path of a web link, spaces and non-ASCII
    /// percent-encoded, ...).
    Rewritten,
    /// Not an absolute URL: the bookmark is dropped.
    Dropped,
}

/// What Chromium does to `href` on load, decided on the link exactly as it
/// is written, the way the WHATWG URL parser reads it (Chromium's GURL
/// agrees with it on every link of the corpus and the peer files).
pub fn link(href: &str) -> Link {
    match url::Url::parse(href) {
        Err(_) => Link::Dropped,
        Ok(u) if u.as_str() == href => Link::Kept,
        Ok(_) => Link::Rewritten,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_as_chromium_measured_them() {
        assert_eq!(link("https://www.rust-lang.org/"), Link::Kept);
        assert_eq!(link("javascript:void(0)"), Link::Kept);
        assert_eq!(link("https://shaarli.readthedocs.io"), Link::Rewritten);
        assert_eq!(
            link("https://example.org/ünicode path?ä=ö"),
            Link::Rewritten
        );
        assert_eq!(link("?aBcDeF"), Link::Dropped);
        assert_eq!(link(""), Link::Dropped);
    }

    #[test]
    fn only_chromiums_own_keys_are_kept() {
        assert!(keeps_node_key("meta_info", false));
        assert!(!keeps_node_key("date_modified", false));
        assert!(keeps_node_key("date_modified", true));
        assert!(!keeps_node_key("sync_transaction_version", true));
        assert!(!keeps_top_key("sync_metadata", "CgQIARAB"));
        assert!(keeps_top_key("version", "1"));
        assert!(!keeps_title("Tab\tand"));
    }
}
