//! `markport serve`: the page and the JSON API on loopback
//! (`markport-serve`); this maps the flags and prints the address.

use std::io::Write;

use clap::Args;

use crate::exit;
use crate::failure::Failure;

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The port on 127.0.0.1 and ::1 (default: a free one). No other
    /// address is ever listened on.
    #[arg(long, value_name = "N", default_value_t = 0)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// The largest request taken (`256M`, `1G`, bytes); a larger one is
    /// answered 413.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = markport_serve::parse_size)]
    max_size: u64,
    /// The seconds one conversion may take before it is answered 503.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    time_limit: f64,
    /// How many conversions may run at once (default: the number of CPUs);
    /// more are answered 503.
    #[arg(long, value_name = "N")]
    max_conversions: Option<usize>,
}

pub(crate) fn run(a: ServeArgs) -> u8 {
    try_serve(&a).unwrap_or_else(|f| f.report())
}

fn try_serve(a: &ServeArgs) -> Result<u8, Failure> {
    let mut config = markport_serve::Config::default();
    config.port = a.port;
    config.max_size = a.max_size;
    if !(a.time_limit.is_finite() && a.time_limit > 0.0) {
        return Err(Failure::new(
            "--time-limit takes a number of seconds above 0",
        ));
    }
    config.time_limit = std::time::Duration::from_secs_f64(a.time_limit);
    if let Some(n) = a.max_conversions {
        if n == 0 {
            return Err(Failure::new("--max-conversions takes 1 or more"));
        }
        config.max_conversions = n;
    }
    // The page offers the profiles `markport profiles` finds, as it finds
    // them: under $HOME and the XDG config directory.
    if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        let home = std::path::PathBuf::from(home);
        let xdg =
            markport::profiles::config_home(&home, std::env::var_os("XDG_CONFIG_HOME").as_deref());
        config.profiles_under(home, xdg);
    }
    let server = markport_serve::Server::bind(config)
        .map_err(|e| Failure::new(format_args!("cannot listen on port {}: {e}", a.port)))?;
    let url = server.url();
    // The address goes to standard output, alone on its line, for a
    // program that starts the server to read.
    let mut out = std::io::stdout().lock();
    writeln!(out, "{url}")?;
    out.flush()?;
    drop(out);
    crate::say::info(format_args!(
        "markport: serving on loopback only; open the address above (it carries the token). Ctrl-C stops.\n"
    ));
    if a.open {
        open_in_browser(&url);
    }
    server
        .run()
        .map_err(|e| Failure::new(format_args!("the server stopped: {e}")))?;
    Ok(exit::OK)
}

/// Ask the desktop to open `url`; a failure is said, the server goes on.
fn open_in_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        crate::say::err(format_args!(
            "markport: cannot start {opener} ({e}); open the address yourself\n"
        ));
    }
}
