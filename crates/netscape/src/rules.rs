//! The rules of `markport check` for Netscape bookmark HTML (docs/check.md):
//! the DOCTYPE, the `<DL>` structure, the attributes browsers and services
//! write, dates as numbers, and the declared charset against the bytes.
//! Rules from the format's description (Microsoft's documentation as kept
//! by its reader authors) and Chromium's importer, which it quotes.
//!
//! The reader feeds every token it scans to a [`Checker`] when asked
//! ([`ReadOptions::checking`](markport_model::ReadOptions::checking)): the
//! rules see the file exactly as the reader does, and a reading that does
//! not check pays nothing for them.

use encoding_rs::Encoding;
use markport_markup::charset;
use markport_model::rule::{Findings, Rule};
use markport_model::{Diagnostic, LineIndex};

use crate::scan::{RawAttr, Token};

const DOCTYPE: Rule = Rule::error(
    "netscape/doctype",
    "the file does not start with <!DOCTYPE NETSCAPE-Bookmark-file-1>",
);
const UNBALANCED_DL: Rule = Rule::error(
    "netscape/unbalanced-dl",
    "a </DL> without its <DL>, or a <DL> never closed",
);
const ITEM_OUTSIDE_LIST: Rule = Rule::warning(
    "netscape/item-outside-list",
    "a <DT>, <A>, <H3>, <HR> or <DD> outside every <DL> (but the heading's <DD>)",
);
// A writer's habit every reader accepts: one warning a file, not one an
// item (`--strict` reports each under `netscape/item-outside-list`).
const SAFARI_EXPORT: Rule = Rule::warning(
    "netscape/safari-export",
    "items at the top level outside every <DL>, as Safari exports its bookmarks",
);
const SHAARLI_EXPORT: Rule = Rule::warning(
    "netscape/shaarli-export",
    "links with no list at all, each with a PRIVATE attribute, as Shaarli's older exports write them",
);
const UNKNOWN_ATTRIBUTE: Rule = Rule::warning(
    "netscape/unknown-attribute",
    "an attribute no browser or service writes on that element",
);
const DUPLICATE_ATTRIBUTE: Rule = Rule::error(
    "netscape/duplicate-attribute",
    "an attribute given twice on one element",
);
const BAD_DATE: Rule = Rule::error(
    "netscape/bad-date",
    "ADD_DATE, LAST_MODIFIED or LAST_VISIT that is not a whole number of seconds",
);
const CHARSET_MISMATCH: Rule = Rule::error(
    "netscape/charset-mismatch",
    "the bytes are not in the charset the <META> or byte order mark declares",
);
const CHARSET_SUSPECT: Rule = Rule::warning(
    "netscape/charset-suspect",
    "a single-byte charset is declared but the bytes read as UTF-8",
);
const UNKNOWN_CHARSET: Rule = Rule::error(
    "netscape/unknown-charset",
    "the <META> names a charset no reader knows",
);

/// The rules of `markport check` the reader finds, in the order
/// docs/check.md lists them.
pub const RULES: &[Rule] = &[
    DOCTYPE,
    UNBALANCED_DL,
    ITEM_OUTSIDE_LIST,
    SAFARI_EXPORT,
    SHAARLI_EXPORT,
    UNKNOWN_ATTRIBUTE,
    DUPLICATE_ATTRIBUTE,
    BAD_DATE,
    CHARSET_MISMATCH,
    CHARSET_SUSPECT,
    UNKNOWN_CHARSET,
];

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
        && value("content") == Some(crate::GENERATOR)
}

/// Attributes that hold a date in seconds since 1970.
const DATE_ATTRIBUTES: &[&str] = &["ADD_DATE", "LAST_MODIFIED", "LAST_VISIT"];

/// Elements that are items of a list.
const ITEMS: &[&str] = &["DT", "A", "H3", "HR", "DD"];

/// A tag has a handful of attributes: up to this many, a repeated name is
/// found by comparing with the earlier ones; past it, by a set, so that a
/// tag with thousands stays linear.
const SCAN: usize = 32;

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

