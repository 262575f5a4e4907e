//! A server started in this process on 127.0.0.1, and a plain HTTP/1.1
//! client over a socket, so a test can send any header (a foreign Host, a
//! wrong Origin) and see every header of the answer.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use markport_serve::{Config, Server};

/// A running server's port and token.
pub struct Running {
    pub port: u16,
    pub token: String,
}

/// Start a server with `config` on a thread of its own.
pub fn start(config: Config) -> Running {
    let server = Server::bind(config).expect("binds loopback");
    for a in server.addresses() {
        assert!(a.ip().is_loopback(), "listens on {a}");
    }
    let running = Running {
        port: server.port(),
        token: server.token().to_string(),
    };
    std::thread::spawn(move || server.run());
    running
}

/// The default configuration with `f` applied.
pub fn config(f: impl FnOnce(&mut Config)) -> Config {
    let mut c = Config::default();
    f(&mut c);
    c
}

/// An answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {} {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl Running {
    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub fn bearer(&self) -> (String, String) {
        ("Authorization".into(), format!("Bearer {}", self.token))
    }

    /// Send `method path` with `headers` (a Host of the loopback address
    /// unless one is given) and `body`; the answer, read to the end.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        body: &[u8],
    ) -> Answer {
        let mut head = format!("{method} {path} HTTP/1.1\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.host()));
        }
        for (n, v) in headers {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        let chunked = headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("transfer-encoding"));
        let announced = headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-length"));
        if !chunked && !announced && (method == "POST" || !body.is_empty()) {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("Connection: close\r\n\r\n");
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        // The server may answer (413) and close before taking it all.
        let _ = s.write_all(&bytes);
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        parse(&raw)
    }

    /// GET with the token as a Bearer header.
    pub fn get(&self, path: &str) -> Answer {
        self.send("GET", path, &[self.bearer()], b"")
    }

    /// POST a multipart form with the token and `extra` headers.
    pub fn post(
        &self,
        path: &str,
        files: &[(&str, &[u8])],
        fields: &[(&str, &str)],
        extra: &[(&str, &str)],
    ) -> Answer {
        let (ctype, body) = multipart(files, fields);
        let mut headers = vec![self.bearer(), ("Content-Type".to_string(), ctype)];
        headers.extend(extra.iter().map(|(n, v)| (n.to_string(), v.to_string())));
        self.send("POST", path, &headers, &body)
    }
}

fn parse(raw: &[u8]) -> Answer {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no answer head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    if headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"))
    {
        body = unchunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn unchunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = b.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size =
            usize::from_str_radix(std::str::from_utf8(&b[..eol]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[eol + 4 + size..];
    }
}

/// A multipart/form-data body: its Content-Type and bytes.
pub fn multipart(files: &[(&str, &[u8])], fields: &[(&str, &str)]) -> (String, Vec<u8>) {
    let boundary = "markport-test-boundary-7d1f";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                .as_bytes(),
        );
    }
    for (file, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A Netscape bookmark file of `n` bookmarks in folders of 100.
pub fn netscape(n: usize) -> Vec<u8> {
    let mut s = String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n");
    for i in 0..n {
        if i % 100 == 0 {
            if i > 0 {
                s.push_str("</DL><p>\n");
            }
            s.push_str(&format!("<DT><H3>Folder {}</H3>\n<DL><p>\n", i / 100));
        }
        s.push_str(&format!(
            "<DT><A HREF=\"https://example.org/{i}\" ADD_DATE=\"1700000000\" TAGS=\"t{}\">Bookmark {i}</A>\n",
            i % 7
        ));
    }
    if n > 0 {
        s.push_str("</DL><p>\n");
    }
    s.push_str("</DL><p>\n");
    s.into_bytes()
}

/// A corpus file of the project.
pub fn corpus(path: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus")
            .join(path),
    )
    .unwrap()
}
