//! The nodes of a bookmark tree and the values they carry.
//!
//! Each field says in short where it comes from and goes to in the four
//! formats markport began with, in the order XBEL, desktop (freedesktop XBEL
//! dialect), Netscape HTML, xFolk, and links to its section of
//! `mapping.md` (the rustdoc of [`crate::mapping`]), which covers every
//! format, read side and write side. "markport block" means XBEL's
//! `<info><metadata owner="https://markport.dev/ns/1">` (see
//! `docs/formats/xbel.md`). JSON carries every field under its own name.

use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize};

use crate::field::{Field, Scope};
use crate::time::DateValue;

/// One node of the tree.
///
/// Sized for the common case: nearly every node of a real collection is a
/// bookmark, so a bookmark is stored inline and kept small (its rarely set
/// fields live behind one pointer, see [`BookmarkDetails`]); folders, a few
/// in a hundred, are boxed so that they do not make every node larger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Node {
    /// A link.
    ///
    /// In every format: [`bookmark`](crate::mapping#bookmark).
    Bookmark(Bookmark),
    /// A container; its children live in the [`Document`](crate::Document).
    ///
    /// In every format: [`folder`](crate::mapping#folder).
    Folder(Box<Folder>),
    /// A visual divider between siblings.
    ///
    /// In every format: [`separator`](crate::mapping#separator).
    Separator(Separator),
    /// A second appearance of a bookmark or folder elsewhere in the tree.
    ///
    /// In every format: [`alias`](crate::mapping#alias).
    Alias(Alias),
}

impl Node {
    /// The node's kind.
    pub fn kind(&self) -> NodeKind {
        match self {
            Node::Bookmark(_) => NodeKind::Bookmark,
            Node::Folder(_) => NodeKind::Folder,
            Node::Separator(_) => NodeKind::Separator,
            Node::Alias(_) => NodeKind::Alias,
        }
    }

    /// The bookmark, if this is one.
    pub fn as_bookmark(&self) -> Option<&Bookmark> {
        match self {
            Node::Bookmark(b) => Some(b),
            _ => None,
        }
    }

    /// The folder, if this is one.
    pub fn as_folder(&self) -> Option<&Folder> {
        match self {
            Node::Folder(f) => Some(f),
            _ => None,
        }
    }

    /// The node's id (XBEL `id`, Netscape `ID`), when it has one.
    pub fn id(&self) -> Option<&str> {
        match self {
            Node::Bookmark(b) => b.details().id.as_deref(),
            Node::Folder(f) => f.id.as_deref(),
            _ => None,
        }
    }

    /// The node's title, when it has one.
    pub fn title(&self) -> Option<&str> {
        match self {
            Node::Bookmark(b) => b.title.as_deref(),
            Node::Folder(f) => f.title.as_deref(),
            Node::Separator(s) => s.title.as_deref(),
            Node::Alias(_) => None,
        }
    }
}

impl Node {
    /// The bookmark, if this is one, to change it.
    pub fn as_bookmark_mut(&mut self) -> Option<&mut Bookmark> {
        match self {
            Node::Bookmark(b) => Some(b),
            _ => None,
        }
    }

    /// The folder, if this is one, to change it.
    pub fn as_folder_mut(&mut self) -> Option<&mut Folder> {
        match self {
            Node::Folder(f) => Some(f),
            _ => None,
        }
    }
}

/// The kinds of [`Node`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum NodeKind {
    /// [`Bookmark`]
    Bookmark,
    /// [`Folder`]
    Folder,
    /// [`Separator`]
    Separator,
    /// [`Alias`]
    Alias,
}

macro_rules! from_node {
    ($($t:ident),*) => {$(
        impl From<$t> for Node {
            fn from(v: $t) -> Node { Node::$t(v) }
        }
    )*};
}
from_node!(Bookmark, Separator, Alias);

impl From<Folder> for Node {
    fn from(v: Folder) -> Node {
        Node::Folder(Box::new(v))
    }
}

