//! What one client can hold of `markport serve`, against the real server
//! started on 127.0.0.1 (a free port): stalled bodies and idle connections
//! are closed within the timeouts the server states, uploads that stall
//! hold no conversion slot, a flood of half-sent requests is not held, the
//! token goes to no other port a browser visits, and two large conversions
//! at once stay under the memory limit. Each test ends the server it
//! started, and waits for it, however the test ends.

#![cfg(feature = "serve")]

mod serving;

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serving::{serve, tool, Serving};

/// Send `request` on a new connection and read the answer to its end.
fn exchange(s: &Serving, request: &[u8]) -> String {
    let mut c = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    c.write_all(request).unwrap();
    let mut raw = Vec::new();
    let _ = c.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw).into_owned()
}

/// A multipart POST of one file to `path` under the token, closing after.
fn upload(s: &Serving, path: &str, name: &str, file: &[u8], to: &str) -> Vec<u8> {
    let b = "markport-limits-boundary";
    let mut body = format!(
        "--{b}\r\nContent-Disposition: form-data; name=\"to\"\r\n\r\n{to}\r\n\
         --{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{b}--\r\n").as_bytes());
    let mut request = format!(
        "POST /{}{path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: application/json\r\n\
         Content-Type: multipart/form-data; boundary={b}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        s.token,
        s.port,
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(&body);
    request
}

fn status(answer: &str) -> u16 {
    answer
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"))
}

/// How long until the server closes `c` (reading whatever it sends), and
/// what it sent; `limit` bounds the wait.
fn closed_after(c: &mut TcpStream, limit: Duration) -> (Duration, String) {
    let start = Instant::now();
    c.set_read_timeout(Some(limit)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match c.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!(
                "still open after {:?} ({e}); got {:?}",
                start.elapsed(),
                String::from_utf8_lossy(&got)
            ),
        }
    }
    (start.elapsed(), String::from_utf8_lossy(&got).into_owned())
}

/// A connection that sends nothing, one idle after an answer, one whose
/// head comes a byte at a time and never ends, and one whose body stalls:
/// each is closed within the timeout stated for it (`--header-timeout 1`,
/// `--body-timeout 2`), the stalled body with a 408 that says which.
#[test]
fn stalled_bodies_and_idle_connections_are_closed_in_the_stated_time() {
    let s = serve(&["--header-timeout", "1", "--body-timeout", "2"]);
    // Room for a loaded machine to schedule the server late.
    let margin = Duration::from_secs(5);
    let mut silent = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    let (t, _) = closed_after(&mut silent, Duration::from_secs(1) + margin);
    assert!(t >= Duration::from_millis(900), "closed at once: {t:?}");

    let mut idle = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        idle,
        "GET /{}/api/version HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        s.token, s.port
    )
    .unwrap();
    let (t, got) = closed_after(&mut idle, Duration::from_secs(1) + margin);
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    assert!(
        t >= Duration::from_millis(900),
        "kept alive, then closed: {t:?}"
    );

    let mut trickle = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    let start = Instant::now();
    let head = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Slow: ", s.port);
    for b in head.bytes().chain(std::iter::repeat(b'a')) {
        // A byte every 100 ms does not move the deadline.
        if trickle.write_all(&[b]).is_err() || start.elapsed() > Duration::from_secs(1) + margin {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let t = start.elapsed();
    assert!(
        t < Duration::from_secs(1) + margin,
        "a head sent a byte at a time is held {t:?}"
    );

    let mut stalled = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stalled,
        "POST /{}/api/convert HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\
         Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n--x\r\n",
        s.token, s.port
    )
    .unwrap();
    let (t, got) = closed_after(&mut stalled, Duration::from_secs(2) + margin);
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(got.contains("--body-timeout"), "{got}");
    assert!(t >= Duration::from_millis(1900), "{t:?}");
}

