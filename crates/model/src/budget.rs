//! The memory a reader lets the document it builds take.
//!
//! A reader's document normally costs about twice the bytes it read (see
//! docs/architecture.md, "The model"), but a small input can be shaped to
//! cost far more: rows of eight bytes that each become a 200-byte arena
//! entry, one value that many nodes refer to and each node copies (Pocket's
//! highlights for an article many rows list, a binary plist's object
//! referenced from many places). A reader that can be made to copy charges
//! a [`Budget`] for what it keeps, as it keeps it, and stops with a clean
//! error naming the budget and how to raise it rather than take gigabytes.
//!
//! The budget is [`ReadOptions::memory_budget`] when it is set (the
//! command's `--memory-budget`), otherwise twice the bytes read (after
//! inflation, for an archive: [`Budget::read_more`]) plus
//! [`DEFAULT_ALLOWANCE`]: with the input itself, peak memory stays within
//! three times what was read, plus a constant.
//!
//! ```
//! use markport_model::{Bookmark, Budget, ErrorKind, ReadOptions};
//!
//! let mut opts = ReadOptions::default();
//! opts.memory_budget = Some(10_000);
//! let mut budget = Budget::new(&opts, 100);
//! let b = Bookmark::new("https://example.org/").with_title("Example");
//! budget.bookmark(&b).unwrap();
//! let error = budget.charge(20_000).unwrap_err();
//! assert_eq!(error.kind, ErrorKind::Unsafe);
//! assert!(error.message.contains("--memory-budget"), "{}", error.message);
//! ```

use crate::{Bookmark, Error, ErrorKind, ReadOptions};

/// What a document may take beyond twice the bytes read, when no budget is
/// given: room for any real export's small rows (a Pocket row of 40 bytes
/// costs about 450 in the model, 370 more than twice its bytes, so about
/// 360,000 such rows fit in it, and a million rows of 150 bytes).
pub const DEFAULT_ALLOWANCE: u64 = 128 << 20;

/// What one node costs in the document besides its text: its arena entry
/// (192 bytes, pinned by a model test) and as much again of spare capacity,
/// as the arena doubles (measured: a million bookmarks of a few bytes each
/// peak at about 410 bytes a bookmark).
pub const NODE_COST: u64 = 384;

/// What one folder costs besides its title: a node, its boxed `Folder` and
/// its list of children (measured: a path of 400,000 folders peaks at about
/// 650 bytes a folder, its map of names included).
pub const FOLDER_COST: u64 = 512;

/// What one string in a `Vec` costs besides its bytes: its header and the
/// allocator's rounding (a tag, an extra attribute's name and value).
const STRING_COST: u64 = 32;

/// What the allocator adds to a string's bytes (its header and rounding:
/// a string of 4 bytes takes a 32-byte chunk).
const HEAP_COST: usize = 16;

/// The memory a reader may still give its document.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Bytes read so far (the input, and every archive entry inflated).
    read: u64,
    /// Whether the limit was given ([`ReadOptions::memory_budget`]) rather
    /// than derived from `read`.
    given: Option<u64>,
    /// Bytes charged so far.
    used: u64,
    /// The nodes and diagnostics [`Budget::keep_up`] has charged.
    kept: (usize, usize),
    /// [`ReadOptions::deadline`]: every charge checks it, so a reader
    /// stops at the next node it keeps once its time is up.
    deadline: Option<std::time::Instant>,
}

impl Budget {
    /// The budget of a reader that has read `read` bytes, under `opts`.
    pub fn new(opts: &ReadOptions, read: usize) -> Budget {
        Budget {
            read: read as u64,
            given: opts.memory_budget,
            used: 0,
            kept: (0, 0),
            deadline: opts.deadline,
        }
    }

    /// `more` bytes were read (an archive entry inflated): the derived
    /// budget grows with them.
    pub fn read_more(&mut self, more: usize) {
        self.read = self.read.saturating_add(more as u64);
    }

    /// The most the document may take.
    pub fn limit(&self) -> u64 {
        self.given.unwrap_or_else(|| {
            self.read
                .saturating_mul(2)
                .saturating_add(DEFAULT_ALLOWANCE)
        })
    }

    /// Bytes charged so far.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Charge `bytes` the document is about to keep; an error (kind
    /// [`ErrorKind::Unsafe`], no location: the caller knows it) when they
    /// take it past the limit, or (kind [`ErrorKind::Cancelled`]) once
    /// [`ReadOptions::deadline`] has passed.
    pub fn charge(&mut self, bytes: usize) -> Result<(), Error> {
        crate::options::past(self.deadline)?;
        self.used = self.used.saturating_add(bytes as u64);
        if self.used <= self.limit() {
            return Ok(());
        }
        let why = match self.given {
            Some(_) => "the budget given".to_string(),
            None => format!(
                "twice the {} read, plus {}",
                size(self.read),
                size(DEFAULT_ALLOWANCE)
            ),
        };
        Err(Error::new(
            ErrorKind::Unsafe,
            format!(
                "the document would take more than {} of memory ({why}): refused; \
                 --memory-budget SIZE (ReadOptions::memory_budget) raises the limit",
                size(self.limit())
            ),
            None,
        ))
    }

