//! The feed writes only valid RFC 3339 dates: extreme years, offsets, leap
//! seconds and fractions are written in RFC 3339's grammar or left out and
//! reported; the feed stays valid Atom (every entry has one `updated`).

use markport_model::{Bookmark, DateValue, Document, Field, Folder, Timestamp};
use markport_publish::{build, Options};

/// RFC 3339 section 5.6, strictly: `YYYY-MM-DDThh:mm:ss[.f+](Z|±hh:mm)`,
/// every field in range, the day within its month, `60` seconds only at
/// 23:59.
fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    };
    let sep = |i: usize, c: u8| b.get(i) == Some(&c);
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let (Some(hour), Some(minute), Some(second)) = (digits(11..13), digits(14..16), digits(17..19))
    else {
        return false;
    };
    if !(sep(4, b'-') && sep(7, b'-') && sep(10, b'T') && sep(13, b':') && sep(16, b':')) {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month) || day < 1 || day > days[month as usize - 1] {
        return false;
    }
    if hour > 23 || minute > 59 || second > 60 || (second == 60 && (hour, minute) != (23, 59)) {
        return false;
    }
    let mut i = 19;
    if sep(i, b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match b.get(i) {
        Some(b'Z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i + 6 == b.len()
                && sep(i + 3, b':')
                && digits(i + 1..i + 3).is_some_and(|h| h <= 23)
                && digits(i + 4..i + 6).is_some_and(|m| m <= 59)
        }
        _ => false,
    }
}

#[test]
fn the_strict_check_is_strict() {
    for good in [
        "1985-04-12T23:20:50.52Z",
        "1996-12-19T16:39:57-08:00",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:60Z",
        "2000-02-29T00:00:00+14:00",
    ] {
        assert!(is_rfc3339(good), "{good}");
    }
    for bad in [
        "-0001-01-01T00:00:00Z",
        "10000-01-01T00:00:00Z",
        "+10000-01-01T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2000-01-01T00:00Z",
        "2000-01-01",
        "2000-01-01T00:00:00",
        "2000-01-01T00:00:00+24:00",
        "2000-01-01T00:00:00.Z",
        "2000-01-01T12:00:60Z",
    ] {
        assert!(!is_rfc3339(bad), "{bad}");
    }
}

/// Every `<tag>...</tag>` text of the feed.
fn elements<'a>(feed: &'a str, tag: &str) -> Vec<&'a str> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    feed.match_indices(&open)
        .map(|(at, _)| {
            let rest = &feed[at + open.len()..];
            &rest[..rest.find(&close).unwrap()]
        })
        .collect()
}

#[test]
fn every_feed_date_is_rfc_3339_or_left_out_and_reported() {
    let w3c = |s: &str| Timestamp::parse_w3c(s).expect(s);
    let dates = [
        Timestamp::from_unix_seconds(-62_198_755_200), // year -1 (2 BCE)
        Timestamp::from_unix_seconds(-62_167_219_200), // 0000-01-01
        Timestamp::from_unix_seconds(253_402_300_800), // 10000-01-01
        Timestamp::from_unix_seconds(8_000_000_000_000),
        Timestamp::from_unix_seconds(-8_000_000_000_000),
        Some(w3c("2016-12-31T23:59:60Z")),
        Some(w3c("2020-06-01T10:00:00+14:00")),
        Some(w3c("2020-06-01T10:00:00-12:30")),
        Some(w3c("2020-06-01T10:00:00.123456789Z")),
        Some(w3c("2021")),
        Timestamp::from_unix(1_600_000_000, 5),
    ];
    let mut doc = Document::new();
    let f = doc.push(None, Folder::titled("Dates"));
    let mut n = 0;
    for added in &dates {
        for modified in [None, Some(DateValue::Raw("yesterday".into()))]
            .into_iter()
            .chain(dates.iter().map(|d| d.map(DateValue::Instant)))
        {
            n += 1;
            let mut b = Bookmark::new(format!("https://example.org/{n}"));
            b.added = added.map(DateValue::Instant);
            b.modified = modified;
            doc.push(Some(f), b);
        }
    }
    let total = n;
    let site = build(
        &doc,
        &Options {
            recent: total,
            ..Options::default()
        },
    );
    let feed = site.files.iter().find(|f| f.path == "feed.atom").unwrap();
    let feed = String::from_utf8(feed.bytes.clone()).unwrap();
    for tag in ["published", "updated"] {
        for d in elements(&feed, tag) {
            assert!(is_rfc3339(d), "<{tag}>{d}</{tag}> is not RFC 3339");
        }
    }
    // Atom: one `updated` per entry, and the feed's own.
    let entries = elements(&feed, "entry");
    assert_eq!(elements(&feed, "updated").len(), entries.len() + 1);
    for e in &entries {
        assert_eq!(e.matches("<updated>").count(), 1, "{e}");
    }
    // The bookmarks whose dates all fit are all in the feed.
    let fits = |t: &Option<Timestamp>| t.is_some_and(|t| is_rfc3339(&t.to_w3c_utc()));
    let whole = dates.iter().filter(|d| fits(d)).count();
    assert!(
        entries.len() >= whole * (2 + whole),
        "{} entries",
        entries.len()
    );
    // What was left out is reported.
    let reported: Vec<Field> = site.loss.losses.iter().map(|l| l.field).collect();
    assert!(
        reported.contains(&Field::BookmarkAdded),
        "{:?}",
        site.loss.losses
    );
    assert!(
        reported.contains(&Field::BookmarkModified),
        "{:?}",
        site.loss.losses
    );
}
