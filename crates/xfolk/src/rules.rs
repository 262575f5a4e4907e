//! The rules of `markport check` for xFolk pages (xFolk RC1,
//! specs/xfolk-rc1.txt; docs/check.md): every `xfolkentry` has its tagged
//! link, and tags are `rel="tag"` links, as the format says.
//!
//! The reader finds them on its own walk when asked
//! ([`ReadOptions::checking`](markport_model::ReadOptions::checking)): an
//! entry without a link is one it skips, and a tag container is judged by
//! the links the walk sees inside it.

use markport_model::rule::{Findings, Rule};
use markport_model::{Diagnostic, LineIndex};

const MISSING_TAGGEDLINK: Rule = Rule::error(
    "xfolk/missing-taggedlink",
    "an xfolkentry without an <a class=\"taggedlink\" href>",
);
const TAG_NOT_REL_TAG: Rule = Rule::warning(
    "xfolk/tag-not-rel-tag",
    "tags marked by class in an entry, with no rel=\"tag\" link",
);

/// The rules of `markport check` the reader finds, in the order
/// docs/check.md lists them.
pub const RULES: &[Rule] = &[MISSING_TAGGEDLINK, TAG_NOT_REL_TAG];

/// The rules' state on the reader's walk.
pub(crate) struct Checks<'a> {
    lines: LineIndex<'a>,
    found: Findings,
    /// The tag containers open (elements classed `tag` or `tags` in an
    /// entry that are not `rel="tag"` links themselves), innermost last:
    /// where each starts, and whether a `rel="tag"` link was seen inside.
    containers: Vec<(usize, bool)>,
}

impl<'a> Checks<'a> {
    /// Checks on a walk over `src`, the page's decoded text.
    pub(crate) fn new(src: &'a str) -> Checks<'a> {
        Checks {
            lines: LineIndex::new(src.as_bytes()),
            found: Findings::default(),
            containers: Vec::new(),
        }
    }

    /// An element starts at `at`, in an entry or not; whether it opens a
    /// tag container (then [`Checks::end_tags`] is called when it closes).
    pub(crate) fn start(
        &mut self,
        at: usize,
        in_entry: bool,
        rel_tag_link: bool,
        tags: bool,
    ) -> bool {
        if rel_tag_link {
            if let Some(c) = self.containers.last_mut() {
                c.1 = true;
            }
            false
        } else if in_entry && tags {
            self.containers.push((at, false));
            true
        } else {
            false
        }
    }

    /// The innermost tag container closes: without a `rel="tag"` link
    /// inside, readers see no tags in it.
    pub(crate) fn end_tags(&mut self) {
        let Some((at, rel_tag)) = self.containers.pop() else {
            return;
        };
        if rel_tag {
            // A link inside is inside the containers around it too.
            if let Some(c) = self.containers.last_mut() {
                c.1 = true;
            }
            return;
        }
        let location = self.lines.locate(at);
        self.found.push(&TAG_NOT_REL_TAG, location, || {
            "tags marked by class, not as rel=\"tag\" links: xFolk readers do not see them".into()
        });
    }

    /// An entry starting at `at` has no tagged link: the reader skips it.
    pub(crate) fn missing_link(&mut self, at: usize) {
        let location = self.lines.locate(at);
        self.found.push(&MISSING_TAGGEDLINK, location, || {
            "this xfolkentry has no <a class=\"taggedlink\" href>: readers skip it".into()
        });
    }

    /// What was found, as diagnostics tagged with their rules.
    pub(crate) fn finish(self) -> Vec<Diagnostic> {
        self.found.finish()
    }
}
