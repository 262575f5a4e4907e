//! A database upload (places.sqlite) needs a file on disk: its copy is
//! owner-only and gone when the request ends, whatever the answer. In a
//! test binary of its own, since it sets `TMPDIR` for the process.

mod common;

use common::{config, corpus, start};

#[test]
fn a_database_uploads_copy_is_removed_after_each_request() {
    let tmp = std::env::temp_dir().join(format!("markport-serve-private-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // SAFETY (edition 2021: a safe call): set before any thread of this
    // test binary reads the environment.
    std::env::set_var("TMPDIR", &tmp);
    assert_eq!(std::env::temp_dir(), tmp);
    let s = start(config(|_| {}));
    let places = corpus("places/firefox-esr.sqlite");
    let a = s.post(
        "/api/convert",
        &[("places.sqlite", &places)],
        &[("to", "xbel")],
        &[],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.text().contains("<bookmark "));
    // A database cut short fails to read: its copy goes all the same.
    let a = s.post(
        "/api/convert",
        &[("places.sqlite", &places[..places.len() / 2])],
        &[("to", "xbel"), ("from", "places")],
        &[],
    );
    assert!((400..500).contains(&a.status), "{} {}", a.status, a.text());
    let a = s.post("/api/info", &[("places.sqlite", &places)], &[], &[]);
    assert_eq!(a.status, 200);
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    std::fs::remove_dir(&tmp).unwrap();
}
