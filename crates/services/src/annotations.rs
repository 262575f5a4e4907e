//! Pocket's `annotations/part_*.json`: the highlights a person made, beside
//! the CSV parts of the export ZIP. Each file is an array of the articles
//! that have highlights, `{"url", "title", "highlights": [{"quote",
//! "created_at"}]}`; the quotes of an article become the description of
//! the bookmarks with that URL, one paragraph each, in order. What does not
//! fit (an article no part lists, a file of another layout, the
//! highlights' dates) is reported, never dropped silently.

use std::collections::HashMap;

use markport_model::{Diagnostic, Document, NodeId};
use serde_json::Value;

/// Read one annotations file `name` and set the descriptions of the
/// bookmarks in `by_url`.
pub(crate) fn apply(
    name: &str,
    bytes: &[u8],
    by_url: &HashMap<String, Vec<NodeId>>,
    doc: &mut Document,
    diags: &mut Vec<Diagnostic>,
) {
    let warn = |diags: &mut Vec<Diagnostic>, message: String| {
        diags.push(Diagnostic::warning(
            format!("ZIP entry {name}: {message}"),
            None,
        ))
    };
    // serde_json stops at 128 levels of nesting, so a hostile file costs no
    // deep recursion.
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            return warn(
                diags,
                format!(
                    "{}:{}: not JSON ({e}); its highlights are not read",
                    e.line(),
                    e.column()
                ),
            )
        }
    };
    let Some(articles) = value.as_array() else {
        return warn(
            diags,
            "not an array of articles with highlights; not read".to_string(),
        );
    };
    let (mut unmatched, mut odd, mut dated) = (0usize, 0usize, 0usize);
    for article in articles {
        let (Some(url), Some(highlights)) = (
            article.get("url").and_then(Value::as_str),
            article.get("highlights").and_then(Value::as_array),
        ) else {
            odd += 1;
            continue;
        };
        let quotes: Vec<&str> = highlights
            .iter()
            .filter_map(|h| h.get("quote").and_then(Value::as_str))
            .filter(|q| !q.trim().is_empty())
            .collect();
        dated += highlights
            .iter()
            .filter(|h| h.get("created_at").is_some())
            .count();
        if quotes.is_empty() {
            continue;
        }
        let Some(ids) = by_url.get(url) else {
            unmatched += 1;
            continue;
        };
        let text = quotes.join("\n\n");
        for id in ids {
            if let Some(b) = doc.node_mut(*id).as_bookmark_mut() {
                b.desc = Some(match b.desc.take() {
                    Some(d) => format!("{d}\n\n{text}"),
                    None => text.clone(),
                });
            }
        }
    }
    if unmatched > 0 {
        warn(
            diags,
            format!(
                "highlights of {unmatched} article{} whose URL no part lists are not kept",
                if unmatched == 1 { "" } else { "s" }
            ),
        );
    }
    if odd > 0 {
        warn(
            diags,
            format!(
                "{odd} item{} without a url and highlights not read",
                if odd == 1 { "" } else { "s" }
            ),
        );
    }
    if dated > 0 {
        warn(
            diags,
            format!(
                "the dates of {dated} highlight{} are not kept",
                if dated == 1 { "" } else { "s" }
            ),
        );
    }
}
