//! The crate as `cargo package` packs it for crates.io carries the corpus
//! its build embeds: a crate installed from the registry has no checkout
//! around it, so a file left out of the package is a case its users never
//! run. `cargo package --list` names the package's files without building
//! anything (under a second); CI's `package` phase then builds the
//! unpacked crate on its own.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

#[test]
fn the_packaged_crate_carries_every_file_of_the_embedded_corpus() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO"))
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .args(["-p", "markport-conform"])
        .current_dir(manifest)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo package --list: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = String::from_utf8(out.stdout).expect("UTF-8 paths");
    let packaged: BTreeSet<&str> = listed
        .lines()
        .filter_map(|l| l.strip_prefix("corpus/"))
        .collect();
    let embedded: BTreeSet<&str> = markport_conform::corpus::embedded_files()
        .iter()
        .map(|(name, _)| *name)
        .collect();
    // The corpus of every format and of the mistakes, not a few stray files.
    assert!(
        embedded.iter().any(|n| n.starts_with("mistakes/netscape/"))
            && embedded.iter().any(|n| n.starts_with("xbel/")),
        "{embedded:?}"
    );
    let missing: Vec<_> = embedded.difference(&packaged).collect();
    assert!(missing.is_empty(), "not in the package: {missing:?}");
    // corpus/check holds broken files for `markport check`, no cases.
    assert!(
        packaged.iter().all(|p| !p.starts_with("check/")),
        "{packaged:?}"
    );
}
