//! The rules every request passes before the routes see it: the Host
//! header, the Origin of a POST, the token, the size announced; and the
//! headers every answer carries.
//!
//! The token is the first segment of the path (`/TOKEN/`, the address
//! printed, under which the page and its API are), or `Authorization:
//! Bearer TOKEN` (a program, under either address). There is no cookie:
//! cookies are kept apart by host, not by port, so a cookie this server set
//! would go with every request the browser makes to any other server on
//! 127.0.0.1, and whoever runs one would have the token. A path goes only to
//! the server it names, and the page's referrer policy sends it to no other
//! origin (another port is another origin).

use axum::body::Body;
use axum::http::uri::PathAndQuery;
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, Response, StatusCode, Uri};

use crate::answer::{error_response, wants_json};
use crate::State;

/// The hosts a request may name: what a browser sends for the address
/// printed, for `localhost` and for `::1`. A rebound name never matches.
fn host_allowed(host: &str, port: u16) -> bool {
    [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ]
    .iter()
    .any(|h| h.eq_ignore_ascii_case(host))
}

/// A browser's Origin for this server (`http://127.0.0.1:PORT`, ...).
fn origin_allowed(origin: &str, port: u16) -> bool {
    origin
        .strip_prefix("http://")
        .is_some_and(|host| host_allowed(host, port))
}

/// Comparison whose time does not depend on where the strings differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn token_in_bearer(headers: &HeaderMap, token: &str) -> bool {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| same_secret(t.trim().as_bytes(), token.as_bytes()))
}

/// Where the token is in a request's path.
enum InPath<'a> {
    /// `/TOKEN/rest`: the rest, from its `/`.
    Under(&'a str),
    /// `/TOKEN` alone: the page is under `/TOKEN/`.
    Bare,
    /// Not there.
    No,
}

/// Whether `path` starts with the token as its first segment (compared
/// in a time that does not depend on where it differs).
fn token_in_path<'a>(path: &'a str, token: &str) -> InPath<'a> {
    let Some(rest) = path.strip_prefix('/') else {
        return InPath::No;
    };
    let (first, after) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    if !same_secret(first.as_bytes(), token.as_bytes()) {
        InPath::No
    } else if after.is_empty() {
        InPath::Bare
    } else {
        InPath::Under(after)
    }
}

/// The rules, in the order that tells the least to whoever is refused:
/// the request to route (the token taken out of its path), or the answer
/// that refuses it.
#[allow(clippy::result_large_err)]
pub(crate) fn decide(
    state: &State,
    request: Request<Body>,
) -> Result<Request<Body>, Response<Body>> {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| host_allowed(h, state.port)) {
        return Err(error_response(
            StatusCode::FORBIDDEN,
            "this server answers only to 127.0.0.1, [::1] or localhost with its port",
        ));
    }
    if request.method() != Method::GET && request.method() != Method::HEAD {
        // A browser names the page that sent a request; another site's
        // form or script is refused before its body is read. A program
        // that sends no Origin still needs the token.
        if let Some(origin) = headers.get(header::ORIGIN) {
            if !origin.to_str().is_ok_and(|o| origin_allowed(o, state.port)) {
                return Err(error_response(
                    StatusCode::FORBIDDEN,
                    "a request from another site",
                ));
            }
        }
        if headers
            .get("sec-fetch-site")
            .is_some_and(|s| s.as_bytes() == b"cross-site")
        {
            return Err(error_response(
                StatusCode::FORBIDDEN,
                "a request from another site",
            ));
        }
    }
    let token = state.token.as_str();
    let request = match token_in_path(request.uri().path(), token) {
        InPath::Under(rest) => {
            let rest = match request.uri().query() {
                Some(q) => format!("{rest}?{q}"),
                None => rest.to_string(),
            };
            let mut request = request;
            *request.uri_mut() =
                Uri::from(PathAndQuery::try_from(rest).expect("a part of a path that parsed"));
            request
        }
        // Relative links in the page need the slash.
        InPath::Bare => {
            let mut r = Response::new(Body::empty());
            *r.status_mut() = StatusCode::PERMANENT_REDIRECT;
            r.headers_mut().insert(
                header::LOCATION,
                HeaderValue::from_str(&format!("/{token}/")).expect("hex digits"),
            );
            return Err(r);
        }
        InPath::No if token_in_bearer(headers, token) => request,
        InPath::No => return Err(unauthorized(state, headers)),
    };
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > state.config.max_size) {
        return Err(too_large(state.config.max_size));
    }
    Ok(request)
}

