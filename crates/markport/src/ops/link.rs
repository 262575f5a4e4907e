//! The key two links share when they are the same link: the model's, which
//! `diff` pairs bookmarks by too, and the looser keys `--dedupe=normal` and
//! `--dedupe=loose` (and `merge --match`) compare by.

use std::borrow::Cow;

pub use markport_model::link_key;

/// How alike two links must be to be one bookmark's (`--dedupe=LEVEL`,
/// `merge --match LEVEL`). Each level merges all the previous one does.
///
/// ```
/// use markport::ops::LinkMatch;
///
/// let same = |m: LinkMatch, a, b| m.key(a) == m.key(b);
/// assert!(same(LinkMatch::Exact, "HTTPS://Example.org:443", "https://example.org/"));
/// assert!(!same(LinkMatch::Exact, "https://example.org/b/", "https://example.org/b"));
/// assert!(same(LinkMatch::Normal, "https://example.org/b/", "https://example.org/b"));
/// assert!(!same(LinkMatch::Normal, "http://example.org/b", "https://example.org/b"));
/// assert!(same(
///     LinkMatch::Loose,
///     "http://example.org/b/?utm_source=pocket_mylist#intro",
///     "https://example.org/b",
/// ));
/// assert_eq!(LinkMatch::Loose.key("not a link"), "not a link");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LinkMatch {
    /// The same link as the WHATWG URL standard reads it ([`link_key`]):
    /// only what a URL parser erases differs (scheme and host case, the
    /// default port, an empty path, percent-encoding case). What
    /// `--dedupe` and `merge` have always compared by.
    #[default]
    Exact,
    /// [`Exact`](Self::Exact), and a trailing slash on the path ignored
    /// (`/b/` is `/b`; the root `/` stays).
    Normal,
    /// [`Normal`](Self::Normal), and `http` is `https`, known tracking
    /// parameters are ignored ([`TRACKING`]: `utm_*`, which is what Pocket
    /// adds as `utm_source=pocket_mylist`, `fbclid`, `gclid`, ...; an
    /// empty query left is none), and so is the fragment, unless it is a
    /// route of a one-page application (`#/inbox`, `#!/inbox`), which
    /// names a page of its own.
    Loose,
}

/// The query parameters [`LinkMatch::Loose`] ignores, besides every one
/// whose name begins with `utm_`: click identifiers and mail-campaign
/// markers that say how a link was reached, never which page it is.
/// Compared without case.
pub const TRACKING: &[&str] = &[
    "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "igshid", "mc_cid",
    "mc_eid", "_hsenc", "_hsmi", "mkt_tok",
];

impl LinkMatch {
    /// The level's name on the command line: `exact`, `normal`, `loose`.
    pub fn name(self) -> &'static str {
        match self {
            LinkMatch::Exact => "exact",
            LinkMatch::Normal => "normal",
            LinkMatch::Loose => "loose",
        }
    }

    /// The key of `href` at this level: two links are merged when their
    /// keys are equal. The link is parsed once; one that does not parse as
    /// a URL is its own key, as written, at every level. The bookmark keeps
    /// its href as written: only the key is normalised.
    pub fn key(self, href: &str) -> Cow<'_, str> {
        if self == LinkMatch::Exact {
            return link_key(href);
        }
        let Ok(url) = url::Url::parse(href) else {
            return Cow::Borrowed(href);
        };
        let loose = self == LinkMatch::Loose;
        let mut key = String::with_capacity(href.len() + 1);
        match url.scheme() {
            "http" if loose => key.push_str("https"),
            scheme => key.push_str(scheme),
        }
        key.push(':');
        let after_scheme = &url[url::Position::AfterScheme..url::Position::BeforePath];
        // `AfterScheme` starts at the `:`, already written.
        key.push_str(&after_scheme[1..]);
        let path = url.path();
        // An opaque path (`mailto:a@b/`) is not a tree: its slash is data.
        let trimmed = if url.cannot_be_a_base() || path == "/" {
            path
        } else {
            path.strip_suffix('/').unwrap_or(path)
        };
        key.push_str(trimmed);
        if let Some(query) = url.query() {
            if loose {
                let mut first = true;
                for pair in query.split('&').filter(|p| !p.is_empty() && !tracking(p)) {
                    key.push(if first { '?' } else { '&' });
                    key.push_str(pair);
                    first = false;
                }
            } else {
                key.push('?');
                key.push_str(query);
            }
        }
        if let Some(fragment) = url.fragment() {
            if !loose || fragment.starts_with('/') || fragment.starts_with("!/") {
                key.push('#');
                key.push_str(fragment);
            }
        }
        Cow::Owned(upper_percent(key))
    }
}

/// Whether the query pair `name=value` is a tracking parameter.
fn tracking(pair: &str) -> bool {
    let name = pair.split_once('=').map_or(pair, |(n, _)| n);
    let starts_utm = name
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("utm_"));
    starts_utm || TRACKING.iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// `%2f` -> `%2F`: the two spellings are the same octet.
fn upper_percent(s: String) -> String {
    let mut out = s.into_bytes();
    let mut i = 0;
    while i + 2 < out.len() {
        if out[i] == b'%' && out[i + 1].is_ascii_hexdigit() && out[i + 2].is_ascii_hexdigit() {
            out[i + 1].make_ascii_uppercase();
            out[i + 2].make_ascii_uppercase();
            i += 3;
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII letters changed")
}
