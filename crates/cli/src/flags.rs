//! The flags every subcommand that reads and writes shares, defined once
//! and flattened into each (`crates/cli/tests/flags.rs` walks every
//! subcommand and fails where a writing one lacks one): how to read, how to
//! write, the gates, where the report goes, and the operations. The same
//! flag has the same words in every help.

use std::path::PathBuf;

use clap::Args;

use markport::{Field, ReadOptions, WriteOptions};

use crate::failure::Failure;
use crate::operations::OperationFlags;

/// Everything a job takes from the command line but its inputs and
/// output: flattened into `convert`, `merge`, `publish` and `roundtrip`.
#[derive(Args, Clone, Default)]
pub(crate) struct JobFlags {
    /// The input format (default: detected from each input's content).
    #[arg(short, long, value_name = "FORMAT", value_parser = format_names())]
    pub(crate) from: Option<String>,
    /// Where the bookmarks are going: write the file its import takes
    /// (unless --to says otherwise), with the folder names it shows, say
    /// how to import it, and report what its import drops or changes
    /// (docs/formats/destinations.md).
    #[arg(long = "for", value_name = "DESTINATION", value_parser = destination_names())]
    pub(crate) destination: Option<String>,
    #[command(flatten)]
    pub(crate) read: ReadFlags,
    #[command(flatten)]
    pub(crate) write: WriteFlags,
    #[command(flatten)]
    pub(crate) gates: GateFlags,
    #[command(flatten)]
    pub(crate) report: ReportFlags,
    #[command(flatten)]
    pub(crate) operations: OperationFlags,
}

/// When nothing may be written.
#[derive(Args, Clone, Default)]
pub(crate) struct GateFlags {
    /// Exit 1 when anything would be lost, and write no output (the report
    /// says what).
    #[arg(long)]
    pub(crate) fail_on_loss: bool,
    /// With --fail-on-loss (which it turns on): these fields may be lost or
    /// changed, as the report names them (`bookmark.guid`,
    /// `bookmark.added.form`; `folder`/`bookmark` for placement).
    #[arg(long, value_name = "FIELD,...", value_delimiter = ',', value_parser = field_name)]
    pub(crate) allow_loss: Vec<Field>,
    /// Exit 1 when anything is carried only in an extension other readers
    /// of the format ignore (XBEL: markport's own metadata block; Netscape:
    /// the marker that keeps an untitled bookmark untitled), and write no
    /// output.
    #[arg(long)]
    pub(crate) fail_on_extension: bool,
    /// Write an output with no bookmark although the input had some
    /// (without it, such an output is not written: exit 1, naming what
    /// removed them).
    #[arg(long)]
    pub(crate) allow_empty: bool,
    /// Read, change and convert, print the summary and the report, and
    /// write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// Where and how the report is printed.
#[derive(Args, Clone, Default)]
pub(crate) struct ReportFlags {
    /// Print the report as JSON (docs/report.md).
    #[arg(long)]
    pub(crate) json: bool,
    /// Write the report to this file instead of standard error.
    #[arg(long, value_name = "PATH")]
    pub(crate) report_file: Option<PathBuf>,
}

impl JobFlags {
    /// The job these flags describe, for `inputs` and `to`.
    pub(crate) fn job(
        &self,
        inputs: Vec<markport::Input>,
        to: markport::To,
    ) -> Result<markport::Job, Failure> {
        let mut job = markport::Job::new(inputs, to);
        job.from = crate::files::named_format(self.from.as_deref())?;
        job.read = self.read.options();
        job.operations = self.operations.operations()?;
        job.keep_empty = self.operations.keep_empty();
        job.fail_on_loss = self.gates.fail_on_loss || !self.gates.allow_loss.is_empty();
        job.allow_loss = self.gates.allow_loss.clone();
        job.fail_on_extension = self.gates.fail_on_extension;
        job.allow_empty = self.gates.allow_empty;
        job.destination = self.destination();
        Ok(job)
    }

    /// The destination `--for` names.
    pub(crate) fn destination(&self) -> Option<&'static markport::Destination> {
        self.destination.as_deref().and_then(markport::destination)
    }
}

/// Options that change how input is read.
#[derive(Args, Clone, Default)]
pub(crate) struct ReadFlags {
    /// Treat every reader warning as an error.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Netscape HTML and xFolk: decode with this encoding instead of detecting it.
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// xFolk: the address the page was published at, for relative links.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// CSV: which column is which field, over the header names
    /// (`url=Link,title=Name`; `folder=` for none; docs/formats/csv.md).
    #[arg(long, value_name = "FIELD=COLUMN,...", value_parser = csv_map)]
    csv_map: Option<CsvMap>,
    /// Arc: keep each space's unpinned "Today" tabs, in a folder "Today"
    /// inside the space's (by default they are skipped and counted).
    #[arg(long)]
    arc_today: bool,
    #[command(flatten)]
    budget: BudgetFlags,
}

