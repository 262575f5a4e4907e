//! `markport serve`: a page for people who do not use a terminal and a
//! JSON API for programs, both on this machine's loopback address only.
//!
//! The API is in the style of `pandoc server`: stateless POSTs, a
//! `/api/version`, a time limit per conversion, no file system or network
//! access on behalf of a request. Every conversion is the library's one
//! pipeline ([`markport::run`]) over the uploaded bytes
//! ([`markport::Input::Bytes`]), so the report, the `fail-on` gates and
//! private bookmarks behave as `markport convert` makes them behave; a
//! database upload (places.sqlite, buku) is copied by its reader into an
//! owner-only [`markport::files::private`] directory, removed when the
//! read ends.
//!
//! What keeps another site or another user of the machine out (each rule
//! has an integration test in `tests/security.rs` or the command's
//! `tests/serve.rs` that fails without it):
//!
//! - the listeners are bound to `127.0.0.1` and `::1` only;
//! - every request carries the token printed with the address: as the
//!   first segment of its path (`http://127.0.0.1:PORT/TOKEN/`, where the
//!   page and its API are) or as `Authorization: Bearer`. No cookie is
//!   set: a browser sends a cookie of 127.0.0.1 to every port of it, so
//!   any other local server the person visits would get it; a path goes
//!   only to the server it names, and the page's `Referrer-Policy:
//!   same-origin` keeps it from any other origin (another port is one);
//! - the `Host` header must name the loopback address or `localhost` with
//!   this server's port, so a name rebound to 127.0.0.1 (DNS rebinding)
//!   reaches nothing; a POST whose `Origin` is another site's is refused;
//!   no CORS header is ever sent;
//! - what one client can hold is bounded ([`Config`] states each limit):
//!   open connections, the time to send a request's head and its body, the
//!   time an answer may make no progress, the request's size, one
//!   conversion's time (its deadline stops the pipeline too), conversions
//!   at once, and the memory of all requests together, each reserved
//!   before it is taken;
//! - a browser profile (`GET /api/profiles`) is named by an id the list
//!   gave, never by a path, and its file is read through its reader, never
//!   written;
//! - the page has a strict Content-Security-Policy: its one script and one
//!   style are allowed by their hashes, nothing else loads.
//!
//! ```no_run
//! let server = markport_serve::Server::bind(markport_serve::Config::default()).unwrap();
//! println!("{}", server.url());
//! server.run().unwrap();
//! ```

mod answer;
mod api;
mod convert;
mod form;
mod guard;
mod listen;
mod memory;
mod page;
mod profiles;
mod report;
mod stream;

use std::io;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

pub use memory::SERVER_SHARE;

/// How the server runs, and every limit it holds its clients to.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// The port on both loopback addresses; 0 picks a free one.
    pub port: u16,
    /// The largest request body taken, in bytes (larger: 413).
    pub max_size: u64,
    /// How long one conversion may take: it is answered 503 then, and
    /// stops (its reads and its writer check the deadline).
    pub time_limit: Duration,
    /// How many requests may convert at once (more: 503 with
    /// `Retry-After`); a slot is taken once the request's body is read.
    pub max_conversions: usize,
    /// How many connections may be open at once; one more is answered
    /// 503 and closed at once.
    pub max_connections: usize,
    /// How long a connection may take to send a request's head (line and
    /// headers), from its opening or from the end of the answer before:
    /// it is also how long an idle keep-alive connection is kept.
    pub header_timeout: Duration,
    /// How long a request's body may take to arrive, from its head (408).
    pub body_timeout: Duration,
    /// How long an answer may make no progress (a client that stops
    /// reading it) before it is abandoned.
    pub send_timeout: Duration,
    /// The memory of the whole server, in bytes: [`SERVER_SHARE`] for
    /// itself, the rest reserved by requests before they take it (their
    /// bodies, their documents' budgets, their answers); a request it has
    /// no room for now is answered 503, one it could never hold 413.
    pub memory_limit: u64,
    /// The most one conversion's documents may take, in bytes
    /// ([`markport::ReadOptions::memory_budget`]); `None`: the command
    /// line's, twice the bytes uploaded plus 128 MiB.
    pub memory_budget: Option<u64>,
    /// Where the browser profiles the page offers are looked for (see
    /// [`Config::profiles_under`]); `None`: no profile is offered.
    profiles: Option<profiles::Homes>,
}

impl Config {
    /// Offer the browser profiles found under `home` and the XDG config
    /// directory `config` ([`markport::profiles::search`]): the page
    /// lists them and converts one by its id; their files are read, never
    /// written.
    pub fn profiles_under(&mut self, home: std::path::PathBuf, config: std::path::PathBuf) {
        self.profiles = Some(profiles::Homes { home, config });
    }

    /// The memory a conversion of `upload` bytes in one file reserves:
    /// the upload and its document's budget (its answer is made in the
    /// upload's share, and reserves more only past it).
    ///
    /// ```
    /// let c = markport_serve::Config::default();
    /// assert_eq!(c.reserved_for(100 << 20), (300 << 20) + (128 << 20));
    /// ```
    pub fn reserved_for(&self, upload: u64) -> u64 {
        upload.saturating_add(memory::document_budget(upload, 1, self.memory_budget))
    }

