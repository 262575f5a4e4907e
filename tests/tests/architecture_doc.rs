//! docs/architecture.md's crate table is the workspace: every member with
//! its directory and package name, in a row, and no row for a crate that
//! is gone. A crate added, renamed or moved fails this test until the
//! table says so.

use std::collections::BTreeSet;

/// `(directory, package)` of every workspace member, from the root
/// Cargo.toml's `members` and each member's `[package] name`.
fn members() -> BTreeSet<(String, String)> {
    let root = markport_tests::root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let list = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the workspace lists its members");
    list.split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|dir| {
            let text = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
            let name = text
                .lines()
                .skip_while(|l| l.trim() != "[package]")
                .find_map(|l| l.trim().strip_prefix("name = "))
                .unwrap_or_else(|| panic!("{dir} has a package name"))
                .trim_matches('"')
                .to_string();
            (dir.trim_end_matches('/').to_string(), name)
        })
        .collect()
}

/// `(directory, package)` of every row of the table: a line in the first
/// code block that starts with a directory and names a package.
fn rows() -> BTreeSet<(String, String)> {
    let doc = std::fs::read_to_string(markport_tests::root().join("docs/architecture.md")).unwrap();
    let block = doc
        .split("```")
        .nth(1)
        .expect("the table is the first code block");
    block
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let dir = words.next()?.trim_end_matches('/');
            let package = words.next()?;
            package
                .starts_with("markport")
                .then(|| (dir.to_string(), package.to_string()))
        })
        .collect()
}

#[test]
fn the_crate_table_is_the_workspace() {
    let (members, rows) = (members(), rows());
    assert!(members.len() > 10, "{members:?}");
    let missing: Vec<_> = members.difference(&rows).collect();
    let stale: Vec<_> = rows.difference(&members).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "docs/architecture.md's crate table differs from the workspace:\n  members with no row: {missing:?}\n  rows of no member: {stale:?}"
    );
}
