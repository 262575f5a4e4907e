//! Running the tool under test: its command line with the placeholders
//! replaced by shell-quoted values, under `sh -c`, in its own process group,
//! killed whole when it outlives the timeout.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::private;

/// The placeholders a command can hold.
pub const PLACEHOLDERS: &[&str] = &["{in}", "{out}", "{url}", "{title}"];

/// `value` quoted for a POSIX shell: in single quotes, each `'` written `'\''`.
pub fn shell_quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('\'');
    for c in value.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

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
const STDERR_TAIL: u64 = 2000;

/// Run `command` with `sh -c` in a new process group, standard input
/// empty, standard output and error into files in `dir`. After `timeout`
/// the whole group is killed.
pub fn run(command: &str, dir: &Path, timeout: Duration) -> std::io::Result<Finished> {
    run_while(command, dir, timeout, || ()).map(|(done, ())| done)
}

/// [`run`], doing `meanwhile` on this thread while the tool runs (the
/// caller's own work on the file, so that it adds nothing to the run's time
/// when there is a second core); the timeout counts from the start.
pub fn run_while<T>(
    command: &str,
    dir: &Path,
    timeout: Duration,
    meanwhile: impl FnOnce() -> T,
) -> std::io::Result<(Finished, T)> {
    let stderr_path = dir.join("stderr");
    let stderr = File::create(&stderr_path)?;
    let stdout = File::create(dir.join("stdout"))?;
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let group = child.id() as i32;
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
        stderr_tail: tail(&stderr_path),
        elapsed,
    };
    Ok((done, result))
}

fn tail(path: &Path) -> String {
    let Ok(mut f) = File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(STDERR_TAIL)));
    let mut bytes = Vec::new();
    let _ = f.read_to_end(&mut bytes);
    String::from_utf8_lossy(&bytes).trim_end().to_owned()
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
        let dir = tempfile::tempdir().unwrap();
        let started = Instant::now();
        let done = run(
            "sleep 30 & sleep 30; echo never",
            dir.path(),
            Duration::from_millis(300),
        )
        .unwrap();
        assert!(done.timed_out && done.status.is_none());
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn the_end_of_standard_error_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let done = run(
            "echo first >&2; i=0; while [ $i -lt 500 ]; do echo line $i >&2; i=$((i+1)); done; exit 3",
            dir.path(),
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!(done.status.unwrap().code(), Some(3));
        assert!(done.stderr_tail.ends_with("line 499"));
        assert!(!done.stderr_tail.contains("first"));
    }
}
