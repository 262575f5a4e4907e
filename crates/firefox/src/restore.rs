//! What Firefox's restore (`BookmarkJSONUtils.importFromFile`) does to a
//! backup markport writes, recorded in the report's `destination` list.
//!
//! Each rule here was measured with a real Firefox (firefox-esr 153,
//! `tests/tests/firefox_live_report.rs`, which fails when Firefox changes a
//! field no rule names; `scripts/firefox-restore-table.py` prints the table
//! in docs/formats/firefox.md). The backup itself stays faithful (markport
//! reads back everything it wrote): these are what Firefox makes of it.

use markport_model::firefox_tags::{js_len, Tags, Way, MAX_TITLE};
use markport_model::{Bookmark, DateValue, Document, Field, LossReport, Node, NodeId, Role};

/// Firefox's names for its roots, which a restore keeps whatever the backup says.
const ROOT_TITLES: [(Role, &str); 4] = [
    (Role::Menu, "menu"),
    (Role::Toolbar, "toolbar"),
    (Role::Unfiled, "unfiled"),
    (Role::Mobile, "mobile"),
];

const DROPS: &str = "Firefox drops this on restore";
const OWN_ROOT: &str = "Firefox keeps its own root on restore (title, dates, id)";
const NUMBERS: &str = "Firefox numbers every item itself on restore";
const MILLIS: &str = "Firefox keeps dates to the millisecond on restore";
const RAISED: &str = "Firefox raises a last-modified date earlier than the added date to it";
const ZERO: &str =
    "Firefox takes a date of 0 (1970-01-01) for none on restore: the item gets the time of the restore for both dates";

/// The link as Firefox stores it: `None` when Firefox cannot parse it (the
/// bookmark is dropped), else its normal form (Firefox's URL parser agrees
/// with WHATWG's, as `url` implements it, on every link measured); old
/// `place:` folder names become root guids.
pub(crate) fn stored_href(href: &str) -> Option<String> {
    let url = url::Url::parse(href).ok()?;
    let mut out = url.as_str().to_string();
    if out.starts_with("place:") {
        for (old, new) in [
            ("folder=BOOKMARKS_MENU", "parent=menu________"),
            ("folder=UNFILED_BOOKMARKS", "parent=unfiled_____"),
            ("folder=TOOLBAR", "parent=toolbar_____"),
        ] {
            out = out.replace(old, new);
        }
    }
    Some(out)
}

/// A date Firefox keeps to the millisecond: whether it had more.
fn below_millis(d: Option<&DateValue>) -> bool {
    d.and_then(DateValue::instant)
        .is_some_and(|t| t.subsec_nanos() % 1_000_000 != 0)
}

/// Whether either date is exactly 0 (the Unix epoch). Firefox's restore
/// reads a date of 0 as none (measured: a backup's `dateAdded` or
/// `lastModified` of 0 gives the item the time of the restore for both,
/// where a date before 1970 is kept).
fn dated_zero(added: Option<&DateValue>, modified: Option<&DateValue>) -> bool {
    [added, modified].into_iter().any(|d| {
        d.and_then(DateValue::instant)
            .is_some_and(|t| t.unix_seconds() == 0 && t.subsec_nanos() == 0)
    })
}

/// Whether an item of folder `id` was added after `modified` (or has no
/// date, or a date of 0, and gets the time of the restore): Firefox dates
/// the folder's last change by it.
fn newer_item(doc: &Document, id: NodeId, modified: Option<&DateValue>) -> bool {
    doc.children(Some(id)).iter().any(|&c| {
        let (added, own) = match doc.node(c) {
            Node::Bookmark(b) => (b.added.as_ref(), b.modified.as_ref()),
            Node::Folder(f) => (f.added.as_ref(), f.modified.as_ref()),
            _ => return false,
        };
        added.is_none() || dated_zero(added, own) || before(modified, added)
    })
}

fn before(a: Option<&DateValue>, b: Option<&DateValue>) -> bool {
    match (
        a.and_then(DateValue::instant),
        b.and_then(DateValue::instant),
    ) {
        (Some(x), Some(y)) => {
            (x.unix_seconds(), x.subsec_nanos() / 1_000_000)
                < (y.unix_seconds(), y.subsec_nanos() / 1_000_000)
        }
        _ => false,
    }
}

