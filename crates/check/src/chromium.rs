//! Chromium's `Bookmarks` file: what Chromium's `BookmarkCodec` needs to
//! load a file as written rather than repair it (ids, guids, checksum),
//! the keys each node type must have, and dates as integer strings.
//!
//! One pass over markup's JSON pull parser with an explicit stack, which
//! also gathers what Chromium's checksum (the MD5 of the tree) is made of:
//! the check costs about what reading the file does, not twice that.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use markport_markup::json::{Event, Parser};

use crate::problem::Sink;
use crate::rules::*;

/// Where the walk is.
#[derive(Clone, Copy)]
enum Frame {
    /// The top-level object.
    Top,
    /// The `roots` object.
    Roots,
    /// A node object (index into the node stack).
    Node,
    /// A node's `children` array.
    Children,
}

/// What one open node has shown so far.
#[derive(Default)]
struct Node<'a> {
    at: usize,
    /// Its place in the checksum's order (see [`Record`]).
    slot: usize,
    name: Option<Cow<'a, str>>,
    kind: Option<(Cow<'a, str>, usize)>,
    id: Option<Cow<'a, str>>,
    url: Option<Cow<'a, str>>,
    children: bool,
}

/// What Chromium's checksum takes of a node: id, title, and the url of a
/// url node. Slots are taken when a node opens (pre-order, the checksum's
/// order) and filled when it closes (its keys come in any order; Chromium
/// writes `children` first).
type Record<'a> = (Cow<'a, str>, Cow<'a, str>, Option<Cow<'a, str>>);

/// The three roots Chromium writes; the first two it cannot load without.
const ROOTS: &[&str] = &["bookmark_bar", "other", "synced"];

/// Whether `s` is a lowercase UUID, the form Chromium's
/// `base::Uuid::ParseLowercase` accepts (others it replaces).
fn is_lowercase_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
        })
}

/// Check a `Bookmarks` file into `sink`.
pub(crate) fn check(input: &[u8], sink: &mut Sink<'_>) {
    let Some(walked) = walk(input, sink) else {
        return;
    };
    let Some((stored, at)) = walked.checksum.filter(|(sum, _)| !sum.is_empty()) else {
        return;
    };
    let computed = match walked.records {
        Some(records) => {
            let mut md5 = markport_chromium::md5::Md5::default();
            for (id, title, url) in &records {
                md5.node(id, title, url.as_deref());
            }
            md5.hex()
        }
        // Roots in another order, or a browser's own roots: the reader
        // knows where those go in the sum.
        None => match markport_chromium::checksum(input) {
            Ok(Some(sum)) => sum.computed,
            _ => return,
        },
    };
    if *stored != computed {
        sink.at(
            &CHROMIUM_CHECKSUM,
            at,
            format!(
                "checksum {stored} is not the sum of the content ({computed}): the file was changed after Chromium wrote it, and Chromium will renumber its ids"
            ),
        );
    }
}

/// What the walk found for the checksum.
struct Walked<'a> {
    /// The stored sum and where.
    checksum: Option<(Cow<'a, str>, usize)>,
    /// Every node's record in the checksum's order, unless the roots are
    /// not simply Chromium's three in its order.
    records: Option<Vec<Record<'a>>>,
}

