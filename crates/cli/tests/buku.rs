//! buku's database, made by the real `buku` (PyPI, installed by
//! `.ci/setup.d/conformance.sh`): `markport convert` finds it by content and
//! reads every bookmark as buku itself lists it (`buku -p --json`), its
//! immutable titles as buku finds them (`buku -S immutable --json`), and
//! leaves the file as it was. Without buku the test says so and passes,
//! except under `CI=true`. A damaged or foreign database is exit 2 with the
//! file named.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A buku whose database lives in `home` (buku keeps it in
/// `$XDG_DATA_HOME/buku/bookmarks.db`), without prompts or colours.
fn buku(home: &Path) -> Command {
    let mut cmd = Command::new("buku");
    cmd.env("XDG_DATA_HOME", home)
        .env("HOME", home)
        .args(["--nostdin", "--np", "--nc"]);
    cmd
}

/// Whether buku runs; prints why the test is skipped, and panics under CI.
fn available(home: &Path) -> bool {
    let ok = buku(home)
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI=true but buku is not installed (.ci/setup.d/conformance.sh)");
        }
        eprintln!("skipped: buku is not installed (pip install buku; .ci/setup.d/conformance.sh)");
    }
    ok
}

/// Run buku with `args`; it must succeed.
fn run(home: &Path, args: &[&str]) -> Vec<u8> {
    let out = buku(home).args(args).output().unwrap();
    assert!(out.status.success(), "buku {args:?}: {out:?}");
    out.stdout
}

/// buku's JSON listing (`-p` or a search) as `index -> record`.
fn listing(home: &Path, args: &[&str]) -> Vec<Value> {
    let out = run(home, args);
    serde_json::from_slice::<Value>(&out)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// The bookmarks the buku of this test makes: tags with a space and
/// capitals (buku lowercases them), a description with a comma and one on
/// two lines, a bookmark without title, tags or description, non-ASCII
/// everywhere, two immutable titles, and a deleted one (its index is
/// given to the last, as buku does).
fn make(home: &Path) -> PathBuf {
    let add = |url: &str, rest: &[&str]| {
        let mut args = vec!["--offline", "-a", url];
        args.extend_from_slice(rest);
        run(home, &args);
    };
    add(
        "https://www.rust-lang.org/",
        &[
            "Rust,Systems Programming",
            "--title",
            "Rust",
            "-c",
            "A language, fast",
            "--immutable",
            "1",
        ],
    );
    add("https://example.org/no-title?q=a&b=c", &["--title"]);
    add("https://example.org/gone", &["--title", "Gone"]);
    add(
        "https://例え.jp/パス",
        &[
            "日本語,reading",
            "--title",
            "Ünïcode – title",
            "-c",
            "two\nlines",
        ],
    );
    add(
        "https://example.com/locked",
        &["--title", "Locked <title> & more", "--immutable", "1"],
    );
    run(home, &["-d", "3", "--tacit"]);
    home.join("buku/bookmarks.db")
}

fn markport_json(db: &Path) -> Value {
    let out = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args(["convert", "--to", "json"])
        .arg(db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_database_the_real_buku_made_reads_as_buku_lists_it() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    if !available(home) {
        return;
    }
    let db = make(home);
    let before = std::fs::read(&db).unwrap();
    let modified = std::fs::metadata(&db).unwrap().modified().unwrap();

    let info = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .args(["info", "--json"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(info.status.success(), "{info:?}");
    let info: Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(info["format"], "buku", "found by content");

    let doc = markport_json(&db);
    let nodes = doc["nodes"].as_array().unwrap();
    let listed = listing(home, &["-p", "-j"]);
    let immutable: Vec<u64> = listing(home, &["-S", "immutable", "-j"])
        .iter()
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    assert_eq!(
        listed.len(),
        4,
        "buku lists what it was given, less the deleted one"
    );
    assert_eq!(immutable.len(), 2);
    assert_eq!(nodes.len(), listed.len());
    for (node, record) in nodes.iter().zip(&listed) {
        let index = record["index"].as_u64().unwrap();
        assert_eq!(node["type"], "bookmark");
        assert_eq!(node["id"], index.to_string());
        assert_eq!(node["href"], record["uri"]);
        // buku lists a missing title or description as "".
        assert_eq!(node["title"].as_str().unwrap_or(""), record["title"]);
        assert_eq!(node["desc"].as_str().unwrap_or(""), record["description"]);
        let tags: Vec<&str> = node["tags"]
            .as_array()
            .map(|t| t.iter().map(|t| t.as_str().unwrap()).collect())
            .unwrap_or_default();
        assert_eq!(tags.join(","), record["tags"].as_str().unwrap());
        let extra = node["extra"].as_array().cloned().unwrap_or_default();
        let locked = extra
            .iter()
            .any(|a| a["name"] == "immutable" && a["value"] == "1");
        assert_eq!(locked, immutable.contains(&index), "record {index}");
    }

    // Read in place: the file is as it was and nothing was made beside it.
    assert_eq!(std::fs::read(&db).unwrap(), before);
    assert_eq!(
        std::fs::metadata(&db).unwrap().modified().unwrap(),
        modified
    );
    let beside: Vec<_> = std::fs::read_dir(db.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside, ["bookmarks.db"]);
}

#[test]
fn a_damaged_or_foreign_database_is_exit_2_with_the_file_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bookmarks.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE bookmarks (id integer PRIMARY KEY, URL text NOT NULL UNIQUE,
           metadata text default '', tags text default ',', desc text default '',
           flags integer default 0);
         INSERT INTO bookmarks (URL) VALUES ('https://example.org/');",
    )
    .unwrap();
    drop(conn);
    let bytes = std::fs::read(&db).unwrap();
    let markport = || Command::new(assert_cmd::cargo::cargo_bin("markport"));

    // Cut in the middle of a page: found by content still, refused by the
    // header check with the byte counts.
    let cut = dir.path().join("cut.db");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let out = markport()
        .args(["convert", "--to", "json"])
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cut.db") && err.contains("half-written"),
        "{err}"
    );

    // Another program's SQLite file, read as buku: says what it lacks.
    let other = dir.path().join("other.db");
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE notes (id integer, body text);")
        .unwrap();
    drop(conn);
    let out = markport()
        .args(["convert", "--from", "buku", "--to", "json"])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("other.db") && err.contains("no `bookmarks` table"),
        "{err}"
    );
}

