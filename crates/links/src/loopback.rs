//! A scripted HTTP server on a loopback address, for the tests and the
//! benchmark of the checker (feature `loopback-server`): every case a link
//! check meets, chosen by the request's path, with every request counted.
//! It binds only to 127.0.0.0/8 and never connects anywhere.
//!
//! The paths (segments after the script are the script's own):
//!
//! | path | answer |
//! | --- | --- |
//! | `/ok...` | 200 |
//! | `/code/N` | N (a 3xx without `Location`) |
//! | `/go/N/REST` | N with `Location: /REST` (redirects chain: `/go/301/go/302/ok`) |
//! | `/loop/a`, `/loop/b` | 302 to each other |
//! | `/nohead/REST` | 405 to HEAD, else as `/REST` |
//! | `/slow/MS/REST` | after MS milliseconds, as `/REST` |
//! | `/busy/N/SECS/REST` | the first N requests of this path: 429 with `Retry-After: SECS`; then as `/REST` |
//! | `/down/N/REST` | the first N requests of this path: 503 (no `Retry-After`); then as `/REST` |
//! | `/wall` | 403 with a bot wall's challenge page |
//! | anything else | 404 |
//!
//! Each answer is sent after the server's [`delay`](Server::start_with_delay).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// A running server; it stops when dropped.
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    stop: AtomicBool,
    delay: Duration,
    /// Every request as `METHOD /path`, in the order they came.
    requests: Mutex<Vec<String>>,
    per_path: Mutex<HashMap<String, usize>>,
    in_flight: AtomicUsize,
    most_in_flight: AtomicUsize,
}

impl Server {
    /// A server on `ip` (a loopback address: `127.0.0.1`, `127.0.0.2`...)
    /// at a free port, answering at once.
    ///
    /// # Panics
    /// `ip` is not a loopback address, or nothing can be bound there.
    pub fn start(ip: &str) -> Server {
        Server::start_with_delay(ip, Duration::ZERO)
    }

    /// As [`start`](Self::start), each answer sent after `delay`.
    ///
    /// # Panics
    /// As [`start`](Self::start).
    pub fn start_with_delay(ip: &str, delay: Duration) -> Server {
        Server::bind(ip, 0, delay)
    }

    /// As [`start_with_delay`](Self::start_with_delay) at `port`.
    ///
    /// # Panics
    /// As [`start`](Self::start), and when the port is taken.
    pub fn bind(ip: &str, port: u16, delay: Duration) -> Server {
        let ip: std::net::IpAddr = ip.parse().expect("an IP address");
        assert!(ip.is_loopback(), "the test server binds loopback only");
        let listener = TcpListener::bind((ip, port)).expect("bind a loopback port");
        let addr = listener.local_addr().expect("a bound address");
        let shared = Arc::new(Shared {
            delay,
            ..Shared::default()
        });
        let accept = shared.clone();
        thread::spawn(move || {
            for conn in listener.incoming() {
                if accept.stop.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let shared = accept.clone();
                thread::spawn(move || serve(conn, &shared));
            }
        });
        Server { addr, shared }
    }

    /// `http://IP:PORT` with `path` (which starts with `/`).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every request so far, as `METHOD /path`.
    pub fn requests(&self) -> Vec<String> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// How many requests came so far.
    pub fn count(&self) -> usize {
        self.shared.requests.lock().unwrap().len()
    }

    /// The most requests it was answering at one time.
    pub fn most_in_flight(&self) -> usize {
        self.shared.most_in_flight.load(Ordering::Relaxed)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        // Wake the accepting thread so that it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

/// A loopback port with nothing listening: bound, then let go.
pub fn closed_port(ip: &str) -> u16 {
    let listener = TcpListener::bind((ip, 0)).expect("bind a loopback port");
    listener.local_addr().expect("a bound address").port()
}

fn serve(conn: TcpStream, shared: &Shared) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(&conn);
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() || first.is_empty() {
        return;
    }
    // The rest of the head: nothing in it changes the answer.
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" || line == "\n" => break,
            Ok(_) => {}
        }
    }
    let mut words = first.split_whitespace();
    let method = words.next().unwrap_or("").to_owned();
    let path = words.next().unwrap_or("/").to_owned();
    shared
        .requests
        .lock()
        .unwrap()
        .push(format!("{method} {path}"));
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.most_in_flight.fetch_max(now, Ordering::SeqCst);
    let seen = {
        let mut per = shared.per_path.lock().unwrap();
        let n = per.entry(path.clone()).or_insert(0);
        *n += 1;
        *n
    };
    if !shared.delay.is_zero() {
        thread::sleep(shared.delay);
    }
    let (status, headers, body) = answer(&method, &path, seen);
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    let mut head = format!(
        "HTTP/1.1 {status} {}\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: {}\r\n",
        reason(status),
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut conn = conn;
    let _ = conn.write_all(head.as_bytes());
    if method != "HEAD" {
        let _ = conn.write_all(body.as_bytes());
    }
    let _ = conn.flush();
    let _ = conn.shutdown(Shutdown::Write);
}

type Reply = (u16, Vec<(&'static str, String)>, String);

/// The scripted answer to `method path`, the `seen`th request of the path.
fn answer(method: &str, path: &str, seen: usize) -> Reply {
    let mut rest = path.trim_start_matches('/');
    // Scripts that only wait or count unwrap in a loop, not by recursion.
    loop {
        let mut parts = rest.splitn(2, '/');
        let head = parts.next().unwrap_or("");
        let tail = parts.next().unwrap_or("");
        match head {
            "slow" => {
                let (ms, more) = tail.split_once('/').unwrap_or((tail, "ok"));
                thread::sleep(Duration::from_millis(ms.parse().unwrap_or(0)));
                rest = more;
            }
            "nohead" if method == "HEAD" => {
                return (405, vec![("Allow", "GET".into())], String::new())
            }
            "nohead" => rest = tail,
            "busy" => {
                let mut p = tail.splitn(3, '/');
                let n: usize = p.next().and_then(|v| v.parse().ok()).unwrap_or(0);
                let secs = p.next().unwrap_or("0").to_owned();
                if seen <= n {
                    return (429, vec![("Retry-After", secs)], "slow down".into());
                }
                rest = p.next().unwrap_or("ok");
            }
            "down" => {
                let (n, more) = tail.split_once('/').unwrap_or((tail, "ok"));
                if seen <= n.parse().unwrap_or(0) {
                    return (503, vec![], "down for a moment".into());
                }
                rest = more;
            }
            _ => break,
        }
    }
    let (head, tail) = rest.split_once('/').unwrap_or((rest, ""));
    match head {
        h if h.starts_with("ok") => (200, vec![], "<title>fine</title>".into()),
        "code" => (tail.parse().unwrap_or(500), vec![], String::new()),
        "go" => {
            let (code, to) = tail.split_once('/').unwrap_or((tail, ""));
            (
                code.parse().unwrap_or(302),
                vec![("Location", format!("/{to}"))],
                String::new(),
            )
        }
        "loop" => {
            let to = if tail == "a" { "/loop/b" } else { "/loop/a" };
            (302, vec![("Location", to.into())], String::new())
        }
        "wall" => (
            403,
            vec![],
            "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>checking your browser</body></html>".into(),
        ),
        _ => (404, vec![], "<title>not found</title>".into()),
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        404 => "Not Found",
        429 => "Too Many Requests",
        _ => "Status",
    }
}
