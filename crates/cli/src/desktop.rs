//! `markport desktop`: the desktop-bookmark spec's operations on a bookmark
//! file (by default `$XDG_DATA_HOME/recently-used.xbel`).

use std::borrow::Cow;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use clap::{Args, Subcommand};
use markport::desktop::spec::{self, Registration, StandardFile};
use markport::model::{Bookmark, Document, Node, ReadOptions, Timestamp};

use crate::exit;
use crate::failure::Failure;
use crate::files;

#[derive(Args)]
pub(crate) struct DesktopArgs {
    #[command(subcommand)]
    command: DesktopCommand,
}

#[derive(Args)]
struct FileArg {
    /// The bookmark file (default: $XDG_DATA_HOME/recently-used.xbel); any
    /// path bytes. A symbolic link is followed and kept.
    #[arg(long, value_parser = clap::value_parser!(PathBuf))]
    file: Option<PathBuf>,
}

#[derive(Subcommand)]
enum DesktopCommand {
    /// Register URI (or a local PATH) for an application.
    Add(AddArgs),
    /// List the bookmarks (all of them, private ones marked; or those an
    /// application or group may see), with the date of last use and a count.
    List(ListArgs),
    /// Remove the entries of URIs (or local paths), under the file's lock.
    Remove(RemoveArgs),
    /// Remove the entries whose local file is gone (--missing) or that were
    /// last used before a date (--older-than), under the file's lock.
    Prune(PruneArgs),
    /// Print the command line an application registered for URI, as GLib's
    /// g_bookmark_file_get_application_info gives it (unquoted, expanded).
    Exec(ExecArgs),
    /// Report each change to the bookmark file until interrupted.
    Watch(WatchArgs),
}

#[derive(Args)]
struct AddArgs {
    /// The URI, or a local path (any bytes; a relative one is made
    /// absolute from the working directory).
    #[arg(value_parser = clap::value_parser!(OsString))]
    uri: OsString,
    /// The registering application's name.
    #[arg(long)]
    app: String,
    /// Its command line (`%u` the URI, `%f` the path); default "APP %u".
    /// Stored shell-quoted, as GLib stores it.
    #[arg(long)]
    exec: Option<String>,
    /// A group to add (repeatable).
    #[arg(long = "group")]
    groups: Vec<String>,
    /// Make the bookmark private to its applications and groups.
    #[arg(long)]
    private: bool,
    /// Its MIME type (default: from the file name).
    #[arg(long)]
    mime_type: Option<String>,
    #[command(flatten)]
    wait: WaitArg,
    #[command(flatten)]
    file: FileArg,
}

/// How long to wait for another process's lock: `desktop add`, `remove` and
/// `prune` take the same lock.
#[derive(Args)]
struct WaitArg {
    /// How long to wait, in seconds, for another process that holds the
    /// file's lock before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    wait: f64,
}

#[derive(Args)]
struct RemoveArgs {
    /// The URIs, or local paths as typed (a relative one is made absolute
    /// from the working directory); a file: URI matches its entry however
    /// either is escaped. One that has no entry is said, and the exit
    /// status is then 1 (the others are still removed).
    #[arg(required = true, value_name = "URI", value_parser = clap::value_parser!(OsString))]
    uris: Vec<OsString>,
    /// Say what would be removed; change nothing.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    wait: WaitArg,
    #[command(flatten)]
    file: FileArg,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true)))]
struct PruneArgs {
    /// Remove the entries of local files that are gone (file: URIs of this host whose
    /// path no longer exists; other URIs stay).
    #[arg(long, group = "what")]
    missing: bool,
    /// Remove entries last used before DATE: a W3C date (2024-06-01,
    /// 2024-06-01T09:30:00Z) or a number of days ago (90d). The last use
    /// is the latest of the entry's modified and visited dates and its
    /// applications' registrations; an entry with none stays.
    #[arg(long, value_name = "DATE", value_parser = older_than, group = "what")]
    older_than: Option<Timestamp>,
    /// Say what would be removed; change nothing.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    wait: WaitArg,
    #[command(flatten)]
    file: FileArg,
}

/// `--older-than`: a W3C date, or `N` days before now (`90d`).
fn older_than(text: &str) -> Result<Timestamp, String> {
    if let Some(days) = text.strip_suffix('d') {
        if let Ok(days) = days.parse::<u32>() {
            let now = Timestamp::now();
            return Timestamp::from_unix(
                now.unix_seconds() - i64::from(days) * 86_400,
                now.subsec_nanos(),
            )
            .ok_or_else(|| format!("{text:?}: too many days"));
        }
    }
    Timestamp::parse_w3c(text).ok_or_else(|| {
        format!(
            "{text:?} is neither a W3C date (2024-06-01, 2024-06-01T09:30:00Z) nor days ago (90d)"
        )
    })
}

