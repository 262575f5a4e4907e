//! Chromium's `Bookmarks` file: what Chromium's `BookmarkCodec` needs to
//! load a file as written rather than repair it (ids, guids, checksum),
//! the keys each node type must have, and dates as integer strings.
//!
//! One pass over markup's JSON pull parser with an explicit stack; the
//! checksum is the Chromium reader's (which computes Chromium's MD5 of the
//! tree and warns when the stored one differs).

use std::collections::{HashMap, HashSet};

use markport_markup::json::{Event, Parser};
use markport_model::ReadOptions;

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
struct Node {
    at: usize,
    name: bool,
    kind: Option<(String, usize)>,
    id: bool,
    url: bool,
    children: bool,
}

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
pub(crate) fn check(input: &[u8], format: &markport::Format, sink: &mut Sink<'_>) {
    if !walk(input, sink) {
        return;
    }
    // The checksum: Chromium's MD5 of the tree, as the reader computes it.
    if let Ok(parsed) = (format.read)(input, &ReadOptions::default()) {
        for d in parsed.diagnostics {
            if d.message.starts_with("checksum ") {
                let loc = d.location.map_or((1, 1), |l| (l.line, l.column));
                sink.problems.push(crate::Problem {
                    line: loc.0,
                    column: loc.1,
                    severity: CHROMIUM_CHECKSUM.severity,
                    rule: CHROMIUM_CHECKSUM.id,
                    message: format!(
                        "{}; Chromium will recompute ids and the sum",
                        d.message.split(": it was").next().unwrap_or(&d.message)
                    ),
                });
            }
        }
    }
}

/// The structural rules; `false` when the file is not JSON (reported).
fn walk(input: &[u8], sink: &mut Sink<'_>) -> bool {
    let mut p = Parser::new(input);
    let mut frames: Vec<Frame> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut guids: HashSet<String> = HashSet::new();
    let mut roots: Vec<&'static str> = Vec::new();
    let mut roots_at = None;
    // The key just read in the current object.
    let mut key: Option<(String, usize)> = None;
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
                return false;
            }
        };
        if let Event::Key(k) = &event {
            key = Some((k.to_string(), at));
            continue;
        }
        let in_frame = frames.last().copied();
        let k = key.take();
        let name = k.as_ref().map_or("", |(n, _)| n.as_str());
        let structure = |sink: &mut Sink<'_>, message: String| {
            sink.at(&CHROMIUM_STRUCTURE, at, message);
        };
        match (in_frame, &event) {
            (None, Event::ObjectStart) => frames.push(Frame::Top),
            (None, _) => {
                structure(sink, "a Bookmarks file is a JSON object".into());
                return false;
            }
            (Some(Frame::Top), Event::ObjectEnd) => {
                frames.pop();
            }
            (Some(Frame::Top), Event::ObjectStart) if name == "roots" => {
                frames.push(Frame::Roots);
                roots_at = Some(at);
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
                roots.extend(ROOTS.iter().find(|r| **r == name));
                frames.push(Frame::Node);
                nodes.push(Node {
                    at,
                    ..Node::default()
                });
            }
            (Some(Frame::Roots), first) => {
                if let Some(root) = ROOTS.iter().find(|r| **r == name) {
                    roots.push(root);
                    structure(sink, format!("`roots.{name}` must be an object"));
                }
                // Other roots (Opera's, Vivaldi's) are the browser's own.
                let _ = p.skip_value(at, first);
            }
            (Some(Frame::Node), Event::ObjectEnd) => {
                frames.pop();
                let node = nodes.pop().expect("a node frame has a node");
                end_node(sink, &node);
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
                    Event::Str(s) => Some(s.to_string()),
                    _ => None,
                };
                match (name, text) {
                    ("name", Some(_)) => node.name = true,
                    ("url", Some(_)) => node.url = true,
                    ("type", Some(t)) => node.kind = Some((t, at)),
                    ("id", Some(id)) => {
                        node.id = true;
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
                        } else if !guids.insert(guid.clone()) {
                            sink.at(
                                &CHROMIUM_BAD_GUID,
                                at,
                                format!(
                                    "guid {guid:?} is already another node's; Chromium replaces it"
                                ),
                            );
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
                    ..Node::default()
                });
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
    true
}

fn end_node(sink: &mut Sink<'_>, node: &Node) {
    let mut missing = Vec::new();
    if !node.name {
        missing.push("name");
    }
    if !node.id {
        missing.push("id");
    }
    match node.kind.as_ref().map(|(t, at)| (t.as_str(), *at)) {
        None => missing.push("type"),
        Some(("url", _)) if !node.url => missing.push("url"),
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
                node.kind.as_ref().map_or("", |(t, _)| t.as_str()),
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