/// A link with everything known about it.
///
/// The fields nearly every bookmark has are here. The others are in
/// [`BookmarkDetails`], behind [`Bookmark::details`] and
/// [`Bookmark::details_mut`], and cost one pointer until one of them is set:
/// that keeps a 100,000-bookmark collection a few times the size of its file.
/// In JSON both are one flat object.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Bookmark {
    /// The link, exactly as written in the source (never normalised).
    /// XBEL `bookmark/@href`; desktop `bookmark/@href`; Netscape `A/@HREF`;
    /// xFolk the first `.taggedlink` `href`, resolved against the page base.
    ///
    /// In every format: [`bookmark.href`](crate::mapping#bookmarkhref).
    pub href: String,
    /// XBEL `title`; desktop `title`; Netscape the `A` text; xFolk the
    /// taggedlink's `title` attribute or text.
    ///
    /// In every format: [`bookmark.title`](crate::mapping#bookmarktitle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// XBEL `desc`; desktop `desc`; Netscape the `DD` after the `A`;
    /// xFolk every `.description`, joined by a blank line.
    ///
    /// In every format: [`bookmark.desc`](crate::mapping#bookmarkdesc).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// XBEL `@added`; desktop `@added`; Netscape `ADD_DATE`; xFolk `<time datetime>`.
    ///
    /// In every format: [`bookmark.added`](crate::mapping#bookmarkadded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added: Option<DateValue>,
    /// XBEL `@modified`; desktop `@modified`; Netscape `LAST_MODIFIED`; xFolk: none.
    ///
    /// In every format: [`bookmark.modified`](crate::mapping#bookmarkmodified).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<DateValue>,
    /// The favicon as a `data:` URI. XBEL: markport block; Netscape `ICON`.
    ///
    /// In every format: [`bookmark.favicon`](crate::mapping#bookmarkfavicon).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub favicon: Option<String>,
    /// Tags, in source order and case. XBEL: markport block; Netscape `TAGS`
    /// (comma-separated); xFolk `rel="tag"` links.
    ///
    /// In every format: [`bookmark.tags`](crate::mapping#bookmarktags).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Private (`Some(true)`), public (`Some(false)`) or not said (`None`).
    /// XBEL and desktop `<bookmark:private/>` (true only; false in the markport
    /// block); Netscape `PRIVATE="1|0"`; xFolk: withheld from pages unless asked.
    ///
    /// In every format: [`bookmark.private`](crate::mapping#bookmarkprivate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private: Option<bool>,
    /// Marked to read later. XBEL: markport block; Netscape `TOREAD="1|0"`.
    ///
    /// In every format: [`bookmark.to-read`](crate::mapping#bookmarkto-read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_read: Option<bool>,
    #[serde(
        flatten,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "group_or_none"
    )]
    details: Option<Box<BookmarkDetails>>,
}

/// The fields of a [`Bookmark`] that most bookmarks leave unset.
///
/// The ones a browser sets on every bookmark (Chromium's `id`, `guid` and
/// `meta_info`, Firefox's `guid`) are here; two groups that only some
/// sources know are behind one pointer each and cost nothing until set:
/// Firefox's keyword search, feed and charset ([`FirefoxDetails`],
/// [`firefox`](Self::firefox)) and the desktop dialect's registrations
/// ([`DesktopDetails`], [`desktop`](Self::desktop)). That keeps a Chromium
/// file's collection within three times its size. In JSON all of them are
/// one flat object, and two details are equal when every field is, however
/// they are stored.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct BookmarkDetails {
    /// XBEL `@id`; desktop: none; Netscape `ID` (`ALIASID` when an alias shows
    /// it); xFolk the entry's `data-id`.
    ///
    /// In every format: [`bookmark.id`](crate::mapping#bookmarkid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// XBEL `@visited`; desktop `@visited`; Netscape `LAST_VISIT`; xFolk: none.
    ///
    /// In every format: [`bookmark.visited`](crate::mapping#bookmarkvisited).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visited: Option<DateValue>,
    /// An icon reference (XBEL 1.1 / KDE `@icon`). XBEL `@icon` is not in 1.0:
    /// markport block; Netscape: none; xFolk: none.
    ///
    /// In every format: [`bookmark.icon`](crate::mapping#bookmarkicon).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// Where the favicon came from. XBEL: markport block; Netscape `ICON_URI`.
    ///
    /// In every format: [`bookmark.favicon-uri`](crate::mapping#bookmarkfavicon-uri).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub favicon_uri: Option<String>,
    /// `<info><metadata>` blocks of owners markport does not interpret, kept raw.
    ///
    /// In every format: [`bookmark.metadata`](crate::mapping#bookmarkmetadata).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub metadata: Vec<Metadata>,
    /// Source attributes markport has no field for (Netscape `UUID`, `WEB_PANEL`,
    /// ...), in source order. XBEL: markport block; Netscape: written back as attributes.
    ///
    /// In every format: [`bookmark.extra`](crate::mapping#bookmarkextra).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Attribute>,
    /// A browser's globally unique id for the bookmark: Chromium `guid`,
    /// Firefox `guid`. XBEL: markport block; Netscape, desktop, xFolk: none.
    ///
    /// In every format: [`bookmark.guid`](crate::mapping#bookmarkguid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guid: Option<String>,
    /// A browser's free key/value annotations, in source order: Chromium
    /// `meta_info` (any keys, such as `last_visited_desktop`). XBEL: markport
    /// block; Netscape, desktop, xFolk: none.
    ///
    /// In every format: [`bookmark.meta-info`](crate::mapping#bookmarkmeta-info).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub meta_info: Vec<Attribute>,
    #[serde(
        flatten,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "group_or_none"
    )]
    firefox: Option<Box<FirefoxDetails>>,
    #[serde(
        flatten,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "group_or_none"
    )]
    desktop: Option<Box<DesktopDetails>>,
}

