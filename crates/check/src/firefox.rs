//! Firefox bookmark backups (`bookmarks-*.json`, `.jsonlz4`): the places
//! root and the roots under it with their fixed guids, `typeCode` and
//! `type` in agreement, guids in Places' form, what each node type needs,
//! dates as integers — what Firefox's `BookmarkJSONUtils` restore relies on.
//!
//! One pass over markup's JSON pull parser with an explicit stack.

use std::borrow::Cow;
use std::collections::HashMap;

use markport_markup::json::{Event, Options, Parser};

use crate::problem::Sink;
use crate::rules::*;

/// Each root's `root` name, its fixed guid, and whether a restore needs it.
const ROOTS: &[(&str, &str, bool)] = &[
    ("placesRoot", "root________", true),
    ("bookmarksMenuFolder", "menu________", true),
    ("toolbarFolder", "toolbar_____", true),
    ("unfiledBookmarksFolder", "unfiled_____", true),
    ("mobileFolder", "mobile______", false),
    ("tagsFolder", "tags________", false),
];

/// The three node types, by `typeCode` and `type`.
const TYPES: &[(&str, &str)] = &[
    ("1", "text/x-moz-place"),
    ("2", "text/x-moz-place-container"),
    ("3", "text/x-moz-place-separator"),
];

