//! From `StorableSidebar.json` to the model: one pass over the JSON that
//! keeps the spaces, the items (each a few strings) and the favorites'
//! containers, then one walk that places each item once, with an explicit
//! stack.

use std::collections::{HashMap, HashSet};

use markport_markup::json::Event;
use markport_model::{
    Bookmark, Budget, DateValue, Diagnostic, Document, Error, Folder, NodeId, Parsed, ReadOptions,
    Timestamp,
};

use markport_markup::json::cursor::{placed, Cursor};

/// Seconds from 1970-01-01 to 2001-01-01, the epoch of Arc's dates
/// (Apple's reference date: `Date.timeIntervalSinceReferenceDate`).
pub const ARC_EPOCH: i64 = 978_307_200;

/// What one item costs while it waits to be placed, besides its strings:
/// the struct (about 180 bytes) with the spare capacity of the vector
/// that holds it, its entries in the id maps, its vector of children.
const ITEM_COST: usize = 384;

/// What one id in a list costs besides its bytes: its `String` and the
/// allocator's rounding.
const ID_COST: usize = 40;

/// The title of the folder that holds the favorites (Arc's `topApps`).
pub const FAVORITES: &str = "Favorites";

/// The title of the folder, inside a space's, that holds its unpinned
/// "Today" tabs when they are kept ([`ArcReadOptions::keep_today`]).
///
/// [`ArcReadOptions::keep_today`]: markport_model::ArcReadOptions::keep_today
pub const TODAY: &str = "Today";

/// What an item is, by the one key of its `data`.
enum Kind {
    /// `data.tab`: a link.
    Tab {
        url: Option<String>,
        saved_title: Option<String>,
    },
    /// `data.list`: a folder the user made.
    List,
    /// `data.itemContainer`: a space's pinned or unpinned half, or the
    /// favorites.
    Container,
    /// Anything else (`splitView`, `easel`, `arcDocument`, `note`, ...).
    Other(String),
}

struct Item {
    /// Where its object starts.
    at: usize,
    id: String,
    parent: Option<String>,
    children: Vec<String>,
    title: Option<String>,
    created: Option<String>,
    kind: Kind,
}

#[derive(Default)]
struct Space {
    id: Option<String>,
    title: Option<String>,
    pinned: Vec<String>,
    unpinned: Vec<String>,
}

/// What one of the two halves of the file (`sidebar`, `sidebarSyncState`)
/// holds.
#[derive(Default)]
struct Half {
    spaces: Vec<Space>,
    items: Vec<Item>,
    favorites: Vec<String>,
    /// `sidebarSyncState.container.value.orderedSpaceIDs`.
    order: Vec<String>,
}

impl Half {
    fn is_empty(&self) -> bool {
        self.spaces.is_empty() && self.items.is_empty()
    }
}

/// Which half an item or space object is read from: the sync state wraps
/// each one in `{"value": …}`.
#[derive(Clone, Copy, PartialEq)]
enum Wrap {
    Bare,
    Value,
}

struct Reader<'a> {
    c: Cursor<'a>,
    budget: Budget,
}

pub(crate) fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut r = Reader {
        c: Cursor::new(input),
        budget: Budget::new(opts, input.len()),
    };
    let (at, first) = r.c.event()?;
    if first != Event::ObjectStart {
        return Err(Error::new(
            markport_model::ErrorKind::WrongFormat,
            "not Arc's StorableSidebar.json: the file is not a JSON object",
            Some(r.c.locate(at)),
        ));
    }
    let mut sidebar = Half::default();
    let mut sync = Half::default();
    let mut seen = (false, false);
    r.c.members(|c, key| match key {
        "sidebar" => {
            seen.0 = true;
            read_sidebar(c, &mut sidebar, &mut r.budget)
        }
        "sidebarSyncState" => {
            seen.1 = true;
            read_sync(c, &mut sync, &mut r.budget)
        }
        _ => c.skip_next(),
    })?;
    let Reader { c, mut budget } = r;
    c.finish()?;
    if !seen.0 && !seen.1 {
        return Err(Error::new(
            markport_model::ErrorKind::WrongFormat,
            "not Arc's StorableSidebar.json: it has neither `sidebar` nor `sidebarSyncState`",
            None,
        ));
    }
    let mut diags = Vec::new();
    let (half, which) = if !sidebar.is_empty() || sync.is_empty() {
        (sidebar, "sidebar")
    } else {
        (sync, "sidebarSyncState")
    };
    let locate = {
        let c = Cursor::new(input);
        move |at: usize| c.locate(at)
    };
    let doc = build(
        half,
        which,
        opts.arc.keep_today,
        &mut budget,
        &mut diags,
        &locate,
    )?;
    Ok(Parsed::new(doc, diags))
}

