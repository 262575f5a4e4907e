//! From Zen's session JSON to the model: one pass that keeps the
//! workspaces, Zen's folders and the pinned tabs (a few strings each);
//! then the order of each container (a workspace, a folder) worked out as
//! Zen's own restore makes it, and the document built container by
//! container, with a queue and stacks: no recursion, whatever the ids say.

use std::collections::{HashMap, HashSet, VecDeque};

use markport_markup::json::Event;
use markport_model::{Bookmark, Budget, Diagnostic, Document, Error, Folder, NodeId, Parsed};

use markport_markup::json::cursor::{placed, Cursor};

/// The title of the folder that holds the essentials.
pub const ESSENTIALS: &str = "Essentials";

/// The title of the folder of pinned tabs whose workspace is not in the
/// file.
pub const OTHER_PINNED: &str = "Pinned";

/// What one kept tab, workspace or folder costs besides its strings: the
/// struct (about 200 bytes for a tab) with the spare capacity of the
/// vector that holds it, and its entries' vector.
const ENTRY_COST: usize = 384;

/// What working out the order costs for each of Zen's folders (its entry
/// in the maps by id and by previous sibling, its order's vectors, a few
/// words of state) and for each kept tab (its place in an order, its id in
/// the set of ids seen), charged before they are made.
const FOLDER_ORDER_COST: usize = 320;
const TAB_ORDER_COST: usize = 64;

/// A history entry: its `url` and `title`.
type Entry = (Option<String>, Option<String>);

#[derive(Default)]
struct Tab {
    /// History entries: `(url, title)`, in order.
    entries: Vec<Entry>,
    /// `index`: the current entry, from 1.
    index: Option<usize>,
    pinned: bool,
    essential: bool,
    empty: bool,
    workspace: Option<String>,
    label: Option<String>,
    /// `zenHasStaticLabel`: renamed in Zen, in a session (older) that
    /// does not hold the name.
    renamed: bool,
    group: Option<String>,
    sync_id: Option<String>,
    /// The entry the tab was pinned on: `_zenPinnedInitialState.entry`, or
    /// the older `zenPinnedEntry` (the entry as a JSON string).
    pinned_on: Option<Entry>,
}

impl Tab {
    fn cost(&self) -> usize {
        let s = |o: &Option<String>| o.as_ref().map_or(0, String::len);
        let entries: usize = self.entries.iter().map(|(u, t)| s(u) + s(t) + 48).sum();
        let pinned = self.pinned_on.as_ref().map_or(0, |(u, t)| s(u) + s(t));
        ENTRY_COST
            + entries
            + pinned
            + s(&self.workspace)
            + s(&self.label)
            + s(&self.group)
            + s(&self.sync_id)
    }

    /// The link it was pinned on, else its current page's.
    fn link(&self) -> (Option<&str>, Option<&str>) {
        let current = self
            .index
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| self.entries.get(i))
            .or(self.entries.last());
        fn url(e: Option<&Entry>) -> Option<&str> {
            e.and_then(|(u, _)| u.as_deref()).filter(|u| !u.is_empty())
        }
        fn title(e: Option<&Entry>) -> Option<&str> {
            e.and_then(|(_, t)| t.as_deref()).filter(|t| !t.is_empty())
        }
        let pinned = self.pinned_on.as_ref();
        match url(pinned) {
            Some(u) => (Some(u), title(pinned).or(title(current))),
            None => (url(current), title(current)),
        }
    }
}

#[derive(Default)]
struct Space {
    uuid: Option<String>,
    name: Option<String>,
}

/// Where a folder sat when Zen saved it: right after its previous
/// sibling (`prevSiblingInfo`, ZenFolders.mjs `storeDataForSessionStore`).
#[derive(Default)]
enum Prev {
    /// No `prevSiblingInfo` (null: nothing came before it).
    #[default]
    Unknown,
    /// `{"type": "start"}`: first in its parent.
    Start,
    /// `{"type": "tab", "id"}`: after the tab of that id (`zenSyncId`).
    Tab(String),
    /// `{"type": "group", "id"}`: after the folder of that id.
    Group(String),
}

