//! Names of pages: folder slugs (readable, unique, lower case so that
//! case-insensitive file systems keep them apart) and the paths of tag
//! pages (the tag itself, so a rel-tag link's last segment is the tag).

use std::collections::{HashMap, HashSet};

/// The longest slug base, in characters (a file name stays far below 255 bytes).
const MAX_SLUG_CHARS: usize = 48;

/// Folder slugs, handed out in document order: the same document always
/// gets the same slugs. Each costs one hash lookup (plus one per earlier
/// folder with the same base), so 100,000 folders are linear.
#[derive(Default)]
pub(crate) struct Slugs {
    used: HashSet<String>,
    next: HashMap<String, usize>,
}

impl Slugs {
    pub(crate) fn new() -> Slugs {
        let mut s = Slugs::default();
        // The collection root's own page.
        s.used.insert("index".into());
        s
    }

    /// A slug for a folder titled `title`, not given out before.
    pub(crate) fn slug(&mut self, title: &str) -> String {
        let base = base(title);
        if self.used.insert(base.clone()) {
            return base;
        }
        let n = self.next.entry(base.clone()).or_insert(1);
        loop {
            *n += 1;
            let candidate = format!("{base}_{n}");
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

/// Letters and digits (any script) kept, lower-cased; every other run of
/// characters one `-`. A trailing `-DIGITS` (the form of a folder's later
/// pages, `slug-2.html`) becomes `_DIGITS`.
fn base(title: &str) -> String {
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
        s.push_str("folder");
    }
    if let Some(dash) = s.rfind('-') {
        if s[dash + 1..].bytes().all(|b| b.is_ascii_digit()) {
            s.replace_range(dash..=dash, "_");
        }
    }
    s
}

/// The directory of a tag's pages under `tags/`, as path components: the
/// tag itself, split at `/` as web servers split a decoded `%2F`. `None`
/// when the tag cannot be a directory name (an empty, `.` or `..`
/// component, one too long for a file name, one that names a page of
/// another tag, or characters no file name holds).
pub(crate) fn tag_dir(tag: &str) -> Option<Vec<&str>> {
    let parts: Vec<&str> = tag.split('/').collect();
    let ok = parts.iter().all(|p| {
        !p.is_empty()
            && *p != "."
            && *p != ".."
            && p.len() <= 200
            && !(p.starts_with("index") && p.ends_with(".html"))
            && !p.contains(['\0', '\\'])
            && !p.contains(markport_xfolk::entry::unwritable)
    });
    ok.then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_readable_and_unique() {
        let mut s = Slugs::new();
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
        assert!(s.slug(&"x".repeat(10_000)).chars().count() <= MAX_SLUG_CHARS);
    }

    #[test]
    fn a_hundred_thousand_equal_titles_get_distinct_slugs() {
        let mut s = Slugs::new();
        let all: HashSet<String> = (0..100_000).map(|_| s.slug("Same")).collect();
        assert_eq!(all.len(), 100_000);
    }

    #[test]
    fn tag_directories() {
        assert_eq!(tag_dir("New York"), Some(vec!["New York"]));
        assert_eq!(tag_dir("x/y"), Some(vec!["x", "y"]));
        for bad in [
            "",
            ".",
            "..",
            "a//b",
            "/a",
            "a/",
            "index.html",
            "a/index-2.html",
        ] {
            assert_eq!(tag_dir(bad), None, "{bad:?}");
        }
    }
}
