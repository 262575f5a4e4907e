//! `markport publish`: a collection as a static site (crate
//! `markport-publish`; docs/publishing.md): the library's one pipeline
//! making a site. Several inputs are merged as `markport merge` merges them.

use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::failure::Failure;
use crate::flags::JobFlags;
use crate::pipeline::{self, Out, ReportOut};

#[derive(Args)]
pub(crate) struct PublishArgs {
    /// The files to publish; several are merged as `markport merge` does
    /// (the first wins a conflict, duplicates merged).
    #[arg(required = true, value_name = "IN")]
    inputs: Vec<PathBuf>,
    /// The site's directory: written beside it and swapped in whole; refused
    /// when it holds files a previous `markport publish` did not write.
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// How many recently added bookmarks the index and the feed show.
    #[arg(long, value_name = "N", default_value_t = 50)]
    recent: usize,
    /// At most this many entries on a folder or tag page (more make numbered pages).
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..))]
    page_size: u32,
    /// The site's title (default: the collection's).
    #[arg(long, value_name = "TITLE")]
    title: Option<String>,
    /// The address the site is served from: the feed links to itself and
    /// to the site, and relative bookmark links become absolute.
    #[arg(long, value_name = "URL", value_parser = markport_publish::site_url)]
    site_url: Option<url::Url>,
    #[command(flatten)]
    job: JobFlags,
}

pub(crate) fn run(a: PublishArgs) -> u8 {
    try_publish(&a).unwrap_or_else(|f| f.report())
}

fn try_publish(a: &PublishArgs) -> Result<u8, Failure> {
    let report_out = ReportOut::open(
        a.job.report.report_file.as_deref(),
        Some(&a.output),
        &a.inputs,
    )?;
    let write = a.job.write.options();
    let opts = markport_publish::Options {
        recent: a.recent,
        page_size: a.page_size as usize,
        tag_base: write.xfolk.tag_base.clone(),
        title: a.title.clone(),
        xfolk: write.xfolk,
        site_url: a.site_url.clone(),
    };
    let to = markport::To::Site(opts);
    let job = a.job.job(pipeline::inputs(&a.inputs)?, to.clone())?;
    let out = Out::open(&to, Some(&a.output), &a.inputs, a.job.gates.dry_run)?;
    let output_name = a.output.display().to_string();
    let (job, progress) = pipeline::with_progress(job);
    let done = out.run(job);
    drop(progress);
    let done = done.map_err(|e| pipeline::failure(&e, &a.inputs, &output_name, "site"))?;
    pipeline::say_diagnostics(&done, &a.inputs);
    // No site is made when no bookmark is left to publish.
    let site = done.site.unwrap_or_default();
    let from: Vec<_> = done.inputs.iter().map(|r| r.from.format.name).collect();
    let from = from.join("+");
    let loss = &done.loss;
    let mut s = String::new();
    if a.job.report.json {
        s = serde_json::to_string_pretty(&serde_json::json!({
            "markport_report": crate::report::REPORT_VERSION,
            "inputs": a.inputs.iter().zip(&done.inputs).map(|(p, r)| serde_json::json!({
                "input": crate::files::display_name(p),
                "from": r.from.format.name,
            })).collect::<Vec<_>>(),
            "output": output_name,
            "to": "site",
            "bookmarks": site.bookmarks,
            "folder_pages": site.folder_pages,
            "tags": site.tags,
            "files": site.files,
            "losses": loss.losses,
            "lost": !loss.is_empty(),
            "changes": loss.changes,
            "written": done.refused.is_none(),
        }))
        .expect("a report serialises")
            + "\n";
    } else {
        s.push_str(&pipeline::summary(
            &done,
            &a.inputs,
            &output_name,
            a.job.gates.dry_run,
            "",
            None,
        ));
        if done.refused.is_none() && done.site.is_some() {
            let verb = if a.job.gates.dry_run {
                "would publish"
            } else {
                "published"
            };
            s.push_str(&format!(
                "{verb} {}: {} bookmarks, {} folder pages, {} tags, {} files\n",
                a.output.display(),
                site.bookmarks,
                site.folder_pages,
                site.tags,
                site.files
            ));
        }
        s.push_str(&withheld_line(loss));
        if let Some(n) = public_only_notice(a, &done) {
            s.push_str(&n);
        }
        if loss.losses.is_empty() {
            s.push_str(&format!("{from} -> site: nothing lost\n"));
        } else {
            s.push_str(&format!(
                "{from} -> site: {} field(s) could not be carried or were withheld\n",
                loss.fields().len()
            ));
        }
        let mut shown = loss.clone();
        shown.changes.clear();
        s.push_str(&shown.to_string());
        s.push_str(&crate::report::changes_text(&loss.changes));
        if let Some(line) = pipeline::refusal_line(&done, &a.job.gates.allow_loss) {
            s.push_str(&line);
        }
    }
    let quiet = crate::say::quiet() && done.refused.is_none() && !a.job.report.json;
    report_out.print(&s, quiet)?;
    Ok(if done.refused.is_some() {
        exit::DIFFERENT
    } else {
        exit::OK
    })
}

/// The links to a browser's own pages and local files left off the site,
/// counted and said in plain words (the field-level line names them).
fn withheld_line(loss: &markport::LossReport) -> String {
    match markport_publish::withheld_internal(loss) {
        0 => String::new(),
        1 => "withheld 1 link to a browser's own page or a local file (chrome:, edge:, about:, file:, ...): a visitor's browser cannot open it from a web page, so it is shown as text, not as a link (--allow-browser-urls publishes it)\n".to_owned(),
        n => format!(
            "withheld {n} links to a browser's own pages or local files (chrome:, edge:, about:, file:, ...): a visitor's browser cannot open them from a web page, so they are shown as text, not as links (--allow-browser-urls publishes them)\n"
        ),
    }
}

/// `--public-only` that cannot leave anything out: said, with what does.
/// A format that declares no place for a private flag (its writer's
/// [`markport::Support`] for `bookmark.private` is none) cannot have read
/// one; a read-only format declares nothing, so for it the notice rests on
/// what was read: no bookmark marked private, public or not, and nothing
/// removed by the flag.
fn public_only_notice(a: &PublishArgs, done: &markport::Done) -> Option<String> {
    let ops = a.job.operations.operations().ok()?;
    if !ops.contains(&markport::ops::Operation::PublicOnly) {
        return None;
    }
    let cannot: Vec<String> = a
        .inputs
        .iter()
        .zip(&done.inputs)
        .filter(|(_, r)| {
            let f = &r.from.format;
            f.write.is_some()
                && (f.support)(markport::Field::BookmarkPrivate) == markport::Support::None
        })
        .map(|(p, r)| format!("{} ({})", crate::files::display_name(p), r.from.format.name))
        .collect();
    let removed = done
        .loss
        .changes
        .iter()
        .any(|c| c.reason.ends_with("--public-only"));
    let flagged = done.document.preorder().any(
        |id| matches!(done.document.node(id), markport::Node::Bookmark(b) if b.private.is_some()),
    );
    let what = if !cannot.is_empty() {
        format!(
            "leaves nothing of {} out: {} cannot mark a bookmark private",
            cannot.join(", "),
            if cannot.len() == 1 {
                "that format"
            } else {
                "those formats"
            }
        )
    } else if !removed && !flagged {
        "leaves nothing out: no bookmark read is marked private (or public)".to_owned()
    } else {
        return None;
    };
    Some(format!(
        "notice: --public-only {what}; to keep bookmarks off the site, leave out their folder with --exclude-folder PATH (repeatable)\n"
    ))
}
