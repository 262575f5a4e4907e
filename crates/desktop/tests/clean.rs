//! Cleaning a store in place: `remove`, `prune`, on real files.

use std::path::{Path, PathBuf};

use markport_desktop::spec::{
    last_use, local_file_state, prune_file, register, remove_from_file, update, FileState, Prune,
    Reason, Registration, UpdateOptions,
};
use markport_model::{Application, Bookmark, DateValue, Document, Node, ReadOptions, Timestamp};

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus/desktop")
            .join(name),
    )
    .unwrap()
}

fn read(path: &Path) -> Document {
    markport_desktop::read(&std::fs::read(path).unwrap(), &ReadOptions::default())
        .unwrap()
        .document
}

fn hrefs(doc: &Document) -> Vec<String> {
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark().map(|b| b.href.clone()))
        .collect()
}

fn at(text: &str) -> Timestamp {
    Timestamp::parse_w3c(text).unwrap()
}

/// The corpus store with one `<bookmark>` element cut out, as text: what
/// GLib's layout holds once that entry is gone.
fn without_item(text: &str, href: &str) -> String {
    let start = text.find(&format!("  <bookmark href=\"{href}\"")).unwrap();
    let end = start + text[start..].find("</bookmark>\n").unwrap() + "</bookmark>\n".len();
    format!("{}{}", &text[..start], &text[end..])
}

#[test]
fn remove_cuts_exactly_the_entries_asked_for_and_keeps_the_rest_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    let original = String::from_utf8(corpus("recently-used.xbel")).unwrap();
    std::fs::write(&file, &original).unwrap();
    // The same file named as people type it (a space, not %20), through
    // localhost, and one URI the store does not have.
    let asked = [
        "file://localhost/home/ana/Documents/report 2024.odt".to_owned(),
        "https://example.org/not-there".to_owned(),
    ];
    let done = remove_from_file(&file, &asked, Some(&UpdateOptions::default())).unwrap();
    assert_eq!(done.removed.len(), 1);
    assert_eq!(
        done.removed[0].href,
        "file:///home/ana/Documents/report%202024.odt"
    );
    assert_eq!(done.removed[0].reason, Reason::Asked);
    assert_eq!(done.absent, ["https://example.org/not-there"]);
    assert_eq!(done.left, 2);
    // GLib's layout, and every other entry byte for byte as it was.
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        without_item(&original, "file:///home/ana/Documents/report%202024.odt")
    );
}

#[test]
fn a_dry_run_or_a_clean_up_that_finds_nothing_leaves_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    // A KDE places file: folders and separators GLib would refuse, which a
    // rewrite would put in markport's XBEL layout.
    let file = dir.path().join("places.xbel");
    let original = corpus("kde-places.xbel");
    std::fs::write(&file, &original).unwrap();
    let nothing = Prune {
        missing: false,
        older_than: Some(at("1990-01-01")),
    };
    let done = prune_file(&file, &nothing, Some(&UpdateOptions::default())).unwrap();
    assert!(done.removed.is_empty());
    assert_eq!(std::fs::read(&file).unwrap(), original);
    // A dry run says what would go and changes nothing.
    let all = Prune {
        missing: false,
        older_than: Some(at("2999-01-01")),
    };
    let would = prune_file(&file, &all, None).unwrap();
    // Trash by its application's deprecated timestamp; Home has no date
    // at all and stays.
    let hrefs: Vec<&str> = would.removed.iter().map(|r| r.href.as_str()).collect();
    assert_eq!(hrefs, ["trash:/"]);
    assert_eq!(would.left, 1);
    assert_eq!(std::fs::read(&file).unwrap(), original);
    let would = remove_from_file(&file, &["file:///home/ana".to_owned()], None).unwrap();
    assert_eq!(would.removed.len(), 1);
    assert_eq!(std::fs::read(&file).unwrap(), original);
    // A store that does not exist is not created.
    let none = dir.path().join("none.xbel");
    let done = prune_file(&none, &all, Some(&UpdateOptions::default())).unwrap();
    assert_eq!((done.removed.len(), done.left), (0, 0));
    assert!(!none.exists());
}

#[test]
fn removing_from_a_kde_store_keeps_its_folders_and_separators() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("places.xbel");
    std::fs::write(&file, corpus("kde-places.xbel")).unwrap();
    let before = markport_xbel::read(&std::fs::read(&file).unwrap(), &ReadOptions::default())
        .unwrap()
        .document
        .census();
    let done = remove_from_file(
        &file,
        &["file:///home/ana".to_owned()],
        Some(&UpdateOptions::default()),
    )
    .unwrap();
    assert_eq!(done.removed.len(), 1);
    let after = markport_xbel::read(&std::fs::read(&file).unwrap(), &ReadOptions::default())
        .unwrap()
        .document;
    let census = after.census();
    assert_eq!(
        (census.folders, census.separators, census.bookmarks),
        (before.folders, before.separators, before.bookmarks - 1)
    );
    assert!(after.find_by_href("file:///home/ana").is_none());
}

