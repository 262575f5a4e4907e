//! The writer: GLib's exact layout (a file GLib wrote, read and written
//! back, is byte-identical), with the spec's rules applied and reported:
//! one flat list, one item per URI, a MIME type and an application for
//! every item. What GLib's own writer gets wrong (unescaped MIME types and
//! icon attributes, a lost line for an application without a date) is not
//! repeated.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::io::Write;

use chrono::{Datelike, Timelike};

use markport_model::{
    bookmark_fields, document_fields, Application, Bookmark, DateValue, Document, Error, Field,
    LossReport, Node, NodeId, Precision, Timestamp, WriteOptions,
};

use markport_markup::decimal::{push_decimal, push_padded};
use markport_markup::xml::{is_xml_char, Escaping, Indent, XmlWriter};

use crate::mime::mime_for;
use crate::uri::path_to_file_uri;

const HEADER: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xbel version=\"1.0\"\n      xmlns:bookmark=\"http://www.freedesktop.org/standards/desktop-bookmarks\"\n      xmlns:mime=\"http://www.freedesktop.org/standards/shared-mime-info\"\n>";

/// The date form GLib writes (`g_date_time_format_iso8601`): seconds,
/// microseconds only when not zero, `Z` or the offset as `+02` / `-05:30`.
/// Also whether anything finer than a microsecond was dropped.
pub fn glib_date(t: &Timestamp) -> (String, bool) {
    let mut s = String::with_capacity(32);
    let rounded = push_glib_date(&mut s, t);
    (s, rounded)
}

/// [`glib_date`] appended to `out`, without `fmt`: the desktop writer
/// formats several dates per item.
fn push_glib_date(out: &mut String, t: &Timestamp) -> bool {
    let dt = t.to_datetime();
    match u32::try_from(dt.year()) {
        Ok(y @ 0..=9999) => push_padded(out, u64::from(y), 4),
        _ => out.push_str(&dt.format("%Y").to_string()),
    }
    for (sep, n) in [
        ('-', dt.month()),
        ('-', dt.day()),
        ('T', dt.hour()),
        (':', dt.minute()),
        (':', dt.second()),
    ] {
        out.push(sep);
        push_padded(out, u64::from(n), 2);
    }
    let micros = t.subsec_nanos() / 1000;
    if micros != 0 {
        out.push('.');
        push_padded(out, u64::from(micros), 6);
    }
    match t.offset_seconds().unwrap_or(0) {
        0 => out.push('Z'),
        off => {
            out.push(if off < 0 { '-' } else { '+' });
            let a = off.unsigned_abs();
            push_padded(out, u64::from(a / 3600), 2);
            if !a.is_multiple_of(3600) {
                out.push(':');
                push_padded(out, u64::from((a % 3600) / 60), 2);
            }
        }
    }
    !t.subsec_nanos().is_multiple_of(1000)
}

/// The offset GLib's text reads back as: its hours and minutes.
fn written_offset(t: &Timestamp) -> i32 {
    let off = t.offset_seconds().unwrap_or(0);
    off.signum() * (off.unsigned_abs() / 60 * 60) as i32
}

/// Whether `t` reads back from [`glib_date`]'s text with the precision and
/// offset it has, answered without reading the text where that is sure:
/// GLib's text has a zone, and second or microsecond precision.
fn form_kept(t: &Timestamp, text: &str) -> bool {
    let precision = if t.subsec_nanos() / 1000 != 0 {
        Precision::Fraction(6)
    } else {
        Precision::Second
    };
    if t.offset_seconds() == Some(written_offset(t)) && t.precision() == precision {
        return true;
    }
    markport_model::Timestamp::parse_glib(text)
        .is_none_or(|back| DateValue::Instant(back).same_form(&DateValue::Instant(*t)))
}

/// Whether a value reads back unchanged: text turns CR into LF, attributes
/// turn TAB, LF and CR into spaces, and NUL, U+FFFE and U+FFFF have no
/// form XML (or GLib) reads; other control characters go as references.
fn survives(s: &str, attribute: bool) -> bool {
    // Only control bytes and 0xEF (which starts U+FFFE and U+FFFF) can
    // start such a character: most values are ruled out by one pass over bytes.
    if !s.bytes().any(|b| b < 0x20 || b == 0xEF) {
        return true;
    }
    s.chars().all(|c| match c {
        '\t' | '\n' => !attribute,
        '\r' => false,
        c => Escaping::GMarkup.is_reference(c) || is_xml_char(c),
    })
}

struct Writer<'d> {
    doc: &'d Document,
    /// GLib's escaping ([`XmlWriter::gmarkup`]).
    out: XmlWriter,
    /// The date being written, kept to reuse its buffer.
    date: String,
    loss: LossReport,
    /// The fields of nodes already reported: a node counts once per field
    /// (as `diff` counts it), whatever else goes wrong with the field (a
    /// made registration dated with a date that is not one).
    lost: HashSet<(NodeId, Field)>,
}

