//! Where the bookmarks are going (`--for DESTINATION`): for each program a
//! person moves bookmarks into, the file to give it, the one line that
//! says how to import that file, the names it shows for the role folders,
//! and what its import keeps, drops or changes of what the file carries
//! (the report's [`LossReport::destination`] list).
//!
//! Firefox's and Chromium's HTML imports are measured with the real
//! browsers (`tests/tests/firefox_live_for.rs`,
//! `tests/tests/chromium_live_for.rs`: every field the browser changed is
//! named here on at least as many nodes); the services' and Safari's rules
//! are taken from their importers' own source or documentation, cited in
//! docs/formats/destinations.md.

use std::collections::{HashMap, HashSet};

use markport_model::{
    Bookmark, DateValue, Document, Field, Holder, LossReport, Node, NodeId, Role, Scope,
};

use crate::registry::Format;

// Firefox's tag service is the same behind its HTML import and its restore:
// one set of rules, the model's, used here and by the firefox crate.
use markport_model::firefox_tags::{js_len, js_trim, Tags as FirefoxTags, Way, MAX_TITLE};

/// The titles a destination shows for the role folders, which a file
/// written for it gives them in place of the titles read (Safari's
/// `BookmarksBar`, `com.apple.ReadingList`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RoleTitles {
    /// The bookmarks bar (Safari's Favorites).
    pub toolbar: &'static str,
    /// The bookmarks menu.
    pub menu: &'static str,
    /// Unsorted / other bookmarks.
    pub unfiled: &'static str,
    /// Safari's reading list.
    pub reading_list: &'static str,
    /// Bookmarks synced in from a phone.
    pub mobile: &'static str,
}

impl RoleTitles {
    /// The title shown for `role`; `None` for the Places root, which is
    /// never shown.
    pub fn of(&self, role: Role) -> Option<&'static str> {
        match role {
            Role::Toolbar => Some(self.toolbar),
            Role::Menu => Some(self.menu),
            Role::Unfiled => Some(self.unfiled),
            Role::ReadingList => Some(self.reading_list),
            Role::Mobile => Some(self.mobile),
            _ => None,
        }
    }
}

const FIREFOX_ROLES: RoleTitles = RoleTitles {
    toolbar: "Bookmarks Toolbar",
    menu: "Bookmarks Menu",
    unfiled: "Other Bookmarks",
    reading_list: "Reading List",
    mobile: "Mobile Bookmarks",
};

const CHROMIUM_ROLES: RoleTitles = RoleTitles {
    toolbar: "Bookmarks bar",
    menu: "Bookmarks Menu",
    unfiled: "Other bookmarks",
    reading_list: "Reading List",
    mobile: "Mobile bookmarks",
};

const EDGE_ROLES: RoleTitles = RoleTitles {
    toolbar: "Favorites bar",
    menu: "Bookmarks Menu",
    unfiled: "Other favorites",
    reading_list: "Reading List",
    mobile: "Mobile favorites",
};

const SAFARI_ROLES: RoleTitles = RoleTitles {
    toolbar: "Favorites",
    menu: "Bookmarks Menu",
    unfiled: "Other Bookmarks",
    reading_list: "Reading List",
    mobile: "Mobile Bookmarks",
};

/// A service shows folders as lists or collections: the plain names.
const SERVICE_ROLES: RoleTitles = RoleTitles {
    toolbar: "Bookmarks Bar",
    menu: "Bookmarks Menu",
    unfiled: "Other Bookmarks",
    reading_list: "Reading List",
    mobile: "Mobile Bookmarks",
};

/// What a destination's import does to a field: the rule's kind, checked
/// on every node (or the document) the field is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum When {
    /// Every node inside a folder loses its place: the folders are not
    /// imported (`folder` on each node below one).
    Flattened,
    /// Every folder is dropped (`folder` on each).
    NoFolders,
    /// A text longer than this many characters is cut.
    Longer(usize),
    /// A text with white space at either end is trimmed.
    Trimmed,
    /// The link is stored in its WHATWG form, and a link no URL parser
    /// takes drops its bookmark.
    Link,
    /// Tags: trimmed, empty ones and those over this many characters
    /// dropped.
    Tags(usize),
    /// Every node at the file's top level goes somewhere else.
    TopLevel,
    /// A bookmark whose link starts with one of these is skipped.
    Prefixed(&'static [&'static str]),
    /// A bookmark whose link an earlier one has is not added again.
    Repeated,
    /// Tags are stored in lower case, sorted, each once.
    TagsLowerSorted,
}

/// One rule of a destination's import.
#[derive(Debug, Clone, Copy)]
struct Rule {
    field: Field,
    when: When,
    why: &'static str,
}

const fn rule(field: Field, when: When, why: &'static str) -> Rule {
    Rule { field, when, why }
}

/// How a destination's import is modelled.
#[derive(Debug, Clone, Copy)]
enum Import {
    /// Firefox's HTML import (`BookmarkHTMLUtils.importFromFile`),
    /// measured.
    FirefoxHtml,
    /// Chromium's HTML import (`bookmark_html_reader`), measured.
    ChromiumHtml,
    /// The rules from the importer's source or documentation.
    Rules(&'static Rules),
}

/// A program bookmarks are moved into (`--for NAME`).
#[derive(Debug)]
#[non_exhaustive]
pub struct Destination {
    /// The name `--for` takes (`firefox`).
    pub name: &'static str,
    /// The program as people call it (`Firefox`).
    pub label: &'static str,
    /// What takes the file in, for the summary's first line (`Firefox's Import`).
    pub taker: &'static str,
    /// The format written when `--to` is not given.
    pub format: &'static str,
    /// How to import the file, in one line.
    pub how: &'static str,
    /// The titles it shows for role folders, which a file of
    /// [`format`](Self::format) written for it gives them; `None`: the
    /// titles are kept as read.
    pub roles: Option<RoleTitles>,
    /// The destination it imports exactly as (`edge` as `chrome`: the
    /// same importer), for the docs and `--help`.
    pub same_import_as: Option<&'static str>,
    import: Import,
}

impl Destination {
    /// The format written for it when `--to` is not given.
    pub fn format(&self) -> &'static Format {
        crate::format(self.format).expect("a destination's format is registered")
    }

