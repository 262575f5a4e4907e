//! The two values behind each difference [`diff`](crate::diff) finds: what
//! `markport diff --values` shows. Values are given as in the JSON model
//! (docs/formats/json.md), so a date keeps its written form.

use serde::Serialize;
use serde_json::Value;

use markport_model::{Difference, Document, NodeId};

/// One differing field on one node: its value in each document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Values {
    /// The node's path in the first document; none for a field of the
    /// document itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The value in the first document (`null`: not set). For a field that
    /// is a node's presence or place (`bookmark`, `folder`, ...): its path.
    pub left: Value,
    /// The value in the second document, likewise.
    pub right: Value,
    /// Whether the node is one only the second document has; `path` is
    /// then its path there, and `left` is `null`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub only_second: bool,
}

/// The values behind `d`, a difference between `a` and `b` as
/// [`diff`](crate::diff)`(a, b)` found it: one entry for a document field,
/// else one for each node in `d.paths`, then one for each node only the
/// second document has (`d.only_second`).
///
/// ```
/// use markport::{diff, format, read_bytes, values, ReadOptions};
///
/// let xbel = format("xbel").unwrap();
/// let open = |s: &str| read_bytes(s.as_bytes(), xbel, &ReadOptions::default()).unwrap().document;
/// let a = open(r#"<xbel version="1.0"><bookmark href="https://a.example/"><title>A</title></bookmark></xbel>"#);
/// let b = open(r#"<xbel version="1.0"><bookmark href="https://a.example/"><title>B</title></bookmark></xbel>"#);
/// let d = diff(&a, &b);
/// let v = values(&a, &b, &d.differences[0]);
/// assert_eq!((v[0].left.as_str(), v[0].right.as_str()), (Some("A"), Some("B")));
/// ```
pub fn values(a: &Document, b: &Document, d: &Difference) -> Vec<Values> {
    // A date's written form is shown through the date itself.
    let field = d.field.date_of_form().unwrap_or(d.field);
    let (kind, key) = match field.name().split_once('.') {
        Some((kind, key)) => (kind, Some(key.replace('-', "_"))),
        None => (field.name(), None),
    };
    if kind == "document" {
        let key = key.unwrap_or_default();
        return vec![Values {
            path: None,
            left: header(a).remove(&key).unwrap_or(Value::Null),
            right: header(b).remove(&key).unwrap_or(Value::Null),
            only_second: false,
        }];
    }
    let value = |doc: &Document, id: NodeId| match &key {
        Some(key) => serde_json::to_value(doc.node(id))
            .ok()
            .and_then(|mut v| v.get_mut(key.as_str()).map(Value::take))
            .unwrap_or(Value::Null),
        None => Value::String(doc.path(id)),
    };
    let first = d.nodes.iter().map(|&(x, y)| Values {
        path: Some(a.path(x)),
        left: value(a, x),
        right: y.map_or(Value::Null, |y| value(b, y)),
        only_second: false,
    });
    let second = d.second_nodes.iter().map(|&y| Values {
        path: Some(b.path(y)),
        left: Value::Null,
        right: value(b, y),
        only_second: true,
    });
    first.chain(second).collect()
}

/// The document's own fields as the JSON model spells them; unset ones left out.
fn header(doc: &Document) -> serde_json::Map<String, Value> {
    match serde_json::to_value(&doc.header) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{diff, format, Field, ReadOptions};

    fn xbel(s: &str) -> Document {
        crate::read_bytes(
            s.as_bytes(),
            format("xbel").unwrap(),
            &ReadOptions::default(),
        )
        .unwrap()
        .document
    }

    #[test]
    fn each_kind_of_field_shows_its_two_values() {
        let a = xbel(
            r#"<xbel version="1.0"><title>Mine</title><folder><title>News</title>
            <bookmark href="https://bbc.co.uk/" added="2024-01-02"><title>BBC</title></bookmark>
            <bookmark href="https://gone.example/"/></folder></xbel>"#,
        );
        let b = xbel(
            r#"<xbel version="1.0"><folder><title>News</title>
            <bookmark href="https://bbc.co.uk/" added="2024-01-02T00:00:00Z"><title>BBC</title></bookmark>
            </folder></xbel>"#,
        );
        let d = diff(&a, &b);
        let of = |f: Field| {
            let x = d.differences.iter().find(|x| x.field == f).unwrap();
            values(&a, &b, x)
        };
        let title = of(Field::DocumentTitle);
        assert_eq!(
            (title[0].left.as_str(), &title[0].right),
            (Some("Mine"), &Value::Null)
        );
        let form = of(Field::BookmarkAddedForm);
        assert_eq!(form[0].path.as_deref(), Some("News/BBC"));
        assert_eq!(
            (form[0].left.as_str(), form[0].right.as_str()),
            (Some("2024-01-02"), Some("2024-01-02T00:00:00Z"))
        );
        let gone = of(Field::Bookmark);
        assert_eq!(gone[0].right, Value::Null);
        assert!(gone[0].left.as_str().unwrap().contains("gone.example"));
    }
}
