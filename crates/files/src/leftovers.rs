//! What a run that could not clean up left behind (`kill -9`, the kernel's
//! out-of-memory killer, an abort when memory runs out, a power cut), removed
//! by the next run in the places it writes to.
//!
//! Only markport's own leftovers, recognised three ways at once, are removed:
//!
//! - by name: each temporary carries the id of the process that made it
//!   (`.markport-PID-XXXXXX` in `$TMPDIR`, `.NAME.markport-PID-XXXXXX.tmp`
//!   beside an output, `DIR.markport-tmp-PID-N` and `DIR.markport-old-PID-N`
//!   beside a tree);
//! - by owner: it belongs to the user running this process;
//! - by its maker being gone: no process has that id, or the one that has it
//!   now started after the temporary was last changed (the id was reused).
//!
//! A lock file `DIR.markport-lock` whose `DIR` does not exist is removed
//! when no process holds it (see [`crate::tree`] for why that is safe).
//!
//! The scans are cheap: `$TMPDIR`'s direct entries once per process, and the
//! one directory an output or a tree is being written into.

use std::fs;
use std::path::Path;

/// The process id in `rest` of a name, `PID-...` (digits then `-`), and what
/// follows the `-`.
fn pid_then(rest: &str) -> Option<(u32, &str)> {
    let (digits, after) = rest.split_once('-')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, after))
}

/// The maker's id of a private directory's name in `$TMPDIR`:
/// `.markport-PID-XXXXXX`, or `.markport-PID-XXXXXX.removing` (one whose
/// removal was under way).
pub(crate) fn private_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(".markport-")?;
    let (pid, random) = pid_then(rest)?;
    let random = random.strip_suffix(".removing").unwrap_or(random);
    (!random.is_empty() && random.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(pid)
}

/// The maker's id of an output's temporary file: `.NAME.markport-PID-XXXXXX.tmp`.
pub(crate) fn output_pid(name: &str) -> Option<u32> {
    if !name.starts_with('.') {
        return None;
    }
    let at = name.rfind(".markport-")?;
    let rest = name[at + ".markport-".len()..].strip_suffix(".tmp")?;
    let (pid, random) = pid_then(rest)?;
    (!random.is_empty() && random.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(pid)
}

/// The maker's id of a tree's staging or old directory:
/// `DIR.markport-tmp-PID-N` or `DIR.markport-old-PID-N`.
pub(crate) fn staging_pid(name: &str) -> Option<u32> {
    let at = name.rfind(".markport-")?;
    if at == 0 {
        return None;
    }
    let rest = &name[at + ".markport-".len()..];
    let rest = rest
        .strip_prefix("tmp-")
        .or_else(|| rest.strip_prefix("old-"))?;
    let (pid, n) = pid_then(rest)?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(pid)
}

/// Whether the entry described by `meta`, named with the id `pid`, is a dead
/// run's: this user's, and no process that could have made it is alive.
pub(crate) fn abandoned(meta: &fs::Metadata, pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid takes nothing and cannot fail.
        if meta.uid() != unsafe { libc::geteuid() } {
            return false;
        }
        let changed = meta.mtime();
        match started(pid) {
            Some(Started::Gone) => true,
            // Seconds are all both clocks give: one second of slack.
            Some(Started::At(start)) => start > changed + 1,
            Some(Started::Unknown) | None => false,
        }
    }
    #[cfg(not(unix))]
    {
        // No owner or process table to ask: nothing is taken as dead.
        let _ = (meta, pid);
        false
    }
}

/// What is known of the process `pid`.
#[cfg(unix)]
enum Started {
    /// No such process (or only its zombie: it can write nothing more).
    Gone,
    /// It started at this many seconds after the epoch.
    At(i64),
    /// It runs; when it started is not known.
    Unknown,
}

#[cfg(target_os = "linux")]
fn started(pid: u32) -> Option<Started> {
    let stat = match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(Started::Gone),
        Err(_) => return None,
    };
    // The command name, in parentheses, may hold anything: the fields
    // that matter come after its last `)`. After it come the state (field 3)
    // and, 19 fields on, the start time (field 22) in clock ticks after boot.
    let after = &stat[stat.rfind(')')? + 1..];
    let mut fields = after.split_ascii_whitespace();
    if fields.next()? == "Z" {
        return Some(Started::Gone);
    }
    let ticks: i64 = fields.nth(18)?.parse().ok()?;
    let boot: i64 = fs::read_to_string("/proc/stat")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    // SAFETY: sysconf takes a constant and only reads.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if hz <= 0 {
        return Some(Started::Unknown);
    }
    Some(Started::At(boot + ticks / hz as i64))
}

