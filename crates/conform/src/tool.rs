//! Running the tool under test: its command line with the placeholders
//! replaced by shell-quoted values, under `sh -c`, in its own process group,
//! ended with everything it started when it exits or outlives the timeout,
//! what left its process group included (on Linux: its processes carry
//! [`MARK`](crate::MARK) and are found in `/proc`; `docs/conformance.md`).

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::process;

/// `value` quoted for a POSIX shell (GLib's `g_shell_quote`, one rule for
/// every command line markport writes).
pub use markport::markup::shell::quote as shell_quote;

/// The placeholders a command can hold.
pub const PLACEHOLDERS: &[&str] = &["{in}", "{out}", "{url}", "{title}"];

/// Replace each placeholder of `template` by its value, quoted, in one pass
/// (a value that holds `{out}` is not replaced again). `{{` and `}}` stay as
/// written; an unknown `{name}` stays as written too.
pub fn expand(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    'scan: while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        for (name, value) in values {
            if let Some(after) = rest.strip_prefix(name) {
                out.push_str(&shell_quote(value));
                rest = after;
                continue 'scan;
            }
        }
        out.push('{');
        rest = &rest[1..];
    }
    out.push_str(rest);
    out
}

/// How one run of the tool ended.
#[derive(Debug)]
pub struct Finished {
    /// The exit status; `None` when it was killed at the timeout.
    pub status: Option<ExitStatus>,
    /// Whether it outlived the timeout (and was killed with everything it
    /// started).
    pub timed_out: bool,
    /// The end of what it wrote on standard error, at most
    /// [`STDERR_TAIL`] bytes, as written (control characters included).
    pub stderr_tail: String,
    /// How many bytes of standard error came before the tail and were not
    /// kept.
    pub stderr_cut: u64,
    /// How long it ran.
    pub elapsed: Duration,
}

/// How much of the tool's standard error a report keeps (its end).
pub const STDERR_TAIL: usize = 2000;

/// Run `command` with `sh -c` in a new process group, standard input and
/// output empty, the end of its standard error kept. After `timeout` the
/// tool is killed with everything it started; when it exits, what it
/// started and left running is killed too.
pub fn run(command: &str, timeout: Duration) -> std::io::Result<Finished> {
    run_while(command, timeout, || ()).map(|(done, ())| done)
}

/// [`run`], doing `meanwhile` on this thread while the tool runs (the
/// caller's own work on the file, so that it adds nothing to the run's time
/// when there is a second core); the timeout counts from the start.
pub fn run_while<T>(
    command: &str,
    timeout: Duration,
    meanwhile: impl FnOnce() -> T,
) -> std::io::Result<(Finished, T)> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let (mut child, tool) = process::spawn(&mut cmd)?;
    // A thread drains standard error (a full pipe would stop the tool),
    // keeping its end, until the pipe closes or it is told to stop: a
    // process that escaped the kill may hold the pipe open for ever.
    let stderr = child.stderr.take();
    let stop = Arc::new(AtomicBool::new(false));
    let drain = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || stderr.map(|s| tail(s, &stop)).unwrap_or_default())
    };
    // A thread waits on the child, so a quick tool costs no polling delay.
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let result = meanwhile();
    let left = timeout.saturating_sub(start.elapsed());
    let (status, timed_out) = match rx.recv_timeout(left) {
        Ok(status) => (Some(status), false),
        Err(_) => {
            tool.end();
            let _ = rx.recv();
            (None, true)
        }
    };
    let elapsed = start.elapsed();
    let _ = waiter.join();
    // What the tool started and left running goes with it (on drop).
    drop(tool);
    stop.store(true, Ordering::SeqCst);
    let (stderr_tail, stderr_cut) = drain.join().unwrap_or_default();
    let done = Finished {
        status: status.transpose()?,
        timed_out,
        stderr_tail,
        stderr_cut,
        elapsed,
    };
    Ok((done, result))
}

