//! A streaming walk over an HTML page's elements, in linear time.
//!
//! A reader that needs the element tree (which entry a link is inside) but
//! not the tree itself gets the tree's walk: every element opens and closes,
//! in document order, with HTML5's implied end tags applied (`<p>` closed by
//! a block, `<li>` by the next `<li>`, `<dd>`/`<dt>` by each other, cells and
//! rows by the next, a stray `</span>` ignored, void elements closed at once).
//!
//! Why not a full HTML5 tree builder: Rust's (html5ever, which markport used
//! before) checks
//! "has an element in scope" by walking the stack of open elements, and its
//! tokenizer checks each attribute against the tag's earlier ones, so a page
//! nested 100,000 elements deep or a tag with 100,000 attributes takes
//! quadratic time. Here every scope question is answered from per-name stacks
//! of open-element positions, so each token costs constant amortized time
//! however deep the page is. What is approximated (the adoption agency's
//! reopening of formatting elements, foster parenting out of tables, breaking
//! out of SVG) changes which element a piece of text is in only on pages a
//! browser would have to repair, and never loses text.
//!
//! ```
//! use markport_markup::walk::{Event, Walker};
//!
//! let mut walk = Walker::new("<ul><li>one<li>two</ul><p>a<div>b</div>");
//! let mut seen = Vec::new();
//! while let Some(ev) = walk.next() {
//!     seen.push(match ev {
//!         Event::Start { name, .. } => format!("<{name}>"),
//!         Event::End { name } => format!("</{name}>"),
//!         Event::Text { text, .. } => text.into_owned(),
//!     });
//! }
//! assert_eq!(
//!     seen.concat(),
//!     "<ul><li>one</li><li>two</li></ul><p>a</p><div>b</div>"
//! );
//! ```

use std::borrow::Cow;
use std::collections::HashMap;

use crate::entities::{self, Context};
use crate::html::{Problem, RawAttr, Scanner, Token};

/// One step of the walk.
#[derive(Debug)]
pub enum Event<'w, 'a> {
    /// An element opens. Every `Start` is matched by one [`Event::End`].
    Start {
        /// The tag name as written.
        name: &'a str,
        /// Its attributes as written (undecoded; see [`attr`]).
        attrs: &'w [RawAttr<'a>],
        /// Byte offset of its `<`.
        at: usize,
    },
    /// The innermost open element closes (by its end tag, an implied one,
    /// or the end of the page).
    End {
        /// The tag name as written in its start tag.
        name: &'a str,
    },
    /// Text, with character references decoded and line ends made `\n`.
    /// The text of `<script>` and `<style>` is not text a reader shows and
    /// is skipped.
    Text {
        /// The decoded text.
        text: Cow<'a, str>,
        /// Byte offset where it starts.
        at: usize,
    },
}

/// The first attribute named `name` (ASCII case-insensitive), decoded, as
/// HTML keeps the first of duplicates.
pub fn attr<'a>(attrs: &[RawAttr<'a>], name: &str) -> Option<Cow<'a, str>> {
    attrs
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
        .map(|a| entities::decode(a.value, Context::Attribute))
}

const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input",
    "keygen", "link", "meta", "param", "source", "track", "wbr",
];

/// Elements whose start tag closes an open `<p>`.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "dd",
    "dt",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "plaintext",
    "pre",
    "search",
    "section",
    "summary",
    "table",
    "ul",
    "xmp",
];

/// The limits of HTML5's default scope: an end tag does not reach past them.
const SCOPE_LIMITS: &[&str] = &[
    "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template",
];

const HEADINGS: &[&str] = &["h1", "h2", "h3", "h4", "h5", "h6"];