/// Firefox's own fields of a bookmark (a keyword search, a live bookmark's
/// feed, the page's charset), in [`BookmarkDetails::firefox`]. Firefox's
/// JSON backups and places.sqlite hold them, and the Netscape HTML it exports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct FirefoxDetails {
    /// The keyword that opens it from the address bar. XBEL: markport block;
    /// Netscape `SHORTCUTURL`.
    ///
    /// In every format: [`bookmark.keyword`](crate::mapping#bookmarkkeyword).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// Form data a keyword search posts. XBEL: markport block; Netscape `POST_DATA`.
    ///
    /// In every format: [`bookmark.post-data`](crate::mapping#bookmarkpost-data).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post_data: Option<String>,
    /// The feed this bookmark subscribes to. XBEL: markport block; Netscape `FEEDURL`.
    ///
    /// In every format: [`bookmark.feed-url`](crate::mapping#bookmarkfeed-url).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed_url: Option<String>,
    /// The page's last charset. XBEL: markport block; Netscape `LAST_CHARSET`.
    ///
    /// In every format: [`bookmark.charset`](crate::mapping#bookmarkcharset).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
}

/// The desktop dialect's fields of a bookmark (the freedesktop.org
/// `<metadata>` block of XBEL and `recently-used.xbel`), in
/// [`BookmarkDetails::desktop`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct DesktopDetails {
    /// The target's MIME type. XBEL and desktop `<mime:mime-type type>`.
    ///
    /// In every format: [`bookmark.mime-type`](crate::mapping#bookmarkmime-type).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Desktop groups (`<bookmark:group>`), in order, duplicates kept.
    ///
    /// In every format: [`bookmark.groups`](crate::mapping#bookmarkgroups).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    /// Applications that registered it (`<bookmark:application>`), in order.
    ///
    /// In every format: [`bookmark.applications`](crate::mapping#bookmarkapplications).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub applications: Vec<Application>,
    /// The desktop icon (`<bookmark:icon href type name>`).
    ///
    /// In every format: [`bookmark.desktop-icon`](crate::mapping#bookmarkdesktop-icon).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desktop_icon: Option<DesktopIcon>,
}

/// What [`Bookmark::details`] shows for a bookmark without details.
static NO_DETAILS: LazyLock<BookmarkDetails> = LazyLock::new(BookmarkDetails::default);

/// What [`BookmarkDetails::firefox`] shows when none of its fields was set.
static NO_FIREFOX: FirefoxDetails = FirefoxDetails {
    keyword: None,
    post_data: None,
    feed_url: None,
    charset: None,
};

