//! The cases a run goes through: corpus files with the model expected of
//! them, and generated large cases.

use std::path::{Path, PathBuf};

use markport::{format, read_bytes, write_to_vec, Bookmark, Document, Folder, Format};
use markport_model::{DateValue, Error, ErrorKind, ReadOptions, Timestamp, WriteOptions};

/// One input for the tool and the model a perfect reader finds in it.
#[derive(Debug)]
pub struct Case {
    /// How reports name it: the file's path as found, or `large-N`.
    pub name: String,
    /// The file name the tool's copy gets (tools may look at the extension).
    pub file_name: String,
    /// The input's bytes.
    pub bytes: Vec<u8>,
    /// What the input holds.
    pub expected: Document,
}

/// The model beside a sample: `NAME.expected.json` for `NAME.EXT`.
pub fn expected_path(sample: &Path) -> PathBuf {
    let stem = sample.file_stem().unwrap_or_default().to_string_lossy();
    sample.with_file_name(format!("{stem}.expected.json"))
}

/// The name of the model beside the sample named `name` (a path with `/`).
fn expected_name(name: &str) -> String {
    let (dir, file) = name.rsplit_once('/').unwrap_or(("", name));
    let stem = match file.rfind('.') {
        Some(at) if at > 0 => &file[..at],
        _ => file,
    };
    if dir.is_empty() {
        format!("{stem}.expected.json")
    } else {
        format!("{dir}/{stem}.expected.json")
    }
}

fn read_expected(name: &str, bytes: &[u8]) -> Result<Document, Error> {
    let json = format("json").expect("the json format is registered");
    read_bytes(bytes, json, &ReadOptions::default())
        .map(|p| p.document)
        .map_err(|e| Error::new(e.kind, format!("{name}: {}", e.message), e.location))
}

/// Whether a file named `file_name` can be a case: not an expected model,
/// a note or a hidden file.
fn may_be_a_case(file_name: &str) -> bool {
    !(file_name.ends_with(".expected.json")
        || file_name.ends_with(".md")
        || file_name.starts_with('.'))
}

/// The corpus compiled into the program: every file under the project's
/// `corpus/` but `corpus/check/`, as (path under `corpus/`, bytes), sorted.
pub fn embedded_files() -> &'static [(&'static str, &'static [u8])] {
    mod compiled {
        include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
    }
    compiled::FILES
}

/// The folders of a corpus that hold the cases of `format`: its samples
/// (`FORMAT/`) and the cases of common mistakes (`mistakes/FORMAT/`).
fn folders_of(format: &str) -> [String; 2] {
    [format.to_owned(), format!("mistakes/{format}")]
}

/// The cases of `format` compiled into the program, named by their path
/// under `corpus/` (`netscape/chrome.html`, `mistakes/netscape/tag-case.html`).
pub fn embedded_cases(format: &str) -> Result<Vec<Case>, Error> {
    let folders = folders_of(format);
    let files: Vec<(&str, &[u8])> = embedded_files()
        .iter()
        .filter(|(name, _)| {
            name.rsplit_once('/')
                .is_some_and(|(dir, _)| folders.iter().any(|f| f == dir))
        })
        .map(|&(n, b)| (n, b))
        .collect();
    let lookup: std::collections::HashMap<&str, &[u8]> = files.iter().copied().collect();
    let mut cases = Vec::new();
    for &(name, bytes) in &files {
        let file_name = name.rsplit_once('/').map_or(name, |(_, f)| f);
        if !may_be_a_case(file_name) {
            continue;
        }
        let Some(expected) = lookup.get(expected_name(name).as_str()) else {
            continue;
        };
        cases.push(Case {
            name: name.to_owned(),
            file_name: file_name.to_owned(),
            bytes: bytes.to_vec(),
            expected: read_expected(&expected_name(name), expected)?,
        });
    }
    Ok(cases)
}

/// The cases of `format` under a corpus laid out as the project's (`root`
/// holds `FORMAT/` and `mistakes/FORMAT/`), named by their path under `root`.
pub fn cases_under(root: &Path, format: &str) -> Result<Vec<Case>, Error> {
    let mut cases = Vec::new();
    for folder in folders_of(format) {
        let dir = root.join(&folder);
        if !dir.is_dir() {
            continue;
        }
        for mut case in cases_in(&dir)? {
            case.name = format!("{folder}/{}", case.name);
            cases.push(case);
        }
    }
    Ok(cases)
}

