//! Choosing a format: by name, by content, by a file's extension. One policy
//! for every program built on markport, so they agree on what a file is.

use std::path::Path;

use markport_model::{Error, ErrorKind};

use crate::registry::{
    detect, format, formats_for_extension, names, writable_names, Format, DIRECTORY_FORMATS,
};

/// How [`resolve_format`] chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chosen {
    /// The caller named it (`--from`, `--to`).
    Named,
    /// The content looked like it.
    Content,
    /// The file's extension, which only this format claims.
    Extension,
    /// The file's extension, which other formats claim too: this one is the
    /// usual meaning, the others are listed so a program can say so.
    Preferred {
        /// The other formats that write this extension.
        others: Vec<&'static str>,
    },
}

/// A chosen format and why.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The format.
    pub format: &'static Format,
    /// Why it was chosen.
    pub chosen: Chosen,
}

impl Resolved {
    /// A sentence for people when the choice was not obvious, e.g. which
    /// format an ambiguous extension was taken to mean.
    pub fn note(&self) -> Option<String> {
        match &self.chosen {
            Chosen::Preferred { others } => Some(format!(
                "writing {} (the usual meaning of this extension; for {} say --to {})",
                self.format.name,
                others.join(" or "),
                others[0]
            )),
            _ => None,
        }
    }
}

/// Choose a format.
///
/// - `name` (what `--from`/`--to` gave) wins when present; an unknown name
///   is an error that lists the known ones.
/// - With `content` (an input), the most confident detector wins; failing
///   that, an extension only one format claims. An input `path` that is a
///   directory is asked of the formats whose collection is a directory
///   ([`DIRECTORY_FORMATS`]: a favorites tree), whatever `content` says.
/// - Without `content` (an output), the extension decides: the first
///   registered format that claims it, with [`Chosen::Preferred`] naming the
///   others (`.html` is Netscape bookmark HTML; xFolk pages are asked for).
///   Only formats markport writes count for an output: a read-only name is
///   an error that lists the writable ones.
///
/// ```
/// use std::path::Path;
/// use markport::{resolve_format, Chosen};
///
/// let out = resolve_format(None, Some(Path::new("page.html")), None).unwrap();
/// assert_eq!(out.format.name, "netscape");
/// assert_eq!(out.chosen, Chosen::Preferred { others: vec!["xfolk"] });
///
/// let input = resolve_format(None, Some(Path::new("x.txt")), Some(b"<xbel version=\"1.0\"/>")).unwrap();
/// assert_eq!((input.format.name, input.chosen), ("xbel", Chosen::Content));
/// ```
pub fn resolve_format(
    name: Option<&str>,
    path: Option<&Path>,
    content: Option<&[u8]>,
) -> Result<Resolved, Error> {
    let unclear = |message: String| Error::new(ErrorKind::WrongFormat, message, None);
    let output = content.is_none();
    let choices = || if output { writable_names() } else { names() };
    if let Some(name) = name {
        let format = format(name).ok_or_else(|| {
            unclear(format!(
                "unknown format {name:?}; choose one of: {}",
                choices()
            ))
        })?;
        if output {
            format.writer()?;
        }
        return Ok(Resolved {
            format,
            chosen: Chosen::Named,
        });
    }
    if let Some(dir) = path.filter(|p| !output && p.is_dir()) {
        let best = DIRECTORY_FORMATS
            .iter()
            .filter_map(|d| (d.detect)(dir).map(|score| (d, score)))
            .max_by_key(|(_, score)| *score)
            .and_then(|(d, _)| format(d.name));
        return best
            .map(|format| Resolved {
                format,
                chosen: Chosen::Content,
            })
            .ok_or_else(|| {
                unclear(format!(
                    "{} is a directory, and no format reads it",
                    dir.display()
                ))
            });
    }
    if let Some(bytes) = content {
        if let Some(format) = detect(bytes) {
            return Ok(Resolved {
                format,
                chosen: Chosen::Content,
            });
        }
    }
    let ext = path.and_then(|p| p.extension()).and_then(|e| e.to_str());
    let mut claimed = ext.map(formats_for_extension).unwrap_or_default();
    if output {
        claimed.retain(|f| f.writable());
    }
    match (claimed.as_slice(), content.is_some()) {
        ([one], _) => Ok(Resolved {
            format: one,
            chosen: Chosen::Extension,
        }),
        ([first, rest @ ..], false) => Ok(Resolved {
            format: first,
            chosen: Chosen::Preferred {
                others: rest.iter().map(|f| f.name).collect(),
            },
        }),
        (_, true) => Err(unclear(format!(
            "cannot tell what format this is; say which (one of: {})",
            choices()
        ))),
        ([], false) => Err(unclear(match ext {
            Some(ext) => format!(
                "no format writes .{ext} files; say which (one of: {})",
                choices()
            ),
            None => format!("say which format to write (one of: {})", choices()),
        })),
    }
}
