//! `markport serve`: the page and the JSON API on loopback
//! (`markport-serve`); this maps the flags and prints the address.

use std::io::Write;

use clap::Args;

use crate::exit;
use crate::failure::Failure;

/// The limits, with their defaults, are those of `markport_serve::Config`
/// (crates/serve/README.md says what each holds).
#[derive(Args)]
#[command(after_help = "\
Every request carries the token: the address printed is http://127.0.0.1:PORT/TOKEN/ \
(the page and its API are under it), and a program may send Authorization: Bearer TOKEN \
instead. No cookie is set.

What one client can hold is bounded: a connection must send a request's head within \
--header-timeout of opening or of its last answer (so an idle connection is closed then \
too), its body within --body-timeout (408), and take its answer with no pause longer than \
--send-timeout; at most --max-connections are open (one more is answered 503). A \
conversion is held to the command line's memory, its upload plus twice the upload plus \
128 MiB (or --memory-budget), and all requests together to --memory-limit (64 MiB of it \
the server's own): a request there is no room for now is answered 503, one that could \
never fit 413.")]
pub(crate) struct ServeArgs {
    /// The port on 127.0.0.1 and ::1 (default: a free one). No other
    /// address is ever listened on.
    #[arg(long, value_name = "N", default_value_t = 0)]
    port: u16,
    /// Open the page in the default browser (the address with its token).
    #[arg(long)]
    open: bool,
    /// The largest request taken (`256M`, `1G`, bytes); a larger one is
    /// answered 413.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = markport_serve::parse_size)]
    max_size: u64,
    /// The seconds one conversion may take: it is answered 503 then, and
    /// stops.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    time_limit: f64,
    /// How many conversions may run at once (default: the number of CPUs);
    /// more are answered 503. A slot is taken once the upload is read.
    #[arg(long, value_name = "N")]
    max_conversions: Option<usize>,
    /// How many connections may be open at once; one more is answered 503
    /// and closed.
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_connections: usize,
    /// The seconds a connection may take to send a request's line and
    /// headers, from its opening or its last answer (an idle connection is
    /// closed after as long).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    header_timeout: f64,
    /// The seconds a request's body may take to arrive (408 after).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    body_timeout: f64,
    /// The seconds an answer may wait on a client that takes none of it
    /// before it is abandoned.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    send_timeout: f64,
    /// The memory of the whole server (`1G`, `512M`, bytes): requests
    /// reserve theirs before they take it; one there is no room for now is
    /// answered 503.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = markport_serve::parse_size)]
    memory_limit: u64,
    /// The most memory one conversion's collection may take (`512M`,
    /// bytes); by default twice the bytes uploaded plus 128 MiB, as
    /// `convert` reads a file.
    #[arg(long, value_name = "SIZE", value_parser = markport_serve::parse_size)]
    memory_budget: Option<u64>,
}

pub(crate) fn run(a: ServeArgs) -> u8 {
    try_serve(&a).unwrap_or_else(|f| f.report())
}

/// `value` seconds of `flag`, above 0.
fn seconds(flag: &str, value: f64) -> Result<std::time::Duration, Failure> {
    if !(value.is_finite() && value > 0.0 && value < 1e9) {
        return Err(Failure::new(format_args!(
            "{flag} takes a number of seconds above 0"
        )));
    }
    Ok(std::time::Duration::from_secs_f64(value))
}

fn config(a: &ServeArgs) -> Result<markport_serve::Config, Failure> {
    let mut config = markport_serve::Config::default();
    config.port = a.port;
    config.max_size = a.max_size;
    config.time_limit = seconds("--time-limit", a.time_limit)?;
    config.header_timeout = seconds("--header-timeout", a.header_timeout)?;
    config.body_timeout = seconds("--body-timeout", a.body_timeout)?;
    config.send_timeout = seconds("--send-timeout", a.send_timeout)?;
    if let Some(n) = a.max_conversions {
        config.max_conversions = n;
    }
    config.max_connections = a.max_connections;
    config.memory_limit = a.memory_limit;
    config.memory_budget = a.memory_budget;
    config.check().map_err(Failure::new)?;
    // The page offers the profiles `markport profiles` finds, as it finds
    // them: under $HOME and the XDG config directory.
    if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        let home = std::path::PathBuf::from(home);
        let xdg =
            markport::profiles::config_home(&home, std::env::var_os("XDG_CONFIG_HOME").as_deref());
        config.profiles_under(home, xdg);
    }
    Ok(config)
}

fn try_serve(a: &ServeArgs) -> Result<u8, Failure> {
    let config = config(a)?;
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
