//! Politeness: what the checker knows of each host, shared by every link
//! on it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// One host: its share of requests, when it may be asked again, and
/// whether it answers HEAD honestly.
pub(crate) struct Host {
    slots: Arc<Semaphore>,
    /// Set by a `Retry-After`: no request to the host before then, from
    /// any link, so one 429 slows the whole host rather than one link.
    not_before: Mutex<Option<Instant>>,
    /// HEAD was refused or untrustworthy once: the host's other links go
    /// straight to GET.
    pub(crate) head_refused: AtomicBool,
}

impl Host {
    /// Wait for a slot and for any pause the host asked for. Slots are
    /// given in the order asked (tokio's semaphore is fair).
    pub(crate) async fn slot(&self) -> OwnedSemaphorePermit {
        let permit = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        loop {
            let until = *self.not_before.lock().unwrap_or_else(|e| e.into_inner());
            match until {
                Some(t) if t > Instant::now() => tokio::time::sleep_until(t).await,
                _ => return permit,
            }
        }
    }

    /// Ask every next request to wait until `until`.
    pub(crate) fn pause_until(&self, until: Instant) {
        let mut at = self.not_before.lock().unwrap_or_else(|e| e.into_inner());
        if at.is_none_or(|t| t < until) {
            *at = Some(until);
        }
    }

    /// Whether HEAD is known not to serve on this host.
    pub(crate) fn skip_head(&self) -> bool {
        self.head_refused.load(Ordering::Relaxed)
    }
}

/// The hosts met so far.
pub(crate) struct Hosts {
    per_host: usize,
    known: Mutex<HashMap<String, Arc<Host>>>,
}

impl Hosts {
    pub(crate) fn new(per_host: usize) -> Hosts {
        Hosts {
            per_host: per_host.max(1),
            known: Mutex::new(HashMap::new()),
        }
    }

    /// The host named `name` (a lowercased host name or address; ports of
    /// one host share its limit).
    pub(crate) fn get(&self, name: &str) -> Arc<Host> {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known
            .entry(name.to_owned())
            .or_insert_with(|| {
                Arc::new(Host {
                    slots: Arc::new(Semaphore::new(self.per_host)),
                    not_before: Mutex::new(None),
                    head_refused: AtomicBool::new(false),
                })
            })
            .clone()
    }
}
