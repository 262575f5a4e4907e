//! Two files kept in step (`markport sync A B`): each run merges them three
//! ways from the last tree they shared, kept in a state directory (owner
//! only) with the ids each file gave its items, and writes the result into
//! both. The first run, with no state, is a union that deletes nothing.
//!
//! Both files are read through the one door ([`crate::read`]), the merged
//! tree is made for both before either is touched, and each is then backed
//! up and replaced whole ([`files::output`](crate::output)), under a lock
//! in the state directory; a dry run makes the plan and writes nothing.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use markport_merge3::{merge, MergeError, Options, Outcome, Report, Side};
use markport_model::{Document, Error, ErrorKind, LossReport, Node, NodeId, ReadOptions};

use crate::registry::Format;

/// How to sync.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SyncOptions {
    /// The state directory; `None`: `$XDG_STATE_HOME/markport/sync/KEY`
    /// (`~/.local/state/...`), KEY naming the two files.
    pub state: Option<PathBuf>,
    /// Make the plan, write nothing.
    pub dry_run: bool,
    /// The merge's options ([`Options::known`] is the state's).
    pub merge: Options,
    /// How to read both files.
    pub read: ReadOptions,
}

/// What a side's file becomes.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Plan {
    /// Items it gains.
    pub adds: usize,
    /// Items it loses.
    pub removes: usize,
    /// Items of it changed or moved.
    pub changes: usize,
    /// The format it is written in.
    pub format: &'static str,
}

/// What a sync did (or, in a dry run, would do).
#[derive(Debug)]
#[non_exhaustive]
pub struct Synced {
    /// The merged tree both files now hold.
    pub document: Document,
    /// The merge's report (matching, conflicts, ledger).
    pub report: Report,
    /// What A and B become.
    pub plans: [Plan; 2],
    /// What A's and B's formats could not carry of the tree.
    pub losses: [LossReport; 2],
    /// Whether this was the first run (a union: nothing deleted).
    pub first: bool,
    /// The state directory.
    pub state: PathBuf,
    /// The copies of A and B as they were, in the state directory.
    pub backups: Vec<PathBuf>,
}

/// The state directory for `a` and `b` when none is given.
pub fn default_state(a: &Path, b: &Path) -> Result<PathBuf, Error> {
    let home = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/state")))
        .ok_or_else(|| {
            invalid("no HOME nor XDG_STATE_HOME to keep the sync state in; say --state DIR")
        })?;
    let (a, b) = (canonical(a)?, canonical(b)?);
    // FNV-1a: a stable name for the pair, whatever the order given.
    let (first, second) = if a <= b { (&a, &b) } else { (&b, &a) };
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in first
        .as_os_str()
        .as_encoded_bytes()
        .iter()
        .chain(b"\0")
        .chain(second.as_os_str().as_encoded_bytes())
    {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
    }
    Ok(home.join("markport/sync").join(format!("{hash:016x}")))
}

fn canonical(p: &Path) -> Result<PathBuf, Error> {
    std::fs::canonicalize(p).map_err(|e| io(p, e))
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, message, None)
}

fn io(path: &Path, e: std::io::Error) -> Error {
    let mut err = Error::io(e);
    err.message = format!("{}: {}", path.display(), err.message);
    err
}

