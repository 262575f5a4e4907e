//! Which charset a bookmark file is in, and its text.
//!
//! Browsers wrote these files in whatever the system used: IE and Netscape 4
//! wrote no declaration at all, Mac browsers declared `x-mac-roman` or iCab's
//! own `X-MAC-SYSTEM`, Japanese exports Shift_JIS. The order is the one that
//! gets each of them right: a byte order mark, then a `<META>` charset before
//! the first bookmark, then UTF-8 when the bytes are valid UTF-8, then the
//! charset `chardetng` (Firefox's detector) guesses, with a warning that names
//! the guess and how sure it is: windows-1252 for the undeclared files of
//! IE's era, Shift_JIS, GBK or EUC-KR for East Asian ones.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};
use markport_model::{Diagnostic, Error, ErrorKind, LineIndex};

/// The decoded text and how its charset was chosen.
pub struct Decoded<'a> {
    /// The text, borrowed when the input was UTF-8 already.
    pub text: Cow<'a, str>,
    /// The charset it was read in.
    pub encoding: &'static Encoding,
    /// How that charset was chosen, when it was not declared plainly.
    pub diagnostics: Vec<Diagnostic>,
}

/// The encoding a charset label names, with the Mac names real files use
/// that the WHATWG list lacks.
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    let label = label.trim();
    if label.eq_ignore_ascii_case("x-mac-system") || label.eq_ignore_ascii_case("mac-roman") {
        return Some(encoding_rs::MACINTOSH);
    }
    let enc = Encoding::for_label(label.as_bytes())?;
    // A META cannot truly declare UTF-16 (the META itself would not be
    // readable); HTML reads such files as UTF-8.
    if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
        return Some(UTF_8);
    }
    Some(enc)
}

/// Decode an HTML file's bytes: byte order mark, then `<META>` charset
/// before the first link, then UTF-8, then the guess; `forced` (a charset
/// label) overrides all of them.
pub fn decode<'a>(input: &'a [u8], forced: Option<&str>) -> Result<Decoded<'a>, Error> {
    let mut diagnostics = Vec::new();
    if let Some(label) = forced {
        let enc = encoding_for_label(label).ok_or_else(|| {
            Error::new(
                ErrorKind::Invalid,
                format!("unknown encoding {label:?} (give a WHATWG label such as utf-8, windows-1252, shift_jis, x-mac-roman)"),
                None,
            )
        })?;
        let (text, had_errors) = enc.decode_with_bom_removal(input);
        return Ok(decoded(text, enc, had_errors, diagnostics));
    }
    if let Some((enc, bom)) = Encoding::for_bom(input) {
        let (text, had_errors) = enc.decode_without_bom_handling(&input[bom..]);
        return Ok(decoded(text, enc, had_errors, diagnostics));
    }
    let utf8 = std::str::from_utf8(input);
    if let Some((label, at)) = meta_charset(input) {
        match encoding_for_label(label) {
            Some(enc) if enc == UTF_8 => {
                if let Err(e) = utf8 {
                    let lines = LineIndex::new(input);
                    diagnostics.push(Diagnostic::warning(
                        "the file declares UTF-8 but holds bytes that are not UTF-8; they were replaced by U+FFFD (give --encoding if it is in another charset)",
                        Some(lines.locate(e.valid_up_to())),
                    ));
                }
                let text = match utf8 {
                    Ok(s) => Cow::Borrowed(s),
                    Err(_) => String::from_utf8_lossy(input),
                };
                return Ok(Decoded {
                    text,
                    encoding: UTF_8,
                    diagnostics,
                });
            }
            Some(enc) => {
                let (text, had_errors) = enc.decode_without_bom_handling(input);
                if matches!(utf8, Ok(s) if !s.is_ascii()) {
                    diagnostics.push(Diagnostic::note(
                        format!(
                            "the file declares {} and was read so, though it is also valid UTF-8; give --encoding utf-8 if the declaration is wrong",
                            enc.name()
                        ),
                        Some(LineIndex::new(input).locate(at)),
                    ));
                }
                return Ok(decoded(text, enc, had_errors, diagnostics));
            }
            None => diagnostics.push(Diagnostic::warning(
                format!("unknown charset {label:?} in <META>; guessing"),
                Some(LineIndex::new(input).locate(at)),
            )),
        }
    }
    match utf8 {
        Ok(s) => Ok(Decoded {
            text: Cow::Borrowed(s),
            encoding: UTF_8,
            diagnostics,
        }),
        Err(e) => {
            let lines = LineIndex::new(input);
            let (encoding, confident) = guess(input);
            diagnostics.push(Diagnostic::warning(
                format!(
                    "no charset is declared and the file is not UTF-8; read as {}, the charset it most looks like ({} confidence; give --encoding if it is another)",
                    encoding.name(),
                    if confident { "high" } else { "low" }
                ),
                Some(lines.locate(e.valid_up_to())),
            ));
            let (text, had_errors) = encoding.decode_without_bom_handling(input);
            Ok(decoded(text, encoding, had_errors, diagnostics))
        }
    }
}

