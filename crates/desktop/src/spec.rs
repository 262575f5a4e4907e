//! The desktop-bookmark spec's operations: registering a bookmark for an
//! application, who may see a private one, expanding an application's
//! command line, where the files live, changing a file safely while other
//! programs do the same, and cleaning it (removing entries, pruning those
//! whose file is gone or that were not used since a date).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use markport_model::{
    Application, Bookmark, DateValue, Document, Error, ErrorKind, LossReport, Node, ReadOptions,
    Timestamp, WriteOptions,
};

use markport_files::output::{destination, OutputFile};

pub use crate::clean::{
    last_use, local_file_state, prune, prune_file, remove, remove_from_file, FileState, Prune,
    Reason, Removal, Removed,
};
use crate::mime::mime_for;
pub use crate::shell::{exec_command_line, shell_quote, shell_unquote};
use crate::uri::{file_uri_to_path, path_to_file_uri};

/// One application's registration of a URI.
#[derive(Clone, Debug, Default)]
pub struct Registration {
    /// The URI, or an absolute local path (made a file: URI); see
    /// [`uri_for_path`] for other paths.
    pub uri: String,
    /// The application's name (the registration key).
    pub app: String,
    /// Its command line (`%u`, `%f`), unquoted; stored shell-quoted, as
    /// GLib's `g_bookmark_file_set_application_info` stores it. Default
    /// (also for an empty one) `APP %u`.
    pub exec: Option<String>,
    /// Groups to add.
    pub groups: Vec<String>,
    /// Ask for the bookmark to be private.
    pub private: bool,
    /// The MIME type; default from the file name.
    pub mime_type: Option<String>,
    /// A title for a new bookmark.
    pub title: Option<String>,
}

impl Registration {
    /// Refuse what GLib would not store or could not use: an empty URI, an
    /// empty application name, a relative path.
    pub fn check(&self) -> Result<(), Error> {
        let invalid = |m: String| Err(Error::new(ErrorKind::Invalid, m, None));
        if self.uri.is_empty() {
            return invalid("the URI is empty".into());
        }
        if self.app.is_empty() {
            return invalid("the application name is empty".into());
        }
        if !self.uri.starts_with('/') && !has_scheme(&self.uri) {
            return invalid(format!(
                "{:?} is neither a URI nor an absolute path (desktop bookmarks hold no relative paths)",
                self.uri
            ));
        }
        Ok(())
    }
}

/// Whether `s` starts with a URI scheme (`letter *(letter / digit / + - .) :`):
/// what tells a URI from a relative path.
pub fn has_scheme(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    let mut c = scheme.bytes();
    c.next().is_some_and(|b| b.is_ascii_alphabetic())
        && c.all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
}

/// The `file:` URI for a local path given on a command line: an absolute
/// path as it is; a relative one resolved against the working directory as
/// `realpath` resolves it (symbolic links followed where the path exists).
/// Any path bytes work; they are percent-encoded as GLib's
/// `g_filename_to_uri` encodes them.
pub fn uri_for_path(path: &Path) -> Result<String, Error> {
    if path.as_os_str().is_empty() {
        return Err(Error::new(ErrorKind::Invalid, "the path is empty", None));
    }
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        match std::fs::canonicalize(path) {
            Ok(p) => p,
            // A file that does not exist (yet): its directory resolved, if
            // that exists, else the path made absolute as it is.
            Err(_) => {
                let parent = path
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                match (std::fs::canonicalize(parent), path.file_name()) {
                    (Ok(dir), Some(name)) => dir.join(name),
                    _ => std::path::absolute(path).map_err(Error::io)?,
                }
            }
        }
    };
    Ok(path_to_file_uri(&uri_path_bytes(&absolute)))
}

/// An absolute path's bytes as a `file:` URI's path holds them: on Unix the
/// path's own bytes, whatever they are.
#[cfg(unix)]
fn uri_path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().into()
}

/// An absolute path's bytes as a `file:` URI's path holds them: elsewhere
/// (Windows) UTF-8 with `/` for `\`, without the `\\?\` prefix
/// `canonicalize` gives, and a `/` before a drive letter (`C:\x` is
/// `file:///C:/x`).
#[cfg(not(unix))]
fn uri_path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    let text = path.to_string_lossy();
    let text = text.strip_prefix(r"\\?\").unwrap_or(&text);
    let mut s = text.replace('\\', "/");
    if !s.starts_with('/') {
        s.insert(0, '/');
    }
    s.into_bytes().into()
}