    /// Whether the limits hold together: the largest upload's conversion
    /// fits in the memory limit, and no limit is zero.
    ///
    /// ```
    /// let mut c = markport_serve::Config::default();
    /// assert!(c.check().is_ok());
    /// c.max_size = 1 << 30;
    /// assert!(c.check().unwrap_err().contains("--memory-limit"));
    /// ```
    pub fn check(&self) -> Result<(), String> {
        let need = self
            .reserved_for(self.max_size)
            .saturating_add(SERVER_SHARE);
        if need > self.memory_limit {
            return Err(format!(
                "--max-size {} needs --memory-limit {} or more: the upload, its document's \
                 budget (twice the upload plus 128 MiB, or --memory-budget) and {} for the \
                 server itself; lower --max-size or raise --memory-limit",
                memory::size(self.max_size),
                memory::size(need),
                memory::size(SERVER_SHARE)
            ));
        }
        if self.max_conversions == 0 || self.max_connections == 0 {
            return Err("--max-conversions and --max-connections take 1 or more".into());
        }
        Ok(())
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            port: 0,
            max_size: 256 << 20,
            time_limit: Duration::from_secs(60),
            max_conversions: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
            max_connections: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(60),
            send_timeout: Duration::from_secs(30),
            memory_limit: 1 << 30,
            memory_budget: None,
            profiles: None,
        }
    }
}

/// What every request handler shares.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) port: u16,
    pub(crate) token: String,
    pub(crate) page: page::Page,
    pub(crate) conversions: Arc<tokio::sync::Semaphore>,
    pub(crate) connections: Arc<tokio::sync::Semaphore>,
    pub(crate) memory: memory::Pool,
    /// The profiles found, once looked for.
    pub(crate) profiles: tokio::sync::OnceCell<Arc<Vec<markport::profiles::Profile>>>,
}

/// A server bound to loopback, not yet answering.
#[derive(Debug)]
pub struct Server {
    listeners: Vec<TcpListener>,
    port: u16,
    token: String,
    config: Config,
}

impl Server {
    /// Bind `127.0.0.1` and `::1` (where this machine has IPv6) on
    /// `config.port`, and draw the token. No other address is ever bound.
    /// Limits that do not hold together ([`Config::check`]) are an error
    /// of kind [`io::ErrorKind::InvalidInput`].
    pub fn bind(config: Config) -> io::Result<Server> {
        config
            .check()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let v4 = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, config.port)))?;
        let port = v4.local_addr()?.port();
        let mut listeners = vec![v4];
        // The same port on ::1, so `localhost` works whichever address a
        // browser tries first; a machine without IPv6 serves on 127.0.0.1.
        match TcpListener::bind(SocketAddr::from((Ipv6Addr::LOCALHOST, port))) {
            Ok(v6) => listeners.push(v6),
            Err(e) if config.port != 0 && e.kind() == io::ErrorKind::AddrInUse => return Err(e),
            Err(_) => {}
        }
        for l in &listeners {
            l.set_nonblocking(true)?;
        }
        Ok(Server {
            listeners,
            port,
            token: token()?,
            config,
        })
    }

    /// The port both addresses listen on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The addresses listened on (loopback only).
    pub fn addresses(&self) -> Vec<SocketAddr> {
        self.listeners
            .iter()
            .filter_map(|l| l.local_addr().ok())
            .collect()
    }

    /// The token every request must carry (128 random bits, hex).
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The address to open: the page, under the token.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/{}/", self.port, self.token)
    }

    /// Answer requests until the process ends (blocks the calling thread).
    pub fn run(self) -> io::Result<()> {
        // A conversion runs on a blocking thread holding its permit; the
        // pool is the bound plus those finishing past their time limit
        // (they stop at their next check of the deadline).
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(self.config.max_conversions.max(1) * 2)
            .enable_all()
            .build()?;
        let state = Arc::new(State {
            conversions: Arc::new(tokio::sync::Semaphore::new(
                self.config.max_conversions.max(1),
            )),
            connections: Arc::new(tokio::sync::Semaphore::new(
                self.config.max_connections.max(1),
            )),
            memory: memory::Pool::new(self.config.memory_limit),
            config: self.config,
            port: self.port,
            token: self.token,
            page: page::Page::new(),
            profiles: tokio::sync::OnceCell::new(),
        });
        runtime.block_on(async move {
            // The profiles are in the page as served: looked for at once,
            // so the first visit does not wait for the whole search.
            let early = state.clone();
            tokio::spawn(async move {
                let _ = profiles::found(&early).await;
            });
            let app = api::router(state.clone());
            let mut tasks = Vec::new();
            for l in self.listeners {
                let listener = tokio::net::TcpListener::from_std(l)?;
                tasks.push(tokio::spawn(listen::accept(
                    listener,
                    state.clone(),
                    app.clone(),
                )));
            }
            for t in tasks {
                t.await.map_err(io::Error::other)?;
            }
            Ok(())
        })
    }
}

/// 128 bits from the operating system's generator, as 32 hex digits.
fn token() -> io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| io::Error::other(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A size as `--max-size` takes it: a number of bytes with an optional
/// K, M or G (powers of 1024, an optional B after).
///
/// ```
/// assert_eq!(markport_serve::parse_size("256M"), Ok(256 << 20));
/// assert_eq!(markport_serve::parse_size("1024"), Ok(1024));
/// assert!(markport_serve::parse_size("lots").is_err());
/// ```
pub fn parse_size(value: &str) -> Result<u64, String> {
    let upper = value.trim().to_ascii_uppercase();
    let upper = upper.strip_suffix('B').unwrap_or(&upper);
    let (digits, shift) = match upper.chars().last() {
        Some('K') => (&upper[..upper.len() - 1], 10),
        Some('M') => (&upper[..upper.len() - 1], 20),
        Some('G') => (&upper[..upper.len() - 1], 30),
        _ => (upper, 0),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1u64 << shift))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{value:?} is not a size (256M, 1G, a number of bytes)"))
}
