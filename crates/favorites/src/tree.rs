//! Reading a favorites tree: a directory whose sub-directories are folders
//! and whose link files are bookmarks.
//!
//! The order is fixed, whatever the file system lists: in each directory
//! the sub-directories first, then the link files, each group sorted by
//! name (Unicode code points), the way Internet Explorer's Favorites menu
//! and Windows Explorer show a Favorites folder by default. A tree markport
//! wrote reads back in the order it was written: [`crate::ORDER`] lists its
//! entries in that order, and a listed entry comes before the others.
//!
//! The walk keeps an explicit stack of open directories, never recursion.
//! A symbolic link is followed only when its target lies inside the tree;
//! one that leads outside is skipped with a warning naming it, and one that
//! leads back to a directory the walk is inside of (a loop) is an error
//! naming it. Anything that is not a link file is skipped with a warning
//! naming its path, and so is a link file that cannot be read; a problem
//! inside a file is `PATH:LINE:COL: message`.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use markport_model::{Diagnostic, Document, Error, ErrorKind, Folder, NodeId, Parsed, ReadOptions};

use crate::link::{self, Kind};
use crate::MAX_LINK_FILE;

/// One entry of a directory, resolved.
struct Entry {
    name: String,
    path: PathBuf,
    rel: String,
    dir: bool,
}

/// A directory the walk is inside of: the entries left, the folder they go
/// into, and its identity (for loops).
struct Open {
    entries: std::vec::IntoIter<Entry>,
    folder: Option<NodeId>,
    id: (u64, u64),
}

/// Read the tree at `root` (a directory).
pub(crate) fn read_tree(root: &Path, opts: &ReadOptions) -> Result<Parsed, Error> {
    let io = |path: &Path, e: std::io::Error| {
        let mut err = Error::io(e);
        err.message = format!("{}: {}", path.display(), err.message);
        err
    };
    let canon = fs::canonicalize(root).map_err(|e| io(root, e))?;
    let mut doc = Document::new();
    let mut diags = Vec::new();
    let mut inside: HashSet<(u64, u64)> = HashSet::new();
    let root_id = identity(&canon).map_err(|e| io(root, e))?;
    inside.insert(root_id);
    let order = written_order(root);
    let entries = list(root, "", &canon, &order, &mut diags).map_err(|e| io(root, e))?;
    let mut stack = vec![Open {
        entries: entries.into_iter(),
        folder: None,
        id: root_id,
    }];
    while let Some(top) = stack.last_mut() {
        let Some(entry) = top.entries.next() else {
            let done = stack.pop().expect("a directory is open");
            inside.remove(&done.id);
            continue;
        };
        let parent = top.folder;
        if entry.dir {
            let id = identity(&entry.path).map_err(|e| io(&entry.path, e))?;
            if !inside.insert(id) {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{}: a symbolic link loop: this directory is one the walk is already inside of",
                        entry.rel
                    ),
                    None,
                ));
            }
            let folder = doc.push(parent, Folder::titled(entry.name));
            let entries = list(&entry.path, &entry.rel, &canon, &order, &mut diags)
                .map_err(|e| io(&entry.path, e))?;
            stack.push(Open {
                entries: entries.into_iter(),
                folder: Some(folder),
                id,
            });
            continue;
        }
        let Some(kind) = Kind::of_name(&entry.name) else {
            diags.push(
                Diagnostic::warning("not a link file (.url, .webloc, .desktop): skipped", None)
                    .in_file(&*entry.rel),
            );
            continue;
        };
        let mut found = Vec::new();
        let read = read_link_file(&entry, kind, opts, &mut found);
        for d in found {
            diags.push(d.in_file(&*entry.rel));
        }
        match read {
            Ok(mut bookmark) => {
                if kind != Kind::Desktop || bookmark.title.is_none() {
                    bookmark.title = Some(stem(&entry.name).to_owned());
                }
                doc.push(parent, bookmark);
            }
            Err(e) => diags.push(
                Diagnostic::warning(format!("skipped: {}", e.message), e.location)
                    .in_file(&*entry.rel),
            ),
        }
    }
    Parsed::new(doc, diags).enforce(opts)
}

/// A link file's name without its extension: the bookmark's title.
pub(crate) fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(s, _)| s)
}

