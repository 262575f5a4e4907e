//! Cleaning a bookmark store in place: removing the entries of given URIs,
//! pruning those whose local file is gone or that were last used before a
//! date. The document functions ([`remove`], [`prune`]) change a document;
//! the store functions ([`remove_from_file`], [`prune_file`]) do it under
//! the store's lock through [`update_if_changed`], so a registration by
//! another process while they run is not lost.

use std::collections::HashMap;
use std::path::Path;

use markport_model::{Bookmark, DateValue, Document, Error, Node, Timestamp};

use crate::spec::{update_if_changed, UpdateOptions};
use crate::uri::file_uri_to_path;

/// Why an entry was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Its URI was asked for.
    Asked,
    /// It is a local file that no longer exists.
    Missing,
    /// It was last used before the date asked for.
    Unused,
}

/// One entry a clean-up removed (or, in a dry run, would remove).
#[derive(Clone, Debug, PartialEq)]
pub struct Removed {
    /// Its URI, as the store holds it.
    pub href: String,
    /// When it was last used ([`last_use`]).
    pub last_use: Option<Timestamp>,
    /// Why it went.
    pub reason: Reason,
}

/// What [`remove`] or [`prune`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Removal {
    /// The entries removed, in the store's order.
    pub removed: Vec<Removed>,
    /// The URIs asked for that no entry has, in the order asked (none for
    /// [`prune`]).
    pub absent: Vec<String>,
    /// How many entries are left.
    pub left: usize,
}

/// What [`prune`] removes: either or both.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prune {
    /// Entries whose local file is gone ([`local_file_state`] says
    /// [`FileState::Gone`]).
    pub missing: bool,
    /// Entries last used before this instant. An entry with no date of use
    /// stays: GLib takes a missing date as the time it loads the file.
    pub older_than: Option<Timestamp>,
}

/// Whether a URI's local file exists, as far as it can be told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileState {
    /// It exists (a symbolic link counts by what it points to).
    Present,
    /// It does not: no such file, or a part of its path is not a directory.
    Gone,
    /// Not a local file (another scheme or host, a broken escape), or the
    /// file system would not say (permission denied, a disk error): kept.
    Unknown,
}

/// When an entry was last used: the latest of its `modified` and `visited`
/// dates and its applications' registration dates (`modified`, or the
/// deprecated `timestamp`), which is what the spec updates on each use;
/// `added` only when none of them is there. `None` when it has no date
/// that is an instant.
pub fn last_use(b: &Bookmark) -> Option<Timestamp> {
    let apps = &b.details().desktop().applications;
    let used = [b.modified.as_ref(), b.details().visited.as_ref()]
        .into_iter()
        .chain(
            apps.iter()
                .flat_map(|a| [a.modified.as_ref(), a.timestamp.as_ref()]),
        )
        .flatten()
        .filter_map(DateValue::instant)
        .max_by_key(|t| order(t));
    used.or_else(|| b.added.as_ref().and_then(DateValue::instant))
        .copied()
}

/// A timestamp's place in time, for comparing instants.
fn order(t: &Timestamp) -> (i64, u32) {
    (t.unix_seconds(), t.subsec_nanos())
}

/// Whether `uri` names a local file that exists.
pub fn local_file_state(uri: &str) -> FileState {
    let Some(bytes) = file_uri_to_path(uri) else {
        return FileState::Unknown;
    };
    let Some(path) = bytes_path(&bytes) else {
        return FileState::Unknown;
    };
    match std::fs::metadata(&path) {
        Ok(_) => FileState::Present,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => FileState::Gone,
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => FileState::Gone,
        Err(_) => FileState::Unknown,
    }
}

/// A local path from a file: URI's bytes: any bytes on Unix; UTF-8
/// elsewhere.
#[cfg(unix)]
fn bytes_path(bytes: &[u8]) -> Option<std::path::PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(std::ffi::OsStr::from_bytes(bytes).into())
}

