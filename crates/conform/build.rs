//! Compiles the project's corpus into the crate, so that an installed
//! `markport conformance` has its cases without a checkout: every file under
//! `corpus/` (the format folders and `corpus/mistakes/`), except
//! `corpus/check/` (broken files for `markport check`, no cases),
//! `corpus/merge3/` (three-way merge cases, no samples of a format) and hidden
//! files.
//!
//! The crate's own `corpus` is a link to the repository's `corpus/`, which
//! `cargo package` packs as the files it points at: a published crate reads
//! its copy there. A checkout whose link is no directory (git without
//! symbolic links checks one out as a small text file) reads
//! `../../corpus`. With neither, the build fails rather than ship a
//! conformance tool with no cases.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = [manifest.join("corpus"), manifest.join("../../corpus")]
        .into_iter()
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| {
            panic!(
                "no corpus: neither {0}/corpus nor {0}/../../corpus is a directory",
                manifest.display()
            )
        });
    // Directories are listed too: adding a file changes its folder's
    // modification time, which is what makes cargo run this again.
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    files.sort();
    let mut out =
        String::from("/// The corpus's files: (path under `corpus/`, bytes), sorted by path.\n");
    out.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (name, path) in &files {
        let _ = writeln!(
            out,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let dest =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("embedded.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// Every file below `dir` (an explicit stack: no recursion on the tree's depth).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        println!("cargo:rerun-if-changed={}", dir.display());
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .expect("below the root")
                .to_string_lossy()
                .replace('\\', "/");
            // corpus/merge3/ holds merge cases, not samples of a format.
            if rel == "check" || rel == "merge3" {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                println!("cargo:rerun-if-changed={}", path.display());
                files.push((rel, path.canonicalize().unwrap_or(path)));
            }
        }
    }
}
