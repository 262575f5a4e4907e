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
//! Every entry is opened relative to its directory's descriptor without
//! following a link and without waiting (`openat`, `O_NOFOLLOW |
//! O_NONBLOCK`), and what was opened is what is looked at (`fstat`): a link
//! file swapped for a FIFO, a socket, a device or a link while the tree is
//! read is skipped with a warning naming it, never waited on nor followed
//! out of the tree, and one removed since the listing is a warning naming
//! it. A symbolic link is followed only when its target lies inside the
//! tree, opened from the top one name at a time, again without following
//! links; one that leads outside is skipped with a warning naming it, and
//! one that leads back to a directory the walk is inside of (a loop) is an
//! error naming it. Anything that is not a link file is skipped with a
//! warning naming its path, and so is a link file that cannot be read; a
//! problem inside a file is `PATH:LINE:COL: message`. At most
//! [`OPEN_DIRS`] directories are open at once, however deep the tree.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Read as _;
use std::path::{Component, Path, PathBuf};

use markport_model::{
    Budget, Diagnostic, Document, Error, ErrorKind, Folder, NodeId, Parsed, ReadOptions,
};

use crate::at::{Dir, Listed, Opened};
use crate::link::{self, Kind};
use crate::MAX_LINK_FILE;

/// How many directories the walk keeps open at most: deeper, the one
/// furthest up is closed and opened again (as `..` of its child, checked
/// to be the same directory) when the walk comes back to it.
const OPEN_DIRS: usize = 64;

/// The longest path below the top the walk goes to, in bytes: what a
/// path can name on Linux (`PATH_MAX`) and what markport writes. Opened
/// relative to descriptors, a tree could go deeper, but each open
/// directory keeps its path for messages: this keeps that memory bounded.
const MAX_REL: usize = 4_096;

/// How an entry is reached.
#[derive(Clone, Debug)]
enum How {
    /// By its name in its directory.
    Name,
    /// A symbolic link inside the tree: by its target's path below the
    /// tree's top, each step opened without following links.
    FromRoot(PathBuf),
}

/// One entry of a directory, resolved.
struct Entry {
    name: String,
    os: OsString,
    rel: String,
    dir: bool,
    how: How,
}

/// A directory the walk is inside of: the entries left, the folder they go
/// into, its identity (for loops), the directory itself while it is open,
/// and how it was reached (to open it again).
struct Open {
    entries: std::vec::IntoIter<Entry>,
    folder: Option<NodeId>,
    id: (u64, u64),
    dir: Option<Dir>,
    os: OsString,
    how: How,
    rel: String,
}

/// A test's change to the tree, made when the walk reaches an entry.
#[cfg(test)]
type Hook = Box<dyn FnMut(&str)>;

#[cfg(test)]
thread_local! {
    /// Called with an entry's path in the tree just before it is
    /// opened: tests change the tree there, between listing and reading.
    pub(crate) static BEFORE_OPEN: std::cell::RefCell<Option<Hook>> =
        const { std::cell::RefCell::new(None) };
}

