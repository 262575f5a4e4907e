//! A real Chromium (Debian's `chromium`, headless, through the project's
//! driver `tests/peers/chromium_bookmarks.py`) loads every corpus file markport
//! converts to `chromium` with the same titles, links, folders, order,
//! dates and ids (Chromium renumbers every id when ids are missing or not
//! unique); and the `Bookmarks` files Chromium itself writes read back in
//! markport with the same values, and markport computes the checksum
//! Chromium stored (Chromium 156 no longer renumbers a file whose checksum
//! is wrong, measured, so only that comparison checks markport's sum). Needs
//! only the repository: the inputs are the corpus samples. Runs under
//! CI=true (`.ci/setup.d` installs chromium); elsewhere skips, saying why,
//! when Chromium or Python is missing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use markport::model::{Document, Node, Role};
use markport::{ReadOptions, WriteOptions};
use markport_tests::{corpus_samples, peer_driver, read_sample, root, tool};
use serde_json::{json, Value};

/// One node as both sides show it, in document order: kind, the titles of
/// the folders above it (a root by its key, as Chromium names roots in its
/// own language), title, link, `dateAdded` in ms since 1970, id.
type Line = (
    &'static str,
    Vec<String>,
    String,
    String,
    Option<i64>,
    String,
);

/// The roots Chromium shows, by markport's role and Chromium's `folderType`.
const ROOTS: [(Role, &str, &str); 3] = [
    (Role::Toolbar, "bookmarks-bar", "bookmark_bar"),
    (Role::Unfiled, "other", "other"),
    (Role::Mobile, "mobile", "synced"),
];

/// The driver, when Chromium and Python are there (see [`tool`]).
fn chromium() -> Option<PathBuf> {
    (tool("python3", "the Chromium driver runs on Python")
        && tool("chromium", "loads and writes markport's Chromium files"))
    .then(|| peer_driver("chromium_bookmarks.py"))
}

/// Run the tool; its JSON answer (panics with the tool's words when it fails).
fn run(script: &Path, args: &[&Path]) -> Value {
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 runs");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "{:?}: {}{}",
            args,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(out.status.success(), "{args:?}: {answer}");
    answer
}

