//! The browser profiles on this machine and their bookmark files: the
//! Chromium family's `Bookmarks` under the XDG config directory
//! (`$XDG_CONFIG_HOME`, by default `~/.config`), Firefox's `places.sqlite`
//! from `profiles.ini` (`~/.mozilla/firefox`, the XDG config directory's
//! `mozilla/firefox` that Firefox 147 and later use on a fresh install, and
//! the snap and flatpak locations), Safari's `~/Library/Safari/Bookmarks.plist`
//! (looked for on macOS, and anywhere that directory exists, such as a
//! copied store). Three browsers keep what their users treat as bookmarks
//! elsewhere, and are found there on each system: Arc's sidebar
//! (`StorableSidebar.json`: macOS's `~/Library/Application Support/Arc`,
//! Windows' `AppData/Local/Packages/TheBrowserCompany.Arc_*/LocalCache/Local/Arc`),
//! Edge's Collections (each Edge profile's `Collections/collectionsSQLite`:
//! `microsoft-edge` in the XDG config directory, macOS's `Library/Application
//! Support/Microsoft Edge`, Windows' `AppData/Local/Microsoft/Edge/User Data`)
//! and Zen's sessions (`zen-sessions.jsonlz4`, else `sessionstore.jsonlz4`, in
//! each profile of `profiles.ini`: `~/.zen`, its flatpak's, macOS's
//! `Library/Application Support/zen`, Windows' `AppData/Roaming/zen`). A
//! place of another system than this one is looked at only where it
//! exists (a home copied from it). [`search`] also says every place it
//! looked, found or not.
//!
//! ```
//! let home = tempfile::tempdir().unwrap();
//! let profile = home.path().join(".config/chromium/Default");
//! std::fs::create_dir_all(&profile).unwrap();
//! std::fs::write(profile.join("Bookmarks"), "{}").unwrap();
//! let found = markport::profiles::find(home.path());
//! assert_eq!((found[0].browser, found[0].profile.as_str()), ("chromium", "Default"));
//! ```

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::registry::format;

/// One browser profile with a bookmark file.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Profile {
    /// The browser: `firefox`, `google-chrome`, `chromium`, `microsoft-edge`,
    /// `brave`, `vivaldi`, `opera`, `safari`; `arc`, `edge-collections`
    /// and `zen` for the stores of those browsers that are not bookmark
    /// files (Arc's sidebar, Edge's Collections, Zen's pinned tabs).
    pub browser: &'static str,
    /// How it is installed when that changes where it keeps profiles:
    /// `snap`, `flatpak`; the system whose layout the place is, when it is
    /// not the usual one: `macos`, `windows`; `None` for the usual place.
    pub variant: Option<&'static str>,
    /// The profile's name (Firefox: `Name=` in profiles.ini; Chromium: its
    /// directory, `Default`, `Profile 1`, ...).
    pub profile: String,
    /// The bookmark file.
    pub path: PathBuf,
    /// The markport format that reads it (`places`, `chromium`, `safari`).
    pub format: &'static str,
    /// Whether this is the browser's default profile.
    pub default: bool,
    /// How many bookmarks it holds, when markport could read it.
    pub bookmarks: Option<usize>,
    /// Why it could not be counted.
    pub error: Option<String>,
}

/// What a browser's directory is relative to.
#[derive(Clone, Copy)]
enum Base {
    /// `$HOME`.
    Home,
    /// The XDG config directory (`$XDG_CONFIG_HOME`, by default `~/.config`).
    Config,
}

/// Chromium-family browsers: name, variant, and config directory.
const CHROMIUM: &[(&str, Option<&str>, Base, &str)] = &[
    ("google-chrome", None, Base::Config, "google-chrome"),
    ("chromium", None, Base::Config, "chromium"),
    (
        "chromium",
        Some("snap"),
        Base::Home,
        "snap/chromium/common/chromium",
    ),
    ("microsoft-edge", None, Base::Config, "microsoft-edge"),
    ("brave", None, Base::Config, "BraveSoftware/Brave-Browser"),
    ("vivaldi", None, Base::Config, "vivaldi"),
    ("opera", None, Base::Config, "opera"),
];

