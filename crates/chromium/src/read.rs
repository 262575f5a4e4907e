//! `Bookmarks` JSON to the model.

use markport_model::{
    Attribute, Bookmark, Diagnostic, Document, Error, Folder, LineIndex, NodeId, Parsed, Role,
};

use crate::dates;
use crate::json::{Json, Value};
use crate::layout::{Kind, UnsetDates, KEY_ATTR, MAP_ATTR, UNSET_DATES_ATTR};

/// The three roots every Chromium has, with the role each plays.
pub const STANDARD_ROOTS: [(&str, Role); 3] = [
    ("bookmark_bar", Role::Toolbar),
    ("other", Role::Unfiled),
    ("synced", Role::Mobile),
];

struct Reader<'a> {
    json: &'a Json<'a>,
    lines: LineIndex<'a>,
    doc: Document,
    diags: Vec<Diagnostic>,
    unset: UnsetDates,
}

/// Read a `Bookmarks` file.
pub fn read(input: &[u8]) -> Result<Parsed, Error> {
    let lines = LineIndex::new(input);
    let text = std::str::from_utf8(input).map_err(|e| {
        Error::syntax(
            "not UTF-8 (Chromium writes its Bookmarks file in UTF-8)",
            lines.locate(e.valid_up_to()),
        )
    })?;
    let json = Json::parse(text).map_err(|e| Error::syntax(e.message, lines.locate(e.offset)))?;
    let mut r = Reader {
        json: &json,
        lines,
        doc: Document::new(),
        diags: Vec::new(),
        unset: UnsetDates::default(),
    };
    r.document()?;
    let policy = r.unset.policy();
    if policy != UnsetDates::DEFAULT {
        r.doc
            .header
            .extra
            .push(Attribute::new(UNSET_DATES_ATTR, policy));
    }
    Ok(Parsed::new(r.doc, r.diags))
}

impl<'a> Reader<'a> {
    fn error(&self, at: u32, message: impl Into<String>) -> Error {
        Error::syntax(message, self.lines.locate(self.json.offsets[at as usize]))
    }

    /// A value kept as text: a string as itself, anything else as its JSON.
    fn text(&self, v: u32) -> String {
        match self.json.get(v) {
            Value::String(s) => s.to_string(),
            _ => self.json.compact(v),
        }
    }

