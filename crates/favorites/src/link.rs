//! One link file: a Windows Internet Shortcut (`.url`), a macOS `.webloc`
//! or a freedesktop `.desktop` entry of `Type=Link`, read into a bookmark.

use std::io::Cursor;

use markport_markup::charset;
use markport_model::{Attribute, Bookmark, DateValue, Diagnostic, Error, ErrorKind};
use plist::stream::{Event, Reader};

use crate::filetime;
use crate::ini;

/// The kinds of link file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A Windows Internet Shortcut.
    Url,
    /// A macOS web location (a property list, XML or binary).
    Webloc,
    /// A freedesktop desktop entry of `Type=Link`.
    Desktop,
}

impl Kind {
    /// The kind a file name's extension names (case-insensitive).
    pub fn of_name(name: &str) -> Option<Kind> {
        let (_, ext) = name.rsplit_once('.')?;
        [
            ("url", Kind::Url),
            ("webloc", Kind::Webloc),
            ("desktop", Kind::Desktop),
        ]
        .into_iter()
        .find(|(e, _)| ext.eq_ignore_ascii_case(e))
        .map(|(_, k)| k)
    }

    /// The kind the bytes look like, and how sure that is (0..=100).
    pub fn sniff(bytes: &[u8]) -> Option<(Kind, u8)> {
        let head = &bytes[..bytes.len().min(4096)];
        if head.starts_with(b"bplist00") {
            // A binary property list is a web location only when its
            // top-level dictionary holds a URL (Safari's Bookmarks.plist
            // is a binary plist too).
            return (bytes.len() <= crate::MAX_LINK_FILE && webloc_url(bytes).is_ok())
                .then_some((Kind::Webloc, 80));
        }
        let text = String::from_utf8_lossy(head);
        let text = text.trim_start_matches('\u{feff}');
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with('#'));
        // Windows often writes a [DEFAULT] section first.
        let shortcut = |l: &str| l.trim().eq_ignore_ascii_case("[InternetShortcut]");
        if first.is_some_and(|l| l.starts_with('[')) && text.lines().any(shortcut) {
            return Some((Kind::Url, 90));
        }
        if first == Some("[Desktop Entry]") && text.lines().any(|l| l.trim() == "Type=Link") {
            return Some((Kind::Desktop, 90));
        }
        // UTF-16 with a byte order mark, as Windows writes a shortcut
        // whose link is not in the system's code page.
        if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
            let (dec, _) = encoding_rs_decode_utf16(head);
            if dec
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("[internetshortcut]")
            {
                return Some((Kind::Url, 90));
            }
        }
        if text.starts_with("<?xml")
            || text.starts_with("<!DOCTYPE plist")
            || text.starts_with("<plist")
        {
            let dict_url = text.contains("<key>URL</key>") && !text.contains("WebBookmarkType");
            return (dict_url && bytes.len() <= crate::MAX_LINK_FILE && webloc_url(bytes).is_ok())
                .then_some((Kind::Webloc, 80));
        }
        None
    }
}

/// UTF-16 with its byte order mark, decoded (for sniffing only).
fn encoding_rs_decode_utf16(head: &[u8]) -> (String, bool) {
    match charset::decode(head, None) {
        Ok(d) => (d.text.into_owned(), true),
        Err(_) => (String::new(), false),
    }
}

#[derive(Debug)]
/// A link file read: its bookmark (titled only by a `.desktop` `Name=`)
/// and what was noticed, each located in the file.
pub struct Link {
    /// The bookmark.
    pub bookmark: Bookmark,
    /// What was recovered from.
    pub diagnostics: Vec<Diagnostic>,
}

/// Read one link file of `kind`; `encoding` forces a charset on a `.url`
/// (`--encoding`). An error when it is not a usable link file of that kind.
pub fn read(kind: Kind, bytes: &[u8], encoding: Option<&str>) -> Result<Link, Error> {
    let mut diagnostics = Vec::new();
    let bookmark = read_with(kind, bytes, encoding, &mut diagnostics)?;
    Ok(Link {
        bookmark,
        diagnostics,
    })
}

