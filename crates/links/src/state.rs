//! The state file: each link's last result and when it was found, kept
//! between runs (`--state FILE`, `docs/links.md`).
//!
//! The file is JSON Lines: a first line `{"markport_links_state":1}`, then
//! one [`Entry`] a line, sorted by link. It is replaced whole, atomically
//! (markport_files' one output writer), at the end of a run. While a run
//! goes, each result is appended to `FILE.journal` as it comes, so a run
//! that is interrupted (Ctrl-C, a kill, a crash) loses nothing it found:
//! the next run reads the file, then the journal over it, and asks only
//! the rest. A torn last line of the journal (the process died while
//! writing it) is ignored; anything else unreadable is an error with its
//! line and column.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::Status;

/// The first line's key, and the version it names.
const HEADER_KEY: &str = "markport_links_state";
const VERSION: u64 = 1;

/// What the state keeps of one link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Entry {
    /// The link as asked.
    pub url: String,
    /// What was found.
    pub status: Status,
    /// The last HTTP status code, if any.
    #[serde(default)]
    pub code: Option<u16>,
    /// As [`Checked::final_url`](crate::Checked::final_url).
    #[serde(default)]
    pub final_url: Option<String>,
    /// As [`Checked::reason`](crate::Checked::reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When it was found (seconds since 1970, UTC).
    pub checked_at: i64,
    /// Under `--confirm-after`: when the failure this is a run of was
    /// first seen (a link is confirmed gone or unreachable only when a
    /// failure comes at least that long after it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_failed_at: Option<i64>,
}

/// A state file that cannot be read or written, located where possible.
#[derive(Debug)]
pub struct StateError {
    /// The file.
    pub path: PathBuf,
    /// The line (from 1) and column (from 1) of a bad line.
    pub location: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Some((line, col)) => {
                write!(f, "{}:{line}:{col}: {}", self.path.display(), self.message)
            }
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for StateError {}

/// The results known: read from a state file and its journal, added to
/// as links are checked.
#[derive(Debug, Default)]
pub struct State {
    entries: BTreeMap<String, Entry>,
    path: Option<PathBuf>,
    journal: Option<File>,
    /// Something is known that the file does not hold yet (a result of
    /// this run, or a journal read back).
    changed: bool,
}

impl State {
    /// A state kept in memory only (no `--state`).
    pub fn in_memory() -> State {
        State::default()
    }

    /// The state at `path`: the file (if it exists), then the journal an
    /// interrupted run left beside it (if any) over it.
    pub fn open(path: &Path) -> Result<State, StateError> {
        let mut state = State {
            path: Some(path.to_path_buf()),
            ..State::default()
        };
        state.load(path, false)?;
        state.changed = state.load(&journal_path(path), true)?;
        Ok(state)
    }

    /// Read `path` over what is known; whether it was there.
    fn load(&mut self, path: &Path, journal: bool) -> Result<bool, StateError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(error(path, None, format!("cannot read: {e}"))),
        };
        let mut lines = BufReader::new(file).lines().enumerate().peekable();
        while let Some((n, line)) = lines.next() {
            let line = line.map_err(|e| error(path, None, format!("cannot read: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            if n == 0 && !journal {
                check_header(path, &line)?;
                continue;
            }
            match serde_json::from_str::<Entry>(&line) {
                Ok(entry) => {
                    self.entries.insert(entry.url.clone(), entry);
                }
                // The line a killed run was writing.
                Err(_) if journal && lines.peek().is_none() => {}
                Err(e) => {
                    return Err(error(
                        path,
                        Some((n + 1, e.column().max(1))),
                        format!("not a state line: {e}"),
                    ))
                }
            }
        }
        Ok(true)
    }

    /// What is known of `url`.
    pub fn get(&self, url: &str) -> Option<&Entry> {
        self.entries.get(url)
    }

    /// How many links are known.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Keep `entry`, and with a file, append it to the journal at once.
    pub fn record(&mut self, entry: Entry) -> Result<(), StateError> {
        if let Some(path) = &self.path {
            if self.journal.is_none() {
                let journal = journal_path(path);
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&journal)
                    .map_err(|e| error(&journal, None, format!("cannot write: {e}")))?;
                self.journal = Some(file);
            }
            let mut line = serde_json::to_vec(&entry).expect("an entry serialises");
            line.push(b'\n');
            // One write of the whole line: with O_APPEND a line is never
            // interleaved, and a kill leaves at most the last one torn.
            if let Some(file) = self.journal.as_mut() {
                file.write_all(&line)
                    .map_err(|e| error(&journal_path(path), None, format!("cannot write: {e}")))?;
            }
        }
        self.entries.insert(entry.url.clone(), entry);
        self.changed = true;
        Ok(())
    }

