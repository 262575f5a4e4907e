//! The favorites walk over trees that hold what is not a link file: a FIFO,
//! a socket, links inside and outside, and directories deeper than the walk
//! keeps open at once.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use markport_favorites::read_path;
use markport_model::Parsed;

fn url(href: &str) -> String {
    format!("[InternetShortcut]\r\nURL={href}\r\n")
}

fn hrefs(parsed: &Parsed) -> Vec<String> {
    let doc = &parsed.document;
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark().map(|b| b.href.clone()))
        .collect()
}

fn warning_on<'a>(parsed: &'a Parsed, file: &str) -> &'a str {
    parsed
        .diagnostics
        .iter()
        .find(|d| d.file.as_deref() == Some(file))
        .map(|d| d.message.as_str())
        .unwrap_or_else(|| panic!("no warning on {file}: {:?}", parsed.diagnostics))
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid C string; mkfifo only makes the node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn fifos_sockets_and_links_out_are_skipped_with_their_names_and_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    fs::create_dir_all(root.join("In")).unwrap();
    fs::write(root.join("In/real.url"), url("https://real.example/")).unwrap();
    let outside = tmp.path().join("secret.url");
    fs::write(&outside, url("https://outside.example/")).unwrap();
    fs::create_dir(tmp.path().join("away")).unwrap();
    fs::write(
        tmp.path().join("away/x.url"),
        url("https://outside.example/dir"),
    )
    .unwrap();
    // No writer ever comes to this FIFO: opening it to read would wait.
    mkfifo(&root.join("fifo.url"));
    let _socket = std::os::unix::net::UnixListener::bind(root.join("socket.url")).unwrap();
    symlink(&outside, root.join("out.url")).unwrap();
    symlink(tmp.path().join("away"), root.join("Away")).unwrap();
    symlink("In/real.url", root.join("inside.url")).unwrap();
    symlink("nowhere.url", root.join("dangling.url")).unwrap();
    // The order list, when markport's, is read through the descriptor too:
    // a FIFO in its place is passed over.
    mkfifo(&root.join(markport_favorites::ORDER));

    let parsed = read_path(&root, &Default::default()).unwrap();
    let got = hrefs(&parsed);
    assert!(
        !got.iter().any(|h| h.contains("outside")),
        "read outside the tree: {got:?}"
    );
    assert_eq!(got, ["https://real.example/", "https://real.example/"]);
    assert!(warning_on(&parsed, "fifo.url").contains("not a file or a directory"));
    assert!(warning_on(&parsed, "socket.url").contains("not a file or a directory"));
    assert!(warning_on(&parsed, "out.url").contains("outside the tree"));
    assert!(warning_on(&parsed, "Away").contains("outside the tree"));
    assert!(warning_on(&parsed, "dangling.url").contains("leads nowhere"));
}

#[test]
fn a_tree_deeper_than_the_directories_kept_open_reads_whole() {
    // 150 levels of `d`, a link file at each level after its sub-directory
    // (read when the walk comes back up), and a link at the bottom to a
    // second chain of 100 elsewhere in the tree: the walk leaves it by a
    // way that is not its `..`.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    let mut here = root.clone();
    for i in 0..150 {
        here = here.join("d");
        fs::create_dir_all(&here).unwrap();
        fs::write(
            here.join(format!("z{i}.url")),
            url(&format!("https://d.example/{i}")),
        )
        .unwrap();
    }
    let mut other = root.join("other");
    for i in 0..100 {
        other = other.join("e");
        fs::create_dir_all(&other).unwrap();
        fs::write(
            other.join(format!("z{i}.url")),
            url(&format!("https://e.example/{i}")),
        )
        .unwrap();
    }
    symlink(root.join("other"), here.join("link")).unwrap();

    let parsed = read_path(&root, &Default::default()).unwrap();
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let got = hrefs(&parsed);
    // Through the link, then in its own place.
    assert_eq!(got.len(), 150 + 2 * 100, "{got:?}");
    let doc = &parsed.document;
    // Each bookmark is in its own folder: z{i} in the folder i+1 deep.
    for id in doc.preorder() {
        if let Some(b) = doc.node(id).as_bookmark() {
            let i: usize = b.href.rsplit('/').next().unwrap().parse().unwrap();
            let depth = std::iter::successors(doc.parent(id), |&p| doc.parent(p)).count();
            let extra = if b.href.contains("e.example") {
                // other/e/... , or d×150/link/e/...
                if depth > 101 {
                    151
                } else {
                    1
                }
            } else {
                0
            };
            assert_eq!(depth, i + 1 + extra, "{}", b.href);
        }
    }
}

/// A tree of 2,000 empty files named like link files (each a warning) and
/// 2,000 link files of a one-letter link: within a budget of its bytes it
/// reads, with the budget given small it is refused naming the file and
/// the flag.
#[test]
fn many_tiny_link_files_are_charged_against_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..2_000 {
        fs::write(dir.path().join(format!("e{i}.url")), "").unwrap();
        fs::write(dir.path().join(format!("l{i}.url")), url("a")).unwrap();
    }
    let read = read_path(dir.path(), &Default::default()).unwrap();
    assert_eq!(hrefs(&read).len(), 2_000);
    let mut small = markport_model::ReadOptions::default();
    small.memory_budget = Some(500_000);
    let e = read_path(dir.path(), &small).unwrap_err();
    assert_eq!(e.kind, markport_model::ErrorKind::Unsafe, "{e}");
    assert!(e.message.contains(".url: "), "{}", e.message);
    assert!(e.message.contains("--memory-budget"), "{}", e.message);
}