/// Write the compiled-in cases of `format` (samples and mistakes, each
/// with its expected model, and the notes of the mistakes) into `dir`, side
/// by side, so that `--corpus DIR` runs them; how many cases were written.
pub fn export(format: &str, dir: &Path) -> Result<usize, Error> {
    let io = |path: &Path, e: std::io::Error| {
        Error::new(ErrorKind::Io, format!("{}: {e}", path.display()), None)
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let folders = folders_of(format);
    let mut written = std::collections::HashMap::new();
    let mut cases = 0;
    for &(name, bytes) in embedded_files() {
        let Some((folder, file_name)) = name.rsplit_once('/') else {
            continue;
        };
        if !folders.iter().any(|f| f == folder) {
            continue;
        }
        // The notes of each folder keep their folder's name.
        let target = if file_name.ends_with(".md") {
            format!("{}-{file_name}", folder.replace('/', "-"))
        } else {
            file_name.to_owned()
        };
        if let Some(first) = written.insert(target.clone(), name) {
            return Err(Error::new(
                ErrorKind::Io,
                format!("{name} and {first} would both be {target}: rename one in corpus/"),
                None,
            ));
        }
        let path = dir.join(&target);
        std::fs::write(&path, bytes).map_err(|e| io(&path, e))?;
        if may_be_a_case(file_name)
            && embedded_files()
                .iter()
                .any(|(n, _)| *n == expected_name(name))
        {
            cases += 1;
        }
    }
    Ok(cases)
}

/// Every file in `dir` (not below) that has `NAME.expected.json` beside
/// it, sorted by name and named by it; expected files, notes (`.md`) and
/// hidden files are not cases.
pub fn cases_in(dir: &Path) -> Result<Vec<Case>, Error> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", dir.display()), None))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| may_be_a_case(&p.file_name().unwrap_or_default().to_string_lossy()))
        .filter(|p| expected_path(p).is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let io = |p: &Path, e: std::io::Error| {
                Error::new(ErrorKind::Io, format!("{}: {e}", p.display()), None)
            };
            let bytes = std::fs::read(&path).map_err(|e| io(&path, e))?;
            let expected_path = expected_path(&path);
            let expected = std::fs::read(&expected_path).map_err(|e| io(&expected_path, e))?;
            let file_name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            Ok(Case {
                name: file_name.clone(),
                file_name,
                bytes,
                expected: read_expected(&expected_path.display().to_string(), &expected)?,
            })
        })
        .collect()
}

/// A generated collection of `n` bookmarks (folders of 100, two levels,
/// with titles, links, descriptions, tags and dates), written as `from` by
/// markport; what it holds is what markport reads back from those bytes.
pub fn large(n: usize, from: &Format) -> Result<Case, Error> {
    let mut doc = Document::new();
    let base = 1_700_000_000;
    let mut folder = None;
    let mut group = None;
    for i in 0..n {
        if i % 1000 == 0 {
            group = Some(doc.push(None, Folder::titled(format!("Group {}", i / 1000))));
        }
        if i % 100 == 0 {
            folder = Some(doc.push(group, Folder::titled(format!("Folder {}", i / 100))));
        }
        let mut b = Bookmark::new(format!("https://example.org/large/{i}?q={i}"))
            .with_title(format!("Bookmark {i}"));
        if i % 3 == 0 {
            b.desc = Some(format!("About bookmark {i}"));
        }
        if i % 2 == 0 {
            b.tags = vec![format!("t{}", i % 7), "large".into()];
        }
        b.added = Timestamp::from_unix_seconds(base + i as i64).map(DateValue::Instant);
        doc.push(folder, b);
    }
    let (bytes, _) = write_to_vec(&doc, from, &WriteOptions::default())?;
    let expected = read_bytes(&bytes, from, &ReadOptions::default())?.document;
    let ext = default_extension(from);
    Ok(Case {
        name: format!("large-{n}"),
        file_name: format!("large-{n}.{ext}"),
        bytes,
        expected,
    })
}

/// The extension a file of `format` gets when nothing says otherwise.
pub fn default_extension(format: &Format) -> &'static str {
    match format.name {
        "desktop" => "xbel",
        "chromium" => "json",
        _ => format.extensions.first().copied().unwrap_or("out"),
    }
}

/// The name of a fresh output file of `format`, for the case `stem`.
pub fn output_name(stem: &str, format: &Format) -> String {
    match format.name {
        "chromium" => "Bookmarks".to_owned(),
        _ => format!("{stem}.{}", default_extension(format)),
    }
}