/// Record in `loss.destination` what Firefox's restore will drop or change
/// of `doc` as markport writes it. `roots` are the document's folders
/// written as Firefox's roots and `order` the order they were written in
/// (indexes into Firefox's root list menu, toolbar, unfiled, mobile).
pub(crate) fn record(
    doc: &Document,
    roots: &[Option<NodeId>; 4],
    order: &[usize],
    loss: &mut LossReport,
) {
    let h = &doc.header;
    let header = [
        (
            Field::DocumentTitle,
            h.title.as_deref().is_some_and(|t| !t.is_empty()),
        ),
        (Field::DocumentAdded, h.added.is_some()),
        (Field::DocumentModified, h.modified.is_some()),
        (Field::DocumentId, h.id.is_some()),
    ];
    for (field, present) in header {
        if present {
            loss.record_destination(doc, None, field, OWN_ROOT);
        }
    }
    if h.extra.iter().any(|a| a.name != "guid") {
        loss.record_destination(doc, None, Field::DocumentExtra, DROPS);
    }
    // Firefox keeps its roots in its own order.
    for (rank, &i) in order.iter().enumerate() {
        let moved = order.iter().filter(|&&j| j < i).count() != rank;
        if let (true, Some(id)) = (moved, roots[i]) {
            loss.record_destination(
                doc,
                Some(id),
                Field::Folder,
                "Firefox keeps its roots in its own order (menu, toolbar, unfiled, mobile)",
            );
        }
    }
    let tags = Tags::of(doc, stored_href);
    for id in doc.preorder() {
        match doc.node(id) {
            Node::Folder(f) => {
                let root = roots.iter().position(|r| *r == Some(id));
                if let Some(i) = root {
                    let name = ROOT_TITLES[i].1;
                    if f.title.as_deref() != Some(name) {
                        loss.record_destination(
                            doc,
                            Some(id),
                            Field::FolderTitle,
                            "Firefox keeps its own titles of its roots on restore",
                        );
                    }
                    for (field, present) in [
                        (Field::FolderAdded, f.added.is_some()),
                        (Field::FolderModified, f.modified.is_some()),
                    ] {
                        if present {
                            loss.record_destination(doc, Some(id), field, OWN_ROOT);
                        }
                    }
                } else if dated_zero(f.added.as_ref(), f.modified.as_ref()) {
                    for (field, present) in [
                        (Field::FolderAdded, f.added.is_some()),
                        (Field::FolderModified, f.modified.is_some()),
                    ] {
                        if present {
                            loss.record_destination(doc, Some(id), field, ZERO);
                        }
                    }
                } else {
                    if below_millis(f.added.as_ref()) {
                        loss.record_destination(doc, Some(id), Field::FolderAdded, MILLIS);
                    }
                    if below_millis(f.modified.as_ref()) {
                        loss.record_destination(doc, Some(id), Field::FolderModified, MILLIS);
                    } else if before(f.modified.as_ref(), f.added.as_ref()) {
                        loss.record_destination(doc, Some(id), Field::FolderModified, RAISED);
                    } else if f.modified.is_some() && newer_item(doc, id, f.modified.as_ref()) {
                        loss.record_destination(
                            doc,
                            Some(id),
                            Field::FolderModified,
                            "Firefox raises a folder's last-modified date to its newest item's added date on restore",
                        );
                    }
                }
                if f.id.is_some() {
                    loss.record_destination(doc, Some(id), Field::FolderId, NUMBERS);
                }
                for (field, present) in [
                    (Field::FolderDesc, f.desc.is_some()),
                    (Field::FolderMetaInfo, !f.meta_info.is_empty()),
                    (Field::FolderExtra, !f.extra.is_empty()),
                ] {
                    if present {
                        loss.record_destination(doc, Some(id), field, DROPS);
                    }
                }
            }
            Node::Bookmark(b) => bookmark(doc, id, b, &tags, loss),
            Node::Separator(s) => {
                if s.title.is_some() {
                    loss.record_destination(doc, Some(id), Field::SeparatorTitle, DROPS);
                }
                if !s.extra.is_empty() {
                    loss.record_destination(
                        doc,
                        Some(id),
                        Field::SeparatorExtra,
                        "Firefox numbers and dates a separator itself on restore",
                    );
                }
            }
            _ => {}
        }
    }
}

