//! Opening a database without touching the user's files: checks of the
//! SQLite header first (so a truncated file says so), then a private copy or
//! an `immutable=1` open.
//!
//! Public so that markport's other SQLite readers (buku's `bookmarks.db`)
//! open their files by the same rules rather than a copy of them.
//!
//! ```no_run
//! let opened = markport_places::open::from_path("bookmarks.db".as_ref()).unwrap();
//! let n: i64 = opened
//!     .conn
//!     .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
//!     .map_err(markport_places::open::sqlite_error)
//!     .unwrap();
//! println!("{n} schema entries");
//! ```

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use markport_files::private::PrivateDir;
use markport_model::{Error, ErrorKind};
use rusqlite::{Connection, OpenFlags};

/// The first 16 bytes of every SQLite 3 database.
pub const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

const HEADER_LEN: usize = 100;

/// An open database and the private directory its copy lives in (removed
/// when this is dropped, after the connection closes: fields drop in order).
pub struct Opened {
    /// The connection: read only on the user's file, or on a private copy.
    pub conn: Connection,
    _dir: Option<PrivateDir>,
}

/// Check the 100-byte SQLite header against the file's length: not SQLite
/// at all is [`ErrorKind::WrongFormat`]; a bad page size, or a file shorter
/// than the header says or not a whole number of pages (truncated,
/// half-written), is [`ErrorKind::Syntax`] naming the byte offset.
///
/// ```
/// let err = markport_places::check_header(b"SQLite format 3\0", 16).unwrap_err();
/// assert!(err.message.contains("truncated"), "{}", err.message);
/// ```
pub fn check_header(header: &[u8], file_len: u64) -> Result<(), Error> {
    if !header.starts_with(SQLITE_MAGIC) {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not an SQLite database",
            None,
        ));
    }
    if header.len() < HEADER_LEN || file_len < HEADER_LEN as u64 {
        return Err(syntax(format!(
            "truncated SQLite database: {file_len} bytes, shorter than its 100-byte header"
        )));
    }
    let raw = u32::from(u16::from_be_bytes([header[16], header[17]]));
    let page_size = if raw == 1 { 65536 } else { raw };
    if !(512..=65536).contains(&page_size) || !page_size.is_power_of_two() {
        return Err(syntax(format!(
            "at byte 16: page size {raw} is not a power of two from 512 to 65536: not a valid SQLite database"
        )));
    }
    let page_size = u64::from(page_size);
    if !file_len.is_multiple_of(page_size) {
        return Err(syntax(format!(
            "truncated or half-written SQLite database: {file_len} bytes is not a whole number of {page_size}-byte pages"
        )));
    }
    let be32 = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    // The page count at byte 28 is trusted only when the "version valid
    // for" number matches the change counter (SQLite's own rule).
    let pages = u64::from(be32(28));
    if pages > 0 && be32(92) == be32(24) && pages * page_size > file_len {
        return Err(syntax(format!(
            "truncated SQLite database: the header (byte 28) declares {pages} pages of {page_size} bytes ({} bytes), the file has {file_len}",
            pages * page_size
        )));
    }
    Ok(())
}

fn syntax(message: String) -> Error {
    Error::new(ErrorKind::Syntax, message, None)
}

fn io(what: &str, e: std::io::Error) -> Error {
    let mut err = Error::io(e);
    err.message = format!("{what}: {}", err.message);
    err
}

/// SQLite's own complaint, said as a markport error.
pub fn sqlite_error(e: rusqlite::Error) -> Error {
    use rusqlite::ErrorCode::*;
    let code = e.sqlite_error_code();
    let message = match code {
        Some(DatabaseCorrupt) | Some(NotADatabase) => {
            format!("damaged or half-written SQLite database: {e}")
        }
        Some(DatabaseBusy) | Some(DatabaseLocked) => {
            format!("the database is locked by another program: {e}")
        }
        _ => format!("SQLite: {e}"),
    };
    let kind = match code {
        Some(DatabaseCorrupt) | Some(NotADatabase) => ErrorKind::Syntax,
        Some(DatabaseBusy) | Some(DatabaseLocked) | Some(CannotOpen) => ErrorKind::Io,
        _ => ErrorKind::Invalid,
    };
    Error::new(kind, message, None)
}

/// A private directory for a copy of the user's database: owner-only,
/// removed when the connection is done or the process is interrupted
/// ([`markport_files::private`]).
fn private_dir() -> Result<PrivateDir, Error> {
    PrivateDir::new().map_err(|e| io("cannot make a private temporary copy", e))
}

/// Copy everything `from` holds into the new file `name` in `dir`.
fn copy_into(dir: &PrivateDir, name: &str, from: &mut impl Read, what: &str) -> Result<(), Error> {
    let mut copy = dir
        .create_file(name)
        .map_err(|e| io("cannot make a private temporary copy", e))?;
    std::io::copy(from, &mut copy).map_err(|e| io(what, e))?;
    copy.flush()
        .map_err(|e| io("cannot make a private temporary copy", e))
}

/// Open a private copy of `bytes`. The copy is ours, so it is opened
/// read-write: SQLite may need to build a `-shm` beside it.
pub fn from_bytes(bytes: &[u8]) -> Result<Opened, Error> {
    check_header(bytes, bytes.len() as u64)?;
    let dir = private_dir()?;
    copy_into(
        &dir,
        COPY,
        &mut &*bytes,
        "cannot make a private temporary copy",
    )?;
    open_copy(dir)
}