/// `sidebar`: `{"containers": [{"global": {}}, {"spaces": […], "items":
/// […], "topAppsContainerIDs": […]}]}`; every container object's lists are
/// read.
fn read_sidebar(c: &mut Cursor<'_>, half: &mut Half, budget: &mut Budget) -> Result<(), Error> {
    if c.object()?.is_none() {
        return Ok(());
    }
    c.members(|c, key| {
        if key != "containers" || c.array()?.is_none() {
            return if key == "containers" {
                Ok(())
            } else {
                c.skip_next()
            };
        }
        c.elements(|c, at, e| {
            if e != Event::ObjectStart {
                return c.skip(at, &e);
            }
            // Arrays of `id, object, id, object…` (Swift's encoding of an
            // ordered dictionary): the ids are the objects' own `id`s again,
            // and are skipped with anything else that is not an object.
            c.members(|c, key| match key {
                "spaces" => c.objects(|c, at| space(c, at, Wrap::Bare, half, budget)),
                "items" => c.objects(|c, at| item(c, at, Wrap::Bare, half, budget)),
                "topAppsContainerIDs" => marked_ids(c, |_, id| {
                    budget.charge(id.len() + ID_COST)?;
                    half.favorites.push(id);
                    Ok(())
                }),
                _ => c.skip_next(),
            })
        })
    })
}

/// `sidebarSyncState`: `{"items": [id, {"value": item}, …], "spaceModels":
/// [id, {"value": space}, …], "container": {"value": {"orderedSpaceIDs":
/// […], "topAppsContainerIDs": […]}}}`.
fn read_sync(c: &mut Cursor<'_>, half: &mut Half, budget: &mut Budget) -> Result<(), Error> {
    if c.object()?.is_none() {
        return Ok(());
    }
    c.members(|c, key| match key {
        "items" => c.objects(|c, at| item(c, at, Wrap::Value, half, budget)),
        "spaceModels" => c.objects(|c, at| space(c, at, Wrap::Value, half, budget)),
        "container" => {
            if c.object()?.is_none() {
                return Ok(());
            }
            c.members(|c, key| {
                if key != "value" {
                    return c.skip_next();
                }
                if c.object()?.is_none() {
                    return Ok(());
                }
                c.members(|c, key| match key {
                    "orderedSpaceIDs" => ids(c, |id| {
                        budget.charge(id.len() + ID_COST)?;
                        half.order.push(id);
                        Ok(())
                    }),
                    "topAppsContainerIDs" => marked_ids(c, |_, id| {
                        budget.charge(id.len() + ID_COST)?;
                        half.favorites.push(id);
                        Ok(())
                    }),
                    _ => c.skip_next(),
                })
            })
        }
        _ => c.skip_next(),
    })
}

/// An array of strings; anything else in it is skipped.
fn ids(c: &mut Cursor<'_>, mut id: impl FnMut(String) -> Result<(), Error>) -> Result<(), Error> {
    if c.array()?.is_none() {
        return Ok(());
    }
    c.elements(|c, at, e| match e {
        Event::Str(s) => id(s.into_owned()),
        other => c.skip(at, &other),
    })
}