    /// What this destination's import drops or changes of `doc` written
    /// in [`format`](Self::format), node by node, in a report's
    /// `destination` list. Nothing when the format written is another one
    /// (`--to firefox` for Firefox: the restore's own rules are the
    /// writer's).
    pub fn report(&self, doc: &Document, written: &Format) -> LossReport {
        let mut loss = LossReport::new();
        if written.name != self.format {
            return loss;
        }
        match self.import {
            Import::FirefoxHtml => firefox_html(doc, &mut loss),
            Import::ChromiumHtml => chromium_html(doc, self.label, &mut loss),
            Import::Rules(rules) => apply_rules(doc, rules, &mut loss),
        }
        loss
    }

    /// Give the role folders of `doc` the titles this destination shows,
    /// when `written` is its format and it has [`roles`](Self::roles);
    /// each renamed folder is recorded as a change in `loss`.
    pub fn name_roles(&self, doc: &mut Document, written: &Format, loss: &mut LossReport) {
        let Some(roles) = self.roles.filter(|_| written.name == self.format) else {
            return;
        };
        let ids: Vec<NodeId> = doc.preorder().collect();
        let (mut count, mut paths) = (0, Vec::new());
        for id in ids {
            let path = doc.path(id);
            if let Node::Folder(f) = doc.node_mut(id) {
                let Some(title) = f.role.and_then(|r| roles.of(r)) else {
                    continue;
                };
                if f.title.as_deref() != Some(title) {
                    f.title = Some(title.to_string());
                    count += 1;
                    paths.push(path);
                }
            }
        }
        if count > 0 {
            loss.record_change(
                Field::FolderTitle,
                count,
                paths,
                format!("named as {} shows it (--for {})", self.label, self.name),
            );
        }
    }

    /// Write titles the way this destination's import shows them best, when
    /// `written` is its format: Chromium's line-based HTML reader drops a
    /// bookmark whose title spans two lines and shows `&#10;` as that text,
    /// so for it a line break in a title becomes one space, as it would show
    /// a tab. Each title changed is recorded as a change in `loss`; other
    /// destinations keep their titles as read.
    pub fn shape_titles(&self, doc: &mut Document, written: &Format, loss: &mut LossReport) {
        if !matches!(self.import, Import::ChromiumHtml) || written.name != self.format {
            return;
        }
        let ids: Vec<NodeId> = doc.preorder().collect();
        let mut changed: [(usize, Vec<String>); 2] = Default::default();
        for id in ids {
            let (title, slot) = match doc.node_mut(id) {
                Node::Folder(f) => (&mut f.title, 0),
                Node::Bookmark(b) => (&mut b.title, 1),
                _ => continue,
            };
            let Some(t) = title.as_mut().filter(|t| t.contains(['\n', '\r'])) else {
                continue;
            };
            *t = one_line(t);
            changed[slot].0 += 1;
            changed[slot].1.push(doc.path(id));
        }
        for (field, (count, paths)) in [Field::FolderTitle, Field::BookmarkTitle]
            .into_iter()
            .zip(changed)
        {
            if count > 0 {
                loss.record_change(
                    field,
                    count,
                    paths,
                    format!(
                        "a line break in a title as a space, which {} shows (--for {})",
                        self.label, self.name
                    ),
                );
            }
        }
    }
}

/// `text` with each line break (CR LF, LF or CR) as one space.
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                chars.next_if_eq(&'\n');
                out.push(' ');
            }
            '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Every destination `--for` knows, in the order `--help` lists them.
pub static DESTINATIONS: &[Destination] = &[
    Destination {
        name: "firefox",
        label: "Firefox",
        taker: "Firefox's Import",
        format: "netscape",
        how: "In Firefox: Bookmarks > Manage bookmarks > Import and Backup > Import Bookmarks from HTML (adds to your bookmarks; --to firefox writes a backup whose Restore replaces them all)",
        roles: Some(FIREFOX_ROLES),
        same_import_as: None,
        import: Import::FirefoxHtml,
    },
    Destination {
        name: "chrome",
        label: "Chrome",
        taker: "Chrome's Import",
        format: "netscape",
        how: "In Chrome: Settings > Import bookmarks and settings (chrome://settings/importData) > Bookmarks HTML File > Choose File",
        roles: Some(CHROMIUM_ROLES),
        same_import_as: None,
        import: Import::ChromiumHtml,
    },
    Destination {
        name: "chromium",
        label: "Chromium",
        taker: "Chromium's Import",
        format: "netscape",
        how: "In Chromium: Settings > Import bookmarks and settings (chrome://settings/importData) > Bookmarks HTML File > Choose File",
        roles: Some(CHROMIUM_ROLES),
        same_import_as: Some("chrome"),
        import: Import::ChromiumHtml,
    },
    Destination {
        name: "edge",
        label: "Edge",
        taker: "Edge's Import",
        format: "netscape",
        how: "In Edge: Settings > Profiles > Import browser data (edge://settings/importData) > Favorites or bookmarks HTML file",
        roles: Some(EDGE_ROLES),
        same_import_as: Some("chrome"),
        import: Import::ChromiumHtml,
    },
    Destination {
        name: "brave",
        label: "Brave",
        taker: "Brave's Import",
        format: "netscape",
        how: "In Brave: Settings > Get started > Import bookmarks and settings (brave://settings/importData) > Bookmarks HTML File",
        roles: Some(CHROMIUM_ROLES),
        same_import_as: Some("chrome"),
        import: Import::ChromiumHtml,
    },
    Destination {
        name: "vivaldi",
        label: "Vivaldi",
        taker: "Vivaldi's Import",
        format: "netscape",
        how: "In Vivaldi: File > Import from Applications or Files > Bookmarks HTML File",
        roles: Some(CHROMIUM_ROLES),
        same_import_as: Some("chrome"),
        import: Import::ChromiumHtml,
    },
    Destination {
        name: "opera",
        label: "Opera",
        taker: "Opera's Import",
        format: "netscape",
        how: "In Opera: Settings > Import bookmarks and settings (opera://settings/importData) > Bookmarks HTML File",
        roles: Some(CHROMIUM_ROLES),
        same_import_as: Some("chrome"),
        import: Import::ChromiumHtml,
    },
    Destination {
        name: "safari",
        label: "Safari",
        taker: "Safari's Import",
        format: "netscape",
        how: "In Safari: File > Import From > Bookmarks HTML File (the bookmarks arrive in a folder named Imported)",
        roles: Some(SAFARI_ROLES),
        same_import_as: None,
        import: Import::Rules(&SAFARI),
    },
    Destination {
        name: "gnome",
        label: "GNOME",
        taker: "GTK's recent files",
        format: "desktop",
        how: "GNOME and GTK read ~/.local/share/recently-used.xbel: with GTK applications closed, put this file there (or add entries with `markport desktop add`, under GLib's lock)",
        roles: None,
        same_import_as: None,
        import: Import::Rules(&GNOME),
    },
    Destination {
        name: "kde",
        label: "KDE",
        taker: "KDE's bookmark editor",
        format: "xbel",
        how: "In KDE: the bookmark editor (keditbookmarks) reads XBEL: ~/.local/share/konqueror/bookmarks.xml, or File > Import",
        roles: None,
        same_import_as: None,
        import: Import::Rules(&KDE),
    },
    Destination {
        name: "karakeep",
        label: "Karakeep",
        taker: "Karakeep's Import",
        format: "netscape",
        how: "In Karakeep: Settings > Import / Export > Import Bookmarks from HTML file",
        roles: Some(SERVICE_ROLES),
        same_import_as: None,
        import: Import::Rules(&KARAKEEP),
    },
    Destination {
        name: "linkwarden",
        label: "Linkwarden",
        taker: "Linkwarden's Import",
        format: "netscape",
        how: "In Linkwarden: Settings > Preference > Import & Export > Import From > Bookmarks HTML file",
        roles: Some(SERVICE_ROLES),
        same_import_as: None,
        import: Import::Rules(&LINKWARDEN),
    },
    Destination {
        name: "linkding",
        label: "linkding",
        taker: "linkding's Import",
        format: "netscape",
        how: "In linkding: Settings > General > Import (Netscape HTML)",
        roles: Some(SERVICE_ROLES),
        same_import_as: None,
        import: Import::Rules(&LINKDING),
    },
    Destination {
        name: "raindrop",
        label: "Raindrop.io",
        taker: "Raindrop.io's Import",
        format: "netscape",
        how: "In Raindrop.io: Settings > Import bookmarks > choose the HTML file",
        roles: Some(SERVICE_ROLES),
        same_import_as: None,
        import: Import::Rules(&RAINDROP),
    },
    Destination {
        name: "pinboard",
        label: "Pinboard",
        taker: "Pinboard's Import",
        format: "netscape",
        how: "In Pinboard: Settings > Import > browser bookmarks (HTML)",
        roles: Some(SERVICE_ROLES),
        same_import_as: None,
        import: Import::Rules(&PINBOARD),
    },
    Destination {
        name: "buku",
        label: "buku",
        taker: "buku's import",
        format: "netscape",
        how: "buku --import FILE.html (folder names can become tags: buku asks)",
        roles: Some(SERVICE_ROLES),
        same_import_as: None,
        import: Import::Rules(&BUKU),
    },
];

