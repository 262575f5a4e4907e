//! What a `Bookmarks` file says beyond the model's fields, kept as
//! attributes so that a Chromium file written back has the same JSON values.

/// Folder attribute: the key a folder had under `roots` (Vivaldi's
/// `trash`) or under Opera's `custom_root` (`speedDial`, `userRoot`, ...).
pub const KEY_ATTR: &str = "chromium.key";
/// Folder attribute: this folder stands for a map of folders under `roots`
/// (Opera's `custom_root`), not a node; the value is its key.
pub const MAP_ATTR: &str = "chromium.map";
/// Header attribute: which date keys the file writes as `"0"` when unset,
/// when that differs from what Chromium writes now ([`UnsetDates::DEFAULT`]).
pub const UNSET_DATES_ATTR: &str = "chromium.unset-dates";

/// A node's kind in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `"type": "url"`
    Url,
    /// `"type": "folder"`
    Folder,
}

/// The date keys, in the order of [`UnsetDates`]'s slots.
pub const DATE_KEYS: [&str; 3] = ["date_added", "date_modified", "date_last_used"];

/// For each kind and date key, how often an unset date was written as `"0"`
/// and how often it was left out: Chromium versions differ (none wrote
/// `date_last_used` before 2021), and a file written back should too.
#[derive(Clone, Debug, Default)]
pub struct UnsetDates {
    counts: [[(usize, usize); 3]; 2],
}

impl UnsetDates {
    /// What Chromium writes now: every date of a folder, and the added and
    /// last-used dates of a url.
    pub const DEFAULT: &'static str =
        "url:date_added,date_last_used;folder:date_added,date_modified,date_last_used";

    /// Count one unset date: written as `"0"` (`present`) or left out.
    pub fn saw(&mut self, kind: Kind, slot: usize, present: bool) {
        let c = &mut self.counts[kind as usize][slot];
        if present {
            c.0 += 1;
        } else {
            c.1 += 1;
        }
    }

    /// The policy of the file as read, in [`UnsetDates::DEFAULT`]'s syntax.
    pub fn policy(&self) -> String {
        let mut parts = Vec::new();
        for (kind, name) in [(Kind::Url, "url"), (Kind::Folder, "folder")] {
            let keys: Vec<&str> = (0..3)
                .filter(|&slot| {
                    let (present, absent) = self.counts[kind as usize][slot];
                    if present == absent {
                        writes(Self::DEFAULT, kind, slot)
                    } else {
                        present > absent
                    }
                })
                .map(|slot| DATE_KEYS[slot])
                .collect();
            parts.push(format!("{name}:{}", keys.join(",")));
        }
        parts.join(";")
    }
}

/// Whether `policy` writes the unset date `slot` of a `kind` node.
pub fn writes(policy: &str, kind: Kind, slot: usize) -> bool {
    let name = match kind {
        Kind::Url => "url:",
        Kind::Folder => "folder:",
    };
    policy
        .split(';')
        .find_map(|part| part.strip_prefix(name))
        .is_some_and(|keys| keys.split(',').any(|k| k == DATE_KEYS[slot]))
}
