//! `feed.atom`: the most recent bookmarks as an Atom feed (RFC 4287). Its
//! ids are derived from the content, and `updated` is the newest bookmark's
//! date, never the time of publishing: the same input gives the same feed.

use markport_markup::xml::{push_escaped, Escaping};
use markport_model::{DateValue, Document, Field, LossReport, NodeId, Timestamp};
use markport_xfolk::entry::{shown_title, unwritable, written_href};

// The characters a page cannot carry (`markport_xfolk::entry::unwritable`:
// those XML cannot hold, DEL and the C1 controls) are left out here without
// a report: the pages carry the same values and report them.
fn xml(out: &mut String, s: &str) {
    push_escaped(out, &without_unwritable(s), Escaping::Text);
}

fn xml_attr(out: &mut String, s: &str) {
    push_escaped(out, &without_unwritable(s), Escaping::Attribute);
}

fn without_unwritable(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains(unwritable) {
        std::borrow::Cow::Owned(s.replace(unwritable, ""))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// A stable `urn:uuid:` from text: a name-based UUID, version 5 (SHA-1,
/// RFC 9562), in markport's own namespace, so an entry keeps its id from
/// one publishing to the next and no other program's names collide with it.
fn uuid(text: &str) -> String {
    let id = uuid::Uuid::new_v5(&namespace(), text.as_bytes());
    format!("urn:uuid:{}", id.hyphenated())
}

/// markport's namespace for the feed's ids: the version-5 UUID of the URL
/// `urn:markport:site` in the URL namespace.
fn namespace() -> uuid::Uuid {
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, b"urn:markport:site")
}

fn instant(d: &Option<DateValue>) -> Option<&Timestamp> {
    d.as_ref().and_then(DateValue::instant)
}

/// `t` as an RFC 3339 `date-time` in UTC, or `None` when RFC 3339 cannot
/// write it: its four-digit year holds 0000 to 9999 only. (The model's
/// other fields are already in range: seconds 00-59, a leap second having
/// been read as :59, and the offset is `Z`.)
fn rfc3339(t: &Timestamp) -> Option<String> {
    let s = t.to_w3c_utc();
    let b = s.as_bytes();
    (b.len() > 4 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-').then_some(s)
}

/// A date of `d` as RFC 3339, reporting on `field` of `id` when it has an
/// instant RFC 3339 cannot write (a value that is not a date is not in the
/// feed at all, as before).
fn feed_date(
    loss: &mut LossReport,
    doc: &Document,
    id: NodeId,
    field: Field,
    d: &Option<DateValue>,
) -> Option<String> {
    let t = instant(d)?;
    let written = rfc3339(t);
    if written.is_none() {
        loss.record(
            doc,
            Some(id),
            field,
            "the feed leaves out a date RFC 3339 cannot write (a year before 0000 or after 9999)",
        );
    }
    written
}

/// The feed of `recent` (newest first). Every date in it is RFC 3339; a
/// date that cannot be is left out and reported in `loss`, and an entry
/// without any date it can write is left out of the feed (Atom requires an
/// entry's `updated`).
pub(crate) fn feed(
    doc: &Document,
    title: &str,
    recent: &[NodeId],
    site: Option<&url::Url>,
    loss: &mut LossReport,
) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>");
    xml(&mut out, title);
    out.push_str("</title>\n<id>");
    out.push_str(&uuid(&format!("markport site\n{title}")));
    out.push_str("</id>\n<updated>");
    let newest = recent
        .iter()
        .filter_map(|&id| doc.node(id).as_bookmark())
        .flat_map(|b| [instant(&b.modified), instant(&b.added)])
        .flatten()
        .filter(|t| rfc3339(t).is_some())
        .max_by_key(|t| (t.unix_seconds(), t.subsec_nanos()));
    let epoch = Timestamp::from_unix_seconds(0).expect("the epoch is a date");
    out.push_str(&newest.unwrap_or(&epoch).to_w3c_utc());
    out.push_str("</updated>\n<author><name>");
    xml(&mut out, title);
    out.push_str("</name></author>\n<generator>markport</generator>\n");
    if let Some(site) = site {
        for (rel, page) in [("self", "feed.atom"), ("alternate", "index.html")] {
            if let Ok(href) = site.join(page) {
                out.push_str(&format!("<link rel=\"{rel}\" href=\""));
                xml_attr(&mut out, href.as_str());
                out.push_str("\"/>\n");
            }
        }
    }
    for (n, &id) in recent.iter().enumerate() {
        let Some(b) = doc.node(id).as_bookmark() else {
            continue;
        };
        let added = instant(&b.added).copied().unwrap_or(epoch);
        let published = feed_date(loss, doc, id, Field::BookmarkAdded, &b.added);
        let modified = feed_date(loss, doc, id, Field::BookmarkModified, &b.modified);
        let Some(updated) = modified.or_else(|| published.clone()) else {
            continue;
        };
        out.push_str("<entry>\n<title>");
        xml(
            &mut out,
            &b.title
                .as_deref()
                .and_then(shown_title)
                .unwrap_or_else(|| b.href.clone()),
        );
        out.push_str("</title>\n<id>");
        out.push_str(&uuid(&format!("{}\n{}\n{n}", b.href, added.to_w3c_utc())));
        out.push_str("</id>\n<link rel=\"alternate\" href=\"");
        // The link as the pages write it, checked as it is written; a
        // relative one resolved against the site when its address is known.
        let href = written_href(&b.href);
        match site.filter(|_| url::Url::parse(&href).is_err()) {
            Some(site) => match site.join(&href) {
                Ok(absolute) => xml_attr(&mut out, absolute.as_str()),
                Err(_) => xml_attr(&mut out, &href),
            },
            None => xml_attr(&mut out, &href),
        }
        out.push_str("\"/>\n");
        if let Some(p) = &published {
            out.push_str("<published>");
            out.push_str(p);
            out.push_str("</published>\n");
        }
        out.push_str("<updated>");
        out.push_str(&updated);
        out.push_str("</updated>\n");
        if let Some(d) = &b.desc {
            out.push_str("<summary>");
            xml(&mut out, d);
            out.push_str("</summary>\n");
        }
        for (i, t) in b.tags.iter().enumerate() {
            if !t.is_empty() && !b.tags[..i].contains(t) {
                out.push_str("<category term=\"");
                xml_attr(&mut out, t);
                out.push_str("\"/>\n");
            }
        }
        out.push_str("</entry>\n");
    }
    out.push_str("</feed>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_distinct() {
        assert_eq!(uuid("a"), uuid("a"));
        assert_ne!(uuid("a"), uuid("b"));
        assert_eq!(uuid("a").len(), "urn:uuid:".len() + 36);
    }

    #[test]
    fn ids_are_version_5_uuids_of_the_name_in_markports_namespace() {
        for name in ["a", "https://example.org/\n2024-01-02T03:04:05Z\n1", ""] {
            let id = uuid(name);
            let parsed = uuid::Uuid::parse_str(id.strip_prefix("urn:uuid:").unwrap()).unwrap();
            assert_eq!(parsed.get_version(), Some(uuid::Version::Sha1), "{id}");
            assert_eq!(parsed.get_variant(), uuid::Variant::RFC4122, "{id}");
        }
        // Computed apart from the uuid crate (Python's uuid.uuid5): the
        // namespace, and an id in it.
        assert_eq!(
            namespace().to_string(),
            "f4019ea6-213c-57c1-b767-78d706b03729"
        );
        assert_eq!(uuid("a"), "urn:uuid:816fcfd8-7cca-5ea1-bab4-704436d12272");
    }

    #[test]
    fn text_is_escaped_and_xml_safe() {
        let mut s = String::new();
        xml(&mut s, "a<b>&\"c\"\u{1}\x0C");
        assert_eq!(s, "a&lt;b&gt;&amp;\"c\"");
        let mut a = String::new();
        xml_attr(&mut a, "\"t\tn\nr\r\u{1}");
        assert_eq!(a, "&quot;t&#x9;n&#xA;r&#xD;");
    }
}
