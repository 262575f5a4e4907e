//! Desktop bookmarks (freedesktop desktop-bookmark spec 0.8.5): what the
//! spec requires of each bookmark and its freedesktop `<metadata>`, and
//! what GLib's GBookmarkFile refuses (the checklist in the peer corpus).
//! The XBEL walk ([`super::walk`]) calls in here; nothing here knows that walk.

use std::collections::HashMap;

use super::Sink;
use crate::names::{BOOKMARK_NS, FREEDESKTOP_OWNER, MIME_NS};
use crate::rules::*;

/// An element inside the freedesktop `<metadata>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FdKind {
    /// The `<metadata owner="http://freedesktop.org">` itself.
    Metadata,
    Applications,
    Groups,
    Group,
    Private,
    /// `mime-type`, `icon`, `application`: no elements inside (GLib).
    Leaf,
}

/// What one bookmark has shown so far.
#[derive(Default)]
struct Item {
    at: usize,
    mime: bool,
    /// A `<mime:mime-type>` was seen (reported there if it lacked a type).
    mime_element: bool,
    applications: Vec<String>,
}

/// The desktop rules' state across the walk.
#[derive(Default)]
pub(crate) struct Desktop {
    item: Option<Item>,
    /// Every href and where, for duplicates.
    uris: HashMap<String, usize>,
}

/// Report a date GLib would not read.
pub(crate) fn check_date(sink: &mut Sink<'_>, name: &str, value: &str, at: usize) {
    if markport_model::Timestamp::parse_glib(value).is_none() {
        sink.at(
            &DESKTOP_BAD_DATE,
            at,
            format!(
                "{name}={value:?} is not a date GLib reads (ISO 8601 with date, time and zone, e.g. 2024-05-01T09:30:00Z)"
            ),
        );
    }
}

