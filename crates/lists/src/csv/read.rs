//! Reading a generic CSV: the header decides the delimiter and the columns,
//! then one record at a time becomes one bookmark.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

use markport_model::{
    Attribute, Bookmark, Budget, DateValue, Diagnostic, Document, Error, ErrorKind, Folder,
    Location, NodeId, Parsed, ReadOptions,
};

use super::columns::{assign, Target, Targets};
use super::scan::{self, Cell, Scanner, Unclosed};
use super::values::{date, flag, split_tags, unguard, SeparatorVote};
use crate::Lazy;

/// The name of the one extra attribute that keeps a row's cells past the
/// header's columns, as they were written (delimiters and quotes too).
pub const PAST_HEADER: &str = "past the header";

/// Folders made from paths: at most this many, plus one per
/// [`FOLDER_BYTES`] bytes of the file. A folder costs the model several
/// hundred bytes and a path part as little as two (`f/`), so without a
/// bound a 3 MB path of 400,000 parts took 260 MB.
pub const FOLDERS: usize = 4096;

/// See [`FOLDERS`].
pub const FOLDER_BYTES: usize = 256;

/// Rows whose cells past the header are kept ([`PAST_HEADER`]): at most
/// this many, plus one per [`PAST_BYTES`] bytes of the file; the cells
/// past the header of the rows after them are dropped and counted. A
/// kept value costs the bookmark its details (some 500 bytes), and a
/// row of 20 one-letter cells past the header is 40 bytes.
pub const PAST_ROWS: usize = 4096;

/// See [`PAST_ROWS`].
pub const PAST_BYTES: usize = 1024;

/// Folder cells longer than this are not remembered whole (a remembered
/// cell is a copy of it): a long path is walked part by part each time.
const REMEMBERED_PATH: usize = 1024;

/// Read a generic CSV file.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut diags = Vec::new();
    let (src, lossy) = scan::decode(input);
    if lossy {
        diags.push(Diagnostic::warning(
            "the file is not valid UTF-8: invalid bytes read as U+FFFD",
            None,
        ));
    }
    // Made when a position is first needed: most files need none, and
    // indexing costs a pass over the whole text.
    let index = Lazy::new(&src);
    let unclosed = |e: Unclosed| Error::syntax(Unclosed::MESSAGE, index.locate(e.offset));
    let delim = scan::delimiter(&src);
    let mut scanner = Scanner::new(&src, delim);
    let mut cells: Vec<Cell<'_>> = Vec::new();
    if !scanner.next_record(&mut cells).map_err(unclosed)? {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "empty file: a bookmark CSV starts with a header naming its url column",
            Some(Location { line: 1, column: 1 }),
        ));
    }
    // A name is read as a value is: without the ' a spreadsheet-safe
    // writer puts before a formula character.
    let header: Vec<String> = cells
        .iter()
        .map(|c| unguard(&c.value).to_string())
        .collect();
    let columns = assign(&header, &opts.csv.map)?;
    if opts.csv.explain {
        explain(&header, &columns, delim, &mut diags);
    }
    let mut rows = Rows {
        doc: Document::new(),
        folders: HashMap::new(),
        clashes: HashMap::new(),
        hasher: RandomState::new(),
        paths: HashMap::new(),
        tags: Vec::new(),
        vote: SeparatorVote::default(),
        folder_budget: FOLDERS.saturating_add(src.len() / FOLDER_BYTES),
        made: 0,
        cut: Counted::default(),
        past: Counted::default(),
        past_budget: PAST_ROWS.saturating_add(src.len() / PAST_BYTES),
        dropped: 0,
        budget: Budget::new(opts, input.len()),
    };
    while scanner.next_record(&mut cells).map_err(unclosed)? {
        if cells.len() == 1 && cells[0].value.is_empty() {
            continue; // a line holding only `""`
        }
        rows.row(&src, &cells, &header, &columns, &index, &mut diags)?;
    }
    if let Some(at) = rows.past.first {
        let kept = rows.past.count - rows.dropped;
        let dropped = match rows.dropped {
            0 => String::new(),
            n => format!(
                "; those of the {n} row(s) after the first {kept} are dropped \
                 (a file of {} bytes keeps them for {} rows: {PAST_ROWS} and one per {PAST_BYTES} bytes)",
                src.len(),
                rows.past_budget
            ),
        };
        diags.push(Diagnostic::warning(
            format!(
                "{} row(s) have fields past the header's {} columns: each row's are kept, \
                 as written, in one value named {PAST_HEADER:?}{dropped} (the first here)",
                rows.past.count,
                header.len()
            ),
            Some(index.locate(at)),
        ));
    }
    if let Some(at) = rows.cut.first {
        diags.push(Diagnostic::warning(
            format!(
                "{} folder path(s) cut: a file of {} bytes makes at most {} folders from paths \
                 ({FOLDERS} and one per {FOLDER_BYTES} bytes), so the rest of each such path is \
                 the title of one folder (the first here)",
                rows.cut.count,
                src.len(),
                rows.folder_budget
            ),
            Some(index.locate(at)),
        ));
    }
    let doc = rows.finish(opts.csv.explain, &mut diags);
    Parsed::new(doc, diags).enforce(opts)
}