/// The name of the copy in its private directory (the same for every
/// database opened here: the directory is the copy's alone).
const COPY: &str = "places.sqlite";

fn open_copy(dir: PrivateDir) -> Result<Opened, Error> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(dir.path().join(COPY), flags).map_err(sqlite_error)?;
    Ok(Opened {
        conn,
        _dir: Some(dir),
    })
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Open the database at `path` without writing or locking anything of the
/// user's: `immutable=1` when no `-wal` (or `-journal`) is beside it, else
/// a copy of the database and its `-wal`/`-journal` (the `-shm` is not
/// copied: SQLite rebuilds it from the `-wal`, and Firefox's exclusive
/// locking mode keeps none on disk). A path that is not a regular file (a
/// pipe: `<(cat places.sqlite)`, `/dev/stdin`) can be read only once and
/// has no companions: what it gives is copied and the copy opened.
pub fn from_path(path: &Path) -> Result<Opened, Error> {
    let name = path.display().to_string();
    let mut file = File::open(path).map_err(|e| io(&name, e))?;
    let meta = file.metadata().map_err(|e| io(&name, e))?;
    if !meta.is_file() {
        return from_stream(&mut file, &name);
    }
    let len = meta.len();
    let mut header = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut header)
        .map_err(|e| io(&name, e))?;
    check_header(&header, len)?;
    // Any -wal (even empty: Firefox may be running and writing) or hot
    // rollback -journal means the file alone may not be the database.
    let companions: Vec<(PathBuf, &str)> = ["-wal", "-journal"]
        .into_iter()
        .map(|suffix| (sibling(path, suffix), suffix))
        .filter(|(p, _)| p.exists())
        .collect();
    if companions.is_empty() {
        if let Some(uri) = immutable_uri(path) {
            let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let conn = Connection::open_with_flags(uri, flags).map_err(sqlite_error)?;
            return Ok(Opened { conn, _dir: None });
        }
    }
    let dir = private_dir()?;
    file.rewind().map_err(|e| io(&name, e))?;
    copy_into(&dir, COPY, &mut file, &name)?;
    for (companion, suffix) in &companions {
        let what = companion.display().to_string();
        let mut from = File::open(companion).map_err(|e| io(&what, e))?;
        copy_into(&dir, &format!("{COPY}{suffix}"), &mut from, &what)?;
    }
    open_copy(dir)
}

/// Copy a pipe's bytes into a private directory as they arrive (no second
/// copy in memory), check the copy's header, and open it.
fn from_stream(stream: &mut File, name: &str) -> Result<Opened, Error> {
    let dir = private_dir()?;
    copy_into(&dir, COPY, stream, name)?;
    let copy = dir.path().join(COPY);
    let mut header = Vec::with_capacity(HEADER_LEN);
    let mut file = File::open(&copy).map_err(|e| io(name, e))?;
    let len = file.metadata().map_err(|e| io(name, e))?.len();
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut header)
        .map_err(|e| io(name, e))?;
    check_header(&header, len)?;
    open_copy(dir)
}

/// `file:PATH?immutable=1`, with the characters a URI path cannot hold
/// escaped; `None` for a path that is not UTF-8 (copied instead).
fn immutable_uri(path: &Path) -> Option<String> {
    let absolute = std::path::absolute(path).ok()?;
    let text = absolute.to_str()?;
    let mut uri = String::from("file:");
    for c in text.chars() {
        match c {
            '%' => uri.push_str("%25"),
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            c => uri.push(c),
        }
    }
    uri.push_str("?immutable=1");
    Some(uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(page_size: u16, pages: u32) -> Vec<u8> {
        let mut h = vec![0u8; 100];
        h[..16].copy_from_slice(SQLITE_MAGIC);
        h[16..18].copy_from_slice(&page_size.to_be_bytes());
        h[24..28].copy_from_slice(&7u32.to_be_bytes());
        h[28..32].copy_from_slice(&pages.to_be_bytes());
        h[92..96].copy_from_slice(&7u32.to_be_bytes());
        h
    }

    #[test]
    fn the_header_tells_a_truncated_file_from_a_whole_one() {
        assert!(check_header(&header(4096, 3), 3 * 4096).is_ok());
        let short = check_header(&header(4096, 3), 2 * 4096).unwrap_err();
        assert_eq!(short.kind, ErrorKind::Syntax);
        assert!(short.message.contains("byte 28"), "{}", short.message);
        let torn = check_header(&header(4096, 3), 3 * 4096 - 10).unwrap_err();
        assert!(torn.message.contains("half-written"), "{}", torn.message);
        let odd = check_header(&header(1000, 1), 1000).unwrap_err();
        assert!(odd.message.contains("page size 1000"), "{}", odd.message);
        let other = check_header(b"PK\x03\x04", 4).unwrap_err();
        assert_eq!(other.kind, ErrorKind::WrongFormat);
    }

    #[test]
    fn a_path_with_uri_characters_is_escaped() {
        let uri = immutable_uri(Path::new("/p/a%b?c#d/places.sqlite")).unwrap();
        assert_eq!(uri, "file:/p/a%25b%3fc%23d/places.sqlite?immutable=1");
    }
}
