//! One function per subcommand.

use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde::Serialize;

use markport::{Field, ReadOptions, WriteOptions};

use crate::exit;
use crate::failure::Failure;
use crate::files::{self, display_name, is_std, load, Output};
use crate::operations::OperationFlags;
use crate::report::{Report, REPORT_VERSION};

/// How to print a report.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum ReportStyle {
    /// For people.
    Text,
    /// Stable JSON for programs (see docs/report.md).
    Json,
}

/// Options that change how input is read.
#[derive(Args, Clone, Default)]
pub(crate) struct ReadFlags {
    /// Treat every reader warning as an error.
    #[arg(long)]
    strict: bool,
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
    /// The most memory the collection read may take (`512M`, `4G`, bytes,
    /// or `none`); by default twice the bytes read plus 128 MiB. A file
    /// shaped to cost more (rows of a few bytes, one value copied to many
    /// bookmarks) is refused past it.
    #[arg(long, value_name = "SIZE", value_parser = memory_size)]
    memory_budget: Option<u64>,
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
    fn options(&self) -> ReadOptions {
        let mut opts = ReadOptions::default();
        opts.strict = self.strict;
        opts.encoding = self.encoding.clone();
        opts.xfolk.base_url = self.base_url.clone();
        opts.csv.map = self.csv_map.clone().map(|m| m.0).unwrap_or_default();
        opts.csv.explain = crate::say::verbose_on();
        opts.memory_budget = self.memory_budget;
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
    /// xFolk: publish Firefox place: queries and %s keyword-search templates
    /// as live links (they are not web pages).
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
    fn options(&self) -> WriteOptions {
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

#[derive(Args)]
pub(crate) struct ConvertArgs {
    /// The file to convert (`-`: standard input).
    #[arg(default_value = "-")]
    input: PathBuf,
    /// Where to write (`-`: standard output). A regular file is written to a
    /// temporary file and renamed into place, never half-written; a link is
    /// followed; a device or FIFO is written through (docs/output.md).
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// A second file is not taken as the output: said, with the -o to use.
    #[arg(hide = true)]
    second: Option<PathBuf>,
    /// The input format (default: detected from the content).
    #[arg(short, long, value_name = "FORMAT", value_parser = format_names())]
    from: Option<String>,
    /// The output format (default: from the -o extension; `html` is netscape).
    #[arg(short, long, value_name = "FORMAT", value_parser = WritableFormat)]
    to: Option<String>,
    /// Print the report of what was lost as JSON (docs/report.md).
    #[arg(long)]
    json: bool,
    /// The report's style (the older spelling of --json).
    #[arg(long, value_enum, default_value = "text", hide = true)]
    report: ReportStyle,
    /// Write the report to this file instead of standard error.
    #[arg(long, value_name = "PATH")]
    report_file: Option<PathBuf>,
    /// Exit 1 when anything would be lost, and write no output (the report
    /// says what).
    #[arg(long)]
    fail_on_loss: bool,
    /// With --fail-on-loss (which it turns on): these fields may be lost or
    /// changed, as the report names them (`bookmark.guid`,
    /// `bookmark.added.form`; `folder`/`bookmark` for placement).
    #[arg(long, value_name = "FIELD,...", value_delimiter = ',', value_parser = field_name)]
    allow_loss: Vec<Field>,
    /// Exit 1 when anything is carried only in an extension other readers
    /// of the format ignore (XBEL: markport's own metadata block; Netscape:
    /// the marker that keeps an untitled bookmark untitled), and write no
    /// output.
    #[arg(long)]
    fail_on_extension: bool,
    #[command(flatten)]
    read: ReadFlags,
    #[command(flatten)]
    write: WriteFlags,
    #[command(flatten)]
    operations: OperationFlags,
}

/// A field as the report names it (`bookmark.guid`), for `--allow-loss`;
/// a wrong name is refused with the list of names.
pub(crate) fn field_name(name: &str) -> Result<Field, String> {
    name.trim().parse().map_err(|e: String| {
        let names: Vec<_> = Field::ALL.iter().map(|f| f.name()).collect();
        format!("{e}; the fields are: {}", names.join(", "))
    })
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

/// Run a command body, turning its failure into exit 2 with a message.
fn run(body: impl FnOnce() -> Result<u8, Failure>) -> u8 {
    body().unwrap_or_else(|f| f.report())
}

pub(crate) fn convert(a: ConvertArgs) -> u8 {
    run(|| try_convert(&a))
}

/// Refuse a `--report-file` that would collide with the output or the input
/// before anything is read or written.
fn check_report_file(a: &ConvertArgs) -> Result<(), Failure> {
    let Some(report) = a.report_file.as_deref() else {
        return Ok(());
    };
    let output = a.output.as_deref().unwrap_or(Path::new("-"));
    let collides = if is_std(report) || is_std(output) {
        is_std(report) && is_std(output)
    } else {
        markport::output::same_destination(report, output)
    };
    if collides {
        return Err(Failure::in_file(
            report.display(),
            "--report-file is the output file; choose another",
        ));
    }
    if !is_std(report) && !is_std(&a.input) && markport::output::same_destination(report, &a.input)
    {
        return Err(Failure::in_file(
            report.display(),
            "refusing to write the report over the input file",
        ));
    }
    Ok(())
}

/// The flags of `convert` as the library's options.
fn convert_options(a: &ConvertArgs) -> Result<markport::ConvertOptions, Failure> {
    let mut opts = markport::ConvertOptions::default();
    opts.from = files::named_format(a.from.as_deref())?;
    opts.read = a.read.options();
    opts.operations = a.operations.operations()?;
    opts.write = markport::options_for_path(a.write.options(), a.output.as_deref());
    opts.fail_on_loss = a.fail_on_loss || !a.allow_loss.is_empty();
    opts.allow_loss = a.allow_loss.clone();
    opts.fail_on_extension = a.fail_on_extension;
    Ok(opts)
}

/// `convert` is the library's one pipeline ([`markport::convert`]): this
/// maps the flags, prepares the destinations, and prints the report.
fn try_convert(a: &ConvertArgs) -> Result<u8, Failure> {
    if let Some(second) = &a.second {
        return Err(Failure::new(format_args!(
            "convert takes one input file; to write {0}, say `-o {0}`",
            second.display()
        )));
    }
    check_report_file(a)?;
    // A read-only target is refused before the input is read.
    let to = files::output_format(a.to.as_deref(), a.output.as_deref())?;
    let opts = convert_options(a)?;
    let to_stdout = a.output.as_deref().is_none_or(is_std);
    if to_stdout && to.writes_binary(&opts.write) && std::io::stdout().is_terminal() {
        return Err(Failure::new(format_args!(
            "refusing to write binary {} output to the terminal; say -o FILE or redirect it",
            to.name
        )));
    }
    // A file is given by its path, so a format whose file has companions
    // (places.sqlite's -wal) reads them; standard input is its bytes.
    let input = files::input(&a.input)?;
    // Both destinations are prepared (temporary files made, devices opened,
    // permissions checked) before either is written, so a report that cannot
    // be written never leaves a replaced output behind.
    let out = Output::open_for(to, a.output.as_deref(), &[&a.input])?;
    let output_name = out.name().to_string();
    let report_out = match &a.report_file {
        Some(path) => Some(Output::open(Some(path), &[&a.input])?),
        None => None,
    };
    let input_name = display_name(&a.input);
    let done = out
        .convert_into(|target| markport::convert(input, to, &opts, target))
        .map_err(|e| match e.stage {
            markport::Stage::Read | markport::Stage::Operate => files::read_failure(&a.input, &e),
            markport::Stage::Write if e.error.kind == markport::ErrorKind::Io => {
                Failure::in_file(&output_name, &e.error.message)
            }
            markport::Stage::Write => {
                Failure::new(format_args!("writing {}: {}", to.name, e.error))
            }
        })?;
    // The document is used to the end of the process: freeing it string by
    // string would take longer than the exit.
    let done = files::never_dropped(done);
    files::said_read(&a.input, &done.from);
    let loss = &done.loss;
    let report = Report {
        markport_report: REPORT_VERSION,
        input: &input_name,
        from: done.from.format.name,
        output: &output_name,
        to: to.name,
        diagnostics: &done.diagnostics,
        losses: &loss.losses,
        lost: !loss.is_empty(),
        extensions: &loss.extensions,
        extended: loss.has_extensions(),
        changes: &loss.changes,
        destination: &loss.destination,
    };
    let json = a.json || a.report == ReportStyle::Json;
    let mut text = if json { report.json() } else { report.text() };
    if let (Some(refused), false) = (done.refused, json) {
        let flag = match refused {
            markport::Refusal::Loss => {
                let fields = loss.not_allowed(&opts.allow_loss);
                let names: Vec<_> = fields.iter().map(|f| f.name()).collect();
                format!("--fail-on-loss ({} not allowed)", names.join(", "))
            }
            markport::Refusal::Extension => "--fail-on-extension".to_string(),
        };
        text.push_str(&format!("nothing written: {flag}\n"));
    }
    match report_out {
        Some(mut f) => {
            f.write(text.as_bytes())?;
            f.finish(true)?;
        }
        None if crate::say::quiet() && done.refused.is_none() && !json => {}
        None => crate::say::err(format_args!("{text}")),
    }
    Ok(if done.refused.is_some() {
        exit::DIFFERENT
    } else {
        exit::OK
    })
}

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// The file to look at (`-`: standard input).
    file: PathBuf,
    /// Its format (default: detected).
    #[arg(short, long, value_name = "FORMAT", value_parser = format_names())]
    from: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    read: ReadFlags,
}

#[derive(Serialize)]
struct Info<'a> {
    file: &'a str,
    format: &'a str,
    #[serde(flatten)]
    census: markport::model::Census,
    diagnostics: &'a [markport::Diagnostic],
}

pub(crate) fn info(a: InfoArgs) -> u8 {
    run(|| try_info(&a))
}

fn try_info(a: &InfoArgs) -> Result<u8, Failure> {
    // --strict lists every warning and then fails, rather than stopping
    // the read at the first one as convert does.
    let mut read_opts = a.read.options();
    read_opts.strict = false;
    let (format, read) = load(&a.file, a.from.as_deref(), &read_opts)?;
    let warned = a.read.strict
        && read
            .diagnostics
            .iter()
            .any(|d| d.severity == markport::model::Severity::Warning);
    let code = if warned { exit::DIFFERENT } else { exit::OK };
    let read = files::never_dropped(read);
    let mut out = files::stdout()?;
    let census = read.document.census();
    let name = display_name(&a.file);
    if a.json {
        let info = Info {
            file: &name,
            format: format.name,
            census,
            diagnostics: &read.diagnostics,
        };
        serde_json::to_writer_pretty(&mut out, &info)?;
        writeln!(out)?;
        files::finish_stdout(out)?;
        return Ok(code);
    }
    writeln!(out, "{name}: {} ({})", format.name, format.description)?;
    writeln!(
        out,
        "  {}, {}, {}, {}, depth {}",
        count(census.bookmarks, "bookmark"),
        count(census.folders, "folder"),
        count(census.separators, "separator"),
        count(census.aliases, "alias"),
        census.depth
    )?;
    writeln!(out, "  fields present:")?;
    for (field, count) in &census.fields {
        writeln!(out, "    {:<26} {count}", field.name())?;
    }
    if !read.diagnostics.is_empty() {
        writeln!(out, "  diagnostics:")?;
        for d in &read.diagnostics {
            writeln!(out, "    {d}")?;
        }
    }
    files::finish_stdout(out)?;
    Ok(code)
}

/// `1 bookmark`, `2 bookmarks`, `1 alias`, `2 aliases`.
fn count(n: usize, noun: &str) -> String {
    match (n, noun.ends_with('s')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{n} {noun}es"),
        _ => format!("{n} {noun}s"),
    }
}

#[derive(Args)]
pub(crate) struct DiffArgs {
    /// The first file.
    a: PathBuf,
    /// The second file.
    b: PathBuf,
    /// The first file's format (default: detected).
    #[arg(long, value_name = "FORMAT", value_parser = format_names())]
    from_a: Option<String>,
    /// The second file's format (default: detected).
    #[arg(long, value_name = "FORMAT", value_parser = format_names())]
    from_b: Option<String>,
    /// Show the two values of each differing field (long ones shortened).
    #[arg(long)]
    values: bool,
    /// List every node that differs (default: the first five of each file).
    #[arg(long)]
    all: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

fn print_diff(out: &mut dyn Write, d: &markport::Diff, json: bool) -> std::io::Result<()> {
    if json {
        serde_json::to_writer_pretty(&mut *out, d)?;
        return writeln!(out);
    }
    for x in &d.differences {
        writeln!(out, "{x}")?;
    }
    Ok(())
}

pub(crate) fn diff(a: DiffArgs) -> u8 {
    run(|| try_diff(&a))
}

fn try_diff(a: &DiffArgs) -> Result<u8, Failure> {
    let opts = ReadOptions::default();
    let (_, ra) = load(&a.a, a.from_a.as_deref(), &opts)?;
    let (_, rb) = load(&a.b, a.from_b.as_deref(), &opts)?;
    let mut out = files::stdout()?;
    let max_paths = if a.all {
        usize::MAX
    } else {
        markport::model::MAX_PATHS
    };
    let d = markport::diff_listing(&ra.document, &rb.document, max_paths);
    let (name_a, name_b) = (display_name(&a.a), display_name(&a.b));
    if a.values {
        let (left, right) = (&ra.document, &rb.document);
        let differences: Vec<_> = d
            .differences
            .iter()
            .map(|x| WithValues {
                difference: x,
                values: markport::values(left, right, x),
            })
            .collect();
        if a.json {
            let mut differences = differences;
            for v in differences.iter_mut().flat_map(|x| &mut x.values) {
                shorten(&mut v.left, JSON_VALUE_CHARS);
                shorten(&mut v.right, JSON_VALUE_CHARS);
            }
            serde_json::to_writer_pretty(&mut out, &DiffWithValues { differences })?;
            writeln!(out)?;
        } else {
            for x in &differences {
                writeln!(out, "{}", x.difference)?;
                for v in &x.values {
                    let indent = match &v.path {
                        Some(path) if v.only_second => {
                            writeln!(out, "  {path} (only in {name_b})")?;
                            "    "
                        }
                        Some(path) => {
                            writeln!(out, "  {path}")?;
                            "    "
                        }
                        None => "  ",
                    };
                    writeln!(out, "{indent}{name_a}: {}", shown(&v.left))?;
                    writeln!(out, "{indent}{name_b}: {}", shown(&v.right))?;
                }
            }
        }
    } else {
        print_diff(&mut out, &d, a.json)?;
    }
    if d.is_empty() && !a.json {
        writeln!(out, "{name_a} and {name_b} carry the same bookmarks")?;
    }
    files::finish_stdout(out)?;
    Ok(if d.is_empty() {
        exit::OK
    } else {
        exit::DIFFERENT
    })
}

/// `diff --values --json`: each difference with its values.
#[derive(Serialize)]
struct DiffWithValues<'a> {
    differences: Vec<WithValues<'a>>,
}

#[derive(Serialize)]
struct WithValues<'a> {
    #[serde(flatten)]
    difference: &'a markport::Difference,
    values: Vec<markport::Values>,
}

/// How much of a value `diff --values` prints: a line's worth as text, more
/// as JSON, where a program may want it but a favicon's data URI would still
/// drown the rest.
const TEXT_VALUE_CHARS: usize = 100;
const JSON_VALUE_CHARS: usize = 500;

/// A value on one line, as JSON (a string quoted, its control characters
/// escaped, so nothing in a file can move the terminal's cursor), shortened.
fn shown(v: &serde_json::Value) -> String {
    if v.is_null() {
        return "(not set)".into();
    }
    let text = v.to_string();
    match text.char_indices().nth(TEXT_VALUE_CHARS) {
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
        None => text,
    }
}

/// Shorten every string in `v` to `max` characters (and a `…`). The model's
/// values nest a few levels at most; the walk keeps its own stack anyway.
fn shorten(v: &mut serde_json::Value, max: usize) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::String(s) => {
                if let Some((cut, _)) = s.char_indices().nth(max) {
                    s.truncate(cut);
                    s.push('…');
                }
            }
            serde_json::Value::Array(items) => stack.extend(items.iter_mut()),
            serde_json::Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
}

