//! Names of pages. Every path a site writes is unique under full Unicode
//! case folding and canonical (NFD) normalisation, so case-insensitive and
//! normalising file systems (macOS, Windows) keep every page apart: `HTML`
//! and `html`, `σ` and `ς`, `s` and `ſ`, `straße` and `STRASSE`, `café`
//! composed and decomposed each get a page of their own.
//!
//! * Folder slugs: readable (letters and digits of any script, lower case),
//!   unique by their [`fold_key`], `_2`, `_3`, ... in document order.
//! * Tag pages: a directory named by a slug of the tag, unique the same way
//!   (`tags/html/`, `tags/html_2/`), holding a directory named by the tag
//!   itself when the tag is a [`portable_name`] (`tags/html_2/HTML/`). A
//!   rel-tag link's last segment is then the tag, percent-encoded, and reads
//!   back exactly; a tag that no file system can hold as a name (a `/`, a
//!   `:`, ...) has its page in the slug's directory, linked as such.

use std::collections::{HashMap, HashSet};

use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};

/// The longest slug base, in characters (a file name stays far below 255 bytes).
const MAX_SLUG_CHARS: usize = 48;

/// The longest tag that is its own directory name, in bytes once
/// decomposed (macOS stores names decomposed; file names end at 255 bytes).
const MAX_TAG_NAME_BYTES: usize = 200;

/// Names Windows keeps for devices, whatever their case or extension.
const WINDOWS_DEVICES: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

fn nfd(s: &str) -> String {
    DecomposingNormalizerBorrowed::new_nfd()
        .normalize(s)
        .into_owned()
}

/// The form two names share when a case-insensitive, normalising file
/// system takes them for one: Unicode's canonical caseless match,
/// NFD(fold(NFD(s))) with full case folding.
pub(crate) fn fold_key(s: &str) -> String {
    nfd(&unicase::UniCase::unicode(nfd(s)).to_folded_case())
}

/// Slugs of one namespace (folder pages, tag directories), handed out in
/// document order: the same document always gets the same slugs. Each
/// costs one hash lookup (plus one per earlier name with the same base), so
/// 100,000 folders are linear.
pub(crate) struct Slugs {
    used: HashSet<String>,
    next: HashMap<String, usize>,
    empty: &'static str,
}

impl Slugs {
    /// Folder slugs (`f/<slug>.html`): `index` is the top level's page.
    pub(crate) fn folders() -> Slugs {
        Slugs::with("folder", &["index"])
    }

    /// Tag directories (`tags/<slug>/`).
    pub(crate) fn tags() -> Slugs {
        Slugs::with("tag", &[])
    }

    fn with(empty: &'static str, taken: &[&str]) -> Slugs {
        let used = taken
            .iter()
            .chain(WINDOWS_DEVICES)
            .map(|s| fold_key(s))
            .collect();
        Slugs {
            used,
            next: HashMap::new(),
            empty,
        }
    }

    /// A slug for `title`, not given out before (under [`fold_key`]).
    pub(crate) fn slug(&mut self, title: &str) -> String {
        let base = base(title, self.empty);
        let key = fold_key(&base);
        if self.used.insert(key.clone()) {
            return base;
        }
        let n = self.next.entry(key.clone()).or_insert(1);
        loop {
            *n += 1;
            // `_` and digits fold and decompose to themselves.
            if self.used.insert(format!("{key}_{n}")) {
                return format!("{base}_{n}");
            }
        }
    }
}

