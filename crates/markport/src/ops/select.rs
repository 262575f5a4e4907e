//! Operations that choose what to convert: one folder, some tags, public
//! bookmarks, a range of added dates.

use std::collections::HashSet;

use markport_model::{DateValue, Document, Error, ErrorKind, Node, NodeId, Step, Timestamp};

/// Split `--only-folder`'s path into folder titles: `/` separates them,
/// `\/` is a slash in a title and `\\` a backslash.
///
/// ```
/// use markport::ops::folder_path;
///
/// assert_eq!(folder_path(r"Toolbar/AC\/DC/x\\y"), ["Toolbar", "AC/DC", r"x\y"]);
/// ```
pub fn folder_path(path: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n @ ('/' | '\\')) => parts.last_mut().expect("one part").push(n),
                Some(n) => {
                    let last = parts.last_mut().expect("one part");
                    last.push('\\');
                    last.push(n);
                }
                None => parts.last_mut().expect("one part").push('\\'),
            },
            '/' => parts.push(String::new()),
            c => parts.last_mut().expect("one part").push(c),
        }
    }
    parts
}

/// The folder at `path` (see [`folder_path`]): the first folder with each
/// title, from the top level down. The error names `flag` and the folders
/// that are there.
fn locate(doc: &Document, path: &str, flag: &str) -> Result<NodeId, Error> {
    let titles = folder_path(path);
    let mut at: Option<NodeId> = None;
    for (depth, title) in titles.iter().enumerate() {
        let found = doc.children(at).iter().copied().find(|&c| {
            matches!(doc.node(c), Node::Folder(f) if f.title.as_deref().unwrap_or("") == title)
        });
        match found {
            Some(f) => at = Some(f),
            None => {
                let mut names: Vec<String> = doc
                    .children(at)
                    .iter()
                    .filter_map(|&c| {
                        Some(doc.node(c).as_folder()?.title.clone().unwrap_or_default())
                    })
                    .map(|t| t.replace('\\', r"\\").replace('/', r"\/"))
                    .collect();
                names.truncate(10);
                let within = match depth {
                    0 => "at the top level".to_string(),
                    _ => format!("in {}", titles[..depth].join("/")),
                };
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "{flag}: no folder {title:?} {within} (folders there: {})",
                        if names.is_empty() {
                            "none".into()
                        } else {
                            names.join(", ")
                        }
                    ),
                    None,
                ));
            }
        }
    }
    at.ok_or_else(|| Error::new(ErrorKind::Invalid, format!("{flag}: empty path"), None))
}

/// Remove the folder at `path` (see [`folder_path`]) and everything in it.
/// Returns how many nodes were removed.
///
/// # Errors
/// [`ErrorKind::Invalid`] when no folder is at `path`; the document is unchanged.
///
/// ```
/// use markport::ops::exclude_folder;
/// use markport::{Bookmark, Document, Folder};
///
/// let mut doc = Document::new();
/// let bar = doc.push(None, Folder::titled("Bar"));
/// let old = doc.push(Some(bar), Folder::titled("Old"));
/// doc.push(Some(old), Bookmark::new("https://old.example/"));
/// doc.push(Some(bar), Bookmark::new("https://new.example/"));
/// assert!(exclude_folder(&mut doc, "Bar/Gone").is_err());
/// assert_eq!(exclude_folder(&mut doc, "Bar/Old").unwrap(), 2);
/// assert_eq!(doc.len(), 2);
/// ```
pub fn exclude_folder(doc: &mut Document, path: &str) -> Result<usize, Error> {
    let folder = locate(doc, path, "--exclude-folder")?;
    let before = doc.len();
    doc.remove(folder);
    Ok(before - doc.len())
}

/// Keep only what is inside the folder at `path` (see [`folder_path`]),
/// which becomes the top level; the folder itself and everything outside
/// it go. The first folder with each title is followed, from the top level
/// down. Returns how many nodes were removed.
///
/// # Errors
/// [`ErrorKind::Invalid`] when no folder is at `path`; the document is unchanged.
///
/// ```
/// use markport::ops::only_folder;
/// use markport::{Bookmark, Document, Folder};
///
/// let mut doc = Document::new();
/// let bar = doc.push(None, Folder::titled("Bar"));
/// let news = doc.push(Some(bar), Folder::titled("News/Daily"));
/// doc.push(Some(news), Bookmark::new("https://news.example/"));
/// doc.push(None, Bookmark::new("https://other.example/"));
/// assert!(only_folder(&mut doc, "Bar/News").is_err());
/// assert_eq!(only_folder(&mut doc, r"Bar/News\/Daily").unwrap(), 3);
/// assert_eq!(doc.path(doc.children(None)[0]), "https://news.example/");
/// ```
pub fn only_folder(doc: &mut Document, path: &str) -> Result<usize, Error> {
    let root = locate(doc, path, "--only-folder")?;
    let before = doc.len();
    let steps: Vec<Step> = doc.walk().collect();
    let mut old = std::mem::take(doc);
    doc.header = std::mem::take(&mut old.header);
    // Inside `root`: the new parent of each open folder.
    let mut parents: Vec<Option<NodeId>> = Vec::new();
    for step in steps {
        match step {
            Step::Open(id) if id == root => parents.push(None),
            Step::Close(id) if id == root => parents.clear(),
            _ if parents.is_empty() => {}
            Step::Open(id) => {
                let parent = *parents.last().expect("inside root");
                let node = take(&mut old, id);
                parents.push(Some(doc.push(parent, node)));
            }
            Step::Close(_) => {
                parents.pop();
            }
            Step::Leaf(id) => {
                let parent = *parents.last().expect("inside root");
                doc.push(parent, take(&mut old, id));
            }
        }
    }
    Ok(before - doc.len())
}

