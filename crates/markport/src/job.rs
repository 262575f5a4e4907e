//! The one pipeline: every subcommand that reads and writes is a [`Job`]
//! run by [`run`] — its inputs (one collection, or several merged), the
//! operations, what to make of the result ([`To`]: a format's file, a
//! published site, or a trip out through a format and back) and where it
//! goes ([`Target`]). The `fail-on` gates, the held output and the report
//! are decided here once, for `convert`, `merge`, `publish`, `roundtrip`
//! and every program built on the library alike; the `markport` command
//! only maps its flags onto a job and prints what came back.
//!
//! Each input is read through the one door ([`crate::read`]) and its bytes
//! dropped as soon as it is read, so they are not part of the peak while
//! the output is made. The output goes where it is going as it is made (see
//! [`Target`]), held back only while a `fail-on` decision is pending and the
//! target cannot take back what it is given.

use std::path::Path;

use markport_model::WriteOptions;
use markport_model::{Diagnostic, Document, Error, ErrorKind, Field, LossReport, ReadOptions};

use crate::ops::{self, LinkMatch, MergedInput, Operation};
pub use crate::plan::{JobError, Refusal, Stage, To};
use crate::read::{read_input, Input};
use crate::registry::Format;
use crate::resolve::{resolve_format, Resolved};
use crate::target::{write_to_target, Target};

/// One run of the pipeline.
#[derive(Debug)]
#[non_exhaustive]
pub struct Job {
    /// What to read, in order: several are merged into one collection, the
    /// first winning a conflict.
    pub inputs: Vec<Input>,
    /// The inputs' format; `None`: each input's is detected from its
    /// content, failing that from a path's extension ([`resolve_format`]).
    pub from: Option<&'static Format>,
    /// How to read.
    pub read: ReadOptions,
    /// With several inputs: keep a bookmark whose link an earlier one has
    /// (default: merge it into the earlier one).
    pub keep_duplicates: bool,
    /// With several inputs, unless [`keep_duplicates`](Self::keep_duplicates):
    /// how alike two links must be to merge (`merge --match LEVEL`;
    /// default [`LinkMatch::Exact`]).
    pub link_match: LinkMatch,
    /// With several inputs: keep the folders merging leaves empty.
    pub keep_empty: bool,
    /// What to change between reading and writing ([`ops`]); their changes
    /// are reported in [`LossReport::changes`].
    pub operations: Vec<Operation>,
    /// What to make.
    pub to: To,
    /// Write nothing when anything would not arrive whole
    /// ([`LossReport::arrives_whole`]).
    pub fail_on_loss: bool,
    /// With [`fail_on_loss`](Self::fail_on_loss): the fields whose loss
    /// (or change at the destination) does not count, as `--allow-loss`
    /// names them (`bookmark.guid`, `bookmark.added.form`, `folder`).
    pub allow_loss: Vec<Field>,
    /// Write nothing when anything is carried only in an extension other
    /// readers of the format ignore ([`LossReport::has_extensions`]).
    pub fail_on_extension: bool,
    /// Write a collection with no bookmark although the inputs had some
    /// (default: refused, [`Refusal::Empty`], naming what removed them).
    pub allow_empty: bool,
    /// Where the bookmarks are going (`--for`): written in its format, the
    /// role folders get the titles it shows, and the report's
    /// `destination` list says what its import drops or changes
    /// ([`Destination::report`](crate::Destination::report)). A trip
    /// ([`To::Trip`]) through its format adds the same list; [`run`]
    /// refuses a trip through another format and a site, which it would
    /// have nothing to say about.
    pub destination: Option<&'static crate::Destination>,
    /// Merge three inputs (base, ours, theirs) three ways
    /// ([`markport_merge3`]) rather than several by link: `merge --base`,
    /// `git-merge`, `sync`. The result's report is [`Done::three_way`]; a
    /// side's mass deletion refused is a [`JobError`] of
    /// [`ErrorKind::Unsafe`] whose input is that side's.
    pub three_way: Option<markport_merge3::Options>,
    /// Called as each input begins to be read, with its index, the number
    /// of inputs and its name (a path, `<stdin>`, `<bytes>`): a program's
    /// progress display.
    pub on_input: Option<fn(usize, usize, &str)>,
}

