//! Field by field, not item by item: each field of an item takes the value
//! of the side that changed it from the base, so a title changed on one
//! side and a link on the other keeps both. Tags merge as sets; an added
//! date takes the earliest and a modified or visited date the latest;
//! anything else changed both ways is a conflict the preferred side wins.
//! A field a side's format cannot hold is not changed by that side.

use std::collections::HashSet;

use markport_model::{DateValue, Field, Holder, Node, Scope, Value};

use crate::tree::Side;

/// A field changed both ways, with each side's value.
pub(crate) struct FieldConflict {
    pub(crate) field: Field,
    /// Base, ours, theirs (`null` where absent).
    pub(crate) values: [serde_json::Value; 3],
    pub(crate) took: Side,
}

/// The scope of a node's fields.
pub(crate) fn scope(node: &Node) -> Scope {
    match node {
        Node::Bookmark(_) => Scope::Bookmark,
        Node::Folder(_) => Scope::Folder,
        Node::Separator(_) => Scope::Separator,
        _ => Scope::Alias,
    }
}

/// Whether `x` changed `b`: a field its side's format holds differs (dates
/// by instant), or an alias shows another node.
pub(crate) fn differs(b: &Node, x: &Node, uncarried: &[Field]) -> bool {
    if b == x {
        return false;
    }
    if b.kind() != x.kind() {
        return true;
    }
    if let (Node::Alias(p), Node::Alias(q)) = (b, x) {
        if p.target != q.target {
            return true;
        }
    }
    Field::of(scope(b)).any(|f| {
        !uncarried.contains(&f)
            && match (f.get(Holder::from(b)), f.get(Holder::from(x))) {
                (Some(p), Some(q)) => !p.same(&q),
                _ => false,
            }
    })
}

/// One item's holders in base, ours and theirs, merged into a copy of
/// `start`'s.
pub(crate) struct Merge<'a> {
    pub(crate) holders: [Option<Holder<'a>>; 3],
    pub(crate) start: Side,
    pub(crate) winner: Side,
    pub(crate) uncarried: &'a [Vec<Field>; 3],
}

/// What one field of the merged holder becomes.
pub(crate) enum Put<'a> {
    /// The value this holder has.
    From(Holder<'a>),
    /// These tags.
    Tags(Vec<String>),
}

/// How one field is decided.
enum Choice {
    /// The value of this side.
    Side(Side),
    /// A new list of tags.
    Tags(Vec<String>),
}

impl Merge<'_> {
    /// Merge every field of `scope`, handing each change to the start
    /// side's copy to `put`. Returns the conflicts.
    pub(crate) fn each(
        &self,
        scope: Scope,
        put: &mut dyn FnMut(Field, Put<'_>),
    ) -> Vec<FieldConflict> {
        let mut conflicts = Vec::new();
        if self.same_everywhere() {
            return conflicts;
        }
        for field in Field::of(scope) {
            let Some(choice) = self.choose(field, &mut conflicts) else {
                continue;
            };
            match choice {
                Choice::Side(side) if side == self.start => {}
                Choice::Side(side) => {
                    let from = self.holders[side.index()].expect("a side with the value");
                    put(field, Put::From(from));
                }
                Choice::Tags(tags) => put(field, Put::Tags(tags)),
            }
        }
        conflicts
    }

    /// Nothing to merge: one edited side only, or both alike, with no field
    /// a format could not hold.
    fn same_everywhere(&self) -> bool {
        let [b, o, t] = self.holders;
        let plain = self.uncarried[1].is_empty() && self.uncarried[2].is_empty();
        match (b, o, t) {
            (None, Some(_), None) | (None, None, Some(_)) => true,
            (_, Some(o), Some(t)) => plain && holder_eq(o, t),
            (Some(_), Some(_), None) | (Some(_), None, Some(_)) => plain,
            _ => true,
        }
    }

    /// The value a side effectively has: the base's where its format
    /// cannot hold the field.
    fn effective<'v>(&'v self, field: Field, side: Side) -> Option<Value<'v>> {
        let own = self.holders[side.index()].and_then(|h| field.get(h));
        if side != Side::Base
            && self.uncarried[side.index()].contains(&field)
            && self.holders[0].is_some()
        {
            return self.holders[0].and_then(|h| field.get(h));
        }
        own
    }

    /// Which value the field takes; `None`: the field has no value here.
    fn choose(&self, field: Field, conflicts: &mut Vec<FieldConflict>) -> Option<Choice> {
        let b = self.effective(field, Side::Base);
        let o = self.effective(field, Side::Ours);
        let t = self.effective(field, Side::Theirs);
        let present = |s: Side| self.holders[s.index()].is_some();
        let same = |x: &Option<Value>, y: &Option<Value>| match (x, y) {
            (Some(x), Some(y)) => x.same(y),
            (None, None) => true,
            _ => false,
        };
        if [b, o, t].iter().all(Option::is_none) {
            return None;
        }
        let (oc, tc) = if present(Side::Base) {
            (
                present(Side::Ours) && !same(&o, &b),
                present(Side::Theirs) && !same(&t, &b),
            )
        } else {
            (present(Side::Ours), present(Side::Theirs))
        };
        let side = match (oc, tc) {
            (false, false) => Side::Base,
            (true, false) => Side::Ours,
            (false, true) => Side::Theirs,
            (true, true) if same(&o, &t) => self.start,
            (true, true) => return Some(self.both(field, [b, o, t], conflicts)),
        };
        // The start side's copy already holds the value when it is the same.
        let side = if side != self.start
            && same(&self.effective(field, side), &self.value_at_start(field))
        {
            self.start
        } else {
            side
        };
        Some(Choice::Side(side))
    }

    fn value_at_start(&self, field: Field) -> Option<Value<'_>> {
        self.holders[self.start.index()].and_then(|h| field.get(h))
    }

    /// Both sides changed the field apart: tags as sets, dates by their
    /// rule, anything else the winner's, said.
    fn both(
        &self,
        field: Field,
        v: [Option<Value>; 3],
        conflicts: &mut Vec<FieldConflict>,
    ) -> Choice {
        let (w, l) = (self.winner.index(), self.winner.other().index());
        if let (Some(Value::Texts(wt)), Some(Value::Texts(lt))) = (v[w], v[l]) {
            if field == Field::BookmarkTags {
                let base = match v[0] {
                    Some(Value::Texts(b)) => b,
                    _ => &[],
                };
                return Choice::Tags(tags(base, wt, lt));
            }
        }
        if let (Some(Value::Date(wd)), Some(Value::Date(ld))) = (v[w], v[l]) {
            if let Some(later) = date_rule(field) {
                let take_l = match (wd, ld) {
                    (None, Some(_)) => true,
                    (Some(x), Some(y)) => match (instant(x), instant(y)) {
                        (Some(x), Some(y)) => (y > x) == later && y != x,
                        _ => false,
                    },
                    _ => false,
                };
                return Choice::Side(if take_l {
                    self.winner.other()
                } else {
                    self.winner
                });
            }
        }
        conflicts.push(FieldConflict {
            field,
            values: v.map(|x| x.map_or(serde_json::Value::Null, json)),
            took: self.winner,
        });
        Choice::Side(self.winner)
    }
}

