//! Running the tool under test: its command line with the placeholders
//! replaced by shell-quoted values, under `sh -c`, in its own process group,
//! killed whole when it outlives the timeout.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::private;

/// `value` quoted for a POSIX shell (GLib's `g_shell_quote`, one rule for
/// every command line markport writes).
pub use markport_desktop::shell_quote;

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
    /// Whether it outlived the timeout (and was killed with its group).
    pub timed_out: bool,
    /// The last lines of what it wrote on standard error.
    pub stderr_tail: String,
    /// How long it ran.
    pub elapsed: Duration,
}

/// How much of the tool's standard error a report keeps (its end).
const STDERR_TAIL: usize = 2000;

/// Run `command` with `sh -c` in a new process group, standard input and
/// output empty, the end of its standard error kept. After `timeout` the
/// whole group is killed.
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
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let group = child.id() as i32;
    // A thread drains standard error (a full pipe would stop the tool),
    // keeping its end; it ends when the last holder of the pipe, the tool
    // or what it left in its group, is gone.
    let stderr = child.stderr.take();
    let drain = std::thread::spawn(move || stderr.map(tail).unwrap_or_default());
    private::track_group(group);
    // A thread waits on the child, so a quick tool costs no polling delay.
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let result = meanwhile();
    let left = timeout.saturating_sub(start.elapsed());
    let (status, timed_out) = match rx.recv_timeout(left) {
        Ok(status) => (Some(status?), false),
        Err(_) => {
            private::kill_group(group);
            let _ = rx.recv();
            (None, true)
        }
    };
    let elapsed = start.elapsed();
    let _ = waiter.join();
    // What the tool left running in its group goes with it.
    if !timed_out {
        private::kill_group(group);
    }
    private::untrack_group(group);
    let done = Finished {
        status,
        timed_out,
        stderr_tail: drain.join().unwrap_or_default(),
        elapsed,
    };
    Ok((done, result))
}

/// The last [`STDERR_TAIL`] bytes `from` gives until its end, as text.
fn tail(mut from: impl Read) -> String {
    let mut kept: Vec<u8> = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * STDERR_TAIL {
                    kept.drain(..kept.len() - STDERR_TAIL);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let start = kept.len().saturating_sub(STDERR_TAIL);
    String::from_utf8_lossy(&kept[start..])
        .trim_end()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let done = run(
            "echo first >&2; i=0; while [ $i -lt 500 ]; do echo line $i >&2; i=$((i+1)); done; exit 3",
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!(done.status.unwrap().code(), Some(3));
        assert!(done.stderr_tail.ends_with("line 499"));
        assert!(!done.stderr_tail.contains("first"));
        assert!(done.stderr_tail.len() <= STDERR_TAIL);
    }

    #[test]
    fn a_background_child_holding_standard_error_does_not_hold_the_run() {
        let started = Instant::now();
        let done = run("sleep 60 >&2 & echo done >&2", Duration::from_secs(30)).unwrap();
        assert!(!done.timed_out);
        assert_eq!(done.stderr_tail, "done");
        assert!(started.elapsed() < Duration::from_secs(20));
    }
}