/// What [`BookmarkDetails::desktop`] shows when none of its fields was set.
static NO_DESKTOP: DesktopDetails = DesktopDetails {
    mime_type: None,
    groups: Vec::new(),
    applications: Vec::new(),
    desktop_icon: None,
};

impl BookmarkDetails {
    /// Whether no field is set.
    pub fn is_empty(&self) -> bool {
        *self == *NO_DETAILS
    }

    /// Firefox's keyword search, feed and charset (all unset when none was
    /// ever set).
    pub fn firefox(&self) -> &FirefoxDetails {
        self.firefox.as_deref().unwrap_or(&NO_FIREFOX)
    }

    /// Firefox's fields, to change them; allocates them on first use.
    pub fn firefox_mut(&mut self) -> &mut FirefoxDetails {
        self.firefox.get_or_insert_with(Box::default)
    }

    /// The desktop dialect's MIME type, groups, applications and icon (all
    /// unset when none was ever set).
    pub fn desktop(&self) -> &DesktopDetails {
        self.desktop.as_deref().unwrap_or(&NO_DESKTOP)
    }

    /// The desktop dialect's fields, to change them; allocates them on first use.
    pub fn desktop_mut(&mut self) -> &mut DesktopDetails {
        self.desktop.get_or_insert_with(Box::default)
    }
}

/// Equal when every field is, wherever it is stored: a group allocated but
/// left empty equals one never allocated.
impl PartialEq for BookmarkDetails {
    fn eq(&self, other: &BookmarkDetails) -> bool {
        // Destructured so that a new field cannot be forgotten here.
        let BookmarkDetails {
            id,
            visited,
            icon,
            favicon_uri,
            metadata,
            extra,
            guid,
            meta_info,
            firefox: _,
            desktop: _,
        } = self;
        *id == other.id
            && *visited == other.visited
            && *icon == other.icon
            && *favicon_uri == other.favicon_uri
            && *metadata == other.metadata
            && *extra == other.extra
            && *guid == other.guid
            && *meta_info == other.meta_info
            && self.firefox() == other.firefox()
            && self.desktop() == other.desktop()
    }
}

/// Reads a bookmark's details, or one of their groups, from its JSON
/// object, keeping them unallocated when none of their fields is set.
fn group_or_none<'de, D, T>(d: D) -> Result<Option<Box<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default + PartialEq,
{
    let group = T::deserialize(d)?;
    Ok((group != T::default()).then(|| Box::new(group)))
}

impl Bookmark {
    /// A bookmark with just a link.
    pub fn new(href: impl Into<String>) -> Bookmark {
        Bookmark {
            href: href.into(),
            ..Bookmark::default()
        }
    }

    /// The same bookmark with a title.
    pub fn with_title(mut self, title: impl Into<String>) -> Bookmark {
        self.title = Some(title.into());
        self
    }

    /// The rarely set fields (all unset when none was ever set).
    pub fn details(&self) -> &BookmarkDetails {
        self.details.as_deref().unwrap_or(&NO_DETAILS)
    }

    /// Whether the rarely set fields were ever allocated (they may still be empty).
    pub fn has_details(&self) -> bool {
        self.details.is_some()
    }

    /// The rarely set fields, to change them; allocates them on first use.
    pub fn details_mut(&mut self) -> &mut BookmarkDetails {
        self.details.get_or_insert_with(Box::default)
    }
}

/// Bookmarks are equal when every field is, wherever it is stored: a
/// bookmark whose details were allocated but left empty equals one without.
impl PartialEq for Bookmark {
    fn eq(&self, other: &Bookmark) -> bool {
        Field::of(Scope::Bookmark).all(|f| f.get(self) == f.get(other))
    }
}

/// What a folder is for in a browser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Role {
    /// The bookmarks toolbar. XBEL 1.1 / KDE `toolbar="yes"`; Netscape
    /// `PERSONAL_TOOLBAR_FOLDER="true"`.
    Toolbar,
    /// The bookmarks menu. Netscape `BOOKMARKS_MENU`.
    Menu,
    /// Unsorted / other bookmarks. Netscape `UNFILED_BOOKMARKS_FOLDER="true"`.
    Unfiled,
    /// Safari's reading list. Netscape `id="com.apple.ReadingList"`.
    ReadingList,
    /// The Places root. Netscape `PLACES_ROOT`.
    PlacesRoot,
    /// The bookmarks a phone synced in: Chromium's `synced` root ("Mobile
    /// bookmarks"), Firefox's `mobile______`. XBEL: markport block;
    /// Netscape: none (no browser exports it).
    Mobile,
}

