//! A ZIP reader for exports that come as archives (Pocket's
//! `part_*.csv` ZIP, Safari's exported `Bookmarks.html`), safe on hostile
//! input.
//!
//! An export ZIP is read, never extracted: entries are inflated into memory
//! by name, and nothing is written to disk. What a hostile archive could do
//! to such a reader is bounded by [`Limits`]:
//!
//! - the number of entries;
//! - the bytes one entry inflates to, and all entries together, counted as
//!   they inflate: an entry's declared size is never trusted, neither to
//!   stop early nor to size a buffer;
//! - the ratio of inflated to compressed bytes, the mark of a ZIP bomb;
//! - entry names: `..` components, absolute paths (`/x`, `C:\x`,
//!   `\\server\x`), backslashes used as separators and NUL bytes make the
//!   whole archive refused, because a name that means something else to an
//!   extracting tool is a trick, not an export;
//! - entries whose bytes overlap (two central-directory records pointing at
//!   one local header, or into another entry's data): one compressed part
//!   listed 2,000 times would read as 2,000 parts, a bomb of entries rather
//!   than of bytes. The archive is refused naming two of them.
//!
//! Of two entries with one name, the later is read (as `unzip` leaves it);
//! [`Archive::repeated`] lists such names with where each copy is, so a
//! reader can say what it did not read.
//!
//! Only stored and deflated entries are read (the `zip` crate is built with
//! deflate alone); encrypted entries are refused. Every error names the
//! entry and says why.
//!
//! ```
//! use std::io::Write;
//! use markport_files::archive::{Archive, Limits};
//!
//! // An archive as an export would have it.
//! let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
//! let options = zip::write::SimpleFileOptions::default();
//! zip.start_file("part_000000.csv", options).unwrap();
//! zip.write_all(b"title,url\nA,https://a.example/\n").unwrap();
//! let bytes = zip.finish().unwrap().into_inner();
//!
//! assert!(markport_files::archive::is_zip(&bytes));
//! let mut archive = Archive::open(&bytes, Limits::default()).unwrap();
//! assert_eq!(archive.names(), ["part_000000.csv"]);
//! let part = archive.read("part_000000.csv").unwrap();
//! assert!(part.starts_with(b"title,url\n"));
//! assert!(archive.read("missing.csv").unwrap_err().to_string().contains("missing.csv"));
//! ```

use std::fmt;
use std::io::{Cursor, Read};

use zip::result::ZipError;
use zip::{CompressionMethod, ZipArchive};

/// How much a reader lets one archive make it do.
///
/// The defaults fit real exports with a wide margin (Pocket mails parts of
/// about 10,000 rows, a few MB each) and stop a bomb after a megabyte of
/// inflation or two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most entries (files and directories) the archive may list.
    pub max_entries: usize,
    /// Most bytes one entry may inflate to.
    pub max_entry_size: u64,
    /// Most bytes all entries read from this archive may inflate to
    /// together (an entry read twice counts twice).
    pub max_total_size: u64,
    /// Most inflated bytes per compressed byte of an entry, checked once the
    /// entry has inflated past [`Limits::ratio_floor`].
    pub max_ratio: u64,
    /// Inflated bytes an entry may reach before its ratio is checked: a tiny
    /// entry of repeated text compresses far better than any bomb needs to,
    /// and is harmless.
    pub ratio_floor: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entries: 10_000,
            max_entry_size: 512 << 20,
            max_total_size: 2 << 30,
            max_ratio: 200,
            ratio_floor: 1 << 20,
        }
    }
}

/// Why an archive or one of its entries was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveError {
    /// The entry the error is about, when it is about one.
    pub entry: Option<String>,
    /// What is wrong, in words.
    pub reason: String,
}

impl ArchiveError {
    fn archive(reason: impl Into<String>) -> Self {
        ArchiveError {
            entry: None,
            reason: reason.into(),
        }
    }

    fn entry(name: &str, reason: impl Into<String>) -> Self {
        ArchiveError {
            entry: Some(name.to_string()),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.entry {
            Some(name) => write!(f, "ZIP entry {name:?}: {}", self.reason),
            None => write!(f, "ZIP archive: {}", self.reason),
        }
    }
}

impl std::error::Error for ArchiveError {}

/// Whether `bytes` begin as a ZIP archive does: a local file header, or the
/// end record of an empty archive.
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// A name the central directory lists more than once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepeatedName {
    /// The name.
    pub name: String,
    /// Each record's place in the central directory, from 1, in order: the
    /// last is the one read.
    pub entries: Vec<usize>,
    /// Each record's local header offset in the archive, in the same order.
    pub offsets: Vec<u64>,
}

