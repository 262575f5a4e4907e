//! The checker: each link asked on its own task, under the per-host and
//! global bounds, its answer classified, recorded in the state as it
//! comes.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use hyper::Method;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use url::Url;

use crate::hosts::Hosts;
use crate::http::{Answer, Client, NoAnswer};
use crate::state::{Entry, State, StateError};
use crate::{Checked, Collected, Options, Status};

/// What [`check`] found.
#[derive(Debug)]
#[non_exhaustive]
pub struct Run {
    /// One result for each link of the collection: the asked ones in the
    /// order they first appear, then the skipped ones. Empty for the links
    /// an interrupted run did not reach.
    pub results: Vec<Checked>,
    /// How many links this run asked (the others came from the state).
    pub asked: usize,
    /// The run stopped before the end ([`Options::stop_after`]): the state
    /// keeps what it found in its journal, and a next run goes on.
    pub interrupted: bool,
}

/// Check `links` as `opts` says, taking what `state` knows and is still
/// fresh, and recording every new result in it as it comes (then writing
/// it whole at the end). `on_done(done, total)` is called after each link.
///
/// # Errors
/// The state cannot be written.
pub fn check(
    links: &Collected,
    opts: &Options,
    state: &mut State,
    mut on_done: impl FnMut(usize, usize),
) -> Result<Run, StateError> {
    let now = now();
    let total = links.links.len();
    let mut results: Vec<Option<Checked>> = vec![None; total];
    let mut to_ask = Vec::new();
    for (i, link) in links.links.iter().enumerate() {
        match state.get(&link.key).filter(|e| fresh(e, opts, now)) {
            Some(e) => results[i] = Some(from_entry(e)),
            None => to_ask.push(i),
        }
    }
    let mut done = total - to_ask.len();
    let mut asked = 0;
    let mut interrupted = false;
    if !to_ask.is_empty() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StateError {
                path: "<runtime>".into(),
                location: None,
                message: e.to_string(),
            })?;
        let ctx = Arc::new(Ctx {
            client: Client::new(&opts.user_agent, opts.timeout),
            hosts: Hosts::new(opts.per_host),
            global: Arc::new(Semaphore::new(opts.concurrency.max(1))),
            opts: opts.clone(),
        });
        let mut queue = Queue::new(links, &to_ask, opts);
        runtime.block_on(async {
            let mut tasks = JoinSet::new();
            let spawn = |tasks: &mut JoinSet<_>, (i, host): (usize, usize)| {
                let ctx = ctx.clone();
                let url = links.links[i].key.clone();
                tasks.spawn(async move { (i, host, check_link(&ctx, &url).await) });
            };
            while let Some(next) = queue.next() {
                spawn(&mut tasks, next);
            }
            while let Some(joined) = tasks.join_next().await {
                let (i, host, mut checked) = joined.expect("a check does not panic");
                queue.finished(host);
                let prev = state.get(&checked.url).cloned();
                let first_failed_at = confirm(&mut checked, prev.as_ref(), opts, now);
                state.record(to_entry(&checked, first_failed_at))?;
                results[i] = Some(checked);
                asked += 1;
                done += 1;
                on_done(done, total);
                // Stopping starts nothing more; what runs is let finish
                // and recorded, so no request is left unaccounted for.
                if opts.stop_after.is_some_and(|n| asked >= n) {
                    interrupted = true;
                }
                while let Some(next) = queue.next().filter(|_| !interrupted) {
                    spawn(&mut tasks, next);
                }
            }
            Ok::<(), StateError>(())
        })?;
    }
    if !interrupted {
        state.save()?;
    }
    let mut results: Vec<Checked> = results.into_iter().flatten().collect();
    results.extend(links.skipped.iter().map(|l| Checked {
        url: l.key.clone(),
        status: Status::Skipped,
        code: None,
        final_url: None,
        reason: Some("not an http(s) link".into()),
        checked_at: now,
        asked: false,
    }));
    Ok(Run {
        results,
        asked,
        interrupted,
    })
}

/// The links still to ask, by host, handed out so that no more tasks
/// exist than may run: at most `per_host` for a host and `concurrency` in
/// all, hosts taking turns. Memory stays that of the running checks, not
/// of every link, and one host's long list does not hold up the others.
/// (The per-host semaphores still bound the hops of redirects, which may
/// lead to another host.)
struct Queue {
    /// Each host's links, in order.
    pending: Vec<VecDeque<usize>>,
    running: Vec<usize>,
    /// Hosts with links pending and a free slot, each at most once.
    ready: VecDeque<usize>,
    listed: Vec<bool>,
    in_flight: usize,
    per_host: usize,
    concurrency: usize,
}

