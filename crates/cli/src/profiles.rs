//! `markport profiles`: the browser profiles on this machine and their
//! bookmark files, for `markport convert "$(markport profiles --path firefox)"`.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::failure::Failure;
use crate::files;

#[derive(Args)]
pub(crate) struct ProfilesArgs {
    /// Print only the bookmark file of BROWSER's default profile (firefox,
    /// chrome, chromium, edge, brave, vivaldi, opera; arc, edge-collections,
    /// zen for their stores that are not bookmark files).
    #[arg(long, value_name = "BROWSER", conflicts_with = "json")]
    path: Option<String>,
    /// Print JSON: one object per profile.
    #[arg(long)]
    json: bool,
}

fn home() -> Result<PathBuf, Failure> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| {
            Failure::new("HOME is not set: cannot tell where the browsers keep profiles")
        })
}

pub(crate) fn run(a: ProfilesArgs) -> u8 {
    try_run(&a).unwrap_or_else(|f| f.report())
}

fn try_run(a: &ProfilesArgs) -> Result<u8, Failure> {
    let home = home()?;
    let config =
        markport::profiles::config_home(&home, std::env::var_os("XDG_CONFIG_HOME").as_deref());
    let search = markport::profiles::search(&home, &config);
    for l in &search.looked {
        let browser = match l.variant {
            Some(v) => format!("{} ({v})", l.browser),
            None => l.browser.to_string(),
        };
        let found = match (l.exists, l.profiles) {
            (false, _) => "not there".to_string(),
            (true, 0) => "no profiles".to_string(),
            (true, 1) => "1 profile".to_string(),
            (true, n) => format!("{n} profiles"),
        };
        crate::say::verbose(format_args!(
            "markport: looked for {browser} in {}: {found}\n",
            l.dir.display()
        ));
    }
    let found = search.profiles;
    let mut out = files::stdout()?;
    if let Some(browser) = &a.path {
        let Some(p) = markport::profiles::default_for(&found, browser) else {
            let mut browsers: Vec<&str> = found.iter().map(|p| p.browser).collect();
            browsers.dedup();
            return Err(Failure::new(format_args!(
                "no {browser} profile with bookmarks found (found: {})",
                if browsers.is_empty() {
                    "none".to_string()
                } else {
                    browsers.join(", ")
                }
            )));
        };
        // The path as bytes, so any file name survives `$(...)`.
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            out.write_all(p.path.as_os_str().as_bytes())?;
            out.write_all(b"\n")?;
        }
        #[cfg(not(unix))]
        writeln!(out, "{}", p.path.display())?;
    } else if a.json {
        serde_json::to_writer_pretty(&mut out, &found)?;
        writeln!(out)?;
    } else if found.is_empty() {
        writeln!(out, "no browser profiles with bookmarks found")?;
    } else {
        for p in &found {
            let browser = match p.variant {
                Some(v) => format!("{} ({v})", p.browser),
                None => p.browser.to_string(),
            };
            let count = match (&p.bookmarks, &p.error) {
                (Some(n), _) => format!("{n} bookmarks"),
                (None, Some(e)) => e.clone(),
                (None, None) => String::new(),
            };
            let default = if p.default { " (default)" } else { "" };
            writeln!(
                out,
                "{browser:<18} {:<24} {count}\n  {}",
                format!("{}{default}", p.profile),
                p.path.display()
            )?;
        }
    }
    files::finish_stdout(out)?;
    Ok(exit::OK)
}