/// The charset undeclared, non-UTF-8 bytes most look like, and whether the
/// detector is confident. UTF-8 is not a candidate: the bytes are not UTF-8.
fn guess(input: &[u8]) -> (&'static Encoding, bool) {
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(input, true);
    detector.guess_assess(None, false)
}

/// The decoded text, with a warning when bytes had to be replaced.
fn decoded<'a>(
    text: Cow<'a, str>,
    encoding: &'static Encoding,
    had_errors: bool,
    mut diagnostics: Vec<Diagnostic>,
) -> Decoded<'a> {
    if had_errors {
        diagnostics.push(Diagnostic::warning(
            format!(
                "bytes that are not valid {} were replaced by U+FFFD",
                encoding.name()
            ),
            None,
        ));
    }
    Decoded {
        text,
        encoding,
        diagnostics,
    }
}

/// The charset label of the first `<META ...charset=X...>` before the first
/// bookmark (`<A`), with its offset.
fn meta_charset(input: &[u8]) -> Option<(&str, usize)> {
    let end = find_tag(input, b"a", 0).unwrap_or(input.len());
    let head = &input[..end];
    let mut from = 0;
    while let Some(start) = find_tag(head, b"meta", from) {
        let close = memchr::memchr(b'>', &head[start..]).map_or(head.len(), |i| start + i);
        let tag = &head[start..close];
        if let Some(i) = find_ci(tag, b"charset") {
            let mut j = i + b"charset".len();
            while j < tag.len() && tag[j].is_ascii_whitespace() {
                j += 1;
            }
            if tag.get(j) == Some(&b'=') {
                j += 1;
                while j < tag.len()
                    && (tag[j].is_ascii_whitespace() || tag[j] == b'"' || tag[j] == b'\'')
                {
                    j += 1;
                }
                let k = tag[j..]
                    .iter()
                    .position(|&b| !(b.is_ascii_alphanumeric() || b"-_.:".contains(&b)))
                    .map_or(tag.len(), |p| j + p);
                if k > j {
                    let label = std::str::from_utf8(&tag[j..k]).ok()?;
                    return Some((label, start));
                }
            }
        }
        from = close;
    }
    None
}

/// The offset of the next `<NAME` (ASCII case-insensitive) followed by a
/// space, `/` or `>`, at or after `from`.
fn find_tag(hay: &[u8], name: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(i) = memchr::memchr(b'<', &hay[at..]) {
        let start = at + i;
        let rest = &hay[start + 1..];
        if rest.len() > name.len()
            && rest[..name.len()].eq_ignore_ascii_case(name)
            && matches!(
                rest[name.len()],
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>'
            )
        {
            return Some(start);
        }
        at = start + 1;
    }
    None
}

fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// The first offset where `input` is not valid in `enc`, if any (the XML
/// and HTML checks of a declared encoding against the bytes).
///
/// ```
/// use markport_markup::charset::first_malformed;
///
/// assert_eq!(first_malformed(encoding_rs::UTF_8, b"ok \xff"), Some(3));
/// assert_eq!(first_malformed(encoding_rs::SHIFT_JIS, b"\x82\xa0"), None);
/// ```
pub fn first_malformed(enc: &'static Encoding, input: &[u8]) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn name(input: &[u8]) -> &'static str {
        decode(input, None).unwrap().encoding.name()
    }

    #[test]
    fn order_is_bom_meta_utf8_then_windows_1252() {
        assert_eq!(
            name(b"\xEF\xBB\xBF<META charset=\"windows-1252\"><A>"),
            "UTF-8"
        );
        assert_eq!(
            name(b"<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=Shift_JIS\">"),
            "Shift_JIS"
        );
        assert_eq!(name(b"<meta charset=x-mac-roman>"), "macintosh");
        assert_eq!(
            name(b"<META CONTENT=\"text/html; CHARSET=X-MAC-SYSTEM\">"),
            "macintosh"
        );
        assert_eq!(name("caf\u{e9}".as_bytes()), "UTF-8");
        assert_eq!(name(b"caf\xE9"), "windows-1252");
    }

    #[test]
    fn a_meta_after_the_first_bookmark_does_not_count() {
        assert_eq!(
            name(b"<A HREF=x>\xE9</A><META charset=shift_jis>"),
            "windows-1252"
        );
    }

    #[test]
    fn undeclared_east_asian_files_are_guessed_and_the_guess_is_said() {
        let titles = "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>ブックマーク</TITLE>\n<DL><p>\n<DT><H3>ニュース</H3>\n<DL><p>\n<DT><A HREF=\"https://www.asahi.com/\">朝日新聞デジタル：朝日新聞社のニュースサイト</A>\n<DT><A HREF=\"https://www3.nhk.or.jp/news/\">ＮＨＫニュース　最新のニュースと天気</A>\n</DL><p>\n</DL><p>\n";
        let chinese = "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>书签</TITLE>\n<DL><p>\n<DT><A HREF=\"https://www.xinhuanet.com/\">新华网_让新闻离你更近，中国最大的新闻网站之一</A>\n<DT><A HREF=\"https://www.people.com.cn/\">人民网，网上的人民日报，权威发布新闻资讯</A>\n</DL><p>\n";
        let korean = "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>북마크</TITLE>\n<DL><p>\n<DT><A HREF=\"https://www.naver.com/\">네이버 메인에서 다양한 정보와 유용한 컨텐츠를 만나 보세요</A>\n<DT><A HREF=\"https://www.hani.co.kr/\">한겨레 신문 뉴스와 오늘의 주요 기사</A>\n</DL><p>\n";
        for (text, enc) in [
            (titles, encoding_rs::SHIFT_JIS),
            (chinese, encoding_rs::GBK),
            (korean, encoding_rs::EUC_KR),
        ] {
            let (bytes, _, unmappable) = enc.encode(text);
            assert!(!unmappable);
            let d = decode(&bytes, None).unwrap();
            assert_eq!(d.encoding, enc, "{}", enc.name());
            assert_eq!(d.text, text, "{}", enc.name());
            let said = &d.diagnostics[0].message;
            assert!(
                said.contains(&format!("read as {}", enc.name())) && said.contains("confidence"),
                "{said}"
            );
        }
    }

    #[test]
    fn decoding_is_right() {
        let d = decode(b"<META charset=x-mac-roman>\x8E", None).unwrap();
        assert!(d.text.ends_with('\u{e9}'));
        let d = decode(b"\x93q\x94", None).unwrap();
        assert_eq!(d.text, "\u{201c}q\u{201d}");
        assert!(!d.diagnostics.is_empty());
        assert!(decode(b"x", Some("no-such")).is_err());
        assert_eq!(decode(b"\xE9", Some("latin1")).unwrap().text, "\u{e9}");
    }
}