/// An array of `marker, id, marker, id…`: a space's `containerIDs`
/// (`"pinned", id, "unpinned", id`), its `newContainerIDs` (`{"pinned":
/// {}}, id, {"unpinned": {…}}, id`) or `topAppsContainerIDs` (`{"default":
/// true}, id` or `"default", id`). `id` is called with the marker's name
/// (a string marker, or an object marker's first key) and the id.
fn marked_ids(
    c: &mut Cursor<'_>,
    mut id: impl FnMut(Option<&str>, String) -> Result<(), Error>,
) -> Result<(), Error> {
    if c.array()?.is_none() {
        return Ok(());
    }
    let mut n = 0usize;
    let mut marker: Option<String> = None;
    c.elements(|c, at, e| {
        n += 1;
        if n % 2 == 1 {
            marker = match e {
                Event::Str(s) => Some(s.into_owned()),
                Event::ObjectStart => {
                    let mut first = None;
                    c.members(|c, key| {
                        if first.is_none() {
                            first = Some(key.to_string());
                        }
                        c.skip_next()
                    })?;
                    first
                }
                other => {
                    c.skip(at, &other)?;
                    None
                }
            };
            return Ok(());
        }
        match e {
            Event::Str(s) => id(marker.as_deref(), s.into_owned()),
            other => c.skip(at, &other),
        }
    })
}

/// The optional `{"value": …}` around an object of the sync state: with
/// [`Wrap::Value`], `inner` reads the object under `value`.
fn unwrap<'a>(
    c: &mut Cursor<'a>,
    wrap: Wrap,
    mut inner: impl FnMut(&mut Cursor<'a>, usize) -> Result<(), Error>,
    at: usize,
) -> Result<(), Error> {
    if wrap == Wrap::Bare {
        return inner(c, at);
    }
    c.members(|c, key| {
        if key != "value" {
            return c.skip_next();
        }
        match c.object()? {
            Some(at) => inner(c, at),
            None => Ok(()),
        }
    })
}

fn space(
    c: &mut Cursor<'_>,
    at: usize,
    wrap: Wrap,
    half: &mut Half,
    budget: &mut Budget,
) -> Result<(), Error> {
    unwrap(
        c,
        wrap,
        |c, _| {
            let mut s = Space::default();
            c.members(|c, key| match key {
                "id" => {
                    s.id = c.string()?.map(String::from);
                    Ok(())
                }
                "title" => {
                    s.title = c.string()?.map(String::from);
                    Ok(())
                }
                // The newer list wins over the older when both are there.
                "containerIDs" | "newContainerIDs" => {
                    let newer = key == "newContainerIDs";
                    let (mut pinned, mut unpinned) = (Vec::new(), Vec::new());
                    marked_ids(c, |marker, id| {
                        match marker {
                            Some("pinned") => pinned.push(id),
                            Some("unpinned") => unpinned.push(id),
                            _ => {}
                        }
                        Ok(())
                    })?;
                    if newer || (s.pinned.is_empty() && s.unpinned.is_empty()) {
                        (s.pinned, s.unpinned) = (pinned, unpinned);
                    }
                    Ok(())
                }
                _ => c.skip_next(),
            })?;
            let text: usize = [&s.id, &s.title]
                .iter()
                .map(|t| t.as_ref().map_or(0, String::len))
                .sum::<usize>()
                + s.pinned
                    .iter()
                    .chain(&s.unpinned)
                    .map(|i| i.len() + ID_COST)
                    .sum::<usize>();
            budget.charge(ITEM_COST + text)?;
            half.spaces.push(s);
            Ok(())
        },
        at,
    )
}