    fn string(&self, v: u32, key: &str) -> Result<&'a str, Error> {
        match self.json.get(v) {
            Value::String(s) => Ok(s),
            _ => Err(self.error(v, format!("`{key}` must be a string"))),
        }
    }

    fn document(&mut self) -> Result<(), Error> {
        let json = self.json;
        let Value::Object(top) = json.get(0) else {
            return Err(self.error(0, "a Bookmarks file is a JSON object"));
        };
        let Some(roots) = json.member(0, "roots") else {
            return Err(self.error(0, "no `roots` object: not a Chromium Bookmarks file"));
        };
        let Value::Object(roots_members) = json.get(roots) else {
            return Err(self.error(roots, "`roots` must be an object"));
        };
        for (key, v) in top {
            match &**key {
                "roots" | "checksum" => {}
                "version" if *json.get(*v) == Value::Number("1") => {}
                _ => {
                    let value = self.text(*v);
                    self.doc
                        .header
                        .extra
                        .push(Attribute::new(key.as_ref(), value));
                }
            }
        }
        if let Some(stored) = json.member(0, "checksum") {
            if let Value::String(sum) = json.get(stored) {
                let computed = content_checksum(json, roots);
                if !sum.is_empty() && **sum != *computed {
                    self.diags.push(Diagnostic::warning(
                        format!(
                            "checksum {sum} does not match the file's content ({computed}): \
                             it was changed after Chromium wrote it; read as it is"
                        ),
                        Some(self.lines.locate(json.offsets[stored as usize])),
                    ));
                }
            }
        }
        let standard = STANDARD_ROOTS
            .iter()
            .filter_map(|(name, role)| {
                roots_members
                    .iter()
                    .rev()
                    .find(|(k, _)| k == name)
                    .map(|(k, v)| (k, *v, Some(*role)))
            })
            .collect::<Vec<_>>();
        for (key, v, role) in standard {
            if !matches!(json.get(v), Value::Object(_)) {
                return Err(self.error(v, format!("`roots.{key}` must be an object")));
            }
            self.tree(v, None, |f| f.role = role, None)?;
        }
        for (key, v) in roots_members {
            if STANDARD_ROOTS.iter().any(|(name, _)| name == key) {
                continue;
            }
            match json.get(*v) {
                Value::Object(members) if is_node(json, *v) => {
                    self.diags.push(Diagnostic::note(
                        format!("root `{key}` (Vivaldi, Opera) read as a folder"),
                        Some(self.lines.locate(json.offsets[*v as usize])),
                    ));
                    let _ = members;
                    self.tree(*v, None, |_| {}, Some(key))?;
                }
                Value::Object(members) => {
                    self.diags.push(Diagnostic::note(
                        format!("root `{key}` (Opera) read as a folder of its members' folders"),
                        Some(self.lines.locate(json.offsets[*v as usize])),
                    ));
                    let mut folder = Folder::new();
                    folder.extra.push(Attribute::new(MAP_ATTR, key.as_ref()));
                    let mut nodes = Vec::new();
                    for (k, m) in members {
                        if matches!(json.get(*m), Value::Object(_)) {
                            nodes.push((k, *m));
                        } else {
                            folder.extra.push(Attribute::new(k.as_ref(), self.text(*m)));
                        }
                    }
                    let id = self.doc.push(None, folder);
                    for (k, m) in nodes {
                        self.tree(m, Some(id), |_| {}, Some(k))?;
                    }
                }
                _ => {
                    let value = self.text(*v);
                    self.doc
                        .header
                        .extra
                        .push(Attribute::new(format!("roots.{key}"), value));
                }
            }
        }
        Ok(())
    }

    /// Read the node at `v` and everything under it, without recursion.
    fn tree(
        &mut self,
        v: u32,
        parent: Option<NodeId>,
        root: impl FnOnce(&mut Folder),
        key: Option<&str>,
    ) -> Result<(), Error> {
        let Some((id, children)) = self.node(v, parent, Some(root), key)? else {
            return Ok(());
        };
        let mut stack: Vec<(NodeId, &'a [u32])> = vec![(id, children)];
        while let Some((parent, rest)) = stack.last_mut() {
            let Some((&first, tail)) = rest.split_first() else {
                stack.pop();
                continue;
            };
            *rest = tail;
            let parent = *parent;
            if let Some((id, children)) =
                self.node(first, Some(parent), None::<fn(&mut Folder)>, None)?
            {
                if !children.is_empty() {
                    stack.push((id, children));
                }
            }
        }
        Ok(())
    }

    /// One node; its children's values are returned for the caller to read.
    fn node(
        &mut self,
        v: u32,
        parent: Option<NodeId>,
        root: Option<impl FnOnce(&mut Folder)>,
        key: Option<&str>,
    ) -> Result<Option<(NodeId, &'a [u32])>, Error> {
        let json = self.json;
        let Value::Object(members) = json.get(v) else {
            return Err(self.error(v, "a bookmark node must be an object"));
        };
        let kind = match json.member(v, "type").map(|t| (t, json.get(t))) {
            Some((_, Value::String(t))) if t == "url" => Kind::Url,
            Some((_, Value::String(t))) if t == "folder" => Kind::Folder,
            Some((t, _)) => {
                return Err(self.error(t, "`type` must be \"url\" or \"folder\""));
            }
            None if json.member(v, "url").is_some() => Kind::Url,
            None => Kind::Folder,
        };
        let mut b = Bookmark::new("");
        let mut f = Folder::new();
        let mut children: &'a [u32] = &[];
        let mut extra = Vec::new();
        if let Some(k) = key {
            extra.push(Attribute::new(KEY_ATTR, k));
        }
        let mut seen = [false; 3];
        for (k, m) in members {
            let m = *m;
            match (&**k, kind) {
                ("type", _) => {}
                ("name", _) => {
                    let s = self.string(m, k)?;
                    let title = (!s.is_empty()).then(|| s.to_owned());
                    match kind {
                        Kind::Url => b.title = title,
                        Kind::Folder => f.title = title,
                    }
                }
                ("url", Kind::Url) => b.href = self.string(m, k)?.to_owned(),
                ("children", Kind::Folder) => match json.get(m) {
                    Value::Array(items) => children = items,
                    _ => return Err(self.error(m, "`children` must be an array")),
                },
                ("id", _) => {
                    let s = self.string(m, k)?.to_owned();
                    match kind {
                        Kind::Url => b.details_mut().id = Some(s),
                        Kind::Folder => f.id = Some(s),
                    }
                }
                ("guid", _) => {
                    let s = self.string(m, k)?.to_owned();
                    match kind {
                        Kind::Url => b.details_mut().guid = Some(s),
                        Kind::Folder => f.guid = Some(s),
                    }
                }
                ("meta_info", _) if matches!(json.get(m), Value::Object(_)) => {
                    let Value::Object(pairs) = json.get(m) else {
                        unreachable!("matched above")
                    };
                    let attrs: Vec<Attribute> = pairs
                        .iter()
                        .map(|(name, value)| Attribute::new(name.as_ref(), self.text(*value)))
                        .collect();
                    match kind {
                        Kind::Url => b.details_mut().meta_info = attrs,
                        Kind::Folder => f.meta_info = attrs,
                    }
                }
                (date @ ("date_added" | "date_modified" | "date_last_used"), _) => {
                    let slot = UnsetDates::slot(date);
                    seen[slot] = true;
                    let text = self.string(m, k)?;
                    let value = dates::parse(text);
                    if let Some(markport_model::DateValue::Raw(_)) = value {
                        self.diags.push(Diagnostic::warning(
                            format!("`{date}` is not a number of microseconds: kept as written"),
                            Some(self.lines.locate(json.offsets[m as usize])),
                        ));
                    }
                    if value.is_none() {
                        self.unset.saw(kind, slot, true);
                        continue;
                    }
                    match (date, kind) {
                        ("date_added", Kind::Url) => b.added = value,
                        ("date_added", Kind::Folder) => f.added = value,
                        ("date_modified", Kind::Url) => b.modified = value,
                        ("date_modified", Kind::Folder) => f.modified = value,
                        ("date_last_used", Kind::Url) => b.details_mut().visited = value,
                        _ => extra.push(Attribute::new(k.as_ref(), text)),
                    }
                }
                _ => extra.push(Attribute::new(k.as_ref(), self.text(m))),
            }
        }
        for (slot, seen) in seen.iter().enumerate() {
            if !seen {
                self.unset.saw(kind, slot, false);
            }
        }
        let id = match kind {
            Kind::Url => {
                if json.member(v, "url").is_none() {
                    return Err(self.error(v, "a url node without `url`"));
                }
                if !extra.is_empty() {
                    b.details_mut().extra = extra;
                }
                self.doc.push(parent, b)
            }
            Kind::Folder => {
                f.extra = extra;
                if let Some(root) = root {
                    root(&mut f);
                }
                self.doc.push(parent, f)
            }
        };
        Ok(Some((id, children)))
    }
}