/// Register: a new URI is added with count 1; the same application again
/// bumps its count and date; another application adds its own entry; groups
/// merge; the bookmark becomes private when any application asks. An error
/// (and no change) for what [`Registration::check`] refuses.
pub fn register(doc: &mut Document, r: &Registration, now: Timestamp) -> Result<(), Error> {
    r.check()?;
    let uri = if r.uri.starts_with('/') {
        path_to_file_uri(r.uri.as_bytes())
    } else {
        r.uri.clone()
    };
    // GLib stores the command line quoted (g_shell_quote) and unquotes it
    // when asked, so the quoted form is what GLib-based programs expect.
    let exec = shell_quote(
        &r.exec
            .clone()
            .filter(|e| !e.is_empty())
            .unwrap_or_else(|| format!("{} %u", r.app)),
    );
    let now_v = DateValue::Instant(now);
    let id = match doc.find_by_href(&uri) {
        Some(id) => id,
        None => {
            let mut b = Bookmark::new(uri.clone());
            b.added = Some(now_v.clone());
            b.title = r.title.clone();
            b.details_mut().desktop_mut().mime_type = Some(
                r.mime_type
                    .clone()
                    .unwrap_or_else(|| mime_for(&uri).to_owned()),
            );
            doc.push(None, b)
        }
    };
    let Node::Bookmark(b) = doc.node_mut(id) else {
        return Ok(());
    };
    b.modified = Some(now_v.clone());
    match b
        .details_mut()
        .desktop_mut()
        .applications
        .iter_mut()
        .find(|a| a.name == r.app)
    {
        Some(a) => {
            a.count = Some(a.count.unwrap_or(1).saturating_add(1));
            a.modified = Some(now_v);
            if r.exec.as_ref().is_some_and(|e| !e.is_empty()) {
                a.exec = exec;
            }
        }
        None => {
            let mut app = Application::new(r.app.clone(), exec);
            app.count = Some(1);
            app.modified = Some(now_v);
            b.details_mut().desktop_mut().applications.push(app);
        }
    }
    for g in &r.groups {
        if !b.details().desktop().groups.contains(g) {
            b.details_mut().desktop_mut().groups.push(g.clone());
        }
    }
    if r.private {
        b.private = Some(true);
    }
    Ok(())
}

/// Whether `app` (with its `groups`) may see `b`: a private bookmark only
/// by the applications that registered it and the groups it is in.
pub fn visible_to(b: &Bookmark, app: Option<&str>, groups: &[String]) -> bool {
    if b.private != Some(true) {
        return true;
    }
    app.is_some_and(|a| {
        b.details()
            .desktop()
            .applications
            .iter()
            .any(|x| x.name == a)
    }) || groups
        .iter()
        .any(|g| b.details().desktop().groups.contains(g))
}

/// Expand an application's command line for `uri`: `%u` the URI, `%f` the
/// local path (bytes, exactly; an error for a non-file URI), `%%` a percent.
/// Other `%x` are left as they are (the spec; GLib drops the `%`). The
/// stored form is taken as it is; [`exec_command_line`] is what GLib gives.
pub fn expand_exec(exec: &str, uri: &str) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(exec.len() + uri.len());
    let mut chars = exec.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '%' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.peek().map(|&(_, n)| n) {
            Some('u') | Some('U') => {
                chars.next();
                out.extend_from_slice(uri.as_bytes());
            }
            Some('f') | Some('F') => {
                chars.next();
                let path = file_uri_to_path(uri).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Invalid,
                        format!(
                            "%f needs a local file, and {uri:?} is not a file: URI of this host"
                        ),
                        None,
                    )
                })?;
                out.extend_from_slice(&path);
            }
            Some('%') => {
                chars.next();
                out.push(b'%');
            }
            _ => out.push(b'%'),
        }
    }
    Ok(out)
}

/// `$XDG_DATA_HOME` (default `~/.local/share`).
pub fn data_home() -> PathBuf {
    match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".local/share"),
    }
}

