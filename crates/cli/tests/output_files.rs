//! What `markport` does to the files it writes and the streams it prints to:
//! it never harms what it does not convert (docs/output.md).
#![cfg(unix)]

use std::io::Read as _;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::*;

mod common;

use common::{corpus, markport};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("markport")
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A character device to write to: as root a private null device made with
/// mknod (so a regression cannot rename over the machine's /dev/null);
/// otherwise /dev/null itself, which a user cannot rename over.
fn null_device(dir: &Path) -> PathBuf {
    if !is_root() {
        return PathBuf::from("/dev/null");
    }
    let path = dir.join("null");
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid C string; mknod only creates a node.
    let rc = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) };
    assert_eq!(rc, 0, "mknod as root");
    path
}

#[test]
fn a_character_device_is_written_through_and_stays_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let null = null_device(dir.path());
    markport()
        .args(["convert", "--to", "json", "-o"])
        .arg(&null)
        .arg(corpus("xbel/nested.xbel"))
        .assert()
        .success();
    let m = std::fs::symlink_metadata(&null).unwrap();
    assert!(m.file_type().is_char_device(), "{null:?} was replaced");
    assert!(!names_in(dir.path()).iter().any(|n| n.contains("markport")));
}

#[test]
fn a_fifo_is_written_through_and_its_reader_gets_everything() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates a node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    markport()
        .args(["convert", "--to", "json", "-o"])
        .arg(&fifo)
        .arg(corpus("xbel/nested.xbel"))
        .assert()
        .success();
    let got = reader.join().unwrap();
    let expected = markport()
        .args(["convert", "--to", "json"])
        .arg(corpus("xbel/nested.xbel"))
        .output()
        .unwrap()
        .stdout;
    assert_eq!(got, expected);
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn a_symlink_is_followed_and_the_file_it_points_to_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.json");
    symlink("real.json", &link).unwrap();
    markport()
        .arg("convert")
        .arg(corpus("xbel/nested.xbel"))
        .arg("-o")
        .arg(&link)
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&real)
        .unwrap()
        .contains("\"markport\": 1"));
}

#[test]
fn dev_stdout_writes_to_standard_output_itself() {
    markport()
        .args(["convert", "--to", "json", "-o", "/dev/stdout"])
        .arg(corpus("xbel/nested.xbel"))
        .assert()
        .success()
        .stdout(predicate::str::contains("\"markport\": 1"));
}

#[test]
fn a_read_only_output_is_refused_for_a_user_who_could_not_write_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let target = dir.path().join("out.json");
    std::fs::write(&target, "old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o444)).unwrap();
    // Root may write any file (`>` would succeed), so the refusal is seen
    // by running as an ordinary user.
    let mut cmd = if is_root() {
        std::fs::set_permissions(
            dir.path().parent().unwrap(),
            std::fs::Permissions::from_mode(0o1777),
        )
        .ok();
        let mut c = Process::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin());
        c
    } else {
        Process::new(bin())
    };
    let input = dir.path().join("in.xbel");
    std::fs::copy(corpus("xbel/nested.xbel"), &input).unwrap();
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = cmd
        .arg("convert")
        .arg(&input)
        .arg("-o")
        .arg(&target)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Permission denied"));
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    assert_eq!(names_in(dir.path()), ["in.xbel", "out.json"]);
}

#[test]
fn a_report_file_that_collides_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let input = dir.path().join("in.xbel");
    std::fs::copy(corpus("xbel/nested.xbel"), &input).unwrap();
    let original = std::fs::read(&input).unwrap();
    let convert_reporting_to = |report: &Path| {
        markport()
            .arg("convert")
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .arg("--report-file")
            .arg(report)
            .assert()
            .code(2)
    };
    convert_reporting_to(&out).stderr(predicate::str::contains("is the output file"));
    // Same as the input, through a link.
    let link = dir.path().join("link.xbel");
    symlink(&input, &link).unwrap();
    convert_reporting_to(&link).stderr(predicate::str::contains("over the input file"));
    convert_reporting_to(&dir.path().join("no/such/dir/report.txt"))
        .stderr(predicate::str::contains("no directory"));
    // Standard output twice.
    markport()
        .arg("convert")
        .arg(&input)
        .args(["--to", "json", "--report-file", "-"])
        .assert()
        .code(2);
    assert!(!out.exists(), "an output was written before the refusal");
    assert_eq!(std::fs::read(&input).unwrap(), original);
    assert_eq!(names_in(dir.path()), ["in.xbel", "link.xbel"]);
}