/// An opened archive over bytes in memory, whose entry names have all been
/// checked.
pub struct Archive<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
    limits: Limits,
    /// Names the central directory lists more than once.
    repeated: Vec<RepeatedName>,
    /// Names of the file entries, in the archive's order.
    names: Vec<String>,
    /// Each file entry's index in the archive, by name: a reader of every
    /// part of a 10,000-entry archive must not search the list each time.
    index: std::collections::HashMap<String, usize>,
    /// Bytes inflated so far, over every read.
    inflated: u64,
    /// Length of the whole archive, the most any entry can really hold
    /// compressed whatever its header says.
    len: u64,
}

impl fmt::Debug for Archive<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Archive")
            .field("names", &self.names)
            .field("limits", &self.limits)
            .finish()
    }
}

impl<'a> Archive<'a> {
    /// Open the archive in `bytes`, checking its entry count and every entry
    /// name. Nothing is inflated yet.
    pub fn open(bytes: &'a [u8], limits: Limits) -> Result<Self, ArchiveError> {
        let zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| ArchiveError::archive(why(e)))?;
        if zip.len() > limits.max_entries {
            return Err(ArchiveError::archive(format!(
                "{} entries, more than the {} this reader accepts",
                zip.len(),
                limits.max_entries
            )));
        }
        let repeated = check_records(bytes, &zip, limits)?;
        let mut names = Vec::new();
        let mut index_of = std::collections::HashMap::new();
        for index in 0..zip.len() {
            let entry = zip
                .by_index_data(index)
                .map_err(|e| ArchiveError::archive(format!("entry {index}: {}", why(e))))?;
            let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
            check_name(&name)?;
            if entry.is_symlink() {
                return Err(ArchiveError::entry(&name, "is a symbolic link"));
            }
            if !entry.is_dir() {
                index_of.insert(name.clone(), index);
                names.push(name);
            }
        }
        Ok(Archive {
            zip,
            limits,
            repeated,
            names,
            index: index_of,
            inflated: 0,
            len: bytes.len() as u64,
        })
    }

    /// The names of the file entries (directories left out), in the order
    /// the archive lists them, each once: of two entries with one name the
    /// zip crate keeps the later, as Python's zipfile and unzip do, so an
    /// exporter that repeats a name (Omnivore's `content/` pages) reads.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The names the central directory lists more than once, in the order
    /// first met, each with where its copies are (of which only the last is
    /// read).
    pub fn repeated(&self) -> &[RepeatedName] {
        &self.repeated
    }

    /// Inflate the entry `name` into memory within the [`Limits`].
    pub fn read(&mut self, name: &str) -> Result<Vec<u8>, ArchiveError> {
        let index = *self
            .index
            .get(name)
            .ok_or_else(|| ArchiveError::entry(name, "is not in the archive"))?;
        let limits = self.limits;
        let already = self.inflated;
        let len = self.len;
        let mut entry = self
            .zip
            .by_index(index)
            .map_err(|e| ArchiveError::entry(name, why(e)))?;
        if entry.encrypted() {
            return Err(ArchiveError::entry(name, "is encrypted"));
        }
        match entry.compression() {
            CompressionMethod::Stored | CompressionMethod::Deflated => {}
            other => {
                return Err(ArchiveError::entry(
                    name,
                    format!("uses compression {other:?}; only stored and deflate are read"),
                ))
            }
        }
        // What the entry can really hold compressed: never more than the
        // archive, whatever its header claims.
        let compressed = entry.compressed_size().min(len).max(1);
        let mut out = Vec::with_capacity(entry.size().min(1 << 20) as usize);
        let mut chunk = vec![0u8; 64 << 10];
        loop {
            let n = match entry.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(ArchiveError::entry(
                        name,
                        format!("at inflated byte {}: {e}", out.len()),
                    ))
                }
            };
            out.extend_from_slice(&chunk[..n]);
            let size = out.len() as u64;
            if size > limits.max_entry_size {
                return Err(ArchiveError::entry(
                    name,
                    format!(
                        "inflates past {} bytes, the most one entry may hold",
                        limits.max_entry_size
                    ),
                ));
            }
            if already + size > limits.max_total_size {
                return Err(ArchiveError::entry(
                    name,
                    format!(
                        "takes the archive past {} inflated bytes, the most it may hold",
                        limits.max_total_size
                    ),
                ));
            }
            if size > limits.ratio_floor && size / compressed > limits.max_ratio {
                return Err(ArchiveError::entry(
                    name,
                    format!(
                        "inflates more than {}-fold ({compressed} compressed bytes gave {size} \
                         and counting): a ZIP bomb",
                        limits.max_ratio
                    ),
                ));
            }
        }
        self.inflated += out.len() as u64;
        Ok(out)
    }
}