/// `--memory-budget`, defined once: every subcommand that reads a
/// collection takes it (`check` and `diff` take it alone, their other read
/// flags meaning something else or nothing there).
#[derive(Args, Clone, Default)]
pub(crate) struct BudgetFlags {
    /// The most memory the collection read may take (`512M`, `4G`, bytes,
    /// or `none`); by default twice the bytes read plus 128 MiB. A file
    /// shaped to cost more (rows of a few bytes, one value copied to many
    /// bookmarks) is refused past it.
    #[arg(long, value_name = "SIZE", value_parser = memory_size)]
    pub(crate) memory_budget: Option<u64>,
}

/// `--memory-budget`'s value in bytes: a number with an optional K, M, G or
/// T (powers of 1024, an optional B after), or `none` for no limit.
fn memory_size(value: &str) -> Result<u64, String> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("none") {
        return Ok(u64::MAX);
    }
    let upper = v.to_ascii_uppercase();
    let upper = upper.strip_suffix('B').unwrap_or(&upper);
    let (digits, shift) = match upper.chars().last() {
        Some('K') => (&upper[..upper.len() - 1], 10),
        Some('M') => (&upper[..upper.len() - 1], 20),
        Some('G') => (&upper[..upper.len() - 1], 30),
        Some('T') => (&upper[..upper.len() - 1], 40),
        _ => (upper, 0),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1u64 << shift))
        .ok_or_else(|| format!("{value:?} is not a size (512M, 4G, a number of bytes, or none)"))
}

/// `--csv-map`'s (field, column) pairs.
#[derive(Clone)]
struct CsvMap(Vec<(String, String)>);

/// `--csv-map`'s value as (field, column) pairs; the reader checks the names.
fn csv_map(value: &str) -> Result<CsvMap, String> {
    value
        .split(',')
        .map(|pair| {
            pair.split_once('=')
                .map(|(f, c)| (f.trim().to_string(), c.trim().to_string()))
                .ok_or_else(|| format!("{pair:?} is not FIELD=COLUMN"))
        })
        .collect::<Result<_, _>>()
        .map(CsvMap)
}

impl ReadFlags {
    pub(crate) fn options(&self) -> ReadOptions {
        let mut opts = ReadOptions::default();
        opts.strict = self.strict;
        opts.encoding = self.encoding.clone();
        opts.xfolk.base_url = self.base_url.clone();
        opts.csv.map = self.csv_map.clone().map(|m| m.0).unwrap_or_default();
        opts.csv.explain = crate::say::verbose_on();
        opts.memory_budget = self.budget.memory_budget;
        opts.arc.keep_today = self.arc_today;
        opts
    }
}

/// What an xFolk page (`--to xfolk`, `publish`) shows.
#[derive(Args, Clone, Default)]
pub(crate) struct XfolkFlags {
    /// xFolk: publish private bookmarks too.
    #[arg(long)]
    include_private: bool,
    /// xFolk: publish javascript:, data: and vbscript: links as live links.
    #[arg(long)]
    allow_script_urls: bool,
    /// xFolk: publish links only a browser opens as live links: its own
    /// pages and local files (chrome:, edge:, about:, file:, ...), Firefox
    /// place: queries and %s keyword-search templates (none is a web page).
    #[arg(long)]
    allow_browser_urls: bool,
}

impl XfolkFlags {
    /// Set the flags' options in `opts`.
    pub(crate) fn apply(&self, opts: &mut markport::model::XfolkWriteOptions) {
        opts.include_private = self.include_private;
        opts.allow_script_urls = self.allow_script_urls;
        opts.allow_browser_urls = self.allow_browser_urls;
    }
}

/// Options that change how output is written.
#[derive(Args, Clone, Default)]
pub(crate) struct WriteFlags {
    /// XBEL: leave out markport's metadata block, for output that validates
    /// against the XBEL 1.0 DTD (what only that block carries is reported lost).
    #[arg(long)]
    xbel_strict: bool,
    /// Desktop: register bookmarks that have no application under this name.
    #[arg(long, value_name = "NAME")]
    app_name: Option<String>,
    /// Desktop: the command line of --app-name (`%u` is the URI, `%f` the file).
    #[arg(long, value_name = "CMD")]
    app_exec: Option<String>,
    #[command(flatten)]
    xfolk: XfolkFlags,
    /// xFolk: the address tag links point under.
    #[arg(long, value_name = "URL")]
    tag_base: Option<String>,
    /// Firefox: write the compressed .jsonlz4 form (the default when the
    /// output ends in .jsonlz4, .baklz4 or .mozlz4).
    #[arg(long)]
    jsonlz4: bool,
}

