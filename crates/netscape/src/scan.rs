//! The elements of a bookmark file, over the markup layer's tokenizer.
//!
//! The reader acts on a dozen element names; naming them once here keeps the
//! reader's matches on an enum instead of on strings.

use markport_markup::html;

pub(crate) use html::{Problem, RawAttr};

/// The elements the reader acts on; everything else is [`Name::Other`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Name {
    A,
    Dt,
    Dd,
    Dl,
    /// `UL`, `OL` and `MENU`: lists Firefox's importer nests like `DL`.
    List,
    H1,
    /// `H2` to `H6`: folder headings.
    Heading,
    Hr,
    Title,
    Other,
}

impl Name {
    pub(crate) fn of(raw: &str) -> Name {
        let b = raw.as_bytes();
        let eq = |s: &str| b.eq_ignore_ascii_case(s.as_bytes());
        match b.len() {
            1 if eq("a") => Name::A,
            2 if eq("dt") => Name::Dt,
            2 if eq("dd") => Name::Dd,
            2 if eq("dl") || eq("ul") || eq("ol") => {
                if eq("dl") {
                    Name::Dl
                } else {
                    Name::List
                }
            }
            2 if eq("h1") => Name::H1,
            2 if (b[0] | 0x20) == b'h' && (b'2'..=b'6').contains(&b[1]) => Name::Heading,
            2 if eq("hr") => Name::Hr,
            4 if eq("menu") => Name::List,
            5 if eq("title") => Name::Title,
            _ => Name::Other,
        }
    }
}

/// A token with its element named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// A start tag; its attributes are in the vector given to [`Scanner::next`].
    Start {
        name: Name,
        /// The name as written, for the rules that name any element.
        tag: &'a str,
        start: usize,
        end: usize,
    },
    End {
        name: Name,
        tag: &'a str,
        start: usize,
        end: usize,
    },
    Text {
        start: usize,
        end: usize,
    },
    /// `<!DOCTYPE ...>`; `netscape` when it names the Netscape bookmark file.
    Doctype {
        netscape: bool,
        start: usize,
        end: usize,
    },
    /// A comment or other markup declaration, skipped.
    Comment,
}

/// The markup layer's scanner, giving [`Token`]s.
pub(crate) struct Scanner<'a> {
    inner: html::Scanner<'a>,
    src: &'a str,
    pub problems: Vec<Problem>,
}

impl<'a> Scanner<'a> {
    pub fn new(src: &'a str) -> Scanner<'a> {
        Scanner {
            inner: html::Scanner::new(src),
            src,
            problems: Vec::new(),
        }
    }

    pub fn next(&mut self, attrs: &mut Vec<RawAttr<'a>>) -> Option<Token<'a>> {
        let tok = self.inner.next(attrs);
        self.problems.append(&mut self.inner.problems);
        Some(match tok? {
            html::Token::Start { name, start, end } => Token::Start {
                name: Name::of(name),
                tag: name,
                start,
                end,
            },
            html::Token::End { name, start, end } => Token::End {
                name: Name::of(name),
                tag: name,
                start,
                end,
            },
            html::Token::Text { start, end } => Token::Text { start, end },
            html::Token::Doctype { start, end } => Token::Doctype {
                netscape: self.src.as_bytes()[start..end]
                    .windows(16)
                    .any(|w| w.eq_ignore_ascii_case(b"netscape-bookmar")),
                start,
                end,
            },
            html::Token::Comment => Token::Comment,
        })
    }

    /// See [`html::Scanner::rcdata`].
    pub fn rcdata(&mut self, name: &str) -> Option<(usize, usize)> {
        self.inner.rcdata(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_the_netscape_doctype() {
        let src = "<!DOCTYPE NETSCAPE-Bookmark-file-1><dl><DT><a HREF=x>t</A><h3>f</H3><menu>";
        let mut s = Scanner::new(src);
        let mut attrs = Vec::new();
        let mut toks = Vec::new();
        while let Some(t) = s.next(&mut attrs) {
            toks.push(t);
        }
        assert!(matches!(toks[0], Token::Doctype { netscape: true, .. }));
        let names: Vec<Name> = toks
            .iter()
            .filter_map(|t| match t {
                Token::Start { name, .. } | Token::End { name, .. } => Some(*name),
                _ => None,
            })
            .collect();
        use Name::*;
        assert_eq!(names, [Dl, Dt, A, A, Heading, Heading, List]);
    }
}