/// Read the tree at `root` (a directory).
pub(crate) fn read_tree(root: &Path, opts: &ReadOptions) -> Result<Parsed, Error> {
    let io = |path: &dyn std::fmt::Display, e: std::io::Error| {
        let mut err = Error::io(e);
        err.message = format!("{path}: {}", err.message);
        err
    };
    let canon = fs::canonicalize(root).map_err(|e| io(&root.display(), e))?;
    let (root_dir, root_id) = Dir::open(&canon).map_err(|e| io(&root.display(), e))?;
    let mut doc = Document::new();
    let mut diags = Vec::new();
    // What was read is the listings and the link files: charged as they
    // are kept, a tree of many tiny or empty files cannot take more than
    // its budget (each is a node, or a warning, of a few hundred bytes).
    let mut budget = Budget::new(opts, 0);
    let mut charged = 0;
    let mut inside: HashSet<(u64, u64)> = HashSet::new();
    inside.insert(root_id);
    let order = written_order(&root_dir);
    let entries = list(&root_dir, "", &canon, &root_dir, &order, &mut diags)
        .map_err(|e| io(&root.display(), e))?;
    let mut stack = vec![Open {
        entries: entries.into_iter(),
        folder: None,
        id: root_id,
        dir: None,
        os: OsString::new(),
        how: How::Name,
        rel: String::new(),
    }];
    while let Some(top) = stack.last_mut() {
        let Some(entry) = top.entries.next() else {
            let done = stack.pop().expect("a directory is open");
            inside.remove(&done.id);
            if let Some(done_dir) = done.dir {
                if stack.len() > 1 && stack.last().is_some_and(|o| o.dir.is_none()) {
                    let dir = reopen(&stack, &root_dir, Some(&done_dir))
                        .map_err(|e| io(&stack.last().expect("open").rel, e))?;
                    stack.last_mut().expect("open").dir = Some(dir);
                }
            }
            continue;
        };
        let parent = top.folder;
        let here = top.dir.as_ref().unwrap_or(&root_dir);
        budget.read_more(entry.name.len() + DIRENT_BYTES);
        for d in &diags[charged..] {
            budget.diagnostic(d).map_err(|e| in_entry(&entry.rel, e))?;
        }
        charged = diags.len();
        #[cfg(test)]
        BEFORE_OPEN.with(|hook| {
            if let Some(hook) = hook.borrow_mut().as_mut() {
                hook(&entry.rel);
            }
        });
        if entry.dir {
            if entry.rel.len() > MAX_REL {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{}: deeper than a path can name (more than {MAX_REL} bytes below the tree)",
                        entry.rel
                    ),
                    None,
                ));
            }
            let opened = open_entry(here, &root_dir, &entry).map_err(|e| io(&entry.rel, e))?;
            let (dir, id) = match opened {
                Opened::Dir(dir, id) => (dir, id),
                other => {
                    diags.push(changed(&other, true).in_file(&*entry.rel));
                    continue;
                }
            };
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
            budget
                .folder(entry.name.len())
                .map_err(|e| in_entry(&entry.rel, e))?;
            let folder = doc.push(parent, Folder::titled(entry.name));
            let entries = list(&dir, &entry.rel, &canon, &root_dir, &order, &mut diags)
                .map_err(|e| io(&entry.rel, e))?;
            stack.push(Open {
                entries: entries.into_iter(),
                folder: Some(folder),
                id,
                dir: Some(dir),
                os: entry.os,
                how: entry.how,
                rel: entry.rel,
            });
            // Never more than OPEN_DIRS descriptors, however deep the tree.
            if stack.len() > OPEN_DIRS + 1 {
                let far = stack.len() - 1 - OPEN_DIRS;
                stack[far].dir = None;
            }
            continue;
        }
        let Some(kind) = Kind::of_name(&entry.name) else {
            diags.push(
                Diagnostic::warning("not a link file (.url, .webloc, .desktop): skipped", None)
                    .in_file(&*entry.rel),
            );
            continue;
        };
        let file = match open_entry(here, &root_dir, &entry) {
            Ok(Opened::File(file)) => file,
            Ok(other) => {
                diags.push(changed(&other, false).in_file(&*entry.rel));
                continue;
            }
            Err(e) => {
                diags.push(
                    Diagnostic::warning(format!("cannot open it ({e}): skipped"), None)
                        .in_file(&*entry.rel),
                );
                continue;
            }
        };
        let mut found = Vec::new();
        let mut bytes = 0;
        let read = read_link_file(file, kind, opts, &mut found, &mut bytes);
        budget.read_more(bytes);
        for d in found {
            diags.push(d.in_file(&*entry.rel));
        }
        match read {
            Ok(mut bookmark) => {
                if kind != Kind::Desktop || bookmark.title.is_none() {
                    bookmark.title = Some(stem(&entry.name).to_owned());
                }
                budget
                    .bookmark(&bookmark)
                    .map_err(|e| in_entry(&entry.rel, e))?;
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

/// The warning for an entry listed as a directory (`dir`) or a file that,
/// opened, is something else.
fn changed(opened: &Opened, dir: bool) -> Diagnostic {
    let was = if dir { "a directory" } else { "a file" };
    let message = match opened {
        Opened::Gone => format!("listed as {was} and gone when opened (removed while the tree was read): skipped"),
        Opened::Link => "a symbolic link (it became one while the tree was read): not followed".to_owned(),
        Opened::Other(what) => format!("{what}, not a file or a directory: skipped"),
        Opened::File(_) => "listed as a directory and a file when opened (changed while the tree was read): skipped".to_owned(),
        Opened::Dir(..) => "listed as a file and a directory when opened (changed while the tree was read): skipped".to_owned(),
    };
    Diagnostic::warning(message, None)
}

/// Open `entry` of the directory `here` (by name), or from the top of the
/// tree (a link's target inside it).
fn open_entry(here: &Dir, root: &Dir, entry: &Entry) -> std::io::Result<Opened> {
    match &entry.how {
        How::Name => here.open_at(&entry.os),
        How::FromRoot(rel) => open_below(root, rel),
    }
}

/// Open the path `rel` below `root`, one name at a time, following no link.
fn open_below(root: &Dir, rel: &Path) -> std::io::Result<Opened> {
    let names: Vec<&OsStr> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let Some((last, above)) = names.split_last() else {
        // The top itself (a link to `..` from a first-level directory):
        // opened again, it is a directory the walk is inside of.
        return root.open_at(OsStr::new("."));
    };
    let mut held: Option<Dir> = None;
    for name in above {
        match held.as_ref().unwrap_or(root).open_at(name)? {
            Opened::Dir(dir, _) => held = Some(dir),
            Opened::File(_) => return Ok(Opened::Other("not a file or a directory")),
            other => return Ok(other),
        }
    }
    held.as_ref().unwrap_or(root).open_at(last)
}

/// Open again the directory on top of `stack`, closed while the walk was
/// deeper: as `..` of the child just left when that is the same directory,
/// else by the way it was reached from the nearest directory still open.
fn reopen(stack: &[Open], root: &Dir, child: Option<&Dir>) -> std::io::Result<Dir> {
    let top = stack.len() - 1;
    let want = stack[top].id;
    if let Some(Ok((dir, id))) = child.map(Dir::parent) {
        if id == want {
            return Ok(dir);
        }
    }
    // Down to where it can start: a level reached from the top of the
    // tree, or one whose directory above is open (the top's always is).
    let mut from = top;
    while from > 1 && !matches!(stack[from].how, How::FromRoot(_)) && stack[from - 1].dir.is_none()
    {
        from -= 1;
    }
    let mut dir: Option<Dir> = None;
    let mut id = (0, 0);
    for i in from..=top {
        let level = &stack[i];
        let opened = match (&level.how, &dir) {
            (How::FromRoot(rel), _) => open_below(root, rel)?,
            (How::Name, Some(above)) => above.open_at(&level.os)?,
            (How::Name, None) => stack[i - 1]
                .dir
                .as_ref()
                .unwrap_or(root)
                .open_at(&level.os)?,
        };
        let Opened::Dir(d, i) = opened else {
            return Err(changed_error());
        };
        dir = Some(d);
        id = i;
    }
    match dir {
        Some(dir) if id == want => Ok(dir),
        _ => Err(changed_error()),
    }
}

fn changed_error() -> std::io::Error {
    std::io::Error::other("the directory changed while the tree was read")
}

/// What a directory entry is read as besides its name (its inode number,
/// offset, length and type, as `getdents` gives them).
const DIRENT_BYTES: usize = 24;

/// `e`, said of the entry at `rel`.
fn in_entry(rel: &str, mut e: Error) -> Error {
    e.message = format!("{rel}: {}", e.message);
    e
}

/// A link file's name without its extension: the bookmark's title.
pub(crate) fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(s, _)| s)
}

