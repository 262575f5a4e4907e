//! The rules of `markport check` the XBEL reader finds when asked
//! ([`ReadOptions::checking`](markport_model::ReadOptions::checking)):
//! XBEL's own, and the desktop-bookmark dialect's, which the same walk
//! finds in a desktop bookmark file. docs/check.md documents each under
//! its id, with where it comes from.

use markport_model::rule::Rule;

// XBEL: the 1.0 DTD, then what it cannot say.
pub(crate) const XBEL_NOT_WELL_FORMED: Rule = Rule::error(
    "xbel/not-well-formed",
    "the file is not well-formed XML (checking stops at a fatal error)",
);
pub(crate) const XBEL_ENCODING_MISMATCH: Rule = Rule::error(
    "xbel/encoding-mismatch",
    "the bytes are not in the encoding the <?xml declaration or byte order mark says",
);
pub(crate) const XBEL_ENCODING_SUSPECT: Rule = Rule::warning(
    "xbel/encoding-suspect",
    "a single-byte encoding is declared but the bytes read as UTF-8",
);
pub(crate) const XBEL_UNKNOWN_ENCODING: Rule = Rule::error(
    "xbel/unknown-encoding",
    "the <?xml declaration names an encoding no reader knows",
);
pub(crate) const XBEL_ROOT: Rule = Rule::error("xbel/root", "the root element is not <xbel>");
pub(crate) const XBEL_MISSING_VERSION: Rule =
    Rule::warning("xbel/missing-version", "<xbel> has no version attribute");
pub(crate) const XBEL_VERSION: Rule = Rule::error("xbel/version", "<xbel version> is not \"1.0\"");
pub(crate) const XBEL_UNKNOWN_ELEMENT: Rule = Rule::error(
    "xbel/unknown-element",
    "an element XBEL does not define, outside <metadata>",
);
pub(crate) const XBEL_FOREIGN_ELEMENT: Rule = Rule::warning(
    "xbel/foreign-element",
    "an element of another namespace outside <metadata>",
);
pub(crate) const XBEL_MISPLACED_ELEMENT: Rule = Rule::error(
    "xbel/misplaced-element",
    "an XBEL element where its parent's content model does not allow it",
);
pub(crate) const XBEL_ELEMENT_ORDER: Rule = Rule::error(
    "xbel/element-order",
    "title, info and desc out of order, repeated, or after the content",
);
pub(crate) const XBEL_TEXT_NOT_ALLOWED: Rule = Rule::error(
    "xbel/text-not-allowed",
    "text in an element that holds only elements",
);
pub(crate) const XBEL_EMPTY_INFO: Rule =
    Rule::error("xbel/empty-info", "<info> without <metadata>");
pub(crate) const XBEL_DUPLICATE_OWNER: Rule = Rule::error(
    "xbel/duplicate-owner",
    "two <metadata> in one <info> with the same owner",
);
pub(crate) const XBEL_UNKNOWN_ATTRIBUTE: Rule = Rule::error(
    "xbel/unknown-attribute",
    "an attribute the DTD does not declare on that element",
);
pub(crate) const XBEL_MISSING_ATTRIBUTE: Rule = Rule::error(
    "xbel/missing-attribute",
    "<alias> without ref, or <metadata> without owner",
);
pub(crate) const XBEL_BAD_ATTRIBUTE_VALUE: Rule = Rule::error(
    "xbel/bad-attribute-value",
    "folded or toolbar is neither yes nor no",
);
pub(crate) const XBEL_BOOKMARK_WITHOUT_HREF: Rule =
    Rule::error("xbel/bookmark-without-href", "a <bookmark> without href");
pub(crate) const XBEL_BAD_ID: Rule = Rule::error("xbel/bad-id", "an id that is not an XML name");
pub(crate) const XBEL_DUPLICATE_ID: Rule =
    Rule::error("xbel/duplicate-id", "two elements share an id");
pub(crate) const XBEL_DANGLING_ALIAS: Rule = Rule::error(
    "xbel/dangling-alias",
    "an <alias ref> that names no element's id",
);
pub(crate) const XBEL_BAD_DATE: Rule = Rule::error(
    "xbel/bad-date",
    "added, modified or visited is not a W3C date/time",
);
// Writers' habits every reader accepts: one warning a file, not an error
// an element (`--strict` reports each under the rule it breaks).
pub(crate) const XBEL_FLOCCUS_IDS: Rule = Rule::warning(
    "xbel/floccus-ids",
    "ids that are numbers, as Floccus writes them (not XML names)",
);
pub(crate) const XBEL_KDE_PLACES: Rule = Rule::warning(
    "xbel/kde-places",
    "separators with href, title and info, and <info> after the content, as KDE writes its places",
);

// Desktop bookmarks: XBEL's rules, then the spec's and GLib's.
pub(crate) const DESKTOP_NOT_UTF8: Rule = Rule::error(
    "desktop/not-utf8",
    "a desktop bookmark file that is not UTF-8",
);
pub(crate) const DESKTOP_BYTE_ORDER_MARK: Rule = Rule::warning(
    "desktop/byte-order-mark",
    "a UTF-8 byte order mark, which GLib refuses",
);
pub(crate) const DESKTOP_XBEL_ELEMENT: Rule = Rule::warning(
    "desktop/xbel-element",
    "<folder>, <alias>, <separator> or a document <info> in a desktop bookmark file",
);
pub(crate) const DESKTOP_BOOKMARK_ATTRIBUTE: Rule = Rule::warning(
    "desktop/bookmark-attribute",
    "a <bookmark> attribute other than href, added, modified and visited",
);
pub(crate) const DESKTOP_NOT_A_URI: Rule =
    Rule::error("desktop/not-a-uri", "a bookmark href that is not a URI");
