//! Reading places databases made here with rusqlite, on Firefox's schema:
//! every field, the roots, the tags, a live database's pending WAL frames,
//! and the refusals (not SQLite, not places, truncated).

mod schema;

use std::collections::BTreeMap;
use std::path::Path;

use markport_model::{Bookmark, Document, ErrorKind, Folder, Node, ReadOptions, Role};
use rusqlite::Connection;
use schema::{anno, item, place, places, tag, T0};

fn opts() -> ReadOptions {
    ReadOptions::default()
}

/// A database holding one of everything the reader maps.
fn sample(conn: &Connection) {
    places(conn);
    let ddg = place(conn, "https://duckduckgo.com/?q=%s", Some(T0 + 5_000_000));
    let b = item(
        conn,
        1,
        Some(ddg),
        2,
        0,
        Some("DuckDuckGo"),
        T0 + 123_456,
        "ddgddgddgddg",
    );
    conn.execute(
        "INSERT INTO moz_keywords (keyword, place_id, post_data) VALUES ('ddg', ?1, 'q=%s')",
        [ddg],
    )
    .unwrap();
    anno(
        conn,
        b,
        "bookmarkProperties/description",
        "Search without tracking",
    );
    anno(conn, b, "bookmarkProperties/loadInSidebar", "1");
    tag(conn, ddg, "search");
    tag(conn, ddg, "privacy");
    item(conn, 3, None, 2, 1, None, T0, "separator001");
    let news = item(conn, 2, None, 3, 0, Some("News"), T0, "newsnewsnews");
    anno(
        conn,
        news,
        "bookmarkProperties/description",
        "Daily reading",
    );
    let guardian = place(conn, "https://www.theguardian.com/", None);
    item(
        conn,
        1,
        Some(guardian),
        news,
        0,
        Some("The Guardian"),
        T0,
        "guardian0001",
    );
    let recent = place(conn, "place:sort=8&maxResults=10", None);
    item(
        conn,
        1,
        Some(recent),
        3,
        1,
        Some("Most Visited"),
        T0,
        "mostvisited1",
    );
    let phone = place(conn, "https://m.example.org/", None);
    item(conn, 1, Some(phone), 6, 0, None, 0, "phonephone01");
}

fn db_bytes(make: impl FnOnce(&Connection)) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let conn = Connection::open(&path).unwrap();
    make(&conn);
    drop(conn);
    std::fs::read(path).unwrap()
}

fn bookmarks(doc: &Document) -> Vec<&Bookmark> {
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .collect()
}

fn top_folders(doc: &Document) -> Vec<&Folder> {
    doc.children(None)
        .iter()
        .filter_map(|id| doc.node(*id).as_folder())
        .collect()
}