impl Job {
    /// A job that reads `inputs` and makes `to`, with every option at its
    /// default.
    pub fn new(inputs: Vec<Input>, to: To) -> Job {
        Job {
            inputs,
            from: None,
            read: ReadOptions::default(),
            keep_duplicates: false,
            link_match: LinkMatch::Exact,
            keep_empty: false,
            operations: Vec::new(),
            to,
            fail_on_loss: false,
            allow_loss: Vec::new(),
            fail_on_extension: false,
            allow_empty: false,
            destination: None,
            three_way: None,
            on_input: None,
        }
    }

    /// Why the result may not be written, if it may not.
    fn refusal(&self, loss: &LossReport) -> Option<Refusal> {
        if self.fail_on_loss && !loss.arrives_whole_but(&self.allow_loss) {
            Some(Refusal::Loss)
        } else if self.fail_on_extension && loss.has_extensions() {
            Some(Refusal::Extension)
        } else {
            None
        }
    }
}

/// What was read of one input.
#[derive(Debug)]
#[non_exhaustive]
pub struct InputRead {
    /// The format it was read as, and how it was chosen.
    pub from: Resolved,
    /// What the reader noticed.
    pub diagnostics: Vec<Diagnostic>,
    /// With several inputs: what merging did with this one's bookmarks.
    pub merged: Option<MergedInput>,
    /// How many bookmarks it held.
    pub bookmarks: usize,
}

/// A published site, counted.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct SiteCounts {
    /// Public bookmarks published.
    pub bookmarks: usize,
    /// Folder pages written (numbered pages included).
    pub folder_pages: usize,
    /// Distinct tags.
    pub tags: usize,
    /// Files in the site (its manifest included).
    pub files: usize,
}

/// What [`run`] did.
#[derive(Debug)]
#[non_exhaustive]
pub struct Done {
    /// Each input, in order.
    pub inputs: Vec<InputRead>,
    /// The collection as written (after merging and the operations).
    pub document: Document,
    /// What merging, the operations and the writer could not carry or
    /// changed: the one report every gate reads.
    pub loss: LossReport,
    /// `Some`: nothing was written, and why.
    pub refused: Option<Refusal>,
    /// [`To::Site`]: the site's counts.
    pub site: Option<SiteCounts>,
    /// [`To::Trip`]: the trip's differences.
    pub trip: Option<crate::Roundtrip>,
    /// [`Job::three_way`]: how the sides were matched, every conflict, and
    /// the ledger of every item.
    pub three_way: Option<markport_merge3::Report>,
}

impl Done {
    /// What removed the bookmarks when none is left ([`Refusal::Empty`]):
    /// the reasons of the changes that removed bookmarks (`removed by
    /// --since`), each once, in order.
    pub fn emptied_by(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for c in &self.loss.changes {
            if c.field == Field::Bookmark && !out.contains(&c.reason.as_str()) {
                out.push(&c.reason);
            }
        }
        out
    }
}