/// How many times something was met, and the offset of the first.
#[derive(Default)]
struct Counted {
    count: usize,
    first: Option<usize>,
}

impl Counted {
    fn add(&mut self, at: usize) {
        self.count += 1;
        self.first.get_or_insert(at);
    }
}

/// What the records build up.
struct Rows {
    doc: Document,
    /// Folders by parent and a hash of their title (the title itself is
    /// the folder's: a copy in the key doubled what a long path cost); a
    /// path is made once, then found.
    folders: HashMap<(Option<NodeId>, u64), NodeId>,
    /// The folders whose key another folder had first (in practice none:
    /// the hash is keyed at random, so a file cannot aim at it).
    clashes: HashMap<(Option<NodeId>, String), NodeId>,
    hasher: RandomState,
    /// Each folder cell met and where it led: a row's folder is one
    /// lookup, without a copy of the cell.
    paths: HashMap<String, Option<NodeId>>,
    /// Each bookmark's tags cell, split once the file's separator is known.
    tags: Vec<(NodeId, String)>,
    vote: SeparatorVote,
    /// How many folders paths may make ([`FOLDERS`]), and how many they made.
    folder_budget: usize,
    made: usize,
    /// Paths cut for the budget.
    cut: Counted,
    /// Rows with cells past the header; how many may keep them, and how
    /// many did not.
    past: Counted,
    past_budget: usize,
    dropped: usize,
    /// What the document may still take ([`Budget`]).
    budget: Budget,
}