#[test]
fn every_field_firefox_keeps_is_read() {
    let bytes = db_bytes(sample);
    assert_eq!(markport_places::detect(&bytes), Some(100));
    let parsed = markport_places::read(&bytes, &opts()).unwrap();
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let doc = &parsed.document;

    // The roots, by guid, without the places root and the tags root.
    let roots: Vec<_> = top_folders(doc)
        .iter()
        .map(|f| {
            (
                f.title.as_deref().unwrap(),
                f.role,
                f.guid.as_deref().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        roots,
        [
            ("menu", Some(Role::Menu), "menu________"),
            ("toolbar", Some(Role::Toolbar), "toolbar_____"),
            ("unfiled", Some(Role::Unfiled), "unfiled_____"),
            ("mobile", Some(Role::Mobile), "mobile______"),
        ]
    );

    let all = bookmarks(doc);
    let hrefs: Vec<&str> = all.iter().map(|b| b.href.as_str()).collect();
    assert_eq!(
        hrefs,
        [
            "https://duckduckgo.com/?q=%s",
            "https://www.theguardian.com/",
            "place:sort=8&maxResults=10",
            "https://m.example.org/"
        ]
    );
    let ddg = all[0];
    assert_eq!(ddg.title.as_deref(), Some("DuckDuckGo"));
    assert_eq!(ddg.desc.as_deref(), Some("Search without tracking"));
    assert_eq!(ddg.tags, ["search", "privacy"]);
    let d = ddg.details();
    assert_eq!(d.firefox().keyword.as_deref(), Some("ddg"));
    assert_eq!(d.firefox().post_data.as_deref(), Some("q=%s"));
    assert_eq!(d.guid.as_deref(), Some("ddgddgddgddg"));
    assert_eq!(d.extra.len(), 1, "{:?}", d.extra);
    assert_eq!(d.extra[0].name, "bookmarkProperties/loadInSidebar");
    // Microseconds since 1970, kept to the microsecond.
    let added = ddg.added.as_ref().unwrap().instant().unwrap();
    assert_eq!(added.unix_seconds(), 1_700_000_000);
    assert_eq!(added.subsec_nanos(), 123_456_000);
    let visited = d.visited.as_ref().unwrap().instant().unwrap();
    assert_eq!(visited.unix_seconds(), 1_700_000_005);
    let modified = ddg.modified.as_ref().unwrap().instant().unwrap();
    assert_eq!(modified.unix_seconds(), 1_700_000_001);

    // Folders keep their description; the separator is where it was.
    let news = doc
        .preorder()
        .filter_map(|id| doc.node(id).as_folder())
        .find(|f| f.title.as_deref() == Some("News"))
        .unwrap();
    assert_eq!(news.desc.as_deref(), Some("Daily reading"));
    let menu = doc.children(None)[0];
    let kinds: Vec<_> = doc
        .children(Some(menu))
        .iter()
        .map(|id| matches!(doc.node(*id), Node::Separator(_)))
        .collect();
    assert_eq!(kinds, [false, true]);
    // An untitled bookmark stays untitled; date 0 is no date.
    let phone = all[3];
    assert_eq!((phone.title.as_deref(), phone.added.as_ref()), (None, None));
}

#[test]
fn a_database_before_firefox_39_keeps_keywords_on_the_bookmark() {
    let bytes = db_bytes(|conn| {
        places(conn);
        conn.execute_batch(
            "DROP TABLE moz_keywords;
             CREATE TABLE moz_keywords (id INTEGER PRIMARY KEY AUTOINCREMENT, keyword TEXT UNIQUE);
             INSERT INTO moz_keywords (id, keyword) VALUES (7, 'wp');",
        )
        .unwrap();
        let wp = place(conn, "https://en.wikipedia.org/wiki/%s", None);
        let b = item(
            conn,
            1,
            Some(wp),
            2,
            0,
            Some("Wikipedia"),
            T0,
            "wikipedia001",
        );
        conn.execute("UPDATE moz_bookmarks SET keyword_id = 7 WHERE id = ?1", [b])
            .unwrap();
    });
    let doc = markport_places::read(&bytes, &opts()).unwrap().document;
    assert_eq!(
        bookmarks(&doc)[0].details().firefox().keyword.as_deref(),
        Some("wp")
    );
}

#[test]
fn orphans_go_to_other_bookmarks_and_cycles_are_skipped_with_warnings() {
    let bytes = db_bytes(|conn| {
        places(conn);
        let a = place(conn, "https://orphan.example/", None);
        item(conn, 1, Some(a), 999, 0, Some("orphan"), T0, "orphan000001");
        // Two folders that are each other's parent.
        conn.execute_batch(
            "INSERT INTO moz_bookmarks (id, type, parent, position, title, guid)
               VALUES (50, 2, 51, 0, 'a', 'cyclecycle50'), (51, 2, 50, 0, 'b', 'cyclecycle51');",
        )
        .unwrap();
    });
    let parsed = markport_places::read(&bytes, &opts()).unwrap();
    let doc = &parsed.document;
    let unfiled = doc.children(None)[2];
    assert_eq!(
        doc.node(unfiled).as_folder().unwrap().role,
        Some(Role::Unfiled)
    );
    let kids = doc.children(Some(unfiled));
    assert_eq!(doc.node(kids[0]).title(), Some("orphan"));
    let messages: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("1 items have a parent")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("2 items are in a cycle")),
        "{messages:?}"
    );
    let mut strict = opts();
    strict.strict = true;
    assert_eq!(
        markport_places::read(&bytes, &strict).unwrap_err().kind,
        ErrorKind::Strict
    );
}

