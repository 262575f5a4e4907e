//! The connections: accepted on the loopback listeners up to
//! `max_connections` (one more is answered 503 and closed at once), each
//! served by hyper's HTTP/1.1 under the server's timeouts:
//!
//! - a request's head (its line and headers) must have arrived within
//!   `header_timeout` of the connection being ready for it: its opening,
//!   or the end of the answer before (so the same timeout closes an idle
//!   keep-alive connection); headers are at most 64 KiB;
//! - its body within `body_timeout` of its head (the routes that read
//!   one; a refused request's body is never read, and its connection is
//!   closed);
//! - an answer that makes no progress for `send_timeout` (a client that
//!   stops reading) is abandoned, and its memory given back.
//!
//! Every request passes the guard ([`crate::guard`]) before the routes.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;
use tower_service::Service as _;

use crate::{guard, State};

/// The largest request head taken (hyper's read buffer): a longer one is
/// answered 431.
const MAX_HEAD: usize = 64 << 10;

/// What a connection past the cap is told before it is closed.
const TOO_MANY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n\
Retry-After: 1\r\nConnection: close\r\nContent-Length: 58\r\n\r\n\
too many connections to markport serve at once; try again\n";

/// Accept connections on `listener` for as long as the server runs.
pub(crate) async fn accept(listener: TcpListener, state: Arc<State>, app: Router) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of descriptors, or a connection reset before it was
            // taken: the listener goes on after a pause.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        match state.connections.clone().try_acquire_owned() {
            Ok(permit) => {
                let (state, app) = (state.clone(), app.clone());
                tokio::spawn(async move {
                    connection(stream, state, app).await;
                    drop(permit);
                });
            }
            // Told without waiting (a new socket's send buffer is empty),
            // then closed: nothing is held for it.
            Err(_) => {
                let _ = stream.try_write(TOO_MANY);
            }
        }
    }
}

/// Serve one connection until it closes or a timeout closes it.
async fn connection(stream: TcpStream, state: Arc<State>, app: Router) {
    let _ = stream.set_nodelay(true);
    let header_timeout = state.config.header_timeout;
    let io = TokioIo::new(Stalling::new(stream, state.config.send_timeout));
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let (state, mut app) = (state.clone(), app.clone());
        async move {
            let mut response = match guard::decide(&state, request.map(Body::new)) {
                Ok(request) => match app.call(request).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                },
                Err(refused) => refused,
            };
            guard::secure_headers(&state, response.headers_mut());
            Ok::<_, Infallible>(response)
        }
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_header_size(MAX_HEAD)
        .max_buf_size(MAX_HEAD)
        .keep_alive(true)
        .serve_connection(io, service)
        .await;
}

/// A connection whose writes fail once they have made no progress for
/// `limit`: a client that stops reading its answer does not hold it (and
/// its memory) for ever. Reads are bounded by the header and body
/// timeouts instead.
struct Stalling {
    inner: TcpStream,
    limit: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl Stalling {
    fn new(inner: TcpStream, limit: Duration) -> Stalling {
        Stalling {
            inner,
            limit,
            stalled: None,
        }
    }

    /// `progress` as it is, with the stall timer cleared on progress and
    /// started (or looked at) while there is none.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        progress: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if progress.is_ready() {
            self.stalled = None;
            return progress;
        }
        let limit = self.limit;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing of the answer for the send timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Stalling {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stalling {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let progress = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.watch(cx, progress)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let progress = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.watch(cx, progress)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let progress = Pin::new(&mut this.inner).poll_flush(cx);
        this.watch(cx, progress)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_past_the_cap_is_whole() {
        let text = std::str::from_utf8(TOO_MANY).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 "));
        assert!(head.contains(&format!("\r\nContent-Length: {}", body.len())));
    }
}