/// The standard files: `recently-used.xbel`, `recent-applications.xbel`,
/// `shortcuts.xbel` under `$XDG_DATA_HOME`.
pub fn standard_file(name: StandardFile) -> PathBuf {
    data_home().join(match name {
        StandardFile::RecentlyUsed => "recently-used.xbel",
        StandardFile::RecentApplications => "recent-applications.xbel",
        StandardFile::Shortcuts => "shortcuts.xbel",
    })
}

/// The spec's standard bookmark files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandardFile {
    /// Recently used files.
    RecentlyUsed,
    /// Recently used applications.
    RecentApplications,
    /// Shortcuts (places).
    Shortcuts,
}

/// Application bookmark files: `*.xbel` in each `$XDG_DATA_DIRS` entry's
/// `desktop-bookmarks/`, the first of two with the same name winning.
pub fn application_files() -> Vec<PathBuf> {
    let dirs = std::env::var("XDG_DATA_DIRS")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for dir in dirs.split(':').filter(|d| !d.is_empty()) {
        let Ok(entries) = std::fs::read_dir(Path::new(dir).join("desktop-bookmarks")) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let is_xbel = f.extension().is_some_and(|e| e == "xbel");
            if is_xbel && seen.insert(f.file_name().map(|n| n.to_owned())) {
                out.push(f);
            }
        }
    }
    out
}

/// How [`update_with`] waits for the lock.
pub struct UpdateOptions<'a> {
    /// How long to wait for another process's lock before giving up.
    pub wait: Duration,
    /// Called once, with the lock file's path, when the lock has been held
    /// by another process for a second (so that people know why nothing
    /// happens).
    pub waiting: Option<&'a dyn Fn(&Path)>,
}

/// How long [`update`] waits for another process's lock: 10 seconds.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(10);

impl Default for UpdateOptions<'_> {
    fn default() -> Self {
        UpdateOptions {
            wait: DEFAULT_WAIT,
            waiting: None,
        }
    }
}

/// [`update_with`] with the default options.
pub fn update<T>(
    path: &Path,
    change: impl FnOnce(&mut Document) -> Result<T, Error>,
) -> Result<T, Error> {
    update_with(path, &UpdateOptions::default(), change)
}

fn lock_error(lock: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Io,
        format!("lock file {}: {what}: {e}", lock.display()),
        None,
    )
}

/// Take the advisory lock on `lock`, waiting as `opts` says.
fn take_lock(lock: &Path, opts: &UpdateOptions) -> Result<File, Error> {
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock)
        .map_err(|e| lock_error(lock, "cannot open it", e))?;
    let start = Instant::now();
    let mut told = false;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(lock_error(lock, "cannot lock it", e))
            }
            Err(std::fs::TryLockError::WouldBlock) => {}
        }
        let waited = start.elapsed();
        if waited >= opts.wait {
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "lock file {}: another process has held it for {:.1} s; gave up (nothing changed)",
                    lock.display(),
                    waited.as_secs_f64()
                ),
                None,
            ));
        }
        if !told && waited >= Duration::from_secs(1) {
            if let Some(f) = opts.waiting {
                f(lock);
            }
            told = true;
        }
        std::thread::sleep(Duration::from_millis(20).min(opts.wait - waited));
    }
}