/// Sync `a` and `b`.
pub fn sync(a: &Path, b: &Path, opts: &SyncOptions) -> Result<Synced, Error> {
    let state = match &opts.state {
        Some(s) => s.clone(),
        None => default_state(a, b)?,
    };
    private_dir(&state)?;
    let _lock = Lock::take(&state)?;
    let read = |p: &Path| crate::read(p.to_path_buf(), None, &opts.read).map_err(|e| e.error);
    let (ra, rb) = (read(a)?, read(b)?);
    let formats = [ra.from.format, rb.from.format];
    for (f, p) in formats.iter().zip([a, b]) {
        f.writer().map_err(|_| {
            invalid(format!(
                "{}: {} is read only here: sync writes both files",
                p.display(),
                f.name
            ))
        })?;
    }
    let (base, first) = load_base(&state, opts)?;
    let mut merge_opts = opts.merge.clone();
    merge_opts.known = known(&state, &base, [&ra.document, &rb.document])?;
    for (k, f) in formats.iter().enumerate() {
        merge_opts.uncarried[k + 1] = crate::three_way::uncarried(f);
        merge_opts.unheld[k + 1] = crate::three_way::unheld(f)
            .iter()
            .map(|s| s.to_string())
            .collect();
    }
    let merged = merge(&base, &ra.document, &rb.document, &merge_opts).map_err(|e| {
        let kind = match e {
            MergeError::MassDelete { .. } => ErrorKind::Unsafe,
            _ => ErrorKind::Invalid,
        };
        Error::new(kind, e.to_string(), None)
    })?;
    // Both files' bytes are made before either is touched.
    let mut outputs = Vec::new();
    let mut losses = Vec::new();
    for (f, p) in formats.iter().zip([a, b]) {
        let options = crate::options_for_path(Default::default(), Some(p));
        let (bytes, loss) = crate::write_to_vec(&merged.document, f, &options)?;
        outputs.push(bytes);
        losses.push(loss);
    }
    let plans = [
        plan(&merged.report, Side::Ours, formats[0]),
        plan(&merged.report, Side::Theirs, formats[1]),
    ];
    let mut backups = Vec::new();
    if !opts.dry_run {
        backups = write_both([a, b], &outputs, &state)?;
        save_state(&state, &merged.document, [formats[0], formats[1]], &outputs)?;
    }
    let [la, lb]: [LossReport; 2] = losses.try_into().expect("two");
    Ok(Synced {
        document: merged.document,
        report: merged.report,
        plans,
        losses: [la, lb],
        first,
        state,
        backups,
    })
}

/// What `side`'s file becomes, from the ledger: the items it gains, loses,
/// and holds changed or moved (by either side).
fn plan(report: &Report, side: Side, format: &Format) -> Plan {
    let mut p = Plan {
        format: format.name,
        ..Plan::default()
    };
    for e in &report.ledger {
        match (e.sides.contains(&side), e.outcome.in_result()) {
            (false, true) => p.adds += 1,
            (true, false) => p.removes += 1,
            (true, true) => {
                let same = matches!(
                    e.outcome,
                    Outcome::Kept
                        | Outcome::AddedByOurs
                        | Outcome::AddedByTheirs
                        | Outcome::MergedWithDuplicate
                );
                p.changes += usize::from(!same);
            }
            _ => {}
        }
    }
    p
}

/// The base: the last synced tree in the state, or an empty one the first
/// time (the merge is then a union).
fn load_base(state: &Path, opts: &SyncOptions) -> Result<(Document, bool), Error> {
    let path = state.join("base.json");
    match std::fs::read(&path) {
        Ok(bytes) => {
            let json = crate::format("json").expect("json is always built in");
            let doc = crate::read_bytes(&bytes, json, &opts.read)
                .map_err(|e| invalid(format!("{}: {}", path.display(), e.message)))?
                .document;
            Ok((doc, false))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((Document::new(), true)),
        Err(e) => Err(io(&path, e)),
    }
}

/// One base node's guid and id in a file, as the state keeps them: the
/// node's index in the base, its guid, its id.
type SavedIds = (usize, Option<String>, Option<String>);

/// A node's guid and id, as the state keeps them.
fn ids(node: &Node) -> (Option<&str>, Option<&str>) {
    match node {
        Node::Bookmark(b) => (b.details().guid.as_deref(), b.details().id.as_deref()),
        Node::Folder(f) => (f.guid.as_deref(), f.id.as_deref()),
        _ => (None, None),
    }
}

/// The ids each file gave the base's items last time, as pairs the merge
/// takes first: (side, base node, the file's node with that id now).
fn known(
    state: &Path,
    base: &Document,
    files: [&Document; 2],
) -> Result<Vec<(Side, NodeId, NodeId)>, Error> {
    let path = state.join("ids.json");
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(Vec::new());
    };
    let saved: [Vec<SavedIds>; 2] =
        serde_json::from_slice(&bytes).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let base_ids: Vec<NodeId> = base.ids().collect();
    let mut pairs = Vec::new();
    for (k, (file, entries)) in files.iter().zip(saved).enumerate() {
        let side = [Side::Ours, Side::Theirs][k];
        let mut index: HashMap<(u8, &str), NodeId> = HashMap::new();
        for id in file.ids() {
            let (guid, plain) = ids(file.node(id));
            for key in [guid.map(|g| (0, g)), plain.map(|i| (1, i))]
                .into_iter()
                .flatten()
            {
                index.entry(key).or_insert(id);
            }
        }
        for (at, guid, plain) in entries {
            let Some(&b) = base_ids.get(at) else { continue };
            let found = guid
                .as_deref()
                .and_then(|g| index.get(&(0, g)))
                .or_else(|| plain.as_deref().and_then(|i| index.get(&(1, i))));
            if let Some(&x) = found {
                pairs.push((side, b, x));
            }
        }
    }
    Ok(pairs)
}