/// The first offset where `input` is not valid in `enc`, if any.
fn first_malformed(enc: &'static Encoding, input: &[u8]) -> Option<usize> {
    if enc == encoding_rs::UTF_8 {
        return std::str::from_utf8(input).err().map(|e| e.valid_up_to());
    }
    let mut decoder = enc.new_decoder_without_bom_handling();
    // Decoded a chunk at a time into one buffer: only where decoding fails
    // matters, not the text.
    let mut out = String::with_capacity(4096);
    let mut read = 0;
    loop {
        out.clear();
        let (result, n) =
            decoder.decode_to_string_without_replacement(&input[read..], &mut out, true);
        read += n;
        match result {
            encoding_rs::DecoderResult::InputEmpty => return None,
            encoding_rs::DecoderResult::OutputFull => out.reserve(4096),
            encoding_rs::DecoderResult::Malformed(bad, after) => {
                return Some(read.saturating_sub(bad as usize + after as usize))
            }
        }
    }
}

/// The rules' state over the reader's tokens, in one pass with a stack of
/// the open lists' places.
pub(crate) struct Checker<'a> {
    /// The file's bytes, for the charset rules (the reader's text is
    /// decoded already).
    input: &'a [u8],
    /// The decoded text the tokens' offsets are in.
    src: &'a str,
    lines: LineIndex<'a>,
    found: Findings,
    /// Where each open `<DL>` starts.
    lists: Vec<usize>,
    /// No token but white space seen yet.
    first: bool,
    any_list: bool,
    /// Inside the `<H1>` heading before the first list: its `<DD>`
    /// describes the whole file (Netscape 4).
    heading: bool,
    after_dt: bool,
    charset_seen: bool,
    /// Whether the file's head says markport wrote it.
    by_markport: bool,
    /// Report a writer's habit item by item (`--strict`).
    letter: bool,
    /// An `<HTML>` came before the first list or item, as Safari writes it.
    html_head: bool,
    /// The last element begun was a folder's `<H3>` (a `<DD>` or `<p>`
    /// between it and its `<DL>` leaves it so).
    folder_head: bool,
    /// A `<DL>` opened at the top level that is no folder's: the file's own list.
    root_list: bool,
    /// Items outside every list, held until the end says whether they are
    /// Safari's habit or each a finding.
    outside: Outside<'a>,
    /// Links outside every list, and how many of them carry `PRIVATE`
    /// (Shaarli writes it on every link).
    outside_links: usize,
    outside_private: usize,
    upper: String,
    repeats: std::collections::HashSet<String>,
}

