//! Publishing into a directory while another publish runs, and keeping the
//! directory's own permissions: the site at `DIR` is always one whole site,
//! and a re-published directory keeps its mode, group and setgid bit.

use std::path::Path;

use markport_model::{Bookmark, Document, Folder};
use markport_publish::{build, publish, File, Options, MANIFEST};

fn site(title: &str, folders: usize) -> Vec<File> {
    let mut doc = Document::new();
    doc.header.title = Some(title.into());
    for i in 0..folders {
        let f = doc.push(None, Folder::titled(format!("{title} {i}")));
        let mut b = Bookmark::new(format!("https://example.org/{title}/{i}"));
        b.tags = vec![format!("tag{i}")];
        doc.push(Some(f), b);
    }
    build(&doc, &Options::default()).files
}

/// The site at `dir` is exactly one of `sites`, every file present.
fn whole_one_of(dir: &Path, sites: &[&[File]]) -> bool {
    let Ok(manifest) = std::fs::read(dir.join(MANIFEST)) else {
        return false;
    };
    sites.iter().any(|files| {
        let listed: serde_json::Value = serde_json::from_slice(&manifest).unwrap();
        listed["files"].as_array().unwrap().len() == files.len()
            && files
                .iter()
                .all(|f| std::fs::read(dir.join(&f.path)).ok().as_deref() == Some(&f.bytes[..]))
    })
}

#[test]
fn two_publishes_at_once_leave_one_whole_site() {
    let a = site("A", 60);
    let b = site("B", 40);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("site");
    for round in 0..10 {
        std::thread::scope(|s| {
            let one = s.spawn(|| publish(&a, &dir));
            let two = s.spawn(|| publish(&b, &dir));
            one.join().unwrap().unwrap();
            two.join().unwrap().unwrap();
        });
        assert!(
            dir.join("index.html").is_file(),
            "round {round}: no index.html"
        );
        assert!(whole_one_of(&dir, &[&a, &b]), "round {round}: not whole");
    }
    // Nothing is left beside the site but its lock file.
    let mut left: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["site", "site.markport-lock"]);
}

#[cfg(unix)]
#[test]
fn republishing_keeps_the_directory_mode_group_and_setgid_bit() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let files = site("A", 3);
    for mode in [0o700, 0o2775, 0o750] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("site");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode)).unwrap();
        // Another group than the one new directories get, where allowed.
        let gid = std::fs::metadata(&dir).unwrap().gid();
        let other = if gid == 0 { 100 } else { gid };
        let _ = std::os::unix::fs::chown(&dir, None, Some(other));
        let want_gid = std::fs::metadata(&dir).unwrap().gid();
        for _ in 0..2 {
            publish(&files, &dir).unwrap();
            let m = std::fs::metadata(&dir).unwrap();
            assert_eq!(
                m.mode() & 0o7777,
                mode,
                "mode {mode:o} became {:o}",
                m.mode() & 0o7777
            );
            assert_eq!(m.gid(), want_gid, "the group of a {mode:o} site");
            if mode & 0o2000 != 0 {
                // The setgid bit gives every file the directory's group.
                let index = std::fs::metadata(dir.join("index.html")).unwrap();
                assert_eq!(index.gid(), want_gid);
            }
        }
    }
}