#[test]
fn a_hundred_thousand_folders_deep_read_without_recursion() {
    const DEPTH: i64 = 100_000;
    let bytes = db_bytes(|conn| {
        places(conn);
        conn.execute_batch("BEGIN").unwrap();
        let mut parent = 2;
        for i in 0..DEPTH {
            parent = item(
                conn,
                2,
                None,
                parent,
                0,
                Some("f"),
                T0,
                &format!("d{i:011}"),
            );
        }
        let bottom = place(conn, "https://deep.example/", None);
        item(
            conn,
            1,
            Some(bottom),
            parent,
            0,
            Some("bottom"),
            T0,
            "bottombottom",
        );
        conn.execute_batch("COMMIT").unwrap();
    });
    let doc = markport_places::read(&bytes, &opts()).unwrap().document;
    let census = doc.census();
    assert_eq!((census.bookmarks, census.depth), (1, DEPTH as usize + 1));
}

#[test]
fn an_sqlite_file_that_is_not_places_is_refused_naming_its_tables() {
    let bytes = db_bytes(|conn| {
        conn.execute_batch("CREATE TABLE cookies (name TEXT); CREATE TABLE logins (u TEXT);")
            .unwrap();
    });
    assert_eq!(markport_places::detect(&bytes), Some(20));
    let err = markport_places::read(&bytes, &opts()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
    assert!(
        err.message.contains("not Firefox's places") && err.message.contains("cookies, logins"),
        "{}",
        err.message
    );
    let err = markport_places::read(b"just text", &opts()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::WrongFormat);
}

#[test]
fn truncated_and_damaged_databases_fail_cleanly() {
    let bytes = db_bytes(sample);
    for cut in [0, 50, 100, 1000, 4096, bytes.len() / 2, bytes.len() - 4096] {
        let err = markport_places::read(&bytes[..cut], &opts()).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::Syntax | ErrorKind::WrongFormat),
            "cut at {cut}: {err:?}"
        );
        if cut >= 16 {
            assert!(
                err.message.contains("truncated"),
                "cut at {cut}: {}",
                err.message
            );
        }
    }
    // Whole pages of garbage where the tables are: SQLite says so, markport
    // says it is damaged, nothing panics.
    let mut damaged = bytes.clone();
    for b in &mut damaged[4096..] {
        *b = 0x5a;
    }
    let err = markport_places::read(&damaged, &opts()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Syntax, "{err:?}");
    assert!(err.message.contains("damaged"), "{}", err.message);
}

/// Every file in `dir` with its bytes and modification time.
fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, std::time::SystemTime)> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let path = e.path();
            (
                e.file_name().to_string_lossy().into_owned(),
                (
                    std::fs::read(&path).unwrap(),
                    e.metadata().unwrap().modified().unwrap(),
                ),
            )
        })
        .collect()
}

#[test]
fn a_live_database_is_read_with_its_pending_wal_frames_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let firefox = Connection::open(&path).unwrap();
    // As Firefox keeps it: WAL, exclusive locking (no -shm on disk), and
    // the newest changes not yet checkpointed into the database file.
    firefox
        .execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA wal_autocheckpoint = 0;",
        )
        .unwrap();
    places(&firefox);
    firefox
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
    let fresh = place(&firefox, "https://pending.example/", None);
    item(
        &firefox,
        1,
        Some(fresh),
        3,
        0,
        Some("pending"),
        T0,
        "pendingpendi",
    );
    let wal = dir.path().join("places.sqlite-wal");
    assert!(
        std::fs::metadata(&wal).unwrap().len() > 0,
        "the test keeps frames in the WAL"
    );

    let before = snapshot(dir.path());
    let live = markport_places::read_path(&path, &opts()).unwrap().document;
    assert_eq!(
        snapshot(dir.path()),
        before,
        "the profile's files are untouched"
    );
    assert_eq!(bookmarks(&live)[0].title.as_deref(), Some("pending"));

    // The database file alone (bytes) has the roots but not the pending bookmark.
    let bytes = std::fs::read(&path).unwrap();
    let alone = markport_places::read(&bytes, &opts()).unwrap().document;
    assert_eq!((top_folders(&alone).len(), bookmarks(&alone).len()), (4, 0));
    drop(firefox);
}