#[derive(Default)]
struct ZenFolder {
    id: Option<String>,
    name: Option<String>,
    parent: Option<String>,
    /// `workspaceId`.
    workspace: Option<String>,
    /// `pinned: false`: a folder among the ordinary tabs, not kept.
    unpinned: bool,
    /// `splitViewGroup`: a split view inside a folder, not a folder.
    split: bool,
    /// `essential`: a folder among the essentials.
    essential: bool,
    prev: Prev,
}

impl ZenFolder {
    fn cost(&self) -> usize {
        let s = |o: &Option<String>| o.as_ref().map_or(0, String::len);
        let prev = match &self.prev {
            Prev::Tab(id) | Prev::Group(id) => id.len(),
            _ => 0,
        };
        ENTRY_COST + s(&self.id) + s(&self.name) + s(&self.parent) + s(&self.workspace) + prev
    }
}

#[derive(Default)]
struct Session {
    spaces: Vec<Space>,
    folders: Vec<ZenFolder>,
    tabs: Vec<Tab>,
    /// Tabs not pinned (nor essential): counted, not kept.
    ordinary: usize,
    windows: usize,
}

pub(crate) fn read(input: &[u8], file: &str, budget: &mut Budget) -> Result<Parsed, Error> {
    let mut c = Cursor::new(input);
    let (at, first) = c.event()?;
    if first != Event::ObjectStart {
        return Err(Error::new(
            markport_model::ErrorKind::WrongFormat,
            format!("not a Zen session{file}: the text is not a JSON object"),
            Some(c.locate(at)),
        ));
    }
    let mut s = Session::default();
    holder(&mut c, &mut s, budget, true)?;
    c.finish()?;
    build(s, budget)
}

/// The members of the session object, or of one of its `windows` (Zen's
/// older `sessionstore.jsonlz4` keeps the workspaces and tabs per window;
/// `zen-sessions.jsonlz4` at the top).
fn holder(
    c: &mut Cursor<'_>,
    s: &mut Session,
    budget: &mut Budget,
    top: bool,
) -> Result<(), Error> {
    c.members(|c, key| match key {
        "spaces" | "workspaces" => c.objects(|c, _| {
            let mut w = Space::default();
            c.members(|c, key| match key {
                "uuid" => {
                    w.uuid = c.string()?.map(String::from);
                    Ok(())
                }
                "name" => {
                    w.name = c.string()?.map(String::from);
                    Ok(())
                }
                _ => c.skip_next(),
            })?;
            let len = |o: &Option<String>| o.as_ref().map_or(0, String::len);
            budget.charge(ENTRY_COST + len(&w.uuid) + len(&w.name))?;
            s.spaces.push(w);
            Ok(())
        }),
        "folders" => c.objects(|c, at| {
            let f = folder(c)?;
            budget
                .charge(f.cost())
                .map_err(|e| placed(e, c.locate(at)))?;
            s.folders.push(f);
            Ok(())
        }),
        "tabs" => c.objects(|c, at| {
            let mut t = tab(c)?;
            // A folder's placeholder tab is kept to place the folder, even
            // an empty one, where it was; what it shows is never read.
            if t.empty && t.group.is_some() {
                t.entries = Vec::new();
                t.pinned_on = None;
                t.label = None;
            }
            if t.pinned || t.essential || (t.empty && t.group.is_some()) {
                budget
                    .charge(t.cost())
                    .map_err(|e| placed(e, c.locate(at)))?;
                s.tabs.push(t);
            } else if !t.empty {
                s.ordinary += 1;
            }
            Ok(())
        }),
        "windows" if top => c.objects(|c, _| {
            s.windows += 1;
            holder(c, s, budget, false)
        }),
        _ => c.skip_next(),
    })
}

/// One history entry: its `url` and `title`.
fn entry(c: &mut Cursor<'_>) -> Result<Entry, Error> {
    let (mut url, mut title) = (None, None);
    c.members(|c, key| match key {
        "url" => {
            url = c.string()?.map(String::from);
            Ok(())
        }
        "title" => {
            title = c.string()?.map(String::from);
            Ok(())
        }
        _ => c.skip_next(),
    })?;
    Ok((url, title))
}