/// The destination `--for` names; `None` for a name it does not know.
///
/// ```
/// let ff = markport::destination("firefox").unwrap();
/// assert_eq!((ff.format, ff.taker), ("netscape", "Firefox's Import"));
/// assert!(markport::destination("netscape").is_none());
/// ```
pub fn destination(name: &str) -> Option<&'static Destination> {
    let name = name.trim().to_ascii_lowercase();
    available().find(|d| d.name == name)
}

/// The names `--for` takes, in order.
pub fn destination_names() -> impl Iterator<Item = &'static str> {
    available().map(|d| d.name)
}

/// The destinations whose format this build writes: a library built
/// without the desktop format has no `gnome` to offer.
fn available() -> impl Iterator<Item = &'static Destination> {
    DESTINATIONS
        .iter()
        .filter(|d| crate::format(d.format).is_some_and(|f| f.writable()))
}

// --- the services' and Safari's rules (docs/formats/destinations.md) ---

/// What an importer that is not measured here does, from its source or
/// documentation: the fields it does not read (each dropped wherever the
/// file carries it) and its other rules.
#[derive(Debug)]
struct Rules {
    drops: &'static [Field],
    drop_why: &'static str,
    rules: &'static [Rule],
}

/// What every service below reads of a Netscape file is only the link,
/// the title, some of tags, `DD`, `ADD_DATE` and the folders: these it
/// never reads.
const NEVER_READ: [Field; 16] = [
    Field::BookmarkVisited,
    Field::BookmarkFavicon,
    Field::BookmarkFaviconUri,
    Field::BookmarkKeyword,
    Field::BookmarkPostData,
    Field::BookmarkFeedUrl,
    Field::BookmarkCharset,
    Field::BookmarkId,
    Field::BookmarkExtra,
    Field::FolderDesc,
    Field::FolderId,
    Field::FolderFolded,
    Field::FolderExtra,
    Field::Separator,
    Field::DocumentTitle,
    Field::DocumentDesc,
];

macro_rules! fields {
    ($($extra:ident),* $(,)?) => {{
        const ALL: &[Field] = &{
            let extra = [$(Field::$extra),*];
            let mut out = [Field::DocumentTitle; NEVER_READ.len() + [$(Field::$extra),*].len()];
            let mut i = 0;
            while i < NEVER_READ.len() {
                out[i] = NEVER_READ[i];
                i += 1;
            }
            let mut j = 0;
            while j < extra.len() {
                out[i + j] = extra[j];
                j += 1;
            }
            out
        };
        ALL
    }};
}

/// GNOME: the desktop writer's own report is the whole story (GLib reads
/// every field of its layout).
const GNOME: Rules = Rules {
    drops: &[],
    drop_why: "",
    rules: &[],
};

/// KDE's bookmark editor reads XBEL; what only markport's metadata block
/// carries is already reported as kept only in an extension.
const KDE: Rules = Rules {
    drops: &[],
    drop_why: "",
    rules: &[],
};

/// Karakeep (`packages/shared/import-export/parsers.ts`,
/// `parseNetscapeBookmarkFile`): the link, the text of `<A>`, `TAGS` split
/// at commas, `ADD_DATE` and the folder path (as lists); bookmarks of one
/// link are merged (`deduplicateBookmarks`).
const KARAKEEP: Rules = Rules {
    drops: fields!(
        BookmarkDesc,
        BookmarkModified,
        BookmarkPrivate,
        BookmarkToRead,
        FolderAdded,
        FolderModified,
        Alias
    ),
    drop_why: "Karakeep's HTML import does not read it",
    rules: &[rule(
        Field::Bookmark,
        When::Repeated,
        "Karakeep merges the bookmarks of one link into the first (their tags joined)",
    )],
};