fn item(
    c: &mut Cursor<'_>,
    at: usize,
    wrap: Wrap,
    half: &mut Half,
    budget: &mut Budget,
) -> Result<(), Error> {
    unwrap(
        c,
        wrap,
        |c, at| {
            let mut id = None;
            let mut parent = None;
            let mut children = Vec::new();
            let mut title = None;
            let mut created = None;
            let mut kind = None;
            c.members(|c, key| match key {
                "id" => {
                    id = c.string()?.map(String::from);
                    Ok(())
                }
                "parentID" => {
                    parent = c.string()?.map(String::from);
                    Ok(())
                }
                "childrenIds" => ids(c, |id| {
                    children.push(id);
                    Ok(())
                }),
                "title" => {
                    title = c.string()?.map(String::from);
                    Ok(())
                }
                "createdAt" => {
                    created = c.number()?.map(String::from);
                    Ok(())
                }
                "data" => {
                    kind = data(c)?;
                    Ok(())
                }
                _ => c.skip_next(),
            })?;
            let Some(id) = id else {
                return Ok(());
            };
            let opt = |s: &Option<String>| s.as_ref().map_or(0, String::len);
            let mut text = id.len() + opt(&parent) + opt(&title) + opt(&created);
            text += children.iter().map(|c| c.len() + ID_COST).sum::<usize>();
            if let Some(Kind::Tab { url, saved_title }) = &kind {
                text += opt(url) + opt(saved_title);
            }
            budget
                .charge(ITEM_COST + text)
                .map_err(|e| placed(e, c.locate(at)))?;
            half.items.push(Item {
                at,
                id,
                parent,
                children,
                title,
                created,
                kind: kind.unwrap_or(Kind::Other(String::new())),
            });
            Ok(())
        },
        at,
    )
}

/// An item's `data`: `{"tab": {"savedURL": …, "savedTitle": …}}`,
/// `{"list": {}}`, `{"itemContainer": {…}}` or another kind.
fn data(c: &mut Cursor<'_>) -> Result<Option<Kind>, Error> {
    if c.object()?.is_none() {
        return Ok(None);
    }
    let mut kind = None;
    c.members(|c, key| {
        if kind.is_some() {
            return c.skip_next();
        }
        kind = Some(match key {
            "tab" => {
                let (mut url, mut saved_title) = (None, None);
                if c.object()?.is_some() {
                    c.members(|c, key| match key {
                        "savedURL" => {
                            url = c.string()?.map(String::from);
                            Ok(())
                        }
                        "savedTitle" => {
                            saved_title = c.string()?.map(String::from);
                            Ok(())
                        }
                        _ => c.skip_next(),
                    })?;
                }
                Kind::Tab { url, saved_title }
            }
            "list" => {
                c.skip_next()?;
                Kind::List
            }
            "itemContainer" => {
                c.skip_next()?;
                Kind::Container
            }
            other => {
                c.skip_next()?;
                Kind::Other(other.to_string())
            }
        });
        Ok(())
    })?;
    Ok(kind)
}

/// An Arc date: seconds (with a fraction) since 2001-01-01T00:00:00Z, kept
/// to the microsecond; a number that is no date is kept as written.
pub fn date(text: &str) -> Option<DateValue> {
    let secs: f64 = text.parse().ok()?;
    let micros = (secs * 1e6).round();
    if !micros.is_finite() || micros.abs() > 1e17 {
        return Some(DateValue::Raw(text.into()));
    }
    let micros = micros as i64;
    let unix = micros.div_euclid(1_000_000) + ARC_EPOCH;
    let nanos = (micros.rem_euclid(1_000_000) * 1000) as u32;
    Some(match Timestamp::from_unix(unix, nanos) {
        Some(t) => DateValue::Instant(t),
        None => DateValue::Raw(text.into()),
    })
}