impl Role {
    /// The role's name, as JSON and markport's XBEL block write it (`reading-list`).
    pub fn name(self) -> &'static str {
        match self {
            Role::Toolbar => "toolbar",
            Role::Menu => "menu",
            Role::Unfiled => "unfiled",
            Role::ReadingList => "reading-list",
            Role::PlacesRoot => "places-root",
            Role::Mobile => "mobile",
        }
    }
}

/// A container of nodes. Its children are kept by the [`Document`](crate::Document).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Folder {
    /// XBEL `title`; desktop: none (folders are flattened); Netscape `H3` text;
    /// xFolk the section heading.
    ///
    /// In every format: [`folder.title`](crate::mapping#foldertitle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// XBEL `desc`; Netscape the `DD` after the `H3`; xFolk the section's
    /// `.folder-description`.
    ///
    /// In every format: [`folder.desc`](crate::mapping#folderdesc).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// XBEL `@id`; Netscape `ID`; xFolk the folder section's `data-id`.
    ///
    /// In every format: [`folder.id`](crate::mapping#folderid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// XBEL `@added`; Netscape `ADD_DATE`.
    ///
    /// In every format: [`folder.added`](crate::mapping#folderadded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added: Option<DateValue>,
    /// XBEL: markport block; Netscape `LAST_MODIFIED`.
    ///
    /// In every format: [`folder.modified`](crate::mapping#foldermodified).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<DateValue>,
    /// Shown closed (`Some(true)`) or open. XBEL `@folded` (default yes);
    /// Netscape `FOLDED`.
    ///
    /// In every format: [`folder.folded`](crate::mapping#folderfolded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folded: Option<bool>,
    /// XBEL 1.1 / KDE `@icon`: markport block in XBEL 1.0.
    ///
    /// In every format: [`folder.icon`](crate::mapping#foldericon).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// The browser role. XBEL `toolbar="yes"` (1.1) or markport block;
    /// Netscape `PERSONAL_TOOLBAR_FOLDER`, `UNFILED_BOOKMARKS_FOLDER`, ...
    ///
    /// In every format: [`folder.role`](crate::mapping#folderrole).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// `<info><metadata>` blocks of owners markport does not interpret.
    ///
    /// In every format: [`folder.metadata`](crate::mapping#foldermetadata).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub metadata: Vec<Metadata>,
    /// Source attributes markport has no field for, in source order.
    ///
    /// In every format: [`folder.extra`](crate::mapping#folderextra).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Attribute>,
    /// A browser's globally unique id for the folder (Chromium, Firefox
    /// `guid`). XBEL: markport block; Netscape, desktop, xFolk: none.
    ///
    /// In every format: [`folder.guid`](crate::mapping#folderguid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guid: Option<String>,
    /// A browser's key/value annotations (Chromium `meta_info`), in source
    /// order. XBEL: markport block; Netscape, desktop, xFolk: none.
    ///
    /// In every format: [`folder.meta-info`](crate::mapping#foldermeta-info).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub meta_info: Vec<Attribute>,
}

impl Folder {
    /// A folder with nothing set.
    pub fn new() -> Folder {
        Folder::default()
    }

    /// The same folder with a title.
    pub fn with_title(mut self, title: impl Into<String>) -> Folder {
        self.title = Some(title.into());
        self
    }

    /// A folder with a title.
    pub fn titled(title: impl Into<String>) -> Folder {
        Folder {
            title: Some(title.into()),
            ..Folder::default()
        }
    }
}

/// A divider between siblings. XBEL `<separator/>`; Netscape `<HR>`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Separator {
    /// A label some producers give separators (Netscape `HR NAME`, KDE
    /// `separator/title`): XBEL markport block.
    ///
    /// In every format: [`separator.title`](crate::mapping#separatortitle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `<info><metadata>` blocks of owners markport does not interpret (KDE devices).
    ///
    /// In every format: [`separator.metadata`](crate::mapping#separatormetadata).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub metadata: Vec<Metadata>,
    /// Source attributes markport has no field for (KDE `href` on separators).
    ///
    /// In every format: [`separator.extra`](crate::mapping#separatorextra).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Attribute>,
}

