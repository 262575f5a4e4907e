//! `markport publish`: a collection as a static site (crate `markport-publish`;
//! docs/publishing.md). Several inputs are merged as `markport merge` merges them.

use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::failure::Failure;

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
    /// Link tags under this address instead of writing tag pages.
    #[arg(long, value_name = "URL")]
    tag_base: Option<String>,
    /// The site's title (default: the collection's).
    #[arg(long, value_name = "TITLE")]
    title: Option<String>,
    /// The address the site is served from: the feed links to itself and
    /// to the site, and relative bookmark links become absolute.
    #[arg(long, value_name = "URL", value_parser = markport_publish::site_url)]
    site_url: Option<url::Url>,
    #[command(flatten)]
    xfolk: crate::commands::XfolkFlags,
    #[command(flatten)]
    operations: crate::operations::OperationFlags,
}

pub(crate) fn run(a: PublishArgs) -> u8 {
    try_publish(&a).unwrap_or_else(|f| f.report())
}

fn try_publish(a: &PublishArgs) -> Result<u8, Failure> {
    if a.inputs.iter().filter(|p| crate::files::is_std(p)).count() > 1 {
        return Err(Failure::new(
            "standard input (-) can be only one of the inputs",
        ));
    }
    let operations = a.operations.operations()?;
    let (mut docs, froms) = crate::files::load_all(&a.inputs)?;
    let mut doc = if docs.len() == 1 {
        docs.pop().expect("one input")
    } else {
        markport::ops::merge_keeping(docs, false, a.operations.keep_empty())
            .map_err(|e| Failure::new(e.message))?
            .0
    };
    let requested =
        markport::ops::apply(&mut doc, &operations).map_err(|e| Failure::new(e.message))?;
    let mut opts = markport_publish::Options {
        recent: a.recent,
        page_size: a.page_size as usize,
        tag_base: a.tag_base.clone(),
        title: a.title.clone(),
        ..Default::default()
    };
    a.xfolk.apply(&mut opts.xfolk);
    opts.site_url = a.site_url.clone();
    let site = markport_publish::build(&doc, &opts);
    markport_publish::publish(&site.files, &a.output)
        .map_err(|e| Failure::in_file(e.path.display(), e.message))?;
    let from = froms.join("+");
    let mut s = format!(
        "published {}: {} bookmarks, {} folder pages, {} tags, {} files\n",
        a.output.display(),
        site.bookmarks,
        site.folder_pages,
        site.tags,
        site.files.len() + 1
    );
    if site.loss.is_empty() {
        s.push_str(&format!("{from} -> site: nothing lost\n"));
    } else {
        s.push_str(&format!(
            "{from} -> site: {} field(s) could not be carried or were withheld\n",
            site.loss.fields().len()
        ));
    }
    s.push_str(&site.loss.to_string());
    s.push_str(&crate::report::changes_text(&requested.changes));
    crate::say::info(format_args!("{s}"));
    Ok(exit::OK)
}
