//! Writing a favorites tree: one Internet Shortcut (`.url`) per bookmark,
//! a sub-directory per folder, names made safe on every system
//! ([`crate::names`]).
//!
//! The tree is written whole or not at all, the way `markport publish`
//! writes a site (markport-publish's `stage`): into a sibling directory first,
//! with a list of the files written ([`crate::MARKER`]), then swapped in.
//! A directory that is not empty and not a tree markport wrote is refused,
//! so no file markport did not write is ever deleted.

use std::path::Path;

use markport_files::tree::{File, Staged};
use markport_model::{
    bookmark_fields, document_fields, folder_fields, Bookmark, DateValue, Document, Error,
    ErrorKind, Field, LossReport, Node, NodeId, Step,
};

use crate::filetime;
use crate::names::{safe, Names};
use crate::support;

/// The keys markport writes itself in `[InternetShortcut]`.
const OWN_KEYS: &[&str] = &["URL", "IconFile", "Modified"];

/// The longest path below the tree's directory that can be written: a
/// file system takes a path of at most `PATH_MAX` bytes (4,096 on Linux)
/// with its terminating NUL, and the tree's own directory comes before it.
const MAX_PATH: usize = 4_095;

/// A tree staged beside its directory: [`Staged::swap`] makes it the one
/// there; dropping it without a swap (or [`abandon`]) leaves the directory
/// as it was and removes the staging directory.
pub fn stage(doc: &Document, dir: &Path) -> Result<(LossReport, Staged), Error> {
    let (files, dirs, loss) = plan(doc)?;
    // Empty folders are directories with no file to imply them.
    let staged = markport_files::tree::stage_with_dirs(&files, &dirs, dir).map_err(|e| {
        // The marker is the one `markport publish` keeps: say what it
        // means for a tree.
        let message = e.message.replace(
            "not a site markport published",
            "not a site or favorites tree markport wrote",
        );
        Error::new(
            ErrorKind::Io,
            format!("{}: {message}", e.path.display()),
            None,
        )
    })?;
    Ok((loss, staged))
}

/// Remove a staged tree that is not to be swapped in (as dropping it does).
pub fn abandon(staged: Staged) {
    drop(staged);
}

/// A directory the walk is inside of.
struct Open {
    /// The length of the path buffer before this directory's name.
    at: usize,
    /// The names of its children still to come, in order (`None` for a
    /// separator or alias, which has no file).
    names: std::vec::IntoIter<Option<String>>,
    /// Whether no file or directory was planned in it yet: an empty folder
    /// is made as a directory of its own.
    empty: bool,
}

/// The files of the tree, its empty directories, and what they cannot
/// carry; refused when a path would be longer than any file system takes.
///
/// Linear in the document whatever its shape: the walk keeps one path
/// buffer (a name pushed when a folder opens, cut off when it closes) and,
/// per open folder, the names of its children; a file's path is copied out
/// only for the file itself, and no path is longer than [`MAX_PATH`], so
/// a chain of folders costs at most that per node, not its depth squared.
fn plan(doc: &Document) -> Result<(Vec<File>, Vec<String>, LossReport), Error> {
    let mut loss = LossReport::new();
    loss.record_unsupported(
        doc,
        None,
        document_fields(doc),
        support,
        "a favorites tree has no place for the collection's own fields",
    );
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    let mut root = Names::default();
    root.reserve(crate::MARKER);
    root.reserve(crate::ORDER);
    // Every entry in the collection's order, for the reader (crate::ORDER),
    // as the JSON array of paths it is written as.
    let mut order = Order::default();
    // The open directory's path, each name followed by `/`.
    let mut path = String::new();
    let mut open = vec![Open {
        at: 0,
        names: child_names(doc, None, root).into_iter(),
        empty: false,
    }];
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                let top = open.last_mut().expect("the root is open");
                let name = top.names.next().flatten();
                let (Node::Folder(f), Some(name)) = (doc.node(id), name) else {
                    continue;
                };
                top.empty = false;
                loss.record_unsupported(
                    doc,
                    Some(id),
                    folder_fields(f),
                    support,
                    "a directory has a name and nothing else",
                );
                if f.title.as_deref() != Some(name.as_str()) {
                    loss.record(
                        doc,
                        Some(id),
                        Field::FolderTitle,
                        renamed(f.title.as_deref()),
                    );
                }
                let at = path.len();
                fits(doc, id, at + name.len(), open.len())?;
                path.push_str(&name);
                order.push(&path);
                path.push('/');
                open.push(Open {
                    at,
                    names: child_names(doc, Some(id), Names::default()).into_iter(),
                    empty: true,
                });
            }
            Step::Close(id) => {
                if !matches!(doc.node(id), Node::Folder(_)) || open.len() < 2 {
                    continue;
                }
                let done = open.pop().expect("a folder is open");
                if done.empty {
                    dirs.push(path[..path.len() - 1].to_owned());
                }
                path.truncate(done.at);
            }
            Step::Leaf(id) => {
                let top = open.last_mut().expect("the root is open");
                let Some(name) = top.names.next().flatten() else {
                    leaf_without_file(doc, id, &mut loss);
                    continue;
                };
                let Node::Bookmark(b) = doc.node(id) else {
                    continue;
                };
                top.empty = false;
                fits(
                    doc,
                    id,
                    path.len() + name.len() + ".url".len(),
                    open.len() - 1,
                )?;
                let file = format!("{path}{name}.url");
                order.push(&file);
                files.push(File {
                    path: file,
                    bytes: bookmark(doc, id, b, &name, &mut loss),
                });
            }
        }
    }
    if let Some(bytes) = order.finish() {
        files.push(File {
            path: crate::ORDER.to_owned(),
            bytes,
        });
    }
    Ok((files, dirs, loss))
}

