//! Netscape bookmark HTML: the DOCTYPE, the `<DL>` structure, the
//! attributes browsers and services write, dates as numbers, and the
//! declared charset against the bytes. Rules from the format's description
//! in specs/ (Microsoft's documentation as kept by its reader authors) and
//! Chromium's importer, which it quotes.

use markport_markup::charset;
use markport_markup::html::{RawAttr, Scanner, Token};

use crate::problem::Sink;
use crate::rules::*;
use markport_markup::charset::first_malformed;

/// The attributes someone writes on each element (upper case): browsers,
/// services and tools whose files are in the peer corpus. Elements not
/// listed are not checked.
fn known_attributes(element: &str) -> Option<&'static [&'static str]> {
    Some(match element {
        "A" => &[
            "HREF",
            "ADD_DATE",
            "LAST_MODIFIED",
            "LAST_VISIT",
            "ICON",
            "ICON_URI",
            "SHORTCUTURL",
            "POST_DATA",
            "FEEDURL",
            "FEED",
            "LAST_CHARSET",
            "ID",
            "TAGS",
            "PRIVATE",
            "TOREAD",
            "ALIASID",
            "ALIASOF",
            "WEBSLICE",
            "ISLIVEPREVIEW",
            "PREVIEWSIZE",
            // Firefox 2's sidebar flag; Chromium's importer tests.
            "WEB_PANEL",
            "UUID",
            "SYNCED",
            // Netscape 6/7 and Mozilla Suite.
            "OBJECT_TYPE",
            "VISITATION_COUNT",
            "SORT_ORDER",
            "SUBSCRIBE",
            "LASTUPDATE",
            "NEXTUPDATE",
            "LAST_MODIFIED_CHANGED",
            "INTERVALTIME",
            "INTERVALUNIT",
            "MESSAGE",
            "CHECKSUM",
            "USER",
            "DOMAIN",
            "SOUND_NAME",
            "USE_CUSTOM_ADDRESS",
            "CUSTOM_ADDRESS",
            "SUBSCRIBE_FAILED",
            "SCHEDULE",
            "LAST_PING",
            "PING_CONTENT_LEN",
            "PING_STATUS",
            // Firefox's localised default bookmarks.
            "DATA-L10N-ID",
            // iCab, Raindrop, Scuttle.
            "UPDATE",
            "COVER",
            "DESCRIPTION",
            "HASH",
        ],
        "H3" => &[
            "ADD_DATE",
            "LAST_MODIFIED",
            "FOLDED",
            "PERSONAL_TOOLBAR_FOLDER",
            "UNFILED_BOOKMARKS_FOLDER",
            "BOOKMARKS_MENU",
            "PLACES_ROOT",
            "ID",
            // Netscape 6/7 and Mozilla Suite; Firefox's localised
            // defaults; Chromium's importer tests.
            "OBJECT_TYPE",
            "SORT_ORDER",
            "DATA-L10N-ID",
            "UUID",
            "SYNCED",
        ],
        // Mozilla Suite kept its window's state on the heading.
        "H1" => &[
            "ADD_DATE",
            "LAST_MODIFIED",
            "SUBSTATUS_POS",
            "WINDOW_POSITION",
            "WINDOW_OPEN",
            "WINDOW_SIZE",
        ],
        "META" => &["HTTP-EQUIV", "CONTENT", "CHARSET", "NAME"],
        "HR" => &["NAME"],
        "DL" | "DT" | "DD" | "P" | "TITLE" => &[],
        _ => return None,
    })
}

/// Whether a `<META>` says markport wrote the file: then every attribute
/// it carries is markport's own writing (its writer keeps the attributes
/// of every source under their names), and only what its writer would not
/// write is unknown.
fn says_markport(attrs: &[RawAttr<'_>]) -> bool {
    let value = |name: &str| {
        attrs
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
            .map(|a| a.value.trim())
    };
    value("name").is_some_and(|n| n.eq_ignore_ascii_case("generator"))
        && value("content") == Some(markport_netscape::GENERATOR)
}

/// Attributes that hold a date in seconds since 1970.
const DATE_ATTRIBUTES: &[&str] = &["ADD_DATE", "LAST_MODIFIED", "LAST_VISIT"];

/// Elements that are items of a list.
const ITEMS: &[&str] = &["DT", "A", "H3", "HR", "DD"];

/// The charset a `<META>` declares, if it declares one.
fn meta_charset<'a>(attrs: &[RawAttr<'a>]) -> Option<&'a str> {
    if let Some(a) = attrs
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case("charset"))
    {
        return Some(a.value.trim());
    }
    let content = attrs
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case("content"))?
        .value;
    let i = content.to_ascii_lowercase().find("charset=")?;
    let rest = &content[i + "charset=".len()..];
    let end = rest.find([';', ' ', '"', '\'']).unwrap_or(rest.len());
    Some(rest[..end].trim_matches(['"', '\'']))
}

