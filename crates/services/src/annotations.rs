//! Pocket's `annotations/part_*.json`: the highlights a person made, beside
//! the CSV parts of the export ZIP. Each file is an array of the articles
//! that have highlights, `{"url", "title", "highlights": [{"quote",
//! "created_at"}]}`; the quotes of an article become the description of
//! the bookmarks with that URL, one paragraph each, in order. What does not
//! fit (an article no part lists, a file of another layout, the
//! highlights' dates) is reported, never dropped silently.

use std::collections::HashMap;

use markport_model::{Budget, Diagnostic, Document, Error, NodeId};
use serde_json::Value;

/// Read one annotations file `name` and set the descriptions of the
/// bookmarks in `by_url`. Every copy of an article's highlights is charged
/// to `budget` before it is made: one article listed in 50,000 rows gets
/// 50,000 copies, and its highlights may be a megabyte; past the budget the
/// read stops with its error, naming the file and the article.
pub(crate) fn apply(
    name: &str,
    bytes: &[u8],
    by_url: &HashMap<String, Vec<NodeId>>,
    doc: &mut Document,
    budget: &mut Budget,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), Error> {
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
            warn(
                diags,
                format!(
                    "{}:{}: not JSON ({e}); its highlights are not read",
                    e.line(),
                    e.column()
                ),
            );
            return Ok(());
        }
    };
    let Some(articles) = value.as_array() else {
        warn(
            diags,
            "not an array of articles with highlights; not read".to_string(),
        );
        return Ok(());
    };
    let (mut unmatched, mut odd, mut dated) = (0usize, 0usize, 0usize);
    for (number, article) in articles.iter().enumerate() {
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
            budget.charge(text.len() + 2).map_err(|mut e| {
                e.message = format!(
                    "ZIP entry {name}: article {} ({url}): its highlights ({} bytes) copied \
                     to each of the {} bookmarks of its URL: {}",
                    number + 1,
                    text.len(),
                    ids.len(),
                    e.message
                );
                e
            })?;
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
    Ok(())
}
