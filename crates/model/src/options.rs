//! Options readers and writers take. One struct each, shared by every format:
//! a format reads the options that concern it and ignores the rest.

/// How to read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Turn every warning diagnostic into an error.
    pub strict: bool,
    /// Decode the input with this encoding label instead of detecting it
    /// (Netscape HTML).
    pub encoding: Option<String>,
    /// The address the document was published at, for resolving relative
    /// links (xFolk).
    pub base_url: Option<String>,
}

/// How to write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// XBEL: leave out markport's metadata block so the output validates
    /// against the XBEL 1.0 DTD (what only that block carries is reported lost).
    pub xbel_strict: bool,
    /// Desktop: the application name to register bookmarks that have none under.
    pub app_name: Option<String>,
    /// Desktop: the command line of that application (`%u`, `%f`).
    pub app_exec: Option<String>,
    /// xFolk: publish private bookmarks too.
    pub include_private: bool,
    /// xFolk: publish `javascript:`, `data:` and `vbscript:` links as live links.
    pub allow_script_urls: bool,
    /// xFolk: publish links only a browser understands (Firefox `place:`
    /// queries, `%s` keyword-search templates) as live links.
    pub allow_browser_urls: bool,
    /// xFolk: the address tag links point under.
    pub tag_base: Option<String>,
}