#[derive(Args)]
struct ListArgs {
    /// Show what this application sees (private bookmarks of others are
    /// left out, and counted at the end).
    #[arg(long)]
    app: Option<String>,
    /// Show only bookmarks in this group (and private ones of the group).
    #[arg(long)]
    group: Option<String>,
    /// Print a JSON array of the bookmarks, each as in markport's JSON
    /// model (docs/formats/json.md), instead of tab-separated lines.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    file: FileArg,
}

#[derive(Args)]
struct ExecArgs {
    /// The bookmark's URI, or a local path.
    #[arg(value_parser = clap::value_parser!(OsString))]
    uri: OsString,
    /// The application.
    #[arg(long)]
    app: String,
    #[command(flatten)]
    file: FileArg,
}

#[derive(Args)]
struct WatchArgs {
    /// How often to look when no notification comes, in milliseconds.
    #[arg(long, default_value_t = 500)]
    interval: u64,
    /// Stop after this many changes (default: never).
    #[arg(long)]
    count: Option<usize>,
    #[command(flatten)]
    file: FileArg,
}

/// The URI a command-line argument names: a URI as it is, a local path
/// (absolute, or relative to the working directory) as a file: URI.
fn uri_of(arg: &OsString) -> Result<String, Failure> {
    let uri = match arg.to_str() {
        Some("") => return Err(Failure::new("the URI is empty")),
        Some(s) if !s.starts_with('/') && spec::has_scheme(s) => s.to_owned(),
        _ => spec::uri_for_path(Path::new(arg)).map_err(|e| Failure::new(e.message))?,
    };
    Ok(uri)
}

fn file_of(f: &FileArg) -> PathBuf {
    f.file
        .clone()
        .unwrap_or_else(|| spec::standard_file(StandardFile::RecentlyUsed))
}

/// The bookmark file's document; a file that does not exist yet is empty.
fn load(path: &Path) -> Result<Document, Failure> {
    match std::fs::read(path) {
        Ok(b) => markport::desktop::read(&b, &ReadOptions::default())
            .map(|r| r.document)
            .map_err(|e| Failure::located(path.display(), &e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Document::new()),
        Err(e) => Err(Failure::in_file(
            path.display(),
            format_args!("cannot read: {e}"),
        )),
    }
}

pub(crate) fn run(a: DesktopArgs) -> u8 {
    let done = match a.command {
        DesktopCommand::Add(a) => add(a),
        DesktopCommand::List(a) => list(&a),
        DesktopCommand::Remove(a) => remove(&a),
        DesktopCommand::Prune(a) => prune(&a),
        DesktopCommand::Exec(a) => exec(&a),
        DesktopCommand::Watch(a) => watch(&a),
    };
    done.unwrap_or_else(|f| f.report())
}

/// `desktop add`: register the URI under the file's lock.
fn add(a: AddArgs) -> Result<u8, Failure> {
    let path = file_of(&a.file);
    let r = Registration {
        uri: uri_of(&a.uri)?,
        app: a.app,
        exec: a.exec,
        groups: a.groups,
        private: a.private,
        mime_type: a.mime_type,
        title: None,
    };
    r.check().map_err(|e| Failure::new(e.message))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Failure::in_file(dir.display(), e))?;
    }
    let wait = wait_of(&a.wait)?;
    let waiting = waiting(wait);
    let opts = spec::UpdateOptions {
        wait,
        waiting: Some(&waiting),
    };
    spec::update_with(&path, &opts, |doc| {
        spec::register(doc, &r, Timestamp::now())
    })
    .map_err(|e| Failure::located(path.display(), &e))?;
    Ok(exit::OK)
}

/// `--wait` as a duration.
fn wait_of(w: &WaitArg) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(w.wait)
        .map_err(|_| Failure::new(format_args!("--wait {}: not a number of seconds", w.wait)))
}

/// What is said when another process holds the lock for a second.
fn waiting(wait: Duration) -> impl Fn(&Path) {
    move |lock: &Path| {
        crate::say::err(format_args!(
            "note: waiting for another process to release {} (up to {} s; --wait)\n",
            lock.display(),
            wait.as_secs_f64()
        ));
    }
}

/// How an entry is shown to a person: a local file as its path (the exact
/// bytes), anything else as its URI. A path with a control character
/// (a tab, a line break) stays a URI, so that each entry is one line.
fn shown(href: &str) -> Cow<'_, [u8]> {
    match markport::desktop::file_uri_to_path(href) {
        Some(path) if !path.iter().any(|&b| b < 0x20 || b == 0x7f) => Cow::Owned(path),
        _ => Cow::Borrowed(href.as_bytes()),
    }
}