/// Linkwarden (`apps/web/lib/api/controllers/migration/importFromHTMLFile.ts`).
const LINKWARDEN: Rules = Rules {
    drops: fields!(
        BookmarkModified,
        BookmarkPrivate,
        BookmarkToRead,
        FolderAdded,
        FolderModified,
        Alias
    ),
    drop_why: "Linkwarden's HTML import does not read it",
    rules: &[
        rule(
            Field::Bookmark,
            When::Link,
            "Linkwarden skips a link its URL parser refuses",
        ),
        rule(
            Field::BookmarkTitle,
            When::Longer(254),
            "Linkwarden trims a name and cuts it to 254 characters",
        ),
        rule(
            Field::BookmarkDesc,
            When::Longer(254),
            "Linkwarden trims a description and cuts it to 254 characters",
        ),
        rule(
            Field::BookmarkTags,
            When::Tags(49),
            "Linkwarden trims tags and cuts each to 49 characters",
        ),
        rule(
            Field::FolderTitle,
            When::Longer(254),
            "Linkwarden trims a collection's name and cuts it to 254 characters",
        ),
    ],
};

/// linkding (`bookmarks/services/parser.py`): the link, the title, `DD`,
/// `ADD_DATE`, `LAST_MODIFIED`, `TAGS`, `TOREAD`, `PRIVATE`; no folders.
const LINKDING: Rules = Rules {
    drops: fields!(FolderTitle, FolderAdded, FolderModified, Alias),
    drop_why: "linkding's HTML import does not read it",
    rules: &[
        rule(
            Field::Folder,
            When::Flattened,
            "linkding keeps no folders: every bookmark arrives at its top level",
        ),
        rule(Field::Folder, When::NoFolders, "linkding keeps no folders"),
        rule(
            Field::BookmarkTitle,
            When::Trimmed,
            "linkding trims white space around a title",
        ),
        rule(
            Field::BookmarkDesc,
            When::Trimmed,
            "linkding trims white space around a description",
        ),
    ],
};

/// Raindrop.io (its import API, `raindropio/developer-site`
/// `v1/import.md`: what its parser of an HTML file returns): folders
/// become collections, each bookmark a link, title, one date, tags and an
/// excerpt.
const RAINDROP: Rules = Rules {
    drops: fields!(
        BookmarkPrivate,
        BookmarkToRead,
        FolderAdded,
        FolderModified,
        Alias
    ),
    drop_why: "Raindrop.io's HTML import does not keep it",
    rules: &[],
};

/// Pinboard: one list of bookmarks with tags, no folders (its own export,
/// corpus/netscape/pinboard.html, writes `TAGS`, `DD`, `ADD_DATE`,
/// `PRIVATE` and `TOREAD`, and nothing of folders; its importer's source
/// is not public).
const PINBOARD: Rules = Rules {
    drops: fields!(
        BookmarkModified,
        FolderTitle,
        FolderAdded,
        FolderModified,
        Alias
    ),
    drop_why: "Pinboard's import does not keep it",
    rules: &[
        rule(
            Field::Folder,
            When::Flattened,
            "Pinboard keeps no folders: every bookmark arrives in one list",
        ),
        rule(Field::Folder, When::NoFolders, "Pinboard keeps no folders"),
    ],
};

/// buku (`buku.py`, `import_html` and `parse_tags`, buku 5.1): the link,
/// the title, `TAGS` and `DD`; a folder's name can become a tag, the
/// folder does not; no dates; links of a few schemes skipped; a link
/// already in the database is not added again.
const BUKU: Rules = Rules {
    drops: fields!(
        BookmarkAdded,
        BookmarkModified,
        BookmarkPrivate,
        BookmarkToRead,
        FolderTitle,
        FolderAdded,
        FolderModified,
        Alias
    ),
    drop_why: "buku's HTML import does not read it",
    rules: &[
        rule(
            Field::Bookmark,
            When::Prefixed(&[
                "about:",
                "apt:",
                "chrome://",
                "file://",
                "place:",
                "vivaldi://",
            ]),
            "buku's import skips about:, apt:, chrome://, file://, place: and vivaldi:// links",
        ),
        rule(
            Field::Bookmark,
            When::Repeated,
            "buku keeps one bookmark per link: a later one of the same link is not added",
        ),
        rule(
            Field::BookmarkTags,
            When::TagsLowerSorted,
            "buku keeps tags in lower case, sorted, each once",
        ),
        rule(
            Field::Folder,
            When::Flattened,
            "buku keeps no folders (their names can become tags)",
        ),
        rule(Field::Folder, When::NoFolders, "buku keeps no folders"),
    ],
};

/// Safari (Safari User Guide, "Import bookmarks"): titles, links and
/// folders, into a folder named Imported.
const SAFARI: Rules = Rules {
    drops: fields!(
        BookmarkDesc,
        BookmarkAdded,
        BookmarkModified,
        BookmarkTags,
        BookmarkPrivate,
        BookmarkToRead,
        FolderAdded,
        FolderModified,
        Alias
    ),
    drop_why: "Safari's bookmarks have no such field: its import drops it",
    rules: &[rule(
        Field::Folder,
        When::TopLevel,
        "Safari puts what it imports into a folder named Imported",
    )],
};

/// Whether `field` of `holder` holds a value (a node's own field: it is
/// that node).
fn present(field: Field, node: Option<&Node>, doc: &Document) -> bool {
    let holder = match node {
        Some(n) => Holder::from(n),
        None => Holder::from(&doc.header),
    };
    if holder.scope() != field.scope() {
        return false;
    }
    match field {
        Field::Bookmark | Field::Folder | Field::Separator | Field::Alias => true,
        _ => field.get(holder).is_some_and(|v| v.is_present()),
    }
}

fn apply_rules(doc: &Document, rules: &Rules, loss: &mut LossReport) {
    let mut seen: HashSet<&str> = HashSet::new();
    for &field in rules.drops.iter().filter(|f| f.scope() == Scope::Document) {
        if present(field, None, doc) {
            loss.record_destination(doc, None, field, rules.drop_why);
        }
    }
    for id in doc.preorder() {
        let node = doc.node(id);
        for &field in rules.drops {
            if present(field, Some(node), doc) {
                loss.record_destination(doc, Some(id), field, rules.drop_why);
            }
        }
        for r in rules.rules {
            let hit = match (r.when, node) {
                (When::Repeated, Node::Bookmark(b)) => !seen.insert(b.href.as_str()),
                _ => applies(doc, id, node, r),
            };
            if hit {
                loss.record_destination(doc, Some(id), r.field, r.why);
            }
        }
    }
}