impl Queue {
    fn new(links: &Collected, to_ask: &[usize], opts: &Options) -> Queue {
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut pending: Vec<VecDeque<usize>> = Vec::new();
        for &i in to_ask {
            let key = &links.links[i].key;
            let host = host_of(key);
            let h = *index.entry(host).or_insert_with(|| {
                pending.push(VecDeque::new());
                pending.len() - 1
            });
            pending[h].push_back(i);
        }
        let hosts = pending.len();
        Queue {
            pending,
            running: vec![0; hosts],
            ready: (0..hosts).collect(),
            listed: vec![true; hosts],
            in_flight: 0,
            per_host: opts.per_host.max(1),
            concurrency: opts.concurrency.max(1),
        }
    }

    /// The next link to start, with its host, if one may start now.
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.in_flight >= self.concurrency {
            return None;
        }
        let h = self.ready.pop_front()?;
        self.listed[h] = false;
        let i = self.pending[h].pop_front().expect("a ready host has links");
        self.running[h] += 1;
        self.in_flight += 1;
        self.list(h);
        Some((i, h))
    }

    /// A link of host `h` is done.
    fn finished(&mut self, h: usize) {
        self.running[h] -= 1;
        self.in_flight -= 1;
        self.list(h);
    }

    fn list(&mut self, h: usize) {
        if !self.listed[h] && !self.pending[h].is_empty() && self.running[h] < self.per_host {
            self.listed[h] = true;
            self.ready.push_back(h);
        }
    }
}