/// Firefox's profile directories (holding profiles.ini). The older place
/// first: Firefox keeps using `~/.mozilla` where it exists.
const FIREFOX: &[(Option<&str>, Base, &str)] = &[
    (None, Base::Home, ".mozilla/firefox"),
    (None, Base::Config, "mozilla/firefox"),
    (
        Some("snap"),
        Base::Home,
        "snap/firefox/common/.mozilla/firefox",
    ),
    (
        Some("flatpak"),
        Base::Home,
        ".var/app/org.mozilla.firefox/.mozilla/firefox",
    ),
    (
        Some("flatpak"),
        Base::Home,
        ".var/app/org.mozilla.firefox/config/mozilla/firefox",
    ),
];

/// Safari's directory under `$HOME`. Safari exists on macOS only, so it is
/// looked for there, and elsewhere only when the directory exists (a store
/// copied from a Mac keeps its place under a home).
const SAFARI: &str = "Library/Safari";

/// Whether a place is the usual one on this system, or one kept on
/// another system (looked at only where it exists).
#[derive(Clone, Copy, PartialEq)]
enum System {
    Linux,
    MacOs,
    Windows,
}

impl System {
    fn here(self) -> bool {
        match self {
            System::Linux => !cfg!(any(target_os = "macos", windows)),
            System::MacOs => cfg!(target_os = "macos"),
            System::Windows => cfg!(windows),
        }
    }

    /// The variant a profile found there is listed with.
    fn variant(self, usual: Option<&'static str>) -> Option<&'static str> {
        match self {
            _ if usual.is_some() => usual,
            System::Linux => None,
            System::MacOs => Some("macos"),
            System::Windows => Some("windows"),
        }
    }
}

/// Arc's directory under `$HOME` on macOS; on Windows it is the one
/// directory of [`ARC_WINDOWS`] whose name starts with [`ARC_PACKAGE`].
const ARC_MACOS: &str = "Library/Application Support/Arc";
/// Where Windows keeps Arc's package directory, under `$HOME`.
const ARC_WINDOWS: &str = "AppData/Local/Packages";
/// The start of the name of Arc's package directory (a hash follows).
const ARC_PACKAGE: &str = "TheBrowserCompany.Arc";
/// Arc's directory inside its package directory.
const ARC_IN_PACKAGE: &str = "LocalCache/Local/Arc";
/// Arc's sidebar file.
const ARC_FILE: &str = "StorableSidebar.json";

/// Edge's user-data directories: system, base, directory.
const EDGE: &[(System, Base, &str)] = &[
    (System::Linux, Base::Config, "microsoft-edge"),
    (
        System::MacOs,
        Base::Home,
        "Library/Application Support/Microsoft Edge",
    ),
    (
        System::Windows,
        Base::Home,
        "AppData/Local/Microsoft/Edge/User Data",
    ),
];
/// The Collections database in an Edge profile.
const EDGE_COLLECTIONS: &str = "Collections/collectionsSQLite";

/// Zen's profile directories (holding profiles.ini): system, variant,
/// directory under `$HOME`.
const ZEN: &[(System, Option<&str>, &str)] = &[
    (System::Linux, None, ".zen"),
    (
        System::Linux,
        Some("flatpak"),
        ".var/app/app.zen_browser.zen/.zen",
    ),
    (System::MacOs, None, "Library/Application Support/zen"),
    (System::Windows, None, "AppData/Roaming/zen"),
];
/// Zen's session files in a profile, the newer first: pinned tabs and
/// workspaces moved to `zen-sessions.jsonlz4`.
const ZEN_FILES: [&str; 2] = ["zen-sessions.jsonlz4", "sessionstore.jsonlz4"];

/// One place [`search`] looked for a browser's profiles.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Looked {
    /// The browser, as in [`Profile::browser`].
    pub browser: &'static str,
    /// How it is installed, as in [`Profile::variant`].
    pub variant: Option<&'static str>,
    /// The directory looked in.
    pub dir: PathBuf,
    /// Whether the directory exists.
    pub exists: bool,
    /// How many profiles with a bookmark file it holds.
    pub profiles: usize,
}