impl Separator {
    /// A separator with nothing set.
    pub fn new() -> Separator {
        Separator::default()
    }
}

/// A second appearance of the node whose id is `target`.
/// XBEL `<alias ref>`; Netscape `ALIASOF` (pointing at an `ALIASID`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Alias {
    /// The id of the bookmark or folder this alias shows again.
    ///
    /// In every format: [`alias`](crate::mapping#alias).
    pub target: String,
    /// Source attributes markport has no field for.
    ///
    /// In every format: [`alias.extra`](crate::mapping#aliasextra).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Attribute>,
}

impl Alias {
    /// An alias of the node whose id is `target`.
    pub fn new(target: impl Into<String>) -> Alias {
        Alias {
            target: target.into(),
            ..Alias::default()
        }
    }
}

/// An application that registered a desktop bookmark
/// (`<bookmark:application name exec count modified timestamp>`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Application {
    /// `@name`, the application's name (the registration key).
    pub name: String,
    /// `@exec`, the command line, verbatim (still shell-quoted as written).
    pub exec: String,
    /// `@count`, how many times it registered this bookmark; `None` when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// `@modified`, the last registration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<DateValue>,
    /// The deprecated `@timestamp` (Unix seconds) of old files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<DateValue>,
}

impl Application {
    /// A registration by `name` with the command line `exec`, nothing else said.
    pub fn new(name: impl Into<String>, exec: impl Into<String>) -> Application {
        Application {
            name: name.into(),
            exec: exec.into(),
            ..Application::default()
        }
    }
}

/// A desktop bookmark's icon (`<bookmark:icon href type name>`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct DesktopIcon {
    /// `@href`, the icon's URI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// `@type`, the icon's MIME type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// `@name`, an icon-theme name (the spec and KDE; GLib ignores it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// An XBEL `<metadata>` block of an owner markport does not interpret, kept so
/// that it is written back unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Metadata {
    /// `@owner`, a URI naming who wrote it.
    pub owner: String,
    /// The element's content, as the exact XML text of the source.
    pub xml: String,
    /// Namespace declarations (prefix, URI) in scope in the source that `xml`
    /// uses; the empty prefix is the default namespace. Written back on the
    /// `<metadata>` element so the block stays well-formed anywhere.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub namespaces: Vec<(String, String)>,
}

impl Metadata {
    /// A block of `owner` whose content is the XML text `xml`, declaring no namespaces.
    pub fn new(owner: impl Into<String>, xml: impl Into<String>) -> Metadata {
        Metadata {
            owner: owner.into(),
            xml: xml.into(),
            namespaces: Vec::new(),
        }
    }
}

/// An attribute kept verbatim.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Attribute {
    /// The name, as written (case kept).
    pub name: String,
    /// The decoded value.
    pub value: String,
}

