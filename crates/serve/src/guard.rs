//! The rules every request passes before a handler sees it: the Host
//! header, the Origin of a POST, the token, the size announced; and the
//! headers every answer carries.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::State as AxState;
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, Response, StatusCode};
use axum::middleware::Next;

use crate::answer::error_response;
use crate::State;

/// The cookie's name carries the port: cookies are not kept apart by port,
/// and two servers on one machine must not overwrite each other's.
pub(crate) fn cookie_name(port: u16) -> String {
    format!("markport-{port}")
}

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

fn token_in_cookie(headers: &HeaderMap, name: &str, token: &str) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(n, v)| n == name && same_secret(v.as_bytes(), token.as_bytes()))
}

fn token_in_bearer(headers: &HeaderMap, token: &str) -> bool {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| same_secret(t.trim().as_bytes(), token.as_bytes()))
}

/// `?token=` in the query of a request for the page.
fn token_in_query(query: Option<&str>, token: &str) -> bool {
    query.is_some_and(|q| {
        q.split('&')
            .filter_map(|p| p.split_once('='))
            .any(|(n, v)| n == "token" && same_secret(v.as_bytes(), token.as_bytes()))
    })
}

/// The rules, in the order that tells the least to whoever is refused.
pub(crate) async fn check(
    AxState(state): AxState<Arc<State>>,
    request: Request<Body>,
    next: Next,
) -> Response<Body> {
    let mut response = decide(&state, request, next).await;
    secure_headers(&state, response.headers_mut());
    response
}

async fn decide(state: &State, request: Request<Body>, next: Next) -> Response<Body> {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| host_allowed(h, state.port)) {
        return error_response(
            StatusCode::FORBIDDEN,
            "this server answers only to 127.0.0.1, [::1] or localhost with its port",
        );
    }
    if request.method() != Method::GET && request.method() != Method::HEAD {
        // A browser names the page that sent a request; another site's
        // form or script is refused before its body is read. A program
        // that sends no Origin still needs the token.
        if let Some(origin) = headers.get(header::ORIGIN) {
            if !origin.to_str().is_ok_and(|o| origin_allowed(o, state.port)) {
                return error_response(StatusCode::FORBIDDEN, "a request from another site");
            }
        }
        if headers
            .get("sec-fetch-site")
            .is_some_and(|s| s.as_bytes() == b"cross-site")
        {
            return error_response(StatusCode::FORBIDDEN, "a request from another site");
        }
    }
    let name = cookie_name(state.port);
    let token = state.token.as_str();
    if request.method() == Method::GET
        && request.uri().path() == "/"
        && token_in_query(request.uri().query(), token)
    {
        // The token leaves the address bar (and the history) at once: the
        // cookie carries it from now on, never readable by a script and
        // never sent with a request another site starts.
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::SEE_OTHER;
        r.headers_mut()
            .insert(header::LOCATION, HeaderValue::from_static("/"));
        let cookie = format!("{name}={token}; Path=/; HttpOnly; SameSite=Strict");
        r.headers_mut().insert(
            header::SET_COOKIE,
            HeaderValue::from_str(&cookie).expect("a cookie of hex digits"),
        );
        return r;
    }
    if !token_in_cookie(headers, &name, token) && !token_in_bearer(headers, token) {
        return error_response(
            StatusCode::UNAUTHORIZED,
            "open the address `markport serve` printed (it carries the token), or send Authorization: Bearer TOKEN",
        );
    }
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > state.config.max_size) {
        return too_large(state.config.max_size);
    }
    next.run(request).await
}

/// 413, naming the limit.
pub(crate) fn too_large(max: u64) -> Response<Body> {
    error_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("the request is larger than the limit of {max} bytes (markport serve --max-size)"),
    )
}

/// What every answer carries: the page's policy (a JSON answer loads
/// nothing either), no sniffing, no referrer to another site, nothing
/// cached, no framing. The referrer policy is `same-origin`, not
/// `no-referrer`: under `no-referrer` Chromium sends `Origin: null` with
/// the page's own form POST, which the Origin rule must refuse (a
/// sandboxed frame of any site sends `null` too).
fn secure_headers(state: &State, h: &mut HeaderMap) {
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
    fn secrets_compare_whole() {
        assert!(same_secret(b"abcd", b"abcd"));
        assert!(!same_secret(b"abcd", b"abce"));
        assert!(!same_secret(b"abc", b"abcd"));
    }
}