/// The format and write options an output asks for: `to` when named (an
/// unknown or read-only name is an error listing the writable ones), else
/// the path's extension ([`resolve_format`]; an extension several formats
/// write gets the usual one, and [`Resolved::note`] says so), with the
/// options the extension asks for (`.jsonlz4`: Firefox's compressed form).
/// An existing directory for a format of one file is refused as one.
///
/// ```
/// use std::path::Path;
/// use markport::{choose_output, WriteOptions};
///
/// let (to, _) = choose_output(None, Some(Path::new("out.xbel")), WriteOptions::default()).unwrap();
/// assert_eq!(to.format.name, "xbel");
/// # #[cfg(feature = "firefox")] {
/// let (to, opts) = choose_output(None, Some(Path::new("backup.jsonlz4")), WriteOptions::default()).unwrap();
/// assert!(to.format.name == "firefox" && opts.firefox.compress);
/// # }
/// let dir = tempfile::tempdir().unwrap();
/// let err = choose_output(Some("xbel"), Some(dir.path()), WriteOptions::default()).unwrap_err();
/// assert!(err.message.contains("is a directory"));
/// ```
pub fn choose_output(
    to: Option<&str>,
    path: Option<&Path>,
    options: WriteOptions,
) -> Result<(Resolved, WriteOptions), Error> {
    let path = path.filter(|p| p.as_os_str() != "-");
    let is_dir = path.is_some_and(|p| std::fs::metadata(p).is_ok_and(|m| m.is_dir()));
    let resolved = match resolve_format(to, path, None) {
        Ok(r) => r,
        Err(_) if is_dir && to.is_none() => {
            return Err(is_a_directory(path.expect("a directory has a path"), None))
        }
        Err(e) => return Err(e),
    };
    if is_dir && resolved.format.directory().is_none() {
        return Err(is_a_directory(
            path.expect("a directory has a path"),
            Some(resolved.format),
        ));
    }
    let options = crate::options_for_path(options, path);
    Ok((resolved, options))
}

fn is_a_directory(path: &Path, format: Option<&Format>) -> Error {
    let what = match format {
        Some(f) => format!("; {} is one file: name a file", f.name),
        None => "; name a file, or --to favorites for a tree of link files".to_string(),
    };
    Error::new(
        ErrorKind::Unwritable,
        format!("{} is a directory{what}", path.display()),
        None,
    )
}

