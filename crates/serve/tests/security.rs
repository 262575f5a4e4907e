//! Each rule of `markport serve`'s security, against the running server
//! on 127.0.0.1: every test here fails when its rule is taken out.

mod common;

use std::time::Duration;

use base64::Engine as _;
use common::{config, corpus, netscape, start};
use sha2::{Digest, Sha256};

fn h(n: &str, v: &str) -> (String, String) {
    (n.to_string(), v.to_string())
}

#[test]
fn every_request_needs_the_token() {
    let s = start(config(|_| {}));
    for path in ["/", "/api/version", "/api/formats"] {
        let a = s.send("GET", path, &[], b"");
        assert_eq!(a.status, 401, "{path} without a token: {}", a.text());
        let a = s.send("GET", path, &[h("Authorization", "Bearer 0123")], b"");
        assert_eq!(a.status, 401, "{path} with a wrong token");
        // A cookie is no way in, whatever it carries.
        let a = s.send(
            "GET",
            path,
            &[h("Cookie", &format!("markport-{}={}", s.port, s.token))],
            b"",
        );
        assert_eq!(a.status, 401, "{path} with the token in a cookie");
        let a = s.send("GET", &format!("/{}{path}", "0".repeat(32)), &[], b"");
        assert_eq!(a.status, 401, "{path} under a wrong token");
        let a = s.send("GET", &format!("/{}{path}", &s.token[..31]), &[], b"");
        assert_eq!(a.status, 401, "{path} under a token cut short");
        assert_eq!(s.get(path).status, 200, "{path} with the token");
        let a = s.send("GET", &format!("/{}{path}", s.token), &[], b"");
        assert_eq!(a.status, 200, "{path} under the token");
    }
    let (ctype, body) = common::multipart(
        &[("a.html", &corpus("netscape/firefox.html"))],
        &[("to", "xbel")],
    );
    let a = s.send("POST", "/api/convert", &[h("Content-Type", &ctype)], &body);
    assert_eq!(a.status, 401);
    assert!(!a.text().contains("<xbel"));
    assert!(s.token.len() >= 32, "128 bits in hex");
}

/// A person who opens the bare address (or an old one) is told, in a
/// page, which address to open; a program asking for JSON gets JSON.
#[test]
fn a_request_without_the_token_gets_a_page_saying_which_address_to_open() {
    let s = start(config(|_| {}));
    let a = s.send("GET", "/", &[], b"");
    assert_eq!(a.status, 401);
    assert!(a.header("content-type").unwrap().starts_with("text/html"));
    let page = a.text();
    assert!(
        page.contains(&format!("http://127.0.0.1:{}/", s.port)),
        "{page}"
    );
    assert!(page.contains("markport serve --open"), "{page}");
    assert!(!page.contains(&s.token));
    assert!(a.header("content-security-policy").is_some());
    let a = s.send(
        "GET",
        "/api/version",
        &[h("Accept", "application/json")],
        b"",
    );
    assert_eq!(a.status, 401);
    assert!(a.json()["error"].as_str().unwrap().contains("Bearer"));
}

/// The token is the first segment of the printed address's path: the
/// page and its API are under it, the page's links are relative (so they
/// stay under it), and no answer sets a cookie, which the browser would
/// send to every other server on 127.0.0.1.
#[test]
fn the_address_carries_the_token_in_its_path_and_no_answer_sets_a_cookie() {
    let s = start(config(|_| {}));
    let base = format!("/{}/", s.token);
    let bare = s.send("GET", base.trim_end_matches('/'), &[], b"");
    assert_eq!(bare.status, 308);
    assert_eq!(bare.header("location"), Some(base.as_str()));
    let page = s.send("GET", &base, &[], b"");
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    let html = page.text();
    assert!(html.contains("<form id=\"convert\" method=\"post\" action=\"api/convert\""));
    assert!(
        !html.contains("\"/api/"),
        "every link of the page is relative"
    );
    let file = corpus("netscape/firefox.html");
    let (ctype, body) = common::multipart(&[("f.html", &file)], &[("to", "xbel")]);
    let own = format!("http://127.0.0.1:{}", s.port);
    let a = s.send(
        "POST",
        &format!("{base}api/convert"),
        &[h("Content-Type", &ctype), h("Origin", &own)],
        &body,
    );
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.text().contains("<xbel"));
    let old = s.send("GET", &format!("/?token={}", s.token), &[], b"");
    assert_eq!(old.status, 401, "the token in a query is no way in");
    for a in [&bare, &page, &a, &old] {
        assert!(a.header("set-cookie").is_none(), "{:?}", a.headers);
    }
    assert_eq!(page.header("referrer-policy"), Some("same-origin"));
}

