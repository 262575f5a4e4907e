//! Link health for bookmark collections: the engine of `markport links`.
//!
//! Each http(s) link of a collection is asked once, however often it
//! appears ([`collect`]), politely ([`Options`]: at most
//! [`per_host`](Options::per_host) requests at once to one host, a global
//! bound, `Retry-After` honoured, retries spaced by a doubling wait), HEAD
//! first and GET where HEAD is refused or not to be trusted, redirects
//! followed to a limit with loops detected. Each link gets a [`Status`]
//! (`docs/links.md` says what each means). A [`State`] keeps the results
//! between runs: a link found recently is not asked again, and an
//! interrupted run goes on where it stopped.
//!
//! ```no_run
//! use markport_links::{check, collect, Options, State};
//! use markport_model::{Bookmark, Document};
//!
//! let mut doc = Document::new();
//! doc.push(None, Bookmark::new("http://127.0.0.1:8080/"));
//! let links = collect(&doc);
//! let mut state = State::in_memory();
//! let run = check(&links, &Options::default(), &mut state, |_, _| {}).unwrap();
//! println!("{:?}", run.results[0].status);
//! ```

mod collect;
mod duration;
mod engine;
mod hosts;
mod http;
#[cfg(feature = "loopback-server")]
pub mod loopback;
mod state;

pub use collect::{collect, link_key, Collected, Link};
pub use duration::parse_duration;
pub use engine::{check, Run};
pub use state::{Entry, State, StateError};

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// What a link's check found (`docs/links.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A 2xx, also after temporary redirects (302, 303, 307).
    Ok,
    /// Permanent redirects (301, 308) that end in a 2xx: the link has moved.
    Redirected,
    /// 404 or 410.
    Gone,
    /// 401, 403, a 429 that stayed after the retries, a bot-wall page:
    /// the site refuses a program, which says nothing of the link.
    Blocked,
    /// Another 4xx, a 5xx after the retries, a redirect loop, too many
    /// redirects, a link that cannot be requested.
    Broken,
    /// No answer: the name does not resolve, the connection is refused,
    /// TLS fails, or the answer does not come within the timeout.
    Unreachable,
    /// Not an http(s) link (`place:`, `javascript:`, `file:`): never asked.
    Skipped,
    /// Under `--confirm-after`: gone or unreachable once, not yet confirmed
    /// by a second failure at least that long after the first.
    Suspect,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 8] = [
        Status::Ok,
        Status::Redirected,
        Status::Gone,
        Status::Blocked,
        Status::Broken,
        Status::Unreachable,
        Status::Suspect,
        Status::Skipped,
    ];

    /// The status's name, as JSON and the summary write it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Redirected => "redirected",
            Status::Gone => "gone",
            Status::Blocked => "blocked",
            Status::Broken => "broken",
            Status::Unreachable => "unreachable",
            Status::Skipped => "skipped",
            Status::Suspect => "suspect",
        }
    }

    /// Whether it makes the run fail (exit 1): gone, broken, unreachable.
    pub fn fails(self) -> bool {
        matches!(self, Status::Gone | Status::Broken | Status::Unreachable)
    }

    /// Whether the link is dead, as `--tag-dead`, `--move-dead` and
    /// `--remove-dead` take it: gone or unreachable (confirmed, under
    /// `--confirm-after`). Broken is not: a 5xx or a loop is often the
    /// site's passing trouble.
    pub fn dead(self) -> bool {
        matches!(self, Status::Gone | Status::Unreachable)
    }
}

/// `secs` (since 1970, UTC) as RFC 3339, as the JSON output writes
/// `checked_at`: `2026-11-27T13:07:58Z`.
///
/// ```
/// assert_eq!(markport_links::rfc3339(0), "1970-01-01T00:00:00Z");
/// ```
pub fn rfc3339(secs: i64) -> String {
    chrono::DateTime::from_timestamp(secs, 0)
        .unwrap_or_default()
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// The href to write for `href` when its link moved for good to
/// `final_url`: the new link, with `href`'s `#fragment` when the new link
/// has none (a fragment never reaches the server, so redirects keep it).
///
/// ```
/// use markport_links::moved_href;
///
/// assert_eq!(moved_href("http://a.example/x#part", "https://a.example/x"), "https://a.example/x#part");
/// assert_eq!(moved_href("http://a.example/x", "https://a.example/y"), "https://a.example/y");
/// ```
pub fn moved_href(href: &str, final_url: &str) -> String {
    match href.split_once('#') {
        Some((_, fragment)) if !final_url.contains('#') => format!("{final_url}#{fragment}"),
        _ => final_url.to_owned(),
    }
}

/// How to check.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// How long one request may take, connecting included.
    pub timeout: Duration,
    /// Requests at once to one host (default 2).
    pub per_host: usize,
    /// Requests at once in all (default 64).
    pub concurrency: usize,
    /// The `User-Agent` sent.
    pub user_agent: String,
    /// Retries after a 429, a 5xx, a timeout or a dropped connection
    /// (default 2).
    pub retries: u32,
    /// The wait before the first retry when the server names none
    /// (`Retry-After`); doubled for each next one.
    pub backoff: Duration,
    /// The longest `Retry-After` honoured: a server asking for more is
    /// taken at its word that it refuses now (blocked or broken).
    pub max_retry_after: Duration,
    /// Redirects followed before the link is called broken (default 10).
    pub max_redirects: u32,
    /// A link found within this long (in the state) is not asked again
    /// (default 7 days).
    pub recheck_after: Duration,
    /// Call a link gone or unreachable only after a second failure at
    /// least this long after the first; until then it is suspect.
    pub confirm_after: Option<Duration>,
    /// Stop after this many links are checked, as an interruption would
    /// (the state keeps them, unmerged): nothing more is started, and the
    /// checks running then finish and are kept too. For tests of resuming.
    pub stop_after: Option<usize>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            timeout: Duration::from_secs(20),
            per_host: 2,
            concurrency: 64,
            user_agent: concat!(
                "markport/",
                env!("CARGO_PKG_VERSION"),
                " (link check; +https://crates.io/crates/markport-cli)"
            )
            .to_string(),
            retries: 2,
            backoff: Duration::from_secs(1),
            max_retry_after: Duration::from_secs(60),
            max_redirects: 10,
            recheck_after: Duration::from_secs(7 * 24 * 3600),
            confirm_after: None,
            stop_after: None,
        }
    }
}

/// One link's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Checked {
    /// The link as asked (without its `#fragment`).
    pub url: String,
    /// What was found.
    pub status: Status,
    /// The last HTTP status code answered, if any.
    pub code: Option<u16>,
    /// For [`Status::Redirected`]: the link to write back (where the
    /// permanent redirects end); otherwise where redirects ended, if any.
    pub final_url: Option<String>,
    /// Why, in a few words, when the code does not say it all
    /// (`redirect loop`, `connection refused`, `timed out`).
    pub reason: Option<String>,
    /// When it was found (seconds since 1970, UTC).
    pub checked_at: i64,
    /// Whether this run asked (`false`: taken from the state).
    #[serde(skip)]
    pub asked: bool,
}