/// What [`search`] found, and everywhere it looked.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Search {
    /// Every profile found, Firefox first, each browser's default first.
    pub profiles: Vec<Profile>,
    /// Every directory looked in, found or not, in the order looked.
    pub looked: Vec<Looked>,
}

/// The XDG config directory: `xdg_config_home` (the value of
/// `$XDG_CONFIG_HOME`) when it is an absolute path, else `home/.config`
/// (the XDG Base Directory rule: unset, empty or relative is ignored).
///
/// ```
/// use std::path::Path;
/// use markport::profiles::config_home;
///
/// let home = Path::new("/home/me");
/// assert_eq!(config_home(home, None), Path::new("/home/me/.config"));
/// assert_eq!(config_home(home, Some("/cfg".as_ref())), Path::new("/cfg"));
/// assert_eq!(config_home(home, Some("cfg".as_ref())), Path::new("/home/me/.config"));
/// ```
pub fn config_home(home: &Path, xdg_config_home: Option<&std::ffi::OsStr>) -> PathBuf {
    match xdg_config_home.map(Path::new) {
        Some(dir) if dir.is_absolute() => dir.to_path_buf(),
        _ => home.join(".config"),
    }
}

/// Other names `--path` accepts for a browser.
const ALIASES: &[(&str, &str)] = &[
    ("chrome", "google-chrome"),
    ("edge", "microsoft-edge"),
    ("brave-browser", "brave"),
];

/// The browser a name means (`chrome` is `google-chrome`).
pub fn browser_name(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
        .map_or(name, |(_, browser)| browser)
}

/// Every profile under `home` (the XDG config directory taken as
/// `home/.config`), Firefox first, each browser's default first; bookmarks
/// are counted by reading each file as its format (a format not registered
/// yet is said in `error`). [`search`] takes the config directory and says
/// where it looked.
pub fn find(home: &Path) -> Vec<Profile> {
    search(home, &home.join(".config")).profiles
}

/// Every profile under `home` and `config` (the XDG config directory, see
/// [`config_home`]), as [`find`], and every directory looked in.
///
/// ```
/// let home = tempfile::tempdir().unwrap();
/// let config = tempfile::tempdir().unwrap();
/// let profile = config.path().join("chromium/Default");
/// std::fs::create_dir_all(&profile).unwrap();
/// std::fs::write(profile.join("Bookmarks"), "{}").unwrap();
/// let found = markport::profiles::search(home.path(), config.path());
/// assert_eq!(found.profiles[0].path, profile.join("Bookmarks"));
/// let chromium = found.looked.iter().find(|l| l.dir == config.path().join("chromium")).unwrap();
/// assert_eq!((chromium.exists, chromium.profiles), (true, 1));
/// assert!(found.looked.iter().any(|l| l.dir == config.path().join("mozilla/firefox") && !l.exists));
/// ```
pub fn search(home: &Path, config: &Path) -> Search {
    let base = |b: Base| match b {
        Base::Home => home,
        Base::Config => config,
    };
    let mut profiles = Vec::new();
    let mut looked = Vec::new();
    let mut look = |browser, variant, dir: PathBuf, found: Vec<Profile>| {
        looked.push(Looked {
            browser,
            variant,
            exists: dir.is_dir(),
            dir,
            profiles: found.len(),
        });
        profiles.extend(found);
    };
    for (variant, b, dir) in FIREFOX {
        let dir = base(*b).join(dir);
        let found = mozilla(&dir, "firefox", *variant, places_file);
        look("firefox", *variant, dir, found);
    }
    for (browser, variant, b, dir) in CHROMIUM {
        let dir = base(*b).join(dir);
        let found = chromium(browser, *variant, &dir);
        look(browser, *variant, dir, found);
    }
    for (system, b, dir) in EDGE {
        let dir = base(*b).join(dir);
        if system.here() || dir.is_dir() {
            let variant = system.variant(None);
            let found = profile_dirs("edge-collections", variant, &dir, EDGE_COLLECTIONS, "edge");
            look("edge-collections", variant, dir, found);
        }
    }
    for dir in arc_dirs(home) {
        let found = arc(&dir.0, dir.1);
        look("arc", dir.1, dir.0, found);
    }
    for (system, variant, dir) in ZEN {
        let dir = home.join(dir);
        if system.here() || dir.is_dir() {
            let variant = system.variant(*variant);
            let found = mozilla(&dir, "zen", variant, zen_file);
            look("zen", variant, dir, found);
        }
    }
    let safari_dir = home.join(SAFARI);
    if cfg!(target_os = "macos") || safari_dir.is_dir() {
        let found = safari(&safari_dir);
        look("safari", None, safari_dir, found);
    }
    for p in &mut profiles {
        count(p);
    }
    Search { profiles, looked }
}