/// Check a Netscape bookmark file: charset problems go to `raw` (a sink over
/// the bytes), the rest to a sink over the decoded text, returned.
pub(crate) fn check(input: &[u8], raw: &mut Sink<'_>) -> Vec<crate::Problem> {
    let decoded = match charset::decode(input, None) {
        Ok(d) => d,
        Err(_) => return Vec::new(),
    };
    let text: &str = &decoded.text;
    let mut sink = Sink::new(text.as_bytes());
    let mut scan = Scanner::new(text);
    let mut attrs = Vec::new();
    let mut lists: Vec<usize> = Vec::new();
    let mut first = true;
    let (mut any_list, mut heading, mut after_dt) = (false, false, false);
    let mut charset_seen = false;
    // Whether the file's head says markport wrote it.
    let mut by_markport = false;
    let mut upper = String::new();
    while let Some(token) = scan.next(&mut attrs) {
        if first {
            match token {
                Token::Text { start, end } if text[start..end].trim().is_empty() => continue,
                Token::Doctype { start, end } => {
                    let inner = text[start + 2..end - 1].trim();
                    let name = inner
                        .get(7..)
                        .map(str::trim)
                        .filter(|_| inner.len() >= 7 && inner[..7].eq_ignore_ascii_case("doctype"));
                    if !name.is_some_and(|n| n.eq_ignore_ascii_case("NETSCAPE-Bookmark-file-1")) {
                        sink.at(
                            &NETSCAPE_DOCTYPE,
                            start,
                            format!("the DOCTYPE is <{}>, not <!DOCTYPE NETSCAPE-Bookmark-file-1>", &text[start + 1..end - 1]),
                        );
                    }
                }
                Token::Start { start, .. }
                | Token::End { start, .. }
                | Token::Text { start, .. } => sink.at(
                    &NETSCAPE_DOCTYPE,
                    start,
                    "the file does not start with <!DOCTYPE NETSCAPE-Bookmark-file-1>, which every browser writes first",
                ),
                Token::Comment => sink.at(
                    &NETSCAPE_DOCTYPE,
                    0,
                    "the file does not start with <!DOCTYPE NETSCAPE-Bookmark-file-1> (a comment comes first)",
                ),
            }
            first = false;
        }
        match token {
            Token::Start { name, start, .. } => {
                upper.clear();
                upper.push_str(name);
                upper.make_ascii_uppercase();
                let element = upper.as_str();
                if element == "DL" {
                    lists.push(start);
                    any_list = true;
                } else if element == "H1" {
                    heading = !any_list;
                } else if element == "DD" && heading && lists.is_empty() {
                    // The <DD> after the <H1> describes the whole file (Netscape 4).
                } else if lists.is_empty() && matches!(element, "A" | "H3") && after_dt {
                    // Reported at its <DT> already.
                } else if lists.is_empty() && ITEMS.contains(&element) {
                    sink.at(
                        &NETSCAPE_ITEM_OUTSIDE_LIST,
                        start,
                        format!("<{name}> outside every <DL>: readers put items in the list they are in"),
                    );
                }
                after_dt = element == "DT";
                // A generator is declared in the head, before the lists.
                if element == "META" && !any_list {
                    by_markport |= says_markport(&attrs);
                }
                check_attributes(&mut sink, element, &attrs, by_markport);
                if element == "META" && !charset_seen {
                    if let Some(label) = meta_charset(&attrs) {
                        charset_seen = true;
                        check_charset(raw, &mut sink, input, label, start);
                    }
                }
            }
            Token::End { name, start, .. }
                if name.eq_ignore_ascii_case("dl") && lists.pop().is_none() =>
            {
                sink.at(&NETSCAPE_UNBALANCED_DL, start, "</DL> without an open <DL>");
            }
            _ => {}
        }
    }
    if first {
        sink.at(
            &NETSCAPE_DOCTYPE,
            text.len(),
            "the file holds no markup, not even <!DOCTYPE NETSCAPE-Bookmark-file-1>",
        );
    }
    for &open in &lists {
        sink.at(&NETSCAPE_UNBALANCED_DL, open, "this <DL> is never closed");
    }
    sink.finish()
}