/// [`read`], with what was noticed put in `diagnostics` whether or not the
/// file is usable (a tree says both where a skipped file went wrong).
pub(crate) fn read_with(
    kind: Kind,
    bytes: &[u8],
    encoding: Option<&str>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Bookmark, Error> {
    let link = match kind {
        Kind::Url => read_url(bytes, encoding, diagnostics),
        Kind::Desktop => read_desktop(bytes, diagnostics),
        Kind::Webloc => read_webloc(bytes, diagnostics),
    }?;
    Ok(link)
}

/// An extra value's name for a key of another section than the main one.
fn sectioned(section: &str, key: &str) -> String {
    format!("[{section}]{key}")
}

fn read_url(
    bytes: &[u8],
    encoding: Option<&str>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Bookmark, Error> {
    // A shortcut is in the system's code page, UTF-8, or UTF-16 with a
    // byte order mark: markup's charset detection tells them apart.
    let decoded = charset::decode(bytes, encoding)?;
    diagnostics.extend(decoded.diagnostics);
    let entries = ini::parse(&decoded.text, diagnostics);
    let mut href: Option<&str> = None;
    let mut b = Bookmark::new("");
    let mut main_seen = false;
    for e in &entries {
        if !e.section.eq_ignore_ascii_case("InternetShortcut") {
            b.details_mut()
                .extra
                .push(Attribute::new(sectioned(e.section, e.key), e.value));
            continue;
        }
        main_seen = true;
        let key = e.key;
        if key.eq_ignore_ascii_case("URL") {
            if href.is_some() {
                diagnostics.push(Diagnostic::warning(
                    "a second URL= in [InternetShortcut]: the first one is the link (as Windows reads it); this one is kept in extra",
                    Some(e.at),
                ));
                b.details_mut().extra.push(Attribute::new(key, e.value));
            } else {
                href = Some(e.value);
            }
        } else if key.eq_ignore_ascii_case("IconFile") && b.details().icon.is_none() {
            b.details_mut().icon = Some(e.value.to_owned());
        } else if key.eq_ignore_ascii_case("Modified") && b.modified.is_none() {
            match filetime::parse(e.value) {
                filetime::Parsed::Date(d, checksum_ok) => {
                    if let DateValue::Raw(_) = d {
                        diagnostics.push(Diagnostic::warning(
                            "Modified= is not a FILETIME (16 or 18 hex digits): kept as written",
                            Some(e.at),
                        ));
                    } else if !checksum_ok {
                        diagnostics.push(Diagnostic::note(
                            "Modified= has a checksum byte that does not match its date; the date is read all the same",
                            Some(e.at),
                        ));
                    }
                    b.modified = Some(d);
                }
                filetime::Parsed::Unset => b.details_mut().extra.push(Attribute::new(key, e.value)),
            }
        } else {
            b.details_mut().extra.push(Attribute::new(key, e.value));
        }
    }
    if !main_seen {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not an Internet Shortcut: no [InternetShortcut] section",
            None,
        ));
    }
    let Some(href) = href else {
        return Err(Error::new(
            ErrorKind::Syntax,
            "an Internet Shortcut without URL=",
            None,
        ));
    };
    b.href = href.to_owned();
    Ok(b)
}

fn read_desktop(bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> Result<Bookmark, Error> {
    // Desktop entries are UTF-8 by the specification.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    if let Err(e) = std::str::from_utf8(bytes) {
        diagnostics.push(Diagnostic::warning(
            "a desktop entry is UTF-8, and this one is not: invalid bytes read as U+FFFD",
            Some(markport_model::LineIndex::new(bytes).locate(e.valid_up_to())),
        ));
    }
    let entries = ini::parse(&text, diagnostics);
    let mut b = Bookmark::new("");
    let mut href = None;
    let mut kind = None;
    let mut main_seen = false;
    for e in &entries {
        if e.section != "Desktop Entry" {
            b.details_mut()
                .extra
                .push(Attribute::new(sectioned(e.section, e.key), e.value));
            continue;
        }
        main_seen = true;
        match e.key {
            "Type" if kind.is_none() => kind = Some(e.value),
            "URL" if href.is_none() => href = Some(e.value),
            "Name" if b.title.is_none() => b.title = Some(unescape(e.value)),
            "Comment" if b.desc.is_none() => b.desc = Some(unescape(e.value)),
            "Icon" if b.details().icon.is_none() => b.details_mut().icon = Some(e.value.into()),
            _ => b.details_mut().extra.push(Attribute::new(e.key, e.value)),
        }
    }
    if !main_seen {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not a desktop entry: no [Desktop Entry] group",
            None,
        ));
    }
    match kind {
        Some("Link") => {}
        Some(other) => {
            return Err(Error::new(
                ErrorKind::WrongFormat,
                format!("a desktop entry of Type={other}, not a link (Type=Link)"),
                None,
            ))
        }
        None => {
            return Err(Error::new(
                ErrorKind::Syntax,
                "a desktop entry without Type=",
                None,
            ))
        }
    }
    let Some(href) = href else {
        return Err(Error::new(
            ErrorKind::Syntax,
            "a desktop entry of Type=Link without URL=",
            None,
        ));
    };
    b.href = href.to_owned();
    Ok(b)
}