/// What comes next from the walker besides the scanner's tokens.
enum Pending<'a> {
    None,
    /// Close elements until the stack is this long, then go on.
    CloseTo(usize, Then<'a>),
    /// The void element just started closes now.
    EndVoid(&'a str),
    /// The raw text of the `<title>` or `<textarea>` just started, then its end.
    Raw {
        name: &'a str,
        start: usize,
        end: usize,
    },
}

/// What follows the closes.
enum Then<'a> {
    Nothing,
    /// Open this element (its attributes are in the buffer).
    Open {
        name: &'a str,
        at: usize,
        void: bool,
    },
    /// An empty element for a stray end tag (`</p>` with no `<p>`).
    Empty {
        name: &'a str,
        at: usize,
    },
    /// A `<title>` or `<textarea>` with its raw text span.
    Raw {
        name: &'a str,
        at: usize,
        text: (usize, usize),
    },
}

/// The walker: call [`Walker::next`] until it gives `None`.
pub struct Walker<'a> {
    src: &'a str,
    scan: Scanner<'a>,
    attrs: Vec<RawAttr<'a>>,
    /// The open elements: name as written, and its name in lower case
    /// (the name itself when written in lower case, as nearly every one is).
    stack: Vec<(&'a str, Cow<'a, str>)>,
    /// For each lower-case name, the stack positions of its open elements
    /// (the names of [`known`] are in `known_open` instead).
    open: HashMap<Cow<'a, str>, Vec<usize>>,
    /// The same for the names of [`known`], by their number: the walk
    /// asks about these at every start and end tag of a list or a table,
    /// and a `match` finds them quicker than a hash of the name.
    known_open: [Vec<usize>; KNOWN],
    /// Stack positions of open special elements and of scope limits.
    special: Vec<usize>,
    limits: Vec<usize>,
    /// Stack positions of open `<svg>` and `<math>`: inside, `<x/>` closes.
    foreign: Vec<usize>,
    pending: Pending<'a>,
    key: String,
}

/// How many names [`known`] numbers.
const KNOWN: usize = 32;

/// The number of a name that the walk's rules ask about by name (those of
/// `implied_by_start`, `closed_by_end` and [`SCOPE_LIMITS`]).
fn known(key: &str) -> Option<usize> {
    Some(match key {
        "p" => 0,
        "button" => 1,
        "li" => 2,
        "ul" => 3,
        "ol" => 4,
        "menu" => 5,
        "dl" => 6,
        "dd" => 7,
        "dt" => 8,
        "a" => 9,
        "h1" => 10,
        "h2" => 11,
        "h3" => 12,
        "h4" => 13,
        "h5" => 14,
        "h6" => 15,
        "select" => 16,
        "optgroup" => 17,
        "table" => 18,
        "td" => 19,
        "th" => 20,
        "tr" => 21,
        "tbody" => 22,
        "thead" => 23,
        "tfoot" => 24,
        "caption" => 25,
        "colgroup" => 26,
        "applet" => 27,
        "html" => 28,
        "marquee" => 29,
        "object" => 30,
        "template" => 31,
        _ => return None,
    })
}

fn lower_into(key: &mut String, name: &str) {
    key.clear();
    key.push_str(name);
    key.make_ascii_lowercase();
}

/// Whether `key` is one of HTML5's special elements: an end tag of an
/// ordinary element is ignored when one of these is open inside it. Asked at
/// every start tag and for each open element an end tag passes: a `match`
/// (a switch on the length, then a few byte compares), not a list searched.
fn is_special(key: &str) -> bool {
    matches!(
        key,
        "address"
            | "applet"
            | "article"
            | "aside"
            | "blockquote"
            | "button"
            | "caption"
            | "center"
            | "colgroup"
            | "dd"
            | "details"
            | "dir"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "iframe"
            | "li"
            | "listing"
            | "main"
            | "marquee"
            | "menu"
            | "nav"
            | "noembed"
            | "noframes"
            | "noscript"
            | "object"
            | "ol"
            | "p"
            | "plaintext"
            | "pre"
            | "search"
            | "section"
            | "select"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "template"
            | "textarea"
            | "tfoot"
            | "th"
            | "thead"
            | "title"
            | "tr"
            | "ul"
            | "xmp"
    )
}

