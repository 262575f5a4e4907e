//! `markport desktop`: the desktop-bookmark spec's operations on a bookmark
//! file (by default `$XDG_DATA_HOME/recently-used.xbel`).

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};
use markport::desktop::spec::{self, Registration, StandardFile};
use markport::model::{Node, ReadOptions, Timestamp};

use crate::exit;

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
    Add {
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
        /// How long to wait, in seconds, for another process that holds the
        /// file's lock before giving up.
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        wait: f64,
        #[command(flatten)]
        file: FileArg,
    },
    /// List the bookmarks an application (or group) may see.
    List {
        /// Show what this application sees (private bookmarks of others are hidden).
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
    },
    /// Print the command line an application registered for URI, as GLib's
    /// g_bookmark_file_get_application_info gives it (unquoted, expanded).
    Exec {
        /// The bookmark's URI, or a local path.
        #[arg(value_parser = clap::value_parser!(OsString))]
        uri: OsString,
        /// The application.
        #[arg(long)]
        app: String,
        #[command(flatten)]
        file: FileArg,
    },
    /// Report each change to the bookmark file until interrupted.
    Watch {
        /// How often to look when no notification comes, in milliseconds.
        #[arg(long, default_value_t = 500)]
        interval: u64,
        /// Stop after this many changes (default: never).
        #[arg(long)]
        count: Option<usize>,
        #[command(flatten)]
        file: FileArg,
    },
}

/// The URI a command-line argument names: a URI as it is, a local path
/// (absolute, or relative to the working directory) as a file: URI.
fn uri_of(arg: &OsString) -> Result<String, String> {
    let uri = match arg.to_str() {
        Some("") => return Err("the URI is empty".into()),
        Some(s) if !s.starts_with('/') && spec::has_scheme(s) => s.to_owned(),
        _ => spec::uri_for_path(Path::new(arg)).map_err(|e| e.to_string())?,
    };
    Ok(uri)
}

fn file_of(f: &FileArg) -> PathBuf {
    f.file
        .clone()
        .unwrap_or_else(|| spec::standard_file(StandardFile::RecentlyUsed))
}

