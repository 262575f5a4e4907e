//! One HTTP request and its answer's head: hyper's client connection over
//! tokio, TLS by rustls (ring) with the Mozilla roots. One connection per
//! request, closed after it: the per-host limit keeps at most a couple
//! open to a host anyway, and a link checker reads no more than a head
//! (and, for a refusal, the first bytes of its page).

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::header::{HeaderMap, ACCEPT, CONNECTION, HOST, LOCATION, RETRY_AFTER, USER_AGENT};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use url::Url;

/// How much of a refusal's page is read to tell a bot wall.
const PAGE_PREFIX: usize = 16 * 1024;

/// The head of an answer.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) location: Option<String>,
    pub(crate) retry_after: Option<Duration>,
    /// The answer is a known bot wall (a challenge page).
    pub(crate) bot_wall: bool,
}

/// Why no answer came.
#[derive(Debug)]
pub(crate) enum NoAnswer {
    /// The name did not resolve.
    Dns(String),
    /// Nothing listens, or the connection could not be made.
    Connect(String),
    /// The TLS handshake failed (a bad certificate included).
    Tls(String),
    /// Nothing within the timeout.
    Timeout,
    /// Connected, then the exchange failed (a dropped connection, a
    /// malformed answer): another method or a retry may fare better.
    Exchange(String),
}

impl NoAnswer {
    pub(crate) fn reason(&self) -> String {
        match self {
            NoAnswer::Dns(e) => format!("name not resolved: {e}"),
            NoAnswer::Connect(e) => e.clone(),
            NoAnswer::Tls(e) => format!("TLS: {e}"),
            NoAnswer::Timeout => "timed out".into(),
            NoAnswer::Exchange(e) => e.clone(),
        }
    }
}

/// What every request shares.
pub(crate) struct Client {
    tls: tokio_rustls::TlsConnector,
    user_agent: String,
    timeout: Duration,
}

impl Client {
    pub(crate) fn new(user_agent: &str, timeout: Duration) -> Client {
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("ring supports the default TLS versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        Client {
            tls: tokio_rustls::TlsConnector::from(Arc::new(config)),
            user_agent: user_agent.to_owned(),
            timeout,
        }
    }

    /// Ask `url` with `method`, within the timeout.
    pub(crate) async fn ask(&self, url: &Url, method: Method) -> Result<Answer, NoAnswer> {
        match tokio::time::timeout(self.timeout, self.exchange(url, method)).await {
            Ok(answer) => answer,
            Err(_) => Err(NoAnswer::Timeout),
        }
    }

    async fn exchange(&self, url: &Url, method: Method) -> Result<Answer, NoAnswer> {
        let host = url
            .host_str()
            .ok_or_else(|| NoAnswer::Connect("no host".into()))?;
        let port = url
            .port_or_known_default()
            .ok_or_else(|| NoAnswer::Connect("no port".into()))?;
        let tcp = connect(url, port).await?;
        let authority = &url[url::Position::BeforeHost..url::Position::AfterPort];
        let target = &url[url::Position::BeforePath..url::Position::AfterQuery];
        let request = Request::builder()
            .method(method.clone())
            .uri(if target.is_empty() { "/" } else { target })
            .header(HOST, authority)
            .header(USER_AGENT, &self.user_agent)
            .header(ACCEPT, "text/html,application/xhtml+xml,*/*;q=0.8")
            .header(CONNECTION, "close")
            .body(Empty::<Bytes>::new())
            .map_err(|e| NoAnswer::Exchange(format!("cannot make the request: {e}")))?;
        if url.scheme() == "https" {
            // A bracketed IPv6 host is named without its brackets.
            let name = host.trim_start_matches('[').trim_end_matches(']');
            let server = rustls::pki_types::ServerName::try_from(name.to_owned())
                .map_err(|e| NoAnswer::Tls(e.to_string()))?;
            let tls = self
                .tls
                .connect(server, tcp)
                .await
                .map_err(|e| NoAnswer::Tls(e.to_string()))?;
            send(tls, request, method).await
        } else {
            send(tcp, request, method).await
        }
    }
}