/// The default profile of `browser` (or an alias) among `profiles`, else
/// its first one.
pub fn default_for<'a>(profiles: &'a [Profile], browser: &str) -> Option<&'a Profile> {
    let browser = browser_name(browser);
    let mine = || {
        profiles
            .iter()
            .filter(|p| p.browser.eq_ignore_ascii_case(browser))
    };
    mine().find(|p| p.default).or_else(|| mine().next())
}

fn count(p: &mut Profile) {
    let Some(f) = format(p.format) else {
        p.error = Some(format!("unknown format {}", p.format));
        return;
    };
    match crate::read(p.path.as_path(), Some(f), &Default::default()) {
        Ok(read) => p.bookmarks = Some(read.document.census().bookmarks),
        Err(e) => p.error = Some(e.error.message),
    }
}

fn chromium(browser: &'static str, variant: Option<&'static str>, dir: &Path) -> Vec<Profile> {
    profile_dirs(browser, variant, dir, "Bookmarks", "chromium")
}

/// The profiles of a Chromium-family user-data directory `dir` that hold
/// the file `file` (a path relative to the profile), read as `format`.
fn profile_dirs(
    browser: &'static str,
    variant: Option<&'static str>,
    dir: &Path,
    file: &str,
    format: &'static str,
) -> Vec<Profile> {
    let mut out = Vec::new();
    let profile = |name: String, path: PathBuf, default: bool| Profile {
        browser,
        variant,
        profile: name,
        path,
        format,
        default,
        bookmarks: None,
        error: None,
    };
    // Opera keeps its one profile in the config directory itself.
    if dir.join(file).is_file() {
        out.push(profile("Default".into(), dir.join(file), true));
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut dirs: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(_, p)| p.join(file).is_file())
        .collect();
    dirs.sort_by(|a, b| (a.0 != "Default", &a.0).cmp(&(b.0 != "Default", &b.0)));
    for (name, path) in dirs {
        let default = name == "Default" && out.is_empty();
        out.push(profile(name, path.join(file), default));
    }
    out
}

/// Arc's directories to look in, with the variant a profile found there
/// is listed with: macOS's, and Windows' package directories (each one
/// whose name starts with [`ARC_PACKAGE`]), each where it is this
/// system's or exists.
fn arc_dirs(home: &Path) -> Vec<(PathBuf, Option<&'static str>)> {
    let mut out = Vec::new();
    let mac = home.join(ARC_MACOS);
    if System::MacOs.here() || mac.is_dir() {
        out.push((mac, System::MacOs.variant(None)));
    }
    let packages = home.join(ARC_WINDOWS);
    let mut found: Vec<PathBuf> = std::fs::read_dir(&packages)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(ARC_PACKAGE))
        .map(|e| e.path().join(ARC_IN_PACKAGE))
        .collect();
    found.sort();
    if found.is_empty() && System::Windows.here() {
        found.push(
            packages
                .join(format!("{ARC_PACKAGE}_*"))
                .join(ARC_IN_PACKAGE),
        );
    }
    out.extend(
        found
            .into_iter()
            .map(|d| (d, System::Windows.variant(None))),
    );
    out
}

