//! An XBEL file's bytes as text. The byte order mark, else the `<?xml
//! encoding` declaration (XML 1.0 section 4.3.3), else UTF-8 says which
//! encoding they are in, for reading and for checking alike. Reading
//! refuses a file that is not the UTF-8 it is taken for (other encodings'
//! bad bytes are replaced, as encoding_rs does); checking also finds where
//! the mark, the declaration and the bytes disagree, and reads on with
//! every bad byte replaced.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

use markport_markup::charset::first_malformed;
use markport_model::{Error, LineIndex};

use crate::check::Sink;
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

/// What the start of a file says of its encoding.
struct Choice<'a> {
    /// The byte order mark's encoding and length.
    bom: Option<(&'static Encoding, usize)>,
    /// The bytes after the mark.
    body: &'a [u8],
    /// The declared label, the encoding it names if any, and where the
    /// label starts in the file.
    named: Option<(Option<&'static Encoding>, &'a str, usize)>,
    /// The encoding the file is read in.
    enc: &'static Encoding,
}

impl Choice<'_> {
    /// The declared encoding, when the label names one, and where.
    fn declared(&self) -> Option<(&'static Encoding, usize)> {
        self.named.and_then(|(enc, _, at)| enc.map(|e| (e, at)))
    }

    /// Where the body starts in the file.
    fn offset(&self) -> usize {
        self.bom.map_or(0, |(_, n)| n)
    }
}

/// The encoding of `input`: its byte order mark's, else the declared one,
/// else UTF-8. A declaration of UTF-16 without a mark is not believed: the
/// declaration itself was readable as one-byte characters.
fn choose(input: &[u8]) -> Choice<'_> {
    let bom = Encoding::for_bom(input);
    let body = &input[bom.map_or(0, |(_, n)| n)..];
    let named = match bom {
        Some((enc, _)) if enc != UTF_8 => None,
        _ => declared(body).map(|(label, at)| {
            (
                Encoding::for_label(label.trim().as_bytes()),
                label,
                at + (input.len() - body.len()),
            )
        }),
    };
    let declared = named.and_then(|(enc, _, _)| enc);
    let enc = match (bom, declared) {
        (Some((bom_enc, _)), _) => bom_enc,
        (None, Some(decl)) if decl == UTF_16LE || decl == UTF_16BE => UTF_8,
        (None, Some(decl)) => decl,
        (None, None) => UTF_8,
    };
    Choice {
        bom,
        body,
        named,
        enc,
    }
}

/// `input` as text, for reading: an error at the first byte that is not
/// UTF-8 when the file is taken to be UTF-8.
pub(crate) fn decode(input: &[u8]) -> Result<Cow<'_, str>, Error> {
    let c = choose(input);
    if c.enc != UTF_8 {
        return Ok(c.enc.decode_without_bom_handling(c.body).0);
    }
    std::str::from_utf8(c.body).map(Cow::Borrowed).map_err(|e| {
        let loc = LineIndex::new(c.body).locate(e.valid_up_to());
        Error::syntax(
            "the file is not valid UTF-8 and declares no other encoding",
            loc,
        )
    })
}

/// `input` as text, for checking, with every disagreement between
/// declaration, byte order mark and bytes found into `raw` (a sink over
/// the bytes themselves), and the desktop-bookmark spec's UTF-8 when
/// `desktop`. Bytes not in the encoding are replaced.
pub(crate) fn decode_checking<'a>(
    input: &'a [u8],
    desktop: bool,
    raw: &mut Sink<'_>,
) -> Cow<'a, str> {
    let c = choose(input);
    let (bom, body, named, enc) = (c.bom, c.body, c.named, c.enc);
    let declared_enc = c.declared();
    if let Some((None, label, at)) = named {
        raw.at(
            &XBEL_UNKNOWN_ENCODING,
            at,
            format!("encoding {label:?} is not one XML readers know"),
        );
    }
    match (bom, declared_enc) {
        (Some((bom_enc, _)), Some((decl, at))) if decl != bom_enc => raw.at(
            &XBEL_ENCODING_MISMATCH,
            at,
            format!(
                "the byte order mark says {} but the declaration says {}",
                bom_enc.name(),
                decl.name()
            ),
        ),
        (None, Some((decl, _))) if decl == UTF_16LE || decl == UTF_16BE => raw.at(
            &XBEL_ENCODING_MISMATCH,
            0,
            format!(
                "{} is declared but the file has no byte order mark and starts with one-byte characters",
                decl.name()
            ),
        ),
        _ => {}
    }
    let offset = c.offset();
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