/// A local path from a file: URI's bytes: any bytes on Unix; UTF-8
/// elsewhere, without the `/` before a drive letter.
#[cfg(not(unix))]
fn bytes_path(bytes: &[u8]) -> Option<std::path::PathBuf> {
    let s = std::str::from_utf8(bytes).ok()?;
    let s = match s.as_bytes() {
        [b'/', d, b':', ..] if d.is_ascii_alphabetic() => &s[1..],
        _ => s,
    };
    Some(s.into())
}

/// What two URIs must share to name one entry: a local file's path bytes
/// (so `file:///a%20b`, `file://localhost/a%20b` and `file:/a b`'s
/// encodings meet), or else the URI itself.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Path(Vec<u8>),
    Uri(String),
}

fn key(uri: &str) -> Key {
    match file_uri_to_path(uri) {
        Some(path) => Key::Path(path),
        None => Key::Uri(uri.to_owned()),
    }
}

/// Remove the entries of `uris` (every entry of each, should a plain XBEL
/// store hold one twice). A file: URI matches an entry naming the same
/// local path however either is escaped. Linear: one pass over the
/// document and one over `uris`.
pub fn remove(doc: &mut Document, uris: &[String]) -> Removal {
    let mut asked: HashMap<Key, (usize, bool)> = HashMap::with_capacity(uris.len());
    for (i, u) in uris.iter().enumerate() {
        asked.entry(key(u)).or_insert((i, false));
    }
    let mut removed = Vec::new();
    let mut left = 0;
    doc.retain(|d, id| {
        let Node::Bookmark(b) = d.node(id) else {
            return true;
        };
        match asked.get_mut(&key(&b.href)) {
            Some((_, found)) => {
                *found = true;
                removed.push(Removed {
                    href: b.href.clone(),
                    last_use: last_use(b),
                    reason: Reason::Asked,
                });
                false
            }
            None => {
                left += 1;
                true
            }
        }
    });
    let mut absent: Vec<(usize, &String)> = asked
        .values()
        .filter(|(_, found)| !found)
        .map(|&(i, _)| (i, &uris[i]))
        .collect();
    absent.sort_unstable_by_key(|&(i, _)| i);
    Removal {
        removed,
        absent: absent.into_iter().map(|(_, u)| u.clone()).collect(),
        left,
    }
}

/// Remove what `p` asks for, in the store's order. A local file is looked
/// at once per entry (`stat`), and only when `p.missing` is set.
pub fn prune(doc: &mut Document, p: &Prune) -> Removal {
    let mut removed = Vec::new();
    let mut left = 0;
    doc.retain(|d, id| {
        let Node::Bookmark(b) = d.node(id) else {
            return true;
        };
        let used = last_use(b);
        let reason = if p.missing && local_file_state(&b.href) == FileState::Gone {
            Some(Reason::Missing)
        } else if let (Some(limit), Some(at)) = (&p.older_than, &used) {
            (order(at) < order(limit)).then_some(Reason::Unused)
        } else {
            None
        };
        match reason {
            Some(reason) => {
                removed.push(Removed {
                    href: b.href.clone(),
                    last_use: used,
                    reason,
                });
                false
            }
            None => {
                left += 1;
                true
            }
        }
    });
    Removal {
        removed,
        absent: Vec::new(),
        left,
    }
}

/// [`remove`] on the store at `path`, under its lock (`opts`), written back
/// by atomic replace only when something was removed; with `opts` `None`,
/// what it would do, changing nothing.
pub fn remove_from_file(
    path: &Path,
    uris: &[String],
    opts: Option<&UpdateOptions>,
) -> Result<Removal, Error> {
    update_if_changed(path, opts, |doc| {
        let r = remove(doc, uris);
        let changed = !r.removed.is_empty();
        Ok((r, changed))
    })
}

/// [`prune`] on the store at `path`, as [`remove_from_file`] does it.
pub fn prune_file(path: &Path, p: &Prune, opts: Option<&UpdateOptions>) -> Result<Removal, Error> {
    update_if_changed(path, opts, |doc| {
        let r = prune(doc, p);
        let changed = !r.removed.is_empty();
        Ok((r, changed))
    })
}