/// Back up both files into the state, then replace each whole.
fn write_both(paths: [&Path; 2], outputs: &[Vec<u8>], state: &Path) -> Result<Vec<PathBuf>, Error> {
    // Nanoseconds: two runs in one second keep both backups.
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let backups_dir = state.join("backups");
    private_dir(&backups_dir)?;
    let mut backups = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        let bytes = std::fs::read(p).map_err(|e| io(p, e))?;
        let name = p
            .file_name()
            .map_or("file".into(), |n| n.to_string_lossy().into_owned());
        let backup = backups_dir.join(format!("{stamp}-{}-{name}", ["a", "b"][i]));
        write_private(&backup, &bytes)?;
        backups.push(backup);
    }
    for (p, bytes) in paths.iter().zip(outputs) {
        let mut out = crate::output::OutputFile::create(p).map_err(|e| invalid(e.to_string()))?;
        out.write_all(bytes).map_err(|e| io(p, e))?;
        out.commit().map_err(|e| io(p, e))?;
    }
    Ok(backups)
}

/// The merged tree as the base of the next run, and the ids each file
/// gave its items (read back from what was written, matched to the tree).
fn save_state(
    state: &Path,
    merged: &Document,
    formats: [&Format; 2],
    outputs: &[Vec<u8>],
) -> Result<(), Error> {
    let json = crate::format("json").expect("json is always built in");
    let (bytes, _) = crate::write_to_vec(merged, json, &Default::default())?;
    // The base as the next run reads it: its node numbers are the ids'.
    let base = crate::read_bytes(&bytes, json, &ReadOptions::default())?.document;
    let mut saved: Vec<Vec<SavedIds>> = Vec::new();
    for (f, out) in formats.iter().zip(outputs) {
        let back = crate::read_bytes(out, f, &ReadOptions::default())?.document;
        let found = markport_merge3::matches(&base, &back);
        let ids_of: Vec<NodeId> = back.ids().collect();
        saved.push(
            found
                .iter()
                .enumerate()
                .filter_map(|(at, x)| {
                    let (guid, plain) = ids(back.node(ids_of[x.as_ref()?.index()]));
                    (guid.is_some() || plain.is_some())
                        .then(|| (at, guid.map(str::to_string), plain.map(str::to_string)))
                })
                .collect(),
        );
    }
    write_private(&state.join("base.json"), &bytes)?;
    let ids = serde_json::to_vec(&saved).expect("ids serialise");
    write_private(&state.join("ids.json"), &ids)
}

/// A directory only its owner can enter, made with its parents.
fn private_dir(dir: &Path) -> Result<(), Error> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(|e| io(dir, e))
}

/// `bytes` into `path`, owner-only, replaced whole.
fn write_private(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(&tmp).map_err(|e| io(&tmp, e))?;
    f.write_all(bytes)
        .and_then(|_| f.sync_all())
        .map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| io(path, e))
}

/// The state's lock: a file holding the process id, made only if absent;
/// one left by a process that is gone is taken over.
struct Lock(PathBuf);

impl Lock {
    fn take(state: &Path) -> Result<Lock, Error> {
        let path = state.join("lock");
        for _ in 0..2 {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            match options.open(&path) {
                Ok(mut f) => {
                    let _ = write!(f, "{}", std::process::id());
                    return Ok(Lock(path));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = std::fs::read_to_string(&path).unwrap_or_default();
                    if alive(holder.trim()) {
                        return Err(invalid(format!(
                            "another sync of these files is running (process {}; lock {})",
                            holder.trim(),
                            path.display()
                        )));
                    }
                    std::fs::remove_file(&path).map_err(|e| io(&path, e))?;
                }
                Err(e) => return Err(io(&path, e)),
            }
        }
        Err(invalid(format!(
            "{}: the lock could not be taken",
            path.display()
        )))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Whether the process `pid` is running (on Linux, by /proc; elsewhere a
/// lock is taken for held).
fn alive(pid: &str) -> bool {
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid).exists()
    } else {
        true
    }
}
