//! The freedesktop block (`owner="http://freedesktop.org"`): the
//! desktop-bookmark fields, elements matched by namespace URI whatever
//! their prefix.

use markport_model::{Application, Bookmark, DateValue, DesktopIcon, Document, Node};

use crate::block::{date_text, BlockWriter, Element, Owner, Warnings};
use crate::names::{BOOKMARK_NS, MIME_NS};

/// The namespace declarations written on the freedesktop `<metadata>`.
pub(crate) const NAMESPACES: &[(&str, &str)] =
    &[("xmlns:bookmark", BOOKMARK_NS), ("xmlns:mime", MIME_NS)];

/// Read the freedesktop block of the bookmark `owner` into its typed fields.
pub(crate) fn read(
    doc: &mut Document,
    owner: Owner,
    elements: Vec<Element>,
    warnings: &mut Warnings,
) {
    let Owner::Node(id) = owner else { return };
    let mut b = match doc.node_mut(id) {
        Node::Bookmark(b) => std::mem::take(b),
        _ => return,
    };
    for el in elements {
        if el.is(MIME_NS, "mime-type") {
            b.details_mut().desktop_mut().mime_type = Some(
                el.attr("type")
                    .unwrap_or_else(|| "application/octet-stream".into()),
            );
        } else if el.is(BOOKMARK_NS, "groups") || el.is(BOOKMARK_NS, "applications") {
        } else if el.is(BOOKMARK_NS, "group") && el.parent.as_deref() == Some("groups") {
            b.details_mut()
                .desktop_mut()
                .groups
                .push(el.text.into_owned());
        } else if el.is(BOOKMARK_NS, "application") && el.parent.as_deref() == Some("applications")
        {
            let count = el
                .attr("count")
                .and_then(|c| match c.trim().parse::<u32>() {
                    Ok(n) => Some(n),
                    Err(_) => {
                        warnings.push((
                            el.offset,
                            format!("application count {c:?} is not a number; ignored"),
                        ));
                        None
                    }
                });
            let date = |v: Option<String>, what: &str, warnings: &mut Warnings| {
                v.map(|t| {
                    let d = DateValue::from_w3c(&t);
                    if matches!(d, DateValue::Raw(_)) {
                        warnings.push((
                            el.offset,
                            format!(
                                "application {what} {t:?} is not a W3C date/time; kept as written"
                            ),
                        ));
                    }
                    d
                })
            };
            let modified = date(el.attr("modified"), "modified", warnings);
            let timestamp = el.attr("timestamp").map(|t| {
                match t
                    .trim()
                    .parse::<i64>()
                    .ok()
                    .and_then(markport_model::Timestamp::from_unix_seconds)
                {
                    Some(ts) => DateValue::Instant(ts),
                    None => DateValue::Raw(t.into()),
                }
            });
            let name = el.attr("name").unwrap_or_default();
            // The desktop-bookmark spec's default for a missing command line.
            let exec = el.attr("exec").unwrap_or_else(|| {
                warnings.push((
                    el.offset,
                    format!("application {name:?} has no exec; the spec's default \"{name} %u\" is used"),
                ));
                format!("{name} %u")
            });
            let mut app = Application::new(name, exec);
            app.count = count;
            app.modified = modified;
            app.timestamp = timestamp;
            b.details_mut().desktop_mut().applications.push(app);
        } else if el.is(BOOKMARK_NS, "icon") {
            let mut icon = DesktopIcon::default();
            icon.href = el.attr("href");
            icon.mime_type = el.attr("type");
            icon.name = el.attr("name");
            b.details_mut().desktop_mut().desktop_icon = Some(icon);
        } else if el.is(BOOKMARK_NS, "private") {
            b.private = Some(true);
        } else {
            warnings.push((
                el.offset,
                format!(
                    "<{}> is not a freedesktop bookmark element; ignored",
                    el.local
                ),
            ));
        }
    }
    // A vector's first push makes room for four: most items have one
    // application and a group or none, and a 100,000-item file would carry
    // some 30 MB of empty room.
    if !b.details().desktop().applications.is_empty() || !b.details().desktop().groups.is_empty() {
        let more = b.details_mut().desktop_mut();
        more.applications.shrink_to_fit();
        more.groups.shrink_to_fit();
    }
    *doc.node_mut(id) = Node::Bookmark(b);
}

/// The freedesktop block of a bookmark, in GLib's element order.
pub(crate) fn write(w: &mut BlockWriter, b: &Bookmark) {
    let more = b.details().desktop();
    if let Some(m) = &more.mime_type {
        w.element("mime:mime-type", &[("type", m)], None, false);
    }
    if !more.groups.is_empty() {
        w.parent("bookmark:groups", |w| {
            for g in &more.groups {
                w.element("bookmark:group", &[], Some(g), true);
            }
        });
    }
    if !more.applications.is_empty() {
        w.parent("bookmark:applications", |w| {
            for a in &more.applications {
                let count = a.count.map(|c| c.to_string());
                let modified = a.modified.as_ref().map(date_text);
                let timestamp = a.timestamp.as_ref().map(|t| match t {
                    DateValue::Instant(t) => t.unix_seconds().to_string(),
                    DateValue::Raw(r) => r.to_string(),
                });
                let mut attrs: Vec<(&str, &str)> = vec![("name", &a.name), ("exec", &a.exec)];
                if let Some(m) = &modified {
                    attrs.push(("modified", m));
                }
                if let Some(c) = &count {
                    attrs.push(("count", c));
                }
                if let Some(t) = &timestamp {
                    attrs.push(("timestamp", t));
                }
                w.element("bookmark:application", &attrs, None, true);
            }
        });
    }
    if let Some(i) = &more.desktop_icon {
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        if let Some(h) = &i.href {
            attrs.push(("href", h));
        }
        if let Some(t) = &i.mime_type {
            attrs.push(("type", t));
        }
        if let Some(n) = &i.name {
            attrs.push(("name", n));
        }
        w.element("bookmark:icon", &attrs, None, false);
    }
    if b.private == Some(true) {
        w.element("bookmark:private", &[], None, false);
    }
}