#[derive(Args)]
pub(crate) struct RoundtripArgs {
    /// The file to send through another format.
    file: PathBuf,
    /// The format to go through.
    #[arg(long, value_name = "FORMAT", value_parser = WritableFormat)]
    via: String,
    /// The file's format (default: detected).
    #[arg(short, long, value_name = "FORMAT", value_parser = format_names())]
    from: Option<String>,
    /// Exit 1 when anything did not survive. (The exit is 1 whenever the
    /// writer's report was not exact, with or without this.)
    #[arg(long)]
    fail_on_loss: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    write: WriteFlags,
    #[command(flatten)]
    operations: OperationFlags,
}

#[derive(Serialize)]
struct Roundtrip<'a> {
    file: &'a str,
    from: &'a str,
    via: &'a str,
    reported: &'a [markport::model::ReportEntry],
    differences: &'a [markport::Difference],
    report_is_true: bool,
    /// What the operations changed before the trip (not losses).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    changes: &'a [markport::model::ReportEntry],
}

pub(crate) fn roundtrip(a: RoundtripArgs) -> u8 {
    run(|| try_roundtrip(&a))
}

fn try_roundtrip(a: &RoundtripArgs) -> Result<u8, Failure> {
    let via = markport::format(&a.via).expect("clap checked the name");
    let operations = a.operations.operations()?;
    let (from, mut read) = load(&a.file, a.from.as_deref(), &ReadOptions::default())?;
    let changes = markport::ops::apply(&mut read.document, &operations)
        .map_err(|e| Failure::in_file(display_name(&a.file), e.message))?;
    let trip = markport::roundtrip(&read.document, via, &a.write.options()).map_err(|e| {
        Failure::in_file(display_name(&a.file), format_args!("via {}: {e}", via.name))
    })?;
    let (d, loss) = (&trip.diff, &trip.loss);
    let true_report = trip.exact();
    let name = display_name(&a.file);
    let mut out = files::stdout()?;
    if a.json {
        let r = Roundtrip {
            file: &name,
            from: from.name,
            via: via.name,
            reported: &loss.losses,
            differences: &d.differences,
            report_is_true: true_report,
            changes: &changes.changes,
        };
        serde_json::to_writer_pretty(&mut out, &r)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{name}: {} -> {} -> {}",
            from.name, via.name, from.name
        )?;
        if d.is_empty() {
            writeln!(out, "everything survived")?;
        } else {
            writeln!(out, "did not survive:")?;
            print_diff(&mut out, d, false)?;
        }
        if !loss.is_empty() {
            writeln!(out, "the {} writer reported:", via.name)?;
            write!(out, "{loss}")?;
        }
        write!(out, "{}", crate::report::changes_text(&changes.changes))?;
        if !true_report {
            let names = |v: Vec<Field>| v.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ");
            writeln!(
                out,
                "error: the loss report is not exact (unreported: [{}]; reported but kept: [{}])",
                names(trip.unreported()),
                names(trip.reported_but_kept())
            )?;
        }
    }
    files::finish_stdout(out)?;
    // A report that is not exact is a bug in markport: never exit 0 on it.
    Ok(if !true_report || (a.fail_on_loss && !d.is_empty()) {
        exit::DIFFERENT
    } else {
        exit::OK
    })
}

#[derive(Args)]
pub(crate) struct FormatsArgs {
    /// Print the matrix as Markdown (the text of docs/loss-matrix.md).
    #[arg(long)]
    markdown: bool,
}

pub(crate) fn formats(a: FormatsArgs) -> u8 {
    run(|| try_formats(&a))
}

fn try_formats(a: &FormatsArgs) -> Result<u8, Failure> {
    let mut out = files::stdout()?;
    if a.markdown {
        write!(out, "{}", markport::matrix::markdown())?;
    } else {
        for f in markport::FORMATS {
            let ext = f
                .extensions
                .iter()
                .map(|e| format!(".{e}"))
                .collect::<Vec<_>>()
                .join(" ");
            let description = if f.writable() {
                f.description.to_string()
            } else {
                format!("{} (read only)", f.description)
            };
            writeln!(out, "{:<10} {:<12} {}", f.name, ext, description)?;
        }
        writeln!(out)?;
        write!(out, "{}", markport::matrix::text())?;
    }
    files::finish_stdout(out)?;
    Ok(exit::OK)
}
