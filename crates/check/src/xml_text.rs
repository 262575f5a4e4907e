//! An XML file's bytes as text, and whether they are in the encoding the
//! file says: the `<?xml encoding` declaration (XML 1.0 section 4.3.3) and
//! the byte order mark must agree with each other and with the bytes.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

use crate::problem::Sink;
use crate::rules::{
    DESKTOP_BYTE_ORDER_MARK, DESKTOP_NOT_UTF8, XBEL_ENCODING_MISMATCH, XBEL_ENCODING_SUSPECT,
    XBEL_UNKNOWN_ENCODING,
};

/// The label of the `<?xml ... encoding="..."?>` declaration and where the
/// label starts, if the file starts with a declaration that has one.
fn declared(input: &[u8]) -> Option<(&str, usize)> {
    if !input.starts_with(b"<?xml") {
        return None;
    }
    let head = &input[..input.len().min(512)];
    let end = head.windows(2).position(|w| w == b"?>")?;
    let decl = &head[..end];
    let at = decl.windows(8).position(|w| w == b"encoding")?;
    let mut i = at + 8;
    while decl
        .get(i)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'='))
    {
        i += 1;
    }
    let quote = *decl.get(i)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let start = i + 1;
    let len = decl[start..].iter().position(|&c| c == quote)?;
    Some((std::str::from_utf8(&decl[start..start + len]).ok()?, start))
}

/// The first offset where `input` is not valid in `enc`, if any.
fn first_malformed(enc: &'static Encoding, input: &[u8]) -> Option<usize> {
    if enc == UTF_8 {
        return std::str::from_utf8(input).err().map(|e| e.valid_up_to());
    }
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(4096);
    let mut read = 0;
    loop {
        out.clear();
        let (result, n) =
            decoder.decode_to_string_without_replacement(&input[read..], &mut out, true);
        read += n;
        match result {
            encoding_rs::DecoderResult::InputEmpty => return None,
            encoding_rs::DecoderResult::OutputFull => out.reserve(4096),
            encoding_rs::DecoderResult::Malformed(bad, after) => {
                return Some(read.saturating_sub(bad as usize + after as usize))
            }
        }
    }
}

/// Decode `input` for checking, reporting into `raw` (a sink over the
/// bytes themselves) every disagreement between declaration, byte order
/// mark and bytes. The text is what a reader would most likely see: the
/// byte order mark's encoding, else the declared one, else UTF-8, with
/// malformed bytes replaced.
pub(crate) fn decode<'a>(input: &'a [u8], desktop: bool, raw: &mut Sink<'_>) -> Cow<'a, str> {
    let bom = Encoding::for_bom(input);
    let body = &input[bom.map_or(0, |(_, n)| n)..];
    let declared = match bom {
        Some((enc, _)) if enc != UTF_8 => None,
        _ => declared(body).map(|(label, at)| (label, at + (input.len() - body.len()))),
    };
    let named =
        declared.map(|(label, at)| (Encoding::for_label(label.trim().as_bytes()), label, at));
    if let Some((None, label, at)) = named {
        raw.at(
            &XBEL_UNKNOWN_ENCODING,
            at,
            format!("encoding {label:?} is not one XML readers know"),
        );
    }
    let declared_enc = named.and_then(|(enc, _, at)| enc.map(|e| (e, at)));
    let enc = match (bom, declared_enc) {
        (Some((bom_enc, _)), Some((decl, at))) if decl != bom_enc => {
            raw.at(
                &XBEL_ENCODING_MISMATCH,
                at,
                format!(
                    "the byte order mark says {} but the declaration says {}",
                    bom_enc.name(),
                    decl.name()
                ),
            );
            bom_enc
        }
        (Some((bom_enc, _)), _) => bom_enc,
        (None, Some((decl, _))) if decl == UTF_16LE || decl == UTF_16BE => {
            // The declaration itself was readable as ASCII: the bytes are
            // not UTF-16, whatever it says.
            raw.at(
                &XBEL_ENCODING_MISMATCH,
                0,
                format!(
                    "{} is declared but the file has no byte order mark and starts with one-byte characters",
                    decl.name()
                ),
            );
            UTF_8
        }
        (None, Some((decl, _))) => decl,
        (None, None) => UTF_8,
    };
    let offset = input.len() - body.len();
    if let Some(bad) = first_malformed(enc, body) {
        raw.at(
            &XBEL_ENCODING_MISMATCH,
            offset + bad,
            match declared_enc {
                Some(_) => format!(
                    "the bytes here are not {}, the declared encoding",
                    enc.name()
                ),
                None if bom.is_some() => format!(
                    "the bytes here are not {}, which the byte order mark says",
                    enc.name()
                ),
                None => "the bytes here are not UTF-8, and no other encoding is declared".into(),
            },
        );
    } else if let Some((decl, at)) = declared_enc {
        let single_byte = decl != UTF_8 && decl.is_single_byte();
        if single_byte && std::str::from_utf8(body).is_ok_and(|s| !s.is_ascii()) {
            raw.at(
                &XBEL_ENCODING_SUSPECT,
                at,
                format!(
                    "{} is declared, but every non-ASCII byte sequence is valid UTF-8: the declaration is probably wrong",
                    decl.name()
                ),
            );
        }
    }
    if desktop && bom.is_some_and(|(e, _)| e == UTF_8) {
        raw.at(
            &DESKTOP_BYTE_ORDER_MARK,
            0,
            "a UTF-8 byte order mark: XML allows it, GLib refuses the file (\"Document must begin with an element\")",
        );
    }
    if desktop && (enc != UTF_8 || std::str::from_utf8(body).is_err()) {
        raw.at(
            &DESKTOP_NOT_UTF8,
            0,
            format!(
                "desktop bookmark files are UTF-8 (the spec's File encoding); this one is {}",
                if enc == UTF_8 {
                    "not valid UTF-8".to_string()
                } else {
                    enc.name().to_string()
                }
            ),
        );
    }
    if enc == UTF_8 {
        match std::str::from_utf8(body) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => Cow::Owned(String::from_utf8_lossy(body).into_owned()),
        }
    } else {
        enc.decode_without_bom_handling(body).0
    }
}