fn read_link_file(
    file: fs::File,
    kind: Kind,
    opts: &ReadOptions,
    found: &mut Vec<Diagnostic>,
    read: &mut usize,
) -> Result<markport_model::Bookmark, Error> {
    let mut bytes = Vec::new();
    // Never more than the largest link file plus one byte: a huge file
    // is refused without being read.
    file.take(MAX_LINK_FILE as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(Error::io)?;
    *read = bytes.len();
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

/// Where each file and directory of a tree markport wrote stands in the
/// order it was written ([`crate::ORDER`]). Empty for any other tree, and
/// when the list is not a regular file.
fn written_order(root: &Dir) -> HashMap<String, usize> {
    let Ok(Opened::File(file)) = root.open_at(OsStr::new(crate::ORDER)) else {
        return HashMap::new();
    };
    let mut text = Vec::new();
    if (&file).read_to_end(&mut text).is_err() {
        return HashMap::new();
    }
    let Ok(paths) = serde_json::from_slice::<Vec<String>>(&text) else {
        return HashMap::new();
    };
    let mut order = HashMap::with_capacity(paths.len());
    for (i, path) in paths.into_iter().enumerate() {
        order.entry(path).or_insert(i);
    }
    order
}

/// The entries of `dir` (at `rel` in the tree whose top is `canon`, open as
/// `root`): those the marker lists in its order, then the others,
/// directories first, then files, each sorted by name; symbolic links
/// resolved (or skipped, said in `diags`).
fn list(
    dir: &Dir,
    rel: &str,
    canon: &Path,
    root: &Dir,
    order: &HashMap<String, usize>,
    diags: &mut Vec<Diagnostic>,
) -> std::io::Result<Vec<Entry>> {
    let at_root = rel.is_empty();
    let mut out = Vec::new();
    for (os, listed) in dir.list()? {
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
        let (is_dir, how) = match listed {
            Listed::Dir => (true, How::Name),
            Listed::File => (false, How::Name),
            Listed::Other => {
                diags.push(
                    Diagnostic::warning("not a file or a directory: skipped", None).in_file(&*rel),
                );
                continue;
            }
            Listed::Link => match resolve(canon, root, &rel) {
                Ok(found) => found,
                Err(why) => {
                    diags.push(Diagnostic::warning(why, None).in_file(&*rel));
                    continue;
                }
            },
        };
        out.push(Entry {
            name,
            os,
            rel,
            dir: is_dir,
            how,
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

/// Where the symbolic link at `rel` leads: a file or directory inside the
/// tree (whether it is a directory, and its path below the top), or why it
/// is not followed.
fn resolve(canon: &Path, root: &Dir, rel: &str) -> Result<(bool, How), String> {
    let target = match fs::canonicalize(canon.join(rel)) {
        Ok(target) => target,
        Err(err) => {
            return Err(format!(
                "a symbolic link that leads nowhere ({err}): skipped"
            ))
        }
    };
    let Ok(below) = target.strip_prefix(canon) else {
        return Err(format!(
            "a symbolic link to outside the tree ({}): not followed",
            target.display()
        ));
    };
    // What the target is, opened the way it will be read.
    match open_below(root, below) {
        Ok(Opened::Dir(..)) => Ok((true, How::FromRoot(below.to_owned()))),
        Ok(Opened::File(_)) => Ok((false, How::FromRoot(below.to_owned()))),
        Ok(Opened::Other(what)) => Err(format!("a symbolic link to {what}: skipped")),
        Ok(Opened::Gone | Opened::Link) => {
            Err("a symbolic link whose target changed while the tree was read: skipped".to_owned())
        }
        Err(err) => Err(format!("{err}: skipped")),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn url(href: &str) -> String {
        format!("[InternetShortcut]\r\nURL={href}\r\n")
    }

    /// A tree of three link files, a.url, b.url and c.url, and a file
    /// outside it that no read may reach.
    fn tree() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("tree");
        fs::create_dir(&root).unwrap();
        for name in ["a", "b", "c"] {
            fs::write(
                root.join(format!("{name}.url")),
                url(&format!("https://{name}.example/")),
            )
            .unwrap();
        }
        let outside = tmp.path().join("secret.url");
        fs::write(&outside, url("https://outside.example/secret")).unwrap();
        (tmp, root, outside)
    }

    /// Read `root`, running `change` when the walk is about to open `at`.
    fn read_changing(root: &Path, at: &'static str, change: impl FnMut() + 'static) -> Parsed {
        let mut change = change;
        BEFORE_OPEN.with(|h| {
            *h.borrow_mut() = Some(Box::new(move |rel: &str| {
                if rel == at {
                    change();
                }
            }))
        });
        let parsed = read_tree(root, &ReadOptions::default());
        BEFORE_OPEN.with(|h| *h.borrow_mut() = None);
        parsed.unwrap()
    }

    fn hrefs(parsed: &Parsed) -> Vec<String> {
        let doc = &parsed.document;
        doc.preorder()
            .filter_map(|id| doc.node(id).as_bookmark().map(|b| b.href.clone()))
            .collect()
    }

    fn warning_on<'a>(parsed: &'a Parsed, file: &str) -> &'a str {
        parsed
            .diagnostics
            .iter()
            .find(|d| d.file.as_deref() == Some(file))
            .map(|d| d.message.as_str())
            .unwrap_or_else(|| panic!("no warning on {file}: {:?}", parsed.diagnostics))
    }

    #[test]
    fn a_file_removed_between_listing_and_opening_is_a_warning_naming_it() {
        let (_tmp, root, _) = tree();
        let b = root.join("b.url");
        let parsed = read_changing(&root, "b.url", move || fs::remove_file(&b).unwrap());
        assert_eq!(hrefs(&parsed), ["https://a.example/", "https://c.example/"]);
        assert!(warning_on(&parsed, "b.url").contains("gone"));
    }

    #[test]
    fn a_file_swapped_for_a_fifo_is_skipped_without_waiting_for_a_writer() {
        let (_tmp, root, _) = tree();
        let b = root.join("b.url");
        let parsed = read_changing(&root, "b.url", move || {
            fs::remove_file(&b).unwrap();
            let c = std::ffi::CString::new(b.as_os_str().as_encoded_bytes()).unwrap();
            // SAFETY: a valid C string; mkfifo only makes the node.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        });
        assert_eq!(hrefs(&parsed), ["https://a.example/", "https://c.example/"]);
        assert!(warning_on(&parsed, "b.url").contains("a FIFO"));
    }

    #[test]
    fn a_file_swapped_for_a_link_to_outside_is_never_read() {
        let (_tmp, root, outside) = tree();
        let b = root.join("b.url");
        let parsed = read_changing(&root, "b.url", move || {
            fs::remove_file(&b).unwrap();
            std::os::unix::fs::symlink(&outside, &b).unwrap();
        });
        assert_eq!(hrefs(&parsed), ["https://a.example/", "https://c.example/"]);
        assert!(warning_on(&parsed, "b.url").contains("symbolic link"));
    }

    #[test]
    fn a_directory_swapped_for_a_link_to_outside_is_never_walked() {
        let (tmp, root, _) = tree();
        let sub = root.join("sub");
        fs::create_dir(&sub).unwrap();
        fs::write(sub.join("in.url"), url("https://in.example/")).unwrap();
        let away = tmp.path().join("away");
        fs::create_dir(&away).unwrap();
        fs::write(away.join("in.url"), url("https://outside.example/dir")).unwrap();
        let parsed = read_changing(&root, "sub", move || {
            fs::rename(&sub, root_of(&sub).join("moved")).unwrap();
            std::os::unix::fs::symlink(&away, &sub).unwrap();
        });
        assert!(
            !hrefs(&parsed).iter().any(|h| h.contains("outside")),
            "{:?}",
            hrefs(&parsed)
        );
        assert!(warning_on(&parsed, "sub").contains("symbolic link"));
    }

    fn root_of(p: &Path) -> PathBuf {
        p.parent().unwrap().to_owned()
    }
}