/// Arc's one sidebar file in its directory.
fn arc(dir: &Path, variant: Option<&'static str>) -> Vec<Profile> {
    let path = dir.join(ARC_FILE);
    if !path.is_file() {
        return Vec::new();
    }
    vec![Profile {
        browser: "arc",
        variant,
        profile: "Default".into(),
        path,
        format: "arc",
        default: true,
        bookmarks: None,
        error: None,
    }]
}

/// A Zen profile's session file: the newer `zen-sessions.jsonlz4`, else
/// `sessionstore.jsonlz4`.
fn zen_file(profile: &Path) -> Option<(PathBuf, &'static str)> {
    ZEN_FILES
        .iter()
        .map(|f| profile.join(f))
        .find(|p| p.is_file())
        .map(|p| (p, "zen"))
}

/// Firefox's `places.sqlite`.
fn places_file(profile: &Path) -> Option<(PathBuf, &'static str)> {
    let places = profile.join("places.sqlite");
    places.is_file().then_some((places, "places"))
}

/// Safari's one store, `Bookmarks.plist`, in its directory.
fn safari(dir: &Path) -> Vec<Profile> {
    let path = dir.join("Bookmarks.plist");
    if !path.is_file() {
        return Vec::new();
    }
    vec![Profile {
        browser: "safari",
        variant: None,
        profile: "Default".into(),
        path,
        format: "safari",
        default: true,
        bookmarks: None,
        error: None,
    }]
}

/// One `[section]` of an ini file: its name and its key=value lines.
type Section = (String, Vec<(String, String)>);