/// The structural rules; `None` when the file is not JSON (reported).
fn walk<'a>(input: &'a [u8], sink: &mut Sink<'_>) -> Option<Walked<'a>> {
    let mut p = Parser::new(input);
    let mut frames: Vec<Frame> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut records: Vec<Record> = Vec::new();
    let mut checksum = None;
    // Only Chromium's roots, in its order: the records are the sum's order.
    let mut plain_roots = true;
    // Borrowed from the input: a string without escapes costs no copy.
    let mut ids: HashMap<Cow<'_, str>, usize> = HashMap::new();
    let mut guids: HashSet<Cow<'_, str>> = HashSet::new();
    let mut roots: Vec<&'static str> = Vec::new();
    let mut roots_at = None;
    // The key just read in the current object.
    let mut key: Option<(Cow<'_, str>, usize)> = None;
    loop {
        let (at, event) = match p.next() {
            Ok(Some(e)) => e,
            Ok(None) => break,
            Err(e) => {
                sink.at(
                    &CHROMIUM_NOT_JSON,
                    e.offset,
                    format!("{}; checking stops here", e.message),
                );
                return None;
            }
        };
        let event = match event {
            Event::Key(k) => {
                key = Some((k, at));
                continue;
            }
            other => other,
        };
        let in_frame = frames.last().copied();
        let k = key.take();
        let name: &str = k.as_ref().map_or("", |(n, _)| n);
        let structure = |sink: &mut Sink<'_>, message: String| {
            sink.at(&CHROMIUM_STRUCTURE, at, message);
        };
        match (in_frame, &event) {
            (None, Event::ObjectStart) => frames.push(Frame::Top),
            (None, _) => {
                structure(sink, "a Bookmarks file is a JSON object".into());
                return None;
            }
            (Some(Frame::Top), Event::ObjectEnd) => {
                frames.pop();
            }
            (Some(Frame::Top), Event::ObjectStart) if name == "roots" => {
                frames.push(Frame::Roots);
                roots_at = Some(at);
            }
            (Some(Frame::Top), Event::Str(sum)) if name == "checksum" => {
                checksum = Some((sum.clone(), at));
            }
            (Some(Frame::Top), first) => {
                if name == "roots" {
                    structure(sink, "`roots` must be an object".into());
                }
                if p.skip_value(at, first).is_err() {
                    continue;
                }
            }
            (Some(Frame::Roots), Event::ObjectEnd) => {
                frames.pop();
            }
            (Some(Frame::Roots), Event::ObjectStart) if ROOTS.contains(&name) => {
                let root = ROOTS.iter().find(|r| **r == name).expect("a root");
                let rank = |r: &&str| ROOTS.iter().position(|x| x == r);
                if roots.last().is_some_and(|last| rank(last) >= rank(root)) {
                    plain_roots = false;
                }
                roots.push(root);
                frames.push(Frame::Node);
                nodes.push(Node {
                    at,
                    slot: records.len(),
                    ..Node::default()
                });
                records.push(Record::default());
            }
            (Some(Frame::Roots), first) => {
                if let Some(root) = ROOTS.iter().find(|r| **r == name) {
                    roots.push(root);
                    structure(sink, format!("`roots.{name}` must be an object"));
                }
                // Other roots (Opera's, Vivaldi's) are the browser's own.
                plain_roots = false;
                let _ = p.skip_value(at, first);
            }
            (Some(Frame::Node), Event::ObjectEnd) => {
                frames.pop();
                let node = nodes.pop().expect("a node frame has a node");
                end_node(sink, &node);
                let url = node
                    .kind
                    .as_ref()
                    .filter(|(t, _)| t == "url")
                    .map(|_| node.url.clone().unwrap_or_default());
                records[node.slot] = (
                    node.id.clone().unwrap_or_default(),
                    node.name.clone().unwrap_or_default(),
                    url,
                );
            }
            (Some(Frame::Node), Event::ArrayStart) if name == "children" => {
                nodes.last_mut().expect("node").children = true;
                frames.push(Frame::Children);
            }
            (Some(Frame::Node), first) if name == "children" => {
                structure(sink, "`children` must be an array".into());
                let _ = p.skip_value(at, first);
            }
            (Some(Frame::Node), first) => {
                let node = nodes.last_mut().expect("node");
                let key_at = k.as_ref().map_or(at, |(_, a)| *a);
                let text = match first {
                    Event::Str(s) => Some(s.clone()),
                    _ => None,
                };
                match (name, text) {
                    ("name", Some(n)) => node.name = Some(n),
                    ("url", Some(u)) => node.url = Some(u),
                    ("type", Some(t)) => node.kind = Some((t, at)),
                    ("id", Some(id)) => {
                        node.id = Some(id.clone());
                        if id.is_empty() || !id.bytes().all(|c| c.is_ascii_digit()) {
                            sink.at(
                                &CHROMIUM_BAD_ID,
                                at,
                                format!("id {id:?} is not a decimal number; Chromium renumbers every node"),
                            );
                        } else if let Some(&first) = ids.get(&id) {
                            let line = sink.line_of(first);
                            sink.at(
                                &CHROMIUM_DUPLICATE_ID,
                                at,
                                format!("id {id:?} is already the id of the node on line {line}; Chromium renumbers every node"),
                            );
                        } else {
                            ids.insert(id, at);
                        }
                    }
                    ("guid", Some(guid)) => {
                        if !is_lowercase_uuid(&guid) {
                            sink.at(
                                &CHROMIUM_BAD_GUID,
                                at,
                                format!(
                                    "guid {guid:?} is not a lowercase UUID; Chromium replaces it"
                                ),
                            );
                        } else if guids.contains(&guid) {
                            sink.at(
                                &CHROMIUM_BAD_GUID,
                                at,
                                format!(
                                    "guid {guid:?} is already another node's; Chromium replaces it"
                                ),
                            );
                        } else {
                            guids.insert(guid);
                        }
                    }
                    ("date_added" | "date_modified" | "date_last_used", text) => {
                        let integer = text.as_deref().is_some_and(|t| {
                            !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit())
                        });
                        if !integer {
                            sink.at(
                                &CHROMIUM_BAD_DATE,
                                at,
                                format!(
                                    "{name} is {}, not a string of an integer (microseconds since 1601)",
                                    p.skip_value(at, first).unwrap_or("this")
                                ),
                            );
                            continue;
                        }
                    }
                    ("name" | "url" | "type" | "id" | "guid", None) => {
                        sink.at(
                            &CHROMIUM_MISSING_KEY,
                            key_at,
                            format!("`{name}` must be a string"),
                        );
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
                    slot: records.len(),
                    ..Node::default()
                });
                records.push(Record::default());
            }
            (Some(Frame::Children), first) => {
                structure(sink, "a member of `children` must be a node object".into());
                let _ = p.skip_value(at, first);
            }
        }
    }
    if let Some(at) = roots_at {
        for root in &ROOTS[..2] {
            if !roots.contains(root) {
                sink.at(
                    &CHROMIUM_MISSING_ROOT,
                    at,
                    format!("`roots` has no `{root}`; Chromium cannot load the file without it"),
                );
            }
        }
    } else {
        sink.at(&CHROMIUM_MISSING_ROOT, 0, "the file has no `roots` object");
    }
    Some(Walked {
        checksum,
        records: plain_roots.then_some(records),
    })
}

