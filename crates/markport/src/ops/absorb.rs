//! What a surviving bookmark gains from a duplicate of it.

use std::collections::{HashMap, HashSet};

use markport_model::{Bookmark, DateValue, Field, NodeId, Scope};

/// Add `more` to `tags`, skipping any already there in any case (the first
/// spelling is kept). Returns how many were added.
pub(crate) fn add_tags<'a>(
    tags: &mut Vec<String>,
    more: impl IntoIterator<Item = &'a str>,
) -> usize {
    let mut seen = SeenTags::of(tags);
    seen.add(tags, more)
}

/// The tags of one bookmark, lowercased: kept while a survivor absorbs its
/// duplicates, so that each duplicate costs its own tags, not the
/// survivor's (which grow with every duplicate absorbed).
#[derive(Default)]
pub(crate) struct SeenTags(HashSet<String>);

impl SeenTags {
    /// The set of `tags`.
    pub(crate) fn of(tags: &[String]) -> SeenTags {
        SeenTags(tags.iter().map(|t| t.to_lowercase()).collect())
    }

    /// Add `more` to `tags` (the set's bookmark's), skipping any already
    /// there in any case. Returns how many were added.
    fn add<'a>(
        &mut self,
        tags: &mut Vec<String>,
        more: impl IntoIterator<Item = &'a str>,
    ) -> usize {
        let before = tags.len();
        for t in more {
            if self.0.insert(t.to_lowercase()) {
                tags.push(t.to_owned());
            }
        }
        tags.len() - before
    }
}

/// The tag sets of the survivors that absorbed a duplicate, by node.
#[derive(Default)]
pub(crate) struct Survivors(HashMap<NodeId, SeenTags>);

impl Survivors {
    /// Merge `other` into `survivor`, the bookmark `id`, as [`absorb`]
    /// does, in time proportional to `other`.
    pub(crate) fn absorb(&mut self, id: NodeId, survivor: &mut Bookmark, other: Bookmark) {
        let seen = self
            .0
            .entry(id)
            .or_insert_with(|| SeenTags::of(&survivor.tags));
        absorb_with(survivor, other, seen);
    }
}

/// The instant of a date as a sortable pair.
fn instant(d: &Option<DateValue>) -> Option<(i64, u32)> {
    d.as_ref()
        .and_then(DateValue::instant)
        .map(|t| (t.unix_seconds(), t.subsec_nanos()))
}

/// `mine` becomes `theirs` when `theirs` is set and `mine` is not, or when
/// both are instants and `theirs` is the one `prefer` chooses.
pub(crate) fn pick(mine: &mut Option<DateValue>, theirs: Option<DateValue>, later: bool) {
    let better = match (instant(mine), instant(&theirs)) {
        (Some(a), Some(b)) => (b > a) == later && b != a,
        _ => mine.is_none(),
    };
    if better && theirs.is_some() {
        *mine = theirs;
    }
}

/// The fields set on both bookmarks with different values: what a merge
/// had to choose between (the survivor's value wins). Tags are not among
/// them: they are united.
pub(crate) fn conflicts(survivor: &Bookmark, other: &Bookmark) -> Vec<Field> {
    Field::of(Scope::Bookmark)
        .filter(|f| !matches!(f, Field::BookmarkHref | Field::BookmarkTags))
        .filter(|f| {
            let (Some(a), Some(b)) = (f.get(survivor), f.get(other)) else {
                return false;
            };
            a.is_present() && b.is_present() && !a.same(&b)
        })
        .collect()
}

/// Merge `other`, a later duplicate, into `survivor`: the union of tags,
/// the earliest added date, the latest visited and modified dates, its
/// description if the survivor has none, private if either is.
#[cfg(test)]
pub(crate) fn absorb(survivor: &mut Bookmark, other: Bookmark) {
    let mut seen = SeenTags::of(&survivor.tags);
    absorb_with(survivor, other, &mut seen);
}

/// [`absorb`] with the survivor's tag set at hand.
fn absorb_with(survivor: &mut Bookmark, other: Bookmark, seen: &mut SeenTags) {
    let mut other = other;
    seen.add(&mut survivor.tags, other.tags.iter().map(String::as_str));
    pick(&mut survivor.added, other.added.take(), false);
    pick(&mut survivor.modified, other.modified.take(), true);
    if let Some(v) = other.details().visited.clone() {
        pick(&mut survivor.details_mut().visited, Some(v), true);
    }
    if survivor.desc.as_deref().is_none_or(str::is_empty) && other.desc.is_some() {
        survivor.desc = other.desc.take();
    }
    if other.private == Some(true) || survivor.private.is_none() {
        survivor.private = survivor.private.filter(|p| *p).or(other.private);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::Timestamp;

    fn at(secs: i64) -> Option<DateValue> {
        Some(Timestamp::from_unix(secs, 0).unwrap().into())
    }

    #[test]
    fn the_survivor_gains_what_the_issue_lists() {
        let mut a = Bookmark::new("https://a.example/").with_title("A");
        a.tags = vec!["Rust".into()];
        a.added = at(200);
        a.modified = at(200);
        let mut b = Bookmark::new("https://A.example").with_title("B");
        b.tags = vec!["rust".into(), "lang".into()];
        b.added = at(100);
        b.modified = at(300);
        b.desc = Some("about".into());
        b.private = Some(true);
        b.details_mut().visited = at(50);
        assert_eq!(
            conflicts(&a, &b),
            [
                Field::BookmarkTitle,
                Field::BookmarkAdded,
                Field::BookmarkModified
            ]
        );
        absorb(&mut a, b);
        assert_eq!(a.title.as_deref(), Some("A"));
        assert_eq!(a.tags, ["Rust", "lang"]);
        assert_eq!((&a.added, &a.modified), (&at(100), &at(300)));
        assert_eq!(a.details().visited, at(50));
        assert_eq!(a.desc.as_deref(), Some("about"));
        assert_eq!(a.private, Some(true));
        // A public duplicate does not make a private bookmark public.
        let mut c = Bookmark::new("x");
        c.private = Some(false);
        absorb(&mut a, c);
        assert_eq!(a.private, Some(true));
    }
}
