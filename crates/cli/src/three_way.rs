//! What `merge --base`, `git-merge` and `sync` share around the library's
//! three-way merge ([`markport::Job::three_way`]): the flags' words, the
//! output's format (OURS' unless asked otherwise), the report for people,
//! and the exit code (0 clean, 1 a conflict met, 2 an error or a refusal).

use std::path::Path;

use markport::merge3::{Options, Side};
use markport::{Done, JobError};

use crate::exit;
use crate::failure::Failure;
use crate::files::display_name;

/// Whose value, folder and order a conflict takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Prefer {
    /// OURS (the default).
    #[default]
    Ours,
    /// THEIRS.
    Theirs,
}

/// The merge's options from the flags.
pub(crate) fn options(prefer: Prefer, allow_mass_delete: bool) -> Options {
    let mut opts = Options::default();
    opts.prefer = match prefer {
        Prefer::Ours => Side::Ours,
        Prefer::Theirs => Side::Theirs,
    };
    opts.allow_mass_delete = allow_mass_delete;
    opts
}

/// The name of the format OURS is in, by its content (the output's format
/// unless `--to` or `--for` says another).
pub(crate) fn format_of(path: &Path) -> Result<&'static str, Failure> {
    let head = read_head(path).map_err(|e| Failure::in_file(display_name(path), e))?;
    markport::resolve_format(None, Some(path), Some(&head))
        .map(|r| r.format.name)
        .map_err(|e| Failure::in_file(display_name(path), e.message))
}

/// The first bytes of a file, enough for every format's detection; a
/// directory (a favorites tree) has none.
fn read_head(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    if path.is_dir() {
        return Ok(Vec::new());
    }
    let mut head = Vec::new();
    std::fs::File::open(path)?
        .take(1 << 20)
        .read_to_end(&mut head)?;
    Ok(head)
}

/// A pipeline error in the command's words; a mass deletion refused says
/// which side, how many, and the flag that merges anyway.
pub(crate) fn failure(
    e: &JobError,
    inputs: &[std::path::PathBuf],
    output: &str,
    to: &str,
) -> Failure {
    let refused =
        e.stage == markport::Stage::Operate && e.error.kind == markport::ErrorKind::Unsafe;
    if let (true, Some(name)) = (refused, e.input.and_then(|i| inputs.get(i))) {
        return Failure::in_file(
            display_name(name),
            format_args!("{}; --allow-mass-delete merges anyway", e.error.message),
        );
    }
    crate::pipeline::failure(e, inputs, output, to)
}

/// The report for people after what was written: how each side was
/// matched, the outcomes, every conflict (the first twenty), what the
/// output could not carry and what was changed.
pub(crate) fn text(done: &Done, to: &str) -> String {
    let mut s = crate::report::shown(&markport::report::three_way(done));
    s.push_str(&crate::report::plain(&done.loss, "merged", to, None));
    s.push_str(&crate::report::changes_text(&done.loss.changes));
    s
}

/// 0: merged clean; 1: a conflict was met (each decided by its rule and
/// listed) or the output could not carry something; 2: nothing written.
pub(crate) fn exit_code(done: &Done) -> u8 {
    if done.refused.is_some() {
        exit::ERROR
    } else if markport::report::three_way_conflicted(done) {
        exit::DIFFERENT
    } else {
        exit::OK
    }
}
