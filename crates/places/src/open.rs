//! Opening a database without touching the user's files: checks of the
//! SQLite header first (so a truncated file says so), then a private copy or
//! an `immutable=1` open.
//!
//! A database is a program as much as data: a view runs a query, a
//! trigger runs on a write, a generated column computes when it is read.
//! So every connection made here is held to what a read needs
//! ([`Opened`]): no statement can write (so no trigger can fire), SQLite's
//! temporary storage stays in memory (no temporary file anywhere) within a
//! cap on SQLite's heap ([`heap_limit`]), every
//! query together has a time limit ([`time_limit`]), and the tables a
//! reader uses are looked up with [`table`], which refuses a view, a
//! virtual table or a computed column standing in for one.
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
use std::sync::Mutex;
use std::time::{Duration, Instant};

use markport_files::private::PrivateDir;
use markport_model::{Error, ErrorKind};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};

/// The first 16 bytes of every SQLite 3 database.
pub const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

const HEADER_LEN: usize = 100;

/// The time every query on one opened database may take together, at
/// the least: SQLite is stopped when it runs past it, and the read fails
/// saying so. A read of 100,000 bookmarks takes about a tenth of a second
/// (see `docs/performance.md`); a view over an endless query is stopped
/// after this long.
pub const TIME_LIMIT: Duration = Duration::from_secs(5);

/// What a larger database adds to [`TIME_LIMIT`]: one more second for
/// every this many bytes (SQLite reads tens of megabytes a second here, so
/// a legitimate read of any size stays far below its limit).
pub const TIME_LIMIT_BYTES_PER_SECOND: u64 = 16 << 20;

/// How many of SQLite's virtual-machine steps run between two looks at
/// the clock: a look costs tens of nanoseconds, these steps a millisecond
/// at most, so the limit is kept to within about that (a single long step,
/// such as sorting what a query gathered, runs to its end first).
const STEPS_BETWEEN_CHECKS: i32 = 10_000;

/// The time limit of a database of `bytes` bytes (with its `-wal`):
/// [`TIME_LIMIT`], and a second more for every
/// [`TIME_LIMIT_BYTES_PER_SECOND`] bytes.
///
/// ```
/// use markport_places::open::{time_limit, TIME_LIMIT};
/// use std::time::Duration;
/// assert_eq!(time_limit(8192), TIME_LIMIT);
/// assert_eq!(time_limit(64 << 20), TIME_LIMIT + Duration::from_secs(4));
/// ```
pub fn time_limit(bytes: u64) -> Duration {
    TIME_LIMIT + Duration::from_secs(bytes / TIME_LIMIT_BYTES_PER_SECOND)
}

/// The heap SQLite may hold besides twice the database: what a read of
/// any legitimate database needs (its page cache is 2 MB, and a read of
/// 100,000 bookmarks holds a few more), as markport's own readers' default
/// budget allows the same (`ReadOptions::memory_budget`).
pub const HEAP_BASE: u64 = 128 << 20;

/// The most heap SQLite may hold while a database of `bytes` bytes (with
/// its `-wal`) is read: twice that and [`HEAP_BASE`]. A sort or a
/// temporary table that would grow past it (kept in memory, never in a
/// file: see [`Opened`]) fails as out of memory, and the read says so.
///
/// ```
/// use markport_places::open::{heap_limit, HEAP_BASE};
/// assert_eq!(heap_limit(1 << 20), HEAP_BASE + (2 << 20));
/// ```
pub fn heap_limit(bytes: u64) -> u64 {
    HEAP_BASE.saturating_add(bytes.saturating_mul(2))
}

/// The heap limit set so far. SQLite's limit is its whole process's, not a
/// connection's (no per-connection one exists): it is raised to the
/// largest any read has needed and never lowered, so that reads at the
/// same time in one process never cut each other short.
static HEAP_LIMIT: Mutex<u64> = Mutex::new(0);

/// Hold SQLite's heap to at least [`heap_limit`] of `bytes` (see
/// [`HEAP_LIMIT`]).
fn cap_heap(bytes: u64) {
    let want = heap_limit(bytes);
    let mut set = HEAP_LIMIT.lock().unwrap_or_else(|e| e.into_inner());
    if want > *set {
        // SAFETY: a plain call into SQLite, which guards its own memory
        // statistics with its own mutex; any thread may call it at any
        // time.
        unsafe {
            rusqlite::ffi::sqlite3_hard_heap_limit64(i64::try_from(want).unwrap_or(i64::MAX));
        }
        *set = want;
    }
}