impl<'a> Checker<'a> {
    /// The rules over `src`, decoded from `input`; with `letter`, a writer's
    /// habit is reported item by item under the rule it breaks.
    pub(crate) fn new(input: &'a [u8], src: &'a str, letter: bool) -> Checker<'a> {
        Checker {
            input,
            src,
            lines: LineIndex::new(src.as_bytes()),
            found: Findings::default(),
            lists: Vec::new(),
            first: true,
            any_list: false,
            heading: false,
            after_dt: false,
            charset_seen: false,
            by_markport: false,
            letter,
            html_head: false,
            folder_head: false,
            root_list: false,
            outside: Outside::default(),
            outside_links: 0,
            outside_private: 0,
            upper: String::new(),
            repeats: std::collections::HashSet::new(),
        }
    }

    fn at(&mut self, rule: &'static Rule, at: usize, message: impl FnOnce() -> String) {
        let location = self.lines.locate(at);
        self.found.push(rule, location, message);
    }

    /// One token of the file, with the attributes of a start tag.
    pub(crate) fn token(&mut self, token: &Token<'a>, attrs: &[RawAttr<'a>]) {
        if self.first && !self.doctype(token) {
            return;
        }
        match *token {
            Token::Start { tag, start, .. } => self.start(tag, start, attrs),
            Token::End { tag, start, .. }
                if tag.eq_ignore_ascii_case("dl") && self.lists.pop().is_none() =>
            {
                self.at(&UNBALANCED_DL, start, || {
                    "</DL> without an open <DL>".into()
                });
            }
            _ => {}
        }
    }

    /// The rule on the file's first token; false for white space before it.
    fn doctype(&mut self, token: &Token<'a>) -> bool {
        let src = self.src;
        match *token {
            Token::Text { start, end } if src[start..end].trim().is_empty() => return false,
            Token::Doctype { start, end, .. } => {
                let inner = src[start + 2..end - 1].trim();
                let name = inner
                    .get(7..)
                    .map(str::trim)
                    .filter(|_| inner.len() >= 7 && inner[..7].eq_ignore_ascii_case("doctype"));
                if !name.is_some_and(|n| n.eq_ignore_ascii_case("NETSCAPE-Bookmark-file-1")) {
                    self.at(&DOCTYPE, start, || {
                        format!(
                            "the DOCTYPE is <{}>, not <!DOCTYPE NETSCAPE-Bookmark-file-1>",
                            &src[start + 1..end - 1]
                        )
                    });
                }
            }
            Token::Start { start, .. } | Token::End { start, .. } | Token::Text { start, .. } => {
                self.at(&DOCTYPE, start, || {
                    "the file does not start with <!DOCTYPE NETSCAPE-Bookmark-file-1>, which every browser writes first".into()
                })
            }
            Token::Comment => self.at(&DOCTYPE, 0, || {
                "the file does not start with <!DOCTYPE NETSCAPE-Bookmark-file-1> (a comment comes first)".into()
            }),
        }
        self.first = false;
        true
    }

    fn start(&mut self, tag: &'a str, start: usize, attrs: &[RawAttr<'a>]) {
        let mut upper = std::mem::take(&mut self.upper);
        upper.clear();
        upper.push_str(tag);
        upper.make_ascii_uppercase();
        let element = upper.as_str();
        if element == "DL" {
            if self.lists.is_empty() && !self.folder_head {
                self.root_list = true;
            }
            self.lists.push(start);
            self.any_list = true;
        } else if element == "HTML" {
            self.html_head |= !self.any_list && self.outside.count == 0;
        } else if element == "H1" {
            self.heading = !self.any_list;
        } else if element == "DD" && self.heading && self.lists.is_empty() {
            // The <DD> after the <H1> describes the whole file (Netscape 4).
        } else if self.lists.is_empty() && matches!(element, "A" | "H3") && self.after_dt {
            // Reported at its <DT> already.
        } else if self.lists.is_empty() && ITEMS.contains(&element) {
            self.outside.seen(start, tag);
        }
        if self.lists.is_empty() && element == "A" {
            self.outside_links += 1;
            if attrs.iter().any(|a| a.name.eq_ignore_ascii_case("PRIVATE")) {
                self.outside_private += 1;
            }
        }
        self.after_dt = element == "DT";
        if element == "H3" {
            self.folder_head = true;
        } else if !matches!(element, "DD" | "P") {
            self.folder_head = false;
        }
        // A generator is declared in the head, before the lists.
        if element == "META" && !self.any_list {
            self.by_markport |= says_markport(attrs);
        }
        self.attributes(element, attrs);
        if element == "META" && !self.charset_seen {
            if let Some(label) = meta_charset(attrs) {
                self.charset_seen = true;
                self.charset(label, start);
            }
        }
        self.upper = upper;
    }

    fn attributes(&mut self, element: &str, attrs: &[RawAttr<'a>]) {
        let known = known_attributes(element);
        let twice = |name: &str| {
            format!("{name} is given twice on <{element}>; readers disagree on which one counts")
        };
        for (i, a) in attrs.iter().enumerate() {
            let repeated = if i < SCAN {
                attrs[..i]
                    .iter()
                    .any(|b| b.name.eq_ignore_ascii_case(a.name))
            } else {
                if i == SCAN {
                    self.repeats.clear();
                    self.repeats
                        .extend(attrs[..SCAN].iter().map(|b| b.name.to_ascii_uppercase()));
                }
                !self.repeats.insert(a.name.to_ascii_uppercase())
            };
            if repeated {
                self.at(&DUPLICATE_ATTRIBUTE, a.at, || twice(a.name));
            }
            let Some(known) = known else { continue };
            let is = |list: &[&str]| list.iter().any(|k| k.eq_ignore_ascii_case(a.name));
            if !self.by_markport && !is(known) && !is(crate::written_attributes(element)) {
                self.at(&UNKNOWN_ATTRIBUTE, a.at, || {
                    format!("no browser or service writes {} on <{element}>", a.name)
                });
            }
            if is(DATE_ATTRIBUTES) && matches!(element, "A" | "H3" | "H1") {
                let value = a.value.trim();
                let digits = value.strip_prefix('-').unwrap_or(value);
                if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                    self.at(&BAD_DATE, a.at, || {
                        format!(
                            "{}={:?} is not a number of seconds since 1970",
                            a.name, a.value
                        )
                    });
                }
            }
        }
    }

    /// The declared `label` (in a `<META>` at `at` in the text) against
    /// the bytes.
    fn charset(&mut self, label: &str, at: usize) {
        let input = self.input;
        let Some(declared) = charset::encoding_for_label(label) else {
            self.at(&UNKNOWN_CHARSET, at, || {
                format!("charset {label:?} is not one browsers know")
            });
            return;
        };
        if let Some((bom, _)) = Encoding::for_bom(input) {
            if bom != declared && !(bom != encoding_rs::UTF_8 && declared == encoding_rs::UTF_8) {
                self.at(&CHARSET_MISMATCH, at, || {
                    format!(
                        "the byte order mark says {} but the <META> says {}",
                        bom.name(),
                        declared.name()
                    )
                });
            }
            return;
        }
        if let Some(bad) = first_malformed(declared, input) {
            // Placed in the bytes: the text has the bad bytes replaced.
            let location = LineIndex::new(input).locate(bad);
            self.found.push(&CHARSET_MISMATCH, location, || {
                format!(
                    "the bytes here are not {}, the charset the <META> declares",
                    declared.name()
                )
            });
        } else if declared != encoding_rs::UTF_8
            && declared.is_single_byte()
            && std::str::from_utf8(input).is_ok_and(|s| !s.is_ascii())
        {
            self.at(&CHARSET_SUSPECT, at, || {
                format!(
                    "{} is declared, but every non-ASCII byte sequence is valid UTF-8: the declaration is probably wrong",
                    declared.name()
                )
            });
        }
    }

    /// What was found, with what only the end of the file tells.
    pub(crate) fn finish(mut self) -> Vec<Diagnostic> {
        if self.first {
            let end = self.src.len();
            self.at(&DOCTYPE, end, || {
                "the file holds no markup, not even <!DOCTYPE NETSCAPE-Bookmark-file-1>".into()
            });
        }
        for open in std::mem::take(&mut self.lists) {
            self.at(&UNBALANCED_DL, open, || "this <DL> is never closed".into());
        }
        self.outside_items();
        self.found.finish()
    }

    /// The items outside every list: Safari's habit, once, when the file
    /// is laid out as Safari exports (an `<HTML>` first, and no list of its
    /// own: each top-level folder's `<DL>` follows its `<H3>`); Shaarli's,
    /// once, when the file has no list at all and `PRIVATE` on every link;
    /// else each one under `netscape/item-outside-list`.
    fn outside_items(&mut self) {
        let outside = std::mem::take(&mut self.outside);
        let Some(&(first, _)) = outside.first.first() else {
            return;
        };
        if self.html_head && !self.root_list && !self.letter {
            let n = outside.count;
            self.at(&SAFARI_EXPORT, first, || {
                format!(
                    "{n} item{} at the top level outside every <DL>, as Safari exports its \
                     bookmarks: not in the format's description, but every reader we know \
                     reads {} into the top level (--strict lists each)",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "it" } else { "them" },
                )
            });
            return;
        }
        // Shaarli's export before its lists: every link at the top level,
        // no <DL> in the file, and PRIVATE on each link.
        let shaarli =
            !self.any_list && self.outside_links > 0 && self.outside_private == self.outside_links;
        if shaarli && !self.letter {
            let n = outside.count;
            self.at(&SHAARLI_EXPORT, first, || {
                format!(
                    "{n} item{} with no list at all, as Shaarli's older exports write them: \
                     not in the format's description, but every reader we know reads {} \
                     into the top level (--strict lists each)",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "it" } else { "them" },
                )
            });
            return;
        }
        let message = |tag: &str| {
            format!("<{tag}> outside every <DL>: readers put items in the list they are in")
        };
        for &(at, tag) in &outside.first {
            self.at(&ITEM_OUTSIDE_LIST, at, || message(tag));
        }
        // Past the ones kept, only the count and the last place are shown.
        if let Some((at, tag)) = outside.last {
            let location = self.lines.locate(at);
            for _ in outside.first.len()..outside.count {
                self.found
                    .push(&ITEM_OUTSIDE_LIST, location, || message(tag));
            }
        }
    }
}

/// Items outside every list, as found: the first ones with their places
/// and tags as written (as many as check lists of one rule), the last
/// one's, and how many.
#[derive(Default)]
struct Outside<'a> {
    first: Vec<(usize, &'a str)>,
    last: Option<(usize, &'a str)>,
    count: usize,
}

impl<'a> Outside<'a> {
    fn seen(&mut self, at: usize, tag: &'a str) {
        self.count += 1;
        if self.first.len() < markport_model::rule::LIMIT_PER_RULE {
            self.first.push((at, tag));
        } else {
            self.last = Some((at, tag));
        }
    }
}