/// A flag as Zen's own code tests it, by JavaScript's truth: Zen wrote
/// some as booleans and, in its older session code, others as an
/// attribute's text (`"zenEssential": "true"`, and `pinned` as `pinned ||
/// zenEssential`) or `null`.
fn flag(c: &mut Cursor<'_>) -> Result<bool, Error> {
    let (at, e) = c.event()?;
    Ok(match e {
        Event::Bool(b) => b,
        Event::Str(s) => !s.is_empty(),
        Event::Num(n) => n.parse::<f64>().is_ok_and(|x| x != 0.0),
        Event::ObjectStart | Event::ArrayStart => {
            c.skip(at, &e)?;
            true
        }
        _ => false,
    })
}

/// One of Zen's folders (ZenFolders.mjs `storeDataForSessionStore`).
fn folder(c: &mut Cursor<'_>) -> Result<ZenFolder, Error> {
    let mut f = ZenFolder::default();
    c.members(|c, key| match key {
        "id" => {
            f.id = c.string()?.map(String::from);
            Ok(())
        }
        "name" => {
            f.name = c.string()?.map(String::from);
            Ok(())
        }
        "parentId" => {
            f.parent = c.string()?.map(String::from);
            Ok(())
        }
        "workspaceId" => {
            f.workspace = c.string()?.map(String::from);
            Ok(())
        }
        "pinned" => {
            // Only an explicit `false`: files that leave it out hold pins.
            f.unpinned = c.boolean()? == Some(false);
            Ok(())
        }
        "splitViewGroup" => {
            f.split = flag(c)?;
            Ok(())
        }
        "essential" => {
            f.essential = flag(c)?;
            Ok(())
        }
        "prevSiblingInfo" => {
            if c.object()?.is_none() {
                return Ok(());
            }
            let (mut kind, mut id) = (None, None);
            c.members(|c, key| match key {
                "type" => {
                    kind = c.string()?.map(String::from);
                    Ok(())
                }
                "id" => {
                    id = c.string()?.map(String::from);
                    Ok(())
                }
                _ => c.skip_next(),
            })?;
            f.prev = match (kind.as_deref(), id) {
                (Some("tab"), Some(id)) => Prev::Tab(id),
                (Some("group"), Some(id)) => Prev::Group(id),
                (Some(_), _) => Prev::Start,
                (None, _) => Prev::Unknown,
            };
            Ok(())
        }
        _ => c.skip_next(),
    })?;
    Ok(f)
}

fn tab(c: &mut Cursor<'_>) -> Result<Tab, Error> {
    let mut t = Tab::default();
    c.members(|c, key| match key {
        "entries" => c.objects(|c, _| {
            t.entries.push(entry(c)?);
            Ok(())
        }),
        "index" => {
            t.index = c.number()?.and_then(|n| n.parse().ok());
            Ok(())
        }
        "pinned" => {
            t.pinned = flag(c)?;
            Ok(())
        }
        "zenEssential" => {
            t.essential = flag(c)?;
            Ok(())
        }
        "zenIsEmpty" => {
            t.empty = flag(c)?;
            Ok(())
        }
        "zenWorkspace" => {
            t.workspace = c.string()?.map(String::from);
            Ok(())
        }
        "zenStaticLabel" => {
            t.label = c.string()?.map(String::from);
            Ok(())
        }
        "zenHasStaticLabel" => {
            t.renamed = flag(c)?;
            Ok(())
        }
        "groupId" => {
            t.group = c.string()?.map(String::from);
            Ok(())
        }
        "zenSyncId" | "zenPinnedId" => {
            if let Some(id) = c.string()? {
                t.sync_id.get_or_insert_with(|| id.into_owned());
            }
            Ok(())
        }
        "_zenPinnedInitialState" => {
            if c.object()?.is_none() {
                return Ok(());
            }
            c.members(|c, key| {
                if key == "entry" && c.object()?.is_some() {
                    t.pinned_on = Some(entry(c)?);
                    Ok(())
                } else if key == "entry" {
                    Ok(())
                } else {
                    c.skip_next()
                }
            })
        }
        "zenPinnedEntry" => {
            if let Some(json) = c.string()? {
                if t.pinned_on.is_none() {
                    t.pinned_on = entry_text(&json);
                }
            }
            Ok(())
        }
        _ => c.skip_next(),
    })?;
    Ok(t)
}