fn load(path: &PathBuf) -> Result<markport::model::Document, String> {
    match std::fs::read(path) {
        Ok(b) => markport::desktop::read(&b, &ReadOptions::default())
            .map(|r| r.document)
            .map_err(|e| format!("{}:{e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(markport::model::Document::new()),
        Err(e) => Err(format!("{}: cannot read: {e}", path.display())),
    }
}

pub(crate) fn run(a: DesktopArgs) -> u8 {
    match try_run(a) {
        Ok(code) => code,
        Err(e) => {
            crate::say::err(format_args!("error: {e}\n"));
            exit::ERROR
        }
    }
}

fn try_run(a: DesktopArgs) -> Result<u8, String> {
    match a.command {
        DesktopCommand::Add {
            uri,
            app,
            exec,
            groups,
            private,
            mime_type,
            wait,
            file,
        } => {
            let path = file_of(&file);
            let r = Registration {
                uri: uri_of(&uri)?,
                app,
                exec,
                groups,
                private,
                mime_type,
                title: None,
            };
            r.check().map_err(|e| e.to_string())?;
            let wait = Duration::try_from_secs_f64(wait)
                .map_err(|_| format!("--wait {wait}: not a number of seconds"))?;
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            let waiting = |lock: &Path| {
                crate::say::err(format_args!(
                    "note: waiting for another process to release {} (up to {} s; --wait)\n",
                    lock.display(),
                    wait.as_secs_f64()
                ));
            };
            let opts = spec::UpdateOptions {
                wait,
                waiting: Some(&waiting),
            };
            spec::update_with(&path, &opts, |doc| {
                spec::register(doc, &r, Timestamp::now())
            })
            .map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(exit::OK)
        }
        DesktopCommand::List {
            app,
            group,
            json,
            file,
        } => {
            let doc = load(&file_of(&file))?;
            let groups: Vec<String> = group.iter().cloned().collect();
            let mut out = std::io::stdout().lock();
            let mut listed = Vec::new();
            for id in doc.preorder() {
                let Node::Bookmark(b) = doc.node(id) else {
                    continue;
                };
                if !spec::visible_to(b, app.as_deref(), &groups) {
                    continue;
                }
                if group
                    .as_ref()
                    .is_some_and(|g| !b.details().groups.contains(g))
                {
                    continue;
                }
                if json {
                    listed.push(doc.node(id));
                    continue;
                }
                let apps: Vec<String> = b
                    .details()
                    .applications
                    .iter()
                    .map(|a| format!("{}×{}", a.name, a.count.unwrap_or(1)))
                    .collect();
                let _ = writeln!(
                    out,
                    "{}\t{}\t{}{}",
                    b.href,
                    b.details().mime_type.as_deref().unwrap_or(""),
                    apps.join(","),
                    if b.private == Some(true) {
                        "\tprivate"
                    } else {
                        ""
                    }
                );
            }
            if json {
                serde_json::to_writer_pretty(&mut out, &listed)
                    .map_err(std::io::Error::from)
                    .and_then(|()| writeln!(out))
                    .map_err(|e| format!("<stdout>: {e}"))?;
            }
            Ok(exit::OK)
        }
        DesktopCommand::Exec { uri, app, file } => {
            let doc = load(&file_of(&file))?;
            let uri = uri_of(&uri)?;
            let b = doc
                .find_by_href(&uri)
                .and_then(|id| doc.node(id).as_bookmark())
                .ok_or_else(|| format!("no bookmark for {uri}"))?;
            let a = b
                .details()
                .applications
                .iter()
                .find(|x| x.name == app)
                .ok_or_else(|| format!("{app} has not registered {uri}"))?;
            let line = spec::exec_command_line(&a.exec, &b.href).map_err(|e| e.to_string())?;
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(&line);
            let _ = out.write_all(b"\n");
            Ok(exit::OK)
        }
        DesktopCommand::Watch {
            interval,
            count,
            file,
        } => {
            let path = file_of(&file);
            // inotify (through notify) on the directory, since an atomic
            // replace gives the file a new inode; where no watcher can be
            // made, the file is polled. Either way a change is reported when
            // the contents differ, so a burst of events is one change.
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
            let (_watcher, rx) = match watcher {
                Ok(w) => (Some(w), Some(rx)),
                Err(e) => {
                    crate::say::err(format_args!(
                        "note: no file-system notification ({e}); polling every {interval} ms\n"
                    ));
                    (None, None)
                }
            };
            let mut seen = snapshot(&path);
            let mut changes = 0;
            let mut out = std::io::stdout().lock();
            while count.is_none_or(|c| changes < c) {
                match &rx {
                    Some(rx) => {
                        // Wake on an event, or after the interval in any case.
                        let _ = rx.recv_timeout(Duration::from_millis(interval));
                        while rx.try_recv().is_ok() {}
                    }
                    None => std::thread::sleep(Duration::from_millis(interval)),
                }
                let now = snapshot(&path);
                if now != seen {
                    let what = match (&seen, &now) {
                        (None, Some(_)) => "created",
                        (Some(_), None) => "removed",
                        _ => "changed",
                    };
                    let n = load(&path).map(|d| d.census().bookmarks).unwrap_or(0);
                    let _ = writeln!(out, "{what}\t{}\t{n} bookmarks", path.display());
                    let _ = out.flush();
                    seen = now;
                    changes += 1;
                }
            }
            Ok(exit::OK)
        }
    }
}

/// What identifies a version of the file: its bytes' length, change time and
/// a hash, so that a replace within the same second is seen too.
fn snapshot(path: &PathBuf) -> Option<(u64, u64)> {
    let bytes = std::fs::read(path).ok()?;
    let mut h: u64 = 0xcbf29ce484222325;
    for b in &bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x100000001b3);
    }
    Some((bytes.len() as u64, h))
}
