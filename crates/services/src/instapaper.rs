//! Instapaper's CSV export: `URL,Title,Selection,Folder` and, since about
//! 2019, `Timestamp` (Unix seconds). `Selection` is the highlighted text or
//! summary (the description); each `Folder` (`Unread`, `Archive`,
//! `Starred`, the user's own) becomes a folder, in the order first met.

use std::collections::HashMap;

use markport_model::{Bookmark, Diagnostic, Document, Error, Folder, NodeId, Parsed, ReadOptions};

use crate::{table, text, unix_date};

const REQUIRED: &[&str] = &["URL", "Title", "Selection", "Folder"];
const OPTIONAL: &[&str] = &["Timestamp"];

/// How sure it is that `input` is an Instapaper export: its header.
pub fn detect(input: &[u8]) -> Option<u8> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let line = input.split(|b| *b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let line = line.trim_end_matches('\r');
    (line.eq_ignore_ascii_case("URL,Title,Selection,Folder")
        || line.eq_ignore_ascii_case("URL,Title,Selection,Folder,Timestamp"))
    .then_some(90)
}

/// Read an Instapaper CSV export.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut diags = Vec::new();
    let src = text(input, &mut diags);
    struct State {
        doc: Document,
        /// By name: an export may have as many folders as rows.
        folders: HashMap<String, NodeId>,
        columns: (usize, usize, usize, usize, Option<usize>),
    }
    let start = |t: &table::Table| {
        let col = |n| t.column(n).expect("required columns are checked");
        State {
            doc: Document::new(),
            folders: HashMap::new(),
            columns: (
                col("URL"),
                col("Title"),
                col("Selection"),
                col("Folder"),
                t.column("Timestamp"),
            ),
        }
    };
    let each = |s: &mut State, at, mut row: Vec<String>, diags: &mut Vec<Diagnostic>| {
        let (url, title, selection, folder, timestamp) = s.columns;
        let name = row[folder].trim();
        let name = if name.is_empty() { "Unread" } else { name };
        let parent = match s.folders.get(name) {
            Some(id) => *id,
            None => {
                let id = s.doc.push(None, Folder::titled(name));
                s.folders.insert(name.to_string(), id);
                id
            }
        };
        let mut b = Bookmark::new(std::mem::take(&mut row[url]));
        b.title = Some(std::mem::take(&mut row[title])).filter(|t| !t.is_empty());
        b.desc = Some(std::mem::take(&mut row[selection])).filter(|t| !t.is_empty());
        if let Some(ts) = timestamp {
            b.added = unix_date(&row[ts], "Timestamp", Some(at), diags);
        }
        s.doc.push(Some(parent), b);
    };
    let State { doc, .. } = table::read(
        &src,
        "Instapaper CSV",
        REQUIRED,
        OPTIONAL,
        &mut diags,
        start,
        each,
    )?;
    Parsed::new(doc, diags).enforce(opts)
}