fn read_link_file(
    entry: &Entry,
    kind: Kind,
    opts: &ReadOptions,
    found: &mut Vec<Diagnostic>,
) -> Result<markport_model::Bookmark, Error> {
    let file = fs::File::open(&entry.path).map_err(Error::io)?;
    let mut bytes = Vec::new();
    // Never more than the largest link file plus one byte: a huge file
    // is refused without being read.
    file.take(MAX_LINK_FILE as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(Error::io)?;
    if bytes.len() > MAX_LINK_FILE {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "larger than any link file ({} KiB at most)",
                MAX_LINK_FILE / 1024
            ),
            None,
        ));
    }
    link::read_with(kind, &bytes, opts.encoding.as_deref(), found)
}

#[cfg(unix)]
fn identity(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let m = fs::metadata(path)?;
    Ok((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(path: &Path) -> std::io::Result<(u64, u64)> {
    // Without inode numbers, the canonical path names a directory.
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    fs::canonicalize(path)?.hash(&mut h);
    Ok((0, h.finish()))
}

/// Where each file and directory of a tree markport wrote stands in the
/// order it was written ([`crate::ORDER`]). Empty for any other tree.
fn written_order(root: &Path) -> HashMap<String, usize> {
    let Ok(text) = fs::read(root.join(crate::ORDER)) else {
        return HashMap::new();
    };
    let Ok(paths) = serde_json::from_slice::<Vec<String>>(&text) else {
        return HashMap::new();
    };
    let mut order = HashMap::with_capacity(paths.len());
    for (i, path) in paths.into_iter().enumerate() {
        order.entry(path).or_insert(i);
    }
    order
}

/// The entries of `dir`: those the marker lists in its order, then the
/// others, directories first, then files, each sorted by name; symbolic
/// links resolved (or skipped, said in `diags`).
fn list(
    dir: &Path,
    rel: &str,
    root: &Path,
    order: &HashMap<String, usize>,
    diags: &mut Vec<Diagnostic>,
) -> std::io::Result<Vec<Entry>> {
    let at_root = rel.is_empty();
    let mut out = Vec::new();
    for e in fs::read_dir(dir)? {
        let e = e?;
        let os: OsString = e.file_name();
        let name = os.to_string_lossy().into_owned();
        let rel = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if at_root && (name == crate::MARKER || name == crate::ORDER) {
            // markport's own lists of what it wrote (see write.rs).
            continue;
        }
        if os.to_str().is_none() {
            diags.push(
                Diagnostic::warning(
                    "the name is not valid UTF-8: its title has U+FFFD for the bytes that are not",
                    None,
                )
                .in_file(&*rel),
            );
        }
        let path = e.path();
        let mut kind = e.file_type()?;
        if kind.is_symlink() {
            match fs::canonicalize(&path) {
                Ok(target) if target.starts_with(root) => match fs::metadata(&path) {
                    Ok(m) => kind = m.file_type(),
                    Err(err) => {
                        diags.push(
                            Diagnostic::warning(format!("{err}: skipped"), None).in_file(&*rel),
                        );
                        continue;
                    }
                },
                Ok(target) => {
                    diags.push(
                        Diagnostic::warning(
                            format!(
                                "a symbolic link to outside the tree ({}): not followed",
                                target.display()
                            ),
                            None,
                        )
                        .in_file(&*rel),
                    );
                    continue;
                }
                Err(err) => {
                    diags.push(
                        Diagnostic::warning(
                            format!("a symbolic link that leads nowhere ({err}): skipped"),
                            None,
                        )
                        .in_file(&*rel),
                    );
                    continue;
                }
            }
        }
        if !kind.is_dir() && !kind.is_file() {
            diags.push(
                Diagnostic::warning("not a file or a directory: skipped", None).in_file(&*rel),
            );
            continue;
        }
        out.push(Entry {
            name,
            path,
            rel,
            dir: kind.is_dir(),
        });
    }
    let rank = |e: &Entry| order.get(&e.rel).copied().unwrap_or(usize::MAX);
    out.sort_by(|a, b| {
        rank(a)
            .cmp(&rank(b))
            .then_with(|| b.dir.cmp(&a.dir))
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(out)
}
