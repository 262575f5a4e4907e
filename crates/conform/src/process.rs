//! Ending a tool with everything it started, and what a signal handler
//! must stop.
//!
//! A tool runs under `sh -c` in a process group of its own, but what it
//! starts can leave the group (`setsid`) or the tree (a parent that exits
//! first), and a process left behind keeps running after the run and holds
//! the tool's standard error open. Killing the group is not enough; so, on
//! Linux:
//!
//! - markport makes itself a child subreaper (`PR_SET_CHILD_SUBREAPER`)
//!   while a tool runs: a descendant whose parent dies is re-parented to
//!   markport, not to init, so it stays below markport where `/proc` shows
//!   it;
//! - each tool gets a mark, an environment variable ([`MARK`]) whose value
//!   is unique to that tool, which its descendants inherit, as they inherit
//!   its standard error, a pipe of its own;
//! - to end a tool, markport walks its own descendants in `/proc` and takes
//!   those below the tool's shell, in its process group, or below a process
//!   that carries its mark or holds its standard error; stops them
//!   (SIGSTOP, so that none forks while the walk goes on) until a walk finds
//!   no new one, then kills them through a pidfd (a pid reused in the
//!   meantime is never hit), and reaps those re-parented to markport.
//!
//! A descendant that leaves the process group, clears its environment,
//! lets go of standard error and loses its parent is the one it cannot tell
//! from another run's (or another thread's) child; a cgroup could, and is
//! not writable for an ordinary user on most systems. Elsewhere than Linux
//! the process group is killed.
//!
//! The signal handler's [`markport::remove_temporaries`] reaches this
//! module through [`markport::files::private::before_remove_all`]: every
//! tool is ended before the directories go, and no tool starts after.

use std::io;
use std::process::{Child, Command};
use std::sync::{Mutex, Once};

/// The environment variable that marks a tool's processes: its value is
/// markport's process id and the tool's number in this process.
pub const MARK: &str = "MARKPORT_CONFORMANCE_TOOL";

/// The tools running now, and whether the process is stopping on a signal.
struct State {
    running: Vec<Tracked>,
    stopping: bool,
    started: u64,
}

/// What identifies a tool's processes.
#[derive(Clone, Debug)]
struct Tracked {
    /// The shell's process id, which is also its process group's.
    root: i32,
    /// The shell's start time (clock ticks after boot), so that a reused
    /// process id is not taken for it.
    root_start: Option<u64>,
    /// The value of [`MARK`] in its environment.
    mark: String,
    /// The inode of its standard error's pipe.
    pipe: Option<u64>,
}

static STATE: Mutex<State> = Mutex::new(State {
    running: Vec::new(),
    stopping: false,
    started: 0,
});

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The error of a run stopped by a signal.
pub(crate) fn stopping_error() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "stopping on a signal")
}

/// Whether the process is stopping on a signal: the handler's
/// [`markport::remove_temporaries`] has run.
pub(crate) fn stopping() -> bool {
    state().stopping
}

/// A running tool, ended with everything it started when dropped.
#[derive(Debug)]
pub(crate) struct Tool {
    tracked: Tracked,
}

/// Start `command` as a tool: in a new process group, marked, with markport
/// a subreaper while it runs. Refused once the process is stopping.
pub(crate) fn spawn(command: &mut Command) -> io::Result<(Child, Tool)> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| markport::files::private::before_remove_all(stop_all));
    // Under the lock: a signal's stop_all either sees the tool (and ends
    // it) or has already refused it.
    let mut state = state();
    if state.stopping {
        return Err(stopping_error());
    }
    state.started += 1;
    let mark = format!("{}.{}", std::process::id(), state.started);
    command.env(MARK, &mark);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    if state.running.is_empty() {
        set_subreaper(true);
    }
    let child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            if state.running.is_empty() {
                set_subreaper(false);
            }
            return Err(e);
        }
    };
    let root = child.id() as i32;
    let tracked = Tracked {
        root,
        root_start: linux::start_time(root),
        mark,
        pipe: child.stderr.as_ref().and_then(linux::inode),
    };
    state.running.push(tracked.clone());
    Ok((child, Tool { tracked }))
}

impl Tool {
    /// Kill the tool and every process it started that still runs, and reap
    /// those re-parented to markport (the shell itself is left to its
    /// `Child`, which waits for it).
    pub(crate) fn end(&self) {
        end(&self.tracked);
    }
}

impl Drop for Tool {
    fn drop(&mut self) {
        self.end();
        let mut state = state();
        if let Some(i) = state
            .running
            .iter()
            .position(|t| t.mark == self.tracked.mark)
        {
            state.running.swap_remove(i);
        }
        if state.running.is_empty() {
            set_subreaper(false);
        }
    }
}