    /// Charge one bookmark about to be pushed: its arena entry and its text.
    pub fn bookmark(&mut self, b: &Bookmark) -> Result<(), Error> {
        self.charge(bookmark_cost(b))
    }

    /// Charge one folder with `text` bytes of title and the like.
    pub fn folder(&mut self, text: usize) -> Result<(), Error> {
        self.charge(FOLDER_COST as usize + text)
    }

    /// Charge what `doc` and `diags` gained since the last call: each new
    /// node's arena entry and each new diagnostic. For a reader whose
    /// values are slices of its input (their bytes are within the
    /// allowance of twice the input), called once per token or element:
    /// what a node or a warning costs beyond its text is what a file of
    /// tiny items multiplies.
    ///
    /// ```
    /// use markport_model::{Bookmark, Budget, Document, ReadOptions};
    ///
    /// let mut opts = ReadOptions::default();
    /// opts.memory_budget = Some(1_000);
    /// let mut budget = Budget::new(&opts, 10);
    /// let mut doc = Document::new();
    /// doc.push(None, Bookmark::new("a:"));
    /// budget.keep_up(&doc, &[]).unwrap();
    /// doc.push(None, Bookmark::new("b:"));
    /// doc.push(None, Bookmark::new("c:"));
    /// assert!(budget.keep_up(&doc, &[]).is_err());
    /// ```
    pub fn keep_up(
        &mut self,
        doc: &crate::Document,
        diags: &[crate::Diagnostic],
    ) -> Result<(), Error> {
        let (nodes, said) = self.kept;
        if doc.len() == nodes && diags.len() == said {
            return Ok(());
        }
        self.kept = (doc.len(), diags.len());
        let new = doc.len().saturating_sub(nodes) as u64;
        self.charge(usize::try_from(new.saturating_mul(NODE_COST)).unwrap_or(usize::MAX))?;
        for d in diags.get(said..).unwrap_or_default() {
            self.diagnostic(d)?;
        }
        Ok(())
    }

    /// Charge one diagnostic about to be kept: a reader that warns on
    /// every line of a file of short lines keeps far more in warnings
    /// than it read.
    pub fn diagnostic(&mut self, d: &crate::Diagnostic) -> Result<(), Error> {
        self.charge(DIAGNOSTIC_COST + d.message.len() + d.file.as_ref().map_or(0, String::len))
    }
}

/// What one diagnostic costs besides its message: its entry in the list
/// (about 100 bytes) and the allocator's rounding of its message.
const DIAGNOSTIC_COST: usize = 128;

/// About what `b` costs in the document: its arena entry, its strings and
/// its details when allocated.
pub fn bookmark_cost(b: &Bookmark) -> usize {
    let heap = |s: &str| if s.is_empty() { 0 } else { s.len() + HEAP_COST };
    let text = |s: &Option<String>| s.as_deref().map_or(0, heap);
    let mut cost = NODE_COST as usize
        + heap(&b.href)
        + text(&b.title)
        + text(&b.desc)
        + text(&b.favicon)
        + b.tags
            .iter()
            .map(|t| t.len() + STRING_COST as usize)
            .sum::<usize>();
    if b.has_details() {
        let d = b.details();
        cost += 208
            + text(&d.id)
            + text(&d.icon)
            + text(&d.favicon_uri)
            + text(&d.guid)
            + d.extra
                .iter()
                .map(|a| a.name.len() + a.value.len() + 2 * STRING_COST as usize)
                .sum::<usize>();
    }
    cost
}

/// Bytes for people: `12.3 MB`.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_derived_limit_grows_with_what_is_read() {
        let opts = ReadOptions::default();
        let mut budget = Budget::new(&opts, 1000);
        assert_eq!(budget.limit(), 2000 + DEFAULT_ALLOWANCE);
        budget.read_more(500);
        assert_eq!(budget.limit(), 3000 + DEFAULT_ALLOWANCE);
        budget.charge(DEFAULT_ALLOWANCE as usize + 3000).unwrap();
        let error = budget.charge(1).unwrap_err();
        assert!(
            error
                .message
                .contains("twice the 1.5 KB read, plus 134.2 MB"),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_bookmark_costs_its_entry_and_its_text() {
        let mut b = Bookmark::new("https://e/");
        assert_eq!(bookmark_cost(&b), NODE_COST as usize + 10 + 16);
        b.tags = vec!["ab".into()];
        b.desc = Some("x".repeat(1000));
        assert_eq!(bookmark_cost(&b), NODE_COST as usize + 26 + 1016 + 34);
        b.details_mut().extra.push(crate::Attribute::new("k", "v"));
        assert!(bookmark_cost(&b) > NODE_COST as usize + 1076 + 208);
    }

    #[test]
    fn a_charge_past_the_deadline_is_cancelled() {
        let later = ReadOptions {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(3600)),
            ..ReadOptions::default()
        };
        Budget::new(&later, 1000).charge(10).unwrap();
        let now = ReadOptions {
            deadline: Some(std::time::Instant::now()),
            ..ReadOptions::default()
        };
        let error = Budget::new(&now, 1000).charge(10).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Cancelled);
    }

    #[test]
    fn sizes_read_as_words() {
        assert_eq!(size(999), "999 bytes");
        assert_eq!(size(1500), "1.5 KB");
        assert_eq!(size(2_000_000_000), "2.0 GB");
    }
}