/// The heap limit in MiB, for messages.
fn heap_limit_mib() -> u64 {
    *HEAP_LIMIT.lock().unwrap_or_else(|e| e.into_inner()) >> 20
}

/// An open database and the private directory its copy lives in (removed
/// when this is dropped, after the connection closes: fields drop in order).
///
/// The connection only reads: `PRAGMA query_only` refuses every statement
/// that would write (on the user's own file it is also opened read only
/// and `immutable`), and a trigger runs only on a write, so none runs.
/// `PRAGMA temp_store = MEMORY` keeps SQLite's temporary tables, sorts and
/// materialised subqueries in memory, never in a file of `$TMPDIR`, and
/// SQLite's heap is capped ([`heap_limit`]) so that memory cannot grow
/// without bound either;
/// `PRAGMA trusted_schema = OFF` keeps functions with side effects out of
/// anything the schema defines. A progress handler stops any query once
/// the connection is older than its [`time_limit`] (the error says so).
pub struct Opened {
    /// The connection: read only on the user's file, or on a private copy.
    pub conn: Connection,
    /// The bytes the database holds (the file and its companions): what
    /// a read's memory budget is measured against.
    pub bytes: u64,
    _dir: Option<PrivateDir>,
}

impl Opened {
    /// The memory a read of this database may give its document, measured
    /// against the bytes it holds: a row of a few bytes is a bookmark of a
    /// few hundred, and one value may be copied into many bookmarks.
    pub fn budget(&self, opts: &markport_model::ReadOptions) -> markport_model::Budget {
        markport_model::Budget::new(opts, usize::try_from(self.bytes).unwrap_or(usize::MAX))
    }

    /// Hold `conn` to a read's rules (see [`Opened`]), the clock of its
    /// time limit starting now.
    fn new(conn: Connection, dir: Option<PrivateDir>, bytes: u64) -> Result<Opened, Error> {
        conn.execute_batch(
            "PRAGMA query_only = ON; PRAGMA temp_store = MEMORY; PRAGMA trusted_schema = OFF;",
        )
        .map_err(sqlite_error)?;
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)
            .map_err(sqlite_error)?;
        cap_heap(bytes);
        let deadline = Instant::now() + time_limit(bytes);
        conn.progress_handler(
            STEPS_BETWEEN_CHECKS,
            Some(move || Instant::now() > deadline),
        );
        Ok(Opened {
            conn,
            bytes,
            _dir: dir,
        })
    }
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
        // Nothing but the progress handler of [`Opened`] interrupts.
        Some(OperationInterrupted) => format!(
            "the database took too long to read: SQLite was stopped at markport's time limit \
             ({} s, and 1 s more for every {} MiB of the database); \
             a table may stand for an endless query",
            TIME_LIMIT.as_secs(),
            TIME_LIMIT_BYTES_PER_SECOND >> 20
        ),
        // The heap limit of [`cap_heap`] is what runs out: this process
        // reads from files and memory markport has, never near the
        // machine's own limits.
        Some(OutOfMemory) => format!(
            "the database needed more memory than markport lets SQLite take \
             ({} MiB: {} MiB and twice the database); a table may be shaped \
             to cost far more than its size",
            heap_limit_mib(),
            HEAP_BASE >> 20
        ),
        _ => format!("SQLite: {e}"),
    };
    let kind = match code {
        Some(DatabaseCorrupt) | Some(NotADatabase) => ErrorKind::Syntax,
        Some(OperationInterrupted) | Some(OutOfMemory) => ErrorKind::Unsafe,
        Some(DatabaseBusy) | Some(DatabaseLocked) | Some(CannotOpen) => ErrorKind::Io,
        _ => ErrorKind::Invalid,
    };
    Error::new(kind, message, None)
}

/// A table as SQLite describes it: its name as the schema spells it and
/// its columns, each stored or computed when read.
#[derive(Debug)]
pub struct Table {
    /// The name in `sqlite_master`.
    pub name: String,
    /// `(column, computed when read)`, in the table's order.
    columns: Vec<(String, bool)>,
}

