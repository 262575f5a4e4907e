//! Writing a favorites tree: one Internet Shortcut (`.url`) per bookmark,
//! a sub-directory per folder, names made safe on every system
//! ([`crate::names`]).
//!
//! The tree is written whole or not at all, the way `markport publish`
//! writes a site (markport-site's `stage`): into a sibling directory first,
//! with a list of the files written ([`crate::MARKER`]), then swapped in.
//! A directory that is not empty and not a tree markport wrote is refused,
//! so no file markport did not write is ever deleted.

use std::path::Path;

use markport_markup::tree::{File, Staged};
use markport_model::{
    bookmark_fields, document_fields, folder_fields, Bookmark, DateValue, Document, Error,
    ErrorKind, Field, LossReport, Node, NodeId, Step,
};

use crate::filetime;
use crate::names::{safe, Names};
use crate::support;

/// The keys markport writes itself in `[InternetShortcut]`.
const OWN_KEYS: &[&str] = &["URL", "IconFile", "Modified"];

/// The deepest tree of folders any file system can hold.
const MAX_DEPTH: usize = 2_048;

/// A tree staged beside its directory: [`Staged::swap`] makes it the one
/// there; dropping it without a swap leaves the directory as it was (the
/// staging directory is removed by [`abandon`]).
pub fn stage(doc: &Document, dir: &Path) -> Result<(LossReport, Staged), Error> {
    // Every folder is at least one byte of name and a `/`: deeper than
    // this, no file system takes the path (PATH_MAX is 4,096 bytes), and
    // planning the paths of a far deeper document would cost memory in
    // the square of its depth before the first directory failed.
    let depth = doc.max_depth();
    if depth > MAX_DEPTH {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "a favorites tree cannot hold folders {depth} deep: a path is at most 4,096 bytes, so at most {MAX_DEPTH} folders"
            ),
            None,
        ));
    }
    let (files, dirs, loss) = plan(doc);
    let staged = markport_markup::tree::stage(&files, dir).map_err(|e| {
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
    // Empty folders are directories with no file to imply them.
    for d in &dirs {
        let path = staged.path().join(d);
        if let Err(e) = std::fs::create_dir_all(&path) {
            abandon(staged);
            return Err(Error::new(
                ErrorKind::Io,
                format!("{}: {e}", path.display()),
                None,
            ));
        }
    }
    Ok((loss, staged))
}

/// Remove a staged tree that is not to be swapped in.
pub fn abandon(staged: Staged) {
    let _ = std::fs::remove_dir_all(staged.path());
}

/// The files and directories of the tree, and what they cannot carry.
fn plan(doc: &Document) -> (Vec<File>, Vec<String>, LossReport) {
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
    // The open directories: their path and the names taken in them.
    let mut root = Names::default();
    root.reserve(crate::MARKER);
    root.reserve(crate::ORDER);
    // Every entry in the collection's order, for the reader (crate::ORDER).
    let mut order: Vec<String> = Vec::new();
    let mut open: Vec<(String, Names)> = vec![(String::new(), root)];
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                let Node::Folder(f) = doc.node(id) else {
                    continue;
                };
                loss.record_unsupported(
                    doc,
                    Some(id),
                    folder_fields(f),
                    support,
                    "a directory has a name and nothing else",
                );
                let (parent, names) = open.last_mut().expect("the root is open");
                let title = f.title.as_deref().unwrap_or("");
                let wanted = safe(title, "New Folder");
                let name = names.unique(&wanted, "");
                if f.title.as_deref() != Some(name.as_str()) {
                    loss.record(
                        doc,
                        Some(id),
                        Field::FolderTitle,
                        renamed(f.title.as_deref()),
                    );
                }
                let path = join(parent, &name);
                order.push(path.clone());
                dirs.push(path.clone());
                open.push((path, Names::default()));
            }
            Step::Close(id) => {
                if matches!(doc.node(id), Node::Folder(_)) {
                    open.pop();
                }
            }
            Step::Leaf(id) => {
                let (parent, names) = open.last_mut().expect("the root is open");
                let before = files.len();
                leaf(doc, id, parent, names, &mut files, &mut loss);
                if files.len() > before {
                    order.push(files[before].path.clone());
                }
            }
        }
    }
    if !order.is_empty() {
        files.push(File {
            path: crate::ORDER.to_owned(),
            bytes: serde_json::to_vec(&order).expect("strings serialise"),
        });
    }
    (files, dirs, loss)
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}/{name}")
    }
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

fn leaf(
    doc: &Document,
    id: NodeId,
    parent: &str,
    names: &mut Names,
    files: &mut Vec<File>,
    loss: &mut LossReport,
) {
    let b = match doc.node(id) {
        Node::Bookmark(b) => b,
        Node::Separator(_) => {
            loss.record(
                doc,
                Some(id),
                Field::Separator,
                "a directory has no separators",
            );
            return;
        }
        Node::Alias(_) => {
            loss.record(doc, Some(id), Field::Alias, "a directory has no aliases");
            return;
        }
        _ => return,
    };
    loss.record_unsupported(
        doc,
        Some(id),
        bookmark_fields(b),
        support,
        "an Internet Shortcut has no place for it",
    );
    let title = b.title.as_deref().unwrap_or("");
    let wanted = safe(title, &fallback_name(&b.href));
    let name = names.unique(&wanted, ".url");
    if b.title.as_deref() != Some(name.as_str()) {
        loss.record(
            doc,
            Some(id),
            Field::BookmarkTitle,
            renamed(b.title.as_deref()),
        );
    }
    let bytes = shortcut(doc, id, b, loss);
    files.push(File {
        path: join(parent, &format!("{name}.url")),
        bytes,
    });
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