/// 401: for a person (a browser that opened the bare address, an old
/// bookmark of an earlier run's), a page saying which address to open; for
/// a program that asks for JSON, the error as JSON.
fn unauthorized(state: &State, headers: &HeaderMap) -> Response<Body> {
    let mut r = if wants_json(headers) {
        error_response(
            StatusCode::UNAUTHORIZED,
            "open the address `markport serve` printed (it carries the token), or send Authorization: Bearer TOKEN",
        )
    } else {
        let page = NO_TOKEN.replace("PORT", &state.port.to_string());
        let mut r = Response::new(Body::from(page));
        *r.status_mut() = StatusCode::UNAUTHORIZED;
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        r
    };
    r.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"markport serve\""),
    );
    r
}

/// The page a request without the token gets.
const NO_TOKEN: &str = "<!DOCTYPE html>
<html lang=\"en\">
<head><meta charset=\"utf-8\"><title>markport serve: open the address it printed</title></head>
<body>
<h1>markport serve</h1>
<p>This page needs the secret address <code>markport serve</code> printed when it started, in the terminal where it runs: the whole line, <code>http://127.0.0.1:PORT/</code> followed by a long code and a slash. Copy it into the address bar.</p>
<p>No terminal? Stop the server and start it again with <code>markport serve --open</code>: it opens that address in your browser.</p>
<p>A program sends <code>Authorization: Bearer TOKEN</code> instead.</p>
</body>
</html>
";

/// 413, naming the limit.
pub(crate) fn too_large(max: u64) -> Response<Body> {
    error_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("the request is larger than the limit of {max} bytes (markport serve --max-size)"),
    )
}

/// What every answer carries: the page's policy (a JSON answer loads
/// nothing either), no sniffing, no referrer to another site, nothing
/// cached, no framing. The referrer policy is `same-origin`: the page's
/// address, token and all, goes as `Referer` only with requests to this
/// server (a server on another port is another origin and gets none). Not
/// `no-referrer`: under it Chromium sends `Origin: null` with the page's
/// own form POST, which the Origin rule must refuse (a sandboxed frame of
/// any site sends `null` too).
pub(crate) fn secure_headers(state: &State, h: &mut HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(&state.page.policy).expect("a policy of ASCII"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_origins() {
        assert!(host_allowed("127.0.0.1:8080", 8080));
        assert!(host_allowed("LOCALHOST:8080", 8080));
        assert!(host_allowed("[::1]:8080", 8080));
        assert!(!host_allowed("127.0.0.1:8081", 8080));
        assert!(!host_allowed("127.0.0.1", 8080));
        assert!(!host_allowed("evil.example:8080", 8080));
        assert!(origin_allowed("http://localhost:9", 9));
        assert!(!origin_allowed("https://localhost:9", 9));
        assert!(!origin_allowed("null", 9));
    }

    #[test]
    fn the_token_is_the_first_segment_of_the_path() {
        let t = "0123456789abcdef0123456789abcdef";
        assert!(matches!(
            token_in_path(&format!("/{t}/api/info"), t),
            InPath::Under("/api/info")
        ));
        assert!(matches!(
            token_in_path(&format!("/{t}/"), t),
            InPath::Under("/")
        ));
        assert!(matches!(token_in_path(&format!("/{t}"), t), InPath::Bare));
        assert!(matches!(token_in_path(&format!("/{t}x/"), t), InPath::No));
        assert!(matches!(
            token_in_path(&format!("/api/{t}/"), t),
            InPath::No
        ));
        assert!(matches!(token_in_path("/", t), InPath::No));
        assert!(matches!(token_in_path("", t), InPath::No));
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"abcd", b"abcd"));
        assert!(!same_secret(b"abcd", b"abce"));
        assert!(!same_secret(b"abc", b"abcd"));
    }
}
