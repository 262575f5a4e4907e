//! The JSON model format: the model itself, for scripts (`jq`) and tests.
//!
//! The tree is a flat list of nodes in document order; each names its folder
//! by index (`"parent": 0`), so any depth reads and writes without recursion.
//! See `docs/formats/json.md`.

use std::cell::RefCell;
use std::io::Write;

use serde::{Deserialize, Serialize};

use markport_model::budget::{bookmark_cost, FOLDER_COST, NODE_COST};
use markport_model::{
    Budget, Diagnostic, Document, Error, ErrorKind, Field, Header, Holder, Location, LossReport,
    Metadata, Node, NodeId, Parsed, ReadOptions, Scope, Support, Value, WriteOptions,
};

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct JsonDoc<H, N> {
    markport: u32,
    /// The document's own fields, each under its own name (`H = &Header`
    /// when writing, so nothing is copied).
    #[serde(flatten)]
    header: H,
    #[serde(default)]
    nodes: N,
}

/// A node as read, or (`N = &Node`) as written without copying it.
#[derive(Serialize, Deserialize)]
struct JsonNode<N> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parent: Option<usize>,
    #[serde(flatten)]
    node: N,
}

/// The nodes of a document in document order, serialized as they are
/// visited: writing needs no second copy of the tree.
struct Nodes<'a>(&'a Document);

impl Serialize for Nodes<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let doc = self.0;
        let mut index = vec![usize::MAX; doc.len()];
        let mut next = 0;
        s.collect_seq(doc.preorder().map(|id| {
            index[id.index()] = next;
            next += 1;
            JsonNode {
                parent: doc.parent(id).map(|p| index[p.index()]),
                node: doc.node(id),
            }
        }))
    }
}

/// Whether `input` looks like markport JSON: an object with a `markport`
/// key (the version). markport writes it first, but a tool that sorts or
/// reorders keys (`jq -S`) may put it after `nodes`, so both ends are
/// looked at (the first and last 64 KiB, [`markport_markup::sniff`]).
pub fn detect(input: &[u8]) -> Option<u8> {
    use markport_markup::sniff::{either_end, first_byte, has_key};
    (first_byte(input)? == b'{' && either_end(input, |w| has_key(w, "markport"))).then_some(90)
}

thread_local! {
    /// The budget of the read running on this thread, and the refusal it
    /// made: serde gives a node list's visitor no other way in or out.
    static BUDGET: RefCell<(Option<Budget>, Option<Error>)> = const { RefCell::new((None, None)) };
}

/// The read's budget on this thread until dropped.
struct Budgeted;

impl Budgeted {
    fn start(budget: Budget) -> Budgeted {
        BUDGET.with(|b| *b.borrow_mut() = (Some(budget), None));
        Budgeted
    }

    /// The refusal the budget made, if it made one.
    fn refusal(&self) -> Option<Error> {
        BUDGET.with(|b| b.borrow_mut().1.take())
    }
}

impl Drop for Budgeted {
    fn drop(&mut self) {
        BUDGET.with(|b| *b.borrow_mut() = (None, None));
    }
}

/// The nodes as read, each charged against the read's budget as it is
/// deserialized: a node of twenty bytes of JSON is a few hundred in the
/// model, so a list of tiny nodes is refused before it is all in memory.
#[derive(Default)]
struct Charged(Vec<JsonNode<Node>>);

impl<'de> Deserialize<'de> for Charged {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Charged, D::Error> {
        struct Nodes;
        impl<'de> serde::de::Visitor<'de> for Nodes {
            type Value = Charged;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of nodes")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Charged, A::Error> {
                let mut nodes = Vec::new();
                while let Some(n) = seq.next_element::<JsonNode<Node>>()? {
                    let cost = match &n.node {
                        Node::Bookmark(b) => bookmark_cost(b),
                        Node::Folder(f) => {
                            FOLDER_COST as usize + f.title.as_ref().map_or(0, String::len)
                        }
                        _ => NODE_COST as usize,
                    };
                    // Twice: the list read here, and the document made of it.
                    let refused = BUDGET.with(|b| {
                        let mut b = b.borrow_mut();
                        let e = b.0.as_mut()?.charge(2 * cost).err()?;
                        let message = e.message.clone();
                        b.1 = Some(e);
                        Some(message)
                    });
                    if let Some(message) = refused {
                        return Err(serde::de::Error::custom(message));
                    }
                    nodes.push(n);
                }
                Ok(Charged(nodes))
            }
        }
        d.deserialize_seq(Nodes)
    }
}

