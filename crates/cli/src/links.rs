//! `markport links`: each link of a collection checked once, politely and
//! resumably (the engine is `markport-links`), then, with `-o`, the
//! collection written back through the library's one pipeline with what
//! was found applied (`--update-redirects`, `--tag-dead`, `--move-dead`,
//! `--remove-dead`) and reported. This maps the flags and prints.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use markport::ops::Operation;
use markport_links::{Checked, Collected, Link, Options, State, Status};
use serde::Serialize;

use crate::exit;
use crate::failure::Failure;
use crate::files::{self, is_std};
use crate::flags::{JobFlags, WritableFormat};
use crate::pipeline::{self, Out, ReportOut};
use crate::progress::Progress;
use markport::report::{counted, thousands};

#[derive(Args)]
pub(crate) struct LinksArgs {
    /// The collection whose links to check, in any format markport reads
    /// (`-`: standard input).
    #[arg(default_value = "-")]
    input: PathBuf,
    /// Where to write (`-`: standard output). A regular file is written to a
    /// temporary file and renamed into place, never half-written; a link is
    /// followed; a device or FIFO is written through (docs/output.md).
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// The output format (default: from the -o extension; `html` is netscape).
    #[arg(short, long, value_name = "FORMAT", value_parser = WritableFormat)]
    to: Option<String>,
    /// Keep each link's result in this file (JSON Lines) and take the
    /// fresh ones from it: a later run asks only what is due, and an
    /// interrupted run goes on where it stopped (docs/links.md).
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// How long one request may take, in seconds (0.2 for 200 ms).
    #[arg(long, value_name = "SECS", default_value = "20", value_parser = seconds)]
    timeout: Duration,
    /// Requests at once to one host.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..))]
    per_host: u16,
    /// Requests at once in all.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..))]
    concurrency: u16,
    /// The User-Agent sent (default: markport's own, naming it a link check).
    #[arg(long, value_name = "UA")]
    user_agent: Option<String>,
    /// Retries after a 429, a 5xx, a timeout or a dropped connection,
    /// spaced by the server's Retry-After or a doubling wait from 1 s.
    #[arg(long, value_name = "N", default_value_t = 2)]
    retries: u32,
    /// With --state: ask again a link found longer ago than this (30m,
    /// 12h, 7d, 2w).
    #[arg(long, value_name = "DURATION", default_value = "7d", value_parser = markport_links::parse_duration)]
    recheck_after: Duration,
    /// With --state: call a link gone or unreachable only when it fails
    /// again at least this long after its first failure (until then:
    /// suspect).
    #[arg(long, value_name = "DURATION", value_parser = markport_links::parse_duration)]
    confirm_after: Option<Duration>,
    /// With -o: point each bookmark whose link moved for good (301, 308)
    /// to where it moved, keeping every other field.
    #[arg(long, requires = "output")]
    update_redirects: bool,
    /// With -o: give each dead bookmark (gone or unreachable) this tag.
    #[arg(long, value_name = "TAG", requires = "output")]
    tag_dead: Option<String>,
    /// With -o: move each dead bookmark into this folder (`/` between
    /// titles), made where missing.
    #[arg(long, value_name = "FOLDER", requires = "output")]
    move_dead: Option<String>,
    /// With -o: remove each dead bookmark (each removal is reported).
    #[arg(long, requires = "output", conflicts_with_all = ["tag_dead", "move_dead"])]
    remove_dead: bool,
    /// Stop after this many links are checked, as an interruption would:
    /// for the tests of resuming.
    #[arg(long, value_name = "N", hide = true)]
    stop_after: Option<usize>,
    /// How to read, how to write back, the gates and the report, as
    /// `convert` takes them. `--json` prints one JSON object per link
    /// (JSON Lines: url, status, code, final_url, paths, checked_at) on
    /// standard output instead of the summary, and the write-back's report
    /// as JSON.
    #[command(flatten)]
    job: JobFlags,
}

fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("{text:?} is not a number of seconds above 0"))
}

pub(crate) fn run(a: LinksArgs) -> u8 {
    try_links(&a).unwrap_or_else(|f| f.report())
}

