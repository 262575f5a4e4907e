//! xFolk pages (xFolk RC1, specs/xfolk-rc1.txt): every `xfolkentry` has
//! its tagged link, and tags are `rel="tag"` links, as the format says.
//!
//! One pass over markup's element walk (HTML5's implied end tags, linear in
//! any page) with an explicit stack.

use markport_markup::charset;
use markport_markup::walk::{attr, Event, Walker};

use crate::problem::Sink;
use crate::rules::*;

/// Whether the class list `classes` holds `name`.
fn has_class(classes: &str, name: &str) -> bool {
    classes.split_ascii_whitespace().any(|c| c == name)
}

/// One open element, with what the rules need of it.
#[derive(Default)]
struct Open {
    /// An `xfolkentry`, opened here.
    entry: Option<usize>,
    /// A tagged link with an href was seen in the entry.
    linked: bool,
    /// Classed as tags (`tag`, `tags`) but not a `rel="tag"` link, opened here.
    tags: Option<usize>,
    /// A `rel="tag"` link was seen inside.
    rel_tag: bool,
}

/// Check an xFolk page into a sink over its decoded text; the problems.
pub(crate) fn check(input: &[u8]) -> Vec<crate::Problem> {
    let Ok(decoded) = charset::decode(input, None) else {
        return Vec::new();
    };
    let text: &str = &decoded.text;
    let mut sink = Sink::new(text.as_bytes());
    let mut walk = Walker::new(text);
    let mut stack: Vec<Open> = Vec::new();
    // Where the innermost open entry and tag container are in `stack`.
    let mut entries: Vec<usize> = Vec::new();
    let mut containers: Vec<usize> = Vec::new();
    while let Some(event) = walk.next() {
        match event {
            Event::Start { name, attrs, at } => {
                let classes = attr(attrs, "class").unwrap_or_default();
                let rel = attr(attrs, "rel").unwrap_or_default();
                let is_a = name.eq_ignore_ascii_case("a");
                let rel_tag = is_a
                    && rel
                        .split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("tag"));
                let mut open = Open::default();
                if has_class(&classes, "xfolkentry") {
                    open.entry = Some(at);
                    entries.push(stack.len());
                }
                if has_class(&classes, "taggedlink") && is_a && attr(attrs, "href").is_some() {
                    match entries.last() {
                        Some(&e) if e == stack.len() => open.linked = true,
                        Some(&e) => stack[e].linked = true,
                        None => {}
                    }
                }
                if rel_tag {
                    if let Some(&c) = containers.last() {
                        stack[c].rel_tag = true;
                    }
                } else if !entries.is_empty()
                    && (has_class(&classes, "tag") || has_class(&classes, "tags"))
                {
                    open.tags = Some(at);
                    containers.push(stack.len());
                }
                stack.push(open);
            }
            Event::End { .. } => {
                let Some(open) = stack.pop() else { continue };
                let here = stack.len();
                if let Some(at) = open.tags {
                    containers.pop();
                    if open.rel_tag {
                        if let Some(&c) = containers.last() {
                            stack[c].rel_tag = true;
                        }
                    } else {
                        sink.at(
                            &XFOLK_TAG_NOT_REL_TAG,
                            at,
                            "tags marked by class, not as rel=\"tag\" links: xFolk readers do not see them",
                        );
                    }
                }
                if let Some(at) = open.entry {
                    entries.pop();
                    debug_assert!(entries.last().is_none_or(|&e| e < here));
                    if !open.linked {
                        sink.at(
                            &XFOLK_MISSING_TAGGEDLINK,
                            at,
                            "this xfolkentry has no <a class=\"taggedlink\" href>: readers skip it",
                        );
                    }
                }
            }
            Event::Text { .. } => {}
        }
    }
    sink.finish()
}
