//! `markport conformance`: run another tool over the corpus and report what
//! it keeps, changes and loses (the work is `markport_conform`'s).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use markport_conform::{run, Config, Corpus};

use crate::exit;
use crate::failure::Failure;

/// Arguments of `markport conformance`.
#[derive(Args)]
#[command(after_help = "\
Placeholders in --cmd (each replaced by a shell-quoted value; the command runs with sh -c):
  {in}     a private copy of the corpus file
  {out}    a fresh path where the tool must write its output (read as --to)
  {url}    modify-then-reload: the link of a bookmark the tool must add
  {title}  modify-then-reload: its title

Examples:
  markport conformance --cmd 'mytool convert {in} {out}' --from netscape --to netscape
  markport conformance --cmd 'mytool {in} -o {out}' --from xbel --to netscape --html report.html
  markport conformance --cmd 'mytool add {in} {url} {title} > {out}' --from xbel --to xbel
  markport conformance --cmd 'cp {in} {out}' --from xbel --to xbel --large 100000

Exit codes: 0 every must value kept on every file, 1 a must value changed or lost or the
tool failed on a file, 2 bad usage or no corpus. Rules and levels: docs/conformance.md.")]
pub(crate) struct ConformanceArgs {
    /// The tool's command line, with {in} and {out} (and {url}/{title} to
    /// ask it to add a bookmark).
    #[arg(
        long,
        value_name = "COMMAND",
        required_unless_present = "export_corpus"
    )]
    cmd: Option<String>,
    /// The format of the corpus files the tool reads.
    #[arg(long, value_name = "FORMAT", value_parser = format_names())]
    from: String,
    /// The format the tool writes at {out}.
    #[arg(long, value_name = "FORMAT", value_parser = writable_names(), required_unless_present = "export_corpus")]
    to: Option<String>,
    /// A directory of files with NAME.expected.json beside each (default:
    /// the corpus of --from compiled into markport, or the one under
    /// $MARKPORT_CORPUS).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Write the compiled-in corpus of --from (samples, cases of common
    /// mistakes, their expected models and notes) into DIR, for --corpus
    /// DIR, and run nothing.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["cmd", "corpus"])]
    export_corpus: Option<PathBuf>,
    /// Keep each output of the tool in DIR, beside a copy of its input,
    /// under the input's path in the corpus (NAME-out.EXT beside NAME.EXT).
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Print the stable JSON report (docs/conformance.md) instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the report as one self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Seconds the tool may take on one file before it is killed.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    timeout: f64,
    /// Add a generated case of N bookmarks (written by markport as --from).
    #[arg(long, value_name = "N")]
    large: Option<usize>,
    /// Compare tags as ordered lists (default: as sets).
    #[arg(long)]
    ordered_tags: bool,
}

fn format_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(markport::FORMATS.iter().map(|f| f.name))
}

fn writable_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(markport::writable().map(|f| f.name))
}

/// The project's corpus of `format`: the one under `$MARKPORT_CORPUS` when
/// it is set (laid out as the project's `corpus/`), else the one compiled
/// into the program; none when it holds no case of `format`.
fn default_corpus(format: &str) -> Option<Corpus> {
    if let Some(root) = std::env::var_os("MARKPORT_CORPUS").map(PathBuf::from) {
        let has = [root.join(format), root.join("mistakes").join(format)]
            .iter()
            .any(|d| d.is_dir());
        return has.then_some(Corpus::Root(root));
    }
    let prefix = format!("{format}/");
    let has = markport_conform::corpus::embedded_files()
        .iter()
        .any(|(name, _)| {
            name.starts_with(&prefix) || name.starts_with(&format!("mistakes/{prefix}"))
        });
    has.then_some(Corpus::Embedded)
}

/// Run `markport conformance`; the exit code.
pub(crate) fn run_conformance(a: ConformanceArgs) -> u8 {
    match conformance(a) {
        Ok(code) => code,
        Err(f) => f.report(),
    }
}

fn conformance(a: ConformanceArgs) -> Result<u8, Failure> {
    let from = markport::format(&a.from).expect("clap checked the name");
    if let Some(dir) = &a.export_corpus {
        let n = markport_conform::corpus::export(from.name, dir)
            .map_err(|e| Failure::new(e.message))?;
        if n == 0 {
            return Err(Failure::new(format!(
                "markport holds no corpus for {}",
                from.name
            )));
        }
        crate::say::info(format_args!(
            "{n} cases of {} written to {}",
            from.name,
            dir.display()
        ));
        return Ok(exit::OK);
    }
    let (Some(cmd), Some(to)) = (a.cmd, a.to) else {
        unreachable!("clap requires --cmd and --to without --export-corpus")
    };
    if !cmd.contains("{out}") {
        return Err(Failure::new(
            "--cmd must hold {out}, where the tool writes its output",
        ));
    }
    // Too large for a Duration (1e300) is refused as NaN and 0 are.
    let timeout = Duration::try_from_secs_f64(a.timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| Failure::new("--timeout must be a number of seconds above 0"))?;
    let to = markport::format(&to).expect("clap checked the name");
    let corpus = match (&a.corpus, a.large) {
        (Some(dir), _) => Corpus::Dir(dir.clone()),
        (None, large) => match default_corpus(from.name) {
            Some(corpus) => corpus,
            None if large.is_some() => Corpus::None,
            None => {
                return Err(Failure::new(format!(
                    "no corpus for {}: markport holds none (give --corpus DIR, or set MARKPORT_CORPUS to a corpus holding {0}/)",
                    from.name
                )))
            }
        },
    };
    if a.large.is_some() && !from.writable() {
        return Err(Failure::new(format!(
            "--large writes its case as --from, and markport does not write {}",
            from.name
        )));
    }
    let mut config = Config::new(cmd, from, to, corpus);
    config.keep = a.keep;
    config.timeout = timeout;
    config.large = a.large;
    config.ordered_tags = a.ordered_tags;
    config.on_case = Some(crate::progress::step_running);
    crate::progress::start_running(0, "checking");
    let report = run(&config);
    crate::progress::stop_running();
    crate::hold_if_exiting();
    let report = report.map_err(|e| Failure::new(e.message))?;
    if let Some(path) = &a.html {
        let mut out = markport::output::OutputFile::create(path)?;
        out.write_all(report.to_html().as_bytes())
            .map_err(|e| Failure::in_file(path.display(), e))?;
        out.commit()
            .map_err(|e| Failure::in_file(path.display(), e))?;
    }
    let text = if a.json {
        let mut s = serde_json::to_string_pretty(&report.to_json()).expect("JSON");
        s.push('\n');
        s
    } else {
        report.to_text()
    };
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::in_file("<stdout>", e))?;
    Ok(if report.passed() {
        exit::OK
    } else {
        exit::DIFFERENT
    })
}