/// The walk: spaces in order, each one's pinned containers' items placed
/// under it (and with `keep_today` its unpinned ones in a folder `Today`
/// after them); favorites first in a folder of their own. Each item is
/// placed at most once, whatever the ids say (an item listed under two
/// parents, a list that contains itself), so the walk is linear.
fn build(
    half: Half,
    which: &str,
    keep_today: bool,
    budget: &mut Budget,
    diags: &mut Vec<Diagnostic>,
    locate: &dyn Fn(usize) -> markport_model::Location,
) -> Result<Document, Error> {
    let Half {
        mut spaces,
        items,
        favorites,
        order,
    } = half;
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(items.len());
    for (i, it) in items.iter().enumerate() {
        index.entry(it.id.as_str()).or_insert(i);
    }
    // Children by parentID, for items their parent's childrenIds forgot.
    let mut by_parent: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, it) in items.iter().enumerate() {
        if let Some(p) = it.parent.as_deref().and_then(|p| index.get(p)) {
            by_parent.entry(*p).or_default().push(i);
        }
    }
    if !order.is_empty() {
        let rank: HashMap<&str, usize> = order
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i))
            .collect();
        // Stable: spaces the order does not name keep their place after it.
        spaces.sort_by_key(|s| {
            s.id.as_deref()
                .and_then(|id| rank.get(id))
                .copied()
                .unwrap_or(usize::MAX)
        });
    }
    let mut w = Walk {
        items: &items,
        index: &index,
        by_parent: &mut by_parent,
        placed: vec![false; items.len()],
        doc: Document::new(),
        budget,
        diags,
        locate,
    };
    let favorite_containers: Vec<usize> = favorites
        .iter()
        .filter_map(|id| index.get(id.as_str()).copied())
        .collect();
    if !favorite_containers.is_empty() {
        w.budget.folder(FAVORITES.len())?;
        let folder = w.doc.push(None, Folder::titled(FAVORITES));
        for c in favorite_containers {
            w.place(c, folder)?;
        }
        // No favorites is no folder (the document holds nothing else yet).
        if w.doc.children(Some(folder)).is_empty() {
            w.doc.remove(folder);
        }
    }
    let (mut today, mut kept) = (0usize, 0usize);
    let mut empty_today: HashSet<NodeId> = HashSet::new();
    for (n, s) in spaces.iter().enumerate() {
        let title = s
            .title
            .clone()
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("Space {}", n + 1));
        w.budget.folder(title.len())?;
        let folder = w.doc.push(None, Folder::titled(title));
        for id in &s.pinned {
            if let Some(&c) = index.get(id.as_str()) {
                w.place(c, folder)?;
            }
        }
        let unpinned = s.unpinned.iter().filter_map(|id| index.get(id.as_str()));
        if !keep_today {
            for &c in unpinned {
                today += w.count_tabs(c);
            }
            continue;
        }
        // In the sidebar's order: the pinned items, then the Today list.
        w.budget.folder(TODAY.len())?;
        let list = w.doc.push(Some(folder), Folder::titled(TODAY));
        for &c in unpinned {
            w.place(c, list)?;
        }
        // A space with nothing unpinned gets no empty "Today" folder: it is
        // not a folder the user made. Removed all at once at the end, as
        // one removal walks the whole document.
        if w.doc.children(Some(list)).is_empty() {
            empty_today.insert(list);
        } else {
            kept += w
                .doc
                .descendants(list)
                .filter(|&d| w.doc.node(d).as_bookmark().is_some())
                .count();
        }
    }
    let mut doc = w.doc;
    if !empty_today.is_empty() {
        doc.retain(|_, n| !empty_today.contains(&n));
    }
    let census = doc.census();
    let mut said = vec![Diagnostic::note(
        format!(
            "read `{which}`: {} space{}, {} bookmark{}{}",
            spaces.len(),
            if spaces.len() == 1 { "" } else { "s" },
            census.bookmarks,
            if census.bookmarks == 1 { "" } else { "s" },
            if which == "sidebar" {
                ""
            } else {
                " (`sidebar` holds no spaces or items)"
            }
        ),
        None,
    )];
    if today > 0 {
        said.push(Diagnostic::note(
            format!(
                "{today} unpinned Today tab{} skipped (--arc-today keeps them)",
                if today == 1 { "" } else { "s" },
            ),
            None,
        ));
    }
    if kept > 0 {
        said.push(Diagnostic::note(
            format!(
                "{kept} unpinned Today tab{} kept, in the folder \"{TODAY}\" of {} space",
                if kept == 1 { "" } else { "s" },
                if kept == 1 { "its" } else { "their" },
            ),
            None,
        ));
    }
    diags.splice(0..0, said);
    Ok(doc)
}

