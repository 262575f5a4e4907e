//! The leftovers of dead runs, cleaned as the next run finds them: private
//! copies in TMPDIR, outputs' temporary files, trees' staging directories
//! and locks (`leftovers` with `tree`'s rules, as a writer calls it).

use std::fs;
use std::path::Path;

use crate::leftovers::{clean_beside, clean_private, dead_pid};

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
    clean_beside(d, Some("site"), &crate::tree::RULES);
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
    clean_beside(dir.path(), None, &crate::tree::RULES);
    assert!(path.exists(), "another user's file was removed");
}