/// A date of last use as a list shows it: UTC, to the second.
fn day_and_time(t: Option<&Timestamp>) -> String {
    t.and_then(|t| Timestamp::from_unix_seconds(t.unix_seconds()))
        .map_or_else(|| "-".to_owned(), |t| t.to_w3c_utc())
}

/// `N entries` / `1 entry`.
fn entries(n: usize) -> String {
    if n == 1 {
        "1 entry".to_owned()
    } else {
        format!("{n} entries")
    }
}

/// Print what a clean-up removed (or would), one line each, then the count.
fn said_removed(
    out: &mut impl Write,
    path: &Path,
    done: &spec::Removal,
    dry_run: bool,
) -> Result<(), Failure> {
    let verb = if dry_run { "would remove" } else { "removed" };
    for r in &done.removed {
        out.write_all(verb.as_bytes())?;
        out.write_all(b" ")?;
        out.write_all(&shown(&r.href))?;
        match r.reason {
            spec::Reason::Missing => out.write_all(b" (the file is gone)\n")?,
            spec::Reason::Unused => {
                writeln!(out, " (last used {})", day_and_time(r.last_use.as_ref()))?
            }
            _ => out.write_all(b"\n")?,
        }
    }
    let total = done.removed.len() + done.left;
    writeln!(
        out,
        "{verb} {} of {} from {}{}",
        done.removed.len(),
        entries(total),
        path.display(),
        if dry_run {
            " (dry run: nothing changed)"
        } else {
            ""
        }
    )?;
    Ok(())
}

/// `desktop remove`: the entries of the URIs given, under the lock.
fn remove(a: &RemoveArgs) -> Result<u8, Failure> {
    let path = file_of(&a.file);
    let uris = a.uris.iter().map(uri_of).collect::<Result<Vec<_>, _>>()?;
    let wait = wait_of(&a.wait)?;
    let waiting = waiting(wait);
    let opts = spec::UpdateOptions {
        wait,
        waiting: Some(&waiting),
    };
    let done = spec::remove_from_file(&path, &uris, (!a.dry_run).then_some(&opts))
        .map_err(|e| Failure::located(path.display(), &e))?;
    let mut out = files::stdout()?;
    said_removed(&mut out, &path, &done, a.dry_run)?;
    files::finish_stdout(out)?;
    for uri in &done.absent {
        crate::say::err(format_args!(
            "markport: {}: no entry for {}\n",
            path.display(),
            String::from_utf8_lossy(&shown(uri))
        ));
    }
    Ok(if done.absent.is_empty() {
        exit::OK
    } else {
        exit::DIFFERENT
    })
}

/// `desktop prune`: the entries whose file is gone or that were not used
/// since a date, under the lock.
fn prune(a: &PruneArgs) -> Result<u8, Failure> {
    let path = file_of(&a.file);
    let wait = wait_of(&a.wait)?;
    let waiting = waiting(wait);
    let opts = spec::UpdateOptions {
        wait,
        waiting: Some(&waiting),
    };
    let what = spec::Prune {
        missing: a.missing,
        older_than: a.older_than,
    };
    let done = spec::prune_file(&path, &what, (!a.dry_run).then_some(&opts))
        .map_err(|e| Failure::located(path.display(), &e))?;
    let mut out = files::stdout()?;
    said_removed(&mut out, &path, &done, a.dry_run)?;
    files::finish_stdout(out)?;
    Ok(exit::OK)
}

/// `desktop list`: every bookmark (private ones marked), or those an
/// application or group may see, as tab-separated lines (path or URI, last
/// use, MIME type, applications, `[private]`) and a count; or JSON.
fn list(a: &ListArgs) -> Result<u8, Failure> {
    let doc = load(&file_of(&a.file))?;
    let groups: Vec<String> = a.group.iter().cloned().collect();
    let asked = a.app.is_some() || a.group.is_some();
    let mut hidden = 0usize;
    // The node for JSON (which names its type), the bookmark for lines.
    let visible: Vec<(&Node, &Bookmark)> = doc
        .preorder()
        .filter_map(|id| doc.node(id).as_bookmark().map(|b| (doc.node(id), b)))
        .filter(|(_, b)| {
            a.group
                .as_ref()
                .is_none_or(|g| b.details().desktop().groups.contains(g))
        })
        .filter(|(_, b)| {
            // Without --app or --group the person asking owns the file:
            // every entry is shown, private ones marked.
            let seen = !asked || spec::visible_to(b, a.app.as_deref(), &groups);
            hidden += usize::from(!seen);
            seen
        })
        .collect();
    let mut out = files::stdout()?;
    if a.json {
        let nodes: Vec<&Node> = visible.iter().map(|(n, _)| *n).collect();
        serde_json::to_writer_pretty(&mut out, &nodes)?;
        writeln!(out)?;
    } else {
        let mut private = 0usize;
        for (_, b) in &visible {
            let apps: Vec<String> = b
                .details()
                .desktop()
                .applications
                .iter()
                .map(|a| format!("{}×{}", a.name, a.count.unwrap_or(1)))
                .collect();
            out.write_all(&shown(&b.href))?;
            write!(
                out,
                "\t{}\t{}\t{}",
                day_and_time(spec::last_use(b).as_ref()),
                b.details().desktop().mime_type.as_deref().unwrap_or(""),
                apps.join(","),
            )?;
            if b.private == Some(true) {
                private += 1;
                out.write_all(b"\t[private]")?;
            }
            out.write_all(b"\n")?;
        }
        let mut count = format!(
            "{} {}",
            visible.len(),
            if visible.len() == 1 {
                "bookmark"
            } else {
                "bookmarks"
            }
        );
        if private > 0 {
            count.push_str(&format!(", {private} private"));
        }
        if hidden > 0 {
            count.push_str(&format!(
                "; {hidden} private to other applications or groups not shown"
            ));
        }
        writeln!(out, "{count}")?;
    }
    files::finish_stdout(out)?;
    Ok(exit::OK)
}