#[cfg(all(unix, not(target_os = "linux")))]
fn started(pid: u32) -> Option<Started> {
    let pid = libc::pid_t::try_from(pid).ok()?;
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    if unsafe { libc::kill(pid, 0) } == 0 {
        return Some(Started::Unknown);
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::ESRCH) => Some(Started::Gone),
        _ => Some(Started::Unknown),
    }
}

/// Remove the private directories dead runs left in `tmp` (`$TMPDIR`).
pub(crate) fn clean_private(tmp: &Path) {
    let Ok(entries) = fs::read_dir(tmp) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(private_pid) else {
            continue;
        };
        let path = e.path();
        // Not followed: a link there is not markport's.
        match fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() && abandoned(&m, pid) => {
                let _ = fs::remove_dir_all(&path);
            }
            _ => {}
        }
    }
}

/// Remove what dead runs left in `dir`, the directory an output or a tree
/// is being written into: outputs' temporary files, lock files of trees
/// that do not exist that no process holds, and, with `tree` (the name of
/// the tree being written, whose lock this process holds), that tree's
/// staging and old directories (only those holding nothing but their
/// manifest's files).
///
/// Another tree's staging directories are left to the run that writes that
/// tree, under its lock: a process id alone may belong to another PID
/// namespace (a container writing into the same directory), the lock does
/// not.
pub(crate) fn clean_beside(dir: &Path, tree: Option<&str>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if !name.contains(".markport-") {
            continue;
        }
        let path = e.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if let Some(pid) = output_pid(name) {
            if meta.is_file() && abandoned(&meta, pid) {
                let _ = fs::remove_file(&path);
            }
        } else if let Some(pid) = staging_pid(name) {
            let of_tree = tree.is_some_and(|t| {
                name.strip_prefix(t)
                    .is_some_and(|rest| rest.starts_with(".markport-"))
            });
            if of_tree && meta.is_dir() && abandoned(&meta, pid) && crate::tree::only_ours(&path) {
                let _ = fs::remove_dir_all(&path);
            }
        } else if let Some(tree) = name.strip_suffix(".markport-lock") {
            if !tree.is_empty() && meta.is_file() && owned(&meta) {
                crate::tree::remove_stale_lock(&path, &dir.join(tree));
            }
        }
    }
}