fn bookmark(doc: &Document, id: NodeId, b: &Bookmark, tags: &Tags, loss: &mut LossReport) {
    let d = b.details();
    let Some(href) = stored_href(&b.href) else {
        loss.record_destination(
            doc,
            Some(id),
            Field::Bookmark,
            "Firefox cannot parse this link: it drops the bookmark on restore",
        );
        return;
    };
    if href != b.href {
        loss.record_destination(
            doc,
            Some(id),
            Field::BookmarkHref,
            "Firefox rewrites the link in its normal form on restore",
        );
    }
    if b.title.as_deref().is_some_and(|t| js_len(t) > MAX_TITLE) {
        loss.record_destination(
            doc,
            Some(id),
            Field::BookmarkTitle,
            "Firefox cuts a title to 4096 characters on restore",
        );
    }
    if dated_zero(b.added.as_ref(), b.modified.as_ref()) {
        for (field, present) in [
            (Field::BookmarkAdded, b.added.is_some()),
            (Field::BookmarkModified, b.modified.is_some()),
        ] {
            if present {
                loss.record_destination(doc, Some(id), field, ZERO);
            }
        }
    } else {
        if below_millis(b.added.as_ref()) {
            loss.record_destination(doc, Some(id), Field::BookmarkAdded, MILLIS);
        }
        if below_millis(b.modified.as_ref()) {
            loss.record_destination(doc, Some(id), Field::BookmarkModified, MILLIS);
        } else if before(b.modified.as_ref(), b.added.as_ref()) {
            loss.record_destination(doc, Some(id), Field::BookmarkModified, RAISED);
        }
    }
    if d.id.is_some() {
        loss.record_destination(doc, Some(id), Field::BookmarkId, NUMBERS);
    }
    let utf8 = d
        .firefox()
        .charset
        .as_deref()
        .is_some_and(|c| c.eq_ignore_ascii_case("utf-8"));
    for (field, present, why) in [
        (Field::BookmarkDesc, b.desc.is_some(), DROPS),
        (Field::BookmarkFaviconUri, d.favicon_uri.is_some(), DROPS),
        (
            Field::BookmarkFeedUrl,
            d.firefox().feed_url.is_some(),
            "Firefox has no live bookmarks since version 64: it drops the feed on restore",
        ),
        (
            Field::BookmarkCharset,
            utf8,
            "Firefox drops a UTF-8 charset on restore (its default)",
        ),
        (Field::BookmarkMetaInfo, !d.meta_info.is_empty(), DROPS),
        (Field::BookmarkExtra, !d.extra.is_empty(), DROPS),
    ] {
        if present {
            loss.record_destination(doc, Some(id), field, why);
        }
    }
    if let Some(change) = tags.change(b, &href) {
        loss.record_destination(doc, Some(id), Field::BookmarkTags, change.why(Way::Restore));
    }
    if d.firefox().keyword.is_none() && d.firefox().post_data.is_some() {
        // Firefox stores post data with a keyword, in its keywords table:
        // without one there is nowhere to keep it.
        loss.record_destination(
            doc,
            Some(id),
            Field::BookmarkPostData,
            "Firefox keeps post data only with a keyword: it drops it on restore",
        );
    }
    if let Some(k) = &d.firefox().keyword {
        if let Some(change) = tags.keyword_change(id, k, &href) {
            let why = change.why(Way::Restore);
            loss.record_destination(doc, Some(id), Field::BookmarkKeyword, why);
            if d.firefox().post_data.is_some() {
                loss.record_destination(doc, Some(id), Field::BookmarkPostData, why);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use markport_model::{Bookmark, Document, Field, LossReport, Node, WriteOptions};

    use super::ZERO;

    fn report(doc: &Document) -> LossReport {
        let mut out = Vec::new();
        crate::write(doc, &WriteOptions::default(), &mut out).unwrap()
    }

    fn destination(r: &LossReport, field: Field) -> Vec<(usize, &str)> {
        r.destination
            .iter()
            .filter(|l| l.field == field)
            .map(|l| (l.count, l.reason.as_str()))
            .collect()
    }

    fn tagged(href: &str, tags: &[&str]) -> Bookmark {
        let mut b = Bookmark::new(href);
        b.tags = tags.iter().map(|t| t.to_string()).collect();
        b
    }

    #[test]
    fn tag_case_across_the_collection_and_tags_per_link_are_named() {
        let mut doc = Document::new();
        doc.push(None, tagged("https://a.example/", &["rhel"]));
        doc.push(None, tagged("https://b.example/", &["RHEL"]));
        doc.push(None, tagged("https://c.example/", &["dup", "dup"]));
        doc.push(None, tagged("https://d.example/", &["x"]));
        doc.push(None, tagged("https://d.example/", &["y"]));
        doc.push(None, tagged("https://e.example/", &[&"t".repeat(101)]));
        let r = report(&doc);
        let tags = destination(&r, Field::BookmarkTags);
        let reasons: Vec<&str> = tags.iter().map(|t| t.1).collect();
        // rhel (folded to RHEL), dup, both bookmarks of d, the long tag.
        assert_eq!(tags.iter().map(|t| t.0).sum::<usize>(), 5, "{reasons:?}");
        assert!(reasons.iter().any(|r| r.contains("case folded")));
        assert!(reasons.iter().any(|r| r.contains("duplicate")));
        assert!(reasons.iter().any(|r| r.contains("per link")));
        assert!(reasons.iter().any(|r| r.contains("over 100")));
        assert!(r.losses.iter().all(|l| l.field != Field::BookmarkTags));
    }

    #[test]
    fn dropped_fields_links_and_dates_are_named() {
        let mut doc = Document::new();
        let mut b = Bookmark::new("https://a.example/");
        b.desc = Some("a note".into());
        b.details_mut().firefox_mut().charset = Some("UTF-8".into());
        b.details_mut().favicon_uri = Some("https://a.example/i.ico".into());
        b.added = markport_model::Timestamp::from_unix(1_700_000_000, 0)
            .map(markport_model::DateValue::Instant);
        b.modified = markport_model::Timestamp::from_unix(1_600_000_000, 0)
            .map(markport_model::DateValue::Instant);
        doc.push(None, b);
        let mut kept = Bookmark::new("https://b.example/");
        kept.details_mut().firefox_mut().charset = Some("windows-1252".into());
        doc.push(None, kept);
        doc.push(None, Bookmark::new("not a url"));
        doc.push(None, Bookmark::new("HTTPS://C.Example/a/../b"));
        let r = report(&doc);
        for field in [
            Field::BookmarkDesc,
            Field::BookmarkCharset,
            Field::BookmarkFaviconUri,
            Field::BookmarkModified,
            Field::Bookmark,
            Field::BookmarkHref,
        ] {
            let d = destination(&r, field);
            assert_eq!(d.len(), 1, "{field}: {:?}", r.destination);
            assert_eq!(d[0].0, 1, "{field}: {:?}", r.destination);
        }
        assert!(r.has_destination() && !r.arrives_whole());
    }

    #[test]
    fn a_date_of_zero_gives_both_dates_the_time_of_the_restore() {
        let at = |secs: i64| {
            markport_model::Timestamp::from_unix(secs, 0).map(markport_model::DateValue::Instant)
        };
        let mut doc = Document::new();
        let mut folder = markport_model::Folder::new();
        folder.title = Some("f".into());
        let f = doc.push(None, folder);
        // As measured with Firefox: a 0 in either date resets both, a date
        // before 1970 is kept, and the folder holding such an item has its
        // last change dated by the restore.
        for (href, added, modified) in [
            ("https://a.example/", at(0), at(1_500_000_000)),
            ("https://b.example/", at(1_500_000_000), at(0)),
            ("https://c.example/", at(-1), at(1_500_000_000)),
        ] {
            let mut b = Bookmark::new(href);
            b.added = added;
            b.modified = modified;
            doc.push(Some(f), b);
        }
        if let Node::Folder(folder) = doc.node_mut(f) {
            folder.added = at(1_400_000_000);
            folder.modified = at(1_600_000_000);
        }
        let r = report(&doc);
        let zero = |field| {
            r.destination
                .iter()
                .filter(|e| e.field == field && e.reason == ZERO)
                .map(|e| e.count)
                .sum::<usize>()
        };
        assert_eq!(zero(Field::BookmarkAdded), 2, "{:?}", r.destination);
        assert_eq!(zero(Field::BookmarkModified), 2, "{:?}", r.destination);
        assert_eq!(destination(&r, Field::FolderModified).len(), 1);
        assert!(destination(&r, Field::FolderAdded).is_empty());
    }

    #[test]
    fn a_backup_firefox_keeps_whole_has_no_destination_entries() {
        let mut doc = Document::new();
        doc.push(None, tagged("https://a.example/", &["a", "b"]));
        doc.push(None, tagged("https://b.example/", &["A"]));
        let r = report(&doc);
        // The roots markport adds are Firefox's own; "A" and "a" fold together.
        assert_eq!(
            destination(&r, Field::BookmarkTags).len(),
            1,
            "{:?}",
            r.destination
        );
        let mut doc = Document::new();
        doc.push(None, tagged("https://a.example/", &["a", "b"]));
        assert!(!report(&doc).has_destination(), "{:?}", report(&doc));
    }

    #[test]
    fn post_data_without_a_keyword_is_reported_dropped() {
        let mut doc = Document::new();
        let mut alone = Bookmark::new("https://search.example/?q=%s");
        alone.details_mut().firefox_mut().post_data = Some("q=%s".into());
        doc.push(None, alone);
        let mut keyed = Bookmark::new("https://other.example/?q=%s");
        keyed.details_mut().firefox_mut().post_data = Some("q=%s".into());
        keyed.details_mut().firefox_mut().keyword = Some("o".into());
        doc.push(None, keyed);
        let r = report(&doc);
        assert_eq!(
            destination(&r, Field::BookmarkPostData),
            [(
                1,
                "Firefox keeps post data only with a keyword: it drops it on restore"
            )]
        );
    }
}