/// The older `zenPinnedEntry`: the entry as JSON text. Text that is not
/// such an object is no entry.
fn entry_text(json: &str) -> Option<Entry> {
    let mut c = Cursor::new(json.as_bytes());
    if !matches!(c.event(), Ok((_, Event::ObjectStart))) {
        return None;
    }
    let e = entry(&mut c).ok()?;
    // Nothing may follow the object.
    c.finish().ok()?;
    Some(e)
}

/// An entry of a container's order: a tab (its index in the session's
/// tabs) or one of Zen's folders (its index in the session's folders).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Item {
    Tab(usize),
    Folder(usize),
}

/// A container: a top-level folder of the document (the essentials, a
/// workspace, `Pinned`: its place in [`Tops::all`]) or one of Zen's
/// folders (its index in the session's folders).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Top(usize),
    Folder(usize),
}

/// Each container's order, found by index: no hashing per tab.
struct Orders {
    tops: Vec<Order>,
    folders: Vec<Order>,
}

impl Orders {
    fn at(&mut self, place: Place) -> &mut Order {
        match place {
            Place::Top(i) => {
                if self.tops.len() <= i {
                    self.tops.resize_with(i + 1, Order::default);
                }
                &mut self.tops[i]
            }
            Place::Folder(f) => &mut self.folders[f],
        }
    }
}

/// A container's order as Zen's restore makes it. Firefox restores the
/// tabs in the file's order, each folder at its first tab (its placeholder
/// tab, first in it); Zen then moves each nested folder right after its
/// previous sibling, or to its parent's start (ZenFolders.mjs
/// `restoreDataFromSessionStore`).
#[derive(Default)]
struct Order {
    /// Tabs in the file's order, and the folders their tabs place.
    base: Vec<Item>,
    /// Folders Zen moves to the start, in the file's order.
    first: Vec<usize>,
    /// Folders Zen moves after a sibling (listed in `after`), in the
    /// file's order: those a loop of siblings leaves unreached come last.
    after_sibling: Vec<usize>,
}

/// The top-level folders of the document: the workspaces the session
/// names, those it does not (an older session names none), `Pinned`.
struct Tops<'s> {
    /// A workspace's place in `all`.
    by_uuid: HashMap<&'s str, usize>,
    /// The session names workspaces: a uuid it does not name is a
    /// workspace deleted since, its tabs kept under `Pinned`.
    listed: bool,
    /// Workspaces named by their place, for a session that names none.
    unnamed: usize,
    other: Option<usize>,
    /// Every top-level container, in the order made (the essentials first).
    all: Vec<NodeId>,
}

impl<'s> Tops<'s> {
    /// Whether a tab or folder of workspace `uuid` goes to a workspace's
    /// own folder (not `Pinned`).
    fn knows(&self, uuid: &str) -> bool {
        !self.listed || self.by_uuid.contains_key(uuid)
    }

    /// The place in `all` of workspace `uuid`'s folder, made if need be.
    fn get(
        &mut self,
        doc: &mut Document,
        budget: &mut Budget,
        uuid: Option<&'s str>,
    ) -> Result<usize, Error> {
        if let Some(u) = uuid {
            if let Some(&n) = self.by_uuid.get(u) {
                return Ok(n);
            }
            if !self.listed {
                self.unnamed += 1;
                let title = format!("Workspace {}", self.by_uuid.len() + 1);
                let n = self.make(doc, budget, title)?;
                self.by_uuid.insert(u, n);
                return Ok(n);
            }
        }
        if let Some(o) = self.other {
            return Ok(o);
        }
        let o = self.make(doc, budget, OTHER_PINNED.to_string())?;
        Ok(*self.other.insert(o))
    }

