//! The one place that knows which member of which struct each [`Field`] is.
//!
//! [`Field::get`] reads a field's [`Value`] on whatever holds it; the census,
//! [`diff`](crate::diff), node equality and writers' character checks all go
//! through it. Adding a field means a variant in the table of `field.rs`, a
//! member on its struct, and one arm in [`Field::get`] (see
//! `docs/architecture.md`, "Adding a field").

use crate::field::{Field, Scope};
use crate::header::Header;
use crate::node::{
    Alias, Application, Attribute, Bookmark, DesktopIcon, Folder, Metadata, Node, Role, Separator,
};
use crate::time::DateValue;

/// What a field is read on: the document's header or one node.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Holder<'a> {
    /// The document's own fields.
    Header(&'a Header),
    /// A bookmark.
    Bookmark(&'a Bookmark),
    /// A folder.
    Folder(&'a Folder),
    /// A separator.
    Separator(&'a Separator),
    /// An alias.
    Alias(&'a Alias),
}

impl<'a> Holder<'a> {
    /// The scope whose fields this holder has.
    pub fn scope(&self) -> Scope {
        match self {
            Holder::Header(_) => Scope::Document,
            Holder::Bookmark(_) => Scope::Bookmark,
            Holder::Folder(_) => Scope::Folder,
            Holder::Separator(_) => Scope::Separator,
            Holder::Alias(_) => Scope::Alias,
        }
    }

    /// The fields that have a value here (present, not empty), in [`Field::ALL`] order.
    pub fn present(self) -> impl Iterator<Item = Field> + 'a {
        // Most bookmarks have no details: their fields are not asked for
        // (the census asks this of every node).
        static CORE: std::sync::OnceLock<Vec<Field>> = std::sync::OnceLock::new();
        let fields: &'static [Field] = match self {
            Holder::Bookmark(b) if !b.has_details() => CORE.get_or_init(|| {
                Field::of(Scope::Bookmark)
                    .filter(|f| !f.in_bookmark_details())
                    .collect()
            }),
            _ => Field::table(self.scope()),
        };
        fields
            .iter()
            .copied()
            .filter(move |f| f.get(self).is_some_and(|v| v.is_present()))
    }
}

impl<'a> From<&'a Node> for Holder<'a> {
    fn from(n: &'a Node) -> Holder<'a> {
        match n {
            Node::Bookmark(b) => Holder::Bookmark(b),
            Node::Folder(f) => Holder::Folder(f),
            Node::Separator(s) => Holder::Separator(s),
            Node::Alias(a) => Holder::Alias(a),
        }
    }
}

macro_rules! holder_from {
    ($($t:ident),*) => {$(
        impl<'a> From<&'a $t> for Holder<'a> {
            fn from(v: &'a $t) -> Holder<'a> { Holder::$t(v) }
        }
    )*};
}
holder_from!(Header, Bookmark, Folder, Separator, Alias);

/// A field's value, borrowed from its holder.
///
/// `==` compares exactly (a date written `1997` differs from
/// `1997-01-01T00:00:00Z`); [`Value::same`] compares as [`diff`](crate::diff)
/// does (dates by instant, their written form apart).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value<'a> {
    /// A string that is always there; empty counts as absent.
    Str(&'a str),
    /// An optional string.
    Text(Option<&'a str>),
    /// A list of strings (tags, groups, comments).
    Texts(&'a [String]),
    /// A date.
    Date(Option<&'a DateValue>),
    /// A yes/no that may be unsaid.
    Flag(Option<bool>),
    /// A folder's role.
    Role(Option<Role>),
    /// Desktop registrations.
    Applications(&'a [Application]),
    /// A desktop icon.
    DesktopIcon(Option<&'a DesktopIcon>),
    /// Foreign metadata blocks.
    Metadata(&'a [Metadata]),
    /// Attributes kept verbatim.
    Attributes(&'a [Attribute]),
}

fn same_date(a: Option<&DateValue>, b: Option<&DateValue>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => x.same(y),
        _ => false,
    }
}

impl<'a> Value<'a> {
    /// Whether the field is set: not `None`, not empty.
    pub fn is_present(&self) -> bool {
        match *self {
            Value::Str(s) => !s.is_empty(),
            Value::Text(v) => v.is_some(),
            Value::Texts(v) => !v.is_empty(),
            Value::Date(v) => v.is_some(),
            Value::Flag(v) => v.is_some(),
            Value::Role(v) => v.is_some(),
            Value::Applications(v) => !v.is_empty(),
            Value::DesktopIcon(v) => v.is_some(),
            Value::Metadata(v) => !v.is_empty(),
            Value::Attributes(v) => !v.is_empty(),
        }
    }

    /// Whether two values carry the same information: dates (also those of
    /// applications) by instant, everything else exactly. How a date was
    /// written is [`Value::same_form`].
    pub fn same(&self, other: &Value<'_>) -> bool {
        match (*self, *other) {
            (Value::Date(x), Value::Date(y)) => same_date(x, y),
            (Value::Applications(x), Value::Applications(y)) => {
                x.len() == y.len()
                    && x.iter().zip(y).all(|(p, q)| {
                        p.name == q.name
                            && p.exec == q.exec
                            && p.count == q.count
                            && same_date(p.modified.as_ref(), q.modified.as_ref())
                            && same_date(p.timestamp.as_ref(), q.timestamp.as_ref())
                    })
            }
            _ => self == other,
        }
    }

    /// For two dates, whether they were written the same way (precision and
    /// offset); true for anything else.
    pub fn same_form(&self, other: &Value<'_>) -> bool {
        match (*self, *other) {
            (Value::Date(Some(p)), Value::Date(Some(q))) => p.same_form(q),
            _ => true,
        }
    }

    /// The text the value holds, as a writer writes it out: strings, the
    /// verbatim text of dates that were not understood, the names and values
    /// of attributes, a metadata block's owner and namespaces (its content is
    /// markup, not text, and is not among them).
    pub fn strings(&self) -> Vec<&'a str> {
        let mut all = Vec::new();
        self.any_string(|s| {
            all.push(s);
            false
        });
        all
    }

    /// Whether `test` holds for any of [`Value::strings`], asked in their
    /// order and stopping at the first that does; allocates nothing, since
    /// writers ask it of every field of every node.
    pub fn any_string(&self, mut test: impl FnMut(&'a str) -> bool) -> bool {
        fn raw(d: Option<&DateValue>) -> Option<&str> {
            match d {
                Some(DateValue::Raw(r)) => Some(r),
                _ => None,
            }
        }
        match *self {
            Value::Str(s) => test(s),
            Value::Text(v) => v.is_some_and(test),
            Value::Texts(v) => v.iter().any(|s| test(s)),
            Value::Date(v) => raw(v).is_some_and(test),
            Value::Flag(_) | Value::Role(_) => false,
            Value::Applications(v) => v.iter().any(|a| {
                test(&a.name)
                    || test(&a.exec)
                    || raw(a.modified.as_ref()).is_some_and(&mut test)
                    || raw(a.timestamp.as_ref()).is_some_and(&mut test)
            }),
            Value::DesktopIcon(v) => v.into_iter().any(|i| {
                [&i.href, &i.mime_type, &i.name]
                    .into_iter()
                    .filter_map(|s| s.as_deref())
                    .any(&mut test)
            }),
            Value::Metadata(v) => v
                .iter()
                .any(|m| test(&m.owner) || m.namespaces.iter().any(|(p, u)| test(p) || test(u))),
            Value::Attributes(v) => v.iter().any(|a| test(&a.name) || test(&a.value)),
        }
    }
}

impl Field {
    /// Whether a bookmark keeps this field in its [`crate::BookmarkDetails`],
    /// so that a bookmark without them does not have it.
    pub(crate) fn in_bookmark_details(self) -> bool {
        matches!(
            self,
            Field::BookmarkId
                | Field::BookmarkVisited
                | Field::BookmarkIcon
                | Field::BookmarkFaviconUri
                | Field::BookmarkKeyword
                | Field::BookmarkPostData
                | Field::BookmarkFeedUrl
                | Field::BookmarkCharset
                | Field::BookmarkMimeType
                | Field::BookmarkGroups
                | Field::BookmarkApplications
                | Field::BookmarkDesktopIcon
                | Field::BookmarkMetadata
                | Field::BookmarkExtra
                | Field::BookmarkGuid
                | Field::BookmarkMetaInfo
        )
    }

    /// The field's value on `on`; `None` when the field is not one of that
    /// holder's, or has no value of its own (the presence fields such as
    /// [`Field::Bookmark`], and the `.form` fields, which are part of their date).
    pub fn get<'a>(self, on: impl Into<Holder<'a>>) -> Option<Value<'a>> {
        use Value::*;
        let text = |v: &'a Option<String>| Text(v.as_deref());
        let date = |v: &'a Option<DateValue>| Date(v.as_ref());
        Some(match (self, on.into()) {
            (Field::DocumentTitle, Holder::Header(h)) => text(&h.title),
            (Field::DocumentDesc, Holder::Header(h)) => text(&h.desc),
            (Field::DocumentId, Holder::Header(h)) => text(&h.id),
            (Field::DocumentAdded, Holder::Header(h)) => date(&h.added),
            (Field::DocumentModified, Holder::Header(h)) => date(&h.modified),
            (Field::DocumentMetadata, Holder::Header(h)) => Metadata(&h.metadata),
            (Field::DocumentExtra, Holder::Header(h)) => Attributes(&h.extra),
            (Field::DocumentComments, Holder::Header(h)) => Texts(&h.comments),

            (Field::BookmarkHref, Holder::Bookmark(b)) => Str(&b.href),
            (Field::BookmarkTitle, Holder::Bookmark(b)) => text(&b.title),
            (Field::BookmarkDesc, Holder::Bookmark(b)) => text(&b.desc),
            (Field::BookmarkId, Holder::Bookmark(b)) => text(&b.details().id),
            (Field::BookmarkAdded, Holder::Bookmark(b)) => date(&b.added),
            (Field::BookmarkModified, Holder::Bookmark(b)) => date(&b.modified),
            (Field::BookmarkVisited, Holder::Bookmark(b)) => date(&b.details().visited),
            (Field::BookmarkIcon, Holder::Bookmark(b)) => text(&b.details().icon),
            (Field::BookmarkFavicon, Holder::Bookmark(b)) => text(&b.favicon),
            (Field::BookmarkFaviconUri, Holder::Bookmark(b)) => text(&b.details().favicon_uri),
            (Field::BookmarkTags, Holder::Bookmark(b)) => Texts(&b.tags),
            (Field::BookmarkKeyword, Holder::Bookmark(b)) => text(&b.details().firefox().keyword),
            (Field::BookmarkPostData, Holder::Bookmark(b)) => {
                text(&b.details().firefox().post_data)
            }
            (Field::BookmarkFeedUrl, Holder::Bookmark(b)) => text(&b.details().firefox().feed_url),
            (Field::BookmarkCharset, Holder::Bookmark(b)) => text(&b.details().firefox().charset),
            (Field::BookmarkPrivate, Holder::Bookmark(b)) => Flag(b.private),
            (Field::BookmarkToRead, Holder::Bookmark(b)) => Flag(b.to_read),
            (Field::BookmarkMimeType, Holder::Bookmark(b)) => {
                text(&b.details().desktop().mime_type)
            }
            (Field::BookmarkGroups, Holder::Bookmark(b)) => Texts(&b.details().desktop().groups),
            (Field::BookmarkApplications, Holder::Bookmark(b)) => {
                Applications(&b.details().desktop().applications)
            }
            (Field::BookmarkDesktopIcon, Holder::Bookmark(b)) => {
                DesktopIcon(b.details().desktop().desktop_icon.as_ref())
            }
            (Field::BookmarkMetadata, Holder::Bookmark(b)) => Metadata(&b.details().metadata),
            (Field::BookmarkExtra, Holder::Bookmark(b)) => Attributes(&b.details().extra),
            (Field::BookmarkGuid, Holder::Bookmark(b)) => text(&b.details().guid),
            (Field::BookmarkMetaInfo, Holder::Bookmark(b)) => Attributes(&b.details().meta_info),

            (Field::FolderTitle, Holder::Folder(f)) => text(&f.title),
            (Field::FolderDesc, Holder::Folder(f)) => text(&f.desc),
            (Field::FolderId, Holder::Folder(f)) => text(&f.id),
            (Field::FolderAdded, Holder::Folder(f)) => date(&f.added),
            (Field::FolderModified, Holder::Folder(f)) => date(&f.modified),
            (Field::FolderFolded, Holder::Folder(f)) => Flag(f.folded),
            (Field::FolderIcon, Holder::Folder(f)) => text(&f.icon),
            (Field::FolderRole, Holder::Folder(f)) => Role(f.role),
            (Field::FolderMetadata, Holder::Folder(f)) => Metadata(&f.metadata),
            (Field::FolderExtra, Holder::Folder(f)) => Attributes(&f.extra),
            (Field::FolderGuid, Holder::Folder(f)) => text(&f.guid),
            (Field::FolderMetaInfo, Holder::Folder(f)) => Attributes(&f.meta_info),

            (Field::SeparatorTitle, Holder::Separator(s)) => text(&s.title),
            (Field::SeparatorMetadata, Holder::Separator(s)) => Metadata(&s.metadata),
            (Field::SeparatorExtra, Holder::Separator(s)) => Attributes(&s.extra),

            (Field::AliasExtra, Holder::Alias(a)) => Attributes(&a.extra),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::Scope;

    /// Every field with a value of its own answers on its holder, and only there.
    #[test]
    fn every_field_is_read_on_its_own_holder_only() {
        let (h, b, f, s, a) = (
            Header::default(),
            Bookmark::new("x"),
            Folder::default(),
            Separator::default(),
            Alias::default(),
        );
        let holders: [Holder; 5] = [
            (&h).into(),
            (&b).into(),
            (&f).into(),
            (&s).into(),
            (&a).into(),
        ];
        for field in Field::ALL.iter().copied() {
            let valued = field.date_of_form().is_none()
                && !matches!(
                    field,
                    Field::Bookmark | Field::Folder | Field::Separator | Field::Alias
                );
            for holder in holders {
                let own = holder.scope() == field.scope();
                assert_eq!(
                    field.get(holder).is_some(),
                    own && valued,
                    "{field} on {:?}",
                    holder.scope()
                );
            }
        }
        assert_eq!(
            Holder::from(&b).present().collect::<Vec<_>>(),
            [Field::BookmarkHref]
        );
        assert_eq!(Field::of(Scope::Separator).count(), 4);
    }

    /// The fields `present` skips on a bookmark without details are exactly
    /// those a bookmark loses when its details are emptied.
    #[test]
    fn the_details_fields_are_those_kept_in_the_details() {
        let date = || Some(DateValue::from_w3c("2001-02-03"));
        let mut b = Bookmark::new("x").with_title("t");
        b.desc = Some("d".into());
        b.added = date();
        b.modified = date();
        b.favicon = Some("data:,".into());
        b.tags = vec!["t".into()];
        b.private = Some(true);
        b.to_read = Some(true);
        let more = b.details_mut();
        more.id = Some("i".into());
        more.visited = date();
        more.icon = Some("i".into());
        more.favicon_uri = Some("u".into());
        let ff = more.firefox_mut();
        ff.keyword = Some("k".into());
        ff.post_data = Some("p".into());
        ff.feed_url = Some("f".into());
        ff.charset = Some("c".into());
        let desktop = more.desktop_mut();
        desktop.mime_type = Some("m".into());
        desktop.groups = vec!["g".into()];
        desktop.applications = vec![crate::Application::new("a", "a %u")];
        desktop.desktop_icon = Some(crate::DesktopIcon::default());
        desktop.desktop_icon.as_mut().unwrap().href = Some("h".into());
        more.metadata = vec![crate::Metadata::new("o", "")];
        more.extra = vec![crate::Attribute::new("n", "v")];
        more.guid = Some("g".into());
        more.meta_info = vec![crate::Attribute::new("n", "v")];
        let valued: Vec<Field> = Field::of(Scope::Bookmark)
            .filter(|f| f.get(&b).is_some())
            .collect();
        assert_eq!(
            Holder::from(&b).present().collect::<Vec<_>>(),
            valued,
            "this test sets every bookmark field"
        );
        let mut without = b.clone();
        *without.details_mut() = Default::default();
        for f in valued {
            let kept = f.get(&without).is_some_and(|v| v.is_present());
            assert_eq!(kept, !f.in_bookmark_details(), "{f}");
        }
    }

    #[test]
    fn dates_are_the_same_by_instant_and_differ_in_form() {
        let year = DateValue::from_w3c("1997");
        let utc = DateValue::from_w3c("1997-01-01T00:00:00Z");
        let (x, y) = (Value::Date(Some(&year)), Value::Date(Some(&utc)));
        assert!(x.same(&y) && !x.same_form(&y) && x != y);
        assert!(!x.same(&Value::Date(None)));
        let raw = DateValue::Raw("soon".into());
        assert_eq!(Value::Date(Some(&raw)).strings(), ["soon"]);
        assert!(Value::Date(Some(&year)).strings().is_empty());
    }
}