/// Letters and digits (any script) kept, lower-cased; every other run of
/// characters one `-`. A trailing `-DIGITS` (the form of a folder's later
/// pages, `slug-2.html`) becomes `_DIGITS`. The title is composed (NFC)
/// first, so a decomposed accent stays on its letter.
fn base(title: &str, empty: &str) -> String {
    let title = ComposingNormalizerBorrowed::new_nfc().normalize(title);
    let mut s = String::new();
    let mut chars = 0;
    for c in title.chars() {
        if chars >= MAX_SLUG_CHARS {
            break;
        }
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
            chars += 1;
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
            chars += 1;
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    if s.is_empty() {
        s.push_str(empty);
    }
    if let Some(dash) = s.rfind('-') {
        if s[dash + 1..].bytes().all(|b| b.is_ascii_digit()) {
            s.replace_range(dash..=dash, "_");
        }
    }
    s
}

/// Whether `tag` can be a directory name on every common file system (and
/// so the last segment of its link): not empty, `.` or `..`; none of
/// `/ \ : * ? " < > |` or control characters; no trailing dot or space; not
/// a Windows device name; at most [`MAX_TAG_NAME_BYTES`] decomposed.
pub(crate) fn portable_name(tag: &str) -> bool {
    let device = tag
        .split('.')
        .next()
        .map(|stem| stem.trim_end_matches(' ').to_ascii_lowercase())
        .is_some_and(|stem| WINDOWS_DEVICES.contains(&stem.as_str()));
    !tag.is_empty()
        && tag != "."
        && tag != ".."
        && !tag.ends_with(['.', ' '])
        && !tag.contains(|c: char| {
            c.is_control()
                || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
                || markport_xfolk::entry::unwritable(c)
        })
        && !device
        && nfd(tag).len() <= MAX_TAG_NAME_BYTES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_readable_and_unique() {
        let mut s = Slugs::folders();
        assert_eq!(s.slug("Rust & Go!"), "rust-go");
        assert_eq!(s.slug("rust go"), "rust-go_2");
        assert_eq!(s.slug("RUST-GO"), "rust-go_3");
        assert_eq!(s.slug("Café Zürich"), "café-zürich");
        assert_eq!(s.slug("日本語 ページ"), "日本語-ページ");
        assert_eq!(s.slug("!!!"), "folder");
        assert_eq!(s.slug(""), "folder_2");
        assert_eq!(s.slug("Index"), "index_2");
        assert_eq!(s.slug("Chapter 2"), "chapter_2");
        assert_eq!(s.slug("chapter"), "chapter");
        assert_eq!(s.slug("chapter"), "chapter_3");
        assert_eq!(s.slug("CON"), "con_2");
        assert!(s.slug(&"x".repeat(10_000)).chars().count() <= MAX_SLUG_CHARS);
    }

    #[test]
    fn slugs_differ_under_case_folding_and_normalisation() {
        let mut s = Slugs::folders();
        assert_eq!(s.slug("σοφία"), "σοφία");
        assert_eq!(s.slug("ςοφία"), "ςοφία_2");
        assert_eq!(s.slug("sun"), "sun");
        assert_eq!(s.slug("ſun"), "ſun_2");
        assert_eq!(s.slug("Straße"), "straße");
        assert_eq!(s.slug("STRASSE"), "strasse_2");
        assert_eq!(s.slug("caf\u{E9}"), "caf\u{E9}");
        assert_eq!(s.slug("cafe\u{301}"), "caf\u{E9}_2");
    }

    #[test]
    fn a_hundred_thousand_equal_titles_get_distinct_slugs() {
        let mut s = Slugs::folders();
        let all: HashSet<String> = (0..100_000).map(|_| s.slug("Same")).collect();
        assert_eq!(all.len(), 100_000);
    }

    #[test]
    fn portable_tag_names() {
        for good in [
            "New York",
            "C++",
            "50%",
            "日本",
            "index.html",
            "a.b",
            "rust",
        ] {
            assert!(portable_name(good), "{good:?}");
        }
        let long = "x".repeat(MAX_TAG_NAME_BYTES + 1);
        for bad in [
            "", ".", "..", "a/b", "a\\b", "via:me", "what?", "trail.", "trail ", "con", "Nul.txt",
            "a\tb", &long,
        ] {
            assert!(!portable_name(bad), "{bad:?}");
        }
    }
}
