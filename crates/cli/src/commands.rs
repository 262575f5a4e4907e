//! One function per subcommand.

use clap::{Args, ValueEnum};
use serde::Serialize;

use markport::{diff as model_diff, Field, ReadOptions, WriteOptions};

use crate::exit;
use crate::files::{self, display_name, load, Failure, Output};
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
    /// Netscape HTML: decode with this encoding instead of detecting it.
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// xFolk: the address the page was published at, for relative links.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
}

impl ReadFlags {
    fn options(&self) -> ReadOptions {
        ReadOptions {
            strict: self.strict,
            encoding: self.encoding.clone(),
            base_url: self.base_url.clone(),
        }
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
    /// xFolk: publish private bookmarks too.
    #[arg(long)]
    include_private: bool,
    /// xFolk: publish javascript:, data: and vbscript: links as live links.
    #[arg(long)]
    allow_script_urls: bool,
    /// xFolk: the address tag links point under.
    #[arg(long, value_name = "URL")]
    tag_base: Option<String>,
}

impl WriteFlags {
    fn options(&self) -> WriteOptions {
        WriteOptions {
            xbel_strict: self.xbel_strict,
            app_name: self.app_name.clone(),
            app_exec: self.app_exec.clone(),
            include_private: self.include_private,
            allow_script_urls: self.allow_script_urls,
            tag_base: self.tag_base.clone(),
        }
    }
}

#[derive(Args)]
pub(crate) struct ConvertArgs {
    /// The file to convert (`-`: standard input).
    #[arg(default_value = "-")]
    input: String,
    /// Where to write (`-`: standard output). Written to a temporary file and
    /// renamed into place, never half-written.
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<String>,
    /// The input format (default: detected from the content).
    #[arg(long, value_name = "FORMAT")]
    from: Option<String>,
    /// The output format (default: from the -o extension when unambiguous).
    #[arg(long, value_name = "FORMAT")]
    to: Option<String>,
    /// How to print the report of what was lost.
    #[arg(long, value_enum, default_value = "text")]
    report: ReportStyle,
    /// Write the report to this file instead of standard error.
    #[arg(long, value_name = "PATH")]
    report_file: Option<String>,
    /// Exit 1 when anything was lost.
    #[arg(long)]
    fail_on_loss: bool,
    /// Exit 1 when anything is carried only in an extension other readers
    /// of the format ignore (XBEL: markport's own metadata block).
    #[arg(long)]
    fail_on_extension: bool,
    #[command(flatten)]
    read: ReadFlags,
    #[command(flatten)]
    write: WriteFlags,
}

fn fail(f: Failure) -> u8 {
    eprintln!("markport: {}", f.0);
    exit::ERROR
}

pub(crate) fn convert(a: ConvertArgs) -> u8 {
    match try_convert(&a) {
        Ok(code) => code,
        Err(f) => fail(f),
    }
}

fn try_convert(a: &ConvertArgs) -> Result<u8, Failure> {
    let to = files::output_format(a.to.as_deref(), a.output.as_deref())?;
    let (from, read) = load(&a.input, a.from.as_deref(), &a.read.options())?;
    let mut out = Output::open(a.output.as_deref(), &[&a.input])?;
    let loss = (to.write)(&read.document, &a.write.options(), out.writer())
        .map_err(|e| Failure(format!("writing {}: {}", to.name, e)))?;
    out.finish()?;
    let report = Report {
        markport_report: REPORT_VERSION,
        input: display_name(&a.input),
        from: from.name,
        output: a.output.as_deref().map_or("<stdout>", display_name),
        to: to.name,
        diagnostics: &read.diagnostics,
        losses: &loss.losses,
        lost: !loss.is_empty(),
        extensions: &loss.extensions,
        extended: loss.has_extensions(),
    };
    let text = match a.report {
        ReportStyle::Text => report.text(),
        ReportStyle::Json => report.json(),
    };
    match &a.report_file {
        Some(path) => {
            let mut f = Output::open(Some(path), &[&a.input])?;
            f.writer().write_all(text.as_bytes())?;
            f.finish()?;
        }
        None => eprint!("{text}"),
    }
    let fail_on_extension = a.fail_on_extension && loss.has_extensions();
    Ok(
        if (a.fail_on_loss && !loss.is_empty()) || fail_on_extension {
            exit::DIFFERENT
        } else {
            exit::OK
        },
    )
}

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// The file to look at (`-`: standard input).
    file: String,
    /// Its format (default: detected).
    #[arg(long, value_name = "FORMAT")]
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
    let (format, read) = match load(&a.file, a.from.as_deref(), &a.read.options()) {
        Ok(x) => x,
        Err(f) => return fail(f),
    };
    let census = read.document.census();
    let name = display_name(&a.file);
    if a.json {
        let info = Info {
            file: name,
            format: format.name,
            census,
            diagnostics: &read.diagnostics,
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&info).expect("serialises")
        );
        return exit::OK;
    }
    println!("{name}: {} ({})", format.name, format.description);
    println!(
        "  {} bookmarks, {} folders, {} separators, {} aliases, depth {}",
        census.bookmarks, census.folders, census.separators, census.aliases, census.depth
    );
    println!("  fields present:");
    for (field, count) in &census.fields {
        println!("    {:<26} {count}", field.name());
    }
    if !read.diagnostics.is_empty() {
        println!("  diagnostics:");
        for d in &read.diagnostics {
            println!("    {d}");
        }
    }
    exit::OK
}