/// Run `job` into `target`. Nothing is written when an input cannot be
/// read, merging or an operation refuses the collection, or a `fail-on`
/// gate refuses the result ([`Done::refused`]); a target of the wrong kind
/// (a file for a tree, a directory for a file) is refused before anything
/// is read.
///
/// ```
/// use markport::{format, run, Input, Job, Target, To, WriteOptions};
///
/// let a = br#"<xbel version="1.0"><bookmark href="https://example.org/"><title>A</title></bookmark></xbel>"#;
/// let b = br#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
/// <DL><DT><A HREF="https://example.org/">A</A><DT><A HREF="https://example.net/">B</A></DL>"#;
/// let to = markport::To::Format { format: format("xbel").unwrap(), options: WriteOptions::default() };
/// let mut job = Job::new(vec![Input::from(&a[..]), Input::from(&b[..])], to);
/// job.fail_on_loss = true;
/// let mut out = Vec::new();
/// let done = run(job, Target::Stream(&mut out)).unwrap();
/// assert_eq!(done.refused, None);
/// assert_eq!(done.document.census().bookmarks, 2, "the duplicate link merged");
/// assert_eq!(done.inputs[1].merged.as_ref().unwrap().merged, 1);
/// assert!(String::from_utf8(out).unwrap().contains("https://example.net/"));
/// ```
pub fn run(job: Job, target: Target<'_>) -> Result<Done, JobError> {
    crate::target::check(&job.to, &target)?;
    if let Some(dest) = job.destination {
        destination_fits(dest, &job.to)?;
    }
    let mut job = job;
    let inputs = std::mem::take(&mut job.inputs);
    if inputs.is_empty() {
        return Err(JobError::operate(Error::new(
            ErrorKind::Invalid,
            "nothing to read: a job needs an input",
            None,
        )));
    }
    if job.three_way.is_some() {
        crate::three_way::check_inputs(inputs.len())?;
    }
    let (mut reads, mut docs) = (Vec::new(), Vec::new());
    let total = inputs.len();
    for (i, input) in inputs.into_iter().enumerate() {
        if let Some(on_input) = job.on_input {
            let name = match &input {
                Input::Path(p) => p.to_string_lossy(),
                Input::Stdin => "<stdin>".into(),
                Input::Bytes(_) => "<bytes>".into(),
            };
            on_input(i, total, &name);
        }
        let (from, parsed) = read_input(input, job.from, &job.read).map_err(|mut e| {
            e.input = Some(i);
            e
        })?;
        job.read
            .check_deadline()
            .map_err(|e| JobError::new(Stage::Read, e))?;
        reads.push(InputRead {
            from,
            diagnostics: parsed.diagnostics,
            merged: None,
            bookmarks: parsed.document.bookmarks().count(),
        });
        docs.push(parsed.document);
    }
    let mut loss = LossReport::new();
    let (mut document, three_way) = combine(&job, docs, &mut reads, &mut loss)?;
    // A deadline (ReadOptions::deadline) stops the job between its
    // stages too, whatever a stage checks within itself.
    job.read.check_deadline().map_err(JobError::operate)?;
    let mut changes = ops::apply(&mut document, &job.operations).map_err(JobError::operate)?;
    job.read.check_deadline().map_err(JobError::operate)?;
    // What the destination shows is decided last, on what will be written.
    let mut at_destination = LossReport::new();
    if let Some(dest) = job.destination {
        // A trip goes out through the destination's file: what its import
        // will not keep is judged on what goes out, as for a conversion.
        let written = match &job.to {
            To::Format { format, .. } => Some(*format),
            To::Trip { via, .. } => Some(*via),
            #[cfg(feature = "publish")]
            To::Site(_) => None,
        };
        if let Some(written) = written {
            dest.name_roles(&mut document, written, &mut changes);
            dest.shape_titles(&mut document, written, &mut changes);
            at_destination = dest.report(&document, written);
        }
    }
    let mut done = Done {
        inputs: reads,
        document,
        loss,
        refused: None,
        site: None,
        trip: None,
        three_way,
    };
    let had: usize = done.inputs.iter().map(|r| r.bookmarks).sum();
    let writes = !matches!(job.to, To::Trip { .. });
    if writes && !job.allow_empty && had > 0 && done.document.bookmarks().next().is_none() {
        // Nothing is written: a File target is abandoned when dropped.
        done.loss.extend(changes);
        done.refused = Some(Refusal::Empty);
        return Ok(done);
    }
    match &job.to {
        To::Format { format, options } => {
            let decide = |written: &LossReport| {
                let mut all = done.loss.clone();
                all.extend(written.clone());
                all.extend(changes.clone());
                all.extend(at_destination.clone());
                job.refusal(&all)
            };
            let gated = job.fail_on_loss || job.fail_on_extension;
            let (written, refused) =
                write_to_target(format, options, &done.document, target, gated, decide)?;
            done.loss.extend(written);
            done.loss.extend(changes);
            done.loss.extend(at_destination);
            done.refused = refused;
        }
        #[cfg(feature = "publish")]
        To::Site(options) => {
            let site = markport_publish::build(&done.document, options);
            done.loss.extend(site.loss.clone());
            done.loss.extend(changes);
            done.refused = job.refusal(&done.loss);
            done.site = Some(SiteCounts {
                bookmarks: site.bookmarks,
                folder_pages: site.folder_pages,
                tags: site.tags,
                files: site.files.len() + 1,
            });
            if let (None, Target::Directory(dir)) = (done.refused, &target) {
                markport_publish::publish(&site.files, dir).map_err(|e| {
                    JobError::write(Error::new(
                        ErrorKind::Io,
                        format!("{}: {}", e.path.display(), e.message),
                        None,
                    ))
                })?;
            }
        }
        To::Trip { via, options } => {
            let trip = crate::roundtrip(&done.document, via, options).map_err(JobError::write)?;
            done.loss.extend(trip.loss.clone());
            done.loss.extend(changes);
            done.loss.extend(at_destination);
            done.refused = job.refusal(&done.loss);
            done.trip = Some(trip);
        }
    }
    Ok(done)
}