/// Whether rule `r` changes node `id`.
fn applies(doc: &Document, id: NodeId, node: &Node, r: &Rule) -> bool {
    match (r.when, node) {
        (When::Flattened, Node::Folder(_)) => false,
        (When::Flattened, _) => doc.parent(id).is_some(),
        (When::NoFolders, n) => matches!(n, Node::Folder(_)),
        (When::TopLevel, _) => doc.parent(id).is_none(),
        (When::Longer(n), Node::Bookmark(b)) => match r.field {
            Field::BookmarkTitle => b.title.as_deref().is_some_and(|t| cut(t, n)),
            Field::BookmarkDesc => b.desc.as_deref().is_some_and(|t| cut(t, n)),
            _ => false,
        },
        (When::Longer(n), Node::Folder(f)) => f.title.as_deref().is_some_and(|t| cut(t, n)),
        (When::Trimmed, Node::Bookmark(b)) => match r.field {
            Field::BookmarkTitle => b.title.as_deref().is_some_and(|t| t.trim() != t),
            Field::BookmarkDesc => b.desc.as_deref().is_some_and(|t| t.trim() != t),
            _ => false,
        },
        (When::Link, Node::Bookmark(b)) => url::Url::parse(b.href.trim()).is_err(),
        (When::Prefixed(prefixes), Node::Bookmark(b)) => {
            prefixes.iter().any(|p| b.href.starts_with(p))
        }
        (When::TagsLowerSorted, Node::Bookmark(b)) => {
            let mut kept: Vec<String> = b
                .tags
                .iter()
                .flat_map(|t| t.split(','))
                .map(|t| t.trim().to_lowercase())
                .filter(|t| !t.is_empty())
                .collect();
            kept.sort();
            kept.dedup();
            kept != b.tags
        }
        (When::Tags(n), Node::Bookmark(b)) => b
            .tags
            .iter()
            .flat_map(|t| t.split(','))
            .any(|t| t.trim() != t || t.is_empty() || t.chars().count() > n),
        _ => false,
    }
}

/// Whether trimming and cutting to `n` characters changes `text`.
fn cut(text: &str, n: usize) -> bool {
    text.trim() != text || text.chars().count() > n
}

// --- Firefox's HTML import, measured (docs/formats/netscape.md) ---

/// The link as a browser stores it: `None` when its URL parser refuses it
/// (the bookmark is dropped), else its WHATWG form.
fn parsed_link(href: &str) -> Option<String> {
    url::Url::parse(href).ok().map(|u| u.as_str().to_string())
}

/// A date a browser cannot read (kept only as written): replaced by the
/// time of the import.
fn unreadable(d: Option<&DateValue>) -> bool {
    d.is_some_and(|d| d.instant().is_none())
}

fn earlier(a: Option<&DateValue>, b: Option<&DateValue>) -> bool {
    match (
        a.and_then(DateValue::instant),
        b.and_then(DateValue::instant),
    ) {
        (Some(x), Some(y)) => x.unix_seconds() < y.unix_seconds(),
        _ => false,
    }
}

const FF_ROOT: &str =
    "Firefox's Import keeps its own root: the file's title and dates are not taken";
const FF_DROPS: &str = "Firefox's HTML import does not keep it";
const FF_NUMBERS: &str = "Firefox numbers every item itself";

fn firefox_html(doc: &Document, loss: &mut LossReport) {
    for field in [
        Field::DocumentTitle,
        Field::DocumentDesc,
        Field::DocumentAdded,
        Field::DocumentModified,
        Field::DocumentExtra,
    ] {
        if present(field, None, doc) {
            loss.record_destination(doc, None, field, FF_ROOT);
        }
    }
    let tags = FirefoxTags::of(doc, parsed_link);
    // The first folder of each role becomes Firefox's root of that role.
    let mut roots_taken: HashSet<Role> = HashSet::new();
    let mut root_of: HashSet<NodeId> = HashSet::new();
    let mut top_of: HashMap<NodeId, NodeId> = HashMap::new();
    for id in doc.preorder() {
        let node = doc.node(id);
        let parent = doc.parent(id);
        let becomes_root = parent.is_none()
            && match node {
                Node::Folder(f) => match f.role {
                    Some(r @ (Role::Toolbar | Role::Unfiled | Role::Menu)) => roots_taken.insert(r),
                    _ => false,
                },
                _ => false,
            };
        if becomes_root {
            root_of.insert(id);
        }
        // Everything outside the folders that become Firefox's roots ends
        // up in the Bookmarks Menu, below where it was.
        // Preorder meets a parent first: its top is known (no walk up).
        let top = parent.and_then(|p| top_of.get(&p).copied()).unwrap_or(id);
        top_of.insert(id, top);
        if !root_of.contains(&top) {
            loss.record_destination(
                doc,
                Some(id),
                Field::Folder,
                "Firefox's Import puts what is not in one of its roots into the Bookmarks Menu",
            );
        }
        match node {
            Node::Folder(f) => {
                if becomes_root || f.role.is_some() {
                    if f.title.is_some() {
                        loss.record_destination(
                            doc,
                            Some(id),
                            Field::FolderTitle,
                            "Firefox shows its own title for its roots",
                        );
                    }
                    if f.role.is_some() {
                        loss.record_destination(
                            doc,
                            Some(id),
                            Field::FolderRole,
                            "a role folder becomes Firefox's root, or past the first an ordinary folder",
                        );
                    }
                }
                if f.id.is_some() {
                    loss.record_destination(doc, Some(id), Field::FolderId, FF_NUMBERS);
                }
                if becomes_root && f.added.is_some() {
                    loss.record_destination(doc, Some(id), Field::FolderAdded, FF_ROOT);
                } else if unreadable(f.added.as_ref())
                    || earlier(f.modified.as_ref(), f.added.as_ref())
                    || (f.added.is_some() && f.title.as_deref().unwrap_or("").is_empty())
                {
                    loss.record_destination(
                        doc,
                        Some(id),
                        Field::FolderAdded,
                        "Firefox replaces a folder's date it cannot read, one after its last change, or an untitled folder's, by the time of the import",
                    );
                }
                if f.modified.is_some() || becomes_root {
                    // Firefox dates a folder's last change by its newest
                    // item, and keeps a root's own: counted wherever the
                    // folder has a date or holds anything.
                    if f.modified.is_some() || !doc.children(Some(id)).is_empty() {
                        loss.record_destination(
                            doc,
                            Some(id),
                            Field::FolderModified,
                            "Firefox raises a folder's last change to its newest item's",
                        );
                    }
                }
                for field in [Field::FolderDesc, Field::FolderFolded, Field::FolderExtra] {
                    if present(field, Some(node), doc) {
                        loss.record_destination(doc, Some(id), field, FF_DROPS);
                    }
                }
            }
            Node::Bookmark(b) => firefox_bookmark(doc, id, b, &tags, loss),
            Node::Separator(s) => {
                // Separators have no identity: Firefox makes new ones, and
                // where a folder around one moved, so did it.
                loss.record_destination(
                    doc,
                    Some(id),
                    Field::Separator,
                    "Firefox's Import makes its separators anew, moved with their folder",
                );
                if s.title.is_some() {
                    loss.record_destination(
                        doc,
                        Some(id),
                        Field::SeparatorTitle,
                        "Firefox's separators have no title",
                    );
                }
                if !s.extra.is_empty() {
                    loss.record_destination(doc, Some(id), Field::SeparatorExtra, FF_DROPS);
                }
            }
            Node::Alias(_) => {
                loss.record_destination(
                    doc,
                    Some(id),
                    Field::Alias,
                    "Firefox does not import aliases (ALIASOF)",
                );
            }
            _ => {}
        }
    }
}

