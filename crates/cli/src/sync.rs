//! `markport sync A B [--state DIR] [--dry-run]`: two files kept in step by
//! the library's sync ([`markport::sync`]); this maps the flags and says
//! what each file became.

use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::failure::Failure;
use crate::files::display_name;

#[derive(Args)]
pub(crate) struct SyncArgs {
    /// One file (its side wins a conflict unless --prefer b).
    a: PathBuf,
    /// The other file.
    b: PathBuf,
    /// Where the last synced tree, the ids each file gave its items,
    /// backups and the lock are kept (owner-only; default:
    /// $XDG_STATE_HOME/markport/sync/KEY).
    #[arg(long, value_name = "DIR")]
    state: Option<PathBuf>,
    /// Say what each file would become; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Whose value, folder and order a conflict takes.
    #[arg(long, value_enum, default_value = "a")]
    prefer: Prefer,
    /// Merge even when a side deletes more than a fifth of the last synced
    /// tree (at least 10 items), as a stale copy does.
    #[arg(long)]
    allow_mass_delete: bool,
    /// Print the report as JSON (the merge's report with each file's plan).
    #[arg(long)]
    json: bool,
}

/// Which file wins a conflict.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Prefer {
    /// A.
    A,
    /// B.
    B,
}

pub(crate) fn run(a: SyncArgs) -> u8 {
    try_sync(&a).unwrap_or_else(|f| f.report())
}

fn try_sync(a: &SyncArgs) -> Result<u8, Failure> {
    let prefer = match a.prefer {
        Prefer::A => crate::three_way::Prefer::Ours,
        Prefer::B => crate::three_way::Prefer::Theirs,
    };
    let mut opts = markport::sync::SyncOptions::default();
    opts.state = a.state.clone();
    opts.dry_run = a.dry_run;
    opts.merge = crate::three_way::options(prefer, a.allow_mass_delete);
    let synced = markport::sync::sync(&a.a, &a.b, &opts).map_err(|e| {
        let hint = if e.kind == markport::ErrorKind::Unsafe {
            " (ours is A, theirs is B); --allow-mass-delete merges anyway"
        } else {
            ""
        };
        Failure::new(format_args!("sync: {}{hint}", e.message))
    })?;
    let conflicted =
        !synced.report.conflicts.is_empty() || synced.losses.iter().any(|l| !l.is_empty());
    let text = if a.json {
        serde_json::to_string_pretty(&serde_json::json!({
            "markport_report": markport::report::REPORT_VERSION,
            "first": synced.first,
            "dry_run": a.dry_run,
            "state": synced.state,
            "a": {"file": a.a, "plan": synced.plans[0], "losses": synced.losses[0].losses},
            "b": {"file": a.b, "plan": synced.plans[1], "losses": synced.losses[1].losses},
            "merge": synced.report,
        }))
        .expect("a report serialises")
            + "\n"
    } else {
        words(a, &synced)
    };
    crate::say::err(format_args!("{text}"));
    Ok(if conflicted {
        exit::DIFFERENT
    } else {
        exit::OK
    })
}

/// The report for people.
fn words(a: &SyncArgs, s: &markport::sync::Synced) -> String {
    let mut text = String::new();
    if s.first {
        text.push_str("first sync of these files: a union, nothing deleted\n");
    }
    let verb = if a.dry_run {
        "would become"
    } else {
        "now holds"
    };
    for (path, plan, loss) in [
        (&a.a, &s.plans[0], &s.losses[0]),
        (&a.b, &s.plans[1], &s.losses[1]),
    ] {
        text.push_str(&format!(
            "{} ({}) {verb} the merged tree: {} added, {} removed, {} changed or moved\n",
            display_name(path),
            plan.format,
            plan.adds,
            plan.removes,
            plan.changes
        ));
        text.push_str(&crate::report::plain(loss, "merged", plan.format, None));
    }
    let lines = markport::report::three_way_lines(&s.report);
    text.push_str(&crate::report::shown(&lines));
    if a.dry_run {
        text.push_str("dry run: nothing written\n");
    } else {
        text.push_str(&format!("state: {}\n", s.state.display()));
    }
    text
}
