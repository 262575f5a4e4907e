//! An answer's body made as it goes out, a piece at a time: the JSON
//! answer's `output` escaped (or base64-encoded) as it goes, so the output
//! is never held twice; and the request's memory reservation goes with the
//! body, given back once the body is sent or dropped. hyper asks for the
//! next piece only when the one before is nearly written, so an answer
//! a client stops reading keeps its output, and its reservation, until the
//! send timeout drops it. Its length is known before the first byte, so
//! the answer has a `Content-Length`.

use std::pin::Pin;
use std::task::{Context, Poll};

use base64::Engine as _;
use bytes::Bytes;
use http_body::{Frame, SizeHint};

use crate::memory::Held;

/// How much of the output one piece takes (a multiple of 3, so base64
/// pieces join with no padding between them).
const PIECE: usize = 48 << 10;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// The bytes as they are (a download).
    Raw,
    /// The inside of a JSON string (the output is UTF-8).
    Escaped,
    /// Base64 (the output is not UTF-8).
    Base64,
}

/// A body of a head, an output sent piece by piece, and a tail.
pub(crate) struct Streamed {
    head: Option<Bytes>,
    output: Vec<u8>,
    at: usize,
    encoding: Encoding,
    tail: Option<Bytes>,
    len: u64,
    /// Given back when the body is dropped, sent or not.
    _held: Held,
}

impl Streamed {
    /// The output as a download.
    pub(crate) fn file(output: Vec<u8>, held: Held) -> Streamed {
        Streamed::new(Vec::new(), output, Encoding::Raw, Vec::new(), held)
    }

    /// `head`, the output as a JSON string's inside (`text`: it is UTF-8)
    /// or as base64 (it is not), then `tail`.
    pub(crate) fn json(
        head: Vec<u8>,
        output: Vec<u8>,
        text: bool,
        tail: Vec<u8>,
        held: Held,
    ) -> Streamed {
        let encoding = if text {
            Encoding::Escaped
        } else {
            Encoding::Base64
        };
        Streamed::new(head, output, encoding, tail, held)
    }

    fn new(
        head: Vec<u8>,
        output: Vec<u8>,
        encoding: Encoding,
        tail: Vec<u8>,
        held: Held,
    ) -> Streamed {
        let body = match encoding {
            Encoding::Raw => output.len() as u64,
            Encoding::Escaped => output.iter().map(|&b| escaped_len(b)).sum(),
            Encoding::Base64 => (output.len() as u64).div_ceil(3) * 4,
        };
        Streamed {
            len: head.len() as u64 + body + tail.len() as u64,
            head: Some(Bytes::from(head)),
            output,
            at: 0,
            encoding,
            tail: Some(Bytes::from(tail)),
            _held: held,
        }
    }

    /// The next piece of the output, encoded; the output is freed with
    /// its last piece.
    fn next_piece(&mut self) -> Option<Bytes> {
        if self.at >= self.output.len() {
            return None;
        }
        let piece = match self.encoding {
            // Copied a piece at a time too: a piece handed over is written
            // after the body may be gone, and the output must go with the
            // body (and its reservation), not stay behind in a piece.
            Encoding::Raw => {
                let end = (self.at + PIECE).min(self.output.len());
                let piece = self.output[self.at..end].to_vec();
                self.at = end;
                piece
            }
            Encoding::Escaped => {
                let end = (self.at + PIECE).min(self.output.len());
                let mut out = Vec::with_capacity(end - self.at + 64);
                for &b in &self.output[self.at..end] {
                    escape(b, &mut out);
                }
                self.at = end;
                out
            }
            Encoding::Base64 => {
                let end = (self.at + PIECE).min(self.output.len());
                let text =
                    base64::engine::general_purpose::STANDARD.encode(&self.output[self.at..end]);
                self.at = end;
                text.into_bytes()
            }
        };
        if self.at >= self.output.len() {
            self.output = Vec::new();
        }
        Some(Bytes::from(piece))
    }
}

/// The bytes `b` takes inside a JSON string (as serde_json writes it).
fn escaped_len(b: u8) -> u64 {
    match b {
        b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
        0..=0x1f => 6,
        _ => 1,
    }
}

fn escape(b: u8, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match b {
        b'"' => out.extend_from_slice(b"\\\""),
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        0x08 => out.extend_from_slice(b"\\b"),
        0x0c => out.extend_from_slice(b"\\f"),
        0..=0x1f => out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[(b >> 4) as usize],
            HEX[(b & 15) as usize],
        ]),
        _ => out.push(b),
    }
}

impl http_body::Body for Streamed {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        let next = this
            .head
            .take()
            .filter(|h| !h.is_empty())
            .or_else(|| this.next_piece())
            .or_else(|| this.tail.take().filter(|t| !t.is_empty()));
        Poll::Ready(next.map(|b| Ok(Frame::data(b))))
    }

    fn is_end_stream(&self) -> bool {
        self.head.as_ref().is_none_or(Bytes::is_empty)
            && self.at >= self.output.len()
            && self.tail.as_ref().is_none_or(Bytes::is_empty)
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt as _;

    /// `output` sent as a JSON answer's string (`text`: as UTF-8), parsed
    /// back; its length the one announced.
    fn sent(output: &[u8], text: bool) -> serde_json::Value {
        let pool = crate::memory::Pool::new(crate::memory::SERVER_SHARE + (1 << 20));
        let body = Streamed::json(
            b"{\"output\":\"".to_vec(),
            output.to_vec(),
            text,
            b"\"}".to_vec(),
            pool.reserve(),
        );
        let announced = body.len;
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let got = rt.block_on(body.collect()).unwrap().to_bytes();
        assert_eq!(got.len() as u64, announced);
        serde_json::from_slice(&got).unwrap()
    }

    #[test]
    fn a_download_goes_in_pieces_whole() {
        let pool = crate::memory::Pool::new(crate::memory::SERVER_SHARE + (1 << 20));
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 256) as u8).collect();
        let mut body = Streamed::file(bytes.clone(), pool.reserve());
        assert_eq!(body.len, 200_000);
        let mut got = Vec::new();
        while let Some(piece) = body.next_piece() {
            assert!(piece.len() <= PIECE);
            got.extend_from_slice(&piece);
        }
        assert_eq!(got, bytes);
    }

    #[test]
    fn the_json_answer_is_serde_jsons_string_and_its_length_is_exact() {
        let mut text = String::new();
        for i in 0..40_000u32 {
            text.push(
                char::from_u32(i % 0x2000)
                    .filter(|c| *c != '\u{0}')
                    .unwrap_or('é'),
            );
        }
        text.push_str("\"\\\u{1}\u{1f}\n\t\r\u{8}\u{c}€");
        assert_eq!(
            sent(text.as_bytes(), true)["output"].as_str().unwrap(),
            text
        );
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 256) as u8).collect();
        assert!(std::str::from_utf8(&bytes).is_err());
        let v = sent(&bytes, false);
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(v["output"].as_str().unwrap())
            .unwrap();
        assert_eq!(decoded, bytes);
    }
}