/// One record of the central directory, as the bytes have it (the `zip`
/// crate keeps one record a name, so repeated names and records sharing
/// data are found here).
struct Record<'b> {
    name: &'b [u8],
    /// The local header's offset in `bytes`.
    start: u64,
    /// Where the entry's compressed data ends, at the least.
    end: u64,
}

fn le16(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn le32(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_le_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}

fn le64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// Walk every record of the central directory: refuse more records than
/// [`Limits::max_entries`] and records whose entries overlap (naming two of
/// them); list the names given more than once. Linear in the records, but
/// for one sort.
fn check_records(
    bytes: &[u8],
    zip: &ZipArchive<Cursor<&[u8]>>,
    limits: Limits,
) -> Result<Vec<RepeatedName>, ArchiveError> {
    let offset = zip.offset();
    let mut records: Vec<Record<'_>> = Vec::new();
    let mut at = usize::try_from(zip.central_directory_start()).unwrap_or(usize::MAX);
    while bytes.get(at..at + 4) == Some(b"PK\x01\x02") {
        if records.len() == limits.max_entries {
            return Err(ArchiveError::archive(format!(
                "more than {} entries, the most this reader accepts",
                limits.max_entries
            )));
        }
        let broken = || {
            ArchiveError::archive(format!(
                "a central directory record at byte {at} is cut short"
            ))
        };
        let field = |rel: usize| le32(bytes, at + rel).ok_or_else(broken);
        let (mut compressed, mut start) = (field(20)?, field(42)?);
        let uncompressed = field(24)?;
        let name_len = le16(bytes, at + 28).ok_or_else(broken)? as usize;
        let extra_len = le16(bytes, at + 30).ok_or_else(broken)? as usize;
        let comment_len = le16(bytes, at + 32).ok_or_else(broken)? as usize;
        let name = bytes.get(at + 46..at + 46 + name_len).ok_or_else(broken)?;
        let extra = bytes
            .get(at + 46 + name_len..at + 46 + name_len + extra_len)
            .ok_or_else(broken)?;
        // ZIP64: the sizes and offset that do not fit are in extra field 1,
        // in this order, each only when its own field is all ones.
        let mut e = 0;
        while e + 4 <= extra.len() {
            let (id, len) = (
                le16(extra, e).unwrap_or(0),
                le16(extra, e + 2).unwrap_or(0) as usize,
            );
            if id == 1 {
                let mut f = e + 4;
                let mut wide = |full: u64| {
                    if full != 0xFFFF_FFFF {
                        return full;
                    }
                    let value = le64(extra, f).unwrap_or(full);
                    f += 8;
                    value
                };
                let _ = wide(uncompressed);
                compressed = wide(compressed);
                start = wide(start);
                break;
            }
            e += 4 + len;
        }
        let start = start.saturating_add(offset);
        // The local header's own name and extra field, when it is where the
        // record says; else the record's (the read fails there anyway).
        let local = usize::try_from(start).unwrap_or(usize::MAX);
        let header = match (
            le16(bytes, local.saturating_add(26)),
            le16(bytes, local.saturating_add(28)),
        ) {
            (Some(n), Some(x)) if bytes.get(local..local + 4) == Some(b"PK\x03\x04") => 30 + n + x,
            _ => 30 + name_len as u64,
        };
        records.push(Record {
            name,
            start,
            end: start.saturating_add(header).saturating_add(compressed),
        });
        at += 46 + name_len + extra_len + comment_len;
    }
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.sort_by_key(|&i| (records[i].start, records[i].end));
    for pair in order.windows(2) {
        let (a, b) = (&records[pair[0]], &records[pair[1]]);
        if b.start < a.end {
            let a_name = String::from_utf8_lossy(a.name);
            let b_name = String::from_utf8_lossy(b.name);
            return Err(ArchiveError::entry(
                &b_name,
                format!(
                    "overlaps entry {a_name:?} (entry {} starts at byte {}, inside entry {}'s bytes {}..{}): \
                     one piece of data listed as several entries is a trick, not an export",
                    pair[1] + 1,
                    b.start,
                    pair[0] + 1,
                    a.start,
                    a.end
                ),
            ));
        }
    }
    // Each name's first record, and its place in `repeated` once repeated.
    let mut by_name: std::collections::HashMap<&[u8], (usize, Option<usize>)> =
        std::collections::HashMap::new();
    let mut repeated: Vec<RepeatedName> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let seen = by_name.entry(r.name).or_insert((i, None));
        if seen.0 == i {
            continue;
        }
        let first = seen.0;
        let slot = *seen.1.get_or_insert_with(|| {
            repeated.push(RepeatedName {
                name: String::from_utf8_lossy(r.name).into_owned(),
                entries: vec![first + 1],
                offsets: vec![records[first].start],
            });
            repeated.len() - 1
        });
        repeated[slot].entries.push(i + 1);
        repeated[slot].offsets.push(r.start);
    }
    Ok(repeated)
}

