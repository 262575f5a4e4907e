//! From Zen's session JSON to the model: one pass that keeps the
//! workspaces, Zen's folders and the pinned tabs (a few strings each),
//! then the folders of the document made in order and each tab put in its
//! own.

use std::collections::{HashMap, HashSet};

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

#[derive(Default)]
struct ZenFolder {
    id: Option<String>,
    name: Option<String>,
    parent: Option<String>,
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
        "folders" => c.objects(|c, _| {
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
                _ => c.skip_next(),
            })?;
            let len = |o: &Option<String>| o.as_ref().map_or(0, String::len);
            budget.charge(ENTRY_COST + len(&f.id) + len(&f.name) + len(&f.parent))?;
            s.folders.push(f);
            Ok(())
        }),
        "tabs" => c.objects(|c, at| {
            let t = tab(c)?;
            if t.pinned || t.essential {
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

fn tab(c: &mut Cursor<'_>) -> Result<Tab, Error> {
    let mut t = Tab::default();
    let flag = |c: &mut Cursor<'_>| Ok::<_, Error>(c.boolean()?.unwrap_or(false));
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

fn build(s: Session, budget: &mut Budget) -> Result<Parsed, Error> {
    let Session {
        spaces,
        folders,
        tabs,
        ordinary,
        windows,
    } = s;
    let mut doc = Document::new();
    let mut diags = Vec::new();
    budget.folder(ESSENTIALS.len())?;
    let essentials = doc.push(None, Folder::titled(ESSENTIALS));
    // The workspaces' folders, in Zen's order; a uuid named twice (one
    // window each) is one workspace.
    let mut by_uuid: HashMap<String, NodeId> = HashMap::new();
    let mut n = 0usize;
    for w in spaces {
        if w.uuid.as_ref().is_some_and(|u| by_uuid.contains_key(u)) {
            continue;
        }
        n += 1;
        let title = w
            .name
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("Workspace {n}"));
        budget.folder(title.len())?;
        let id = doc.push(None, Folder::titled(title));
        if let Some(u) = w.uuid {
            by_uuid.insert(u, id);
        }
    }
    let zen_folders: HashMap<&str, &ZenFolder> = folders
        .iter()
        .filter_map(|f| Some((f.id.as_deref()?, f)))
        .collect();
    // Zen's folder `id` made in the document under a workspace's folder.
    let mut made: HashMap<(NodeId, &str), NodeId> = HashMap::new();
    let mut other: Option<NodeId> = None;
    let mut seen: HashSet<&str> = HashSet::new();
    let (mut pinned, mut essential, mut no_link) = (0usize, 0usize, 0usize);
    for t in &tabs {
        // Newer Zen copies each pinned tab into every window, with one id.
        if let Some(id) = t.sync_id.as_deref() {
            if !seen.insert(id) {
                continue;
            }
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
        let parent = if t.essential {
            essential += 1;
            essentials
        } else {
            pinned += 1;
            let ws = match t.workspace.as_deref().and_then(|u| by_uuid.get(u)) {
                Some(&ws) => ws,
                None => match other {
                    Some(o) => o,
                    None => {
                        budget.folder(OTHER_PINNED.len())?;
                        *other.insert(doc.push(None, Folder::titled(OTHER_PINNED)))
                    }
                },
            };
            match t.group.as_deref() {
                Some(g) if zen_folders.contains_key(g) => {
                    folder_in(&mut doc, budget, ws, g, &zen_folders, &mut made)?
                }
                _ => ws,
            }
        };
        doc.push(Some(parent), b);
    }
    if doc.children(Some(essentials)).is_empty() {
        doc.remove(essentials);
    }
    let mut said = vec![Diagnostic::note(
        format!(
            "read {} workspace{}{}: {pinned} pinned tab{}, {essential} essential{}",
            by_uuid.len(),
            if by_uuid.len() == 1 { "" } else { "s" },
            if windows > 0 {
                format!(
                    " from {windows} window{}",
                    if windows == 1 { "" } else { "s" }
                )
            } else {
                String::new()
            },
            if pinned == 1 { "" } else { "s" },
            if essential == 1 { "" } else { "s" },
        ),
        None,
    )];
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
    for d in &said {
        budget.diagnostic(d)?;
    }
    diags.extend(said);
    Ok(Parsed::new(doc, diags))
}

/// The document's folder for Zen's folder `id` in workspace folder `ws`,
/// made with its parents the first time a tab asks for it. Its chain of
/// parents is walked only up to the first one already made (or a loop),
/// so each folder is walked once however many tabs it holds.
fn folder_in<'f>(
    doc: &mut Document,
    budget: &mut Budget,
    ws: NodeId,
    id: &'f str,
    folders: &HashMap<&'f str, &'f ZenFolder>,
    made: &mut HashMap<(NodeId, &'f str), NodeId>,
) -> Result<NodeId, Error> {
    if let Some(&n) = made.get(&(ws, id)) {
        return Ok(n);
    }
    let mut chain = vec![id];
    let mut on_chain: HashSet<&str> = HashSet::from([id]);
    let mut top = ws;
    let mut at = id;
    while let Some(p) = folders.get(at).and_then(|f| f.parent.as_deref()) {
        if !folders.contains_key(p) || !on_chain.insert(p) {
            break;
        }
        if let Some(&n) = made.get(&(ws, p)) {
            top = n;
            break;
        }
        chain.push(p);
        at = p;
    }
    for f in chain.into_iter().rev() {
        let mut folder = Folder::new();
        folder.title = folders.get(f).and_then(|z| z.name.clone());
        budget.folder(folder.title.as_ref().map_or(0, String::len))?;
        top = doc.push(Some(top), folder);
        made.insert((ws, f), top);
    }
    Ok(top)
}
