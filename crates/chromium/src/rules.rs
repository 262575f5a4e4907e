//! The rules of `markport check` for Chromium's `Bookmarks` file, found by
//! the reader when asked
//! ([`ReadOptions::checking`](markport_model::ReadOptions)): what
//! Chromium's `BookmarkCodec` needs to load a file as written rather than
//! repair it (ids, guids, checksum), the keys each node type must have,
//! dates as integer strings, the roots. docs/check.md documents each under
//! its id.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use markport_model::rule::Rule;
use markport_model::{Diagnostic, LineIndex};

/// Not JSON (or not UTF-8): fatal.
pub(crate) const NOT_JSON: Rule = Rule::error(
    "chromium/not-json",
    "the file is not JSON (checking stops at the error)",
);
/// A value of the wrong kind where the tree is.
pub(crate) const STRUCTURE: Rule = Rule::error(
    "chromium/structure",
    "a value of the wrong kind where the tree is (roots, a root, children, a node)",
);
/// No `roots`, or a root Chromium cannot load without.
pub(crate) const MISSING_ROOT: Rule = Rule::error(
    "chromium/missing-root",
    "no `roots`, or roots without bookmark_bar or other",
);
/// A node without a key its type needs, or one that is not a string.
pub(crate) const MISSING_KEY: Rule = Rule::error(
    "chromium/missing-key",
    "a node without id, name, type, and url (url) or children (folder), or one that is not a string",
);
const BAD_TYPE: Rule = Rule::error("chromium/bad-type", "a node type other than url and folder");
const BAD_ID: Rule = Rule::error(
    "chromium/bad-id",
    "an id that is not a decimal number in a string",
);
const DUPLICATE_ID: Rule = Rule::error("chromium/duplicate-id", "two nodes share an id");
const BAD_GUID: Rule = Rule::error(
    "chromium/bad-guid",
    "a guid that is not a lowercase UUID, or is another node's",
);
/// A date that is not a string of an integer.
pub(crate) const BAD_DATE: Rule = Rule::error(
    "chromium/bad-date",
    "date_added, date_modified or date_last_used that is not an integer string",
);
/// The stored checksum against the content's.
pub(crate) const CHECKSUM: Rule = Rule::error(
    "chromium/checksum",
    "the stored checksum is not the MD5 Chromium computes for the tree",
);

/// The rules of `markport check` this reader finds (docs/check.md).
pub const RULES: &[Rule] = &[
    NOT_JSON,
    STRUCTURE,
    MISSING_ROOT,
    MISSING_KEY,
    BAD_TYPE,
    BAD_ID,
    DUPLICATE_ID,
    BAD_GUID,
    BAD_DATE,
    CHECKSUM,
];

/// Whether `s` is a lowercase UUID, the form Chromium's
/// `base::Uuid::ParseLowercase` accepts (others it replaces).
fn is_lowercase_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
        })
}

/// Whether a date's string is what Chromium parses: an integer, digits only.
pub(crate) fn is_integer(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit())
}

/// What a node showed of the keys its type needs, a bit each (set only
/// when the value is of the kind Chromium reads).
pub(crate) mod has {
    /// A string `name`.
    pub const NAME: u8 = 1;
    /// A string `id`.
    pub const ID: u8 = 2;
    /// A string `url`.
    pub const URL: u8 = 4;
    /// An array `children`.
    pub const CHILDREN: u8 = 8;
}

/// `rule` broken at byte `at` of the file, into `diags`.
pub(crate) fn found(
    diags: &mut Vec<Diagnostic>,
    lines: &LineIndex<'_>,
    rule: &Rule,
    at: usize,
    message: impl Into<String>,
) {
    let loc = lines.locate(at);
    diags.push(Diagnostic::warning(message, Some(loc)).rule(rule.id));
}

/// A node's `}`: the keys its type needs, and the type. `at` is where its
/// `{` is, `has` what it showed ([`has`]), `kind` its last string `type`
/// and where that stands.
pub(crate) fn end_node(
    diags: &mut Vec<Diagnostic>,
    lines: &LineIndex<'_>,
    at: usize,
    has: u8,
    kind: Option<(&str, usize)>,
) {
    let mut missing = Vec::new();
    if has & has::NAME == 0 {
        missing.push("name");
    }
    if has & has::ID == 0 {
        missing.push("id");
    }
    match kind {
        None => missing.push("type"),
        Some(("url", _)) if has & has::URL == 0 => missing.push("url"),
        Some(("folder", _)) if has & has::CHILDREN == 0 => missing.push("children"),
        Some(("url" | "folder", _)) => {}
        Some((other, type_at)) => found(
            diags,
            lines,
            &BAD_TYPE,
            type_at,
            format!("type {other:?} is neither \"url\" nor \"folder\""),
        ),
    }
    if !missing.is_empty() {
        let this = match kind {
            Some((kind, _)) => format!("this {kind} node"),
            None => "this node".to_owned(),
        };
        found(
            diags,
            lines,
            &MISSING_KEY,
            at,
            format!("{this} has no {}", missing.join(", ")),
        );
    }
}

/// The ids and guids of every node, with where each stands: whether each
/// is unique is known once the whole file is read.
#[derive(Default)]
pub(crate) struct Ids<'a> {
    /// Every string `id`, and where its value starts.
    pub ids: Vec<(Cow<'a, str>, usize)>,
    /// Every string `guid`, and where its value starts.
    pub guids: Vec<(Cow<'a, str>, usize)>,
}

impl Ids<'_> {
    /// Each id and guid in the order of the file (the reader takes the
    /// standard roots first, whatever their order): its form, then
    /// whether an earlier node has it.
    pub(crate) fn finish(mut self, diags: &mut Vec<Diagnostic>, lines: &LineIndex<'_>) {
        self.ids.sort_by_key(|(_, at)| *at);
        let mut first: HashMap<&str, usize> = HashMap::with_capacity(self.ids.len());
        for (id, at) in &self.ids {
            if !is_integer(id) {
                found(
                    diags,
                    lines,
                    &BAD_ID,
                    *at,
                    format!("id {id:?} is not a decimal number; Chromium renumbers every node"),
                );
            } else if let Some(&earlier) = first.get(&**id) {
                let line = lines.locate(earlier).line;
                found(
                    diags,
                    lines,
                    &DUPLICATE_ID,
                    *at,
                    format!("id {id:?} is already the id of the node on line {line}; Chromium renumbers every node"),
                );
            } else {
                first.insert(id, *at);
            }
        }
        self.guids.sort_by_key(|(_, at)| *at);
        let mut seen: HashSet<&str> = HashSet::with_capacity(self.guids.len());
        for (guid, at) in &self.guids {
            let message = if !is_lowercase_uuid(guid) {
                format!("guid {guid:?} is not a lowercase UUID; Chromium replaces it")
            } else if !seen.insert(guid) {
                format!("guid {guid:?} is already another node's; Chromium replaces it")
            } else {
                continue;
            };
            found(diags, lines, &BAD_GUID, *at, message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_as_chromium_parses_them() {
        assert!(is_lowercase_uuid("00000005-0000-4000-8000-000000000005"));
        assert!(!is_lowercase_uuid("00000005-0000-4000-8000-00000000000A"));
        assert!(!is_lowercase_uuid("000000050000-4000-8000-000000000005x"));
        assert!(!is_lowercase_uuid("toolbar_____"));
    }
}