impl Writer<'_> {
    fn lose(&mut self, node: Option<NodeId>, field: Field, why: &str) {
        if node.is_some_and(|id| !self.lost.insert((id, field))) {
            return;
        }
        self.loss.record(self.doc, node, field, why);
    }

    fn text_element(
        &mut self,
        pad: Indent,
        name: &str,
        value: &str,
        node: Option<NodeId>,
        field: Field,
    ) {
        if !survives(value, false) {
            self.lose(
                node,
                field,
                "carriage returns, NUL, U+FFFE and U+FFFF do not survive XML",
            );
        }
        self.out.text_element(pad, name, &[], value);
    }

    fn attr(&mut self, name: &str, value: &str, node: Option<NodeId>, field: Field) {
        if !survives(value, true) {
            self.lose(
                node,
                field,
                "tabs and line ends in attributes read back as spaces; NUL, U+FFFE and U+FFFF do not survive XML",
            );
        }
        self.out.attr(name, value);
    }

    fn date_attr(&mut self, name: &str, d: Option<&DateValue>, node: Option<NodeId>, field: Field) {
        match d {
            None => {}
            Some(DateValue::Instant(t)) => {
                self.date.clear();
                let rounded = push_glib_date(&mut self.date, t);
                if rounded {
                    self.lose(node, field, "desktop bookmarks keep microseconds");
                } else if let Some(form) = field.form() {
                    if !form_kept(t, &self.date) {
                        self.lose(
                            node,
                            form,
                            "desktop bookmarks write dates to the second or microsecond: the precision they were written with is not kept (same instant)",
                        );
                    }
                }
                // Digits, `-`, `:`, `T`, `.`, `+` and `Z`: nothing to escape or lose.
                let date = &self.date;
                self.out.attr_with(name, |out| out.push_str(date));
            }
            Some(DateValue::Raw(_)) => {
                self.lose(
                    node,
                    field,
                    "a date that is not one would make GLib reject the file",
                );
            }
        }
    }
}

/// Merge `b` into `into` by the spec's registration rules: applications by
/// name (counts add up, the later date wins), groups joined, private if
/// either is. Returns the fields of `into` that changed.
fn merge(into: &mut Bookmark, b: &Bookmark) -> Vec<Field> {
    let mut changed = Vec::new();
    let from = b.details().desktop();
    if !from.applications.is_empty() || !from.groups.is_empty() {
        let to = into.details_mut().desktop_mut();
        let mut apps_changed = false;
        for app in &from.applications {
            match to.applications.iter_mut().find(|a| a.name == app.name) {
                Some(a) => {
                    let count = Some(a.count.unwrap_or(1).saturating_add(app.count.unwrap_or(1)));
                    let modified = app.modified.clone().or_else(|| a.modified.clone());
                    apps_changed |= a.count != count || a.modified != modified;
                    a.count = count;
                    a.modified = modified;
                }
                None => {
                    to.applications.push(app.clone());
                    apps_changed = true;
                }
            }
        }
        if apps_changed {
            changed.push(Field::BookmarkApplications);
        }
        let groups_before = to.groups.len();
        for g in &from.groups {
            if !to.groups.contains(g) {
                to.groups.push(g.clone());
            }
        }
        if to.groups.len() != groups_before {
            changed.push(Field::BookmarkGroups);
        }
    }
    if b.private == Some(true) && into.private != Some(true) {
        into.private = Some(true);
        changed.push(Field::BookmarkPrivate);
    }
    changed
}