/// Whether two holders of one kind are equal, field for field.
fn holder_eq(a: Holder, b: Holder) -> bool {
    match (a, b) {
        (Holder::Bookmark(x), Holder::Bookmark(y)) => x == y,
        (Holder::Folder(x), Holder::Folder(y)) => x == y,
        (Holder::Separator(x), Holder::Separator(y)) => x == y,
        (Holder::Alias(x), Holder::Alias(y)) => x == y,
        (Holder::Header(x), Holder::Header(y)) => x == y,
        _ => false,
    }
}

/// For a date field, whether the later date wins (modified, visited) or
/// the earlier (added); `None` for any other field.
fn date_rule(field: Field) -> Option<bool> {
    match field {
        Field::BookmarkAdded | Field::FolderAdded | Field::DocumentAdded => Some(false),
        Field::BookmarkModified
        | Field::BookmarkVisited
        | Field::FolderModified
        | Field::DocumentModified => Some(true),
        _ => None,
    }
}

fn instant(d: &DateValue) -> Option<(i64, u32)> {
    d.instant().map(|t| (t.unix_seconds(), t.subsec_nanos()))
}

/// Tags as sets: the winner's, less those the loser removed from the
/// base's, then those the loser added.
fn tags(base: &[String], winner: &[String], loser: &[String]) -> Vec<String> {
    let b: HashSet<&str> = base.iter().map(String::as_str).collect();
    let l: HashSet<&str> = loser.iter().map(String::as_str).collect();
    let w: HashSet<&str> = winner.iter().map(String::as_str).collect();
    let mut out: Vec<String> = winner
        .iter()
        .filter(|t| !b.contains(t.as_str()) || l.contains(t.as_str()))
        .cloned()
        .collect();
    let mut added = HashSet::new();
    for t in loser {
        if !b.contains(t.as_str()) && !w.contains(t.as_str()) && added.insert(t.as_str()) {
            out.push(t.clone());
        }
    }
    out
}

/// A value as the JSON report shows it.
pub(crate) fn json(v: Value) -> serde_json::Value {
    let to = |x: Result<serde_json::Value, serde_json::Error>| x.unwrap_or(serde_json::Value::Null);
    match v {
        Value::Str(s) => s.into(),
        Value::Text(t) => t.map_or(serde_json::Value::Null, Into::into),
        Value::Texts(t) => t.into(),
        Value::Date(d) => to(serde_json::to_value(d)),
        Value::Flag(f) => f.map_or(serde_json::Value::Null, Into::into),
        Value::Role(r) => r.map_or(serde_json::Value::Null, |r| r.name().into()),
        Value::Applications(a) => to(serde_json::to_value(a)),
        Value::DesktopIcon(i) => to(serde_json::to_value(i)),
        Value::Metadata(m) => to(serde_json::to_value(m)),
        Value::Attributes(a) => to(serde_json::to_value(a)),
        _ => serde_json::Value::Null,
    }
}