impl<'a> Walker<'a> {
    /// A walk over `src` from its start.
    pub fn new(src: &'a str) -> Walker<'a> {
        Walker {
            src,
            scan: Scanner::new(src),
            attrs: Vec::new(),
            stack: Vec::new(),
            open: HashMap::new(),
            known_open: Default::default(),
            special: Vec::new(),
            limits: Vec::new(),
            foreign: Vec::new(),
            pending: Pending::None,
            key: String::new(),
        }
    }

    /// What the tokenizer recovered from so far (unclosed comments, quotes,
    /// truncated tags), with byte offsets.
    pub fn problems(&mut self) -> Vec<Problem> {
        std::mem::take(&mut self.scan.problems)
    }

    /// How many elements are open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    fn top(&self, name: &str) -> Option<usize> {
        match known(name) {
            Some(k) => self.known_open[k].last().copied(),
            None => self.open.get(name).and_then(|v| v.last().copied()),
        }
    }

    fn top_of(&self, names: &[&str]) -> Option<usize> {
        names.iter().filter_map(|n| self.top(n)).max()
    }

    /// The innermost scope limit other than an element named `except`.
    fn limit(&self, except: &str) -> Option<usize> {
        if !SCOPE_LIMITS.contains(&except) {
            return self.limits.last().copied();
        }
        SCOPE_LIMITS
            .iter()
            .filter(|n| **n != except)
            .filter_map(|n| self.top(n))
            .max()
    }

    /// `at` if it is inside (above) `limit`.
    fn within(at: Option<usize>, limit: Option<usize>) -> Option<usize> {
        at.filter(|&a| limit.is_none_or(|l| a > l))
    }