fn try_links(a: &LinksArgs) -> Result<u8, Failure> {
    let to_stdout = a.output.as_deref().is_some_and(is_std);
    let json = a.job.report.json;
    if json && to_stdout {
        return Err(Failure::new(
            "--json prints on standard output: write the collection with -o FILE",
        ));
    }
    // Standard input is read once and kept: the write-back reads it again.
    let stdin = if is_std(&a.input) {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::in_file("<stdin>", format_args!("cannot read: {e}")))?;
        Some(bytes)
    } else {
        None
    };
    let input = |a: &LinksArgs| match &stdin {
        Some(bytes) => markport::Input::Bytes(bytes.clone()),
        None => markport::Input::Path(a.input.clone()),
    };
    let inputs = [a.input.clone()];
    ReportOut::check(
        a.job.report.report_file.as_deref(),
        a.output.as_deref(),
        &inputs,
    )?;
    let from = files::named_format(a.job.from.as_deref())?;
    let reading = markport::read(input(a), from, &a.job.read.options())
        .map_err(|e| files::read_failure(&a.input, &e))?;
    files::said_read(&a.input, &reading.from);
    let input_format = reading.from.format;
    let collected = markport_links::collect(&reading.document);
    drop(reading);

    let mut state = match &a.state {
        Some(path) => State::open(path).map_err(|e| Failure::new(e.to_string()))?,
        None => State::in_memory(),
    };
    // The output is prepared (and an unwritable one refused) before the
    // long part, with the report's file.
    let prepared = match &a.output {
        Some(path) => Some(prepare(a, path, &inputs)?),
        None => None,
    };
    let report_out = ReportOut::open(
        a.job.report.report_file.as_deref(),
        a.output.as_deref(),
        &inputs,
    )?;

    let opts = options(a);
    let progress = Progress::new(collected.links.len(), "checking");
    let run = markport_links::check(&collected, &opts, &mut state, |_, _| progress.step(""))
        .map_err(|e| Failure::new(e.to_string()))?;
    drop(progress);
    if run.interrupted {
        return Err(Failure::new(format_args!(
            "stopped after {}; run again with the same --state to go on",
            counted(run.asked, "link")
        )));
    }
    let places = places(&collected);
    if json {
        print_json(&run.results, &places)?;
    } else {
        let text = summary(&run.results, &places, run.asked);
        if to_stdout {
            crate::say::info(format_args!("{text}"));
        } else if !crate::say::quiet() {
            let mut out = files::stdout()?;
            out.write_all(text.as_bytes())
                .map_err(|e| Failure::in_file("<stdout>", format_args!("cannot write: {e}")))?;
            files::finish_stdout(out)?;
        }
    }
    let mut code = if run.results.iter().any(|c| c.status.fails()) {
        exit::DIFFERENT
    } else {
        exit::OK
    };
    if let Some((out, to, said)) = prepared {
        let dest = a.job.destination();
        let mut job = a.job.job(vec![input(a)], to.clone())?;
        job.from = Some(input_format);
        job.operations.extend(write_back(a, &run.results, &places));
        let output_name = pipeline::output_name(a.output.as_deref());
        let done = out
            .run(job)
            .map_err(|e| pipeline::failure(&e, &inputs, &output_name, to.name()))?;
        let mut text = crate::report::OneInput {
            input: &a.input,
            output: &output_name,
            to: to.name(),
            dry_run: a.job.gates.dry_run,
            said: &said,
            dest,
            json,
        }
        .text(&done);
        if let Some(line) = pipeline::refusal_line(&done, &a.job.gates.allow_loss) {
            if !json {
                text.push_str(&line);
            }
            code = exit::DIFFERENT;
        }
        let quiet = crate::say::quiet() && done.refused.is_none() && !json;
        report_out.print(&text, quiet)?;
    }
    Ok(code)
}

/// The output's format and destination, prepared as `convert` prepares
/// them: `--to`, else `--for`'s, else the -o extension's.
fn prepare(
    a: &LinksArgs,
    path: &Path,
    inputs: &[PathBuf],
) -> Result<(Out, markport::To, String), Failure> {
    let (format, options, said) = files::output_format(
        a.to.as_deref(),
        a.job.destination(),
        Some(path),
        a.job.write.options(),
    )?;
    let to = markport::To::Format { format, options };
    let out = Out::open(&to, Some(path), inputs, a.job.gates.dry_run)?;
    Ok((out, to, said))
}

fn options(a: &LinksArgs) -> Options {
    let mut o = Options::default();
    o.timeout = a.timeout;
    o.per_host = a.per_host.into();
    o.concurrency = a.concurrency.into();
    if let Some(ua) = &a.user_agent {
        o.user_agent = ua.clone();
    }
    o.retries = a.retries;
    o.recheck_after = a.recheck_after;
    o.confirm_after = a.confirm_after;
    o.stop_after = a.stop_after;
    o
}

/// Each result's link, by the key it was asked as (skipped ones by href).
fn places(collected: &Collected) -> HashMap<&str, &Link> {
    collected
        .links
        .iter()
        .chain(&collected.skipped)
        .map(|l| (l.key.as_str(), l))
        .collect()
}