/// The last [`STDERR_TAIL`] bytes `from` gives until its end, or until
/// `stop` is set and nothing more is waiting, as text; and how many bytes
/// came before them.
fn tail(from: std::process::ChildStderr, stop: &AtomicBool) -> (String, u64) {
    let mut kept: Vec<u8> = Vec::new();
    let mut cut = 0u64;
    let mut buf = [0u8; 8192];
    let mut from = Readable::new(from);
    loop {
        match from.read(&mut buf, stop) {
            Ok(0) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * STDERR_TAIL {
                    let over = kept.len() - STDERR_TAIL;
                    cut += over as u64;
                    kept.drain(..over);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let start = kept.len().saturating_sub(STDERR_TAIL);
    cut += start as u64;
    let text = String::from_utf8_lossy(&kept[start..])
        .trim_end()
        .to_owned();
    (text, cut)
}

/// Standard error, read so that a stop request is seen within a poll
/// interval even while the pipe stays open and silent.
struct Readable {
    from: std::process::ChildStderr,
}

impl Readable {
    fn new(from: std::process::ChildStderr) -> Readable {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            let fd = from.as_raw_fd();
            // SAFETY: fcntl on a descriptor this value owns; no pointer.
            unsafe {
                let flags = libc::fcntl(fd, libc::F_GETFL);
                libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
        }
        Readable { from }
    }

    /// Bytes when there are some; 0 at the end or once `stop` is set and
    /// the pipe holds nothing more.
    #[cfg(unix)]
    fn read(&mut self, buf: &mut [u8], stop: &AtomicBool) -> std::io::Result<usize> {
        use std::os::fd::AsRawFd;
        loop {
            let stopping = stop.load(Ordering::SeqCst);
            match self.from.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if stopping {
                        return Ok(0);
                    }
                    let mut fds = libc::pollfd {
                        fd: self.from.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    };
                    // SAFETY: one valid pollfd; a timeout bounds the wait.
                    unsafe { libc::poll(&mut fds, 1, 50) };
                }
                other => return other,
            }
        }
    }

    #[cfg(not(unix))]
    fn read(&mut self, buf: &mut [u8], _stop: &AtomicBool) -> std::io::Result<usize> {
        self.from.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One tool at a time in this test binary: a tool's orphans that left
    /// its group, environment and standard error cannot be told from
    /// another running tool's (the module's documentation says so), so the
    /// test of escaping children would end a tool another test runs.
    fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
        static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
        ONE.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[test]
    fn placeholders_are_quoted_once() {
        let cmd = expand(
            "tool {in} -o {out} --name={title} {other}",
            &[
                ("{in}", "/tmp/it's {out}.html"),
                ("{out}", "/tmp/o"),
                ("{title}", "a $(b) `c`"),
            ],
        );
        assert_eq!(
            cmd,
            r#"tool '/tmp/it'\''s {out}.html' -o '/tmp/o' --name='a $(b) `c`' {other}"#
        );
    }

    #[test]
    fn a_hanging_tool_and_its_children_are_killed() {
        let _one = one_at_a_time();
        let started = Instant::now();
        let done = run(
            "sleep 30 & sleep 30; echo never",
            Duration::from_millis(300),
        )
        .unwrap();
        assert!(done.timed_out && done.status.is_none());
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn the_end_of_standard_error_is_kept() {
        let _one = one_at_a_time();
        let done = run(
            "echo first >&2; i=0; while [ $i -lt 500 ]; do echo line $i >&2; i=$((i+1)); done; exit 3",
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!(done.status.unwrap().code(), Some(3));
        assert!(done.stderr_tail.ends_with("line 499"));
        assert!(!done.stderr_tail.contains("first"));
        assert!(done.stderr_tail.len() <= STDERR_TAIL);
        let written =
            "first\n".len() + (0..500).map(|i| format!("line {i}\n").len()).sum::<usize>();
        assert_eq!(
            done.stderr_cut as usize + done.stderr_tail.len() + 1,
            written,
            "the count of what was cut and the tail (less its newline) add up"
        );
    }

    #[test]
    fn a_background_child_holding_standard_error_does_not_hold_the_run() {
        let _one = one_at_a_time();
        let started = Instant::now();
        let done = run("sleep 60 >&2 & echo done >&2", Duration::from_secs(30)).unwrap();
        assert!(!done.timed_out);
        assert_eq!(done.stderr_tail, "done");
        assert!(started.elapsed() < Duration::from_secs(20));
    }

    /// `run` on another thread, failing the test (not hanging it) when it
    /// takes longer than `bound`.
    fn run_bounded(command: &str, timeout: Duration, bound: Duration) -> Finished {
        let (tx, rx) = std::sync::mpsc::channel();
        let command = command.to_owned();
        std::thread::spawn(move || {
            let _ = tx.send(run(&command, timeout));
        });
        rx.recv_timeout(bound)
            .unwrap_or_else(|_| panic!("the run took more than {bound:?}"))
            .unwrap()
    }

    /// The processes whose command line holds `marker`.
    #[cfg(target_os = "linux")]
    fn with_marker(marker: &str) -> Vec<String> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
                let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                if cmdline.contains(marker) {
                    found.push(format!(
                        "{}: {cmdline}",
                        entry.file_name().to_string_lossy()
                    ));
                }
            }
        }
        found
    }

    /// A unique `sleep` argument for this test process and `n`.
    fn marker(n: u32) -> String {
        format!("1000.{}{n:02}", std::process::id())
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn children_that_escape_the_group_and_the_tree_are_killed_too() {
        let _one = one_at_a_time();
        let (a, b, c, d, e) = (marker(1), marker(2), marker(3), marker(4), marker(5));
        let cases = [
            // The issue's case: a new session holding standard error, the
            // tool exits at once.
            (a.clone(), format!("setsid sleep {a} & echo $! >&2"), false),
            // Its parent exits first: re-parented, found by its mark.
            (
                b.clone(),
                format!("sh -c 'setsid sleep {b} >/dev/null & echo $! >&2'"),
                false,
            ),
            // A new session, an empty environment, the parent gone: found
            // by the standard error it holds.
            (
                e.clone(),
                format!("env -i setsid sleep {e} & echo $! >&2"),
                false,
            ),
            // A new session under a tool that outlives the timeout.
            (
                c.clone(),
                format!("setsid sleep {c} & echo $! >&2; sleep {d}"),
                true,
            ),
        ];
        for (m, command, times_out) in cases {
            let started = Instant::now();
            let done = run_bounded(&command, Duration::from_secs(2), Duration::from_secs(30));
            assert_eq!(done.timed_out, times_out, "{command}");
            assert!(started.elapsed() < Duration::from_secs(15), "{command}");
            let pid: u32 = done
                .stderr_tail
                .parse()
                .expect("the tool wrote its child's pid");
            // Killed and reaped: not even a zombie is left.
            if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                panic!("sleep {m} ({pid}) is still there: {stat}");
            }
            assert_eq!(
                with_marker(&m),
                Vec::<String>::new(),
                "sleep {m} still runs"
            );
        }
        assert_eq!(
            with_marker(&d),
            Vec::<String>::new(),
            "sleep {d} still runs"
        );
    }
}