#[test]
fn fail_on_loss_writes_nothing_and_keeps_the_old_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("strict.xbel");
    std::fs::write(&out, "previous").unwrap();
    markport()
        .arg("-v")
        .args(["convert", "--xbel-strict", "--fail-on-loss", "--to", "xbel"])
        .arg(corpus("xbel/markport-block.xbel"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("lost bookmark.tags"))
        .stderr(predicate::str::contains("nothing written"));
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    assert_eq!(names_in(dir.path()), ["strict.xbel"]);
    // Standard output gets nothing either: it is held until the decision.
    markport()
        .args(["convert", "--xbel-strict", "--fail-on-loss", "--to", "xbel"])
        .arg(corpus("xbel/markport-block.xbel"))
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty());
    markport()
        .args(["convert", "--fail-on-extension", "--to", "xbel"])
        .arg(corpus("xbel/markport-block.xbel"))
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty());
    // Without either flag it streams, and everything arrives.
    markport()
        .args(["convert", "--to", "xbel"])
        .arg(corpus("xbel/markport-block.xbel"))
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("</xbel>\n"));
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let big = tempfile::NamedTempFile::new().unwrap();
    // Large enough that the output does not fit in a pipe's buffer.
    let mut xbel = String::from("<xbel version=\"1.0\">");
    for i in 0..20_000 {
        xbel.push_str(&format!(
            "<bookmark href=\"https://example.org/{i}\"><title>t{i}</title></bookmark>"
        ));
    }
    xbel.push_str("</xbel>");
    std::fs::write(big.path(), xbel).unwrap();
    let runs: [&[&std::ffi::OsStr]; 3] = [
        &["formats".as_ref()],
        &[
            "convert".as_ref(),
            big.path().as_os_str(),
            "--to".as_ref(),
            "json".as_ref(),
        ],
        &["info".as_ref(), big.path().as_os_str()],
    ];
    for args in runs {
        let mut child = Process::new(bin())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, as `head -c1` does, then close the pipe.
        let mut stdout = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        let _ = stdout.read(&mut one);
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        use std::os::unix::process::ExitStatusExt;
        assert!(
            out.status.code() == Some(0) || out.status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {:?}",
            out.status
        );
    }
}

#[test]
fn a_closed_stdout_is_an_error_and_a_full_stderr_no_panic() {
    // The redirections need a shell; `$0` is the binary.
    let sh = |script: &str| {
        Process::new("sh")
            .arg("-c")
            .arg(script)
            .arg(bin())
            .output()
            .unwrap()
    };
    let out = sh("exec \"$0\" formats >&-");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output is closed"));
    let out = sh("exec \"$0\" convert /no/such/file.xbel 2>/dev/full");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = sh("exec \"$0\" formats >/dev/full");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("<stdout>"));
}

#[test]
fn sigterm_removes_the_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let fifo = dir.path().join("report");
    let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates a node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // The output's temporary file is made, then opening the report FIFO
    // waits for a reader that never comes: a moment to be interrupted in.
    let mut child = Process::new(bin())
        .arg("convert")
        .arg(corpus("xbel/nested.xbel"))
        .arg("-o")
        .arg(&out)
        .arg("--report-file")
        .arg(&fifo)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let temp = loop {
        if let Some(t) = names_in(dir.path())
            .into_iter()
            .find(|n| n.starts_with(".out.json.markport-") && n.ends_with(".tmp"))
        {
            break t;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
    assert!(!dir.path().join(temp).exists());
    assert_eq!(names_in(dir.path()), ["report"]);
}

#[test]
fn paths_need_not_be_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.xbel");
    let input = dir.path().join(name);
    std::fs::copy(corpus("xbel/nested.xbel"), &input).unwrap();
    let output = dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"caf\xe9.json"));
    markport()
        .arg("convert")
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .assert()
        .success();
    markport()
        .arg("diff")
        .arg(&input)
        .arg(&output)
        .assert()
        .success();
    markport().arg("info").arg(&output).assert().success();
}
