//! `markport`: convert bookmark files between formats and say exactly what a
//! conversion loses. The work is done by the `markport` library; this binary
//! parses arguments, reads and writes files, and prints.

mod check;
mod conformance;
mod convert;
#[cfg(feature = "desktop")]
mod desktop;
mod diff;
mod exit;
mod failure;
mod files;
mod flags;
mod formats;
mod git_merge;
mod info;
#[cfg(feature = "links")]
mod links;
mod manual;
mod merge;
mod operations;
mod pipeline;
mod profiles;
mod progress;
mod publish;
mod report;
mod roundtrip;
mod say;
#[cfg(feature = "serve")]
mod serve;
mod sync;
mod three_way;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "markport",
    version,
    about = "Convert bookmark collections between formats and report exactly what a conversion loses",
    after_help = "Formats: run `markport formats`. Exit codes: 0 success, 1 something lost (--fail-on-loss), files differ (diff), problems found (check), a tool changed or lost a must value (conformance) or a link is gone, broken or unreachable (links), 2 bad usage or unreadable input."
)]
pub(crate) struct Cli {
    /// Print nothing but errors, and why `--fail-on-loss` wrote nothing;
    /// the exit code tells the rest.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Say more: which format was chosen for each file and why, and every
    /// place `profiles` looked.
    #[arg(short, long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert a bookmark file to another format and report what was lost.
    Convert(convert::ConvertArgs),
    /// Show a file's format, counts, the fields it holds and what the reader noticed.
    Info(info::InfoArgs),
    /// Compare two bookmark files (any formats) field by field.
    Diff(diff::DiffArgs),
    /// Merge several bookmark files (any formats) into one collection, without duplicates; with --base, three ways (docs/merge.md).
    Merge(merge::MergeArgs),
    /// A git merge driver for bookmark files: `markport git-merge %O %A %B %P` (docs/merge.md).
    GitMerge(git_merge::GitMergeArgs),
    /// Publish bookmark files as a static site: folder and tag pages, a feed (docs/publishing.md).
    Publish(publish::PublishArgs),
    /// Check bookmark files against their formats' rules: every problem, with line and column (docs/check.md).
    Check(check::CheckArgs),
    /// Show what survives FILE -> FORMAT -> back.
    Roundtrip(roundtrip::RoundtripArgs),
    /// Run another tool over the corpus and report what it keeps, changes and loses (docs/conformance.md).
    Conformance(conformance::ConformanceArgs),
    /// Keep two bookmark files in step: each run merges them three ways from the last sync (docs/merge.md).
    Sync(sync::SyncArgs),
    /// The formats and which fields each can carry.
    Formats(formats::FormatsArgs),
    /// Desktop bookmarks (recently-used.xbel): add, list, exec, watch.
    #[cfg(feature = "desktop")]
    Desktop(desktop::DesktopArgs),
    /// The browser profiles on this machine, their bookmark files and counts.
    Profiles(profiles::ProfilesArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): `markport man convert | man -l -`;
    /// `--dir DIR` writes them all.
    Man(manual::ManArgs),
    /// A page and a JSON API on this machine's loopback address (127.0.0.1, ::1).
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Check each link of a collection once, politely and resumably; write back what moved or died (docs/links.md).
    #[cfg(feature = "links")]
    Links(links::LinksArgs),
}