    /// For a start tag named `key` (lower case): the stack length its
    /// implied end tags close to.
    fn implied_by_start(&self, key: &str) -> Option<usize> {
        if !self.foreign.is_empty() {
            return None;
        }
        let mut to: Option<usize> = None;
        let mut close = |at: Option<usize>| {
            if let Some(a) = at {
                to = Some(to.map_or(a, |t: usize| t.min(a)));
            }
        };
        if CLOSES_P.contains(&key) {
            let limit = self.limit("").max(self.top("button"));
            close(Self::within(self.top("p"), limit));
        }
        let limit = self.limit("");
        match key {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let top = self.stack.len().checked_sub(1);
                if top.is_some() && top == self.top_of(HEADINGS) {
                    close(top);
                }
            }
            "li" => {
                let lists = self.top_of(&["ul", "ol", "menu"]).max(limit);
                close(Self::within(self.top("li"), lists));
            }
            "dd" | "dt" => {
                let lists = self.top("dl").max(limit);
                close(Self::within(self.top_of(&["dd", "dt"]), lists));
            }
            "a" => close(Self::within(self.top("a"), limit)),
            "option" | "optgroup" => {
                let top = self.stack.len().checked_sub(1);
                let current = top.map(|t| &*self.stack[t].1);
                if current == Some("option") {
                    close(top);
                }
                if key == "optgroup" {
                    close(Self::within(self.top("optgroup"), self.top("select")));
                }
            }
            "td" | "th" | "tr" | "tbody" | "thead" | "tfoot" | "caption" | "colgroup" => {
                let table = self.top("table");
                let cells = self.top_of(&["td", "th"]);
                let rows = self.top("tr");
                let sections = self.top_of(&["tbody", "thead", "tfoot"]);
                match key {
                    "td" | "th" => close(Self::within(cells, table)),
                    "tr" => close(Self::within(cells.min(rows).or(cells).or(rows), table)),
                    _ => {
                        let inner = [cells, rows, sections].into_iter().flatten().min();
                        close(Self::within(inner, table));
                    }
                }
            }
            _ => {}
        }
        to
    }

    /// For an end tag named `key` (lower case): the stack position of the
    /// element it closes, or `None` when HTML ignores it.
    fn closed_by_end(&self, key: &str) -> Option<usize> {
        if !self.foreign.is_empty() {
            let root = self.foreign.last().copied();
            return self.top(key).filter(|&a| root.is_none_or(|r| a >= r));
        }
        match key {
            "p" => Self::within(self.top("p"), self.limit("").max(self.top("button"))),
            "li" => Self::within(
                self.top("li"),
                self.top_of(&["ul", "ol", "menu"]).max(self.limit("")),
            ),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                Self::within(self.top_of(HEADINGS), self.limit(""))
            }
            "td" | "th" | "tr" | "tbody" | "thead" | "tfoot" | "caption" | "colgroup" => {
                Self::within(self.top(key), self.top("table"))
            }
            "table" | "template" => self.top(key),
            _ if is_special(key) || is_formatting(key) => {
                Self::within(self.top(key), self.limit(key))
            }
            _ => Self::within(self.top(key), self.special.last().copied()),
        }
    }

    fn push(&mut self, name: &'a str) {
        let key: Cow<'a, str> = if name == self.key {
            Cow::Borrowed(name)
        } else {
            Cow::Owned(self.key.clone())
        };
        let at = self.stack.len();
        if is_special(&key) {
            self.special.push(at);
        }
        if SCOPE_LIMITS.contains(&&*key) {
            self.limits.push(at);
        }
        if matches!(&*key, "svg" | "math") {
            self.foreign.push(at);
        }
        match known(&key) {
            Some(k) => self.known_open[k].push(at),
            None => match self.open.get_mut(&*key) {
                Some(v) => v.push(at),
                None => {
                    self.open.insert(key.clone(), vec![at]);
                }
            },
        }
        self.stack.push((name, key));
    }

    fn pop(&mut self) -> Option<&'a str> {
        let (name, key) = self.stack.pop()?;
        let at = self.stack.len();
        for v in [&mut self.special, &mut self.limits, &mut self.foreign] {
            if v.last() == Some(&at) {
                v.pop();
            }
        }
        match known(&key) {
            Some(k) => {
                self.known_open[k].pop();
            }
            None => {
                if let Some(v) = self.open.get_mut(&*key) {
                    v.pop();
                }
            }
        }
        Some(name)
    }

    /// The next step of the walk, or `None` when the page is done.
    #[allow(clippy::should_implement_trait)] // lends its attribute buffer
    pub fn next(&mut self) -> Option<Event<'_, 'a>> {
        loop {
            match std::mem::replace(&mut self.pending, Pending::None) {
                Pending::None => {}
                Pending::EndVoid(name) => return Some(Event::End { name }),
                Pending::Raw { name, start, end } => {
                    self.pending = Pending::EndVoid(name);
                    let text = entities::decode(&self.src[start..end], Context::Text);
                    return Some(Event::Text { text, at: start });
                }
                Pending::CloseTo(len, then) => {
                    if self.stack.len() > len {
                        self.pending = Pending::CloseTo(len, then);
                        let name = self.pop()?;
                        return Some(Event::End { name });
                    }
                    match then {
                        Then::Nothing => {}
                        Then::Open { name, at, void } => {
                            if void {
                                self.pending = Pending::EndVoid(name);
                            } else {
                                lower_into(&mut self.key, name);
                                self.push(name);
                            }
                            return Some(Event::Start {
                                name,
                                attrs: &self.attrs,
                                at,
                            });
                        }
                        Then::Raw { name, at, text } => {
                            self.pending = Pending::Raw {
                                name,
                                start: text.0,
                                end: text.1,
                            };
                            return Some(Event::Start {
                                name,
                                attrs: &self.attrs,
                                at,
                            });
                        }
                        Then::Empty { name, at } => {
                            self.pending = Pending::EndVoid(name);
                            return Some(Event::Start {
                                name,
                                attrs: &[],
                                at,
                            });
                        }
                    }
                }
            }
            let Some(tok) = self.scan.next(&mut self.attrs) else {
                if self.stack.is_empty() {
                    return None;
                }
                self.pending = Pending::CloseTo(0, Then::Nothing);
                continue;
            };
            match tok {
                Token::Text { start, end } => {
                    let text = entities::decode(&self.src[start..end], Context::Text);
                    return Some(Event::Text { text, at: start });
                }
                Token::Doctype { .. } | Token::Comment => {}
                Token::Start { name, start, end } => {
                    lower_into(&mut self.key, name);
                    if matches!(self.key.as_str(), "html" | "head" | "body") {
                        continue;
                    }
                    let foreign = !self.foreign.is_empty();
                    let self_closed = self.src.as_bytes()[..end].ends_with(b"/>");
                    let mut void = if foreign {
                        self_closed
                    } else {
                        VOID.contains(&self.key.as_str())
                    };
                    if !foreign {
                        match self.key.as_str() {
                            "script" | "style" => {
                                // Their text is code, not prose: skipped, and
                                // the end tag with it.
                                let key = self.key.clone();
                                void = self.scan.rcdata(&key).is_some();
                            }
                            "title" | "textarea" => {
                                let to = self.implied_by_start(&self.key);
                                let key = self.key.clone();
                                // Without its end tag it is an ordinary element.
                                if let Some(text) = self.scan.rcdata(&key) {
                                    self.pending = Pending::CloseTo(
                                        to.unwrap_or(self.stack.len()),
                                        Then::Raw {
                                            name,
                                            at: start,
                                            text,
                                        },
                                    );
                                    continue;
                                }
                            }
                            _ => {}
                        }
                    }
                    let to = self.implied_by_start(&self.key);
                    self.pending = Pending::CloseTo(
                        to.unwrap_or(self.stack.len()),
                        Then::Open {
                            name,
                            at: start,
                            void,
                        },
                    );
                }
                Token::End { name, start, .. } => {
                    lower_into(&mut self.key, name);
                    match self.key.as_str() {
                        "html" | "head" | "body" => {}
                        "br" => {
                            self.attrs.clear();
                            self.pending = Pending::CloseTo(
                                self.stack.len(),
                                Then::Open {
                                    name,
                                    at: start,
                                    void: true,
                                },
                            );
                        }
                        key => match self.closed_by_end(key) {
                            Some(at) => self.pending = Pending::CloseTo(at, Then::Nothing),
                            None if key == "p" => {
                                self.pending = Pending::CloseTo(
                                    self.stack.len(),
                                    Then::Empty { name, at: start },
                                )
                            }
                            None => {}
                        },
                    }
                }
            }
        }
    }
}

