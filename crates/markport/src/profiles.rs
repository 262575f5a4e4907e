//! The browser profiles on this machine and their bookmark files: the
//! Chromium family's `Bookmarks` under the XDG config directory
//! (`$XDG_CONFIG_HOME`, by default `~/.config`), Firefox's `places.sqlite`
//! from `profiles.ini` (`~/.mozilla/firefox`, the XDG config directory's
//! `mozilla/firefox` that Firefox 147 and later use on a fresh install, and
//! the snap and flatpak locations), Safari's `~/Library/Safari/Bookmarks.plist`
//! (looked for on macOS, and anywhere that directory exists, such as a
//! copied store). [`search`] also says every place it looked, found or not.
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
    /// `brave`, `vivaldi`, `opera`, `safari`.
    pub browser: &'static str,
    /// How it is installed when that changes where it keeps profiles:
    /// `snap`, `flatpak`; `None` for the usual place.
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
        let found = firefox(&dir, *variant);
        look("firefox", *variant, dir, found);
    }
    for (browser, variant, b, dir) in CHROMIUM {
        let dir = base(*b).join(dir);
        let found = chromium(browser, *variant, &dir);
        look(browser, *variant, dir, found);
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
    let mut out = Vec::new();
    let profile = |name: String, path: PathBuf, default: bool| Profile {
        browser,
        variant,
        profile: name,
        path,
        format: "chromium",
        default,
        bookmarks: None,
        error: None,
    };
    // Opera keeps its one profile in the config directory itself.
    if dir.join("Bookmarks").is_file() {
        out.push(profile("Default".into(), dir.join("Bookmarks"), true));
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut dirs: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(_, p)| p.join("Bookmarks").is_file())
        .collect();
    dirs.sort_by(|a, b| (a.0 != "Default", &a.0).cmp(&(b.0 != "Default", &b.0)));
    for (name, path) in dirs {
        let default = name == "Default" && out.is_empty();
        out.push(profile(name, path.join("Bookmarks"), default));
    }
    out
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

fn firefox(dir: &Path, variant: Option<&'static str>) -> Vec<Profile> {
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
        let places = path.join("places.sqlite");
        if !places.is_file() {
            continue;
        }
        let default = match install_default {
            Some(d) => d == rel,
            None => get(s, "Default") == Some("1"),
        };
        out.push(Profile {
            browser: "firefox",
            variant,
            profile: get(s, "Name").unwrap_or(rel).to_string(),
            path: places,
            format: "places",
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
        let found = firefox(&ff, None);
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
}
