//! The document's own fields, apart from its tree.

use serde::{Deserialize, Serialize};

use crate::node::{Attribute, Metadata};
use crate::time::DateValue;

/// A collection's own fields: its title, description, dates and what
/// markport keeps without interpreting. In JSON, the top-level object's
/// members of the same names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Header {
    /// XBEL `xbel/title`; desktop `xbel/title`; Netscape `TITLE` (and `H1`);
    /// xFolk the page `title`/`h1`.
    ///
    /// In every format: [`document.title`](crate::mapping#documenttitle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// XBEL `xbel/desc`; desktop `xbel/desc`; Netscape the `DD` after `H1`;
    /// xFolk the intro paragraph.
    ///
    /// In every format: [`document.desc`](crate::mapping#documentdesc).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// XBEL `xbel/@id`.
    ///
    /// In every format: [`document.id`](crate::mapping#documentid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// XBEL `xbel/@added`; Netscape `H1 ADD_DATE`.
    ///
    /// In every format: [`document.added`](crate::mapping#documentadded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added: Option<DateValue>,
    /// XBEL: markport block; Netscape `H1 LAST_MODIFIED`.
    ///
    /// In every format: [`document.modified`](crate::mapping#documentmodified).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<DateValue>,
    /// Root `<info><metadata>` blocks of owners markport does not interpret.
    ///
    /// In every format: [`document.metadata`](crate::mapping#documentmetadata).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub metadata: Vec<Metadata>,
    /// Header attributes markport has no field for (Netscape `H1` attributes).
    ///
    /// In every format: [`document.extra`](crate::mapping#documentextra).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Attribute>,
    /// Comments at the top of the file, in order, each as its text between
    /// `<!--` and `-->`. Floccus keeps its sync state in one
    /// (`<!--- highestId :105: ... -->`). XBEL: comments before the root
    /// element and directly inside it before the first bookmark, folder,
    /// separator or alias (written back right after `<xbel>`; one containing
    /// `--` or ending in `-` cannot be and is reported); JSON `comments`;
    /// desktop, Netscape, xFolk: none (reported lost).
    ///
    /// In every format: [`document.comments`](crate::mapping#documentcomments).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
}

impl Header {
    /// A header with nothing set.
    pub fn new() -> Header {
        Header::default()
    }

    /// The same header with a title.
    pub fn with_title(mut self, title: impl Into<String>) -> Header {
        self.title = Some(title.into());
        self
    }

    /// Floccus' sync comment (`- highestId :105: for Floccus bookmark sync
    /// browser extension `): its index in [`Header::comments`] and the
    /// highest id it records. A file with it is one Floccus syncs, whose
    /// items Floccus finds again by their numeric ids (floccus#1426).
    ///
    /// ```
    /// let mut h = markport_model::Header::new();
    /// h.comments.push(" exported ".into());
    /// h.comments.push("- highestId :105: for Floccus bookmark sync browser extension ".into());
    /// assert_eq!(h.floccus_highest_id(), Some((1, 105)));
    /// ```
    pub fn floccus_highest_id(&self) -> Option<(usize, u64)> {
        self.comments.iter().enumerate().find_map(|(i, c)| {
            let rest = &c[c.find(FLOCCUS_MARK)? + FLOCCUS_MARK.len()..];
            let digits = &rest[..rest.find(':')?];
            Some((i, digits.trim().parse().ok()?))
        })
    }
}

/// What precedes the number in Floccus' sync comment.
const FLOCCUS_MARK: &str = "highestId :";