/// Refuse a name that means a place outside the archive, or another place
/// to another tool.
fn check_name(name: &str) -> Result<(), ArchiveError> {
    let refuse = |why: &str| Err(ArchiveError::entry(name, why));
    if name.is_empty() {
        return refuse("has an empty name");
    }
    if name.contains('\0') {
        return refuse("has a NUL byte in its name");
    }
    if name.contains('\\') {
        return refuse("uses a backslash in its name, a separator to some tools");
    }
    if name.starts_with('/') {
        return refuse("is an absolute path");
    }
    let bytes = name.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return refuse("starts with a drive letter");
    }
    if name.split('/').any(|part| part == "..") {
        return refuse("has a `..` component, a path out of the archive");
    }
    Ok(())
}

fn why(error: ZipError) -> String {
    match error {
        ZipError::UnsupportedArchive(what) => format!("unsupported: {what}"),
        ZipError::InvalidArchive(what) => format!("not a valid ZIP archive: {what}"),
        ZipError::CompressionMethodNotSupported(method) => {
            format!("uses compression method {method}; only stored and deflate are read")
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use zip::write::SimpleFileOptions;

    fn build(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        for (name, data) in entries {
            zip.start_file(*name, options).unwrap();
            zip.write_all(data).unwrap();
        }
        zip.finish().unwrap().into_inner()
    }

    #[test]
    fn reads_entries_by_name_in_order() {
        let bytes = build(&[("b.csv", b"two"), ("dir/a.json", b"one")]);
        let mut archive = Archive::open(&bytes, Limits::default()).unwrap();
        assert_eq!(archive.names(), ["b.csv", "dir/a.json"]);
        assert_eq!(archive.read("dir/a.json").unwrap(), b"one");
        assert_eq!(archive.read("b.csv").unwrap(), b"two");
    }

    #[test]
    fn of_two_entries_with_one_name_the_later_is_read() {
        let built = build(&[
            ("x/one.txt", b"first"),
            ("x/two.txt", b"second"),
            ("c.txt", b"other"),
        ]);
        // The writer refuses a repeated name: rename the second entry in
        // its local header and the central directory (names are in no CRC).
        let bytes = replace_all(&built, b"x/two.txt", b"x/one.txt");
        let mut archive = Archive::open(&bytes, Limits::default()).unwrap();
        assert_eq!(archive.names(), ["x/one.txt", "c.txt"]);
        assert_eq!(archive.read("x/one.txt").unwrap(), b"second");
        assert_eq!(archive.read("c.txt").unwrap(), b"other");
        // Both copies are listed, where they are, so a reader can say which
        // one it did not read.
        let repeated = archive.repeated();
        assert_eq!(repeated.len(), 1);
        assert_eq!(repeated[0].name, "x/one.txt");
        assert_eq!(repeated[0].entries, [1, 2]);
        assert_eq!(repeated[0].offsets[0], 0);
        assert!(repeated[0].offsets[1] > 30);
        assert_eq!(
            &bytes[repeated[0].offsets[1] as usize..][..4],
            b"PK\x03\x04"
        );
    }

    #[test]
    fn entries_sharing_one_piece_of_data_are_refused_naming_them() {
        // 2,000 records over one compressed part (the zip crate's shallow
        // copy writes exactly that): 2,000 parts for the bytes of one.
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        zip.start_file("part_000000.csv", options).unwrap();
        zip.write_all(b"title,url,time_added\na,https://e/,1\n")
            .unwrap();
        for i in 1..2000 {
            zip.shallow_copy_file("part_000000.csv", &format!("part_{i:06}.csv"))
                .unwrap();
        }
        let bytes = zip.finish().unwrap().into_inner();
        let error = Archive::open(&bytes, Limits::default()).unwrap_err();
        assert!(
            error.reason.contains("overlaps entry \"part_000000.csv\""),
            "{error}"
        );
        assert!(
            error
                .entry
                .as_deref()
                .is_some_and(|e| e.starts_with("part_0")),
            "{error}"
        );
        // Each entry in its own bytes opens.
        let bytes = build(&[("part_000000.csv", b"x"), ("part_000001.csv", b"x")]);
        assert!(Archive::open(&bytes, Limits::default())
            .unwrap()
            .repeated()
            .is_empty());
    }

    #[test]
    fn stored_and_deflated_entries_read_alike() {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, method) in [
            ("s.html", CompressionMethod::Stored),
            ("d.html", CompressionMethod::Deflated),
        ] {
            zip.start_file(
                name,
                SimpleFileOptions::default().compression_method(method),
            )
            .unwrap();
            zip.write_all(b"<!DOCTYPE NETSCAPE-Bookmark-file-1>")
                .unwrap();
        }
        let bytes = zip.finish().unwrap().into_inner();
        assert!(is_zip(&bytes));
        let mut archive = Archive::open(&bytes, Limits::default()).unwrap();
        assert_eq!(
            archive.read("s.html").unwrap(),
            archive.read("d.html").unwrap()
        );
    }

    fn replace_all(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        let mut i = 0;
        while i + from.len() <= out.len() {
            if &out[i..i + from.len()] == from {
                out[i..i + from.len()].copy_from_slice(to);
                i += from.len();
            } else {
                i += 1;
            }
        }
        out
    }

    #[test]
    fn refuses_path_tricks_naming_the_entry() {
        for name in [
            "../x",
            "a/../../x",
            "/etc/passwd",
            "a\\..\\x",
            "C:/x",
            "a\0b",
        ] {
            let bytes = build(&[("ok.csv", b"1"), (name, b"2")]);
            let error = Archive::open(&bytes, Limits::default()).unwrap_err();
            assert_eq!(error.entry.as_deref(), Some(name), "{name}: {error}");
        }
    }

    #[test]
    fn a_bomb_stops_after_the_floor_not_at_its_declared_size() {
        let zeros = vec![0u8; 8 << 20];
        let bytes = build(&[("bomb.csv", &zeros)]);
        assert!(bytes.len() < 1 << 20, "deflate should crush zeros");
        let mut archive = Archive::open(&bytes, Limits::default()).unwrap();
        let error = archive.read("bomb.csv").unwrap_err();
        assert_eq!(error.entry.as_deref(), Some("bomb.csv"));
        assert!(error.reason.contains("ZIP bomb"), "{error}");
    }

    #[test]
    fn entry_and_total_sizes_are_counted_as_they_inflate() {
        let data: Vec<u8> = (0..3000u32).flat_map(|i| i.to_le_bytes()).collect();
        let bytes = build(&[("a", &data), ("b", &data)]);
        let small = Limits {
            max_entry_size: 1000,
            ..Limits::default()
        };
        let error = Archive::open(&bytes, small).unwrap().read("a").unwrap_err();
        assert!(error.reason.contains("one entry"), "{error}");
        let total = Limits {
            max_total_size: 20_000,
            ..Limits::default()
        };
        let mut archive = Archive::open(&bytes, total).unwrap();
        assert_eq!(archive.read("a").unwrap(), data);
        let error = archive.read("b").unwrap_err();
        assert!(error.reason.contains("archive past"), "{error}");
    }

    #[test]
    fn too_many_entries_are_refused() {
        let entries: Vec<(String, Vec<u8>)> =
            (0..20).map(|i| (format!("{i}.csv"), vec![b'x'])).collect();
        let refs: Vec<(&str, &[u8])> = entries
            .iter()
            .map(|(n, d)| (n.as_str(), d.as_slice()))
            .collect();
        let bytes = build(&refs);
        let few = Limits {
            max_entries: 10,
            ..Limits::default()
        };
        let error = Archive::open(&bytes, few).unwrap_err();
        assert!(error.reason.contains("20 entries"), "{error}");
    }

    #[test]
    fn garbage_and_truncation_are_errors_not_panics() {
        let bytes = build(&[("a.csv", b"hello, world, hello, world")]);
        for cut in 0..bytes.len() {
            if let Ok(mut archive) = Archive::open(&bytes[..cut], Limits::default()) {
                let _ = archive.read("a.csv");
            }
        }
        assert!(Archive::open(b"PK\x03\x04 not really", Limits::default()).is_err());
        let mut flipped = bytes.clone();
        for byte in &mut flipped[30..40] {
            *byte ^= 0xff;
        }
        if let Ok(mut archive) = Archive::open(&flipped, Limits::default()) {
            let _ = archive.read("a.csv");
        }
    }
}