/// Two authenticated uploads that stall hold no conversion slot (a slot
/// is taken once a body is read), so with two slots another conversion is
/// served at once, not after 30 s of 503s.
#[test]
fn two_stalled_uploads_do_not_keep_another_conversion_waiting() {
    let s = serve(&["--max-conversions", "2"]);
    let mut stalls = Vec::new();
    for _ in 0..2 {
        let mut c = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
        write!(
            c,
            "POST /{}/api/convert HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\
             Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 1000000\r\n\r\n\
             --x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.html\"\r\n\r\n\
             <!DOCTYPE NETSCAPE-Bookmark-file-1>",
            s.token, s.port
        )
        .unwrap();
        stalls.push(c);
    }
    // Both heads are in and their bodies begun before the third comes.
    std::thread::sleep(Duration::from_millis(300));
    let file = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/netscape/firefox.html"),
    )
    .unwrap();
    let start = Instant::now();
    let answer = exchange(&s, &upload(&s, "/api/convert", "f.html", &file, "xbel"));
    assert_eq!(status(&answer), 200, "{answer}");
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(answer.contains("<xbel"));
    drop(stalls);
}

/// A client that asks for a conversion and never reads the answer holds
/// it (and the memory reserved for it) only until `--send-timeout`: under a
/// memory limit with room for one such conversion, the same conversion
/// asked again is served once the first answer is abandoned.
#[test]
fn an_answer_nobody_reads_is_abandoned_after_the_send_timeout() {
    let s = serve(&[
        "--send-timeout",
        "1",
        "--memory-limit",
        "316M",
        "--max-size",
        "10M",
    ]);
    let file = chromium_bookmarks(40_000);
    let request = upload(&s, "/api/convert", "Bookmarks", &file, "xbel");
    let stuck = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    let small: libc::c_int = 4096;
    // SAFETY: setsockopt reads the one int given, for the socket this
    // stream owns and keeps open for the call.
    unsafe {
        libc::setsockopt(
            std::os::fd::AsRawFd::as_raw_fd(&stuck),
            libc::SOL_SOCKET,
            libc::SO_RCVBUF,
            (&small as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
    (&stuck).write_all(&request).unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let answer = exchange(&s, &request);
        if status(&answer) == 200 {
            assert!(answer.contains("Bookmark number 39999"));
            break;
        }
        assert_eq!(status(&answer), 503, "{}", &answer[..answer.len().min(400)]);
        assert!(
            Instant::now() < deadline,
            "the unread answer still holds its memory: {answer}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    drop(stuck);
}

/// `serve ARGS` that must refuse to start: its exit status and what it
/// said (a server that starts after all is killed and waited for).
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("markport"))
        .arg("serve")
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("serve {args:?} started");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Limits that do not hold together are refused before anything is
/// listened on: a `--max-size` whose conversion `--memory-limit` could
/// never hold, a timeout of 0.
#[test]
fn limits_that_do_not_hold_together_are_refused_at_start() {
    let (code, said) = refused(&["--max-size", "1G"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("--max-size 1024 MiB needs --memory-limit"),
        "{said}"
    );
    let (code, said) = refused(&["--header-timeout", "0"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("--header-timeout"), "{said}");
}

/// Raise this process's limit on open descriptors to `want` where the
/// hard limit allows: the most connections it can open.
fn descriptors_up_to(want: u64) -> u64 {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the one struct given,
    // which lives on this stack for both calls.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return 1024;
        }
        if lim.rlim_cur < want {
            lim.rlim_cur = want.min(lim.rlim_max);
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim);
    }
    lim.rlim_cur
}

/// 5,000 connections that each send half a request head and no token:
/// the server holds at most `--max-connections` of them (the others are
/// told 503 and closed at once), so its descriptors and memory stay
/// bounded, closes every one within `--header-timeout` of taking it, and
/// serves a request with the token after.
#[test]
fn five_thousand_half_sent_requests_are_not_held() {
    let s = serve(&["--header-timeout", "2", "--max-connections", "64"]);
    let room = descriptors_up_to(5_300);
    let n = 5_000usize.min(room.saturating_sub(200) as usize);
    assert!(
        n == 5_000 || std::env::var("CI").as_deref() != Ok("true"),
        "CI=true, but only {room} descriptors: {n} connections"
    );
    if n < 5_000 {
        eprintln!("note: {room} descriptors allow {n} connections, not 5,000");
    }
    let version = format!(
        "GET /{}/api/version HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        s.token, s.port
    );
    // Once it has answered, the server's runtime is up: the baseline.
    assert_eq!(status(&exchange(&s, version.as_bytes())), 200);
    let (fds_before, rss_before) = (s.descriptors(), s.status_kb("VmRSS"));
    let head = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Half: ", s.port);
    let start = Instant::now();
    let mut conns = Vec::with_capacity(n);
    let mut most_fds = 0;
    for i in 0..n {
        let mut c = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
        let _ = c.write_all(head.as_bytes());
        conns.push(c);
        if i % 500 == 0 {
            most_fds = most_fds.max(s.descriptors());
        }
    }
    most_fds = most_fds.max(s.descriptors());
    let rss_during = s.status_kb("VmRSS");
    assert!(
        most_fds <= fds_before + 64 + 16,
        "{most_fds} descriptors open (from {fds_before})"
    );
    assert!(
        rss_during < rss_before + 32 * 1024,
        "resident memory {rss_before} kB -> {rss_during} kB"
    );
    // Every connection closed by the server: within the header timeout of
    // its opening, plus the time to open them all and a margin.
    let deadline = start.elapsed() + Duration::from_secs(2 + 5);
    for c in &conns {
        c.set_nonblocking(true).unwrap();
    }
    let mut open: Vec<&TcpStream> = conns.iter().collect();
    let mut buf = [0u8; 512];
    let mut told = 0;
    while !open.is_empty() && start.elapsed() < deadline {
        open.retain(|c| {
            let mut c: &TcpStream = c;
            loop {
                match c.read(&mut buf) {
                    Ok(0) => return false,
                    Ok(n) => {
                        told += usize::from(buf[..n].starts_with(b"HTTP/1.1 503 "));
                        continue;
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => return true,
                    Err(_) => return false,
                }
            }
        });
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        open.is_empty(),
        "{} of {n} still open {:?} after the first",
        open.len(),
        start.elapsed()
    );
    assert!(told > 0, "no connection past the cap was told 503");
    drop(conns);
    let fds_after = s.descriptors();
    assert!(
        fds_after <= fds_before + 2,
        "descriptors given back: {fds_before} before, {fds_after} after"
    );
    let answer = exchange(&s, version.as_bytes());
    assert_eq!(status(&answer), 200, "the server goes on: {answer}");
}

/// A server on another loopback port that answers every request with a
/// small page and keeps each request's head, to look for the token in.
struct Other {
    port: u16,
    heads: Arc<Mutex<Vec<String>>>,
}

fn other_server() -> Other {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let heads = Arc::new(Mutex::new(Vec::new()));
    let kept = heads.clone();
    // The thread ends with the test binary; every connection is answered
    // and closed, or given up after two seconds (a browser's preconnect).
    std::thread::spawn(move || {
        for c in listener.incoming() {
            let Ok(mut c) = c else { continue };
            let kept = kept.clone();
            std::thread::spawn(move || {
                c.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65536 {
                    match c.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                kept.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&head).into_owned());
                let page = "<!DOCTYPE html><title>other</title><p>another server";
                let _ = write!(
                    c,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                    page.len()
                );
            });
        }
    });
    Other { port, heads }
}

/// A person opens the printed address in a real Chromium, then leaves the
/// page for a server on another port of 127.0.0.1 by a link, by the
/// page's own navigation and by typing an address: that server receives
/// no token in any request line or header, no cookie (a cookie of
/// 127.0.0.1 goes to every port, which is why the token is not one) and no
/// referrer (`Referrer-Policy: same-origin`; another port is another
/// origin).
#[test]
fn the_token_goes_to_no_other_port_a_browser_visits() {
    if !tool("python3") || !tool("chromium") {
        return;
    }
    let s = serve(&[]);
    let other = other_server();
    let driver =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/serve_token.py");
    let out = Command::new("python3")
        .arg(&driver)
        .arg(&s.url)
        .arg(format!("http://127.0.0.1:{}/", other.port))
        .output()
        .unwrap();
    let said = serving::said(&out);
    assert_eq!(said["ok"], true, "{said}");
    let heads = other.heads.lock().unwrap().clone();
    for way in ["link", "script", "typed"] {
        assert!(
            heads.iter().any(|h| h.starts_with(&format!("GET /{way} "))),
            "the other server was visited by {way}: {heads:#?}"
        );
    }
    let ours = format!("127.0.0.1:{}", s.port);
    for head in &heads {
        let lower = head.to_ascii_lowercase();
        assert!(!lower.contains(&s.token), "the token reached it: {head}");
        assert!(
            !lower.contains("\r\ncookie:"),
            "a cookie reached it: {head}"
        );
        // Its own pages name themselves (its favicon's request does).
        let referrers = lower.lines().filter(|l| l.starts_with("referer:"));
        for r in referrers {
            assert!(!r.contains(&ours), "our page was named to it: {head}");
        }
    }
}

/// A Chromium `Bookmarks` file of `n` bookmarks in the bookmark bar.
fn chromium_bookmarks(n: usize) -> Vec<u8> {
    let mut s = String::from("{\"checksum\":\"\",\"roots\":{\"bookmark_bar\":{\"children\":[");
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            "{{\"date_added\":\"13300000000000000\",\"guid\":\"{i:08x}-0000-4000-8000-{i:012x}\",\
             \"id\":\"{}\",\"name\":\"Bookmark number {i} about something\",\"type\":\"url\",\
             \"url\":\"https://example{}.org/path/to/page?q={i}\"}}",
            i + 10,
            i % 1000
        ));
    }
    s.push_str(
        "],\"date_added\":\"0\",\"guid\":\"0bc5d13f-2cba-5d74-951f-3f233fe6c908\",\"id\":\"1\",\
         \"name\":\"Bookmarks bar\",\"type\":\"folder\"},\"other\":{\"children\":[],\"id\":\"2\",\
         \"name\":\"Other bookmarks\",\"type\":\"folder\"},\"synced\":{\"children\":[],\"id\":\"3\",\
         \"name\":\"Mobile bookmarks\",\"type\":\"folder\"}},\"version\":1}",
    );
    s.into_bytes()
}