/// Whether `href` has a URI scheme.
fn has_scheme(href: &str) -> bool {
    let Some((scheme, _)) = href.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Whether a `file:` URI's path is absolute: `file:///p`, `file://host/p`
/// or `file:/p`.
fn absolute_file_uri(rest: &str) -> bool {
    match rest.strip_prefix("//") {
        Some(authority_and_path) => authority_and_path.contains('/'),
        None => rest.starts_with('/'),
    }
}

impl Desktop {
    /// A `<metadata owner>` opens: the kind of frame, when it is the
    /// freedesktop block.
    pub(crate) fn metadata(&mut self, owner: Option<&str>) -> Option<FdKind> {
        (owner == Some(FREEDESKTOP_OWNER)).then_some(FdKind::Metadata)
    }

    /// A child element of another owner's `<metadata>`: GLib refuses the
    /// file at the first one.
    pub(crate) fn foreign_metadata_child(&mut self, sink: &mut Sink<'_>, seen: u32, at: usize) {
        if seen == 1 {
            sink.at(
                &DESKTOP_FOREIGN_METADATA,
                at,
                "an element inside another owner's <metadata>: the spec says to ignore it, but GLib refuses the whole file",
            );
        }
    }

    /// `<folder>`, `<alias>` or `<separator>` in the document.
    pub(crate) fn xbel_element(&mut self, sink: &mut Sink<'_>, name: &str, at: usize) {
        sink.at(
            &DESKTOP_XBEL_ELEMENT,
            at,
            if name == "info" {
                "an <info> for the whole document: XBEL allows it, GLib refuses the whole file".to_string()
            } else {
                format!("<{name}> should not be used in desktop bookmarks (the spec says to ignore it; GLib refuses the whole file)")
            },
        );
    }

    /// A `<bookmark>` opens with these attributes (name, value, offset).
    pub(crate) fn bookmark(
        &mut self,
        sink: &mut Sink<'_>,
        at: usize,
        href: Option<(&str, usize)>,
        attrs: &[(&str, &str, usize)],
    ) {
        self.item = Some(Item {
            at,
            ..Item::default()
        });
        let others: Vec<&str> = attrs
            .iter()
            .map(|a| a.0)
            .filter(|n| !matches!(*n, "href" | "added" | "modified" | "visited"))
            .collect();
        if let (Some(first), false) = (
            attrs.iter().find(|a| others.contains(&a.0)),
            others.is_empty(),
        ) {
            sink.at(
                &DESKTOP_BOOKMARK_ATTRIBUTE,
                first.2,
                format!(
                    "GLib refuses a <bookmark> with {}: it reads only href, added, modified and visited",
                    others.join(", ")
                ),
            );
        }
        let Some((href, href_at)) = href else {
            return;
        };
        if !has_scheme(href) {
            sink.at(
                &DESKTOP_NOT_A_URI,
                href_at,
                format!("href {href:?} is not a URI; a local path is written as a file:/// URI"),
            );
        } else if href.len() >= 5
            && href[..5].eq_ignore_ascii_case("file:")
            && !absolute_file_uri(&href[5..])
        {
            sink.at(
                &DESKTOP_RELATIVE_FILE_URI,
                href_at,
                format!("href {href:?} is not an absolute file: URI (file:///path)"),
            );
        }
        match self.uris.get(href) {
            Some(&first) => {
                let line = sink.line_of(first);
                sink.at(
                    &DESKTOP_DUPLICATE_URI,
                    href_at,
                    format!("the bookmark on line {line} has this URI already; GLib refuses the whole file"),
                );
            }
            None => {
                self.uris.insert(href.to_owned(), href_at);
            }
        }
    }

    /// The `<bookmark>` closes: what the spec makes mandatory.
    pub(crate) fn end_bookmark(&mut self, sink: &mut Sink<'_>) {
        let Some(item) = self.item.take() else {
            return;
        };
        if !item.mime && !item.mime_element {
            sink.at(
                &DESKTOP_MISSING_MIME_TYPE,
                item.at,
                "this bookmark has no <mime:mime-type> (mandatory in the spec's freedesktop metadata)",
            );
        }
        if item.applications.is_empty() {
            sink.at(
                &DESKTOP_MISSING_APPLICATION,
                item.at,
                "no <bookmark:application> registered this bookmark (every bookmark must have at least one)",
            );
        }
    }

    /// An element opens inside the freedesktop metadata, in `parent`;
    /// `ns` is the URI its prefix is bound to. Returns what the element is,
    /// or `None` for content nothing here checks.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn child(
        &mut self,
        sink: &mut Sink<'_>,
        parent: FdKind,
        ns: Option<&str>,
        unprefixed: bool,
        local: &str,
        at: usize,
        attrs: &[(&str, &str, usize)],
    ) -> Option<FdKind> {
        // GLib matches by namespace URI, and takes an unprefixed name when
        // no default namespace is declared.
        let bookmark_ns = ns == Some(BOOKMARK_NS) || (unprefixed && ns.is_none());
        let mime_ns = ns == Some(MIME_NS) || (unprefixed && ns.is_none());
        let attr = |name: &str| attrs.iter().find(|a| a.0 == name);
        match parent {
            FdKind::Metadata => {
                if bookmark_ns && local == "applications" {
                    Some(FdKind::Applications)
                } else if bookmark_ns && local == "groups" {
                    Some(FdKind::Groups)
                } else if bookmark_ns && local == "private" {
                    Some(FdKind::Private)
                } else if bookmark_ns && local == "icon" {
                    if attr("href").is_none() {
                        sink.at(
                            &DESKTOP_ICON_WITHOUT_HREF,
                            at,
                            "<bookmark:icon> has no href (required; GLib refuses the file)",
                        );
                    }
                    Some(FdKind::Leaf)
                } else if mime_ns && local == "mime-type" {
                    let item = self.item.get_or_insert_with(Item::default);
                    item.mime_element = true;
                    match attr("type") {
                        Some(t) if !t.1.trim().is_empty() => item.mime = true,
                        _ => sink.at(
                            &DESKTOP_MISSING_MIME_TYPE,
                            at,
                            "<mime:mime-type> has no type attribute (GLib reads application/octet-stream)",
                        ),
                    }
                    Some(FdKind::Leaf)
                } else {
                    sink.at(
                        &DESKTOP_UNKNOWN_ELEMENT,
                        at,
                        format!(
                            "<{local}> (namespace {}) is not a desktop-bookmark element; GLib refuses the file",
                            ns.unwrap_or("none")
                        ),
                    );
                    None
                }
            }
            FdKind::Applications if bookmark_ns && local == "application" => {
                self.application(sink, at, attrs);
                Some(FdKind::Leaf)
            }
            FdKind::Applications => {
                sink.at(
                    &DESKTOP_UNKNOWN_ELEMENT,
                    at,
                    format!("<{local}> in <bookmark:applications>, which holds only <bookmark:application>"),
                );
                None
            }
            FdKind::Groups if bookmark_ns && local == "group" => Some(FdKind::Group),
            FdKind::Groups | FdKind::Group => {
                sink.at(
                    &DESKTOP_BAD_GROUPS,
                    at,
                    if parent == FdKind::Group {
                        format!("<{local}> inside <bookmark:group>, which holds a group name only")
                    } else {
                        format!("<{local}> in <bookmark:groups>, which holds only <bookmark:group>")
                    },
                );
                None
            }
            FdKind::Private => {
                sink.at(
                    &DESKTOP_BAD_PRIVATE,
                    at,
                    format!("<{local}> inside <bookmark:private>, which is an empty flag"),
                );
                None
            }
            FdKind::Leaf => {
                sink.at(
                    &DESKTOP_UNKNOWN_ELEMENT,
                    at,
                    format!(
                        "<{local}> inside an element that holds no elements; GLib refuses the file"
                    ),
                );
                None
            }
        }
    }

    fn application(&mut self, sink: &mut Sink<'_>, at: usize, attrs: &[(&str, &str, usize)]) {
        let attr = |name: &str| attrs.iter().find(|a| a.0 == name);
        let missing: Vec<&str> = ["name", "exec", "count", "modified"]
            .into_iter()
            .filter(|n| attr(n).is_none())
            .collect();
        if !missing.is_empty() {
            sink.at(
                &DESKTOP_APPLICATION_ATTRIBUTE,
                at,
                format!(
                    "<bookmark:application> has no {} (the spec requires name, exec, count and modified{})",
                    missing.join(", "),
                    if missing.contains(&"name") || missing.contains(&"exec") {
                        "; GLib refuses the file without name or exec"
                    } else {
                        ""
                    }
                ),
            );
        }
        if let Some(&(_, count, count_at)) = attr("count") {
            let whole = !count.is_empty() && count.bytes().all(|c| c.is_ascii_digit());
            if !whole || count.bytes().all(|c| c == b'0') || count.len() > 9 {
                sink.at(
                    &DESKTOP_BAD_COUNT,
                    count_at,
                    format!("count={count:?} is not a positive whole number of registrations"),
                );
            }
        }
        if let Some(&(_, modified, modified_at)) = attr("modified") {
            check_date(sink, "modified", modified, modified_at);
        }
        if let Some(&(_, name, name_at)) = attr("name") {
            let item = self.item.get_or_insert_with(Item::default);
            if item.applications.iter().any(|n| n == name) {
                sink.at(
                    &DESKTOP_DUPLICATE_APPLICATION,
                    name_at,
                    format!("application {name:?} is registered twice on this bookmark (each name once; GLib keeps the later one)"),
                );
            } else {
                item.applications.push(name.to_owned());
            }
        } else {
            // Still a registration, though an invalid one already reported.
            self.item
                .get_or_insert_with(Item::default)
                .applications
                .push(String::new());
        }
    }

    /// Text inside a freedesktop element.
    pub(crate) fn text(&mut self, sink: &mut Sink<'_>, fd: FdKind, blank: bool, at: usize) {
        if fd == FdKind::Private && !blank {
            sink.at(
                &DESKTOP_BAD_PRIVATE,
                at,
                "text inside <bookmark:private>, which is an empty flag",
            );
        }
    }

    /// A freedesktop element closes.
    pub(crate) fn end(
        &mut self,
        sink: &mut Sink<'_>,
        fd: FdKind,
        at: usize,
        text: bool,
        _elements: u32,
    ) {
        if fd == FdKind::Group && !text {
            sink.at(
                &DESKTOP_BAD_GROUPS,
                at,
                "an empty <bookmark:group> (it holds a group name)",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_absolute_or_not() {
        assert!(absolute_file_uri("///home/ana"));
        assert!(absolute_file_uri("//host/share"));
        assert!(absolute_file_uri("/home/ana"));
        assert!(!absolute_file_uri("home/ana"));
        assert!(!absolute_file_uri("//host"));
        assert!(!absolute_file_uri("relative.txt"));
        assert!(has_scheme("trash:/"));
        assert!(!has_scheme("/home/ana/x.txt"));
    }
}
