//! A streaming HTML tokenizer.
//!
//! It follows HTML5's tokenization rules for what bookmark files and pages
//! contain (tags, attributes in any quoting, comments, DOCTYPEs, raw-text
//! elements) and gives what a general tokenizer does not: the byte offset of
//! every token, so diagnostics carry line and column and a reader can take a
//! span as the source text it is. Searching uses `memchr`, so a
//! multi-megabyte attribute value costs one pass, and a tag with a hundred
//! thousand attributes is read in linear time (a reader that checks for
//! duplicate names should do it with a set once there are many).
//!
//! ```
//! use markport_markup::html::{Scanner, Token};
//!
//! let src = r#"<a href="https://example.org/" class=x>Example</a>"#;
//! let mut scan = Scanner::new(src);
//! let mut attrs = Vec::new();
//! let Some(Token::Start { name, .. }) = scan.next(&mut attrs) else { panic!() };
//! assert_eq!(name, "a");
//! assert_eq!((attrs[0].name, attrs[0].value), ("href", "https://example.org/"));
//! let Some(Token::Text { start, end }) = scan.next(&mut attrs) else { panic!() };
//! assert_eq!(&src[start..end], "Example");
//! ```

/// An attribute as written: name and raw (undecoded) value.
#[derive(Clone, Copy, Debug)]
pub struct RawAttr<'a> {
    /// The name as written.
    pub name: &'a str,
    /// The value as written, undecoded; empty when the attribute has none.
    pub value: &'a str,
    /// Where the attribute's name starts.
    pub at: usize,
}

/// One token, with the byte span it came from. Names are as written: compare
/// them with `eq_ignore_ascii_case`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// A start tag; its attributes are in the vector given to [`Scanner::next`].
    Start {
        /// The tag name as written.
        name: &'a str,
        /// Where the `<` is.
        start: usize,
        /// Just past the `>`.
        end: usize,
    },
    /// An end tag.
    End {
        /// The tag name as written.
        name: &'a str,
        /// Where the `<` is.
        start: usize,
        /// Just past the `>`.
        end: usize,
    },
    /// Text between tags, undecoded (see [`crate::entities::decode`]).
    Text {
        /// Where the text starts.
        start: usize,
        /// Where it ends.
        end: usize,
    },
    /// `<!DOCTYPE ...>`, its span.
    Doctype {
        /// Where the `<` is.
        start: usize,
        /// Just past the `>`.
        end: usize,
    },
    /// A comment, processing instruction or other markup declaration.
    Comment,
}

/// Something the scanner recovered from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The byte offset it is about.
    pub at: usize,
    /// What happened and what was done.
    pub message: String,
}

/// The tokenizer: call [`Scanner::next`] until it gives `None`.
pub struct Scanner<'a> {
    src: &'a str,
    pos: usize,
    /// What it recovered from so far; readers drain it into diagnostics.
    pub problems: Vec<Problem>,
}