impl Rows {
    fn row(
        &mut self,
        src: &str,
        cells: &[Cell<'_>],
        header: &[String],
        columns: &[Targets],
        index: &Lazy<'_>,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<(), Error> {
        let (said, made) = (diags.len(), self.made);
        let mut b = Bookmark::new(String::new());
        let mut parent = None;
        let mut tags = None;
        let (mut private, mut public) = (false, false);
        let mut link_at = None;
        for (i, c) in cells.iter().enumerate() {
            let Some(&targets) = columns.get(i) else {
                // Past the header: every cell from here to the last that
                // is not empty, as written, in one value. One per row
                // rather than one per cell, and one warning for the file:
                // a row of 20 short cells past the header otherwise cost
                // 20 attributes and 20 warnings (160 times its bytes).
                if let Some(last) = cells[i..].iter().rposition(|c| !c.value.is_empty()) {
                    let end = cells[i + last].end;
                    self.past.add(c.offset);
                    if self.past.count <= self.past_budget {
                        b.details_mut()
                            .extra
                            .push(Attribute::new(PAST_HEADER, &src[c.offset..end]));
                    } else {
                        self.dropped += 1;
                    }
                }
                break;
            };
            // Every cell is read without the ' a spreadsheet-safe writer
            // puts before a formula character (markport's writer guards
            // every cell, header names too).
            let cell = unguard(&c.value);
            if targets.is_empty() {
                if !cell.is_empty() {
                    let name = match header[i].trim() {
                        "" => format!("column {}", i + 1),
                        _ => header[i].clone(),
                    };
                    b.details_mut().extra.push(Attribute::new(name, cell));
                }
                continue;
            }
            for target in targets.iter() {
                self.cell(target, cell, c.offset, &header[i], &mut b, diags, index);
                match target {
                    Target::Url => link_at = Some(c.offset),
                    Target::Tags if !cell.trim().is_empty() => {
                        self.vote.count(cell);
                        tags = Some(cell.to_string());
                    }
                    Target::Folder => parent = self.folder(cell, c.offset),
                    Target::Private | Target::Shared | Target::ToRead => match flag(cell) {
                        Ok(Some(yes)) if target == Target::Private => {
                            (private, public) = (private || yes, public || !yes)
                        }
                        Ok(Some(yes)) if target == Target::Shared => {
                            (private, public) = (private || !yes, public || yes)
                        }
                        // A word not understood: private, to be safe.
                        Err(()) => private = true,
                        _ => {}
                    },
                    _ => {}
                }
            }
        }
        if private || public {
            b.private = Some(private);
        }
        if b.href.is_empty() {
            diags.push(Diagnostic::warning(
                "a row without a link: kept as a bookmark with an empty link",
                Some(index.locate(link_at.unwrap_or(cells[0].offset))),
            ));
        }
        self.charge(&b, &diags[said..], self.made - made)
            .map_err(|mut e| {
                e.location = Some(index.locate(cells[0].offset));
                e
            })?;
        let id = self.doc.push(parent, b);
        if let Some(t) = tags {
            self.tags.push((id, t));
        }
        Ok(())
    }

    /// Charge the budget for a row about to be kept: its bookmark, the
    /// warnings it drew and the folders its path made. A row of two bytes
    /// is a bookmark of a few hundred.
    fn charge(&mut self, b: &Bookmark, said: &[Diagnostic], folders: usize) -> Result<(), Error> {
        for d in said {
            self.budget.diagnostic(d)?;
        }
        for _ in 0..folders {
            self.budget.folder(0)?;
        }
        self.budget.bookmark(b)
    }

    /// Set what the cell `cell` of column `name`, at byte `at`, says of
    /// `target` (tags, folders and private are the row's to gather).
    #[allow(clippy::too_many_arguments)]
    fn cell(
        &mut self,
        target: Target,
        cell: &str,
        at: usize,
        name: &str,
        b: &mut Bookmark,
        diags: &mut Vec<Diagnostic>,
        index: &Lazy<'_>,
    ) {
        match target {
            Target::Url => b.href = cell.to_string(),
            Target::Title => b.title = text(cell),
            Target::Description => b.desc = text(cell),
            Target::Created => {
                if !cell.trim().is_empty() {
                    b.added = Some(date(cell).unwrap_or_else(|| {
                        diags.push(Diagnostic::warning(
                            format!(
                                "{name:?} is not a date in Unix seconds, milliseconds or ISO 8601; kept as written"
                            ),
                            Some(index.locate(at)),
                        ));
                        DateValue::Raw(cell.into())
                    }));
                }
            }
            Target::Private | Target::Shared | Target::ToRead => match flag(cell) {
                Ok(None) => {}
                Ok(Some(yes)) => {
                    if target == Target::ToRead {
                        b.to_read = Some(yes);
                    }
                }
                Err(()) => {
                    diags.push(Diagnostic::warning(
                        format!(
                            "{cell:?} of column {name:?} is not yes or no: the bookmark is read as private and the value kept"
                        ),
                        Some(index.locate(at)),
                    ));
                    b.details_mut().extra.push(Attribute::new(name, cell));
                }
            },
            Target::Tags | Target::Folder => {}
        }
    }

    /// The folder a `/` path names, made as needed (empty parts skipped,
    /// each part trimmed); `None` for the top level. Once paths have made
    /// as many folders as the file's size allows ([`FOLDERS`]), the rest
    /// of a path is the title of one folder.
    fn folder(&mut self, cell: &str, at: usize) -> Option<NodeId> {
        if let Some(id) = self.paths.get(cell) {
            return *id;
        }
        let mut parent = None;
        let mut from = 0;
        while from <= cell.len() {
            let end = cell[from..].find('/').map_or(cell.len(), |n| from + n);
            let part = cell[from..end].trim();
            let next = end + 1;
            if part.is_empty() {
                from = next;
                continue;
            }
            if let Some(id) = self.find(parent, part) {
                parent = Some(id);
                from = next;
                continue;
            }
            let (title, last) = if self.made < self.folder_budget || end == cell.len() {
                (part, false)
            } else {
                self.cut.add(at);
                (cell[from..].trim(), true)
            };
            parent = Some(match self.find(parent, title) {
                Some(id) => id,
                None => {
                    self.made += 1;
                    let id = self.doc.push(parent, Folder::titled(title));
                    let key = (parent, self.hasher.hash_one(title));
                    if let Some(&first) = self.folders.get(&key) {
                        self.clashes.insert((parent, title.to_string()), id);
                        debug_assert_ne!(first, id);
                    } else {
                        self.folders.insert(key, id);
                    }
                    id
                }
            });
            if last {
                break;
            }
            from = next;
        }
        if cell.len() <= REMEMBERED_PATH {
            self.paths.insert(cell.to_string(), parent);
        }
        parent
    }

    /// The folder titled `title` in `parent`, if paths made one.
    fn find(&self, parent: Option<NodeId>, title: &str) -> Option<NodeId> {
        let id = *self.folders.get(&(parent, self.hasher.hash_one(title)))?;
        if self.doc.node(id).title() == Some(title) {
            Some(id)
        } else {
            self.clashes.get(&(parent, title.to_string())).copied()
        }
    }

    /// The document, with every tags cell split on the file's separator.
    fn finish(mut self, explain: bool, diags: &mut Vec<Diagnostic>) -> Document {
        let sep = self.vote.separator();
        if explain && !self.tags.is_empty() {
            diags.push(Diagnostic::note(
                format!("tags are split on {sep:?}, the separator most tags cells hold"),
                None,
            ));
        }
        for (id, cell) in std::mem::take(&mut self.tags) {
            if let Some(b) = self.doc.as_bookmark_mut(id) {
                b.tags = split_tags(&cell, sep);
            }
        }
        self.doc
    }
}

/// The notes `--verbose` prints: the delimiter and which column is which field.
fn explain(header: &[String], columns: &[Targets], delim: u8, diags: &mut Vec<Diagnostic>) {
    let name = match delim {
        b'\t' => "tab",
        b';' => "';'",
        _ => "','",
    };
    diags.push(Diagnostic::note(
        format!("CSV delimiter {name} (from the header)"),
        None,
    ));
    for (i, (h, c)) in header.iter().zip(columns).enumerate() {
        let to = if c.is_empty() {
            "is kept with each bookmark (bookmark.extra)".to_string()
        } else {
            let fields: Vec<&str> = c.iter().map(Target::name).collect();
            format!("is {}", fields.join(" and "))
        };
        diags.push(Diagnostic::note(
            format!("column {} {h:?} {to}", i + 1),
            None,
        ));
    }
}

/// A text cell as a model value: none when empty.
fn text(cell: &str) -> Option<String> {
    (!cell.is_empty()).then(|| cell.to_string())
}
