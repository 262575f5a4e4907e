//! `private::remove_all` as a signal handler uses it: the hooks run first,
//! while the directories are still there, then every directory goes and no
//! new one is made. Its own test binary, since it closes the registry for
//! the rest of the process.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use markport_files::private::{before_remove_all, remove_all, PrivateDir};

static SEEN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static DIR_THERE_IN_HOOK: AtomicBool = AtomicBool::new(false);
static LATE_HOOK_RAN: AtomicBool = AtomicBool::new(false);

fn hook() {
    let seen = SEEN.lock().unwrap();
    DIR_THERE_IN_HOOK.store(seen.iter().all(|p| p.exists()), Ordering::SeqCst);
}

fn late_hook() {
    LATE_HOOK_RAN.store(true, Ordering::SeqCst);
}

#[test]
fn hooks_run_first_then_every_directory_goes_and_none_is_made_after() {
    before_remove_all(hook);
    let dir = PrivateDir::new().unwrap();
    let sub = dir.create_dir("case-0").unwrap();
    std::fs::write(sub.join("copy"), b"data").unwrap();
    SEEN.lock()
        .unwrap()
        .extend([dir.path().to_path_buf(), sub.clone()]);

    remove_all();
    assert!(DIR_THERE_IN_HOOK.load(Ordering::SeqCst));
    assert!(!sub.exists() && !dir.path().exists());
    assert!(dir.create_dir("case-1").is_err());
    assert!(PrivateDir::new().is_err());
    // A hook registered after the removal runs at once: what it stops
    // must not start.
    before_remove_all(late_hook);
    assert!(LATE_HOOK_RAN.load(Ordering::SeqCst));
    drop(dir);
}