impl Attribute {
    /// An attribute.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Attribute {
        Attribute {
            name: name.into(),
            value: value.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_cost_nothing_until_set_and_compare_by_value() {
        let plain = Bookmark::new("https://example.org/");
        let mut touched = plain.clone();
        touched.details_mut();
        assert!(plain.details.is_none() && touched.details.is_some());
        assert_eq!(plain, touched);
        touched.details_mut().firefox_mut().keyword = Some("ex".into());
        assert_ne!(plain, touched);
        assert_eq!(touched.details().firefox().keyword.as_deref(), Some("ex"));
    }

    #[test]
    fn json_is_one_flat_object_and_reads_back_without_empty_details() {
        let mut b = Bookmark::new("https://example.org/").with_title("Example");
        b.details_mut().firefox_mut().keyword = Some("ex".into());
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"href": "https://example.org/", "title": "Example", "keyword": "ex"})
        );
        let back: Bookmark = serde_json::from_value(json).unwrap();
        assert_eq!(back, b);
        let plain: Bookmark = serde_json::from_str(r#"{"href": "x"}"#).unwrap();
        assert!(plain.details.is_none());
    }

    /// What a browser sets on every bookmark (Chromium: id, guid,
    /// meta_info, last use) leaves both groups unallocated, so a Chromium
    /// bookmark costs the details and nothing more.
    #[test]
    fn a_browser_bookmark_allocates_neither_group() {
        let mut b = Bookmark::new("https://example.org/");
        let d = b.details_mut();
        d.id = Some("7".into());
        d.guid = Some("00000000-0000-4000-8000-000000000007".into());
        d.visited = Some(DateValue::from_w3c("2024-01-01"));
        d.meta_info = vec![Attribute::new("power_bookmark_meta", "")];
        d.extra = vec![Attribute::new("k", "v")];
        d.icon = Some("i".into());
        d.favicon_uri = Some("u".into());
        d.metadata = vec![Metadata::new("o", "")];
        let d = b.details.as_deref().unwrap();
        assert!(d.firefox.is_none() && d.desktop.is_none());
        // Read back from its JSON, it stays so.
        let back: Bookmark = serde_json::from_value(serde_json::to_value(&b).unwrap()).unwrap();
        assert_eq!(back, b);
        let d = back.details.as_deref().unwrap();
        assert!(d.firefox.is_none() && d.desktop.is_none());
    }

    #[test]
    fn the_groups_are_flat_in_json_and_compare_by_value() {
        let mut b = Bookmark::new("https://example.org/");
        b.details_mut().firefox_mut().charset = Some("UTF-8".into());
        b.details_mut().desktop_mut().groups = vec!["Office".into()];
        b.details_mut().desktop_mut().mime_type = Some("text/plain".into());
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"href": "https://example.org/", "charset": "UTF-8",
                "mime_type": "text/plain", "groups": ["Office"]})
        );
        let back: Bookmark = serde_json::from_value(json).unwrap();
        assert_eq!(back, b);
        assert_eq!(back.details().desktop().groups, ["Office"]);
        assert_eq!(back.details().firefox().charset.as_deref(), Some("UTF-8"));
        // A group allocated and emptied again equals one never allocated,
        // and so do details holding only such groups.
        let mut emptied = Bookmark::new("https://example.org/");
        emptied.details_mut().firefox_mut().keyword = Some("k".into());
        emptied.details_mut().firefox_mut().keyword = None;
        emptied.details_mut().desktop_mut();
        assert!(emptied.details().is_empty());
        assert_eq!(emptied, Bookmark::new("https://example.org/"));
        assert_eq!(*emptied.details(), BookmarkDetails::default());
        // Each field of a group counts in the comparison.
        let mut other = b.clone();
        other.details_mut().desktop_mut().groups.clear();
        assert_ne!(other, b);
        assert_ne!(other.details(), b.details());
        let mut other = b.clone();
        other.details_mut().firefox_mut().charset = None;
        assert_ne!(other.details(), b.details());
        // A group given in JSON only as empty values is not allocated.
        let plain: Bookmark =
            serde_json::from_str(r#"{"href": "x", "id": "1", "groups": []}"#).unwrap();
        let d = plain.details.as_deref().unwrap();
        assert!(d.firefox.is_none() && d.desktop.is_none());
    }
}

#[cfg(all(test, target_pointer_width = "64"))]
mod size_tests {
    use super::{Bookmark, BookmarkDetails, DesktopDetails, FirefoxDetails};
    use std::mem::size_of;

    /// Every Chromium bookmark has an id and a guid, so every one allocates
    /// its details: they must stay small for a Chromium file to read in
    /// under three times its size (432 bytes before Firefox's and the
    /// desktop's fields went into groups of their own).
    #[test]
    fn the_details_a_browser_bookmark_allocates_stay_small() {
        assert!(size_of::<Bookmark>() <= 184, "{}", size_of::<Bookmark>());
        assert!(
            size_of::<BookmarkDetails>() <= 208,
            "{}",
            size_of::<BookmarkDetails>()
        );
        // The groups are behind one pointer each.
        assert!(size_of::<FirefoxDetails>() <= 96);
        assert!(size_of::<DesktopDetails>() <= 144);
    }
}