/// Two conversions of a 16 MB upload at once under `--memory-limit 320M`:
/// each reserves its upload plus the command line's budget for its
/// document (twice the upload plus 128 MiB, 176 MiB in all), the two do
/// not fit in the 256 MiB requests share, so one is answered 503 naming
/// the limit while the other runs and converts when tried again; the
/// server's peak (VmHWM) stays under the limit.
#[test]
fn two_large_conversions_at_once_stay_under_the_memory_limit() {
    let s = Arc::new(serve(&["--memory-limit", "320M", "--max-size", "20M"]));
    let file = Arc::new(chromium_bookmarks(80_000));
    assert!(file.len() > 15_000_000, "{}", file.len());
    let limit_kb = 320 * 1024;
    let refused = Arc::new(Mutex::new(Vec::new()));
    let both: Vec<_> = (0..2)
        .map(|i| {
            let (s, file, refused) = (s.clone(), file.clone(), refused.clone());
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(400 * i));
                let deadline = Instant::now() + Duration::from_secs(600);
                loop {
                    let answer =
                        exchange(&s, &upload(&s, "/api/convert", "Bookmarks", &file, "xbel"));
                    if status(&answer) != 503 || Instant::now() > deadline {
                        return answer;
                    }
                    refused.lock().unwrap().push(answer);
                    std::thread::sleep(Duration::from_millis(500));
                }
            })
        })
        .collect();
    for t in both {
        let answer = t.join().unwrap();
        assert_eq!(status(&answer), 200, "{}", &answer[..answer.len().min(600)]);
        assert!(answer.contains("Bookmark number 79999"));
    }
    let refused = refused.lock().unwrap();
    assert!(
        !refused.is_empty(),
        "the two ran at once: the limit held nothing back"
    );
    assert!(
        refused.iter().all(|a| a.contains("--memory-limit")),
        "{refused:?}"
    );
    let peak = s.status_kb("VmHWM");
    assert!(
        peak < limit_kb,
        "the server peaked at {peak} kB, over the limit of {limit_kb} kB"
    );
}
