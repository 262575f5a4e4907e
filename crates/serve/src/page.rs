//! The page: one HTML document with its style and script inline, all in
//! the binary (`page/`), no build step and no framework. The format list
//! is put in at start, so a browser without JavaScript gets a working
//! form. The policy allows the one style and the one script by their
//! SHA-256, so nothing injected into the page could run.

use base64::Engine as _;
use sha2::{Digest, Sha256};

const HTML: &str = include_str!("page/index.html");
const STYLE: &str = include_str!("page/page.css");
const SCRIPT: &str = include_str!("page/page.js");

/// The page as served, and the policy every answer carries.
pub(crate) struct Page {
    pub(crate) html: String,
    pub(crate) policy: String,
}

fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// `&`, `<`, `>` and `"` as references, for text put into the page.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

impl Page {
    /// The page with the browser profiles found: in the HTML as served, so
    /// a browser without JavaScript offers them too. Each is named by its
    /// id (never its path) and the words a person knows it by.
    pub(crate) fn with_profiles(&self, profiles: &[markport::profiles::Profile]) -> String {
        if profiles.is_empty() {
            // No step for a choice there is not.
            return self
                .html
                .replace("<!--PROFILES-HIDDEN-->", " hidden")
                .replace("<!--PROFILES-->\n", "");
        }
        let mut options = String::new();
        for p in profiles {
            let default = if p.default { " (default)" } else { "" };
            let count = p
                .bookmarks
                .map(|n| format!(" — {}", markport::report::counted(n, "bookmark")))
                .unwrap_or_default();
            options.push_str(&format!(
                "<option value=\"{}\">{}{default}{count}</option>\n",
                crate::profiles::id(&p.path),
                escape(&crate::profiles::name(p)),
            ));
        }
        self.html
            .replace("<!--PROFILES-HIDDEN-->", "")
            .replace("<!--PROFILES-->\n", &options)
    }

    pub(crate) fn new() -> Page {
        let mut options = String::new();
        for f in markport::writable().filter(|f| f.directory().is_none()) {
            let selected = if f.name == "netscape" {
                " selected"
            } else {
                ""
            };
            options.push_str(&format!(
                "<option value=\"{}\"{selected}>{} — {}</option>\n",
                escape(f.name),
                escape(f.name),
                escape(f.description)
            ));
        }
        let mut destinations = String::new();
        for d in markport::destination_names().filter_map(markport::destination) {
            destinations.push_str(&format!(
                "<option value=\"{}\">{}</option>\n",
                escape(d.name),
                escape(d.label)
            ));
        }
        let html = HTML
            .replace("<!--FORMATS-->", &options)
            .replace("<!--DESTINATIONS-->", &destinations)
            .replace("<!--VERSION-->", env!("CARGO_PKG_VERSION"))
            .replace("/*STYLE*/", STYLE)
            .replace("/*SCRIPT*/", SCRIPT);
        // No default source: only what is named loads. The form posts to
        // this server only; no page may frame this one.
        let policy = format!(
            "default-src 'none'; script-src {}; style-src {}; connect-src 'self'; \
             img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            hash(SCRIPT),
            hash(STYLE)
        );
        Page { html, policy }
    }
}