fn ini(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') && line.ends_with(']') {
            out.push((line[1..line.len() - 1].to_string(), Vec::new()));
        } else if let (Some((k, v)), Some(section)) = (line.split_once('='), out.last_mut()) {
            section.1.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

fn get<'a>(section: &'a Section, key: &str) -> Option<&'a str> {
    section
        .1
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// The profiles of a Mozilla-family profiles directory `dir` (its
/// `profiles.ini`) that hold the file `file` finds, with its format.
fn mozilla(
    dir: &Path,
    browser: &'static str,
    variant: Option<&'static str>,
    file: fn(&Path) -> Option<(PathBuf, &'static str)>,
) -> Vec<Profile> {
    let Ok(text) = std::fs::read_to_string(dir.join("profiles.ini")) else {
        return Vec::new();
    };
    let sections = ini(&text);
    // Firefox 67 and later name each installation's default in an
    // [Install...] section; older ones mark a profile Default=1.
    let install_default: Option<&str> = sections
        .iter()
        .filter(|s| s.0.starts_with("Install"))
        .find_map(|s| get(s, "Default"));
    let mut out: Vec<Profile> = Vec::new();
    for s in sections.iter().filter(|s| s.0.starts_with("Profile")) {
        let Some(rel) = get(s, "Path") else { continue };
        let path = if get(s, "IsRelative") == Some("0") {
            PathBuf::from(rel)
        } else {
            dir.join(rel)
        };
        let Some((found, format)) = file(&path) else {
            continue;
        };
        let default = match install_default {
            Some(d) => d == rel,
            None => get(s, "Default") == Some("1"),
        };
        out.push(Profile {
            browser,
            variant,
            profile: get(s, "Name").unwrap_or(rel).to_string(),
            path: found,
            format,
            default,
            bookmarks: None,
            error: None,
        });
    }
    out.sort_by_key(|p| !p.default);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_ini_names_the_default_by_install_section_or_default_flag() {
        let home = tempfile::tempdir().unwrap();
        let ff = home.path().join(".mozilla/firefox");
        for p in ["a.default", "b.default-release", "c.work"] {
            std::fs::create_dir_all(ff.join(p)).unwrap();
            std::fs::write(ff.join(p).join("places.sqlite"), b"").unwrap();
        }
        std::fs::write(
            ff.join("profiles.ini"),
            "[Install4F96D1932A9F858E]\nDefault=b.default-release\nLocked=1\n\n\
             [Profile1]\nName=default\nIsRelative=1\nPath=a.default\nDefault=1\n\n\
             [Profile0]\nName=default-release\nIsRelative=1\nPath=b.default-release\n\n\
             [Profile2]\nName=gone\nIsRelative=1\nPath=missing\n",
        )
        .unwrap();
        let found = mozilla(&ff, "firefox", None, places_file);
        let names: Vec<_> = found
            .iter()
            .map(|p| (p.profile.as_str(), p.default))
            .collect();
        assert_eq!(names, [("default-release", true), ("default", false)]);
        assert_eq!(
            default_for(&found, "firefox").unwrap().profile,
            "default-release"
        );
        assert!(default_for(&found, "chrome").is_none());
    }

    #[test]
    fn arc_edge_collections_and_zen_are_found_where_each_system_keeps_them() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let write = |rel: &str, text: &str| {
            let p = h.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        write("Library/Application Support/Arc/StorableSidebar.json", "{}");
        write(
            "AppData/Local/Packages/TheBrowserCompany.Arc_ttt1ap7aakyb4/LocalCache/Local/Arc/StorableSidebar.json",
            "{}",
        );
        write(
            ".config/microsoft-edge/Default/Collections/collectionsSQLite",
            "",
        );
        write(".config/microsoft-edge/Profile 1/Bookmarks", "{}");
        write(
            ".zen/profiles.ini",
            "[Profile0]\nName=Default (release)\nIsRelative=1\nPath=ab.default\nDefault=1\n\n\
             [Profile1]\nName=old\nIsRelative=1\nPath=cd.old\n",
        );
        write(".zen/ab.default/zen-sessions.jsonlz4", "");
        write(".zen/ab.default/sessionstore.jsonlz4", "");
        write(".zen/cd.old/sessionstore.jsonlz4", "");
        let found = search(h, &h.join(".config")).profiles;
        let got: Vec<(&str, Option<&str>, String, &str)> = found
            .iter()
            .map(|p| {
                let rel = p
                    .path
                    .strip_prefix(h)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (p.browser, p.variant, rel, p.format)
            })
            .collect();
        let has = |browser: &str, rel: &str, format: &str| {
            got.iter()
                .any(|(b, _, r, f)| *b == browser && r == rel && *f == format)
        };
        assert!(
            has(
                "edge-collections",
                ".config/microsoft-edge/Default/Collections/collectionsSQLite",
                "edge"
            ),
            "{got:?}"
        );
        assert!(
            has(
                "microsoft-edge",
                ".config/microsoft-edge/Profile 1/Bookmarks",
                "chromium"
            ),
            "{got:?}"
        );
        assert!(
            has(
                "arc",
                "Library/Application Support/Arc/StorableSidebar.json",
                "arc"
            ),
            "{got:?}"
        );
        assert!(has(
            "arc",
            "AppData/Local/Packages/TheBrowserCompany.Arc_ttt1ap7aakyb4/LocalCache/Local/Arc/StorableSidebar.json",
            "arc"
        ), "{got:?}");
        // The newer session file first, the older where it is alone.
        assert!(
            has("zen", ".zen/ab.default/zen-sessions.jsonlz4", "zen"),
            "{got:?}"
        );
        assert!(
            has("zen", ".zen/cd.old/sessionstore.jsonlz4", "zen"),
            "{got:?}"
        );
        assert_eq!(
            default_for(&found, "zen").unwrap().profile,
            "Default (release)"
        );
        // `edge` still means Edge's bookmarks.
        assert_eq!(default_for(&found, "edge").unwrap().format, "chromium");
    }
}