/// The JSON array of [`crate::ORDER`], written as the paths come.
#[derive(Default)]
struct Order {
    bytes: Vec<u8>,
}

impl Order {
    fn push(&mut self, path: &str) {
        self.bytes
            .push(if self.bytes.is_empty() { b'[' } else { b',' });
        serde_json::to_writer(&mut self.bytes, path).expect("a string serialises");
    }

    /// The file's bytes, or none when nothing was listed.
    fn finish(mut self) -> Option<Vec<u8>> {
        if self.bytes.is_empty() {
            return None;
        }
        self.bytes.push(b']');
        Some(self.bytes)
    }
}

/// Refuse a path of `len` bytes below the tree, for node `id` of a folder
/// `depth` deep, when no file system takes it.
fn fits(doc: &Document, id: NodeId, len: usize, depth: usize) -> Result<(), Error> {
    if len <= MAX_PATH {
        return Ok(());
    }
    // The node's title, not its path: the path is what is too long.
    let title = doc.node(id).title().unwrap_or("untitled");
    Err(Error::new(
        ErrorKind::Invalid,
        format!(
            "a favorites tree cannot hold \"{title}\", {depth} folders deep: its path would be {len} bytes, more than the {MAX_PATH} a file system takes"
        ),
        None,
    ))
}

/// The names of the children of `parent` (`None`: the top level), in
/// order, taken from `names`: `None` for a node that has no file.
///
/// A title that is a good name as it is keeps it, and only the others get
/// ` (2)`, ` (3)`, ...: `a/b` written before `a_b` becomes `a_b (2)` and
/// leaves `a_b` its own name, so what comes back pairs with what went out
/// (a renamed node never takes the name another one has as its title).
fn child_names(doc: &Document, parent: Option<NodeId>, mut names: Names) -> Vec<Option<String>> {
    let children = doc.children(parent);
    let wanted: Vec<Option<(String, &str)>> = children
        .iter()
        .map(|&c| match doc.node(c) {
            Node::Folder(f) => Some((safe(f.title.as_deref().unwrap_or(""), "New Folder"), "")),
            Node::Bookmark(b) => Some((
                safe(b.title.as_deref().unwrap_or(""), &fallback_name(&b.href)),
                ".url",
            )),
            _ => None,
        })
        .collect();
    let kept: Vec<bool> = children
        .iter()
        .zip(&wanted)
        .map(|(&c, w)| match w {
            Some((name, ext)) if doc.node(c).title() == Some(name.as_str()) => {
                names.claim(name, ext)
            }
            _ => false,
        })
        .collect();
    wanted
        .into_iter()
        .zip(kept)
        .map(|(w, kept)| w.map(|(name, ext)| if kept { name } else { names.unique(&name, ext) }))
        .collect()
}

/// Why a title changed on its way into a name.
fn renamed(title: Option<&str>) -> &'static str {
    match title {
        None | Some("") => "untitled: the file name gives it a title",
        Some(_) => {
            "the title is the file name: characters, device names, length or a clash on case-insensitive systems changed it"
        }
    }
}

/// A node that has no file in a directory: reported.
fn leaf_without_file(doc: &Document, id: NodeId, loss: &mut LossReport) {
    match doc.node(id) {
        Node::Separator(_) => loss.record(
            doc,
            Some(id),
            Field::Separator,
            "a directory has no separators",
        ),
        Node::Alias(_) => loss.record(doc, Some(id), Field::Alias, "a directory has no aliases"),
        _ => {}
    }
}