impl WriteFlags {
    pub(crate) fn options(&self) -> WriteOptions {
        let mut opts = WriteOptions::default();
        opts.xbel.strict = self.xbel_strict;
        opts.desktop.app_name = self.app_name.clone();
        opts.desktop.app_exec = self.app_exec.clone();
        self.xfolk.apply(&mut opts.xfolk);
        opts.xfolk.tag_base = self.tag_base.clone();
        opts.firefox.compress = self.jsonlz4;
        opts
    }
}

/// A field as the report names it (`bookmark.guid`), for `--allow-loss`;
/// a wrong name is refused with the list of names.
pub(crate) fn field_name(name: &str) -> Result<Field, String> {
    name.trim().parse().map_err(|e: String| {
        let names: Vec<_> = Field::ALL.iter().map(|f| f.name()).collect();
        format!("{e}; the fields are: {}", names.join(", "))
    })
}

/// The destinations' names, so `--help` lists them and a wrong name is
/// refused with the choices.
pub(crate) fn destination_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(markport::destination_names())
}

/// The registered formats' names, so `--help` lists them and a wrong name
/// is refused with the choices.
pub(crate) fn format_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(markport::FORMATS.iter().map(possible_value))
}

/// A format as clap offers it: its name, answering to its aliases too.
fn possible_value(f: &'static markport::Format) -> clap::builder::PossibleValue {
    clap::builder::PossibleValue::new(f.name).aliases(markport::aliases_of(f))
}

/// The names of the formats markport writes, for `--to` and `--via`: `--help`
/// lists them, and a read-only format's name is refused saying so.
#[derive(Clone)]
pub(crate) struct WritableFormat;

impl clap::builder::TypedValueParser for WritableFormat {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        if let Some(f) = value.to_str().and_then(markport::format) {
            if let Err(e) = f.writer() {
                let flag = arg.map_or_else(String::new, |a| format!("{a}: "));
                return Err(clap::Error::raw(
                    clap::error::ErrorKind::InvalidValue,
                    format!("{flag}{}\n", e.message),
                )
                .with_cmd(cmd));
            }
        }
        let writable =
            clap::builder::PossibleValuesParser::new(markport::writable().map(possible_value));
        writable.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(markport::writable().map(possible_value)))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use clap::CommandFactory;

    /// The subcommands that read and write a collection: each takes every
    /// flag of [`super::JobFlags`].
    const WRITING: [&str; 5] = ["convert", "merge", "publish", "roundtrip", "links"];

    /// The flags the house issue names: every writing subcommand has them.
    const SHARED: [&str; 14] = [
        "from",
        "for",
        "encoding",
        "strict",
        "json",
        "report-file",
        "fail-on-loss",
        "allow-loss",
        "fail-on-extension",
        "include-private",
        "xbel-strict",
        "dedupe",
        "allow-empty",
        "dry-run",
    ];

    #[test]
    fn every_writing_subcommand_takes_the_shared_flags_with_the_same_words() {
        let cli = crate::Cli::command();
        // The same flag says the same thing wherever it appears.
        let mut help: BTreeMap<String, (String, String)> = BTreeMap::new();
        let mut writing_seen = Vec::new();
        for sub in cli.get_subcommands() {
            let name = sub.get_name().to_string();
            let flags: Vec<_> = sub
                .get_arguments()
                .filter_map(|a| a.get_long().map(|l| (l.to_string(), a)))
                .collect();
            // A subcommand that writes an output file is a writing one, so
            // a new one cannot slip past the shared flags.
            if flags.iter().any(|(l, _)| l == "output" || l == "via") && name != "desktop" {
                assert!(
                    WRITING.contains(&name.as_str()),
                    "{name} writes (it has -o): add it to WRITING and flatten JobFlags into it"
                );
            }
            if WRITING.contains(&name.as_str()) {
                writing_seen.push(name.clone());
                for want in SHARED {
                    assert!(
                        flags.iter().any(|(l, _)| l == want),
                        "{name} lacks --{want}: flatten crate::flags::JobFlags into it"
                    );
                }
            }
            for (long, arg) in &flags {
                // A site is a directory, not a file: its -o says so.
                if (name.as_str(), long.as_str()) == ("publish", "output") {
                    continue;
                }
                let words = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                match help.get(long) {
                    Some((first, said))
                        if WRITING.contains(&name.as_str())
                            && WRITING.contains(&first.as_str()) =>
                    {
                        assert_eq!(
                            said, &words,
                            "--{long} says different things in {first} and {name}"
                        )
                    }
                    Some(_) => {}
                    None => {
                        help.insert(long.clone(), (name.clone(), words));
                    }
                }
            }
        }
        let links = usize::from(cfg!(feature = "links"));
        assert_eq!(
            writing_seen.len(),
            WRITING.len() - 1 + links,
            "{writing_seen:?}"
        );
    }
}