#[test]
fn a_host_other_than_loopback_with_the_port_is_refused() {
    let s = start(config(|_| {}));
    let bearer = s.bearer();
    for host in [
        format!("evil.example:{}", s.port),
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{}", s.port + 1),
        format!("localhost.evil.example:{}", s.port),
    ] {
        let a = s.send(
            "GET",
            "/api/version",
            &[h("Host", &host), bearer.clone()],
            b"",
        );
        assert_eq!(a.status, 403, "Host: {host}");
        let a = s.send("GET", &format!("/{}/", s.token), &[h("Host", &host)], b"");
        assert_eq!(a.status, 403, "Host: {host} gets no page");
    }
    for host in [
        format!("localhost:{}", s.port),
        format!("[::1]:{}", s.port),
        format!("127.0.0.1:{}", s.port),
    ] {
        let a = s.send(
            "GET",
            "/api/version",
            &[h("Host", &host), bearer.clone()],
            b"",
        );
        assert_eq!(a.status, 200, "Host: {host}");
    }
}

#[test]
fn a_post_from_another_origin_is_refused() {
    let s = start(config(|_| {}));
    let file = corpus("netscape/firefox.html");
    let files = [("firefox.html", &file[..])];
    let own = format!("http://127.0.0.1:{}", s.port);
    let a = s.post(
        "/api/convert",
        &files,
        &[("to", "xbel")],
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(a.status, 403, "{}", a.text());
    let a = s.post(
        "/api/convert",
        &files,
        &[("to", "xbel")],
        &[("Origin", "null")],
    );
    assert_eq!(a.status, 403);
    let a = s.post(
        "/api/convert",
        &files,
        &[("to", "xbel")],
        &[("Origin", &own), ("Sec-Fetch-Site", "cross-site")],
    );
    assert_eq!(a.status, 403);
    let a = s.post(
        "/api/convert",
        &files,
        &[("to", "xbel")],
        &[("Origin", &own)],
    );
    assert_eq!(a.status, 200, "{}", a.text());
    // A program sends no Origin: its token is enough.
    let a = s.post("/api/convert", &files, &[("to", "xbel")], &[]);
    assert_eq!(a.status, 200);
}

#[test]
fn a_request_head_over_64_kib_is_431() {
    let s = start(config(|_| {}));
    let a = s.send(
        "GET",
        "/api/version",
        &[s.bearer(), h("X-Big", &"a".repeat(70_000))],
        b"",
    );
    assert_eq!(a.status, 431);
    let a = s.send(
        "GET",
        "/api/version",
        &[s.bearer(), h("X-Big", &"a".repeat(60_000))],
        b"",
    );
    assert_eq!(a.status, 200);
}

#[test]
fn no_answer_carries_a_cors_header() {
    let s = start(config(|_| {}));
    let preflight = s.send(
        "OPTIONS",
        "/api/convert",
        &[
            h("Origin", "http://evil.example"),
            h("Access-Control-Request-Method", "POST"),
            h("Access-Control-Request-Headers", "authorization"),
            s.bearer(),
        ],
        b"",
    );
    assert!(preflight.status >= 400, "{}", preflight.status);
    let get = s.send(
        "GET",
        "/api/version",
        &[h("Origin", "http://evil.example"), s.bearer()],
        b"",
    );
    assert_eq!(get.status, 200);
    for a in [&preflight, &get] {
        for (n, v) in &a.headers {
            assert!(
                !n.to_ascii_lowercase().starts_with("access-control-"),
                "{n}: {v}"
            );
        }
    }
}

#[test]
fn a_request_over_the_size_limit_is_413_and_the_server_goes_on() {
    let s = start(config(|c| c.max_size = 64 << 10));
    // Announced too large: refused before the body is read.
    let a = s.send(
        "POST",
        "/api/convert",
        &[
            s.bearer(),
            h("Content-Type", "multipart/form-data; boundary=x"),
            h("Content-Length", "10000000"),
        ],
        b"",
    );
    assert_eq!(a.status, 413, "{}", a.text());
    // Sent in chunks with no length: cut as it is read.
    let big = netscape(2000);
    assert!(big.len() > 64 << 10);
    let (ctype, body) = common::multipart(&[("big.html", &big)], &[("to", "xbel")]);
    let mut chunked = Vec::new();
    for part in body.chunks(8192) {
        chunked.extend_from_slice(format!("{:x}\r\n", part.len()).as_bytes());
        chunked.extend_from_slice(part);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let a = s.send(
        "POST",
        "/api/convert",
        &[
            s.bearer(),
            h("Content-Type", &ctype),
            h("Transfer-Encoding", "chunked"),
        ],
        &chunked,
    );
    assert_eq!(a.status, 413, "{}", a.text());
    assert!(a.json()["error"].as_str().unwrap().contains("65536"));
    let small = corpus("netscape/firefox.html");
    let a = s.post(
        "/api/convert",
        &[("f.html", &small)],
        &[("to", "xbel")],
        &[],
    );
    assert_eq!(a.status, 200, "the server goes on: {}", a.text());
}

/// A conversion past its time limit is answered 503 and stops, its
/// deadline checked by the pipeline (where the reader keeps each bookmark,
/// and by the writer's buffer), giving back its slot: with one slot, a
/// conversion after the 503 is served long before the first would have
/// ended.
#[test]
fn a_conversion_past_its_time_limit_is_answered_503_and_gives_back_its_slot() {
    let big = netscape(60_000);
    // How long the whole conversion takes in this build on this machine.
    let xbel = markport::To::Format {
        format: markport::format("xbel").unwrap(),
        options: markport::WriteOptions::default(),
    };
    let job = markport::Job::new(vec![markport::Input::from(&big[..])], xbel);
    let started = std::time::Instant::now();
    let mut out = Vec::new();
    markport::run(job, markport::Target::Stream(&mut out)).unwrap();
    let whole = started.elapsed();
    drop(out);
    let s = start(config(|c| {
        c.max_conversions = 1;
        c.time_limit = whole / 10;
    }));
    let a = s.post(
        "/api/convert",
        &[("big.html", &big)],
        &[("to", "xbel")],
        &[],
    );
    assert_eq!(a.status, 503, "{}", a.text());
    assert!(a.json()["error"].as_str().unwrap().contains("time limit"));
    let answered = std::time::Instant::now();
    let small = corpus("netscape/firefox.html");
    loop {
        let a = s.post(
            "/api/convert",
            &[("f.html", &small)],
            &[("to", "xbel")],
            &[],
        );
        if a.status == 200 {
            break;
        }
        assert_eq!(a.status, 503, "{}", a.text());
        assert!(
            answered.elapsed() < whole / 2,
            "the slot is still held {:?} after the 503 (the whole conversion takes {whole:?})",
            answered.elapsed()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn conversions_at_once_are_bounded() {
    let s = std::sync::Arc::new(start(config(|c| {
        c.max_conversions = 1;
        c.time_limit = Duration::from_secs(600);
    })));
    let big = netscape(60_000);
    let slow = {
        let s = s.clone();
        // It may itself find the slot taken by one of the small ones.
        std::thread::spawn(move || loop {
            let a = s.post(
                "/api/convert",
                &[("big.html", &big)],
                &[("to", "xbel")],
                &[],
            );
            if a.status != 503 {
                return a.status;
            }
        })
    };
    let small = corpus("netscape/firefox.html");
    let mut busy = None;
    // The small ones go one at a time: a 503 means the big one held the
    // only slot.
    while !slow.is_finished() {
        let a = s.post(
            "/api/convert",
            &[("f.html", &small)],
            &[("to", "xbel")],
            &[],
        );
        if a.status == 503 {
            busy = Some(a);
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let busy = busy.expect("a second conversion while the first runs is refused");
    assert_eq!(busy.header("retry-after"), Some("1"));
    assert!(busy.json()["error"].as_str().unwrap().starts_with("busy"));
    assert_eq!(slow.join().unwrap(), 200);
    let a = s.post(
        "/api/convert",
        &[("f.html", &small)],
        &[("to", "xbel")],
        &[],
    );
    assert_eq!(a.status, 200, "the slot is given back");
}

/// The text between `open` and the next `close`.
fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let start = text.find(open).unwrap() + open.len();
    let end = text[start..].find(close).unwrap() + start;
    &text[start..end]
}

#[test]
fn the_page_has_a_strict_content_security_policy() {
    let s = start(config(|_| {}));
    let page = s.get("/");
    let policy = page.header("content-security-policy").expect("a policy");
    assert!(policy.contains("default-src 'none'"), "{policy}");
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(policy.contains("form-action 'self'"), "{policy}");
    assert!(!policy.contains("unsafe"), "{policy}");
    let html = page.text();
    assert_eq!(html.matches("<script").count(), 1, "one script");
    assert_eq!(html.matches("<style").count(), 1, "one style");
    let hash = |t: &str| {
        format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(Sha256::digest(t.as_bytes()))
        )
    };
    let script = between(&html, "<script>", "</script>");
    let style = between(&html, "<style>", "</style>");
    assert!(script.len() > 100 && style.len() > 100);
    assert!(
        between(policy, "script-src ", ";").trim() == hash(script),
        "only the page's script runs: {policy}"
    );
    assert!(between(policy, "style-src ", ";").trim() == hash(style));
    // What the policy would block must not be needed: no inline handlers,
    // no style attributes, nothing from elsewhere.
    for attr in [
        " onclick=",
        " onload=",
        " onchange=",
        " style=",
        "src=\"http",
        "href=\"http",
    ] {
        assert!(!html.contains(attr), "the page uses {attr}");
    }
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("referrer-policy"), Some("same-origin"));
}

#[test]
fn the_server_listens_on_loopback_only() {
    let server = markport_serve::Server::bind(markport_serve::Config::default()).unwrap();
    let addresses = server.addresses();
    assert!(!addresses.is_empty());
    for a in addresses {
        assert!(a.ip().is_loopback(), "{a}");
        assert_eq!(a.port(), server.port());
    }
    assert!(server.url().starts_with("http://127.0.0.1:"));
}
