//! Safari's newer export (File > Export > Browsing Data): a ZIP holding
//! `Bookmarks.html` in Netscape form beside the history and the list of
//! extensions. The archive is read in memory through
//! `markport_files::archive` (limits on entries, sizes and ratio; names
//! with `..` refused), the HTML by the Netscape reader, whose folder with
//! `id="com.apple.ReadingList"` is the Reading List.

use markport_files::archive::{self, Archive, ArchiveError, Limits};
use markport_model::{Error, ErrorKind, Parsed, ReadOptions, Role};
use memchr::memmem;

use crate::READING_LIST;

/// The entry the export keeps its bookmarks in.
const ENTRY: &str = "Bookmarks.html";

/// How sure it is that `input` is Safari's export: a ZIP whose entries
/// include a `Bookmarks.html`, whatever their compression (the archive's
/// directory is read, not its bytes searched); a ZIP refused as it opens
/// that names one somewhere is claimed faintly (above Pocket's and
/// Omnivore's faint claims), so that reading it says why.
pub fn detect(input: &[u8]) -> Option<u8> {
    if !archive::is_zip(input) {
        return None;
    }
    match Archive::open(input, Limits::default()) {
        Ok(zip) => zip.names().iter().any(|n| is_entry(n)).then_some(95),
        Err(_) => memmem::find(input, ENTRY.as_bytes()).map(|_| 12),
    }
}

/// Whether the entry `name` is the export's bookmarks.
fn is_entry(name: &str) -> bool {
    name == ENTRY || name.strip_suffix(ENTRY).is_some_and(|d| d.ends_with('/'))
}

fn refused(e: ArchiveError) -> Error {
    Error::new(ErrorKind::Unsafe, e.to_string(), None)
}

/// Read the export's `Bookmarks.html`.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut zip = Archive::open(input, Limits::default()).map_err(refused)?;
    let Some(name) = zip.names().iter().find(|n| is_entry(n)).cloned() else {
        let mut names = zip.names().iter().take(10).cloned().collect::<Vec<_>>();
        if zip.names().len() > names.len() {
            names.push("...".to_string());
        }
        return Err(Error::new(
            ErrorKind::WrongFormat,
            format!(
                "not Safari's export: the ZIP holds no {ENTRY} (it holds: {})",
                names.join(", ")
            ),
            None,
        ));
    };
    let html = zip.read(&name).map_err(refused)?;
    let mut parsed = markport_netscape::read(&html, opts).map_err(|mut e| {
        e.message = format!("{name} in the ZIP: {}", e.message);
        e
    })?;
    for d in &mut parsed.diagnostics {
        d.message = format!("{name} in the ZIP: {}", d.message);
    }
    // Should an export name the list by title rather than id, it is still the list.
    let doc = &mut parsed.document;
    for id in doc.children(None).to_vec() {
        if let Some(f) = doc.node_mut(id).as_folder_mut() {
            if f.role.is_none() && f.title.as_deref() == Some(READING_LIST) {
                f.role = Some(Role::ReadingList);
            }
        }
    }
    Ok(parsed)
}