/// The `.url` file of a bookmark named `name`, with what it cannot carry
/// reported.
fn bookmark(
    doc: &Document,
    id: NodeId,
    b: &Bookmark,
    name: &str,
    loss: &mut LossReport,
) -> Vec<u8> {
    loss.record_unsupported(
        doc,
        Some(id),
        bookmark_fields(b),
        support,
        "an Internet Shortcut has no place for it",
    );
    if b.title.as_deref() != Some(name) {
        loss.record(
            doc,
            Some(id),
            Field::BookmarkTitle,
            renamed(b.title.as_deref()),
        );
    }
    shortcut(doc, id, b, loss)
}

/// A name for an untitled bookmark: its link's host, else `Link`.
fn fallback_name(href: &str) -> String {
    let rest = href.split_once("://").map_or(href, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit('@').next().unwrap_or("");
    if host.is_empty() {
        "Link".into()
    } else {
        host.into()
    }
}

/// Whether `value` can stand on one INI line and read back unchanged.
fn one_line(value: &str) -> bool {
    !value.contains(['\r', '\n']) && !value.starts_with([' ', '\t'])
}

/// The `.url` file of a bookmark: CRLF lines; ASCII when every value is,
/// else UTF-8 with a byte order mark.
fn shortcut(doc: &Document, id: NodeId, b: &Bookmark, loss: &mut LossReport) -> Vec<u8> {
    let mut main = String::from("[InternetShortcut]\r\n");
    let mut lines: Vec<(Option<&str>, String)> = Vec::new();
    if one_line(&b.href) {
        main.push_str(&format!("URL={}\r\n", b.href));
    } else {
        main.push_str("URL=\r\n");
        loss.record(
            doc,
            Some(id),
            Field::BookmarkHref,
            "a link with a line break or leading blanks cannot stand on a URL= line",
        );
    }
    if let Some(icon) = &b.details().icon {
        if one_line(icon) {
            main.push_str(&format!("IconFile={icon}\r\n"));
        } else {
            loss.record(
                doc,
                Some(id),
                Field::BookmarkIcon,
                "an icon reference with a line break",
            );
        }
    }
    if let Some(date) = &b.modified {
        modified(doc, id, date, &mut main, loss);
    }
    let mut extra_lost = false;
    for a in &b.details().extra {
        let (section, key) = match a.name.strip_prefix('[').and_then(|r| r.split_once(']')) {
            Some((s, k)) => (Some(s), k),
            None => (None, a.name.as_str()),
        };
        let key_ok = !key.is_empty()
            && one_line(key)
            && !key.contains('=')
            && !key.starts_with(['[', ';', '#'])
            && key.trim() == key;
        let section_ok = section.is_none_or(|s| {
            one_line(s) && !s.contains(']') && !s.eq_ignore_ascii_case("InternetShortcut")
        });
        let own = section.is_none()
            && OWN_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k))
            && !(key.eq_ignore_ascii_case("Modified")
                && b.modified.is_none()
                && filetime::parse(&a.value) == filetime::Parsed::Unset);
        let value_ok =
            !a.value.contains(['\r', '\n']) && a.value.trim_start_matches([' ', '\t']) == a.value;
        if !(key_ok && section_ok && value_ok) || own {
            extra_lost = true;
            continue;
        }
        lines.push((section, format!("{key}={}\r\n", a.value)));
    }
    if extra_lost {
        loss.record(
            doc,
            Some(id),
            Field::BookmarkExtra,
            "a value whose name or text cannot be an INI line, or that names one of markport's own keys",
        );
    }
    // The sections in the order of the values they hold, so the values
    // read back in order; markport's own keys open the first
    // [InternetShortcut], which comes last when no value of it does
    // (Windows writes [DEFAULT] before it).
    let mut text = String::new();
    let mut last: Option<Option<&str>> = None;
    let mut main_written = false;
    for (s, line) in &lines {
        if last != Some(*s) {
            match s {
                Some(s) => text.push_str(&format!("[{s}]\r\n")),
                None if !main_written => {
                    text.push_str(&main);
                    main_written = true;
                }
                None => text.push_str("[InternetShortcut]\r\n"),
            }
            last = Some(*s);
        }
        text.push_str(line);
    }
    if !main_written {
        text.push_str(&main);
    }
    if text.is_ascii() {
        text.into_bytes()
    } else {
        let mut out = b"\xEF\xBB\xBF".to_vec();
        out.extend(text.into_bytes());
        out
    }
}

