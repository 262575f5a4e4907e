//! The memory requests may take, in all: `--memory-limit` less what the
//! server keeps for itself ([`SERVER_SHARE`]), a semaphore of KiB that
//! every request reserves from before it takes the memory. A request's
//! body is reserved as its bytes arrive ([`Charged`]), so an upload that
//! stalls holds only what it sent; once read, its conversion reserves what
//! its document may take ([`document_budget`], the command line's budget,
//! given to the readers as [`markport::ReadOptions::memory_budget`]); the
//! answer is made in the upload's share (the upload is dropped once read)
//! and reserves more as it grows past it ([`Capped`]). What the pool does
//! not have free now is answered 503 with `Retry-After`; what it could
//! never have, 413. Nothing waits for memory: a request that waited would
//! hold its upload meanwhile, and two such could wait on each other.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::Body;
use axum::http::StatusCode;
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::answer::ApiError;

/// What the server keeps for itself out of its memory limit
/// ([`Config::memory_limit`](crate::Config::memory_limit)): the runtime,
/// the page, the connections' buffers (at most 256 connections of 64 KiB
/// each by default) and the profiles found.
pub const SERVER_SHARE: u64 = 64 << 20;

/// A permit is a KiB: a reservation of up to 4 TiB counts in a `u32`.
const KIB: u64 = 1024;

/// Uploads and answers reserve in steps of a MiB, not at every chunk.
const STEP: u64 = 1 << 20;

/// The memory requests share.
pub(crate) struct Pool {
    semaphore: Arc<Semaphore>,
    /// What requests may reserve in all, in bytes.
    size: u64,
    /// `--memory-limit`, for the messages.
    limit: u64,
}

impl Pool {
    /// The pool of a server held to `limit` bytes (more than
    /// [`SERVER_SHARE`]: [`crate::Server::bind`] checks it).
    pub(crate) fn new(limit: u64) -> Pool {
        let size = limit.saturating_sub(SERVER_SHARE);
        let permits = usize::try_from(size / KIB)
            .unwrap_or(usize::MAX)
            .min(Semaphore::MAX_PERMITS);
        Pool {
            semaphore: Arc::new(Semaphore::new(permits)),
            size,
            limit,
        }
    }

    /// A reservation of nothing yet, shared by what a request's parts
    /// take (its body, its document, its answer): given back when the
    /// last of them is dropped.
    pub(crate) fn reserve(&self) -> Held {
        Arc::new(Mutex::new(Reservation {
            semaphore: self.semaphore.clone(),
            size: self.size,
            limit: self.limit,
            permit: None,
            refused: None,
        }))
    }
}

/// Why memory was not reserved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Short {
    /// The pool has not that much free now.
    Now,
    /// The pool is smaller than what was asked.
    Ever,
}

/// A request's reservation: given back when dropped.
pub(crate) struct Reservation {
    semaphore: Arc<Semaphore>,
    size: u64,
    limit: u64,
    permit: Option<OwnedSemaphorePermit>,
    /// The last refusal, and what was asked: read after a body or a
    /// writer failed, to answer it.
    refused: Option<(Short, u64)>,
}

/// A reservation shared by the parts of one request.
pub(crate) type Held = Arc<Mutex<Reservation>>;

/// The reservation, whoever panicked while holding it.
pub(crate) fn lock(held: &Held) -> MutexGuard<'_, Reservation> {
    held.lock().unwrap_or_else(|e| e.into_inner())
}

impl Reservation {
    /// Bytes reserved.
    pub(crate) fn held(&self) -> u64 {
        self.permit
            .as_ref()
            .map_or(0, |p| p.num_permits() as u64 * KIB)
    }

    /// Reserve until `bytes` are held, or say why not (and keep what was
    /// held).
    pub(crate) fn grow_to(&mut self, bytes: u64) -> Result<(), Short> {
        let held = self.held();
        if bytes <= held {
            return Ok(());
        }
        let refuse = |this: &mut Reservation, short| {
            this.refused = Some((short, bytes));
            Err(short)
        };
        if bytes > self.size {
            return refuse(self, Short::Ever);
        }
        let Ok(more) = u32::try_from((bytes - held).div_ceil(KIB)) else {
            return refuse(self, Short::Ever);
        };
        match self.semaphore.clone().try_acquire_many_owned(more) {
            Ok(p) => {
                match &mut self.permit {
                    Some(permit) => permit.merge(p),
                    None => self.permit = Some(p),
                }
                Ok(())
            }
            Err(_) => refuse(self, Short::Now),
        }
    }