/// The operations the write-back flags ask, on the hrefs as written.
fn write_back(a: &LinksArgs, results: &[Checked], places: &HashMap<&str, &Link>) -> Vec<Operation> {
    let mut moved = BTreeMap::new();
    let mut dead = BTreeSet::new();
    for c in results {
        let Some(link) = places.get(c.url.as_str()) else {
            continue;
        };
        match (c.status, &c.final_url) {
            (Status::Redirected, Some(to)) => {
                for href in &link.hrefs {
                    moved.insert(href.clone(), markport_links::moved_href(href, to));
                }
            }
            (s, _) if s.dead() => dead.extend(link.hrefs.iter().cloned()),
            _ => {}
        }
    }
    let mut ops = Vec::new();
    if a.update_redirects && !moved.is_empty() {
        ops.push(Operation::UpdateLinks(moved));
    }
    if !dead.is_empty() {
        if let Some(tag) = &a.tag_dead {
            ops.push(Operation::TagLinks {
                links: dead.clone(),
                tag: tag.clone(),
            });
        }
        if let Some(folder) = &a.move_dead {
            ops.push(Operation::MoveLinks {
                links: dead.clone(),
                folder: folder.clone(),
            });
        }
        if a.remove_dead {
            ops.push(Operation::RemoveLinks(dead));
        }
    }
    ops
}

/// One line of `--json`.
#[derive(Serialize)]
struct Line<'a> {
    url: &'a str,
    status: &'a str,
    code: Option<u16>,
    final_url: Option<&'a str>,
    paths: &'a [String],
    checked_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

fn print_json(results: &[Checked], places: &HashMap<&str, &Link>) -> Result<(), Failure> {
    let mut out = files::stdout()?;
    for c in results {
        let line = Line {
            url: &c.url,
            status: c.status.name(),
            code: c.code,
            final_url: c.final_url.as_deref(),
            paths: places.get(c.url.as_str()).map_or(&[], |l| &l.paths),
            checked_at: markport_links::rfc3339(c.checked_at),
            reason: c.reason.as_deref(),
        };
        serde_json::to_writer(&mut out, &line)
            .and_then(|()| out.write_all(b"\n").map_err(serde_json::Error::io))
            .map_err(|e| Failure::in_file("<stdout>", format_args!("cannot write: {e}")))?;
    }
    files::finish_stdout(out)
}

/// The summary in plain words: the counts per class, each link that
/// failed with where it sits, and the hosts with most failures.
fn summary(results: &[Checked], places: &HashMap<&str, &Link>, asked: usize) -> String {
    let mut s = String::new();
    let listed = |st: Status| st.fails() || st == Status::Suspect || st == Status::Blocked;
    for c in results.iter().filter(|c| listed(c.status)) {
        let why = match (c.code, c.reason.as_deref()) {
            (Some(code), Some(r)) => format!("{code}, {r}"),
            (Some(code), None) => code.to_string(),
            (None, Some(r)) => r.to_string(),
            (None, None) => String::new(),
        };
        let at = match places.get(c.url.as_str()).map(|l| l.paths.as_slice()) {
            Some([one]) => format!(" at {one}"),
            Some([first, more @ ..]) => format!(" at {first} and {} more", more.len()),
            _ => String::new(),
        };
        s.push_str(&format!("{}: {} ({why}){at}\n", c.status.name(), c.url));
    }
    if crate::say::verbose_on() {
        for c in results.iter().filter(|c| c.status == Status::Redirected) {
            s.push_str(&format!(
                "redirected: {} -> {}\n",
                c.url,
                c.final_url.as_deref().unwrap_or("?")
            ));
        }
    }
    let checked = results
        .iter()
        .filter(|c| c.status != Status::Skipped)
        .count();
    let mut counts = Vec::new();
    for st in Status::ALL {
        let n = results.iter().filter(|c| c.status == st).count();
        if n > 0 {
            counts.push(format!("{} {}", thousands(n), st.name()));
        }
    }
    let from_state = checked - asked;
    let state = if from_state > 0 {
        format!(" ({} from the state)", thousands(from_state))
    } else {
        String::new()
    };
    s.push_str(&format!(
        "{}{state}: {}\n",
        counted(results.len(), "link"),
        if counts.is_empty() {
            "nothing to check".to_string()
        } else {
            counts.join(", ")
        }
    ));
    let mut by_host: HashMap<String, usize> = HashMap::new();
    for c in results.iter().filter(|c| c.status.fails()) {
        if let Some(host) = url::Url::parse(&c.url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
        {
            *by_host.entry(host).or_default() += 1;
        }
    }
    let mut hosts: Vec<(String, usize)> = by_host.into_iter().collect();
    hosts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if !hosts.is_empty() {
        let top: Vec<String> = hosts
            .iter()
            .take(5)
            .map(|(h, n)| format!("{h} ({n})"))
            .collect();
        s.push_str(&format!("most failures: {}\n", top.join(", ")));
    }
    s
}