/// Read markport JSON.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let budget = Budgeted::start(Budget::new(opts, input.len()));
    let parsed: JsonDoc<Header, Charged> = serde_json::from_slice(input).map_err(|e| {
        let kind = if e.is_syntax() || e.is_eof() {
            ErrorKind::Syntax
        } else {
            ErrorKind::Invalid
        };
        let location = (e.line() > 0).then(|| Location {
            line: e.line() as u32,
            column: e.column() as u32,
        });
        match budget.refusal() {
            Some(mut refused) => {
                refused.location = location;
                refused
            }
            None => Error::new(kind, format!("markport JSON: {e}"), location),
        }
    })?;
    drop(budget);
    if parsed.markport != VERSION {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "markport JSON version {} is not supported (this build reads version {VERSION})",
                parsed.markport
            ),
            None,
        ));
    }
    check_metadata("metadata", &parsed.header.metadata)?;
    let mut doc = Document::new();
    doc.header = parsed.header;
    let mut ids: Vec<NodeId> = Vec::with_capacity(parsed.nodes.0.len());
    for (i, n) in parsed.nodes.0.into_iter().enumerate() {
        // The node's metadata field, whichever kind it is.
        let holder = Holder::from(&n.node);
        let blocks: &[Metadata] = Field::of(holder.scope())
            .find_map(|f| match f.get(holder) {
                Some(Value::Metadata(m)) => Some(m),
                _ => None,
            })
            .unwrap_or(&[]);
        check_metadata(&format!("nodes[{i}].metadata"), blocks)?;
        let parent = match n.parent {
            None => None,
            Some(p) if p < i && matches!(doc.node(ids[p]), Node::Folder(_)) => Some(ids[p]),
            Some(p) => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!("nodes[{i}].parent is {p}: a parent must be a folder listed before its children"),
                    None,
                ))
            }
        };
        ids.push(doc.push(parent, n.node));
    }
    Ok(Parsed::new(doc, unknown_members(input)))
}

/// Every member of the input markport has no field for, as a warning: serde
/// skips unknown members, and a member skipped in silence is data lost
/// without a word (`"children": [...]` from a hand-written file, a field of
/// a newer markport). The known members are the field table's names, so a
/// field added to the model is known here without a change.
fn unknown_members(input: &[u8]) -> Vec<Diagnostic> {
    use std::borrow::Cow;
    use std::collections::HashMap;

    use serde::de::IgnoredAny;

    #[derive(Deserialize)]
    struct NodeShape<'a> {
        #[serde(rename = "type", borrow)]
        kind: Option<Cow<'a, str>>,
        #[serde(flatten, borrow)]
        members: HashMap<Cow<'a, str>, IgnoredAny>,
    }
    #[derive(Deserialize)]
    struct Shape<'a> {
        #[serde(default, borrow)]
        nodes: Vec<NodeShape<'a>>,
        #[serde(flatten, borrow)]
        top: HashMap<Cow<'a, str>, IgnoredAny>,
    }
    // The document was read already: this second pass cannot fail where
    // the first did not, and a failure here only means no warnings.
    let Ok(shape) = serde_json::from_slice::<Shape>(input) else {
        return Vec::new();
    };
    let key = |f: Field| f.name().split_once('.').map(|(_, k)| k.replace('-', "_"));
    let known = |scope: Scope| -> Vec<String> { Field::of(scope).filter_map(key).collect() };
    let header = known(Scope::Document);
    let mut alias = known(Scope::Alias);
    alias.push("target".into());
    let kinds = [
        ("bookmark", known(Scope::Bookmark)),
        ("folder", known(Scope::Folder)),
        ("separator", known(Scope::Separator)),
        ("alias", alias),
    ];
    let mut out = Vec::new();
    let mut warn = |what: String| {
        out.push(Diagnostic::warning(
            format!("markport JSON: {what} is not a field markport knows; ignored"),
            None,
        ))
    };
    let sorted = |m: &HashMap<Cow<str>, IgnoredAny>| {
        let mut keys: Vec<String> = m.keys().map(|k| k.to_string()).collect();
        keys.sort();
        keys
    };
    for k in sorted(&shape.top) {
        if k != "markport" && !header.contains(&k) {
            warn(format!("the member {k:?}"));
        }
    }
    for (i, node) in shape.nodes.iter().enumerate() {
        let Some((_, fields)) = kinds.iter().find(|(t, _)| node.kind.as_deref() == Some(*t)) else {
            continue;
        };
        for k in sorted(&node.members) {
            if k != "parent" && !fields.contains(&k) {
                warn(format!("nodes[{i}].{k}"));
            }
        }
    }
    out
}

/// A metadata block's `xml` is written into XBEL as it is, so it must be
/// well-formed, balanced XML content: anything else could close the block
/// and inject elements, or make a file no XBEL reader accepts. The check is
/// the XBEL crate's; built without the `xbel` feature there is no XBEL
/// writer to inject into, and the block is kept as it came.
#[cfg(feature = "xbel")]
fn check_metadata(what: &str, blocks: &[Metadata]) -> Result<(), Error> {
    for (j, m) in blocks.iter().enumerate() {
        if let Err(why) = markport_xbel::check_metadata_content(&m.xml, &m.namespaces) {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("markport JSON: {what}[{j}].xml is not well-formed XML content: {why}"),
                None,
            ));
        }
    }
    Ok(())
}

#[cfg(not(feature = "xbel"))]
fn check_metadata(_: &str, _: &[Metadata]) -> Result<(), Error> {
    Ok(())
}