/// What a run of `markport` left behind and said: its exit code, its
/// standard error, and every file it held open in `tmp` outside its own
/// private directories (`.markport-…`), seen through `/proc` while it ran
/// (SQLite removes its temporary files from the directory as soon as it
/// makes them, so only the open descriptors show them).
#[cfg(target_os = "linux")]
fn watched(mut cmd: Command, tmp: &Path) -> (Option<i32>, String, Vec<String>) {
    use std::time::{Duration, Instant};
    let mut child = cmd
        .env("TMPDIR", tmp)
        .env("SQLITE_TMPDIR", tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let fds = PathBuf::from(format!("/proc/{}/fd", child.id()));
    let private = tmp.join(".markport-");
    let start = Instant::now();
    let mut outside = Vec::new();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("markport still runs after 60 s: {cmd:?}");
        }
        for fd in std::fs::read_dir(&fds).into_iter().flatten().flatten() {
            if let Ok(target) = std::fs::read_link(fd.path()) {
                let text = target.to_string_lossy();
                if target.starts_with(tmp) && !text.starts_with(&*private.to_string_lossy()) {
                    outside.push(text.into_owned());
                }
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (status.code(), err, outside)
}

/// The database of issue 30: `bookmarks` a view over a query that never
/// ends, buku's `CREATE TABLE` in another table's default on the first
/// page. It hung `markport convert` (SQLite's temporary files growing
/// without end); now it is refused at once, whichever way it is opened,
/// and nothing is left in `$TMPDIR`.
#[cfg(target_os = "linux")]
#[test]
fn a_view_over_an_endless_query_is_refused_at_once_leaving_nothing_in_tmpdir() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hostile.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE decoy (x TEXT DEFAULT 'CREATE TABLE bookmarks (id integer PRIMARY KEY,
           URL text NOT NULL UNIQUE, metadata text, tags text, desc text, flags integer)');
         CREATE VIEW bookmarks AS
           WITH RECURSIVE c(id, URL, metadata, tags, desc, flags) AS (
             SELECT 1, 'https://e.example/', 't', ',a,', '', 0
             UNION ALL SELECT id + 1, URL || id, metadata, tags, desc, flags FROM c)
           SELECT * FROM c;",
    )
    .unwrap();
    drop(conn);
    let markport = || {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("markport"));
        cmd.args(["convert", "--to", "json"]);
        cmd
    };
    let wal = dir.path().join("hostile.db-wal");
    // Found by content: not buku's (its statement is no schema entry), so
    // the places reader, which claims any SQLite file, says what it is not.
    // Named buku: the view is refused, opened in place, as a private copy
    // (a -wal beside it), and from a pipe (copied as it arrives).
    let cases: [(&str, &[&str], bool, &str); 4] = [
        (
            "found",
            &[],
            false,
            "no moz_bookmarks table (tables: decoy)",
        ),
        (
            "in place",
            &["--from", "buku"],
            false,
            "`bookmarks` is a view",
        ),
        ("copied", &["--from", "buku"], true, "`bookmarks` is a view"),
        ("piped", &["--from", "buku"], false, "`bookmarks` is a view"),
    ];
    for (how, args, with_wal, says) in cases {
        let tmp = tempfile::tempdir().unwrap();
        if with_wal {
            std::fs::write(&wal, b"").unwrap();
        }
        let mut cmd = markport();
        cmd.args(args);
        if how == "piped" {
            cmd.arg("/dev/stdin")
                .stdin(std::fs::File::open(&db).unwrap());
        } else {
            cmd.arg(&db);
        }
        let start = Instant::now();
        let (code, err, outside) = watched(cmd, tmp.path());
        let took = start.elapsed();
        let _ = std::fs::remove_file(&wal);
        assert_eq!(code, Some(2), "{how}: {err}");
        assert!(err.contains(says), "{how}: {err}");
        assert!(took < Duration::from_secs(20), "{how}: took {took:?}");
        assert!(outside.is_empty(), "{how}: files in TMPDIR: {outside:?}");
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "{how}: left in TMPDIR: {left:?}");
    }
}