fn modified(
    doc: &Document,
    id: NodeId,
    date: &DateValue,
    main: &mut String,
    loss: &mut LossReport,
) {
    let text = filetime::format(date).filter(|t| one_line(t) && !t.is_empty());
    let back = text.as_deref().map(filetime::parse);
    match (text, back) {
        (Some(text), Some(filetime::Parsed::Date(back, _))) if back.same(date) => {
            if !back.same_form(date) {
                loss.record(
                    doc,
                    Some(id),
                    Field::BookmarkModifiedForm,
                    "written as a FILETIME: 100-nanosecond steps, UTC",
                );
            }
            main.push_str(&format!("Modified={text}\r\n"));
        }
        _ => loss.record(
            doc,
            Some(id),
            Field::BookmarkModified,
            "Modified= holds a FILETIME (1601 onwards, 100-nanosecond steps): this date cannot be one",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::{diff, Folder};

    /// `doc` written as a tree and read back.
    fn round_trip(doc: &Document) -> (LossReport, Document) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let (loss, staged) = stage(doc, &out).unwrap();
        staged.swap().unwrap().clean().unwrap();
        let back = crate::read_path(&out, &Default::default()).unwrap();
        (loss, back.document)
    }

    /// A chain of `depth` folders `d`, each holding a bookmark `b`.
    fn chain(depth: usize) -> Document {
        let mut doc = Document::new();
        let mut at = None;
        for i in 0..depth {
            let f = doc.push(at, Folder::titled("d"));
            doc.push(
                Some(f),
                Bookmark::new(format!("https://{i}.example/")).with_title("b"),
            );
            at = Some(f);
        }
        doc
    }

    #[test]
    fn a_path_longer_than_a_file_system_takes_is_refused_before_anything_is_written() {
        // `d/` 2,045 times and `b.url`: 4,095 bytes, the longest path there is.
        let (files, _, _) = plan(&chain(2_045)).unwrap();
        let longest = files.iter().map(|f| f.path.len()).max();
        assert_eq!(longest, Some(MAX_PATH));
        let err = plan(&chain(2_046)).map(|_| ()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Invalid);
        assert_eq!(
            err.message,
            "a favorites tree cannot hold \"b\", 2046 folders deep: its path would be 4097 bytes, more than the 4095 a file system takes"
        );
        // Far deeper: refused at the same place, and nothing is written.
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let err = stage(&chain(100_000), &out).map(|_| ()).unwrap_err();
        assert!(err.message.contains("2046 folders deep"), "{}", err.message);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn only_the_deepest_empty_folders_are_made_as_directories_of_their_own() {
        let mut doc = Document::new();
        let a = doc.push(None, Folder::titled("A"));
        let b = doc.push(Some(a), Folder::titled("B"));
        doc.push(Some(b), Folder::titled("C"));
        doc.push(Some(a), Bookmark::new("https://x.example/").with_title("x"));
        doc.push(None, Folder::titled("Empty"));
        let (_, dirs, _) = plan(&doc).unwrap();
        assert_eq!(dirs, ["A/B/C", "Empty"]);
        let (loss, back) = round_trip(&doc);
        assert!(loss.is_empty() && diff(&doc, &back).is_empty(), "{loss:?}");
    }

    #[test]
    fn a_renamed_node_never_takes_the_name_another_has_as_its_title() {
        // As --tags-as-folders=all makes them: tags `a/b` and `a_b` are two
        // folders, each holding a copy of one link. `a/b` cannot be a name;
        // were it given `a_b` (it comes first), `a_b` would become
        // `a_b (2)` and the two would pair crosswise when read back: a
        // title and both copies' places differing where one title was
        // reported.
        let mut doc = Document::new();
        for tag in ["a/b", "a_b"] {
            let f = doc.push(None, Folder::titled(tag));
            doc.push(Some(f), Bookmark::new("https://x.example/").with_title("x"));
        }
        let (loss, back) = round_trip(&doc);
        let titles: Vec<_> = back
            .children(None)
            .iter()
            .map(|&f| back.node(f).title().unwrap().to_owned())
            .collect();
        assert_eq!(titles, ["a_b (2)", "a_b"]);
        let d = diff(&doc, &back);
        assert_eq!(d.fields(), loss.fields());
        let counts =
            |v: Vec<(Field, usize)>| v.into_iter().collect::<std::collections::BTreeMap<_, _>>();
        assert_eq!(
            counts(d.differences.iter().map(|x| (x.field, x.count)).collect()),
            counts(loss.losses.iter().map(|l| (l.field, l.count)).collect()),
        );
        assert_eq!(
            counts(loss.losses.iter().map(|l| (l.field, l.count)).collect()),
            counts(vec![(Field::FolderTitle, 1)])
        );
    }
}