    /// The answer to the last refusal, if there was one.
    pub(crate) fn refusal(&self) -> Option<ApiError> {
        self.refused
            .map(|(short, wanted)| refusal(short, wanted, self.limit))
    }
}

/// 503 (try again) or 413 (never with this limit), naming the limit.
pub(crate) fn refusal(short: Short, wanted: u64, limit: u64) -> ApiError {
    match short {
        Short::Now => {
            let mut e = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "busy: this request needs {} of memory, and the server's limit of {} \
                     (markport serve --memory-limit) is taken by the requests running now; try again",
                    size(wanted),
                    size(limit)
                ),
            );
            e.retry = true;
            e
        }
        Short::Ever => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "this request needs {} of memory, more than the server's limit of {} allows \
                 (markport serve --memory-limit; {} of it is the server's own)",
                size(wanted),
                size(limit),
                size(SERVER_SHARE)
            ),
        ),
    }
}

/// Bytes for people, in MiB: what `--memory-limit` takes.
pub(crate) fn size(bytes: u64) -> String {
    let mib = bytes as f64 / (1u64 << 20) as f64;
    if mib >= 10.0 {
        format!("{mib:.0} MiB")
    } else {
        format!("{mib:.1} MiB")
    }
}

/// What the documents of a conversion of `upload` bytes in `inputs`
/// inputs may take, each: the command line's budget for the whole upload
/// (twice its bytes plus [`DEFAULT_ALLOWANCE`], or `given`: serve's
/// `--memory-budget`), shared equally between the inputs, which are all
/// held at once until they are merged.
///
/// [`DEFAULT_ALLOWANCE`]: markport::model::budget::DEFAULT_ALLOWANCE
pub(crate) fn document_budget(upload: u64, inputs: usize, given: Option<u64>) -> u64 {
    let all = given.unwrap_or_else(|| {
        upload
            .saturating_mul(2)
            .saturating_add(markport::model::budget::DEFAULT_ALLOWANCE)
    });
    all / inputs.max(1) as u64
}

/// A request body that reserves its bytes as they arrive: past what the
/// pool has, it ends in an error, and the reservation says why.
pub(crate) struct Charged {
    inner: Body,
    held: Held,
    received: u64,
}

impl Charged {
    pub(crate) fn new(inner: Body, held: Held) -> Charged {
        Charged {
            inner,
            held,
            received: 0,
        }
    }
}

/// The error a [`Charged`] body ends in (the reservation says which).
#[derive(Debug)]
struct OutOfMemory;

impl std::fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the server's memory limit")
    }
}

impl std::error::Error for OutOfMemory {}

impl http_body::Body for Charged {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        let frame = match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(frame) => frame,
            Poll::Pending => return Poll::Pending,
        };
        if let Some(data) = frame.as_ref().and_then(|f| f.as_ref().ok()?.data_ref()) {
            this.received = this.received.saturating_add(data.len() as u64);
            let want = this.received.div_ceil(STEP).saturating_mul(STEP);
            if lock(&this.held).grow_to(want).is_err() {
                return Poll::Ready(Some(Err(axum::Error::new(OutOfMemory))));
            }
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Why a [`Capped`] writer stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The answer needed memory the pool did not give.
    Memory,
    /// The conversion's deadline passed.
    Time,
}

/// An answer made in memory within the request's reservation: what it
/// holds besides the answer (`beside`: the documents' budget) plus the
/// answer, reserved in steps as the answer grows; it also stops at the
/// conversion's deadline, so a writer past the time limit stops too.
pub(crate) struct Capped {
    pub(crate) bytes: Vec<u8>,
    held: Held,
    beside: u64,
    /// Bytes reserved when last looked (no lock at every write).
    ceiling: u64,
    deadline: Instant,
    next_check: usize,
    pub(crate) stopped: Option<Stop>,
}