pub(crate) const DESKTOP_RELATIVE_FILE_URI: Rule = Rule::error(
    "desktop/relative-file-uri",
    "a file: URI that is not absolute",
);
pub(crate) const DESKTOP_DUPLICATE_URI: Rule =
    Rule::error("desktop/duplicate-uri", "two bookmarks for the same URI");
pub(crate) const DESKTOP_BAD_DATE: Rule =
    Rule::error("desktop/bad-date", "a date GLib's ISO 8601 reader refuses");
pub(crate) const DESKTOP_MISSING_MIME_TYPE: Rule = Rule::error(
    "desktop/missing-mime-type",
    "a bookmark without <mime:mime-type type>",
);
pub(crate) const DESKTOP_MISSING_APPLICATION: Rule = Rule::error(
    "desktop/missing-application",
    "a bookmark no application registered",
);
pub(crate) const DESKTOP_APPLICATION_ATTRIBUTE: Rule = Rule::error(
    "desktop/application-attribute",
    "<bookmark:application> without name, exec, count or modified",
);
pub(crate) const DESKTOP_BAD_COUNT: Rule = Rule::error(
    "desktop/bad-count",
    "an application count that is not a positive whole number",
);
pub(crate) const DESKTOP_DUPLICATE_APPLICATION: Rule = Rule::error(
    "desktop/duplicate-application",
    "one application registered twice on a bookmark",
);
pub(crate) const DESKTOP_BAD_GROUPS: Rule = Rule::error(
    "desktop/bad-groups",
    "<bookmark:groups> holding anything but non-empty <bookmark:group> text",
);
pub(crate) const DESKTOP_BAD_PRIVATE: Rule = Rule::error(
    "desktop/bad-private",
    "<bookmark:private> that is not empty",
);
pub(crate) const DESKTOP_ICON_WITHOUT_HREF: Rule =
    Rule::error("desktop/icon-without-href", "<bookmark:icon> without href");
pub(crate) const DESKTOP_UNKNOWN_ELEMENT: Rule = Rule::error(
    "desktop/unknown-element",
    "an element the spec does not define in the freedesktop <metadata>",
);
pub(crate) const DESKTOP_FOREIGN_METADATA: Rule = Rule::warning(
    "desktop/foreign-metadata",
    "another owner's <metadata> with elements inside, which GLib refuses",
);

/// XBEL's rules, in the order docs/check.md lists them.
pub const RULES: &[Rule] = &[
    XBEL_NOT_WELL_FORMED,
    XBEL_ENCODING_MISMATCH,
    XBEL_ENCODING_SUSPECT,
    XBEL_UNKNOWN_ENCODING,
    XBEL_ROOT,
    XBEL_MISSING_VERSION,
    XBEL_VERSION,
    XBEL_UNKNOWN_ELEMENT,
    XBEL_FOREIGN_ELEMENT,
    XBEL_MISPLACED_ELEMENT,
    XBEL_ELEMENT_ORDER,
    XBEL_TEXT_NOT_ALLOWED,
    XBEL_EMPTY_INFO,
    XBEL_DUPLICATE_OWNER,
    XBEL_UNKNOWN_ATTRIBUTE,
    XBEL_MISSING_ATTRIBUTE,
    XBEL_BAD_ATTRIBUTE_VALUE,
    XBEL_BOOKMARK_WITHOUT_HREF,
    XBEL_BAD_ID,
    XBEL_DUPLICATE_ID,
    XBEL_DANGLING_ALIAS,
    XBEL_BAD_DATE,
    XBEL_FLOCCUS_IDS,
    XBEL_KDE_PLACES,
];

/// The desktop-bookmark rules, in the order docs/check.md lists them: a
/// desktop bookmark file is checked under XBEL's rules and these.
pub const DESKTOP_RULES: &[Rule] = &[
    DESKTOP_NOT_UTF8,
    DESKTOP_BYTE_ORDER_MARK,
    DESKTOP_XBEL_ELEMENT,
    DESKTOP_BOOKMARK_ATTRIBUTE,
    DESKTOP_NOT_A_URI,
    DESKTOP_RELATIVE_FILE_URI,
    DESKTOP_DUPLICATE_URI,
    DESKTOP_BAD_DATE,
    DESKTOP_MISSING_MIME_TYPE,
    DESKTOP_MISSING_APPLICATION,
    DESKTOP_APPLICATION_ATTRIBUTE,
    DESKTOP_BAD_COUNT,
    DESKTOP_DUPLICATE_APPLICATION,
    DESKTOP_BAD_GROUPS,
    DESKTOP_BAD_PRIVATE,
    DESKTOP_ICON_WITHOUT_HREF,
    DESKTOP_UNKNOWN_ELEMENT,
    DESKTOP_FOREIGN_METADATA,
];
