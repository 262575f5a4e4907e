//! The desktop-bookmark spec's operations: registering a bookmark for an
//! application, who may see a private one, expanding an application's
//! command line, where the files live, and changing a file safely while
//! other programs do the same.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use markport_model::{
    Application, Bookmark, DateValue, Document, Error, ErrorKind, Node, ReadOptions, Timestamp,
    WriteOptions,
};

use crate::mime::mime_for;
use crate::uri::{file_uri_to_path, path_to_file_uri};

/// One application's registration of a URI.
#[derive(Clone, Debug, Default)]
pub struct Registration {
    /// The URI, or an absolute local path (made a file: URI).
    pub uri: String,
    /// The application's name (the registration key).
    pub app: String,
    /// Its command line (`%u`, `%f`); default `APP %u`.
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

/// Register: a new URI is added with count 1; the same application again
/// bumps its count and date; another application adds its own entry; groups
/// merge; the bookmark becomes private when any application asks.
pub fn register(doc: &mut Document, r: &Registration, now: Timestamp) {
    let uri = if r.uri.starts_with('/') {
        path_to_file_uri(r.uri.as_bytes())
    } else {
        r.uri.clone()
    };
    let now_v = DateValue::Instant(now);
    let id = match doc.find_by_href(&uri) {
        Some(id) => id,
        None => {
            let mut b = Bookmark::new(uri.clone());
            b.added = Some(now_v.clone());
            b.title = r.title.clone();
            b.details_mut().mime_type = Some(
                r.mime_type
                    .clone()
                    .unwrap_or_else(|| mime_for(&uri).to_owned()),
            );
            doc.push(None, b)
        }
    };
    let Node::Bookmark(b) = doc.node_mut(id) else {
        return;
    };
    b.modified = Some(now_v.clone());
    match b
        .details_mut()
        .applications
        .iter_mut()
        .find(|a| a.name == r.app)
    {
        Some(a) => {
            a.count = Some(a.count.unwrap_or(1).saturating_add(1));
            a.modified = Some(now_v);
            if let Some(e) = &r.exec {
                a.exec = e.clone();
            }
        }
        None => b.details_mut().applications.push(Application {
            name: r.app.clone(),
            exec: r.exec.clone().unwrap_or_else(|| format!("{} %u", r.app)),
            count: Some(1),
            modified: Some(now_v),
            timestamp: None,
        }),
    }
    for g in &r.groups {
        if !b.details().groups.contains(g) {
            b.details_mut().groups.push(g.clone());
        }
    }
    if r.private {
        b.private = Some(true);
    }
}

/// Whether `app` (with its `groups`) may see `b`: a private bookmark only
/// by the applications that registered it and the groups it is in.
pub fn visible_to(b: &Bookmark, app: Option<&str>, groups: &[String]) -> bool {
    if b.private != Some(true) {
        return true;
    }
    app.is_some_and(|a| b.details().applications.iter().any(|x| x.name == a))
        || groups.iter().any(|g| b.details().groups.contains(g))
}

/// Expand an application's command line for `uri`: `%u` the URI, `%f` the
/// local path (bytes, exactly; an error for a non-file URI), `%%` a percent.
/// Other `%x` are left as they are (the spec; GLib drops the `%`).
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

/// Change the bookmark file at `path` under an advisory lock (on
/// `PATH.lock`, so the lock survives the file being replaced), then write it
/// by atomic replace. A missing file starts empty.
pub fn update<T>(path: &Path, change: impl FnOnce(&mut Document) -> T) -> Result<T, Error> {
    let io = |e: std::io::Error| Error::io(&e);
    let mut lock_name = path.as_os_str().to_owned();
    lock_name.push(".lock");
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(PathBuf::from(lock_name))
        .map_err(io)?;
    lock.lock().map_err(io)?;
    let mut doc = match std::fs::read(path) {
        Ok(bytes) => crate::read(&bytes, &ReadOptions::default())?.document,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Document::new(),
        Err(e) => return Err(io(e)),
    };
    let result = change(&mut doc);
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = (|| {
        let mut f = File::create(&tmp).map_err(io)?;
        // The replacement keeps the old file's permissions: a private
        // recently-used.xbel must not become readable by others.
        if let Ok(old) = std::fs::metadata(path) {
            f.set_permissions(old.permissions()).map_err(io)?;
        }
        crate::write(&doc, &WriteOptions::default(), &mut f)?;
        f.flush().map_err(io)?;
        f.sync_all().map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
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
        register(&mut doc, &r, t);
        register(&mut doc, &r, t);
        register(
            &mut doc,
            &Registration {
                app: "vim".into(),
                private: true,
                ..r.clone()
            },
            t,
        );
        let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
        assert_eq!(b.href, "file:///home/me/notes.txt");
        assert_eq!(b.details().mime_type.as_deref(), Some("text/plain"));
        let counts: Vec<_> = b
            .details()
            .applications
            .iter()
            .map(|a| (a.name.as_str(), a.count))
            .collect();
        assert_eq!(counts, [("gedit", Some(2)), ("vim", Some(1))]);
        assert_eq!(b.details().groups, ["Office"]);
        assert!(visible_to(b, Some("vim"), &[]));
        assert!(visible_to(b, None, &["Office".into()]));
        assert!(!visible_to(b, Some("nautilus"), &[]));
    }
}