/// The deadline is looked at every 64 KiB written.
const CHECK_EVERY: usize = 64 << 10;

impl Capped {
    pub(crate) fn new(held: Held, beside: u64, deadline: Instant, capacity: usize) -> Capped {
        let ceiling = lock(&held).held();
        Capped {
            bytes: Vec::with_capacity(capacity),
            held,
            beside,
            ceiling,
            deadline,
            next_check: 0,
            stopped: None,
        }
    }

    /// A writer for what comes after this answer (its report), counting
    /// this one's bytes as held beside it.
    pub(crate) fn then(&self) -> Capped {
        Capped::new(
            self.held.clone(),
            self.beside.saturating_add(self.bytes.len() as u64),
            self.deadline,
            0,
        )
    }

    fn stop(&mut self, why: Stop) -> io::Error {
        self.stopped = Some(why);
        io::Error::other(match why {
            Stop::Memory => "the server's memory limit",
            Stop::Time => "the time limit",
        })
    }
}

impl io::Write for Capped {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let len = self.bytes.len().saturating_add(data.len());
        if len >= self.next_check {
            self.next_check = len.saturating_add(CHECK_EVERY);
            if Instant::now() >= self.deadline {
                return Err(self.stop(Stop::Time));
            }
        }
        let need = self.beside.saturating_add(len as u64);
        if need > self.ceiling {
            let mut r = lock(&self.held);
            let grown = r.grow_to(need.div_ceil(STEP).saturating_mul(STEP));
            self.ceiling = r.held();
            drop(r);
            if grown.is_err() {
                return Err(self.stop(Stop::Memory));
            }
        }
        self.bytes.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Give what the allocator keeps of freed memory back to the system, so
/// the process's size follows what its requests hold (a conversion's
/// document freed on one thread is otherwise kept for that thread's
/// next).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn give_back() {
    // SAFETY: malloc_trim only returns free memory of glibc's heaps to the
    // system; it reads and writes no memory the program holds, and may be
    // called from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn give_back() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reservation_grows_within_the_pool_and_is_given_back() {
        let pool = Pool::new(SERVER_SHARE + (10 << 20));
        let a = pool.reserve();
        lock(&a).grow_to(6 << 20).unwrap();
        let b = pool.reserve();
        assert_eq!(lock(&b).grow_to(6 << 20), Err(Short::Now));
        assert_eq!(lock(&b).refusal().unwrap().status, 503);
        assert_eq!(lock(&b).grow_to(11 << 20), Err(Short::Ever));
        assert_eq!(lock(&b).refusal().unwrap().status, 413);
        drop(a);
        lock(&b).grow_to(10 << 20).unwrap();
        assert_eq!(lock(&b).held(), 10 << 20);
    }

    #[test]
    fn the_documents_share_the_command_lines_budget() {
        let allowance = markport::model::budget::DEFAULT_ALLOWANCE;
        assert_eq!(document_budget(100, 1, None), 200 + allowance);
        assert_eq!(document_budget(100, 2, None), (200 + allowance) / 2);
        assert_eq!(document_budget(100, 1, Some(5000)), 5000);
    }

    #[test]
    fn an_answer_reserves_as_it_grows_and_stops_at_the_limit() {
        use std::io::Write as _;
        let pool = Pool::new(SERVER_SHARE + (4 << 20));
        let held = pool.reserve();
        lock(&held).grow_to(2 << 20).unwrap();
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        let mut out = Capped::new(held.clone(), 1 << 20, far, 0);
        out.write_all(&vec![b'x'; 2 << 20]).unwrap();
        assert_eq!(lock(&held).held(), 3 << 20);
        assert!(out.write_all(&vec![b'x'; 2 << 20]).is_err());
        assert_eq!(out.stopped, Some(Stop::Memory));
        let mut late = Capped::new(held, 0, Instant::now(), 0);
        assert!(late.write_all(b"x").is_err());
        assert_eq!(late.stopped, Some(Stop::Time));
    }
}