/// Whether an object under `roots` is a node (Vivaldi's `trash`) rather
/// than a map of nodes (Opera's `custom_root`).
fn is_node(json: &Json<'_>, v: u32) -> bool {
    ["type", "children", "url", "name"]
        .iter()
        .any(|k| json.member(v, k).is_some())
}

/// The checksum Chromium would compute for this file, from the JSON as
/// read: each node of `bookmark_bar`, `other`, `synced`, then the other
/// roots (Opera's `custom_root` members in key order), by
/// `crate::md5::Md5::node`, as the writer feeds it.
fn content_checksum(json: &Json<'_>, roots: u32) -> String {
    let mut md5 = crate::md5::Md5::default();
    let mut tops: Vec<u32> = STANDARD_ROOTS
        .iter()
        .filter_map(|(name, _)| json.member(roots, name))
        .collect();
    if let Value::Object(members) = json.get(roots) {
        for (key, v) in members {
            if STANDARD_ROOTS.iter().any(|(name, _)| name == key) {
                continue;
            }
            if is_node(json, *v) {
                tops.push(*v);
            } else if let Value::Object(inner) = json.get(*v) {
                let mut named: Vec<(&str, u32)> = inner
                    .iter()
                    .filter(|(_, m)| matches!(json.get(*m), Value::Object(_)))
                    .map(|(k, m)| (&**k, *m))
                    .collect();
                named.sort();
                tops.extend(named.into_iter().map(|(_, m)| m));
            }
        }
    }
    let text = |v: Option<u32>| match v.map(|v| json.get(v)) {
        Some(Value::String(s)) => s.as_ref(),
        _ => "",
    };
    // Depth-first in document order, with an explicit stack of pending nodes.
    let mut pending: Vec<u32> = tops.into_iter().rev().collect();
    while let Some(v) = pending.pop() {
        let id = text(json.member(v, "id"));
        let title = text(json.member(v, "name"));
        if text(json.member(v, "type")) == "url" {
            md5.node(id, title, Some(text(json.member(v, "url"))));
        } else {
            md5.node(id, title, None);
            if let Some(Value::Array(children)) = json.member(v, "children").map(|c| json.get(c)) {
                pending.extend(children.iter().rev().copied());
            }
        }
    }
    md5.hex()
}