/// The host part of a link key (`http://HOST:PORT/...`), as the per-host
/// limit counts it.
fn host_of(key: &str) -> &str {
    let rest = key.split_once("://").map_or(key, |(_, r)| r);
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => authority.split(':').next().unwrap_or(authority),
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Whether a known result need not be asked again: found within
/// `recheck_after`, and, for a suspect, before the confirmation is due.
fn fresh(e: &Entry, opts: &Options, now: i64) -> bool {
    let age = now.saturating_sub(e.checked_at);
    if age < 0 || age as u64 >= opts.recheck_after.as_secs() {
        return false;
    }
    match (e.status, opts.confirm_after, e.first_failed_at) {
        (Status::Suspect, Some(c), Some(first)) => (now.saturating_sub(first) as u64) < c.as_secs(),
        // A suspect without --confirm-after is asked again to be called.
        (Status::Suspect, _, _) => false,
        _ => true,
    }
}

fn from_entry(e: &Entry) -> Checked {
    Checked {
        url: e.url.clone(),
        status: e.status,
        code: e.code,
        final_url: e.final_url.clone(),
        reason: e.reason.clone(),
        checked_at: e.checked_at,
        asked: false,
    }
}

fn to_entry(c: &Checked, first_failed_at: Option<i64>) -> Entry {
    Entry {
        url: c.url.clone(),
        status: c.status,
        code: c.code,
        final_url: c.final_url.clone(),
        reason: c.reason.clone(),
        checked_at: c.checked_at,
        first_failed_at,
    }
}

/// Under `--confirm-after`, a gone or unreachable link stays suspect until
/// a failure comes at least that long after the first one. Returns when
/// the failure was first seen, for the state.
fn confirm(checked: &mut Checked, prev: Option<&Entry>, opts: &Options, now: i64) -> Option<i64> {
    if !checked.status.dead() {
        return None;
    }
    let Some(wait) = opts.confirm_after else {
        return Some(now);
    };
    let first = prev
        .filter(|p| p.status.dead() || p.status == Status::Suspect)
        .and_then(|p| p.first_failed_at);
    match first {
        Some(first) if now.saturating_sub(first) as u64 >= wait.as_secs() => Some(first),
        first => {
            let was = checked.status.name();
            let why = checked.reason.take();
            checked.reason = Some(match why {
                Some(why) => format!("{was} ({why}), not yet confirmed"),
                None => format!("{was}, not yet confirmed"),
            });
            checked.status = Status::Suspect;
            Some(first.unwrap_or(now))
        }
    }
}

/// What every task shares.
struct Ctx {
    client: Client,
    hosts: Hosts,
    global: Arc<Semaphore>,
    opts: Options,
}

impl Ctx {
    /// One request, under the host's and the global bound.
    async fn request(&self, url: &Url, method: Method) -> Result<Answer, NoAnswer> {
        let host = self.hosts.get(url.host_str().unwrap_or(""));
        let _slot = host.slot().await;
        let _global = self
            .global
            .acquire()
            .await
            .expect("the semaphore is never closed");
        self.client.ask(url, method).await
    }

    /// HEAD, then GET where HEAD is refused, not allowed or not to be
    /// trusted (anything but a 2xx, a 3xx or a 429; a dropped connection);
    /// with retries, spaced by `Retry-After` or a doubling wait.
    async fn ask(&self, url: &Url) -> Result<Answer, NoAnswer> {
        let host = self.hosts.get(url.host_str().unwrap_or(""));
        let mut attempt = 0;
        loop {
            let mut answer = if host.skip_head() {
                self.request(url, Method::GET).await
            } else {
                let head = self.request(url, Method::HEAD).await;
                let trusted = match &head {
                    Ok(a) => matches!(a.status, 200..=399 | 429),
                    Err(NoAnswer::Exchange(_)) => false,
                    Err(_) => true,
                };
                if trusted {
                    head
                } else {
                    let get = self.request(url, Method::GET).await;
                    if get.as_ref().is_ok_and(|a| a.status < 400) {
                        host.head_refused.store(true, Ordering::Relaxed);
                    }
                    get
                }
            };
            let retryable = match &answer {
                Ok(a) => a.status == 429 || (500..=599).contains(&a.status) && !a.bot_wall,
                Err(NoAnswer::Timeout | NoAnswer::Exchange(_)) => true,
                Err(_) => false,
            };
            if !retryable || attempt >= self.opts.retries {
                return answer;
            }
            let named = answer.as_ref().ok().and_then(|a| a.retry_after);
            let wait = match named {
                Some(w) if w > self.opts.max_retry_after => return answer,
                Some(w) => {
                    // The host asked for a pause: every link on it waits.
                    host.pause_until(tokio::time::Instant::now() + w);
                    w
                }
                None => self.opts.backoff * 2u32.saturating_pow(attempt),
            };
            if let Ok(a) = &mut answer {
                a.location = None;
            }
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }
}

/// Check one link: follow redirects to the limit, detect loops, classify.
async fn check_link(ctx: &Ctx, link: &str) -> Checked {
    let mut out = Checked {
        url: link.to_owned(),
        status: Status::Broken,
        code: None,
        final_url: None,
        reason: None,
        checked_at: now(),
        asked: true,
    };
    let Ok(mut url) = Url::parse(link) else {
        out.reason = Some("not a valid link".into());
        return out;
    };
    let mut seen: HashSet<String> = HashSet::from([url.to_string()]);
    // Where the leading permanent redirects end: the link has moved there.
    let mut moved_to: Option<Url> = None;
    let mut only_permanent = true;
    let mut hops = 0;
    loop {
        let answer = match ctx.ask(&url).await {
            Ok(a) => a,
            Err(e) => {
                out.status = Status::Unreachable;
                out.reason = Some(e.reason());
                out.final_url = (hops > 0).then(|| url.to_string());
                out.checked_at = now();
                return out;
            }
        };
        out.code = Some(answer.status);
        out.checked_at = now();
        if (300..400).contains(&answer.status) {
            if let Some(location) = &answer.location {
                hops += 1;
                let Ok(mut next) = url.join(location) else {
                    out.reason = Some(format!("redirect to a bad link: {location}"));
                    return out;
                };
                next.set_fragment(None);
                if !matches!(next.scheme(), "http" | "https") {
                    out.reason = Some(format!("redirect to a non-http link: {next}"));
                    return out;
                }
                if hops > ctx.opts.max_redirects {
                    out.reason = Some(format!("more than {} redirects", ctx.opts.max_redirects));
                    out.final_url = Some(next.into());
                    return out;
                }
                if !seen.insert(next.to_string()) {
                    out.reason = Some("redirect loop".into());
                    out.final_url = Some(next.into());
                    return out;
                }
                if only_permanent && matches!(answer.status, 301 | 308) {
                    moved_to = Some(next.clone());
                } else {
                    only_permanent = false;
                }
                url = next;
                continue;
            }
        }
        out.status = classify(&answer);
        if hops > 0 {
            out.final_url = Some(url.to_string());
        }
        if out.status == Status::Ok {
            if let Some(moved) = moved_to {
                out.status = Status::Redirected;
                out.final_url = Some(moved.into());
            }
        }
        if answer.bot_wall {
            out.reason = Some("a bot wall's challenge page".into());
        } else if answer.status == 429 {
            out.reason = Some("too many requests, after the retries".into());
        }
        return out;
    }
}

/// The class of a final (non-redirect) answer.
fn classify(a: &Answer) -> Status {
    if a.bot_wall {
        return Status::Blocked;
    }
    match a.status {
        200..=299 => Status::Ok,
        404 | 410 => Status::Gone,
        401 | 403 | 429 => Status::Blocked,
        _ => Status::Broken,
    }
}

#[cfg(test)]
mod tests {
    use super::host_of;

    #[test]
    fn hosts_are_told_without_port_or_user() {
        assert_eq!(host_of("http://127.0.0.2:8080/a"), "127.0.0.2");
        assert_eq!(host_of("https://u:p@example.org?q"), "example.org");
        assert_eq!(host_of("http://[::1]:80/"), "::1");
    }
}