fn main() -> ExitCode {
    handle_signals();
    let cli = Cli::parse();
    say::set_verbosity(if cli.quiet { -1 } else { i8::from(cli.verbose) });
    let code = match cli.command {
        Command::Convert(a) => convert::run(a),
        Command::Info(a) => info::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Merge(a) => merge::run(a),
        Command::GitMerge(a) => git_merge::run(a),
        Command::Sync(a) => sync::run(a),
        Command::Publish(a) => publish::run(a),
        Command::Check(a) => check::run(a),
        Command::Roundtrip(a) => roundtrip::run(a),
        Command::Conformance(a) => conformance::run_conformance(a),
        Command::Formats(a) => formats::run(a),
        #[cfg(feature = "desktop")]
        Command::Desktop(a) => desktop::run(a),
        Command::Profiles(a) => profiles::run(a),
        Command::Completions { shell } => print_generated(|out| {
            clap_complete::generate(shell, &mut Cli::command(), "markport", out);
            Ok(())
        }),
        Command::Man(a) => manual::run(a, Cli::command()),
        #[cfg(feature = "serve")]
        Command::Serve(a) => serve::run(a),
        #[cfg(feature = "links")]
        Command::Links(a) => links::run(a),
    };
    // A command that stopped because its temporaries were removed under
    // it does not exit first: the signal's thread exits, with 128 + the
    // signal.
    hold_if_exiting();
    ExitCode::from(code)
}

/// Behave as `cat` and the other Unix tools do when a reader goes away or
/// the user interrupts: a closed pipe ends the process quietly (Rust ignores
/// SIGPIPE, which turns `markport formats | head -1` into a panic), and every
/// catchable signal that would end the process (SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT, SIGUSR1, ... and SIGPIPE while there is something to clean)
/// removes the temporary file of an unfinished output, staged trees and every
/// private copy of user data (a places.sqlite being read) before exiting with
/// 128 + the signal's number. What SIGKILL leaves, the next run removes.
///
/// The main thread may see the cleanup's effects (a tool killed, a
/// directory gone) before the exit: it calls [`hold_if_exiting`] before
/// printing a result, so that none is printed of an interrupted run.
fn handle_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::signal::*;
        // SAFETY: restoring the default disposition of SIGPIPE takes no
        // pointer and runs before any other thread exists.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
        // Every signal whose default is to end the process and that a
        // handler may catch; not those a fault raises (SIGSEGV, SIGBUS,
        // SIGILL, SIGFPE, SIGTRAP, SIGSYS), after which nothing can run
        // safely, nor SIGABRT, which ends the process whatever a handler does.
        #[allow(unused_mut)]
        let mut ending = vec![
            SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ,
            SIGVTALRM, SIGPROF,
        ];
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            ending.extend([libc::SIGIO, libc::SIGPWR, libc::SIGSTKFLT]);
            ending.extend(libc::SIGRTMIN()..=libc::SIGRTMAX());
        }
        let Ok(mut signals) = signal_hook::iterator::Signals::new(&ending) else {
            return;
        };
        // A closed pipe with nothing to clean ends the process at once, by
        // the signal, as before: the thread that wrote never sees EPIPE (and
        // prints no error). With something to clean, the cleaning thread,
        // woken first (actions run in the order they were registered),
        // removes it and exits 141; the thread that wrote, if it sees EPIPE
        // first, fails, and the temporaries go with it all the same.
        // SAFETY: the action only loads an atomic and restores the default
        // action and raises, all async-signal-safe.
        let _ = unsafe {
            signal_hook::low_level::register(SIGPIPE, || {
                if !markport::temporaries_exist() {
                    let _ = signal_hook::low_level::emulate_default_handler(SIGPIPE);
                }
            })
        };
        std::thread::spawn(move || {
            for signal in signals.forever() {
                if signal == SIGPIPE && !markport::temporaries_exist() {
                    // The raw action above ends the process.
                    continue;
                }
                EXITING.store(true, std::sync::atomic::Ordering::SeqCst);
                markport::remove_temporaries();
                std::process::exit(128 + signal);
            }
        });
    }
}

/// Set by the signal handler before it cleans up and exits.
static EXITING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Wait for the exit when a signal is being handled: what this thread was
/// about to print is the result of the interruption, not of the command.
pub(crate) fn hold_if_exiting() {
    if EXITING.load(std::sync::atomic::Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// Print what a generator writes to standard output, with the usual errors.
fn print_generated(generate: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> u8 {
    let result = files::stdout().and_then(|mut out| {
        generate(&mut out).map_err(failure::Failure::from)?;
        files::finish_stdout(out)
    });
    match result {
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}