#[derive(Args)]
pub(crate) struct DiffArgs {
    /// The first file.
    a: String,
    /// The second file.
    b: String,
    /// The first file's format (default: detected).
    #[arg(long, value_name = "FORMAT")]
    from_a: Option<String>,
    /// The second file's format (default: detected).
    #[arg(long, value_name = "FORMAT")]
    from_b: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

fn print_diff(d: &markport::Diff, json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(d).expect("serialises"));
        return;
    }
    for x in &d.differences {
        println!("{x}");
    }
}

pub(crate) fn diff(a: DiffArgs) -> u8 {
    let opts = ReadOptions::default();
    let loaded = load(&a.a, a.from_a.as_deref(), &opts)
        .and_then(|x| Ok((x, load(&a.b, a.from_b.as_deref(), &opts)?)));
    let ((_, ra), (_, rb)) = match loaded {
        Ok(x) => x,
        Err(f) => return fail(f),
    };
    let d = model_diff(&ra.document, &rb.document);
    print_diff(&d, a.json);
    if d.is_empty() {
        if !a.json {
            println!(
                "{} and {} carry the same bookmarks",
                display_name(&a.a),
                display_name(&a.b)
            );
        }
        exit::OK
    } else {
        exit::DIFFERENT
    }
}

#[derive(Args)]
pub(crate) struct RoundtripArgs {
    /// The file to send through another format.
    file: String,
    /// The format to go through.
    #[arg(long, value_name = "FORMAT")]
    via: String,
    /// The file's format (default: detected).
    #[arg(long, value_name = "FORMAT")]
    from: Option<String>,
    /// Exit 1 when anything did not survive.
    #[arg(long)]
    fail_on_loss: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    write: WriteFlags,
}

#[derive(Serialize)]
struct Roundtrip<'a> {
    file: &'a str,
    from: &'a str,
    via: &'a str,
    reported: &'a [markport::model::Loss],
    differences: &'a [markport::Difference],
    report_is_true: bool,
}

pub(crate) fn roundtrip(a: RoundtripArgs) -> u8 {
    match try_roundtrip(&a) {
        Ok(code) => code,
        Err(f) => fail(f),
    }
}

fn try_roundtrip(a: &RoundtripArgs) -> Result<u8, Failure> {
    let via = markport::format(&a.via).ok_or_else(|| {
        Failure(format!(
            "unknown format {:?} for --via; choose one of: {}",
            a.via,
            markport::names()
        ))
    })?;
    let (from, read) = load(&a.file, a.from.as_deref(), &ReadOptions::default())?;
    let (bytes, loss) = markport::write_to_vec(&read.document, via, &a.write.options())
        .map_err(|e| Failure(format!("writing {}: {e}", via.name)))?;
    let back = markport::read(&bytes, via, &ReadOptions::default())
        .map_err(|e| Failure(format!("reading back the {} output: {e}", via.name)))?;
    let d = model_diff(&read.document, &back.document);
    let true_report = d.fields() == loss.fields();
    let name = display_name(&a.file);
    if a.json {
        let r = Roundtrip {
            file: name,
            from: from.name,
            via: via.name,
            reported: &loss.losses,
            differences: &d.differences,
            report_is_true: true_report,
        };
        println!("{}", serde_json::to_string_pretty(&r).expect("serialises"));
    } else {
        println!("{name}: {} -> {} -> {}", from.name, via.name, from.name);
        if d.is_empty() {
            println!("everything survived");
        } else {
            println!("did not survive:");
            print_diff(&d, false);
        }
        if !loss.is_empty() {
            println!("the {} writer reported:", via.name);
            print!("{loss}");
        }
        if !true_report {
            let missing: Vec<Field> = d.fields().difference(&loss.fields()).copied().collect();
            let extra: Vec<Field> = loss.fields().difference(&d.fields()).copied().collect();
            println!("warning: the loss report is not exact (unreported: {missing:?}; reported but kept: {extra:?})");
        }
    }
    Ok(if a.fail_on_loss && !d.is_empty() {
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
    if a.markdown {
        print!("{}", markport::matrix::markdown());
        return exit::OK;
    }
    for f in markport::FORMATS {
        let ext = f
            .extensions
            .iter()
            .map(|e| format!(".{e}"))
            .collect::<Vec<_>>()
            .join(" ");
        println!("{:<10} {:<12} {}", f.name, ext, f.description);
    }
    println!();
    print!("{}", markport::matrix::text());
    exit::OK
}