    fn make(
        &mut self,
        doc: &mut Document,
        budget: &mut Budget,
        title: String,
    ) -> Result<usize, Error> {
        budget.folder(title.len())?;
        self.all.push(doc.push(None, Folder::titled(title)));
        Ok(self.all.len() - 1)
    }
}

fn build(s: Session, budget: &mut Budget) -> Result<Parsed, Error> {
    let Session {
        spaces,
        folders,
        tabs,
        ordinary,
        windows,
    } = s;
    let mut doc = Document::new();
    let mut tops = Tops {
        by_uuid: HashMap::new(),
        listed: !spaces.is_empty(),
        unnamed: 0,
        other: None,
        all: Vec::new(),
    };
    let essentials = tops.make(&mut doc, budget, ESSENTIALS.to_string())?;
    // The workspaces' folders, in Zen's order; a uuid named twice (one
    // window each) is one workspace.
    for w in &spaces {
        if w.uuid
            .as_deref()
            .is_some_and(|u| tops.by_uuid.contains_key(u))
        {
            continue;
        }
        let title = w
            .name
            .clone()
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("Workspace {}", tops.all.len()));
        let id = tops.make(&mut doc, budget, title)?;
        if let Some(u) = w.uuid.as_deref() {
            tops.by_uuid.insert(u, id);
        }
    }

    budget.charge(
        folders
            .len()
            .saturating_mul(FOLDER_ORDER_COST)
            .saturating_add(tabs.len().saturating_mul(TAB_ORDER_COST)),
    )?;
    // Zen's folders by id, the first of an id kept (each window of an
    // older session lists them again); a split view or an unpinned folder
    // is no folder here.
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for (i, f) in folders.iter().enumerate() {
        if let Some(id) = f.id.as_deref().filter(|_| !f.split && !f.unpinned) {
            by_id.entry(id).or_insert(i);
        }
    }
    let kept: Vec<bool> = (0..folders.len())
        .map(|i| {
            folders[i]
                .id
                .as_deref()
                .is_some_and(|id| by_id.get(id) == Some(&i))
        })
        .collect();
    let (parent, root) = parents(&folders, &by_id, &kept);

    // The tabs in the file's order: each in its folder, or its workspace;
    // a top-level folder where its first tab (or a nested one's) is.
    let mut orders = Orders {
        tops: Vec::new(),
        folders: (0..folders.len()).map(|_| Order::default()).collect(),
    };
    let mut top_of: Vec<Option<usize>> = vec![None; folders.len()];
    let mut placed = vec![false; folders.len()];
    // Only the tabs a folder names as its previous sibling are looked up.
    let mut tab_at: HashMap<&str, Option<(Place, usize)>> = folders
        .iter()
        .filter_map(|f| match &f.prev {
            Prev::Tab(id) => Some((id.as_str(), None)),
            _ => None,
        })
        .collect();
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, t) in tabs.iter().enumerate() {
        // Newer Zen copies each pinned tab into every window, with one id.
        if let Some(id) = t.sync_id.as_deref() {
            if !seen.insert(id) {
                continue;
            }
        }
        let folder = t.group.as_deref().and_then(|g| by_id.get(g)).copied();
        let place = match folder {
            // Zen keeps the essentials out of its folders.
            _ if t.essential => Place::Top(essentials),
            Some(g) => {
                let r = root[g];
                if !placed[r] {
                    placed[r] = true;
                    let f = &folders[r];
                    let top = if f.essential {
                        essentials
                    } else {
                        let own = f.workspace.as_deref().filter(|u| tops.knows(u));
                        tops.get(&mut doc, budget, own.or(t.workspace.as_deref()))?
                    };
                    top_of[r] = Some(top);
                    orders.at(Place::Top(top)).base.push(Item::Folder(r));
                }
                Place::Folder(g)
            }
            // The placeholder of a folder that is not kept.
            None if t.empty => continue,
            None => Place::Top(tops.get(&mut doc, budget, t.workspace.as_deref())?),
        };
        orders.at(place).base.push(Item::Tab(i));
        if let Some(at) = t.sync_id.as_deref().and_then(|id| tab_at.get_mut(id)) {
            *at = Some((place, i));
        }
    }
    // The top-level folders no tab placed: in their own workspace.
    for (i, f) in folders.iter().enumerate() {
        if kept[i] && parent[i].is_none() && top_of[i].is_none() {
            top_of[i] = Some(if f.essential {
                essentials
            } else {
                tops.get(&mut doc, budget, f.workspace.as_deref())?
            });
        }
    }
    let place_of = |i: usize| match parent[i] {
        Some(p) => Place::Folder(p),
        None => Place::Top(top_of[i].unwrap_or(essentials)),
    };
    // The folders no tab placed, and every nested one: after their previous
    // sibling when it is in the same container; else a nested one first in
    // its parent (Zen's default) and a top-level one first when Zen said
    // so, at the end otherwise.
    let mut after: HashMap<Item, Vec<usize>> = HashMap::new();
    for (i, f) in folders.iter().enumerate() {
        if !kept[i] || (parent[i].is_none() && placed[i]) {
            continue;
        }
        let place = place_of(i);
        let sibling = match &f.prev {
            Prev::Tab(id) => tab_at
                .get(id.as_str())
                .copied()
                .flatten()
                .filter(|(p, _)| *p == place)
                .map(|(_, t)| Item::Tab(t)),
            Prev::Group(id) => by_id
                .get(id.as_str())
                .filter(|&&g| g != i && place_of(g) == place)
                .map(|&g| Item::Folder(g)),
            Prev::Start | Prev::Unknown => None,
        };
        let order = orders.at(place);
        match sibling {
            Some(s) => {
                after.entry(s).or_default().push(i);
                order.after_sibling.push(i);
            }
            None if parent[i].is_some() || matches!(f.prev, Prev::Start) => order.first.push(i),
            None => order.base.push(Item::Folder(i)),
        }
    }

    // The document, container by container (a queue: no recursion).
    let mut done = vec![false; folders.len()];
    let mut queue: VecDeque<(Place, NodeId)> = tops
        .all
        .iter()
        .enumerate()
        .map(|(i, &n)| (Place::Top(i), n))
        .collect();
    let (mut pinned, mut essential, mut no_link) = (0usize, 0usize, 0usize);
    let mut unlabelled = 0usize;
    while let Some((place, node)) = queue.pop_front() {
        let order = std::mem::take(orders.at(place));
        for item in flatten(&order, &after, &mut done) {
            match item {
                Item::Tab(i) => {
                    let t = &tabs[i];
                    if t.empty {
                        continue;
                    }
                    let (url, title) = t.link();
                    let Some(url) = url else {
                        no_link += 1;
                        continue;
                    };
                    let mut b = Bookmark::new(url);
                    // The user's label (a renamed tab), else the page's title.
                    b.title = t
                        .label
                        .as_deref()
                        .filter(|l| !l.is_empty())
                        .or(title)
                        .map(String::from);
                    budget.bookmark(&b)?;
                    unlabelled += usize::from(t.renamed && t.label.is_none());
                    if t.essential {
                        essential += 1;
                    } else {
                        pinned += 1;
                    }
                    doc.push(Some(node), b);
                }
                Item::Folder(f) => {
                    let mut folder = Folder::new();
                    folder.title = folders[f].name.clone();
                    budget.folder(folder.title.as_ref().map_or(0, String::len))?;
                    let id = doc.push(Some(node), folder);
                    queue.push_back((Place::Folder(f), id));
                }
            }
        }
    }
    if doc.children(Some(tops.all[essentials])).is_empty() {
        doc.remove(tops.all[essentials]);
    }
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let workspaces = tops.by_uuid.len();
    let mut said = vec![Diagnostic::note(
        format!(
            "read {workspaces} workspace{}{}: {pinned} pinned tab{}, {essential} essential{}",
            plural(workspaces),
            if windows > 0 {
                format!(" from {windows} window{}", plural(windows))
            } else {
                String::new()
            },
            plural(pinned),
            plural(essential),
        ),
        None,
    )];
    if tops.unnamed > 0 {
        said.push(Diagnostic::note(
            format!(
                "the session names no workspace (Zen before its session manager kept their \
                 names in places.sqlite): {} named by their place",
                tops.unnamed
            ),
            None,
        ));
    }
    if unlabelled > 0 {
        said.push(Diagnostic::note(
            format!(
                "{unlabelled} tab{} renamed in Zen, but the session does not hold the name (Zen \
                 before its session manager kept it in places.sqlite): the page's title is used",
                if unlabelled == 1 { " was" } else { "s were" }
            ),
            None,
        ));
    }
    if ordinary > 0 {
        said.push(Diagnostic::note(
            format!(
                "{ordinary} ordinary (unpinned) tab{} skipped",
                if ordinary == 1 { " was" } else { "s were" }
            ),
            None,
        ));
    }
    if no_link > 0 {
        said.push(Diagnostic::warning(
            format!(
                "{no_link} pinned tab{} no link; skipped",
                if no_link == 1 { " has" } else { "s have" }
            ),
            None,
        ));
    }
    let mut diags = Vec::new();
    for d in &said {
        budget.diagnostic(d)?;
    }
    diags.extend(said);
    Ok(Parsed::new(doc, diags))
}