/// Whether `s` is a Places guid: twelve characters of URL-safe base64.
fn is_places_guid(s: &str) -> bool {
    s.len() == 12
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

#[derive(Clone, Copy)]
enum Frame {
    Node,
    Children,
}

/// What one open node has shown so far.
#[derive(Default)]
struct Node<'a> {
    at: usize,
    guid: Option<(Cow<'a, str>, usize)>,
    root: Option<(Cow<'a, str>, usize)>,
    kind: Option<(Cow<'a, str>, usize)>,
    code: Option<(Cow<'a, str>, usize)>,
    uri: bool,
    /// The `root` names of its children (for the places root).
    child_roots: Vec<Cow<'a, str>>,
}

/// Check a backup (already decompressed) into `sink`.
pub(crate) fn check(input: &[u8], sink: &mut Sink<'_>) {
    let mut p = Parser::with_options(
        input,
        Options {
            trailing_commas: true,
        },
    );
    let mut frames: Vec<Frame> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    // Borrowed from the input: a string without escapes costs no copy.
    let mut guids: HashMap<Cow<'_, str>, usize> = HashMap::new();
    let mut key: Option<(Cow<'_, str>, usize)> = None;
    let mut top_done = false;
    loop {
        let (at, event) = match p.next() {
            Ok(Some(e)) => e,
            Ok(None) => break,
            Err(e) => {
                sink.at(
                    &FIREFOX_NOT_JSON,
                    e.offset,
                    format!("{}; checking stops here", e.message),
                );
                return;
            }
        };
        let event = match event {
            Event::Key(k) => {
                key = Some((k, at));
                continue;
            }
            other => other,
        };
        let k = key.take();
        let name: &str = k.as_ref().map_or("", |(n, _)| n);
        match (frames.last().copied(), &event) {
            (None, Event::ObjectStart) if !top_done => {
                top_done = true;
                frames.push(Frame::Node);
                nodes.push(Node {
                    at,
                    ..Node::default()
                });
            }
            (None, first) => {
                sink.at(
                    &FIREFOX_STRUCTURE,
                    at,
                    "a backup is one JSON object, the places root",
                );
                let _ = p.skip_value(at, first);
            }
            (Some(Frame::Node), Event::ObjectEnd) => {
                frames.pop();
                let node = nodes.pop().expect("a node frame has a node");
                let root = node.root.as_ref().map(|(r, _)| r.clone());
                end_node(sink, &node, nodes.is_empty(), &mut guids);
                if let (Some(parent), Some(root)) = (nodes.last_mut(), root) {
                    parent.child_roots.push(root);
                }
            }
            (Some(Frame::Node), Event::ArrayStart) if name == "children" => {
                frames.push(Frame::Children);
            }
            (Some(Frame::Node), first) => {
                let node = nodes.last_mut().expect("node");
                let text = match first {
                    Event::Str(s) => Some(s.clone()),
                    Event::Num(n) => Some(Cow::Borrowed(*n)),
                    _ => None,
                };
                match (name, text) {
                    ("children", _) => {
                        sink.at(&FIREFOX_STRUCTURE, at, "`children` must be an array")
                    }
                    ("guid", Some(g)) => node.guid = Some((g, at)),
                    ("root", Some(r)) => node.root = Some((r, at)),
                    ("type", Some(t)) => node.kind = Some((t, at)),
                    ("typeCode", Some(c)) => node.code = Some((c, at)),
                    ("uri", Some(_)) => node.uri = true,
                    ("dateAdded" | "lastModified", value) => {
                        let integer = matches!(first, Event::Num(_))
                            && value.is_some_and(|v| {
                                // Before 1970 is negative, and still an integer.
                                let digits = v.strip_prefix('-').unwrap_or(&v);
                                !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
                            });
                        if !integer {
                            sink.at(
                                &FIREFOX_BAD_DATE,
                                at,
                                format!(
                                    "{name} is {}, not an integer (microseconds since 1970)",
                                    p.skip_value(at, first).unwrap_or("this")
                                ),
                            );
                        }
                    }
                    _ => {}
                }
                let _ = p.skip_value(at, first);
            }
            (Some(Frame::Children), Event::ArrayEnd) => {
                frames.pop();
            }
            (Some(Frame::Children), Event::ObjectStart) => {
                frames.push(Frame::Node);
                nodes.push(Node {
                    at,
                    ..Node::default()
                });
            }
            (Some(Frame::Children), first) => {
                sink.at(
                    &FIREFOX_STRUCTURE,
                    at,
                    "a member of `children` must be a node object",
                );
                let _ = p.skip_value(at, first);
            }
        }
    }
    for &comma in p.trailing_commas() {
        sink.at(
            &FIREFOX_TRAILING_COMMA,
            comma,
            "a comma before a closing bracket (Firefox 3.x wrote them): today's Firefox refuses to restore the file",
        );
    }
}

fn end_node<'a>(
    sink: &mut Sink<'_>,
    node: &Node<'a>,
    top: bool,
    guids: &mut HashMap<Cow<'a, str>, usize>,
) {
    // typeCode and type.
    let by_code = node
        .code
        .as_ref()
        .map(|(c, at)| (TYPES.iter().find(|t| t.0 == c), c, *at));
    let by_type = node
        .kind
        .as_ref()
        .map(|(t, at)| (TYPES.iter().find(|x| x.1 == t), t, *at));
    if let Some((None, code, at)) = by_code {
        sink.at(
            &FIREFOX_TYPE_MISMATCH,
            at,
            format!("typeCode {code} is none of 1 (place), 2 (container), 3 (separator)"),
        );
    }
    if let Some((None, kind, at)) = by_type {
        sink.at(
            &FIREFOX_TYPE_MISMATCH,
            at,
            format!("type {kind:?} is none of text/x-moz-place, -container, -separator"),
        );
    }
    if let (Some((Some(a), code, at)), Some((Some(b), kind, _))) = (by_code, by_type) {
        if a != b {
            sink.at(
                &FIREFOX_TYPE_MISMATCH,
                at,
                format!("typeCode {code} says {} but type says {kind}", a.1),
            );
        }
    }
    let kind = by_type
        .and_then(|t| t.0)
        .or_else(|| by_code.and_then(|c| c.0));
    if kind.is_none() && by_code.is_none() && by_type.is_none() {
        sink.at(
            &FIREFOX_TYPE_MISMATCH,
            node.at,
            "this node has neither typeCode nor type",
        );
    }
    if kind.is_some_and(|k| k.0 == "1") && !node.uri {
        sink.at(
            &FIREFOX_MISSING_URI,
            node.at,
            "this place (a bookmark) has no uri",
        );
    }
    // The guid's form, and each guid once.
    if let Some((guid, at)) = &node.guid {
        if !is_places_guid(guid) {
            sink.at(
                &FIREFOX_BAD_GUID,
                *at,
                format!("guid {guid:?} is not twelve characters of A-Z, a-z, 0-9, - and _"),
            );
        } else if let Some(&first) = guids.get(guid) {
            let line = sink.line_of(first);
            sink.at(
                &FIREFOX_BAD_GUID,
                *at,
                format!("guid {guid:?} is already the guid of the node on line {line}"),
            );
        } else {
            guids.insert(guid.clone(), *at);
        }
    }
    // Roots and their fixed guids.
    if let Some((root, at)) = &node.root {
        match ROOTS.iter().find(|r| r.0 == root) {
            None => sink.at(
                &FIREFOX_ROOT,
                *at,
                format!("root {root:?} is not one of Places' roots"),
            ),
            Some(&(_, fixed, _)) => {
                if let Some((guid, guid_at)) = &node.guid {
                    if guid != fixed {
                        sink.at(
                            &FIREFOX_ROOT,
                            *guid_at,
                            format!("the {root} root's guid is {fixed:?}, not {guid:?}"),
                        );
                    }
                }
            }
        }
    } else if let Some((guid, at)) = &node.guid {
        if let Some((root, _, _)) = ROOTS.iter().find(|r| r.1 == guid) {
            sink.at(
                &FIREFOX_ROOT,
                *at,
                format!("guid {guid:?} belongs to the {root} root, but this node has no root"),
            );
        }
    }
    if top {
        if node.root.as_ref().is_none_or(|(r, _)| r != "placesRoot") {
            sink.at(
                &FIREFOX_ROOT,
                node.at,
                "the top node is not the places root (root \"placesRoot\")",
            );
            return;
        }
        for &(root, guid, needed) in &ROOTS[1..] {
            if needed && !node.child_roots.iter().any(|r| r == root) {
                sink.at(
                    &FIREFOX_ROOT,
                    node.at,
                    format!("the places root has no {root} ({guid}); Firefox restores into the menu, toolbar and unfiled roots"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_guids() {
        assert!(is_places_guid("toolbar_____"));
        assert!(is_places_guid("I4HRN9pxiDId"));
        assert!(!is_places_guid("I4HRN9pxiDI"));
        assert!(!is_places_guid("I4HRN9pxiD d"));
    }
}
