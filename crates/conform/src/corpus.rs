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

fn read_expected(path: &Path) -> Result<Document, Error> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display()), None))?;
    let json = format("json").expect("the json format is registered");
    read_bytes(&bytes, json, &ReadOptions::default())
        .map(|p| p.document)
        .map_err(|e| {
            Error::new(
                e.kind,
                format!("{}: {}", path.display(), e.message),
                e.location,
            )
        })
}

/// Every file under `dir` (not below) that has `NAME.expected.json` beside
/// it, sorted by name; expected files, notes (`.md`) and hidden files are
/// not cases.
pub fn cases_in(dir: &Path) -> Result<Vec<Case>, Error> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", dir.display()), None))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            !(name.ends_with(".expected.json") || name.ends_with(".md") || name.starts_with('.'))
        })
        .filter(|p| expected_path(p).is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path)
                .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display()), None))?;
            Ok(Case {
                name: path.display().to_string(),
                file_name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                bytes,
                expected: read_expected(&expected_path(&path))?,
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