impl Table {
    /// Whether the table has `column` (SQLite's names are
    /// case-insensitive): `Ok(false)` when it has not, an error
    /// ([`ErrorKind::Unsafe`]) when the column is computed each time it is
    /// read (`GENERATED ALWAYS AS (…) VIRTUAL`): its expression would run
    /// on every row, and markport reads only stored values.
    pub fn has(&self, column: &str) -> Result<bool, Error> {
        match self
            .columns
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(column))
        {
            None => Ok(false),
            Some((_, false)) => Ok(true),
            Some((c, true)) => Err(Error::new(
                ErrorKind::Unsafe,
                format!(
                    "table `{}`: column `{c}` is computed when read (a generated column), \
                     not stored; markport reads only stored values",
                    self.name
                ),
                None,
            )),
        }
    }

    /// Every one of `columns` present and stored, or an error naming the
    /// table, the first column missing, and the columns it has.
    pub fn require(&self, columns: &[&str]) -> Result<(), Error> {
        for column in columns {
            if !self.has(column)? {
                let has: Vec<&str> = self.columns.iter().map(|(c, _)| c.as_str()).collect();
                return Err(Error::new(
                    ErrorKind::WrongFormat,
                    format!(
                        "table `{}` has no `{column}` column (it has {})",
                        self.name,
                        if has.is_empty() {
                            "none".to_string()
                        } else {
                            has.join(", ")
                        }
                    ),
                    None,
                ));
            }
        }
        Ok(())
    }

    /// The names of the columns, stored or computed, in the table's order.
    pub fn columns(&self) -> impl Iterator<Item = &str> {
        self.columns.iter().map(|(c, _)| c.as_str())
    }
}

/// The table `name` of the database, from SQLite's own schema
/// (`sqlite_master` and `pragma_table_xinfo`): `None` when there is none
/// of that name; an error ([`ErrorKind::Unsafe`]) when a view or a virtual
/// table has the name: a view runs whatever query it was made with (an
/// endless one among them) and a virtual table runs its module's code, so
/// markport reads neither in place of a table.
pub fn table(conn: &Connection, name: &str) -> Result<Option<Table>, Error> {
    let entry: Option<(String, String, String)> = conn
        .query_row(
            "SELECT type, name, coalesce(sql, '') FROM sqlite_master \
             WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE",
            [name],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(sqlite_error(e)),
        })?;
    let Some((kind, name, sql)) = entry else {
        return Ok(None);
    };
    let unsafe_ = |what: &str| {
        Error::new(
            ErrorKind::Unsafe,
            format!(
                "`{name}` is {what}, not a table: a database whose `{name}` runs a query \
                 or other code when read is refused (markport reads only real tables)"
            ),
            None,
        )
    };
    if kind == "view" {
        return Err(unsafe_("a view"));
    }
    let head = sql.trim_start().as_bytes();
    if head.len() >= 14 && head[..14].eq_ignore_ascii_case(b"CREATE VIRTUAL") {
        return Err(unsafe_("a virtual table"));
    }
    // hidden: 0 a stored column, 2 computed when read, 3 computed when
    // written (stored); 1 is a virtual table's, refused above.
    let mut stmt = conn
        .prepare("SELECT name, hidden FROM pragma_table_xinfo(?1)")
        .map_err(sqlite_error)?;
    let columns = stmt
        .query_map([&name], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? == 2))
        })
        .map_err(sqlite_error)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(sqlite_error)?;
    Ok(Some(Table { name, columns }))
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
    open_copy(dir, bytes.len() as u64)
}

/// The name of the copy in its private directory (the same for every
/// database opened here: the directory is the copy's alone).
const COPY: &str = "places.sqlite";

/// Open the copy in `dir` (of `bytes` bytes, with its companions).
fn open_copy(dir: PrivateDir, bytes: u64) -> Result<Opened, Error> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(dir.path().join(COPY), flags).map_err(sqlite_error)?;
    Opened::new(conn, Some(dir), bytes)
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
            return Opened::new(conn, None, len);
        }
    }
    let dir = private_dir()?;
    file.rewind().map_err(|e| io(&name, e))?;
    copy_into(&dir, COPY, &mut file, &name)?;
    let mut bytes = len;
    for (companion, suffix) in &companions {
        let what = companion.display().to_string();
        let mut from = File::open(companion).map_err(|e| io(&what, e))?;
        bytes += from.metadata().map_or(0, |m| m.len());
        copy_into(&dir, &format!("{COPY}{suffix}"), &mut from, &what)?;
    }
    open_copy(dir, bytes)
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
    open_copy(dir, len)
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