/// `desktop exec`: the command line an application registered, expanded.
fn exec(a: &ExecArgs) -> Result<u8, Failure> {
    let path = file_of(&a.file);
    let doc = load(&path)?;
    let uri = uri_of(&a.uri)?;
    let in_file = |message: String| Failure::in_file(path.display(), message);
    let b = doc
        .find_by_href(&uri)
        .and_then(|id| doc.node(id).as_bookmark())
        .ok_or_else(|| in_file(format!("no bookmark for {uri}")))?;
    let app = b
        .details()
        .desktop()
        .applications
        .iter()
        .find(|x| x.name == a.app)
        .ok_or_else(|| in_file(format!("{} has not registered {uri}", a.app)))?;
    let line = spec::exec_command_line(&app.exec, &b.href).map_err(|e| in_file(e.message))?;
    let mut out = files::stdout()?;
    out.write_all(&line)?;
    out.write_all(b"\n")?;
    files::finish_stdout(out)?;
    Ok(exit::OK)
}

/// `desktop watch`: a line for each change to the file, until `--count`
/// changes or an interrupt.
fn watch(a: &WatchArgs) -> Result<u8, Failure> {
    let path = file_of(&a.file);
    let interval = Duration::from_millis(a.interval);
    let rx = notifications(&path, a.interval);
    let mut seen = snapshot(&path);
    let mut changes = 0;
    let mut out = std::io::stdout().lock();
    while a.count.is_none_or(|c| changes < c) {
        match &rx {
            Some((_watcher, rx)) => {
                // Wake on an event, or after the interval in any case.
                let _ = rx.recv_timeout(interval);
                while rx.try_recv().is_ok() {}
            }
            None => std::thread::sleep(interval),
        }
        let now = snapshot(&path);
        if now != seen {
            let what = match (&seen, &now) {
                (None, Some(_)) => "created",
                (Some(_), None) => "removed",
                _ => "changed",
            };
            let n = load(&path).map(|d| d.census().bookmarks).unwrap_or(0);
            // A reader that went away ends the process (SIGPIPE); any other
            // failure to print must not stop the watch.
            let _ = writeln!(out, "{what}\t{}\t{n} bookmarks", path.display());
            let _ = out.flush();
            seen = now;
            changes += 1;
        }
    }
    Ok(exit::OK)
}

/// Events about `path`'s directory (inotify through notify, on the
/// directory since an atomic replace gives the file a new inode), or `None`
/// where no watcher can be made and the file is polled. Either way a change
/// is reported when the contents differ, so a burst of events is one change.
fn notifications(
    path: &Path,
    interval: u64,
) -> Option<(
    notify::RecommendedWatcher,
    Receiver<notify::Result<notify::Event>>,
)> {
    let (tx, rx) = std::sync::mpsc::channel();
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    let watcher = notify::recommended_watcher(move |e| {
        let _ = tx.send(e);
    })
    .and_then(|mut w| {
        use notify::Watcher;
        w.watch(&dir, notify::RecursiveMode::NonRecursive)
            .map(|_| w)
    });
    match watcher {
        Ok(w) => Some((w, rx)),
        Err(e) => {
            crate::say::err(format_args!(
                "note: no file-system notification ({e}); polling every {interval} ms\n"
            ));
            None
        }
    }
}

/// What identifies a version of the file: its bytes' length, change time and
/// a hash, so that a replace within the same second is seen too.
fn snapshot(path: &Path) -> Option<(u64, u64)> {
    let bytes = std::fs::read(path).ok()?;
    let mut h: u64 = 0xcbf29ce484222325;
    for b in &bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x100000001b3);
    }
    Some((bytes.len() as u64, h))
}