/// The inputs' documents as one: the only one, or several merged by link
/// (what merging could not keep goes into `loss`, and each input's counts
/// into its read), or base, ours and theirs merged three ways (with the
/// merge's report).
fn combine(
    job: &Job,
    mut docs: Vec<Document>,
    reads: &mut [InputRead],
    loss: &mut LossReport,
) -> Result<(Document, Option<markport_merge3::Report>), JobError> {
    if let Some(opts) = &job.three_way {
        let formats: Vec<&Format> = reads.iter().map(|r| r.from.format).collect();
        let (doc, report) = crate::three_way::merge(docs, &formats, opts)?;
        return Ok((doc, Some(report)));
    }
    if docs.len() == 1 {
        return Ok((docs.pop().expect("one document"), None));
    }
    let by = (!job.keep_duplicates).then_some(job.link_match);
    let (doc, merged) = ops::merge_by(docs, by, job.keep_empty).map_err(JobError::operate)?;
    // What joining folders could not keep is lost as surely as what
    // the format cannot carry: one report, which the gates read.
    for (read, m) in reads.iter_mut().zip(merged) {
        loss.extend(m.report.clone());
        read.merged = Some(m);
    }
    Ok((doc, None))
}

/// Refuse a destination the job has nothing to say about, rather than
/// take it and say nothing: a published site is pages to open, not a file
/// a program imports, and a trip through another format than the one the
/// destination imports would not meet its rules.
fn destination_fits(dest: &crate::Destination, to: &To) -> Result<(), JobError> {
    let refused = |message: String| {
        Err(JobError::operate(Error::new(
            ErrorKind::Invalid,
            message,
            None,
        )))
    };
    match to {
        To::Format { .. } => Ok(()),
        #[cfg(feature = "publish")]
        To::Site(_) => refused(format!(
            "--for {}: a published site is pages to open in any browser, not a file {} imports, so there is nothing to make for it; `markport convert --for {0}` makes the file it imports",
            dest.name, dest.label
        )),
        To::Trip { via, .. } if via.name != dest.format => refused(format!(
            "--for {}: {} takes {}, so a trip for it goes through {2}, not {}; leave --via out or say --via {2}",
            dest.name, dest.taker, dest.format, via.name
        )),
        To::Trip { .. } => Ok(()),
    }
}

/// How to convert one input: everything but the input, the target format
/// and the destination ([`convert`] is a [`Job`] of one input).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ConvertOptions {
    /// The input's format; `None`: detected from the content, failing that
    /// from a path's extension ([`resolve_format`]).
    pub from: Option<&'static Format>,
    /// How to read.
    pub read: ReadOptions,
    /// What to change between reading and writing ([`ops`]).
    pub operations: Vec<Operation>,
    /// How to write.
    pub write: WriteOptions,
    /// [`Job::fail_on_loss`].
    pub fail_on_loss: bool,
    /// [`Job::allow_loss`].
    pub allow_loss: Vec<Field>,
    /// [`Job::fail_on_extension`].
    pub fail_on_extension: bool,
}

/// What [`convert`] did.
#[derive(Debug)]
#[non_exhaustive]
pub struct Converted {
    /// The format the input was read as, and how it was chosen.
    pub from: Resolved,
    /// The document as written (after the operations).
    pub document: Document,
    /// What the reader noticed.
    pub diagnostics: Vec<Diagnostic>,
    /// What the writer could not carry, and what the operations changed.
    pub loss: LossReport,
    /// `Some`: nothing was written, and why.
    pub refused: Option<Refusal>,
}