/// The escapes of a desktop entry's string values (`\s`, `\n`, `\t`,
/// `\r`, `\\`).
fn unescape(value: &str) -> String {
    if !value.contains('\\') {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push(' '),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn read_webloc(bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> Result<Bookmark, Error> {
    let (href, extra, found) = webloc_url(bytes)?;
    diagnostics.extend(found);
    let mut b = Bookmark::new(href);
    if !extra.is_empty() {
        b.details_mut().extra = extra;
    }
    Ok(b)
}

type Webloc = (String, Vec<Attribute>, Vec<Diagnostic>);

/// The `URL` of a web location's top-level dictionary, its other string
/// members (kept), and a note for each member that is not a string. The
/// events are walked with a depth count: nothing recurses on the input.
fn webloc_url(bytes: &[u8]) -> Result<Webloc, Error> {
    let bad = |m: String| Error::new(ErrorKind::Syntax, m, None);
    let mut depth = 0usize;
    let mut key: Option<String> = None;
    let mut expect_key = true;
    let mut url = None;
    let mut extra = Vec::new();
    let mut diagnostics = Vec::new();
    let mut started = false;
    for event in Reader::new(Cursor::new(bytes)) {
        let event = event.map_err(|e| bad(format!("not a property list: {e}")))?;
        let at_top = depth == 1;
        match event {
            Event::StartDictionary(_) | Event::StartArray(_) => {
                if depth == 0 {
                    if started || !matches!(event, Event::StartDictionary(_)) {
                        return Err(Error::new(
                            ErrorKind::WrongFormat,
                            "a property list whose top is not a dictionary: not a web location",
                            None,
                        ));
                    }
                    started = true;
                } else if at_top && !expect_key {
                    diagnostics.push(Diagnostic::warning(
                        format!(
                            "the member {:?} is not a string: not kept",
                            key.take().unwrap_or_default()
                        ),
                        None,
                    ));
                    expect_key = true;
                }
                depth += 1;
            }
            Event::EndCollection => depth = depth.saturating_sub(1),
            Event::String(s) if at_top && expect_key => {
                key = Some(s.into_owned());
                expect_key = false;
            }
            Event::String(s) if at_top => {
                let k = key.take().unwrap_or_default();
                if k == "URL" && url.is_none() {
                    url = Some(s.into_owned());
                } else {
                    extra.push(Attribute::new(k, s.into_owned()));
                }
                expect_key = true;
            }
            _ if at_top => {
                diagnostics.push(Diagnostic::warning(
                    format!(
                        "the member {:?} is not a string: not kept",
                        key.take().unwrap_or_default()
                    ),
                    None,
                ));
                expect_key = true;
            }
            _ if depth == 0 => {
                return Err(Error::new(
                    ErrorKind::WrongFormat,
                    "a property list whose top is not a dictionary: not a web location",
                    None,
                ))
            }
            _ => {}
        }
    }
    let url = url.ok_or_else(|| {
        Error::new(
            ErrorKind::WrongFormat,
            "a property list without a URL string: not a web location",
            None,
        )
    })?;
    Ok((url, extra, diagnostics))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_internet_shortcut_in_windows_1252_with_crlf() {
        let bytes = b"[DEFAULT]\r\nBASEURL=http://caf\xe9.example/\r\n[InternetShortcut]\r\nURL=http://caf\xe9.example/\r\nIconFile=http://caf\xe9.example/favicon.ico\r\nIconIndex=1\r\nModified=C0A4AC5D2C1FCE0187\r\n";
        let link = read(Kind::Url, bytes, None).unwrap();
        let b = &link.bookmark;
        assert_eq!(b.href, "http://caf\u{e9}.example/");
        assert_eq!(
            b.details().icon.as_deref(),
            Some("http://caf\u{e9}.example/favicon.ico")
        );
        assert!(b.modified.as_ref().unwrap().instant().is_some());
        let extra: Vec<_> = b
            .details()
            .extra
            .iter()
            .map(|a| (a.name.as_str(), a.value.as_str()))
            .collect();
        assert_eq!(
            extra,
            [
                ("[DEFAULT]BASEURL", "http://caf\u{e9}.example/"),
                ("IconIndex", "1")
            ]
        );
        assert!(link
            .diagnostics
            .iter()
            .any(|d| d.message.contains("windows-1252")));
        assert_eq!(Kind::sniff(bytes).map(|k| k.0), Some(Kind::Url));
        assert_eq!(Kind::sniff(b"URL=x\n[InternetShortcut]\n"), None);
    }

    #[test]
    fn an_internet_shortcut_in_utf16_and_one_without_a_link() {
        let text = "[InternetShortcut]\r\nURL=https://例え.jp/\r\n";
        let mut bytes = vec![0xFF, 0xFE];
        for u in text.encode_utf16() {
            bytes.extend(u.to_le_bytes());
        }
        assert_eq!(Kind::sniff(&bytes).map(|k| k.0), Some(Kind::Url));
        assert_eq!(
            read(Kind::Url, &bytes, None).unwrap().bookmark.href,
            "https://例え.jp/"
        );
        let e = read(Kind::Url, b"[InternetShortcut]\r\nIconIndex=0\r\n", None).unwrap_err();
        assert!(e.message.contains("without URL="));
        let e = read(Kind::Url, b"hello", None).unwrap_err();
        assert_eq!(e.kind, ErrorKind::WrongFormat);
    }

    #[test]
    fn a_desktop_link_with_localised_names() {
        let bytes = b"[Desktop Entry]\nType=Link\nName=Rust\\sBook\nName[de]=Rust-Buch\nComment=The book\nURL=https://doc.rust-lang.org/book/\nIcon=text-html\n";
        assert_eq!(Kind::sniff(bytes).map(|k| k.0), Some(Kind::Desktop));
        let b = read(Kind::Desktop, bytes, None).unwrap().bookmark;
        assert_eq!(b.href, "https://doc.rust-lang.org/book/");
        assert_eq!(b.title.as_deref(), Some("Rust Book"));
        assert_eq!(b.desc.as_deref(), Some("The book"));
        assert_eq!(b.details().icon.as_deref(), Some("text-html"));
        assert_eq!(b.details().extra, [Attribute::new("Name[de]", "Rust-Buch")]);
        let app = read(
            Kind::Desktop,
            b"[Desktop Entry]\nType=Application\nExec=x\n",
            None,
        );
        assert!(app.unwrap_err().message.contains("Type=Application"));
    }

    #[test]
    fn a_webloc_in_xml() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>URL</key><string>https://www.apple.com/</string></dict></plist>"#;
        assert_eq!(Kind::sniff(xml).map(|k| k.0), Some(Kind::Webloc));
        let b = read(Kind::Webloc, xml, None).unwrap().bookmark;
        assert_eq!(b.href, "https://www.apple.com/");
        let none =
            br#"<plist version="1.0"><dict><key>Other</key><string>x</string></dict></plist>"#;
        assert_eq!(
            read(Kind::Webloc, none, None).unwrap_err().kind,
            ErrorKind::WrongFormat
        );
        let deep = format!(
            "<plist><dict><key>a</key>{}</dict></plist>",
            "<array>".repeat(100_000)
        );
        assert!(read(Kind::Webloc, deep.as_bytes(), None).is_err());
    }
}