    /// Write the file whole (atomically) with every entry, and remove the
    /// journal it now holds. Nothing to do for a state in memory, or when
    /// the file already holds everything known.
    pub fn save(&mut self) -> Result<(), StateError> {
        let Some(path) = self.path.clone() else {
            return Ok(());
        };
        if !self.changed {
            return Ok(());
        }
        let mut out = markport_files::output::OutputFile::create(&path)
            .map_err(|e| error(&e.path, None, e.message))?;
        let write = |out: &mut markport_files::output::OutputFile| -> io::Result<()> {
            writeln!(out, "{{\"{HEADER_KEY}\":{VERSION}}}")?;
            for entry in self.entries.values() {
                serde_json::to_writer(&mut *out, entry)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        };
        write(&mut out).map_err(|e| error(&path, None, format!("cannot write: {e}")))?;
        out.commit()
            .map_err(|e| error(&path, None, format!("cannot write: {e}")))?;
        // The journal's lines are in the file now: a crash before this
        // removal only makes the next run read them twice.
        self.journal = None;
        self.changed = false;
        let journal = journal_path(&path);
        match std::fs::remove_file(&journal) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(error(&journal, None, format!("cannot remove: {e}"))),
        }
    }
}

/// Where a run's progress goes until the file is written whole.
pub fn journal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

fn check_header(path: &Path, line: &str) -> Result<(), StateError> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| {
        error(
            path,
            Some((1, e.column().max(1))),
            format!("not a markport links state file: {e}"),
        )
    })?;
    match value.get(HEADER_KEY).and_then(serde_json::Value::as_u64) {
        Some(VERSION) => Ok(()),
        Some(v) => Err(error(
            path,
            Some((1, 1)),
            format!("state version {v}: this markport reads version {VERSION}"),
        )),
        None => Err(error(
            path,
            Some((1, 1)),
            format!("not a markport links state file: the first line has no {HEADER_KEY:?}"),
        )),
    }
}

fn error(path: &Path, location: Option<(usize, usize)>, message: String) -> StateError {
    StateError {
        path: path.to_path_buf(),
        location,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(url: &str, status: Status) -> Entry {
        Entry {
            url: url.into(),
            status,
            code: Some(200),
            final_url: None,
            reason: None,
            checked_at: 1_700_000_000,
            first_failed_at: None,
        }
    }

    #[test]
    fn an_interrupted_journal_is_read_back_and_compacted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("links.state");
        let mut state = State::open(&path).unwrap();
        state.record(entry("http://a/", Status::Ok)).unwrap();
        state.record(entry("http://b/", Status::Gone)).unwrap();
        drop(state);
        // The kill came while a third line was being written.
        let mut j = OpenOptions::new()
            .append(true)
            .open(journal_path(&path))
            .unwrap();
        j.write_all(b"{\"url\":\"http://c/\",\"sta").unwrap();
        drop(j);
        let mut state = State::open(&path).unwrap();
        assert_eq!(state.len(), 2);
        assert_eq!(state.get("http://b/").unwrap().status, Status::Gone);
        state.save().unwrap();
        assert!(!journal_path(&path).exists());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert!(text.starts_with("{\"markport_links_state\":1}\n"));
        assert_eq!(State::open(&path).unwrap().len(), 2);
    }

    #[test]
    fn a_bad_line_is_located() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("links.state");
        std::fs::write(
            &path,
            "{\"markport_links_state\":1}\n{\"url\":\"http://a/\",\"status\":\"fine\",\"checked_at\":1}\n",
        )
        .unwrap();
        let e = State::open(&path).unwrap_err();
        assert_eq!(e.location.map(|l| l.0), Some(2));
        assert!(e.to_string().contains("links.state:2:"), "{e}");
        std::fs::write(&path, "url,status\n").unwrap();
        let e = State::open(&path).unwrap_err();
        assert_eq!(e.location, Some((1, 1)));
    }
}