/// Write markport JSON (pretty-printed, one node per object, document order).
pub fn write(
    doc: &Document,
    _opts: &WriteOptions,
    out: &mut dyn Write,
) -> Result<LossReport, Error> {
    let json = JsonDoc {
        markport: VERSION,
        header: &doc.header,
        nodes: Nodes(doc),
    };
    serde_json::to_writer_pretty(&mut *out, &json)
        .map_err(|e| Error::new(ErrorKind::Io, e.to_string(), None))?;
    out.write_all(b"\n")?;
    Ok(LossReport::new())
}

/// JSON carries every field.
pub fn support(_field: Field) -> Support {
    Support::Full
}

/// markport's JSON form of the model, as the registry lists it.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "json",
    "markport's JSON form of the model (lossless, for scripts)",
    &["json"],
    detect,
    read,
)
.writes(write, support);

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` separators, twenty bytes of JSON each.
    fn separators(n: usize) -> Vec<u8> {
        let mut out = String::from(r#"{"markport": 1, "nodes": ["#);
        for i in 0..n {
            out.push_str(if i == 0 { "" } else { "," });
            out.push_str(r#"{"type":"separator"}"#);
        }
        out.push_str("]}");
        out.into_bytes()
    }

    #[test]
    fn a_list_of_tiny_nodes_is_refused_past_the_budget_where_it_passes() {
        let file = separators(2_000);
        let doc = read(&file, &ReadOptions::default()).unwrap().document;
        assert_eq!(doc.len(), 2_000);
        let mut small = ReadOptions::default();
        small.memory_budget = Some(200_000);
        let e = read(&file, &small).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsafe, "{e}");
        assert!(e.message.contains("--memory-budget"), "{}", e.message);
        let at = e.location.expect("where it passed");
        assert_eq!(at.line, 1);
        assert!(
            at.column > 20 && (at.column as usize) < file.len() / 2,
            "{at:?}"
        );
        // The budget is the read's only: the next read on the thread has its own.
        assert!(read(&file, &ReadOptions::default()).is_ok());
    }

    #[test]
    fn members_markport_does_not_know_are_warned_not_dropped_in_silence() {
        let input = br#"{"markport": 1, "title": "t", "colour": "red", "nodes": [
            {"type": "folder", "title": "F", "children": [{"type": "bookmark", "href": "x"}]},
            {"type": "bookmark", "parent": 0, "href": "https://a/", "tags": [], "guid": "g", "rating": 5},
            {"type": "alias", "target": "b1"}]}"#;
        let read = read(input, &ReadOptions::default()).unwrap();
        let said: Vec<&str> = read
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            said,
            [
                "markport JSON: the member \"colour\" is not a field markport knows; ignored",
                "markport JSON: nodes[0].children is not a field markport knows; ignored",
                "markport JSON: nodes[1].rating is not a field markport knows; ignored",
            ]
        );
        // What markport writes, it reads without a word.
        let mut out = Vec::new();
        write(&read.document, &WriteOptions::default(), &mut out).unwrap();
        assert!(super::read(&out, &ReadOptions::default())
            .unwrap()
            .diagnostics
            .is_empty());
    }

    const INJECTION: &str = r#"</metadata></info></bookmark><bookmark href="https://evil.example/"><info><metadata owner="x">"#;

    fn with_block(xml: &str) -> String {
        serde_json::json!({
            "markport": 1,
            "nodes": [{"type": "bookmark", "href": "https://a.example/",
                       "metadata": [{"owner": "o", "xml": xml}]}]
        })
        .to_string()
    }

    #[test]
    #[cfg(feature = "xbel")]
    fn metadata_xml_that_is_not_well_formed_content_is_an_error() {
        let ok = read(with_block("<k>v</k>").as_bytes(), &ReadOptions::default());
        assert!(ok.is_ok(), "{:?}", ok.err());
        for bad in [INJECTION, "<a><b></a>", "a & b"] {
            let e = read(with_block(bad).as_bytes(), &ReadOptions::default())
                .err()
                .unwrap_or_else(|| panic!("{bad} is refused"));
            assert!(e.to_string().contains("nodes[0].metadata[0].xml"), "{e}");
        }
        let header = r#"{"markport":1,"metadata":[{"owner":"o","xml":"<a>"}]}"#;
        assert!(read(header.as_bytes(), &ReadOptions::default()).is_err());
    }

    #[test]
    #[cfg(feature = "xbel")]
    fn the_xbel_writer_leaves_out_and_reports_a_block_it_cannot_write() {
        for bad in [INJECTION, "<a><b></a>"] {
            let mut doc = Document::new();
            let mut b = markport_model::Bookmark::new("https://a.example/");
            b.details_mut().metadata.push(Metadata::new("o", bad));
            doc.push(None, b);
            let mut out = Vec::new();
            let loss = markport_xbel::write(&doc, &WriteOptions::default(), &mut out).unwrap();
            assert_eq!(
                loss.fields().into_iter().collect::<Vec<_>>(),
                [Field::BookmarkMetadata]
            );
            let back = markport_xbel::read(&out, &ReadOptions::default()).unwrap();
            assert_eq!(back.document.len(), 1, "{}", String::from_utf8_lossy(&out));
        }
    }
}