fn take(doc: &mut Document, id: NodeId) -> Node {
    std::mem::replace(doc.node_mut(id), markport_model::Separator::new().into())
}

/// Remove the bookmarks that have none of `tags` (compared without case),
/// and aliases; folders and separators stay. Returns how many bookmarks
/// were removed.
///
/// # Errors
/// [`ErrorKind::Invalid`] when no bookmark has any of the tags; the
/// document is unchanged.
///
/// ```
/// use markport::ops::only_tags;
/// use markport::{Bookmark, Document};
///
/// let mut doc = Document::new();
/// let mut b = Bookmark::new("https://www.rust-lang.org/");
/// b.tags = vec!["Rust".into()];
/// doc.push(None, b);
/// doc.push(None, Bookmark::new("https://other.example/"));
/// assert!(only_tags(&mut doc, &["go".into()]).is_err());
/// assert_eq!(only_tags(&mut doc, &["rust".into(), "go".into()]).unwrap(), 1);
/// assert_eq!(doc.len(), 1);
/// ```
pub fn only_tags(doc: &mut Document, tags: &[String]) -> Result<usize, Error> {
    let wanted: HashSet<String> = tags.iter().map(|t| t.to_lowercase()).collect();
    let has = |n: &Node| match n {
        Node::Bookmark(b) => b.tags.iter().any(|t| wanted.contains(&t.to_lowercase())),
        Node::Alias(_) => false,
        _ => true,
    };
    let matching = doc
        .ids()
        .filter(|&id| doc.node(id).as_bookmark().is_some() && has(doc.node(id)))
        .count();
    if matching == 0 {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("--only-tag: no bookmark is tagged {}", tags.join(" or ")),
            None,
        ));
    }
    let bookmarks = doc.census().bookmarks;
    doc.retain(|d, id| has(d.node(id)));
    Ok(bookmarks - matching)
}

/// Remove the bookmarks marked private. Returns how many were removed.
///
/// ```
/// use markport::ops::public_only;
/// use markport::{Bookmark, Document};
///
/// let mut doc = Document::new();
/// let mut secret = Bookmark::new("https://secret.example/");
/// secret.private = Some(true);
/// doc.push(None, secret);
/// doc.push(None, Bookmark::new("https://public.example/"));
/// assert_eq!(public_only(&mut doc), 1);
/// assert_eq!(doc.len(), 1);
/// ```
pub fn public_only(doc: &mut Document) -> usize {
    let before = doc.len();
    doc.retain(|d, id| {
        d.node(id)
            .as_bookmark()
            .is_none_or(|b| b.private != Some(true))
    });
    before - doc.len()
}

/// Keep the bookmarks added at or after `since` and before `until` (either
/// bound may be left open); a bookmark without an added date, or with one
/// that is not a date, is removed when a bound is given. Folders and
/// separators stay. Returns how many bookmarks were removed.
///
/// ```
/// use markport::ops::added_between;
/// use markport::model::Timestamp;
/// use markport::{Bookmark, Document};
///
/// let mut doc = Document::new();
/// for year in ["2019", "2021", "2023"] {
///     let mut b = Bookmark::new(format!("https://{year}.example/"));
///     b.added = Some(Timestamp::parse_w3c(year).unwrap().into());
///     doc.push(None, b);
/// }
/// let since = Timestamp::parse_w3c("2020-01-01").unwrap();
/// let until = Timestamp::parse_w3c("2023").unwrap();
/// assert_eq!(added_between(&mut doc, Some(since), Some(until)), 2);
/// assert_eq!(doc.path(doc.children(None)[0]), "https://2021.example/");
/// ```
pub fn added_between(
    doc: &mut Document,
    since: Option<Timestamp>,
    until: Option<Timestamp>,
) -> usize {
    let key = |t: &Timestamp| (t.unix_seconds(), t.subsec_nanos());
    let (since, until) = (since.as_ref().map(key), until.as_ref().map(key));
    if since.is_none() && until.is_none() {
        return 0;
    }
    let before = doc.len();
    doc.retain(|d, id| {
        let Some(b) = d.node(id).as_bookmark() else {
            return true;
        };
        let Some(t) = b.added.as_ref().and_then(DateValue::instant).map(key) else {
            return false;
        };
        since.is_none_or(|s| t >= s) && until.is_none_or(|u| t < u)
    });
    before - doc.len()
}