/// Convert `input` to `to` into `target`, as `opts` says: the [`Job`] of
/// one input, run by [`run`].
///
/// ```
/// use markport::{convert, format, ConvertOptions, Input, Target};
///
/// let xbel = br#"<?xml version="1.0"?>
/// <xbel version="1.0">
///   <folder><title>News</title>
///     <bookmark href="https://www.bbc.co.uk/"><title>BBC</title></bookmark>
///   </folder>
/// </xbel>"#;
/// let mut out = Vec::new();
/// let done = convert(
///     Input::Bytes(xbel.to_vec()),
///     format("json").unwrap(),
///     &ConvertOptions::default(),
///     Target::Stream(&mut out),
/// )
/// .unwrap();
/// assert_eq!(done.from.format.name, "xbel");
/// assert!(done.loss.is_empty());
/// assert!(String::from_utf8(out).unwrap().contains(r#""href": "https://www.bbc.co.uk/""#));
/// ```
///
/// A file is read by its path, and `fail_on_loss` keeps a stream empty:
///
/// ```
/// use markport::{convert, format, ConvertOptions, Input, Refusal, Stage, Target};
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("tagged.html");
/// std::fs::write(&path, r#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
/// <DL><DT><A HREF="https://example.org/" TAGS="demo">Example</A></DL>"#).unwrap();
/// let mut opts = ConvertOptions::default();
/// opts.write.xbel.strict = true;
/// opts.fail_on_loss = true;
/// let mut out = Vec::new();
/// let done = convert(Input::Path(path), format("xbel").unwrap(), &opts, Target::Stream(&mut out)).unwrap();
/// assert_eq!(done.refused, Some(Refusal::Loss));
/// assert!(out.is_empty());
///
/// let failed = convert(
///     Input::Bytes(b"<xbel version=\"1.0\"><folder>".to_vec()),
///     format("json").unwrap(),
///     &ConvertOptions::default(),
///     Target::Stream(&mut out),
/// )
/// .unwrap_err();
/// assert_eq!(failed.stage, Stage::Read);
/// assert!(failed.error.location.is_some() && out.is_empty());
/// ```
pub fn convert(
    input: Input,
    to: &'static Format,
    opts: &ConvertOptions,
    target: Target<'_>,
) -> Result<Converted, JobError> {
    let job = Job {
        from: opts.from,
        read: opts.read.clone(),
        operations: opts.operations.clone(),
        fail_on_loss: opts.fail_on_loss,
        allow_loss: opts.allow_loss.clone(),
        fail_on_extension: opts.fail_on_extension,
        ..Job::new(
            vec![input],
            To::Format {
                format: to,
                options: opts.write.clone(),
            },
        )
    };
    let done = run(job, target)?;
    let input = done.inputs.into_iter().next().expect("one input");
    Ok(Converted {
        from: input.from,
        document: done.document,
        diagnostics: input.diagnostics,
        loss: done.loss,
        refused: done.refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job whose deadline has passed stops with `Cancelled` and writes
    /// nothing, whichever format reads its input (one that charges a
    /// budget and one that does not: the check between stages catches it).
    #[test]
    fn a_job_past_its_deadline_stops_and_writes_nothing() {
        let xbel = br#"<xbel version="1.0"><bookmark href="https://example.org/"/></xbel>"#;
        let to = To::Format {
            format: crate::format("netscape").unwrap(),
            options: WriteOptions::default(),
        };
        let mut job = Job::new(vec![Input::from(&xbel[..])], to);
        job.read.deadline = Some(std::time::Instant::now());
        let mut out = Vec::new();
        let e = run(job, Target::Stream(&mut out)).unwrap_err();
        assert_eq!(e.error.kind, ErrorKind::Cancelled, "{e}");
        assert!(out.is_empty());
        let to = To::Format {
            format: crate::format("netscape").unwrap(),
            options: WriteOptions::default(),
        };
        let mut job = Job::new(vec![Input::from(&xbel[..])], to);
        job.read.deadline = Some(std::time::Instant::now() + std::time::Duration::from_secs(3600));
        run(job, Target::Stream(&mut out)).unwrap();
        assert!(!out.is_empty(), "a deadline not reached changes nothing");
    }
}