fn end_node(sink: &mut Sink<'_>, node: &Node<'_>) {
    let mut missing = Vec::new();
    if node.name.is_none() {
        missing.push("name");
    }
    if node.id.is_none() {
        missing.push("id");
    }
    match node.kind.as_ref().map(|(t, at)| (&**t, *at)) {
        None => missing.push("type"),
        Some(("url", _)) if node.url.is_none() => missing.push("url"),
        Some(("folder", _)) if !node.children => missing.push("children"),
        Some(("url" | "folder", _)) => {}
        Some((other, at)) => sink.at(
            &CHROMIUM_BAD_TYPE,
            at,
            format!("type {other:?} is neither \"url\" nor \"folder\""),
        ),
    }
    if !missing.is_empty() {
        sink.at(
            &CHROMIUM_MISSING_KEY,
            node.at,
            format!(
                "this {} node has no {}",
                node.kind.as_ref().map_or("", |(t, _)| &**t),
                missing.join(", ")
            )
            .replace("this  node", "this node"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_as_chromium_parses_them() {
        assert!(is_lowercase_uuid("00000005-0000-4000-8000-000000000005"));
        assert!(!is_lowercase_uuid("00000005-0000-4000-8000-00000000000A"));
        assert!(!is_lowercase_uuid("000000050000-4000-8000-000000000005x"));
        assert!(!is_lowercase_uuid("toolbar_____"));
    }
}