pub(crate) fn write(
    doc: &Document,
    opts: &WriteOptions,
    sink: &mut dyn Write,
) -> Result<LossReport, Error> {
    let mut w = Writer {
        doc,
        out: XmlWriter::gmarkup(),
        date: String::new(),
        loss: LossReport::new(),
        lost: HashSet::new(),
    };
    // One flat list, one item per URI. Items borrow their bookmark from the
    // document; only one whose link or registrations change is copied.
    let mut items: Vec<(NodeId, Cow<'_, Bookmark>)> = Vec::new();
    let mut by_uri: HashMap<Cow<'_, str>, usize> = HashMap::with_capacity(doc.len());
    for id in doc.preorder() {
        match doc.node(id) {
            Node::Bookmark(b) => {
                let mut b = Cow::Borrowed(b);
                if b.href.starts_with('/') {
                    b.to_mut().href = path_to_file_uri(b.href.as_bytes());
                    w.lose(
                        Some(id),
                        Field::BookmarkHref,
                        "a local path is written as a file: URI",
                    );
                }
                match by_uri.get(b.href.as_str()) {
                    Some(&i) => {
                        for field in merge(items[i].1.to_mut(), &b) {
                            w.lose(
                                Some(items[i].0),
                                field,
                                "changed by merging a later item with the same URI into it",
                            );
                        }
                        w.lose(
                            Some(id),
                            Field::Bookmark,
                            "one item per URI: merged into the first one by the registration rules",
                        );
                    }
                    None => {
                        let uri = match &b {
                            Cow::Borrowed(b) => Cow::Borrowed(b.href.as_str()),
                            Cow::Owned(b) => Cow::Owned(b.href.clone()),
                        };
                        by_uri.insert(uri, items.len());
                        items.push((id, b));
                    }
                }
            }
            Node::Folder(_) => w.lose(
                Some(id),
                Field::Folder,
                "desktop bookmarks are one flat list: folders are left out, their bookmarks kept",
            ),
            Node::Separator(_) => w.lose(
                Some(id),
                Field::Separator,
                "desktop bookmarks have no separators",
            ),
            Node::Alias(_) => w.lose(Some(id), Field::Alias, "desktop bookmarks have no aliases"),
            // A kind of node added to the model after this writer: nothing to write yet.
            _ => {}
        }
    }
    w.out.raw(HEADER);
    if let Some(t) = &doc.header.title {
        w.text_element(Indent::of(1), "title", t, None, Field::DocumentTitle);
    }
    if let Some(d) = &doc.header.desc {
        w.text_element(Indent::of(1), "desc", d, None, Field::DocumentDesc);
    }
    w.loss.record_unsupported(
        doc,
        None,
        document_fields(doc),
        crate::support,
        "GLib rejects it or has no place for it",
    );
    if !items.is_empty() {
        w.out.raw("\n");
    }
    let app_name = opts
        .desktop
        .app_name
        .clone()
        .unwrap_or_else(|| "markport".to_owned());
    let app_exec = opts
        .desktop
        .app_exec
        .clone()
        .unwrap_or_else(|| format!("{app_name} %u"));
    for (id, b) in &items {
        w.bookmark(*id, b, &app_name, &app_exec);
        if w.out.len() > 1 << 16 {
            sink.write_all(w.out.as_str().as_bytes())
                .map_err(Error::io)?;
            w.out.clear();
        }
    }
    // GLib ends the file without a line end.
    w.out.raw("</xbel>");
    sink.write_all(w.out.as_str().as_bytes())
        .map_err(Error::io)?;
    Ok(w.loss)
}

impl Writer<'_> {
    fn bookmark(&mut self, id: NodeId, b: &Bookmark, app_name: &str, app_exec: &str) {
        let more = b.details();
        let n = Some(id);
        self.out.open(Indent::of(1), "bookmark");
        self.attr("href", &b.href, n, Field::BookmarkHref);
        self.date_attr("added", b.added.as_ref(), n, Field::BookmarkAdded);
        self.date_attr("modified", b.modified.as_ref(), n, Field::BookmarkModified);
        self.date_attr("visited", more.visited.as_ref(), n, Field::BookmarkVisited);
        self.out.end_start_tag();
        if let Some(t) = &b.title {
            self.text_element(Indent::of(2), "title", t, n, Field::BookmarkTitle);
        }
        if let Some(d) = &b.desc {
            self.text_element(Indent::of(2), "desc", d, n, Field::BookmarkDesc);
        }
        self.out.start_tag(Indent::of(2), "info");
        self.out.open(Indent::of(3), "metadata");
        self.out.attr("owner", markport_xbel::FREEDESKTOP_OWNER);
        self.out.end_start_tag();
        let mime = match &more.desktop().mime_type {
            Some(m) => m.as_str(),
            None => {
                self.lose(
                    n,
                    Field::BookmarkMimeType,
                    "every desktop bookmark has a MIME type: one is given from the file name",
                );
                mime_for(&b.href)
            }
        };
        self.out.open(Indent::of(4), "mime:mime-type");
        self.attr("type", mime, n, Field::BookmarkMimeType);
        self.out.end_empty();
        if !more.desktop().groups.is_empty() {
            self.out.start_tag(Indent::of(4), "bookmark:groups");
            for g in &more.desktop().groups {
                self.text_element(Indent::of(5), "bookmark:group", g, n, Field::BookmarkGroups);
            }
            self.out.end_tag(Indent::of(4), "bookmark:groups");
        }
        let registered: Vec<Application>;
        let apps: &[Application] = if more.desktop().applications.is_empty() {
            self.lose(n, Field::BookmarkApplications, "GLib skips an item no application registered: the converting application registers it");
            let mut app = Application::new(app_name, app_exec);
            app.count = Some(1);
            app.modified = b.modified.clone().or_else(|| b.added.clone());
            registered = vec![app];
            &registered
        } else {
            &more.desktop().applications
        };
        self.out.start_tag(Indent::of(4), "bookmark:applications");
        for a in apps {
            if a.count == Some(0) {
                self.lose(
                    n,
                    Field::BookmarkApplications,
                    "GLib drops an application registered 0 times",
                );
                continue;
            }
            if a.count.is_none() || a.timestamp.is_some() {
                self.lose(
                    n,
                    Field::BookmarkApplications,
                    "a registration is written with its count and without the deprecated timestamp",
                );
            }
            self.out.open(Indent::of(5), "bookmark:application");
            self.attr("name", &a.name, n, Field::BookmarkApplications);
            self.attr("exec", &a.exec, n, Field::BookmarkApplications);
            let stamp = a.modified.as_ref().or(a.timestamp.as_ref());
            self.date_attr("modified", stamp, n, Field::BookmarkApplications);
            let count = a.count.unwrap_or(1);
            self.out
                .attr_with("count", |out| push_decimal(out, u64::from(count)));
            self.out.end_empty();
        }
        self.out.end_tag(Indent::of(4), "bookmark:applications");
        if let Some(icon) = &more.desktop().desktop_icon {
            match &icon.href {
                Some(h) => {
                    // GLib's own layout indents the icon by seven spaces.
                    self.out.raw("       <bookmark:icon");
                    self.attr("href", h, n, Field::BookmarkDesktopIcon);
                    let t = icon
                        .mime_type
                        .clone()
                        .unwrap_or_else(|| "application/octet-stream".into());
                    if icon.mime_type.is_none() || icon.name.is_some() {
                        self.lose(
                            n,
                            Field::BookmarkDesktopIcon,
                            "GLib's icon has an href and a type only",
                        );
                    }
                    self.attr("type", &t, n, Field::BookmarkDesktopIcon);
                    self.out.end_empty();
                }
                None => self.lose(
                    n,
                    Field::BookmarkDesktopIcon,
                    "GLib rejects an icon without href",
                ),
            }
        }
        match b.private {
            Some(true) => self
                .out
                .empty_element(Indent::of(4), "bookmark:private", &[]),
            Some(false) => self.lose(
                n,
                Field::BookmarkPrivate,
                "desktop bookmarks mark private ones only",
            ),
            None => {}
        }
        self.out.end_tag(Indent::of(3), "metadata");
        self.out.end_tag(Indent::of(2), "info");
        self.out.end_tag(Indent::of(1), "bookmark");
        self.loss.record_unsupported(
            self.doc,
            n,
            bookmark_fields(b),
            crate::support,
            "GLib rejects it or has no place for it",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GLib's form as chrono's `strftime` writes it: the reference the
    /// hand-made formatting must match.
    fn by_strftime(t: &Timestamp) -> String {
        let dt = t.to_datetime();
        let mut s = dt.format("%Y-%m-%dT%H:%M:%S").to_string();
        let micros = t.subsec_nanos() / 1000;
        if micros != 0 {
            s.push_str(&format!(".{micros:06}"));
        }
        match t.offset_seconds().unwrap_or(0) {
            0 => s.push('Z'),
            off => {
                let a = off.unsigned_abs();
                s.push_str(&format!(
                    "{}{:02}",
                    if off < 0 { '-' } else { '+' },
                    a / 3600
                ));
                if a % 3600 != 0 {
                    s.push_str(&format!(":{:02}", (a % 3600) / 60));
                }
            }
        }
        s
    }

    #[test]
    fn dates_are_written_as_strftime_would_and_the_form_check_agrees_with_reading_back() {
        let mut secs = -61_000_000_000i64;
        while secs < 253_000_000_000 {
            for offset in [
                None,
                Some(0),
                Some(3600),
                Some(-19_800),
                Some(30),
                Some(-3_630),
            ] {
                for nanos in [0, 5_000, 123_456_000, 123_456_789] {
                    for precision in [
                        Precision::Second,
                        Precision::Minute,
                        Precision::Fraction(6),
                        Precision::Fraction(3),
                    ] {
                        let t = Timestamp::from_unix(secs, nanos)
                            .unwrap()
                            .with_offset(offset)
                            .unwrap()
                            .with_precision(precision);
                        let (text, rounded) = glib_date(&t);
                        assert_eq!(text, by_strftime(&t));
                        assert_eq!(rounded, nanos % 1000 != 0);
                        let by_reading =
                            markport_model::Timestamp::parse_glib(&text).is_none_or(|back| {
                                DateValue::Instant(back).same_form(&DateValue::Instant(t))
                            });
                        assert_eq!(form_kept(&t, &text), by_reading, "{text} {t:?}");
                    }
                }
            }
            secs += 9_973_317_777;
        }
    }
}
