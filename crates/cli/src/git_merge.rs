//! `markport git-merge %O %A %B %P`: a git merge driver for bookmark files.
//! The three versions git hands over are merged three ways through the one
//! pipeline and the result replaces `%A` whole, in its format; a conflict
//! (decided by its rule) exits 1 so that git stops for a look, with the
//! conflicts in `%P.markport-conflicts.json` and in short on standard
//! error. No conflict marker is ever written into a bookmark file.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::exit;
use crate::failure::Failure;
use crate::files::display_name;
use crate::pipeline::{self, Out};

#[derive(Args)]
pub(crate) struct GitMergeArgs {
    /// The common ancestor's version (git's %O).
    base: PathBuf,
    /// The current branch's version, replaced by the merge (git's %A).
    ours: PathBuf,
    /// The other branch's version (git's %B).
    theirs: PathBuf,
    /// The file's path in the repository (git's %P): it names the file in
    /// messages and the conflicts' file, and its extension gives the format
    /// when the content does not.
    path: Option<PathBuf>,
    /// Whose value, folder and order a conflict takes.
    #[arg(long, value_enum, default_value = "ours")]
    prefer: crate::three_way::Prefer,
    /// Merge even when a side deletes more than a fifth of the base (at
    /// least 10 items), as a stale copy does.
    #[arg(long)]
    allow_mass_delete: bool,
}

/// An empty collection, for a version git gives as an empty file (a file
/// both branches added has no common version).
const EMPTY: &[u8] = br#"{"markport": 1, "nodes": []}"#;

pub(crate) fn run(a: GitMergeArgs) -> u8 {
    try_git_merge(&a).unwrap_or_else(|f| f.report())
}

fn try_git_merge(a: &GitMergeArgs) -> Result<u8, Failure> {
    let name = a.path.clone().unwrap_or_else(|| a.ours.clone());
    let read = |p: &Path| std::fs::read(p).map_err(|e| Failure::in_file(p.display(), e));
    let ours = read(&a.ours)?;
    let content = (!ours.is_empty()).then_some(&ours[..]);
    let format = markport::resolve_format(None, Some(&name), content)
        .map_err(|e| Failure::in_file(display_name(&name), e.message))?
        .format;
    let options = markport::options_for_path(markport::WriteOptions::default(), Some(&name));
    let to = markport::To::Format { format, options };
    let input = |bytes: Vec<u8>| {
        markport::Input::Bytes(if bytes.is_empty() {
            EMPTY.to_vec()
        } else {
            bytes
        })
    };
    let inputs = vec![input(read(&a.base)?), input(ours), input(read(&a.theirs)?)];
    let mut job = markport::Job::new(inputs, to.clone());
    job.three_way = Some(crate::three_way::options(a.prefer, a.allow_mass_delete));
    // The versions are read first, then %A is replaced whole.
    let out = Out::open(
        &to,
        Some(&a.ours),
        &[a.base.clone(), a.theirs.clone()],
        false,
    )?;
    let names = [
        format!("{} (base)", display_name(&name)),
        format!("{} (ours)", display_name(&name)),
        format!("{} (theirs)", display_name(&name)),
    ];
    let paths: Vec<PathBuf> = names.iter().map(PathBuf::from).collect();
    let done = out
        .run(job)
        .map_err(|e| crate::three_way::failure(&e, &paths, &display_name(&name), to.name()))?;
    let done = crate::files::never_dropped(done);
    pipeline::say_diagnostics(&done, &paths);
    let code = crate::three_way::exit_code(&done);
    let sidecar = sidecar(&name);
    let report =
        markport::report::Report::new(&done, &names, &display_name(&name), to.name(), None);
    if code == exit::OK {
        remove_stale(&sidecar);
    } else {
        let mut f = crate::files::Output::open(Some(&sidecar), &[])?;
        f.write(report.to_json().as_bytes())?;
        f.finish(true)?;
    }
    let mut text = format!(
        "markport git-merge: {}: merged three ways{}\n",
        display_name(&name),
        if code == exit::OK {
            String::new()
        } else {
            format!(", conflicts in {}", display_name(&sidecar))
        }
    );
    text.push_str(&crate::three_way::text(&done, to.name()));
    if code != exit::OK || !crate::say::quiet() {
        crate::say::err(format_args!("{text}"));
    }
    Ok(code)
}

/// Where the conflicts of `path` are written: beside it, as
/// `PATH.markport-conflicts.json` (git's %A is a temporary file it removes).
fn sidecar(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".markport-conflicts.json");
    PathBuf::from(name)
}

/// A conflicts file an earlier merge of the same file left: removed when
/// this one merged clean, and only if it is markport's report.
fn remove_stale(sidecar: &Path) {
    let Ok(bytes) = std::fs::read(sidecar) else {
        return;
    };
    let ours = serde_json::from_slice::<serde_json::Value>(&bytes)
        .is_ok_and(|v| v.get("markport_report").is_some() && v.get("ledger").is_some());
    if ours {
        let _ = std::fs::remove_file(sidecar);
    }
}