/// Whether this user owns the entry.
fn owned(meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid takes nothing and cannot fail.
        meta.uid() == unsafe { libc::geteuid() }
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// The id of a process that has ended (for tests).
#[cfg(all(test, unix))]
pub(crate) fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_recognised_only_in_markports_own_patterns() {
        assert_eq!(private_pid(".markport-123-aB3xYz"), Some(123));
        assert_eq!(private_pid(".markport-123-aB3xYz.removing"), Some(123));
        assert_eq!(private_pid(".markport-aB3xYz"), None, "no id: an old name");
        assert_eq!(private_pid(".markport-12x-aB3xYz"), None);
        assert_eq!(private_pid("markport-123-aB3xYz"), None);
        assert_eq!(private_pid(".markport-123-"), None);

        assert_eq!(output_pid(".out.json.markport-77-Ab12Cd.tmp"), Some(77));
        assert_eq!(output_pid(".a.markport-b.markport-77-Ab12Cd.tmp"), Some(77));
        assert_eq!(output_pid(".out.json.markport-Ab12Cd.tmp"), None);
        assert_eq!(output_pid("out.json.markport-77-Ab12Cd.tmp"), None);
        assert_eq!(output_pid(".out.json.markport-77-Ab12Cd"), None);

        assert_eq!(staging_pid("site.markport-tmp-9-0"), Some(9));
        assert_eq!(staging_pid("site.markport-old-9-12"), Some(9));
        assert_eq!(staging_pid("site.markport-new-9-0"), None);
        assert_eq!(staging_pid("site.markport-tmp-9-"), None);
        assert_eq!(staging_pid(".markport-tmp-9-0"), None, "no tree name");
        assert_eq!(staging_pid("site.markport-lock"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_live_process_that_started_before_is_the_maker_and_a_dead_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let meta = fs::metadata(dir.path()).unwrap();
        assert!(!abandoned(&meta, std::process::id()));
        // The parent of this test (cargo, a shell) started before the
        // directory was made.
        let parent = std::os::unix::process::parent_id();
        assert!(!abandoned(&meta, parent));
        // A process that has ended.
        assert!(abandoned(&meta, dead_pid()));
        // One last changed a day ago, named with the id of a process that
        // started since: the id was reused, the maker is gone.
        let old = fs::File::open(dir.path()).unwrap();
        let day_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
        old.set_modified(day_ago).unwrap();
        let meta = fs::metadata(dir.path()).unwrap();
        assert!(abandoned(&meta, parent));
    }
}

#[cfg(all(test, unix))]
mod cleaning {
    use super::*;

    fn sorted<const N: usize>(mut names: [String; N]) -> Vec<String> {
        names.sort();
        names.to_vec()
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut n: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        n.sort();
        n
    }

    #[test]
    fn dead_runs_private_directories_go_and_live_ones_and_others_stay() {
        let tmp = tempfile::tempdir().unwrap();
        let dead = dead_pid();
        let me = std::process::id();
        for name in [
            format!(".markport-{dead}-aB3dE9"),
            format!(".markport-{dead}-zZ9yY8.removing"),
            format!(".markport-{me}-qW1eR2"),
            ".markport-xY7uI8".to_owned(),
            format!("markport-{dead}-aB3dE9"),
        ] {
            fs::create_dir(tmp.path().join(&name)).unwrap();
            fs::write(tmp.path().join(&name).join("places.sqlite"), b"copy").unwrap();
        }
        // A file, not a directory, of the same name: not what markport makes.
        fs::write(tmp.path().join(format!(".markport-{dead}-fIlE00")), b"x").unwrap();
        clean_private(tmp.path());
        assert_eq!(
            names(tmp.path()),
            sorted([
                format!(".markport-{dead}-fIlE00"),
                format!(".markport-{me}-qW1eR2"),
                ".markport-xY7uI8".to_owned(),
                format!("markport-{dead}-aB3dE9"),
            ])
        );
    }

    #[test]
    fn dead_runs_outputs_and_trees_go_beside_the_output() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let dead = dead_pid();
        let me = std::process::id();
        // Outputs' temporary files.
        fs::write(
            d.join(format!(".out.html.markport-{dead}-Ab12Cd.tmp")),
            b"half",
        )
        .unwrap();
        fs::write(
            d.join(format!(".out.html.markport-{me}-Ab12Cd.tmp")),
            b"live",
        )
        .unwrap();
        fs::write(d.join(".out.html.markport-Ab12Cd.tmp"), b"no id").unwrap();
        // Staging directories: one partial (manifest and one of its
        // files), one empty (killed before the manifest), one holding a
        // file its manifest does not list, one of a live run.
        let partial = d.join(format!("site.markport-tmp-{dead}-0"));
        fs::create_dir(&partial).unwrap();
        fs::write(
            partial.join(crate::tree::MANIFEST),
            br#"{"markport_publish":1,"files":["a.html","b.html"]}"#,
        )
        .unwrap();
        fs::write(partial.join("a.html"), b"a").unwrap();
        fs::create_dir(d.join(format!("site.markport-old-{dead}-1"))).unwrap();
        let foreign = d.join(format!("site.markport-tmp-{dead}-2"));
        fs::create_dir(&foreign).unwrap();
        fs::write(foreign.join("mine.txt"), b"not markport's").unwrap();
        fs::create_dir(d.join(format!("site.markport-tmp-{me}-3"))).unwrap();
        // Lock files: one of a tree that does not exist, one held, one of
        // a tree that exists.
        fs::write(d.join("gone.markport-lock"), b"").unwrap();
        fs::write(d.join("held.markport-lock"), b"").unwrap();
        let held = fs::File::open(d.join("held.markport-lock")).unwrap();
        held.lock().unwrap();
        fs::create_dir(d.join("here")).unwrap();
        fs::write(d.join("here.markport-lock"), b"").unwrap();
        clean_beside(d, Some("site"));
        assert_eq!(
            names(d),
            sorted([
                ".out.html.markport-Ab12Cd.tmp".to_owned(),
                format!(".out.html.markport-{me}-Ab12Cd.tmp"),
                "held.markport-lock".to_owned(),
                "here".to_owned(),
                "here.markport-lock".to_owned(),
                format!("site.markport-tmp-{dead}-2"),
                format!("site.markport-tmp-{me}-3"),
            ])
        );
    }

    #[test]
    fn another_users_leftover_stays() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let dead = dead_pid();
        let path = dir.path().join(format!(".out.markport-{dead}-Ab12Cd.tmp"));
        fs::write(&path, b"theirs").unwrap();
        // Only root can give a file away; elsewhere the check is the
        // comparison below, which this leaves unexercised.
        if std::os::unix::fs::chown(&path, Some(65_534), None).is_err() {
            return;
        }
        assert_ne!(fs::metadata(&path).unwrap().uid(), unsafe {
            libc::geteuid()
        });
        clean_beside(dir.path(), None);
        assert!(path.exists(), "another user's file was removed");
    }
}