/// The hook of [`markport::files::private::remove_all`]: end every tool and
/// start none after.
fn stop_all() {
    let mut state = state();
    state.stopping = true;
    for tracked in &state.running {
        end(tracked);
    }
}

#[cfg(target_os = "linux")]
fn set_subreaper(on: bool) {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes integers only.
    unsafe {
        libc::prctl(
            libc::PR_SET_CHILD_SUBREAPER,
            libc::c_ulong::from(on),
            0,
            0,
            0,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn set_subreaper(_on: bool) {}

#[cfg(target_os = "linux")]
fn end(tracked: &Tracked) {
    linux::end(tracked);
}

#[cfg(all(unix, not(target_os = "linux")))]
fn end(tracked: &Tracked) {
    // SAFETY: kill takes no pointer; a negative pid names the group.
    unsafe {
        libc::kill(-tracked.root, libc::SIGKILL);
    }
}

#[cfg(not(unix))]
fn end(_tracked: &Tracked) {}

#[cfg(target_os = "linux")]
mod linux {
    //! The walk of markport's descendants in `/proc`.

    use std::collections::{HashMap, HashSet};
    use std::time::{Duration, Instant};

    use super::{Tracked, MARK};

    /// How long ending one tool may take before markport gives up on what
    /// is left (a process stuck in the kernel cannot be killed sooner).
    const GIVE_UP: Duration = Duration::from_secs(5);

    /// One line of `/proc/PID/stat`, the fields used here.
    #[derive(Clone, Copy, Debug)]
    struct Proc {
        pid: i32,
        ppid: i32,
        pgid: i32,
        zombie: bool,
        start: u64,
    }

    fn stat(pid: i32) -> Option<Proc> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name, in parentheses, may hold anything: the fields
        // start after the last `)`.
        let (_, rest) = text.rsplit_once(')')?;
        let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
        Some(Proc {
            pid,
            zombie: *fields.first()? == "Z",
            ppid: fields.get(1)?.parse().ok()?,
            pgid: fields.get(2)?.parse().ok()?,
            start: fields.get(19)?.parse().ok()?,
        })
    }

    /// When `pid` started, in clock ticks after boot.
    pub(super) fn start_time(pid: i32) -> Option<u64> {
        stat(pid).map(|p| p.start)
    }

    /// The process ids listed in a `children` file of `/proc/PID/task/*`.
    fn children_of(pid: i32, out: &mut Vec<i32>) -> bool {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return false;
        };
        let mut any = false;
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                any = true;
                out.extend(
                    text.split_ascii_whitespace()
                        .filter_map(|p| p.parse::<i32>().ok()),
                );
            }
        }
        any
    }

    /// Every descendant of this process: through the `children` files
    /// (cheap, only the tree below), or a scan of all of `/proc` where the
    /// kernel has none; `None` without `/proc`.
    fn descendants(me: i32) -> Option<Vec<Proc>> {
        let mut found = Vec::new();
        let mut stack = Vec::new();
        if children_of(me, &mut stack) {
            let mut seen = HashSet::new();
            while let Some(pid) = stack.pop() {
                if !seen.insert(pid) {
                    continue;
                }
                if let Some(p) = stat(pid) {
                    found.push(p);
                    children_of(pid, &mut stack);
                }
            }
            return Some(found);
        }
        let all: Vec<Proc> = std::fs::read_dir("/proc")
            .ok()?
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .filter_map(stat)
            .collect();
        let parent: HashMap<i32, i32> = all.iter().map(|p| (p.pid, p.ppid)).collect();
        let below = all
            .into_iter()
            .filter(|p| {
                let mut at = p.ppid;
                // A chain longer than the table is a loop read mid-change.
                for _ in 0..=parent.len() {
                    if at == me {
                        return true;
                    }
                    match parent.get(&at) {
                        Some(&up) if at > 1 => at = up,
                        _ => return false,
                    }
                }
                false
            })
            .collect();
        Some(below)
    }

    /// The inode of what `fd` is open on.
    pub(super) fn inode(fd: &impl std::os::fd::AsRawFd) -> Option<u64> {
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: fstat fills the buffer given on success.
        if unsafe { libc::fstat(fd.as_raw_fd(), st.as_mut_ptr()) } != 0 {
            return None;
        }
        // SAFETY: fstat returned 0, so it filled the buffer.
        Some(unsafe { st.assume_init() }.st_ino)
    }

    /// Whether `pid` holds the pipe `inode` open.
    fn holds(pid: i32, inode: u64) -> bool {
        let wanted = format!("pipe:[{inode}]");
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            return false;
        };
        fds.flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == wanted.as_str()))
    }

    /// Whether `pid`'s environment holds `MARK=mark`.
    fn marked(pid: i32, mark: &str) -> bool {
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            return false;
        };
        let wanted = format!("{MARK}={mark}");
        env.split(|&b| b == 0).any(|kv| kv == wanted.as_bytes())
    }

    /// The descendants that belong to the tool: the shell, and every
    /// process with the shell, a member of its group, a marked process or
    /// one in `known` (signalled before; a zombie's mark cannot be read) on
    /// its way up to markport.
    fn belonging(me: i32, tracked: &Tracked, known: &HashMap<i32, Proc>) -> Vec<Proc> {
        let Some(all) = descendants(me) else {
            // No /proc to walk (a sandbox without it): the process group
            // is all that can be found.
            // SAFETY: kill takes no pointer; a negative pid names the group.
            unsafe { libc::kill(-tracked.root, libc::SIGKILL) };
            return Vec::new();
        };
        let by_pid: HashMap<i32, Proc> = all.iter().map(|p| (p.pid, *p)).collect();
        let mut verdict: HashMap<i32, bool> = HashMap::new();
        let is_root =
            |p: &Proc| p.pid == tracked.root && tracked.root_start.is_none_or(|s| s == p.start);
        let mut out = Vec::new();
        for p in &all {
            // Up the chain until a process already judged, markport, or the
            // tool's own; then every process on the way gets that verdict.
            let mut path = Vec::new();
            let mut at = Some(*p);
            let ours = loop {
                let Some(q) = at else { break false };
                if let Some(&v) = verdict.get(&q.pid) {
                    break v;
                }
                path.push(q.pid);
                if is_root(&q)
                    || q.pgid == tracked.root
                    || known.get(&q.pid).is_some_and(|k| k.start == q.start)
                    || (!q.zombie && marked(q.pid, &tracked.mark))
                    || (!q.zombie && tracked.pipe.is_some_and(|i| holds(q.pid, i)))
                {
                    break true;
                }
                if q.ppid == me || path.len() > all.len() {
                    break false;
                }
                at = by_pid.get(&q.ppid).copied();
            };
            for pid in path {
                verdict.insert(pid, ours);
            }
            if ours {
                out.push(*p);
            }
        }
        out
    }

    /// Send `signal` to `p` through a pidfd: the pidfd is opened first and
    /// the start time checked after, so a process id reused in between is
    /// never signalled.
    fn signal(p: &Proc, signal: i32) {
        // SAFETY: pidfd_open takes a pid and flags; it returns a new
        // descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, p.pid, 0) } as i32;
        if fd < 0 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOSYS)
                && start_time(p.pid) == Some(p.start)
            {
                // SAFETY: kill takes no pointer.
                unsafe { libc::kill(p.pid, signal) };
            }
            return;
        }
        if start_time(p.pid) == Some(p.start) {
            // SAFETY: fd is the pidfd opened above; no siginfo is passed.
            unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    fd,
                    signal,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                );
            }
        }
        // SAFETY: fd was opened above and is closed once.
        unsafe { libc::close(fd) };
    }

    /// Reap `p`, a zombie re-parented to markport.
    fn reap(p: &Proc) {
        let mut status = 0;
        // SAFETY: status is a valid int; WNOHANG never blocks.
        unsafe { libc::waitpid(p.pid, &mut status, libc::WNOHANG) };
    }

    pub(super) fn end(tracked: &Tracked) {
        let me = std::process::id() as i32;
        let give_up = Instant::now() + GIVE_UP;
        let mut stopped: HashMap<i32, Proc> = HashMap::new();
        // Stop until a walk finds no new process: then none can fork.
        loop {
            let mut new = false;
            for p in belonging(me, tracked, &stopped) {
                if !p.zombie && !stopped.contains_key(&p.pid) {
                    signal(&p, libc::SIGSTOP);
                    stopped.insert(p.pid, p);
                    new = true;
                }
            }
            if !new || Instant::now() > give_up {
                break;
            }
        }
        for p in stopped.values() {
            signal(p, libc::SIGKILL);
        }
        // Reap what comes to markport; the shell is its Child's to wait for.
        loop {
            let left: Vec<Proc> = belonging(me, tracked, &stopped)
                .into_iter()
                .filter(|p| !(p.pid == tracked.root && p.zombie))
                .collect();
            if left.is_empty() || Instant::now() > give_up {
                break;
            }
            for p in &left {
                if p.zombie && p.ppid == me {
                    reap(p);
                } else if !p.zombie && !stopped.contains_key(&p.pid) {
                    // Forked before its parent stopped and seen only now.
                    signal(p, libc::SIGKILL);
                    stopped.insert(p.pid, *p);
                }
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod linux {
    pub(super) fn start_time(_pid: i32) -> Option<u64> {
        None
    }

    pub(super) fn inode<T>(_fd: &T) -> Option<u64> {
        None
    }
}
