//! What a signal handler's `remove_temporaries` does: every temporary of the
//! process goes, and none is made after (its own process: it closes the
//! registries for good).

use std::io::Write;

use markport_files::output::OutputFile;
use markport_files::private::PrivateDir;
use markport_files::tree::{self, File};

#[test]
fn remove_temporaries_removes_every_kind_and_makes_none_after() {
    let tmp = tempfile::tempdir().unwrap();
    let files = vec![File {
        path: "a.url".into(),
        bytes: b"[InternetShortcut]\r\nURL=https://example.org/\r\n".to_vec(),
    }];
    let staged = tree::stage(&files, &tmp.path().join("tree")).unwrap();
    let staging = staged.path().to_owned();
    // An old tree swapped out and not yet removed.
    tree::publish(&files, &tmp.path().join("site")).unwrap();
    let replaced = tree::stage(&files, &tmp.path().join("site"))
        .unwrap()
        .swap()
        .unwrap();
    let old = replaced.path().unwrap().to_owned();
    let mut out = OutputFile::create(&tmp.path().join("out.html")).unwrap();
    out.write_all(b"half").unwrap();
    let private = PrivateDir::new().unwrap();
    let copy = private.path().to_owned();
    assert!(staging.is_dir() && old.is_dir() && copy.is_dir());
    assert!(markport_files::temporaries_exist());

    markport_files::remove_temporaries();

    assert!(!staging.exists(), "the staging directory is left");
    assert!(!old.exists(), "the old tree is left");
    assert!(!copy.exists(), "the private copy is left");
    assert!(!markport_files::temporaries_exist());
    let left: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") || n.contains(".markport-tmp-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Nothing new while the process exits, and nothing made again.
    assert!(tree::stage(&files, &tmp.path().join("later")).is_err());
    assert!(OutputFile::create(&tmp.path().join("later.html")).is_err());
    assert!(PrivateDir::new().is_err());
    assert!(staged.swap().is_err());
    assert!(!staging.exists());
    assert!(!tmp.path().join("tree").exists());
    drop((replaced, out, private));
    assert!(
        tmp.path().join("site/a.url").is_file(),
        "the new site stays"
    );
}
