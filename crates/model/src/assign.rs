//! The write half of [`Field::get`]: one field's value copied from one
//! holder to another of the same kind, for what combines documents field
//! by field (a three-way merge keeps a title changed on one side and a
//! link changed on the other).
//!
//! Kept beside `value.rs` and in the same order, so that a new field gets
//! its arm here when it gets one there; a test copies every field of a
//! holder with all of them set and fails on any that did not arrive.

use crate::field::Field;
use crate::header::Header;
use crate::node::{Alias, Bookmark, Folder, Node, Separator};
use crate::value::Holder;

/// What a field is written on: the document's header or one node, to change.
#[derive(Debug)]
#[non_exhaustive]
pub enum HolderMut<'a> {
    /// The document's own fields.
    Header(&'a mut Header),
    /// A bookmark.
    Bookmark(&'a mut Bookmark),
    /// A folder.
    Folder(&'a mut Folder),
    /// A separator.
    Separator(&'a mut Separator),
    /// An alias.
    Alias(&'a mut Alias),
}

impl<'a> From<&'a mut Node> for HolderMut<'a> {
    fn from(n: &'a mut Node) -> HolderMut<'a> {
        match n {
            Node::Bookmark(b) => HolderMut::Bookmark(b),
            Node::Folder(f) => HolderMut::Folder(f),
            Node::Separator(s) => HolderMut::Separator(s),
            Node::Alias(a) => HolderMut::Alias(a),
        }
    }
}

impl<'a> From<&'a mut Header> for HolderMut<'a> {
    fn from(h: &'a mut Header) -> HolderMut<'a> {
        HolderMut::Header(h)
    }
}

impl Field {
    /// Copy this field's value from `from` to `to`, leaving every other
    /// field of `to` as it was. Returns `false`, changing nothing, when the
    /// field is not one both holders have (a bookmark field on a folder, a
    /// presence or `.form` field, which have no value of their own).
    ///
    /// ```
    /// use markport_model::{Bookmark, Field, Holder};
    ///
    /// let ours = Bookmark::new("https://example.org/new").with_title("Old");
    /// let theirs = Bookmark::new("https://example.org/").with_title("New");
    /// let mut merged = ours.clone();
    /// assert!(Field::BookmarkTitle.copy(Holder::from(&theirs), (&mut merged).into()));
    /// assert_eq!((merged.href.as_str(), merged.title.as_deref()), ("https://example.org/new", Some("New")));
    /// ```
    pub fn copy(self, from: Holder<'_>, to: HolderMut<'_>) -> bool {
        match (from, to) {
            (Holder::Header(f), HolderMut::Header(t)) => return header(self, f, t),
            (Holder::Bookmark(f), HolderMut::Bookmark(t)) => return bookmark(self, f, t),
            (Holder::Folder(f), HolderMut::Folder(t)) => return folder(self, f, t),
            (Holder::Separator(f), HolderMut::Separator(t)) => match self {
                Field::SeparatorTitle => t.title.clone_from(&f.title),
                Field::SeparatorMetadata => t.metadata.clone_from(&f.metadata),
                Field::SeparatorExtra => t.extra.clone_from(&f.extra),
                _ => return false,
            },
            (Holder::Alias(f), HolderMut::Alias(t)) => match self {
                Field::AliasExtra => t.extra.clone_from(&f.extra),
                _ => return false,
            },
            _ => return false,
        }
        true
    }
}

macro_rules! holder_mut_from {
    ($($t:ident),*) => {$(
        impl<'a> From<&'a mut $t> for HolderMut<'a> {
            fn from(v: &'a mut $t) -> HolderMut<'a> { HolderMut::$t(v) }
        }
    )*};
}
holder_mut_from!(Bookmark, Folder, Separator, Alias);

fn header(field: Field, f: &Header, t: &mut Header) -> bool {
    match field {
        Field::DocumentTitle => t.title.clone_from(&f.title),
        Field::DocumentDesc => t.desc.clone_from(&f.desc),
        Field::DocumentId => t.id.clone_from(&f.id),
        Field::DocumentAdded => t.added.clone_from(&f.added),
        Field::DocumentModified => t.modified.clone_from(&f.modified),
        Field::DocumentMetadata => t.metadata.clone_from(&f.metadata),
        Field::DocumentExtra => t.extra.clone_from(&f.extra),
        Field::DocumentComments => t.comments.clone_from(&f.comments),
        _ => return false,
    }
    true
}

fn bookmark(field: Field, f: &Bookmark, t: &mut Bookmark) -> bool {
    if field.in_bookmark_details() {
        // Nothing to copy into a bookmark without details: left unallocated.
        if !f.has_details() && !t.has_details() {
            return true;
        }
        return details(field, f, t);
    }
    match field {
        Field::BookmarkHref => t.href.clone_from(&f.href),
        Field::BookmarkTitle => t.title.clone_from(&f.title),
        Field::BookmarkDesc => t.desc.clone_from(&f.desc),
        Field::BookmarkAdded => t.added.clone_from(&f.added),
        Field::BookmarkModified => t.modified.clone_from(&f.modified),
        Field::BookmarkFavicon => t.favicon.clone_from(&f.favicon),
        Field::BookmarkTags => t.tags.clone_from(&f.tags),
        Field::BookmarkPrivate => t.private = f.private,
        Field::BookmarkToRead => t.to_read = f.to_read,
        _ => return false,
    }
    true
}

fn details(field: Field, f: &Bookmark, t: &mut Bookmark) -> bool {
    let (f, t) = (f.details(), t.details_mut());
    match field {
        Field::BookmarkId => t.id.clone_from(&f.id),
        Field::BookmarkVisited => t.visited.clone_from(&f.visited),
        Field::BookmarkIcon => t.icon.clone_from(&f.icon),
        Field::BookmarkFaviconUri => t.favicon_uri.clone_from(&f.favicon_uri),
        Field::BookmarkKeyword => t.firefox_mut().keyword.clone_from(&f.firefox().keyword),
        Field::BookmarkPostData => t.firefox_mut().post_data.clone_from(&f.firefox().post_data),
        Field::BookmarkFeedUrl => t.firefox_mut().feed_url.clone_from(&f.firefox().feed_url),
        Field::BookmarkCharset => t.firefox_mut().charset.clone_from(&f.firefox().charset),
        Field::BookmarkMimeType => t.desktop_mut().mime_type.clone_from(&f.desktop().mime_type),
        Field::BookmarkGroups => t.desktop_mut().groups.clone_from(&f.desktop().groups),
        Field::BookmarkApplications => t
            .desktop_mut()
            .applications
            .clone_from(&f.desktop().applications),
        Field::BookmarkDesktopIcon => t
            .desktop_mut()
            .desktop_icon
            .clone_from(&f.desktop().desktop_icon),
        Field::BookmarkMetadata => t.metadata.clone_from(&f.metadata),
        Field::BookmarkExtra => t.extra.clone_from(&f.extra),
        Field::BookmarkGuid => t.guid.clone_from(&f.guid),
        Field::BookmarkMetaInfo => t.meta_info.clone_from(&f.meta_info),
        _ => return false,
    }
    true
}

fn folder(field: Field, f: &Folder, t: &mut Folder) -> bool {
    match field {
        Field::FolderTitle => t.title.clone_from(&f.title),
        Field::FolderDesc => t.desc.clone_from(&f.desc),
        Field::FolderId => t.id.clone_from(&f.id),
        Field::FolderAdded => t.added.clone_from(&f.added),
        Field::FolderModified => t.modified.clone_from(&f.modified),
        Field::FolderFolded => t.folded = f.folded,
        Field::FolderIcon => t.icon.clone_from(&f.icon),
        Field::FolderRole => t.role = f.role,
        Field::FolderMetadata => t.metadata.clone_from(&f.metadata),
        Field::FolderExtra => t.extra.clone_from(&f.extra),
        Field::FolderGuid => t.guid.clone_from(&f.guid),
        Field::FolderMetaInfo => t.meta_info.clone_from(&f.meta_info),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::field::{Field, Scope};
    use crate::node::{Application, Attribute, DesktopIcon, Metadata, Role};
    use crate::time::DateValue;
    use crate::value::Holder;
    use crate::{Alias, Bookmark, Folder, Header, Node, Separator};

    fn date() -> Option<DateValue> {
        Some(DateValue::from_w3c("2001-02-03"))
    }

    fn full_bookmark() -> Bookmark {
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
        desktop.applications = vec![Application::new("a", "a %u")];
        desktop.desktop_icon = Some(DesktopIcon::default());
        more.metadata = vec![Metadata::new("o", "")];
        more.extra = vec![Attribute::new("n", "v")];
        more.guid = Some("g".into());
        more.meta_info = vec![Attribute::new("n", "v")];
        b
    }

    fn full_folder() -> Folder {
        let mut f = Folder::titled("t");
        f.desc = Some("d".into());
        f.id = Some("i".into());
        f.added = date();
        f.modified = date();
        f.folded = Some(false);
        f.icon = Some("i".into());
        f.role = Some(Role::Toolbar);
        f.metadata = vec![Metadata::new("o", "")];
        f.extra = vec![Attribute::new("n", "v")];
        f.guid = Some("g".into());
        f.meta_info = vec![Attribute::new("n", "v")];
        f
    }

    /// Each field copied alone arrives, and only it: the copy then differs
    /// from an empty holder in that field and in no other.
    fn each_field_arrives_alone(scope: Scope, full: &Node, empty: &Node) {
        for field in Field::of(scope).filter(|f| f.get(Holder::from(full)).is_some()) {
            assert!(
                field.get(Holder::from(full)).unwrap().is_present(),
                "the test sets {field}"
            );
            let mut to = empty.clone();
            assert!(field.copy(Holder::from(full), (&mut to).into()), "{field}");
            for other in Field::of(scope) {
                let want = if other == field { full } else { empty };
                assert_eq!(
                    other.get(Holder::from(&to)),
                    other.get(Holder::from(want)),
                    "copying {field} left {other} wrong"
                );
            }
        }
    }

    #[test]
    fn every_field_is_copied_on_its_own_holder() {
        let (b, f) = (full_bookmark(), full_folder());
        each_field_arrives_alone(
            Scope::Bookmark,
            &Node::Bookmark(b),
            &Node::Bookmark(Bookmark::new("")),
        );
        each_field_arrives_alone(Scope::Folder, &f.into(), &Folder::new().into());
        let mut s = Separator::new();
        s.title = Some("s".into());
        s.metadata = vec![Metadata::new("o", "")];
        s.extra = vec![Attribute::new("n", "v")];
        each_field_arrives_alone(Scope::Separator, &s.into(), &Separator::new().into());
        let mut a = Alias::new("x");
        a.extra = vec![Attribute::new("n", "v")];
        each_field_arrives_alone(Scope::Alias, &a.into(), &Alias::new("x").into());
    }

    #[test]
    fn every_header_field_is_copied() {
        let mut h = Header::with_title(Header::new(), "t");
        h.desc = Some("d".into());
        h.id = Some("i".into());
        h.added = date();
        h.modified = date();
        h.metadata = vec![Metadata::new("o", "")];
        h.extra = vec![Attribute::new("n", "v")];
        h.comments = vec!["c".into()];
        for field in Field::of(Scope::Document).filter(|f| f.get(&h).is_some()) {
            let mut to = Header::new();
            assert!(field.copy(Holder::from(&h), (&mut to).into()), "{field}");
            assert_eq!(field.get(&to), field.get(&h), "{field}");
        }
    }

    #[test]
    fn a_field_of_another_holder_is_refused() {
        let b = full_bookmark();
        let mut f = Folder::new();
        assert!(!Field::BookmarkTitle.copy(Holder::from(&b), (&mut f).into()));
        assert!(!Field::FolderTitle.copy(Holder::from(&b), (&mut b.clone()).into()));
        assert!(!Field::Bookmark.copy(Holder::from(&b), (&mut b.clone()).into()));
        assert_eq!(f, Folder::new());
        // Copying an unset details field into a plain bookmark allocates nothing.
        let mut plain = Bookmark::new("y");
        assert!(Field::BookmarkGuid.copy(Holder::from(&Bookmark::new("x")), (&mut plain).into()));
        assert!(!plain.has_details());
    }
}