fn check_attributes(sink: &mut Sink<'_>, element: &str, attrs: &[RawAttr<'_>], by_markport: bool) {
    let known = known_attributes(element);
    for (i, a) in attrs.iter().enumerate() {
        // Names compare without case; tags have a handful of attributes, so
        // comparing with the earlier ones is linear in practice, and a tag
        // with thousands is checked against a set instead.
        let repeated = if i < 32 {
            attrs[..i]
                .iter()
                .any(|b| b.name.eq_ignore_ascii_case(a.name))
        } else {
            false
        };
        if repeated {
            sink.at(
                &NETSCAPE_DUPLICATE_ATTRIBUTE,
                a.at,
                format!(
                    "{} is given twice on <{element}>; readers disagree on which one counts",
                    a.name
                ),
            );
        }
        let Some(known) = known else { continue };
        let name_upper = a.name.to_ascii_uppercase();
        if !known.contains(&name_upper.as_str())
            && !by_markport
            && !markport_netscape::written_attributes(element).contains(&name_upper.as_str())
        {
            sink.at(
                &NETSCAPE_UNKNOWN_ATTRIBUTE,
                a.at,
                format!("no browser or service writes {} on <{element}>", a.name),
            );
        }
        if DATE_ATTRIBUTES.contains(&name_upper.as_str()) && matches!(element, "A" | "H3" | "H1") {
            let value = a.value.trim();
            let digits = value.strip_prefix('-').unwrap_or(value);
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                sink.at(
                    &NETSCAPE_BAD_DATE,
                    a.at,
                    format!(
                        "{}={:?} is not a number of seconds since 1970",
                        a.name, a.value
                    ),
                );
            }
        }
    }
    if attrs.len() > 32 {
        let mut seen = std::collections::HashSet::new();
        for a in &attrs[..32] {
            seen.insert(a.name.to_ascii_uppercase());
        }
        for a in &attrs[32..] {
            if !seen.insert(a.name.to_ascii_uppercase()) {
                sink.at(
                    &NETSCAPE_DUPLICATE_ATTRIBUTE,
                    a.at,
                    format!(
                        "{} is given twice on <{element}>; readers disagree on which one counts",
                        a.name
                    ),
                );
            }
        }
    }
}

/// The declared `label` (in a `<META>` at `at` in the text) against the bytes.
fn check_charset(raw: &mut Sink<'_>, sink: &mut Sink<'_>, input: &[u8], label: &str, at: usize) {
    let Some(declared) = charset::encoding_for_label(label) else {
        sink.at(
            &NETSCAPE_UNKNOWN_CHARSET,
            at,
            format!("charset {label:?} is not one browsers know"),
        );
        return;
    };
    if let Some((bom, _)) = encoding_rs::Encoding::for_bom(input) {
        if bom != declared && !(bom != encoding_rs::UTF_8 && declared == encoding_rs::UTF_8) {
            sink.at(
                &NETSCAPE_CHARSET_MISMATCH,
                at,
                format!(
                    "the byte order mark says {} but the <META> says {}",
                    bom.name(),
                    declared.name()
                ),
            );
        }
        return;
    }
    if let Some(bad) = first_malformed(declared, input) {
        raw.at(
            &NETSCAPE_CHARSET_MISMATCH,
            bad,
            format!(
                "the bytes here are not {}, the charset the <META> declares",
                declared.name()
            ),
        );
    } else if declared != encoding_rs::UTF_8
        && declared.is_single_byte()
        && std::str::from_utf8(input).is_ok_and(|s| !s.is_ascii())
    {
        sink.at(
            &NETSCAPE_CHARSET_SUSPECT,
            at,
            format!(
                "{} is declared, but every non-ASCII byte sequence is valid UTF-8: the declaration is probably wrong",
                declared.name()
            ),
        );
    }
}