/// What the writer reported, as one line: the fields and why.
fn describe(loss: &LossReport) -> String {
    loss.losses
        .iter()
        .map(|l| {
            format!(
                "{} ({}×: {}{})",
                l.field,
                l.count,
                l.reason,
                if l.paths.is_empty() {
                    String::new()
                } else {
                    format!("; {}", l.paths.join(", "))
                }
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Change the bookmark file at `path` under an advisory lock (on
/// `PATH.lock`, so the lock survives the file being replaced), then write it
/// by atomic replace. A missing file starts empty.
///
/// Nothing is lost silently. A file in GLib's dialect is written in GLib's
/// layout. A file that is XBEL GLib would not load as it is (folders,
/// separators, aliases, KDE's icon names, foreign metadata, duplicate
/// URIs...) keeps all of it: it is changed as XBEL and written by the XBEL
/// writer. If what would be written still loses something (say an
/// application name with a tab), the change is refused with an error that
/// names it, and the file is left as it was.
///
/// A symbolic link is followed (the link stays, its target is changed); a
/// read-only file is refused; when another process holds the lock,
/// `opts.waiting` is told after a second and the call gives up after
/// `opts.wait`. If `change` fails, nothing is written.
pub fn update_with<T>(
    path: &Path,
    opts: &UpdateOptions,
    change: impl FnOnce(&mut Document) -> Result<T, Error>,
) -> Result<T, Error> {
    transact(path, Some(opts), |doc| change(doc).map(|t| (t, true)))
}

/// [`update_with`]'s reading and checking without its writing: what
/// `change` gives on the document an update would change, and the same
/// refusal when writing it back would lose something. Takes no lock and
/// leaves the file (and a missing one) as it is; for `--dry-run`.
pub fn preview<T>(
    path: &Path,
    change: impl FnOnce(&mut Document) -> Result<T, Error>,
) -> Result<T, Error> {
    transact(path, None, |doc| change(doc).map(|t| (t, true)))
}

/// [`update_with`] that writes only when `change` says it changed the
/// document (the second value): a clean-up that finds nothing to remove
/// leaves the file untouched, and does not create a missing one. With
/// `opts` `None` it is [`preview`].
pub fn update_if_changed<T>(
    path: &Path,
    opts: Option<&UpdateOptions>,
    change: impl FnOnce(&mut Document) -> Result<(T, bool), Error>,
) -> Result<T, Error> {
    transact(path, opts, change)
}

/// The one read-change-write sequence behind [`update_with`], [`preview`]
/// and [`update_if_changed`]: `opts` `None` reads without the lock and never
/// writes; otherwise the file is written when `change` says it changed.
fn transact<T>(
    path: &Path,
    opts: Option<&UpdateOptions>,
    change: impl FnOnce(&mut Document) -> Result<(T, bool), Error>,
) -> Result<T, Error> {
    let io = |e: std::io::Error| Error::io(e);
    // The file a chain of symbolic links ends at (which need not exist),
    // so that the link is kept and its target changed.
    let path = destination(path)
        .map_err(|e| Error::new(ErrorKind::Io, e.to_string(), None))?
        .path;
    let path = path.as_path();
    let old_permissions = match std::fs::metadata(path) {
        Ok(m) => Some(m.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(e)),
    };
    // Replacing by rename needs only the directory to be writable, so a
    // read-only file is refused here, not by the file system.
    if old_permissions.as_ref().is_some_and(|p| p.readonly()) {
        return Err(Error::new(
            ErrorKind::Io,
            "the file is read-only; not changed",
            None,
        ));
    }
    if old_permissions.is_some() {
        if let Err(e) = File::options().append(true).open(path) {
            return Err(Error::new(
                ErrorKind::Io,
                format!("the file cannot be written ({e}); not changed"),
                None,
            ));
        }
    }
    let lock = match opts {
        Some(opts) => {
            let mut lock_name = path.as_os_str().to_owned();
            lock_name.push(".lock");
            Some(take_lock(&PathBuf::from(lock_name), opts)?)
        }
        None => None,
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(e)),
    };
    let (mut doc, as_xbel) = match &bytes {
        None => (Document::new(), false),
        Some(bytes) => {
            let desktop = crate::read(bytes, &ReadOptions::default())?.document;
            let plain = markport_xbel::read(bytes, &ReadOptions::default())?.document;
            let census = plain.census();
            let flat = census.folders == 0 && census.separators == 0 && census.aliases == 0;
            // GLib's dialect only if reading it as desktop bookmarks changed
            // nothing (a second entry for one application is merged away, a
            // missing count becomes 1) and writing it back loses nothing.
            let kept = flat
                && markport_model::diff(&plain, &desktop).is_empty()
                && crate::write(&desktop, &WriteOptions::default(), &mut std::io::sink())?
                    .is_empty();
            if kept {
                (desktop, false)
            } else {
                (plain, true)
            }
        }
    };
    let (result, changed) = change(&mut doc)?;
    if !changed {
        return Ok(result);
    }
    let mut out = Vec::new();
    let loss = if as_xbel {
        markport_xbel::write(&doc, &WriteOptions::default(), &mut out)?
    } else {
        crate::write(&doc, &WriteOptions::default(), &mut out)?
    };
    if !loss.is_empty() {
        return Err(Error::new(
            ErrorKind::Unwritable,
            format!(
                "not changed, because writing it back would lose {}",
                describe(&loss)
            ),
            None,
        ));
    }
    let Some(lock) = lock else {
        return Ok(result);
    };
    // The one output writer: a temporary file beside it, synced and renamed
    // into place, keeping the old file's mode (a private recently-used.xbel
    // must not become readable by others) and owner where the process may.
    let not_changed =
        |e: &dyn std::fmt::Display| Error::new(ErrorKind::Io, format!("{e}; not changed"), None);
    let mut file = OutputFile::create(path).map_err(|e| not_changed(&e))?;
    file.write_all(&out).map_err(io)?;
    file.commit().map_err(io)?;
    // The rename itself is durable only once the directory is synced.
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let _ = File::open(dir).and_then(|d| d.sync_all());
    lock.unlock().map_err(io)?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_lines_expand_as_the_spec_says() {
        let uri = "file:///tmp/caf%E9%20x.txt";
        assert_eq!(
            expand_exec("gedit %u", uri).unwrap(),
            b"gedit file:///tmp/caf%E9%20x.txt"
        );
        assert_eq!(
            expand_exec("open %f", uri).unwrap(),
            b"open /tmp/caf\xe9 x.txt"
        );
        assert_eq!(expand_exec("100%% %x %", uri).unwrap(), b"100% %x %");
        assert!(expand_exec("open %f", "https://x/").is_err());
    }

    #[test]
    fn registration_counts_and_privacy() {
        let mut doc = Document::new();
        let t = Timestamp::from_unix_seconds(1_700_000_000).unwrap();
        let r = Registration {
            uri: "/home/me/notes.txt".into(),
            app: "gedit".into(),
            groups: vec!["Office".into()],
            ..Registration::default()
        };
        register(&mut doc, &r, t).unwrap();
        register(&mut doc, &r, t).unwrap();
        register(
            &mut doc,
            &Registration {
                app: "vim".into(),
                private: true,
                ..r.clone()
            },
            t,
        )
        .unwrap();
        let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
        assert_eq!(b.href, "file:///home/me/notes.txt");
        assert_eq!(
            b.details().desktop().mime_type.as_deref(),
            Some("text/plain")
        );
        let counts: Vec<_> = b
            .details()
            .desktop()
            .applications
            .iter()
            .map(|a| (a.name.as_str(), a.count))
            .collect();
        assert_eq!(counts, [("gedit", Some(2)), ("vim", Some(1))]);
        assert_eq!(b.details().desktop().groups, ["Office"]);
        assert!(visible_to(b, Some("vim"), &[]));
        assert!(visible_to(b, None, &["Office".into()]));
        assert!(!visible_to(b, Some("nautilus"), &[]));
    }

    fn corpus(name: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../corpus/desktop")
                .join(name),
        )
        .unwrap()
    }

    fn registration(uri: &str, app: &str) -> Registration {
        Registration {
            uri: uri.into(),
            app: app.into(),
            ..Registration::default()
        }
    }

    fn now() -> Timestamp {
        Timestamp::from_unix_seconds(1_700_000_000).unwrap()
    }

    #[test]
    fn registrations_glib_would_refuse_are_errors() {
        let mut doc = Document::new();
        for r in [
            registration("", "gedit"),
            registration("/tmp/a", ""),
            registration("report.odt", "writer"),
            registration("./a:b", "writer"),
        ] {
            assert!(register(&mut doc, &r, now()).is_err(), "{r:?}");
        }
        assert!(doc.is_empty());
        assert!(has_scheme("trash:/") && has_scheme("x-a.b+c:y"));
        assert!(!has_scheme("report.odt") && !has_scheme("1a:b") && !has_scheme(":x"));
    }

    #[test]
    fn exec_is_stored_as_glib_stores_it() {
        let mut doc = Document::new();
        let mut r = registration("/tmp/a.txt", "gedit");
        register(&mut doc, &r, now()).unwrap();
        r.app = "q".into();
        r.exec = Some("it's %f".into());
        register(&mut doc, &r, now()).unwrap();
        let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
        let execs: Vec<_> = b
            .details()
            .desktop()
            .applications
            .iter()
            .map(|a| a.exec.as_str())
            .collect();
        assert_eq!(execs, ["'gedit %u'", "'it'\\''s %f'"]);
    }

    #[test]
    #[cfg(unix)]
    fn relative_paths_are_resolved_against_the_working_directory() {
        use std::os::unix::ffi::OsStrExt;
        let cwd = std::fs::canonicalize(".").unwrap();
        let want = |p: &Path| path_to_file_uri(p.as_os_str().as_bytes());
        assert_eq!(
            uri_for_path(Path::new("Cargo.toml")).unwrap(),
            want(&cwd.join("Cargo.toml"))
        );
        assert_eq!(
            uri_for_path(Path::new("src/../no such file;")).unwrap(),
            want(&cwd.join("no such file;"))
        );
        assert_eq!(
            uri_for_path(Path::new("/x/../y")).unwrap(),
            "file:///x/../y",
            "an absolute path is taken as given, as GLib takes it"
        );
        assert!(uri_for_path(Path::new("")).is_err());
    }

    #[test]
    fn update_keeps_what_glib_ignores() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("places.xbel");
        std::fs::write(&file, corpus("kde-places.xbel")).unwrap();
        update(&file, |doc| {
            register(doc, &registration("/tmp/a", "gedit"), now())
        })
        .unwrap();
        let doc = markport_xbel::read(&std::fs::read(&file).unwrap(), &ReadOptions::default())
            .unwrap()
            .document;
        let census = doc.census();
        assert_eq!(
            (census.folders, census.separators, census.bookmarks),
            (1, 1, 3)
        );
    }

    #[test]
    fn update_keeps_what_the_desktop_reader_would_merge() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("recently-used.xbel");
        let text = String::from_utf8(corpus("recently-used.xbel")).unwrap();
        // The same application twice in one item: GLib keeps the later one.
        let line = text
            .lines()
            .find(|l| l.contains("<bookmark:application "))
            .unwrap();
        let twice = text.replacen(
            line,
            &format!("{line}\n{}", line.replace("count=\"", "count=\"7")),
            1,
        );
        std::fs::write(&file, &twice).unwrap();
        update(&file, |doc| {
            register(doc, &registration("/tmp/a", "gedit"), now())
        })
        .unwrap();
        let after = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            after.matches("<bookmark:application ").count(),
            twice.matches("<bookmark:application ").count() + 1
        );
    }

    #[test]
    fn update_refuses_a_loss_and_says_what() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("recently-used.xbel");
        let original = corpus("recently-used.xbel");
        std::fs::write(&file, &original).unwrap();
        let err = update(&file, |doc| {
            register(doc, &registration("/tmp/a", "new\nline"), now())
        })
        .unwrap_err();
        assert!(err.message.contains("bookmark.applications"), "{err}");
        assert_eq!(std::fs::read(&file).unwrap(), original);
        // A failing change writes nothing either.
        let err = update(&file, |doc| register(doc, &registration("", "x"), now()));
        assert!(err.is_err());
        assert_eq!(std::fs::read(&file).unwrap(), original);
    }

    #[test]
    #[cfg(unix)]
    fn links_are_followed_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.xbel");
        std::os::unix::fs::symlink("target.xbel", dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("b")).unwrap();
        update(&dir.path().join("b"), |doc| {
            register(doc, &registration("/tmp/a", "gedit"), now())
        })
        .unwrap();
        assert!(target.is_file());
        assert!(target.with_extension("xbel.lock").exists());
        for link in ["a", "b"] {
            let m = std::fs::symlink_metadata(dir.path().join(link)).unwrap();
            assert!(m.file_type().is_symlink(), "{link}");
        }
        std::os::unix::fs::symlink("loop", dir.path().join("loop")).unwrap();
        let err = update(&dir.path().join("loop"), |_| Ok(())).unwrap_err();
        assert!(err.message.contains("symbolic links"), "{err}");
    }

    #[test]
    fn a_held_lock_is_announced_and_given_up() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f.xbel");
        let held = File::create(dir.path().join("f.xbel.lock")).unwrap();
        held.lock().unwrap();
        let told = std::cell::Cell::new(0);
        let waiting = |p: &Path| {
            assert!(p.ends_with("f.xbel.lock"));
            told.set(told.get() + 1);
        };
        let opts = UpdateOptions {
            wait: Duration::from_millis(1200),
            waiting: Some(&waiting),
        };
        let start = Instant::now();
        let err = update_with(&file, &opts, |_| Ok(())).unwrap_err();
        assert!(start.elapsed() >= Duration::from_millis(1200));
        assert!(err.message.contains("gave up"), "{err}");
        assert_eq!(told.get(), 1);
        assert!(!file.exists());
    }
}
