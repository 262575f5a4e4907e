//! Folder paths (`Work/Reading`) as nested folders, for the exports that
//! name a bookmark's folder by its path (Instapaper, Raindrop).

use std::collections::HashMap;

use markport_model::budget::FOLDER_COST;
use markport_model::{Budget, Document, Error, Folder, NodeId};

/// What a map entry of a path or a part costs besides its text (its key,
/// value and the map's spare room): a path of 400,000 one-letter folders
/// costs far more than its bytes, and is charged as such.
const PATH_COST: usize = 96;

/// Folders by parent and name, made when first needed: a map, as an export
/// may have as many folders as rows, and keyed by the parent so that a path
/// of any depth costs its length, not its length squared.
#[derive(Default)]
pub(crate) struct Paths {
    by_name: HashMap<(Option<NodeId>, String), NodeId>,
    /// Each path as written, split by `get` or by `get_tight`, to its
    /// folder: rows repeat a handful of paths, and one lookup by the
    /// borrowed path spares splitting it and a key made for every part.
    whole: [HashMap<String, Option<NodeId>>; 2],
}

impl Paths {
    /// The folder at `path` (`/`-separated, empty parts skipped), made as
    /// needed; `None` for a path with no name in it (the top level).
    pub(crate) fn get(
        &mut self,
        doc: &mut Document,
        path: &str,
        budget: &mut Budget,
    ) -> Result<Option<NodeId>, Error> {
        if let Some(id) = self.whole[0].get(path) {
            return Ok(*id);
        }
        budget.charge(path.len() + PATH_COST)?;
        let id = self.get_parts(doc, path.split('/'), budget)?;
        self.whole[0].insert(path.to_string(), id);
        Ok(id)
    }

    /// The folder at `path` where only a `/` with no space beside it
    /// separates: `Work/Reading` is two folders, `Blogs / Portfolios` one
    /// (Instapaper's folder names had slashes long before its folders
    /// nested).
    pub(crate) fn get_tight(
        &mut self,
        doc: &mut Document,
        path: &str,
        budget: &mut Budget,
    ) -> Result<Option<NodeId>, Error> {
        if let Some(id) = self.whole[1].get(path) {
            return Ok(*id);
        }
        budget.charge(path.len() + PATH_COST)?;
        let b = path.as_bytes();
        let mut parts = Vec::new();
        let mut from = 0;
        for (i, _) in path.match_indices('/') {
            let spaced = (i > 0 && b[i - 1] == b' ') || b.get(i + 1) == Some(&b' ');
            if !spaced {
                parts.push(&path[from..i]);
                from = i + 1;
            }
        }
        parts.push(&path[from..]);
        let id = self.get_parts(doc, parts.into_iter(), budget)?;
        self.whole[1].insert(path.to_string(), id);
        Ok(id)
    }

    fn get_parts<'p>(
        &mut self,
        doc: &mut Document,
        parts: impl Iterator<Item = &'p str>,
        budget: &mut Budget,
    ) -> Result<Option<NodeId>, Error> {
        let mut parent = None;
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let key = (parent, part.to_string());
            let id = match self.by_name.get(&key) {
                Some(id) => *id,
                None => {
                    // The folder, its title, and its key in the map.
                    budget.charge(FOLDER_COST as usize + PATH_COST + 2 * part.len())?;
                    let id = doc.push(parent, Folder::titled(part));
                    self.by_name.insert(key, id);
                    id
                }
            };
            parent = Some(id);
        }
        Ok(parent)
    }
}