#[cfg(unix)]
#[test]
fn prune_missing_removes_local_files_that_are_gone_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let store = root.join("recently-used.xbel");
    let here = root.join("here.txt");
    let gone = root.join("Résumé.jpg");
    let under_a_file = root.join("here.txt/inside.txt");
    let dangling = root.join("link.txt");
    std::fs::write(&here, "x").unwrap();
    std::fs::write(&gone, "x").unwrap();
    std::os::unix::fs::symlink(root.join("nowhere"), &dangling).unwrap();
    let paths: Vec<PathBuf> = vec![here.clone(), gone.clone(), under_a_file, dangling];
    let mut uris: Vec<String> = paths
        .iter()
        .map(|p| markport_desktop::spec::uri_for_path(p).unwrap())
        .collect();
    uris.push("https://example.org/a.pdf".into());
    uris.push("file://otherhost/tmp/x".into());
    update(&store, |doc| {
        for u in &uris {
            let r = Registration {
                uri: u.clone(),
                app: "eog".into(),
                ..Registration::default()
            };
            register(doc, &r, Timestamp::now())?;
        }
        Ok(())
    })
    .unwrap();
    std::fs::remove_file(&gone).unwrap();
    assert_eq!(local_file_state(&uris[0]), FileState::Present);
    assert_eq!(local_file_state(&uris[1]), FileState::Gone);
    assert_eq!(local_file_state(&uris[4]), FileState::Unknown);
    let p = Prune {
        missing: true,
        older_than: None,
    };
    let done = prune_file(&store, &p, Some(&UpdateOptions::default())).unwrap();
    let removed: Vec<&str> = done.removed.iter().map(|r| r.href.as_str()).collect();
    assert_eq!(removed, [&*uris[1], &*uris[2], &*uris[3]]);
    assert!(done.removed.iter().all(|r| r.reason == Reason::Missing));
    assert!(uris[1].ends_with("R%C3%A9sum%C3%A9.jpg"), "{}", uris[1]);
    assert_eq!(
        hrefs(&read(&store)),
        [uris[0].clone(), uris[4].clone(), uris[5].clone()]
    );
}

#[test]
fn prune_older_than_goes_by_the_last_use() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("recently-used.xbel");
    let original = String::from_utf8(corpus("recently-used.xbel")).unwrap();
    std::fs::write(&file, &original).unwrap();
    // report: 2024-03-04T16:30:12.25Z; café: 2024-03-02T10:00:00+01;
    // diary: 2024-03-03T08:00:00Z, which is not before the limit.
    let p = Prune {
        missing: false,
        older_than: Some(at("2024-03-03T08:00:00Z")),
    };
    let done = prune_file(&file, &p, Some(&UpdateOptions::default())).unwrap();
    assert_eq!(done.removed.len(), 1);
    let r = &done.removed[0];
    assert_eq!(r.href, "file:///home/ana/Pictures/caf%E9-latin1.png");
    assert_eq!(r.reason, Reason::Unused);
    assert!(r
        .last_use
        .unwrap()
        .same_instant(&at("2024-03-02T09:00:00Z")));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        without_item(&original, "file:///home/ana/Pictures/caf%E9-latin1.png")
    );
}

#[test]
fn the_last_use_is_the_latest_date_of_use_and_added_only_without_one() {
    let date = |s: &str| Some(DateValue::Instant(at(s)));
    let mut b = Bookmark::new("file:///a");
    b.added = date("2019-01-01T00:00:00Z");
    b.modified = date("2020-01-01T00:00:00Z");
    b.details_mut().visited = date("2024-05-01T00:00:00Z");
    let mut app = Application::new("eog", "eog %u");
    app.modified = date("2023-01-01T00:00:00Z");
    b.details_mut().desktop_mut().applications.push(app);
    assert!(last_use(&b)
        .unwrap()
        .same_instant(&at("2024-05-01T00:00:00Z")));
    b.details_mut().desktop_mut().applications[0].modified = date("2025-02-01T00:00:00Z");
    assert!(last_use(&b)
        .unwrap()
        .same_instant(&at("2025-02-01T00:00:00Z")));
    let mut only_added = Bookmark::new("file:///b");
    only_added.added = date("2019-01-01T00:00:00Z");
    assert!(last_use(&only_added)
        .unwrap()
        .same_instant(&at("2019-01-01T00:00:00Z")));
    // No date at all: GLib takes it as used when it loads the file, so it
    // is never older than anything.
    let mut doc = Document::new();
    doc.push(None, Bookmark::new("file:///c"));
    assert_eq!(
        last_use(doc.node(doc.children(None)[0]).as_bookmark().unwrap()),
        None
    );
    let done = markport_desktop::spec::prune(
        &mut doc,
        &Prune {
            missing: false,
            older_than: Some(Timestamp::now()),
        },
    );
    assert!(done.removed.is_empty());
    assert_eq!(doc.len(), 1);
    assert!(matches!(doc.node(doc.children(None)[0]), Node::Bookmark(_)));
}