#[test]
fn a_closed_database_is_opened_immutable_in_place_creating_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch("PRAGMA journal_mode = WAL;").unwrap();
    sample(&conn);
    drop(conn); // a clean close checkpoints and removes the -wal
    let before = snapshot(dir.path());
    assert_eq!(before.len(), 1, "{:?}", before.keys());
    let doc = markport_places::read_path(&path, &opts()).unwrap().document;
    assert_eq!(bookmarks(&doc).len(), 4);
    assert_eq!(snapshot(dir.path()), before, "no -wal or -shm was made");
}

#[test]
fn a_truncated_file_on_disk_names_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let bytes = db_bytes(sample);
    std::fs::write(&path, &bytes[..bytes.len() - 4096]).unwrap();
    let err = markport_places::read_path(&path, &opts()).unwrap_err();
    assert!(err.message.contains("truncated"), "{}", err.message);
}

#[test]
fn an_empty_wal_still_means_a_copy_and_the_profile_stays_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let conn = Connection::open(&path).unwrap();
    sample(&conn);
    drop(conn);
    std::fs::write(dir.path().join("places.sqlite-wal"), b"").unwrap();
    let before = snapshot(dir.path());
    let doc = markport_places::read_path(&path, &opts()).unwrap().document;
    assert_eq!(bookmarks(&doc).len(), 4);
    assert_eq!(snapshot(dir.path()), before);
}

/// `<(cat places.sqlite)`: a path that is a pipe, readable once, with no
/// companions; its bytes are copied privately and read.
#[cfg(target_os = "linux")]
#[test]
fn a_pipe_path_as_process_substitution_gives_is_read() {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let bytes = db_bytes(sample);
    let (reader, mut writer) = std::io::pipe().unwrap();
    let feeder = std::thread::spawn(move || writer.write_all(&bytes).unwrap());
    let path = std::path::PathBuf::from(format!("/dev/fd/{}", reader.as_raw_fd()));
    let doc = markport_places::read_path(&path, &opts()).unwrap().document;
    feeder.join().unwrap();
    assert_eq!(bookmarks(&doc).len(), 4);
    drop(reader);
}

/// A database of one place whose link is `len` bytes, under `n` bookmarks.
fn shared_link(len: usize, n: i64) -> Vec<u8> {
    let long = format!("https://example.org/{}", "x".repeat(len));
    db_bytes(|conn| {
        schema::places(conn);
        conn.execute(
            "INSERT INTO moz_places (id, url, guid) VALUES (100, ?1, 'place_100___')",
            [&long],
        )
        .unwrap();
        for i in 0..n {
            conn.execute(
                "INSERT INTO moz_bookmarks (id, type, fk, parent, position, title, guid) \
                 VALUES (?1, 1, 100, 3, ?2, 'b', ?3)",
                rusqlite::params![1000 + i, i, format!("bookmark{i:04}")],
            )
            .unwrap();
        }
    })
}

/// One place whose link is 1 MB, under 300 bookmarks: each bookmark gets
/// its own copy of the link (300 MB from a file of about 1 MB). The read
/// is refused within its budget, naming the bookmark and the flag; a
/// smaller such file reads whole within its own, and not within less.
#[test]
fn one_long_link_under_many_bookmarks_is_charged_for_each() {
    let file = shared_link(1 << 20, 300);
    assert!(file.len() < 2 << 20, "{} bytes", file.len());
    let e = markport_places::read(&file, &opts()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe, "{e}");
    assert!(e.message.contains("bookmark id"), "{}", e.message);
    assert!(e.message.contains("--memory-budget"), "{}", e.message);

    let file = shared_link(100_000, 100);
    let doc = markport_places::read(&file, &opts()).unwrap().document;
    assert_eq!(bookmarks(&doc).len(), 100);
    let mut small = opts();
    small.memory_budget = Some(5_000_000);
    let e = markport_places::read(&file, &small).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsafe, "{e}");
}