fn firefox_bookmark(
    doc: &Document,
    id: NodeId,
    b: &Bookmark,
    tags: &FirefoxTags,
    loss: &mut LossReport,
) {
    let node = doc.node(id);
    let Some(href) = parsed_link(&b.href) else {
        loss.record_destination(
            doc,
            Some(id),
            Field::Bookmark,
            "Firefox cannot parse this link: its Import drops the bookmark",
        );
        return;
    };
    if href != b.href {
        loss.record_destination(
            doc,
            Some(id),
            Field::BookmarkHref,
            "Firefox rewrites the link in its normal form",
        );
    }
    if b.title.is_none() {
        loss.record_destination(
            doc,
            Some(id),
            Field::BookmarkTitle,
            "an untitled bookmark is written with its link as text, which Firefox takes as its title",
        );
    } else if b
        .title
        .as_deref()
        .is_some_and(|t| js_trim(t) != t || js_len(t) > MAX_TITLE || t.contains('\r'))
    {
        loss.record_destination(
            doc,
            Some(id),
            Field::BookmarkTitle,
            "Firefox trims a bookmark's title and cuts it to 4096 characters",
        );
    }
    if unreadable(b.added.as_ref()) || earlier(b.modified.as_ref(), b.added.as_ref()) {
        loss.record_destination(
            doc,
            Some(id),
            Field::BookmarkAdded,
            "Firefox replaces a date it cannot read, or one after the last-modified date",
        );
    }
    if unreadable(b.modified.as_ref()) || earlier(b.modified.as_ref(), b.added.as_ref()) {
        loss.record_destination(
            doc,
            Some(id),
            Field::BookmarkModified,
            "Firefox replaces a last-modified date it cannot read or earlier than the added date",
        );
    }
    for (field, why) in [
        (
            Field::BookmarkDesc,
            "Firefox's HTML import drops descriptions (DD)",
        ),
        (Field::BookmarkId, FF_NUMBERS),
        (Field::BookmarkVisited, FF_DROPS),
        (
            Field::BookmarkFavicon,
            "Firefox puts the icon in its favicon store, not on the bookmark",
        ),
        (
            Field::BookmarkFaviconUri,
            "Firefox puts the icon in its favicon store, not on the bookmark",
        ),
        (
            Field::BookmarkPostData,
            "Firefox's HTML import drops POST_DATA",
        ),
        (
            Field::BookmarkFeedUrl,
            "Firefox has no live bookmarks since version 64: it drops the feed",
        ),
        (Field::BookmarkCharset, FF_DROPS),
        (
            Field::BookmarkPrivate,
            "Firefox has no private bookmarks: it drops the flag",
        ),
        (
            Field::BookmarkToRead,
            "Firefox has no to-read flag: it drops it",
        ),
        (Field::BookmarkExtra, FF_DROPS),
    ] {
        if present(field, Some(node), doc) {
            loss.record_destination(doc, Some(id), field, why);
        }
    }
    if let Some(change) = tags.change(b, &href) {
        let why = change.why(Way::HtmlImport);
        loss.record_destination(doc, Some(id), Field::BookmarkTags, why);
    }
    if let Some(k) = &b.details().firefox().keyword {
        if let Some(change) = tags.keyword_change(id, k, &href) {
            let why = change.why(Way::HtmlImport);
            loss.record_destination(doc, Some(id), Field::BookmarkKeyword, why);
        }
    }
}

// --- Chromium's HTML import, measured ---

/// The schemes Chromium's importer refuses (`CanImportURL`): Firefox's
/// queries and its old cache pages.
const CHROMIUM_REFUSED: [&str; 2] = ["place", "wyciwyg"];

/// What Chromium's Import makes differently of a title, if anything: its
/// line-based reader turns a tab into a space, and decodes no character
/// reference but the five it escapes, so a line break, which the Netscape
/// writer gives as `&#10;` to keep the title on its element's line, shows
/// as that text.
fn chromium_title(title: Option<&str>, label: &str) -> Option<String> {
    let t = title?;
    if t.contains(['\n', '\r']) {
        Some(format!(
            "{label}'s Import shows a line break in a title as the text &#10;"
        ))
    } else if t.contains('\t') {
        Some(format!(
            "{label}'s Import turns a tab in a title into a space"
        ))
    } else {
        None
    }
}