/// Whether a quoted value runs over a line that starts with a tag: then its
/// closing quote is missing and the quote found belongs to a later tag.
/// (Values may span lines, as Scuttle's descriptions do, but no line of one
/// starts with markup.)
fn swallows_markup(value: &[u8]) -> bool {
    let mut rest = value;
    while let Some(nl) = memchr::memchr(b'\n', rest) {
        rest = &rest[nl + 1..];
        let line = rest
            .iter()
            .position(|&c| !matches!(c, b' ' | b'\t' | b'\r'));
        if let Some(p) = line {
            if rest[p] == b'<'
                && rest
                    .get(p + 1)
                    .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'/')
            {
                return true;
            }
        }
    }
    false
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C')
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `src`.
    pub fn new(src: &'a str) -> Scanner<'a> {
        Scanner {
            src,
            pos: 0,
            problems: Vec::new(),
        }
    }

    fn problem(&mut self, at: usize, message: impl Into<String>) {
        self.problems.push(Problem {
            at,
            message: message.into(),
        });
    }

    /// The next token, or `None` at the end. Attributes of a start tag are
    /// put in `attrs` (cleared first).
    pub fn next(&mut self, attrs: &mut Vec<RawAttr<'a>>) -> Option<Token<'a>> {
        let b = self.src.as_bytes();
        let start = self.pos;
        if start >= b.len() {
            return None;
        }
        // Text runs to the next `<` that starts markup.
        let mut at = start;
        loop {
            let Some(i) = memchr::memchr(b'<', &b[at..]) else {
                self.pos = b.len();
                return Some(Token::Text {
                    start,
                    end: b.len(),
                });
            };
            let lt = at + i;
            let next = b.get(lt + 1).copied();
            let markup = match next {
                Some(c) if c.is_ascii_alphabetic() => true,
                Some(b'!' | b'?') => true,
                Some(b'/') => b
                    .get(lt + 2)
                    .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'>'),
                _ => false,
            };
            if !markup {
                at = lt + 1;
                continue;
            }
            if lt > start {
                self.pos = lt;
                return Some(Token::Text { start, end: lt });
            }
            break;
        }
        // At a `<` that starts markup.
        match b[start + 1] {
            b'!' => Some(self.declaration(start)),
            b'?' => {
                self.pos = self.close_of(start + 2);
                Some(Token::Comment)
            }
            b'/' => {
                if b[start + 2] == b'>' {
                    self.pos = start + 3;
                    return Some(Token::Comment);
                }
                let name_end = self.name_end(start + 2);
                let name = &self.src[start + 2..name_end];
                let close = self.close_of(name_end);
                if close >= b.len() && b.last() != Some(&b'>') {
                    self.problem(start, "the file ends inside an end tag (truncated?)");
                }
                self.pos = close;
                Some(Token::End {
                    name,
                    start,
                    end: close,
                })
            }
            _ => self.start_tag(start, attrs),
        }
    }

    fn name_end(&self, from: usize) -> usize {
        let b = self.src.as_bytes();
        let mut i = from;
        while i < b.len() && !is_space(b[i]) && b[i] != b'/' && b[i] != b'>' {
            i += 1;
        }
        i
    }

    /// Just past the next `>` at or after `from` (or the end).
    fn close_of(&self, from: usize) -> usize {
        let b = self.src.as_bytes();
        memchr::memchr(b'>', &b[from.min(b.len())..]).map_or(b.len(), |i| from + i + 1)
    }

    fn declaration(&mut self, start: usize) -> Token<'a> {
        let b = self.src.as_bytes();
        if b[start..].starts_with(b"<!--") {
            match memchr::memmem::find(&b[start + 4..], b"-->") {
                Some(i) => self.pos = start + 4 + i + 3,
                None => {
                    self.problem(
                        start,
                        "a comment is never closed; the rest of the file is inside it",
                    );
                    self.pos = b.len();
                }
            }
            return Token::Comment;
        }
        let close = self.close_of(start + 2);
        self.pos = close;
        let inner = &b[start + 2..close.saturating_sub(1).max(start + 2)];
        if inner.len() >= 7 && inner[..7].eq_ignore_ascii_case(b"doctype") {
            return Token::Doctype { start, end: close };
        }
        Token::Comment
    }

    fn start_tag(&mut self, start: usize, attrs: &mut Vec<RawAttr<'a>>) -> Option<Token<'a>> {
        attrs.clear();
        let src = self.src;
        let b = src.as_bytes();
        let name_end = self.name_end(start + 1);
        let name = &src[start + 1..name_end];
        let mut i = name_end;
        loop {
            while i < b.len() && (is_space(b[i]) || b[i] == b'/') {
                i += 1;
            }
            if i >= b.len() {
                self.problem(
                    start,
                    "the file ends inside a tag (truncated?); the tag is ignored",
                );
                self.pos = b.len();
                return None;
            }
            if b[i] == b'>' {
                self.pos = i + 1;
                return Some(Token::Start {
                    name,
                    start,
                    end: i + 1,
                });
            }
            let at = i;
            // The first character may be `=` (HTML5); the name runs to space, `/`, `>` or `=`.
            i += 1;
            while i < b.len() && !is_space(b[i]) && !matches!(b[i], b'/' | b'>' | b'=') {
                i += 1;
            }
            let attr_name = &src[at..i];
            let mut j = i;
            while j < b.len() && is_space(b[j]) {
                j += 1;
            }
            let mut value = "";
            if j < b.len() && b[j] == b'=' {
                j += 1;
                while j < b.len() && is_space(b[j]) {
                    j += 1;
                }
                match b.get(j) {
                    Some(&q @ (b'"' | b'\'')) => match memchr::memchr(q, &b[j + 1..])
                        .filter(|&k| !swallows_markup(&b[j + 1..j + 1 + k]))
                    {
                        Some(k) => {
                            value = &src[j + 1..j + 1 + k];
                            i = j + 1 + k + 1;
                        }
                        None => {
                            // An unclosed quote would swallow the rest of the
                            // file; end the value at its line instead.
                            let eol = memchr::memchr2(b'\n', b'\r', &b[j + 1..])
                                .map_or(b.len(), |k| j + 1 + k);
                            self.problem(
                                at,
                                format!(
                                    "the value of {attr_name} has no closing quote; it is ended at the end of its line"
                                ),
                            );
                            value = &src[j + 1..eol];
                            i = eol;
                        }
                    },
                    _ => {
                        let mut k = j;
                        while k < b.len() && !is_space(b[k]) && b[k] != b'>' {
                            k += 1;
                        }
                        value = &src[j..k];
                        i = k;
                    }
                }
            }
            attrs.push(RawAttr {
                name: attr_name,
                value,
                at,
            });
        }
    }

    /// For a raw-text or RCDATA element (`TITLE`, `SCRIPT`, `STYLE`,
    /// `TEXTAREA`), called right after its start tag: the span of its text up
    /// to its end tag, and the scanner moves past that tag. `None`, and the
    /// scanner stays, if the end tag never comes.
    pub fn rcdata(&mut self, name: &str) -> Option<(usize, usize)> {
        let b = self.src.as_bytes();
        let start = self.pos;
        let mut at = start;
        while let Some(i) = memchr::memmem::find(&b[at..], b"</") {
            let lt = at + i;
            let n = &b[lt + 2..];
            if n.len() >= name.len()
                && n[..name.len()].eq_ignore_ascii_case(name.as_bytes())
                && n.get(name.len())
                    .is_none_or(|&c| is_space(c) || c == b'>' || c == b'/')
            {
                self.pos = self.close_of(lt + 2 + name.len());
                return Some((start, lt));
            }
            at = lt + 2;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &str) -> Vec<(Token<'_>, Vec<(String, String)>)> {
        let mut s = Scanner::new(src);
        let mut attrs = Vec::new();
        let mut out = Vec::new();
        while let Some(t) = s.next(&mut attrs) {
            let a = if matches!(t, Token::Start { .. }) {
                attrs
                    .iter()
                    .map(|a| (a.name.to_string(), a.value.to_string()))
                    .collect()
            } else {
                vec![]
            };
            out.push((t, a));
        }
        out
    }

    #[test]
    fn attributes_in_every_quoting() {
        let t = tokens(r#"<A HREF="x y" add_date='1' FOLDED icon=data:x>t</a>"#);
        assert_eq!(
            t[0].1,
            vec![
                ("HREF".into(), "x y".into()),
                ("add_date".into(), "1".into()),
                ("FOLDED".into(), "".into()),
                ("icon".into(), "data:x".into())
            ]
        );
        assert!(matches!(t[0].0, Token::Start { name: "A", .. }));
        let Token::Text { start, end } = t[1].0 else {
            panic!("text follows")
        };
        assert_eq!(
            &r#"<A HREF="x y" add_date='1' FOLDED icon=data:x>t</a>"#[start..end],
            "t"
        );
        assert!(matches!(t[2].0, Token::End { name: "a", .. }));
    }

    #[test]
    fn lone_angle_brackets_are_text() {
        let t = tokens("a < b <3 </ c <");
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn doctype_and_comments() {
        let t = tokens("<!doctype Netscape-Bookmark-file-1><!-- <A HREF=x> --><?php ?>");
        assert!(matches!(t[0].0, Token::Doctype { start: 0, end: 35 }));
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn unclosed_quote_ends_at_line_end() {
        let mut s = Scanner::new("<A HREF=\"x>t</A>\n<DT><A HREF=\"y\">u</A>");
        let mut attrs = Vec::new();
        let first = s.next(&mut attrs);
        assert!(matches!(first, Some(Token::Start { .. })) || first.is_none());
        assert_eq!(s.problems.len(), 1);
        let mut hrefs = 0;
        while let Some(t) = s.next(&mut attrs) {
            if matches!(t, Token::Start { name: "A", .. }) {
                hrefs += 1;
                assert_eq!(attrs[0].value, "y");
            }
        }
        assert_eq!(hrefs, 1);
    }

    #[test]
    fn truncated_tag_is_a_problem_not_a_panic() {
        for src in ["<A HREF=\"x", "<A", "</", "<!--", "<!DOCTYPE", "<A HREF="] {
            let mut s = Scanner::new(src);
            let mut attrs = Vec::new();
            while s.next(&mut attrs).is_some() {}
        }
    }
}