fn is_formatting(key: &str) -> bool {
    matches!(
        key,
        "a" | "b"
            | "big"
            | "code"
            | "em"
            | "font"
            | "i"
            | "nobr"
            | "s"
            | "small"
            | "strike"
            | "strong"
            | "tt"
            | "u"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_elements_are_told_apart() {
        for n in ["address", "p", "li", "table", "xmp", "dd", "ul"] {
            assert!(is_special(n), "{n}");
        }
        for n in ["span", "a", "b", "time", "P", ""] {
            assert!(!is_special(n), "{n}");
        }
    }

    /// The walk as markup: every element explicitly closed.
    fn walked(src: &str) -> String {
        let mut w = Walker::new(src);
        let mut out = String::new();
        let mut depth = 0usize;
        while let Some(ev) = w.next() {
            match ev {
                Event::Start { name, .. } => {
                    depth += 1;
                    out.push_str(&format!("<{}>", name.to_ascii_lowercase()));
                }
                Event::End { name } => {
                    depth = depth.checked_sub(1).expect("an End for every Start");
                    out.push_str(&format!("</{}>", name.to_ascii_lowercase()));
                }
                Event::Text { text, .. } => out.push_str(&text),
            }
        }
        assert_eq!(depth, 0);
        out
    }

    #[test]
    fn implied_end_tags() {
        assert_eq!(walked("<p>a<p>b"), "<p>a</p><p>b</p>");
        assert_eq!(walked("<p>a<div>b</div>c"), "<p>a</p><div>b</div>c");
        assert_eq!(
            walked("<dl><dt>t<dd>d<dt>u</dl>"),
            "<dl><dt>t</dt><dd>d</dd><dt>u</dt></dl>"
        );
        assert_eq!(
            walked("<ul><li>a<ul><li>b</ul><li>c</ul>"),
            "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"
        );
        assert_eq!(
            walked("<table><tr><td>a<td>b<tr><td>c</table>"),
            "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>"
        );
        assert_eq!(walked("<h2>a<h3>b"), "<h2>a</h2><h3>b</h3>");
        assert_eq!(walked("<a href=x>a<a href=y>b</a>"), "<a>a</a><a>b</a>");
        assert_eq!(
            walked("<select><option>a<option>b</select>"),
            "<select><option>a</option><option>b</option></select>"
        );
    }

    #[test]
    fn stray_and_misnested_end_tags() {
        assert_eq!(walked("a</span>b</div>"), "ab");
        assert_eq!(
            walked("<span><div>x</span>y</div>"),
            "<span><div>xy</div></span>"
        );
        assert_eq!(walked("<div><span>x</div>y"), "<div><span>x</span></div>y");
        assert_eq!(walked("x</p>y"), "x<p></p>y");
        assert_eq!(walked("x</br>y"), "x<br></br>y");
        assert_eq!(walked("<h2>x</h3>y"), "<h2>x</h2>y");
        assert_eq!(
            walked("<table><tr><td><div>x</td></tr></table>"),
            "<table><tr><td><div>x</div></td></tr></table>"
        );
    }

    #[test]
    fn void_raw_and_foreign_elements() {
        assert_eq!(walked("a<br>b<img src=x>c"), "a<br></br>b<img></img>c");
        assert_eq!(
            walked("<title>a &amp; <b>b</b></title><p>x"),
            "<title>a & <b>b</b></title><p>x</p>"
        );
        assert_eq!(
            walked("<script>if (a<b) x()</script>y"),
            "<script></script>y"
        );
        assert_eq!(
            walked("<svg><path d=x/><title>t</title></svg>z"),
            "<svg><path></path><title>t</title></svg>z"
        );
        assert_eq!(walked("<html><head></head><body>x</body></html>"), "x");
    }

    #[test]
    fn attributes_are_decoded_first_wins() {
        let mut w = Walker::new(r#"<a HREF="?a=1&amp;b=2" href=no class=x>t</a>"#);
        let Some(Event::Start { attrs, .. }) = w.next() else {
            panic!("a start tag")
        };
        assert_eq!(attr(attrs, "href").as_deref(), Some("?a=1&b=2"));
        assert_eq!(attr(attrs, "class").as_deref(), Some("x"));
        assert_eq!(attr(attrs, "title"), None);
    }

    #[test]
    fn deep_pages_close_without_recursion() {
        let n = 200_000;
        let src = "<div>".repeat(n) + "x";
        let mut w = Walker::new(&src);
        let (mut starts, mut ends, mut deepest) = (0, 0, 0);
        while let Some(ev) = w.next() {
            match ev {
                Event::Start { .. } => starts += 1,
                Event::End { .. } => ends += 1,
                Event::Text { .. } => deepest = w.depth(),
            }
        }
        assert_eq!((starts, ends, deepest), (n, n, n));
    }

    #[test]
    fn truncated_input_never_panics() {
        for src in [
            "<",
            "<a",
            "<a href=\"x",
            "</",
            "<!--",
            "<title>x",
            "<script>x",
            "<svg><p",
        ] {
            walked(src);
        }
    }
}