async fn connect(url: &Url, port: u16) -> Result<TcpStream, NoAnswer> {
    let addrs: Vec<SocketAddr> = match url.host() {
        Some(url::Host::Ipv4(ip)) => vec![SocketAddr::from((ip, port))],
        Some(url::Host::Ipv6(ip)) => vec![SocketAddr::from((ip, port))],
        Some(url::Host::Domain(name)) => tokio::net::lookup_host((name, port))
            .await
            .map_err(|e| NoAnswer::Dns(e.to_string()))?
            .collect(),
        None => return Err(NoAnswer::Connect("no host".into())),
    };
    let mut last: Option<io::Error> = None;
    for addr in addrs {
        match TcpStream::connect(addr).await {
            Ok(s) => return Ok(s),
            Err(e) => last = Some(e),
        }
    }
    Err(match last {
        Some(e) if e.kind() == io::ErrorKind::ConnectionRefused => {
            NoAnswer::Connect("connection refused".into())
        }
        Some(e) => NoAnswer::Connect(format!("cannot connect: {e}")),
        None => NoAnswer::Dns("no address".into()),
    })
}

async fn send<S>(
    stream: S,
    request: Request<Empty<Bytes>>,
    method: Method,
) -> Result<Answer, NoAnswer>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| NoAnswer::Exchange(e.to_string()))?;
    // The connection is driven beside the request and ended with it.
    let driver = tokio::spawn(conn);
    let result = async {
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| NoAnswer::Exchange(e.to_string()))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let mut bot_wall = challenge_header(&headers);
        if !bot_wall && method == Method::GET && matches!(status, 403 | 429 | 503) {
            bot_wall = challenge_page(&page_prefix(response.into_body()).await);
        }
        Ok(Answer {
            status,
            location: headers
                .get(LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
            retry_after: headers
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(retry_after),
            bot_wall,
        })
    }
    .await;
    driver.abort();
    result
}

/// The first bytes of a body, at most [`PAGE_PREFIX`].
async fn page_prefix(mut body: hyper::body::Incoming) -> Vec<u8> {
    let mut page = Vec::new();
    while page.len() < PAGE_PREFIX {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref() {
                    let room = PAGE_PREFIX - page.len();
                    page.extend_from_slice(&data[..data.len().min(room)]);
                }
            }
            _ => break,
        }
    }
    page
}

/// Cloudflare says a challenge in a header of its own.
fn challenge_header(headers: &HeaderMap) -> bool {
    headers
        .get("cf-mitigated")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"challenge"))
}

/// The marks of the challenge pages of the common bot walls (Cloudflare,
/// DDoS-Guard, Imperva/Incapsula, PerimeterX, DataDome, AWS WAF).
const BOT_WALLS: &[&str] = &[
    "<title>just a moment...</title>",
    "cf-browser-verification",
    "/cdn-cgi/challenge-platform/",
    "<title>attention required! | cloudflare</title>",
    "<title>ddos-guard</title>",
    "_incapsula_resource",
    "px-captcha",
    "captcha-delivery.com",
    "awswafintegration",
];

fn challenge_page(page: &[u8]) -> bool {
    let text = String::from_utf8_lossy(page).to_ascii_lowercase();
    BOT_WALLS.iter().any(|mark| text.contains(mark))
}

/// `Retry-After`: seconds, or an HTTP date (RFC 9110, 10.2.3).
fn retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let wait = when.timestamp() - chrono::Utc::now().timestamp();
    Some(Duration::from_secs(wait.max(0) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_takes_seconds_and_dates() {
        assert_eq!(retry_after(" 3 "), Some(Duration::from_secs(3)));
        assert_eq!(
            retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon"), None);
    }

    #[test]
    fn challenge_pages_are_told() {
        assert!(challenge_page(
            b"<!DOCTYPE html><html><head><title>Just a moment...</title>"
        ));
        assert!(!challenge_page(b"<title>Forbidden</title>"));
    }
}