struct Walk<'w, 'b> {
    items: &'w [Item],
    index: &'w HashMap<&'w str, usize>,
    by_parent: &'w mut HashMap<usize, Vec<usize>>,
    placed: Vec<bool>,
    doc: Document,
    budget: &'b mut Budget,
    diags: &'b mut Vec<Diagnostic>,
    locate: &'b dyn Fn(usize) -> markport_model::Location,
}

impl Walk<'_, '_> {
    /// The children of item `i` not placed yet, in its `childrenIds`
    /// order, then those only their `parentID` names, in file order; each
    /// is marked placed.
    fn children(&mut self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let listed = self.items[i]
            .children
            .iter()
            .filter_map(|id| self.index.get(id.as_str()).copied());
        let found = self.by_parent.remove(&i).unwrap_or_default();
        for c in listed.chain(found) {
            if c != i && !self.placed[c] {
                self.placed[c] = true;
                out.push(c);
            }
        }
        out
    }

    /// Place the children of container `c` under `parent`, depth first.
    fn place(&mut self, c: usize, parent: NodeId) -> Result<(), Error> {
        if self.placed[c] {
            return Ok(());
        }
        self.placed[c] = true;
        let first = self.children(c);
        let mut stack = vec![(parent, first.into_iter())];
        while let Some((parent, next)) = stack.last_mut() {
            let parent = *parent;
            let Some(i) = next.next() else {
                stack.pop();
                continue;
            };
            let it = &self.items[i];
            match &it.kind {
                Kind::Tab { url, saved_title } => {
                    let Some(url) = url.as_ref().filter(|u| !u.is_empty()) else {
                        let d = Diagnostic::warning(
                            format!("tab {} has no savedURL; skipped", it.id),
                            Some((self.locate)(it.at)),
                        );
                        self.budget.diagnostic(&d)?;
                        self.diags.push(d);
                        continue;
                    };
                    let mut b = Bookmark::new(url.clone());
                    // The name the user gave it in Arc, else the page's.
                    b.title = it
                        .title
                        .clone()
                        .filter(|t| !t.is_empty())
                        .or_else(|| saved_title.clone().filter(|t| !t.is_empty()));
                    b.added = it.created.as_deref().and_then(date);
                    self.budget
                        .bookmark(&b)
                        .map_err(|e| placed(e, (self.locate)(it.at)))?;
                    self.doc.push(Some(parent), b);
                }
                Kind::List | Kind::Container | Kind::Other(_) => {
                    let kids = self.children(i);
                    if let Kind::Other(kind) = &it.kind {
                        if kids.is_empty() {
                            let what = if kind.is_empty() { "an item" } else { kind };
                            let d = Diagnostic::warning(
                                format!("{} {} holds no link; skipped", what, it.id),
                                Some((self.locate)(it.at)),
                            );
                            self.budget.diagnostic(&d)?;
                            self.diags.push(d);
                            continue;
                        }
                    }
                    let mut f = Folder::new();
                    f.title = it.title.clone().filter(|t| !t.is_empty());
                    f.added = it.created.as_deref().and_then(date);
                    self.budget
                        .folder(f.title.as_ref().map_or(0, String::len))
                        .map_err(|e| placed(e, (self.locate)(it.at)))?;
                    let id = self.doc.push(Some(parent), f);
                    stack.push((id, kids.into_iter()));
                }
            }
        }
        Ok(())
    }

    /// How many tabs are below container `c` (an unpinned half, skipped):
    /// counted once each, without placing them.
    fn count_tabs(&mut self, c: usize) -> usize {
        if self.placed[c] {
            return 0;
        }
        self.placed[c] = true;
        let mut n = 0;
        let mut stack = self.children(c);
        while let Some(i) = stack.pop() {
            match self.items[i].kind {
                Kind::Tab { .. } => n += 1,
                _ => {
                    let kids = self.children(i);
                    stack.extend(kids);
                }
            }
        }
        n
    }
}