fn chromium_html(doc: &Document, label: &str, loss: &mut LossReport) {
    let drops = format!("{label}'s bookmarks have no such field: its Import drops it");
    for field in [
        Field::DocumentTitle,
        Field::DocumentDesc,
        Field::DocumentAdded,
        Field::DocumentModified,
        Field::DocumentExtra,
    ] {
        if present(field, None, doc) {
            loss.record_destination(doc, None, field, &drops);
        }
    }
    // Chromium's importer makes a folder when a bookmark goes into it: a
    // folder with no bookmark below is never made. Reverse preorder meets
    // children before their folder, so each is looked at once.
    let order: Vec<NodeId> = doc.preorder().collect();
    let mut holds: HashSet<NodeId> = HashSet::new();
    for &id in order.iter().rev() {
        let full = match doc.node(id) {
            Node::Bookmark(_) => true,
            Node::Folder(_) => doc.children(Some(id)).iter().any(|c| holds.contains(c)),
            _ => false,
        };
        if full {
            holds.insert(id);
        }
    }
    let mut bar = None;
    let mut top_of: HashMap<NodeId, NodeId> = HashMap::new();
    for id in doc.preorder() {
        let node = doc.node(id);
        let parent = doc.parent(id);
        if parent.is_none()
            && bar.is_none()
            && matches!(node, Node::Folder(f) if f.role == Some(Role::Toolbar))
        {
            bar = Some(id);
        }
        // Preorder meets a parent first: its top is known (no walk up).
        let top = parent.and_then(|p| top_of.get(&p).copied()).unwrap_or(id);
        top_of.insert(id, top);
        if Some(top) != bar {
            loss.record_destination(
                doc,
                Some(id),
                Field::Folder,
                &format!(
                    "{label}'s Import puts what is not on the bar into a folder named Imported"
                ),
            );
        }
        let fields: &[Field] = match node {
            Node::Bookmark(b) => {
                let link = parsed_link(&b.href);
                let refused = link.as_deref().is_none_or(|l| {
                    CHROMIUM_REFUSED
                        .iter()
                        .any(|s| l.starts_with(s) && l[s.len()..].starts_with(':'))
                });
                let ff = b.details().firefox();
                if ff.post_data.is_some() || (ff.keyword.is_some() && b.href.contains("%s")) {
                    loss.record_destination(
                        doc,
                        Some(id),
                        Field::Bookmark,
                        &format!("{label}'s Import makes a keyword search a search engine, not a bookmark, and skips one with post data"),
                    );
                    continue;
                }
                if refused {
                    loss.record_destination(
                        doc,
                        Some(id),
                        Field::Bookmark,
                        &format!("{label}'s Import drops a bookmark whose link it cannot take"),
                    );
                    continue;
                }
                if link.as_deref() != Some(b.href.as_str()) {
                    loss.record_destination(
                        doc,
                        Some(id),
                        Field::BookmarkHref,
                        &format!("{label} rewrites the link in its normal form"),
                    );
                }
                if let Some(why) = chromium_title(b.title.as_deref(), label) {
                    loss.record_destination(doc, Some(id), Field::BookmarkTitle, &why);
                }
                if unreadable(b.added.as_ref()) || b.details().firefox().feed_url.is_some() {
                    loss.record_destination(
                        doc,
                        Some(id),
                        Field::BookmarkAdded,
                        &format!("{label} dates a bookmark by the import when it cannot read its date or it is a feed"),
                    );
                }
                &[
                    Field::BookmarkDesc,
                    Field::BookmarkId,
                    Field::BookmarkModified,
                    Field::BookmarkVisited,
                    Field::BookmarkFavicon,
                    Field::BookmarkFaviconUri,
                    Field::BookmarkTags,
                    Field::BookmarkKeyword,
                    Field::BookmarkPostData,
                    Field::BookmarkFeedUrl,
                    Field::BookmarkCharset,
                    Field::BookmarkPrivate,
                    Field::BookmarkToRead,
                    Field::BookmarkExtra,
                ]
            }
            Node::Folder(f) => {
                if !holds.contains(&id) && Some(id) != bar {
                    let why = format!("{label}'s Import makes only folders that hold a bookmark");
                    if Some(top) == bar {
                        loss.record_destination(doc, Some(id), Field::Folder, &why);
                    }
                    if f.title.as_deref().is_some_and(|t| !t.is_empty()) {
                        loss.record_destination(doc, Some(id), Field::FolderTitle, &why);
                    }
                }
                if let Some(why) = chromium_title(f.title.as_deref(), label) {
                    loss.record_destination(doc, Some(id), Field::FolderTitle, &why);
                }
                if f.role.is_some() {
                    loss.record_destination(
                        doc,
                        Some(id),
                        Field::FolderRole,
                        &format!("{label} keeps only its own roots"),
                    );
                }
                &[
                    Field::FolderDesc,
                    Field::FolderId,
                    Field::FolderAdded,
                    Field::FolderModified,
                    Field::FolderFolded,
                    Field::FolderExtra,
                ]
            }
            Node::Separator(_) => &[Field::Separator],
            Node::Alias(_) => &[Field::Alias],
            _ => &[],
        };
        for &field in fields {
            if present(field, Some(node), doc) {
                loss.record_destination(doc, Some(id), field, &drops);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::{Bookmark, Folder, Separator};

    fn sample() -> Document {
        let mut doc = Document::new();
        let mut bar = Folder::new();
        bar.title = Some("BookmarksBar".into());
        bar.role = Some(Role::Toolbar);
        let bar = doc.push(None, bar);
        let mut b = Bookmark::new("https://Example.org");
        b.title = Some(" Padded ".into());
        b.desc = Some("a note".into());
        b.tags = vec!["b".into(), "a".into()];
        doc.push(Some(bar), b);
        let mut rl = Folder::new();
        rl.title = Some("com.apple.ReadingList".into());
        rl.role = Some(Role::ReadingList);
        let rl = doc.push(None, rl);
        doc.push(Some(rl), Bookmark::new("https://example.net/"));
        doc.push(None, Separator::new());
        doc
    }

    fn count(loss: &LossReport, field: Field) -> usize {
        loss.destination
            .iter()
            .filter(|e| e.field == field)
            .map(|e| e.count)
            .sum()
    }

    #[test]
    fn every_destination_has_a_writable_format_and_a_line_to_import_it() {
        let mut names = HashSet::new();
        for d in DESTINATIONS {
            assert!(names.insert(d.name), "{} twice", d.name);
            if crate::format(d.format).is_none() {
                // Not in this build: not offered either.
                assert!(destination(d.name).is_none(), "{}", d.name);
                continue;
            }
            assert!(
                d.format().writer().is_ok(),
                "{}: {} is not written",
                d.name,
                d.format
            );
            assert!(!d.how.is_empty() && !d.how.contains('\n'), "{}", d.name);
            if let Some(same) = d.same_import_as {
                let other = destination(same).expect("named destination exists");
                assert_eq!(other.format, d.format, "{} imports as {same}", d.name);
            }
        }
        for want in [
            "firefox",
            "chrome",
            "chromium",
            "edge",
            "brave",
            "vivaldi",
            "opera",
            "safari",
            "gnome",
            "kde",
            "karakeep",
            "linkwarden",
            "linkding",
            "raindrop",
            "pinboard",
            "buku",
        ] {
            assert!(DESTINATIONS.iter().any(|d| d.name == want), "{want}");
        }
        assert_eq!(destination(" Firefox ").map(|d| d.name), Some("firefox"));
        let format_of = |name: &str| DESTINATIONS.iter().find(|d| d.name == name).unwrap().format;
        assert_eq!(format_of("gnome"), "desktop");
        assert_eq!(format_of("kde"), "xbel");
    }

    #[test]
    fn for_chromium_a_line_break_in_a_title_is_written_as_a_space_and_said() {
        let netscape = crate::format("netscape").unwrap();
        let xbel = crate::format("xbel").unwrap();
        let lines = || {
            let mut doc = Document::new();
            let mut f = Folder::new();
            f.title = Some("Two\nlines".into());
            let f = doc.push(None, f);
            let mut b = Bookmark::new("https://example.org/");
            b.title = Some("first\r\nsecond\rthird".into());
            doc.push(Some(f), b);
            doc
        };
        let titles = |doc: &Document| -> Vec<String> {
            doc.preorder()
                .filter_map(|id| match doc.node(id) {
                    Node::Folder(f) => f.title.clone(),
                    Node::Bookmark(b) => b.title.clone(),
                    _ => None,
                })
                .collect()
        };
        for name in ["chrome", "chromium", "edge", "brave"] {
            let Some(dest) = destination(name) else {
                continue;
            };
            let mut doc = lines();
            let mut loss = LossReport::new();
            dest.shape_titles(&mut doc, netscape, &mut loss);
            assert_eq!(titles(&doc), ["Two lines", "first second third"], "{name}");
            let mut said: Vec<_> = loss.changes.iter().map(|c| (c.field, c.count)).collect();
            said.sort();
            let mut want = [(Field::FolderTitle, 1), (Field::BookmarkTitle, 1)];
            want.sort();
            assert_eq!(said, want, "{name}");
            let bookmark = loss
                .changes
                .iter()
                .find(|c| c.field == Field::BookmarkTitle);
            assert_eq!(bookmark.unwrap().paths, ["Two lines/first second third"]);
            assert!(
                dest.report(&doc, netscape)
                    .destination
                    .iter()
                    .all(|e| e.field != Field::BookmarkTitle),
                "{name}: a title on one line is shown as written"
            );
            let mut kept = lines();
            dest.shape_titles(&mut kept, xbel, &mut LossReport::new());
            assert_eq!(kept, lines(), "{name}: XBEL keeps the line breaks");
        }
        let mut kept = lines();
        let mut loss = LossReport::new();
        destination("firefox")
            .unwrap()
            .shape_titles(&mut kept, netscape, &mut loss);
        assert_eq!(kept, lines(), "Firefox's import keeps line breaks");
        assert!(loss.changes.is_empty());
    }

    #[test]
    fn a_browser_shows_its_own_names_for_the_role_folders_and_xbel_keeps_them() {
        let netscape = crate::format("netscape").unwrap();
        let xbel = crate::format("xbel").unwrap();
        for (name, bar) in [
            ("firefox", "Bookmarks Toolbar"),
            ("safari", "Favorites"),
            ("edge", "Favorites bar"),
        ] {
            let mut doc = sample();
            let mut loss = LossReport::new();
            destination(name)
                .unwrap()
                .name_roles(&mut doc, netscape, &mut loss);
            let titles: Vec<_> = doc
                .preorder()
                .filter_map(|id| doc.node(id).as_folder().and_then(|f| f.title.clone()))
                .collect();
            assert_eq!(titles, [bar, "Reading List"], "{name}");
            assert_eq!(loss.changes[0].count, 2);
            let mut kept = sample();
            destination(name)
                .unwrap()
                .name_roles(&mut kept, xbel, &mut LossReport::new());
            assert_eq!(kept, sample(), "{name}: XBEL keeps titles as read");
        }
    }

    #[test]
    #[cfg(feature = "firefox")]
    fn firefox_reports_what_its_html_import_drops_and_nothing_for_another_format() {
        let doc = sample();
        let ff = destination("firefox").unwrap();
        let loss = ff.report(&doc, crate::format("netscape").unwrap());
        assert_eq!(count(&loss, Field::BookmarkDesc), 1);
        assert_eq!(count(&loss, Field::BookmarkTags), 1, "sorted");
        // One trimmed, one untitled (its link becomes its title).
        assert_eq!(count(&loss, Field::BookmarkTitle), 2);
        assert_eq!(
            count(&loss, Field::BookmarkHref),
            1,
            "https://Example.org -> https://example.org/"
        );
        // The reading list (with its bookmark) and the separator are not in
        // a Firefox root: they end up in the Bookmarks Menu.
        assert_eq!(count(&loss, Field::Folder), 3);
        assert!(ff
            .report(&doc, crate::format("firefox").unwrap())
            .destination
            .is_empty());
    }

    #[test]
    fn a_service_without_folders_reports_each_bookmark_in_one() {
        let doc = sample();
        let loss = destination("linkding")
            .unwrap()
            .report(&doc, crate::format("netscape").unwrap());
        // Two bookmarks inside folders, two folders, one separator.
        assert_eq!(count(&loss, Field::Folder), 4);
        assert_eq!(count(&loss, Field::Separator), 1);
        assert_eq!(count(&loss, Field::BookmarkTitle), 1, "trimmed");
        assert_eq!(count(&loss, Field::BookmarkDesc), 0, "linkding keeps DD");
        let karakeep = destination("karakeep")
            .unwrap()
            .report(&doc, crate::format("netscape").unwrap());
        assert_eq!(
            count(&karakeep, Field::BookmarkDesc),
            1,
            "Karakeep drops DD"
        );
        assert_eq!(count(&karakeep, Field::Folder), 0, "folders become lists");
    }

    #[test]
    fn chromium_refuses_firefox_queries() {
        let mut doc = Document::new();
        doc.push(None, Bookmark::new("place:sort=8&maxResults=10"));
        doc.push(None, Bookmark::new("https://example.org/"));
        let loss = destination("chrome")
            .unwrap()
            .report(&doc, crate::format("netscape").unwrap());
        assert_eq!(count(&loss, Field::Bookmark), 1);
    }
}