/// Each kept folder's parent (`parentId`, when that folder is kept) and
/// its top-level ancestor. A loop of parents is broken where the walk
/// meets it: the folder whose parent is already on the walk goes to the
/// top. Each folder is walked once, so this is linear however deep.
fn parents(
    folders: &[ZenFolder],
    by_id: &HashMap<&str, usize>,
    kept: &[bool],
) -> (Vec<Option<usize>>, Vec<usize>) {
    const NEW: u8 = 0;
    const WALKING: u8 = 1;
    const DONE: u8 = 2;
    let mut parent: Vec<Option<usize>> = vec![None; folders.len()];
    let mut root: Vec<usize> = (0..folders.len()).collect();
    let mut state = vec![NEW; folders.len()];
    let mut walk = Vec::new();
    for i in 0..folders.len() {
        if !kept[i] || state[i] != NEW {
            continue;
        }
        let mut at = i;
        loop {
            state[at] = WALKING;
            walk.push(at);
            let p = folders[at]
                .parent
                .as_deref()
                .and_then(|p| by_id.get(p))
                .copied();
            match p {
                Some(p) if state[p] == NEW => {
                    parent[at] = Some(p);
                    at = p;
                }
                Some(p) if state[p] == DONE => {
                    parent[at] = Some(p);
                    break;
                }
                // No parent, or a loop: `at` is at the top.
                _ => break,
            }
        }
        // From the top down, each one's parent's root is known.
        for &f in walk.iter().rev() {
            state[f] = DONE;
            root[f] = parent[f].map_or(f, |p| root[p]);
        }
        walk.clear();
    }
    (parent, root)
}

/// A container's items in the order Zen's restore leaves them: the folders
/// moved to the start (the last moved first), then the base, each item
/// followed by the folders moved after it (the last moved first), with an
/// explicit stack. Each folder comes once (`done`); folders whose
/// siblings make a loop, reached from nothing, come last in file order.
fn flatten(order: &Order, after: &HashMap<Item, Vec<usize>>, done: &mut [bool]) -> Vec<Item> {
    let mut out = Vec::with_capacity(order.base.len());
    let mut stack: Vec<Item> = order.base.iter().rev().copied().collect();
    stack.extend(order.first.iter().map(|&f| Item::Folder(f)));
    let mut loose = order.after_sibling.iter();
    loop {
        let Some(item) = stack.pop().or_else(|| {
            loose
                .by_ref()
                .find(|&&f| !done[f])
                .map(|&f| Item::Folder(f))
        }) else {
            return out;
        };
        if let Item::Folder(f) = item {
            if std::mem::replace(&mut done[f], true) {
                continue;
            }
        }
        out.push(item);
        if let Some(next) = after.get(&item) {
            stack.extend(next.iter().map(|&f| Item::Folder(f)));
        }
    }
}
