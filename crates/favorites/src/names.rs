//! File and directory names that every system can hold: Windows (NTFS and
//! FAT), macOS (APFS, HFS+) and Linux alike.
//!
//! A name loses the characters Windows forbids (`/ \ : * ? " < > |` and
//! control characters, each replaced by `_`) and its trailing dots and
//! spaces (Windows drops them); a Windows device name (`CON`, `nul.txt`,
//! `COM1`, ...) gets a `_`; a long name is cut at a character boundary so
//! that the name and its extension stay under 255 bytes decomposed (macOS
//! stores names decomposed); and two names a case-insensitive, normalising
//! file system takes for one (`Rust` and `rust`, `é` composed and
//! decomposed) are told apart by ` (2)`, ` (3)`, ... Each change is the
//! writer's to report: the title comes back as the name.

use std::collections::{HashMap, HashSet};

use icu_normalizer::DecomposingNormalizerBorrowed;

/// Names Windows keeps for devices, whatever their case or extension.
const WINDOWS_DEVICES: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// The most bytes a name's stem keeps, decomposed: 255 less room for a
/// ` (123456)` suffix and an extension.
const MAX_STEM_BYTES: usize = 230;

fn nfd(s: &str) -> String {
    DecomposingNormalizerBorrowed::new_nfd()
        .normalize(s)
        .into_owned()
}

/// The form two names share when a case-insensitive, normalising file
/// system takes them for one: NFD(fold(NFD(s))), full case folding.
fn fold_key(s: &str) -> String {
    nfd(&unicase::UniCase::unicode(nfd(s)).to_folded_case())
}

/// `wanted` as a name any system holds (see the module documentation),
/// before uniqueness; `fallback` when nothing is left of it.
pub(crate) fn safe(wanted: &str, fallback: &str) -> String {
    let mut name: String = wanted
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    // Cut first, then trim: a cut can leave a trailing space.
    if nfd(&name).len() > MAX_STEM_BYTES {
        let mut cut = String::new();
        let mut bytes = 0;
        for c in name.chars() {
            let len = nfd(c.encode_utf8(&mut [0; 4])).len();
            if bytes + len > MAX_STEM_BYTES {
                break;
            }
            bytes += len;
            cut.push(c);
        }
        name = cut;
    }
    let kept = name.trim_end_matches(['.', ' ']).len();
    name.truncate(kept);
    if name.is_empty() {
        name = fallback.to_owned();
    }
    let base = name.split('.').next().unwrap_or_default().trim_end();
    if WINDOWS_DEVICES.iter().any(|d| base.eq_ignore_ascii_case(d)) {
        name.insert(base.len(), '_');
    }
    name
}

/// The names taken in one directory, each handed out once.
#[derive(Default)]
pub(crate) struct Names {
    taken: HashSet<String>,
    /// The next suffix to try for a base, so many equal titles stay linear.
    next: HashMap<String, u64>,
}

impl Names {
    /// Take `name` (e.g. the marker file) so that nothing else gets it.
    pub(crate) fn reserve(&mut self, name: &str) {
        self.taken.insert(fold_key(name));
    }

    /// Take `stem` + `ext` as it is, if no earlier name equals it on a
    /// case-insensitive, normalising file system; whether it was taken.
    pub(crate) fn claim(&mut self, stem: &str, ext: &str) -> bool {
        self.taken.insert(fold_key(&format!("{stem}{ext}")))
    }

    /// A name for `stem` + `ext` (`ext` with its dot, or empty) that no
    /// earlier one of this directory equals on a case-insensitive,
    /// normalising file system; returns the stem used.
    pub(crate) fn unique(&mut self, stem: &str, ext: &str) -> String {
        let key = fold_key(&format!("{stem}{ext}"));
        if self.taken.insert(key.clone()) {
            return stem.to_owned();
        }
        let mut n = self.next.get(&key).copied().unwrap_or(2);
        loop {
            let candidate = format!("{stem} ({n})");
            n += 1;
            if self.taken.insert(fold_key(&format!("{candidate}{ext}"))) {
                self.next.insert(key, n);
                return candidate;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_characters_devices_dots_and_length() {
        assert_eq!(
            safe("a/b\\c:d*e?f\"g<h>i|j\u{1}", "x"),
            "a_b_c_d_e_f_g_h_i_j_"
        );
        assert_eq!(safe("Notes. . ", "x"), "Notes");
        assert_eq!(safe("...", "Untitled"), "Untitled");
        assert_eq!(safe("CON", "x"), "CON_");
        assert_eq!(safe("nul.txt", "x"), "nul_.txt");
        assert_eq!(safe("console", "x"), "console");
        let long = "é".repeat(300);
        let cut = safe(&long, "x");
        assert_eq!(
            cut.chars().count(),
            MAX_STEM_BYTES / 3,
            "é is 3 bytes decomposed"
        );
    }

    #[test]
    fn names_equal_on_a_case_insensitive_normalising_system_are_told_apart() {
        let mut names = Names::default();
        names.reserve(".markport-publish.json");
        assert_eq!(names.unique("Rust", ".url"), "Rust");
        assert_eq!(names.unique("rust", ".url"), "rust (2)");
        assert_eq!(names.unique("RUST", ".url"), "RUST (3)");
        assert_eq!(
            names.unique("Rust", ""),
            "Rust",
            "a folder has no extension"
        );
        assert_eq!(names.unique("caf\u{e9}", ".url"), "caf\u{e9}");
        assert_eq!(names.unique("cafe\u{301}", ".url"), "cafe\u{301} (2)");
        assert_eq!(
            names.unique(".MARKPORT-publish", ".json"),
            ".MARKPORT-publish (2)"
        );
        // Many equal titles stay linear and distinct.
        let got: HashSet<String> = (0..1000).map(|_| names.unique("same", ".url")).collect();
        assert_eq!(got.len(), 1000);
    }
}