/// `jobs` run on a few threads at once: a Chromium run mostly waits.
fn parallel<T: Send, R: Send>(jobs: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let queue = Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| loop {
                let Some((i, job)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let r = f(job);
                results.lock().unwrap().push((i, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn ms(d: &Option<markport::model::DateValue>) -> Option<i64> {
    d.as_ref()
        .and_then(|d| d.instant())
        .map(|t| t.unix_seconds() * 1000 + i64::from(t.subsec_nanos() / 1_000_000))
}

/// markport's reading of a Chromium file, under the three roots Chromium
/// shows; and how many nodes sit under other roots (Vivaldi, Opera).
fn from_doc(doc: &Document) -> (Vec<Line>, usize) {
    let mut lines = Vec::new();
    let mut elsewhere = 0;
    for id in doc.preorder() {
        let mut path = Vec::new();
        let mut up = doc.parent(id);
        let mut top = id;
        while let Some(p) = up {
            path.push(folder_label(doc, p));
            top = p;
            up = doc.parent(p);
        }
        path.reverse();
        let shown = doc
            .node(top)
            .as_folder()
            .and_then(|f| f.role)
            .is_some_and(|r| ROOTS.iter().any(|(role, _, _)| *role == r));
        if !shown {
            elsewhere += 1;
            continue;
        }
        match doc.node(id) {
            Node::Bookmark(b) => lines.push((
                "url",
                path,
                b.title.clone().unwrap_or_default(),
                b.href.clone(),
                ms(&b.added),
                b.details().id.clone().unwrap_or_default(),
            )),
            Node::Folder(f) => lines.push((
                "folder",
                path,
                folder_label(doc, id),
                String::new(),
                ms(&f.added),
                f.id.clone().unwrap_or_default(),
            )),
            _ => {}
        }
    }
    (lines, elsewhere)
}

fn folder_label(doc: &Document, id: markport::model::NodeId) -> String {
    let f = doc.node(id).as_folder().expect("a parent is a folder");
    match ROOTS
        .iter()
        .find(|(r, _, _)| doc.parent(id).is_none() && f.role == Some(*r))
    {
        Some((_, _, key)) => format!("[{key}]"),
        None => f.title.clone().unwrap_or_default(),
    }
}

/// Chromium's `getTree()`, in the same shape.
fn from_chromium(tree: &Value) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut stack: Vec<(&Value, Vec<String>)> = tree[0]["children"]
        .as_array()
        .expect("a root with children")
        .iter()
        .rev()
        .map(|n| (n, Vec::new()))
        .collect();
    while let Some((n, path)) = stack.pop() {
        let title = match n["folderType"].as_str() {
            Some(t) => {
                let key = ROOTS.iter().find(|(_, ft, _)| *ft == t).map(|r| r.2);
                format!("[{}]", key.unwrap_or(t))
            }
            None => n["title"].as_str().unwrap_or("").to_string(),
        };
        let url = n["url"].as_str();
        lines.push((
            if url.is_some() { "url" } else { "folder" },
            path.clone(),
            title.clone(),
            url.unwrap_or("").to_string(),
            n["dateAdded"].as_f64().map(|d| d.floor() as i64),
            n["id"].as_str().unwrap_or("").to_string(),
        ));
        if let Some(children) = n["children"].as_array() {
            let mut inner = path;
            inner.push(title);
            stack.extend(children.iter().rev().map(|c| (c, inner.clone())));
        }
    }
    lines
}

/// What Chromium makes of a title (measured): a tab or line break becomes a
/// space.
fn chromium_title(title: &str) -> String {
    title.replace(['\t', '\n', '\r'], " ")
}

/// What Chromium makes of a link (measured): `None` for one that is not
/// absolute (Chromium drops the bookmark on load); otherwise the link in
/// canonical form, which Chromium's GURL gives as the WHATWG URL parser
/// does on every link of the corpus and the peer files (a lower-case scheme
/// and host, the default port left out, dot segments resolved, `/` for an
/// empty path of a web link, spaces and non-ASCII percent-encoded).
fn chromium_url(url: &str) -> Option<String> {
    url::Url::parse(url).ok().map(String::from)
}

/// The differences, line by line (both sides are in document order).
fn differences(name: &str, ours: &[Line], theirs: &[Line], out: &mut Vec<String>) {
    // Chromium shows the mobile root only when it holds something.
    let hidden = |l: &Line| l.1.is_empty() && l.2 == "[synced]";
    let ours: Vec<Line> = ours
        .iter()
        .filter(|l| !hidden(l) || theirs.iter().any(hidden))
        .cloned()
        .collect();
    // An unset date is Chromium's to fill (it shows none for `"0"`).
    let theirs: Vec<Line> = theirs
        .iter()
        .zip(ours.iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(t, o)| {
            let mut t = t.clone();
            if o.is_some_and(|o| o.4.is_none()) {
                t.4 = None;
            }
            t
        })
        .collect();
    if ours.len() != theirs.len() {
        out.push(format!(
            "{name}: markport {} nodes, Chromium {}",
            ours.len(),
            theirs.len()
        ));
    }
    for (o, t) in ours.iter().zip(&theirs) {
        if o != t {
            out.push(format!("{name}:\n  markport {o:?}\n  chromium {t:?}"));
        }
    }
}

/// Every corpus file, converted: (name, our Chromium file, markport's
/// reading of it).
fn converted(dir: &Path) -> Vec<(String, PathBuf, Document)> {
    let chromium = markport::format("chromium").unwrap();
    let mut out = Vec::new();
    for (format, path) in corpus_samples() {
        let doc = read_sample(&format, &path);
        let (bytes, _) = markport::write_to_vec(&doc, chromium, &WriteOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .strip_prefix(root().join("corpus"))
            .unwrap()
            .display()
            .to_string();
        let file = dir.join(name.replace('/', "_"));
        std::fs::write(&file, &bytes).unwrap();
        let ours = markport::read_bytes(&bytes, chromium, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name} as written: {e}"))
            .document;
        out.push((name, file, ours));
    }
    out
}

#[test]
fn chromium_loads_every_converted_corpus_file_without_repairing_it() {
    let Some(script) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let files = converted(dir.path());
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    let jobs: Vec<&Path> = files.iter().map(|(_, f, _)| f.as_path()).collect();
    let trees = parallel(jobs, |f| run(&script, &[Path::new("load"), f]));

    let mut failures = Vec::new();
    let mut elsewhere = 0;
    for ((name, _, ours), answer) in files.iter().zip(&trees) {
        let (lines, dropped) = from_doc(ours);
        let lines: Vec<Line> = lines
            .into_iter()
            .filter_map(|(kind, path, title, url, added, id)| {
                let url = if kind == "url" {
                    chromium_url(&url)?
                } else {
                    url
                };
                let path = path.iter().map(|t| chromium_title(t)).collect();
                Some((kind, path, chromium_title(&title), url, added, id))
            })
            .collect();
        elsewhere += dropped;
        differences(name, &lines, &from_chromium(&answer["tree"]), &mut failures);
    }
    eprintln!(
        "{} files loaded by {}; {elsewhere} nodes under roots Chromium does not show",
        files.len(),
        trees[0]["chromium"]
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A spec for the tool: the nodes under each root of a Chromium document.
fn spec(doc: &Document) -> Value {
    let mut out = json!({});
    // Not the mobile root: Chromium hides it while empty, and the extension
    // API cannot create anything in a root it does not show.
    for (role, _, key) in &ROOTS[..2] {
        let (role, key) = (*role, *key);
        let Some(&root) = doc
            .children(None)
            .iter()
            .find(|&&id| doc.node(id).as_folder().and_then(|f| f.role) == Some(role))
        else {
            continue;
        };
        // Built bottom-up: children before parents, so no recursion.
        let order: Vec<_> = doc
            .preorder()
            .filter(|&id| {
                let mut up = Some(id);
                while let Some(p) = up {
                    if p == root {
                        return true;
                    }
                    up = doc.parent(p);
                }
                false
            })
            .collect();
        let mut built: HashMap<markport::model::NodeId, Value> = HashMap::new();
        for &id in order.iter().rev() {
            let v = match doc.node(id) {
                Node::Bookmark(b) => {
                    json!({"title": b.title.clone().unwrap_or_default(), "url": b.href})
                }
                Node::Folder(f) => {
                    let children: Vec<Value> = doc
                        .children(Some(id))
                        .iter()
                        .filter_map(|c| built.remove(c))
                        .collect();
                    json!({"title": f.title.clone().unwrap_or_default(), "children": children})
                }
                _ => continue,
            };
            built.insert(id, v);
        }
        out[key] = built.remove(&root).unwrap()["children"].clone();
    }
    out
}

#[test]
fn markport_reads_what_chromium_writes_and_computes_its_checksum() {
    let Some(script) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let chromium = markport::format("chromium").unwrap();
    let files: Vec<_> = converted(dir.path())
        .into_iter()
        .filter(|(n, _, _)| {
            [
                "chromium/chrome-2024.Bookmarks",
                "xbel/unicode-entities.xbel",
                "netscape/firefox.html",
            ]
            .contains(&n.as_str())
        })
        .collect();
    assert_eq!(files.len(), 3);
    let jobs: Vec<(PathBuf, PathBuf)> = files
        .iter()
        .enumerate()
        .map(|(i, (_, _, doc))| {
            let mut s = spec(doc);
            // Beyond the BMP: two UTF-16 units in Chromium's checksum.
            s["other"]
                .as_array_mut()
                .unwrap()
                .push(json!({"title": "🔖 astral", "url": "https://example.org/%F0%9F%94%96"}));
            let (input, output) = (
                dir.path().join(format!("spec{i}.json")),
                dir.path().join(format!("written{i}")),
            );
            std::fs::write(&input, s.to_string()).unwrap();
            (input, output)
        })
        .collect();
    let answers = parallel(jobs.clone(), |(input, output)| {
        run(
            &script,
            &[Path::new("write"), &input, Path::new("-o"), &output],
        )
    });
    let mut failures = Vec::new();
    for (((name, _, doc), (_, written)), answer) in files.iter().zip(&jobs).zip(&answers) {
        let bytes = std::fs::read(written).unwrap();
        let back = markport::read_bytes(&bytes, chromium, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name}: Chromium's file: {e}"))
            .document;
        // Everything Chromium holds, markport reads: ids and dates too.
        let (theirs, _) = from_doc(&back);
        differences(
            name,
            &theirs,
            &from_chromium(&answer["tree"]),
            &mut failures,
        );
        // And what was asked for is there: titles, links, structure.
        let strip = |l: Vec<Line>| {
            l.into_iter()
                .map(|(k, p, t, u, _, _)| (k, p, t, u))
                .collect::<Vec<_>>()
        };
        let mut asked: Vec<_> = strip(from_doc(doc).0)
            .into_iter()
            .filter_map(|(k, p, t, u)| {
                let u = if k == "url" { chromium_url(&u)? } else { u };
                Some((k, p, chromium_title(&t), u))
            })
            .collect();
        asked.retain(|l| l.2 != "[synced]" && l.1.first().is_none_or(|r| r != "[synced]"));
        let end_of_other = asked
            .iter()
            .rposition(|l| l.2 == "[other]" || l.1.first().is_some_and(|r| r == "[other]"))
            .expect("the other root");
        asked.insert(
            end_of_other + 1,
            (
                "url",
                vec!["[other]".into()],
                "🔖 astral".into(),
                "https://example.org/%F0%9F%94%96".into(),
            ),
        );
        let mut got = strip(theirs);
        got.retain(|l| l.2 != "[synced]" && l.1.first().is_none_or(|r| r != "[synced]"));
        if asked != got {
            failures.push(format!("{name}: asked {asked:?}\n  Chromium wrote {got:?}"));
        }
        // markport's checksum of what it read is the one Chromium stored.
        let stored = serde_json::from_slice::<Value>(&bytes).unwrap()["checksum"].clone();
        let (ours, _) = markport::write_to_vec(&back, chromium, &WriteOptions::default()).unwrap();
        let computed = serde_json::from_slice::<Value>(&ours).unwrap()["checksum"].clone();
        if stored != computed {
            failures.push(format!(
                "{name}: Chromium's checksum {stored}, markport's {computed}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
