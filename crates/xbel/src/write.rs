//! The XBEL writer: UTF-8, declaration, DOCTYPE, two-space indent.

use std::collections::HashSet;
use std::io::Write;

use markport_model::{
    bookmark_fields, document_fields, folder_fields, separator_fields, Bookmark, DateValue,
    Document, Error, Field, Folder, LossReport, Metadata, Node, NodeId, Scope, Step, WriteOptions,
};

use crate::blocks::{self, BlockWriter};
use crate::xmltext::{has_unwritable, is_name, push_attr, push_text};
use crate::{BOOKMARK_NS, MARKPORT_OWNER, MIME_NS};

const DOCTYPE: &str = "<!DOCTYPE xbel PUBLIC \"+//IDN python.org//DTD XML Bookmark Exchange Language 1.0//EN//XML\" \"http://pyxml.sourceforge.net/topics/dtds/xbel-1.0.dtd\">\n";

/// The fields XBEL 1.0 has elements or attributes for.
const STRICT_NATIVE: &[Field] = &[
    Field::DocumentTitle,
    Field::DocumentDesc,
    Field::DocumentId,
    Field::DocumentAdded,
    Field::BookmarkHref,
    Field::BookmarkTitle,
    Field::BookmarkDesc,
    Field::BookmarkId,
    Field::BookmarkAdded,
    Field::BookmarkModified,
    Field::BookmarkVisited,
    Field::FolderTitle,
    Field::FolderDesc,
    Field::FolderId,
    Field::FolderAdded,
    Field::FolderFolded,
];

const STRICT_WHY: &str = "--xbel-strict: XBEL 1.0 has no element for it";

/// Fields XBEL 1.0 has no element for that still go where other readers
/// look: the freedesktop block (GLib, KDE), foreign blocks (their owners)
/// and comments. Every other such field is in markport's block only.
const READ_BY_OTHERS: &[Field] = &[
    Field::DocumentMetadata,
    Field::DocumentComments,
    Field::BookmarkMimeType,
    Field::BookmarkGroups,
    Field::BookmarkApplications,
    Field::BookmarkDesktopIcon,
    Field::BookmarkPrivate,
    Field::BookmarkMetadata,
    Field::FolderMetadata,
    Field::SeparatorMetadata,
];

const EXTENSION_WHY: &str = "carried only in markport's block, which other XBEL readers ignore";

/// Flush to the output whenever this much is buffered.
const CHUNK: usize = 1 << 16;

struct Writer<'a> {
    doc: &'a Document,
    strict: bool,
    s: String,
    loss: LossReport,
    /// Strict mode: the nodes whose id is written.
    keep_ids: HashSet<NodeId>,
    /// Strict mode: the ids written, which aliases may refer to.
    valid_targets: HashSet<&'a str>,
}

impl<'a> Writer<'a> {
    /// Record a loss for each field holding characters XML cannot carry.
    /// In strict mode only the fields strict output writes are checked (the
    /// others are reported as not carried at all).
    fn check_node(&mut self, node: Option<NodeId>, strings: Strings<'_>) {
        for (field, values) in strings {
            if self.strict && !STRICT_NATIVE.contains(&field) {
                continue;
            }
            if values.into_iter().any(has_unwritable) {
                self.record_unwritable(node, field);
            }
        }
    }

    /// Report foreign blocks left out because their owner is one markport interprets.
    fn check_reserved(
        &mut self,
        node: Option<NodeId>,
        field: Field,
        blocks: &[Metadata],
        freedesktop: bool,
    ) {
        let reserved = |m: &Metadata| {
            m.owner == MARKPORT_OWNER || (freedesktop && m.owner == crate::FREEDESKTOP_OWNER)
        };
        if !self.strict && blocks.iter().any(reserved) {
            self.loss.record(
                self.doc,
                node,
                field,
                "a raw metadata block cannot use an owner markport reads as typed fields",
            );
        }
        if blocks.iter().any(|m| !content_writable(m)) {
            self.loss.record(
                self.doc,
                node,
                field,
                "a metadata block whose content is not well-formed, balanced XML is left out",
            );
        }
    }

    fn record_unwritable(&mut self, node: Option<NodeId>, field: Field) {
        self.loss.record(
            self.doc,
            node,
            field,
            "XML 1.0 cannot carry control characters U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+FFFE, U+FFFF",
        );
    }

    fn element(&mut self, pad: &str, name: &str, text: Option<&str>) {
        if let Some(t) = text {
            self.s.push_str(pad);
            self.s.push('<');
            self.s.push_str(name);
            self.s.push('>');
            push_text(&mut self.s, t);
            self.s.push_str("</");
            self.s.push_str(name);
            self.s.push_str(">\n");
        }
    }

    fn attr(&mut self, name: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.s.push(' ');
            self.s.push_str(name);
            self.s.push_str("=\"");
            push_attr(&mut self.s, v);
            self.s.push('"');
        }
    }

    fn date_attr(&mut self, name: &str, value: Option<&DateValue>) {
        let text = value.map(|d| match d {
            DateValue::Instant(t) => t.to_w3c(),
            DateValue::Raw(r) => r.to_string(),
        });
        self.attr(name, text.as_deref());
    }

    /// The id to write: in strict mode only an XML Name not used before.
    fn id(&mut self, node: NodeId, field: Field, id: Option<&'a str>) -> Option<&'a str> {
        let id_text = id?;
        if self.strict && !self.keep_ids.contains(&node) {
            let id = id_text;
            let why = if is_name(id) {
                "--xbel-strict: ids must be unique"
            } else {
                "--xbel-strict: an XBEL id must be an XML Name (a letter or _ first, no spaces)"
            };
            self.loss.record(self.doc, Some(node), field, why);
            return None;
        }
        Some(id_text)
    }

    fn info(
        &mut self,
        pad: &str,
        blocks: Vec<(String, String, BlockWriter<'_>)>,
        foreign: &[Metadata],
        interprets_freedesktop: bool,
    ) {
        let any = blocks.iter().any(|b| !b.2.is_empty())
            || foreign
                .iter()
                .any(|m| foreign_writable(m, interprets_freedesktop));
        if !any {
            return;
        }
        self.s.push_str(pad);
        self.s.push_str("<info>\n");
        for (owner, ns, b) in blocks {
            b.finish(&mut self.s, &owner, &ns);
        }
        for m in foreign
            .iter()
            .filter(|m| foreign_writable(m, interprets_freedesktop))
        {
            self.s.push_str(pad);
            self.s.push_str("  <metadata owner=\"");
            push_attr(&mut self.s, &m.owner);
            self.s.push('"');
            for (p, uri) in &m.namespaces {
                self.s
                    .push_str(if p.is_empty() { " xmlns" } else { " xmlns:" });
                self.s.push_str(p);
                self.s.push_str("=\"");
                push_attr(&mut self.s, uri);
                self.s.push('"');
            }
            if m.xml.is_empty() {
                self.s.push_str("/>\n");
            } else {
                self.s.push('>');
                self.s.push_str(&m.xml);
                self.s.push_str("</metadata>\n");
            }
        }
        self.s.push_str(pad);
        self.s.push_str("</info>\n");
    }

    /// Report the fields of a node that only markport's block carries.
    fn extensions(&mut self, node: Option<NodeId>, fields: impl Iterator<Item = Field>) {
        if self.strict {
            return;
        }
        for f in fields {
            if !STRICT_NATIVE.contains(&f) && !READ_BY_OTHERS.contains(&f) {
                self.loss.record_extension(self.doc, node, f, EXTENSION_WHY);
            }
        }
    }

    fn strict_losses(&mut self, node: Option<NodeId>, fields: impl Iterator<Item = Field>) {
        for f in fields {
            if !STRICT_NATIVE.contains(&f) {
                self.loss.record(self.doc, node, f, STRICT_WHY);
            }
        }
    }

    fn bookmark(&mut self, id: NodeId, b: &'a Bookmark, pad: &str) {
        let more = b.details();
        if self.strict {
            self.strict_losses(Some(id), bookmark_fields(b));
        }
        // `<bookmark:private/>` says true; false is in markport's block.
        self.extensions(Some(id), bookmark_fields(b));
        if !self.strict && b.private == Some(false) {
            self.loss
                .record_extension(self.doc, Some(id), Field::BookmarkPrivate, EXTENSION_WHY);
        }
        self.check_node(Some(id), bookmark_strings(b));
        self.check_reserved(Some(id), Field::BookmarkMetadata, &more.metadata, true);
        let xml_id = self.id(id, Field::BookmarkId, more.id.as_deref());
        self.s.push_str(pad);
        self.s.push_str("<bookmark href=\"");
        push_attr(&mut self.s, &b.href);
        self.s.push('"');
        self.attr("id", xml_id);
        self.date_attr("added", b.added.as_ref());
        self.date_attr("modified", b.modified.as_ref());
        self.date_attr("visited", more.visited.as_ref());
        let inner = format!("{pad}  ");
        let has_inner = b.title.is_some()
            || b.desc.is_some()
            || (!self.strict
                && (blocks::has_freedesktop(b) || !more.metadata.is_empty() || {
                    let mut w = BlockWriter::new(pad);
                    blocks::markport_bookmark(&mut w, b);
                    !w.is_empty()
                }));
        if !has_inner {
            self.s.push_str("/>\n");
            return;
        }
        self.s.push_str(">\n");
        self.element(&inner, "title", b.title.as_deref());
        if !self.strict {
            let mut fd = BlockWriter::new(&inner);
            blocks::freedesktop_bookmark(&mut fd, b);
            let mut mp = BlockWriter::new(&inner);
            blocks::markport_bookmark(&mut mp, b);
            self.info(
                &inner,
                vec![
                    (
                        blocks::FREEDESKTOP.to_owned(),
                        format!(" xmlns:bookmark=\"{BOOKMARK_NS}\" xmlns:mime=\"{MIME_NS}\""),
                        fd,
                    ),
                    (MARKPORT_OWNER.to_owned(), blocks::markport_ns_decl(), mp),
                ],
                &more.metadata,
                true,
            );
        }
        self.element(&inner, "desc", b.desc.as_deref());
        self.s.push_str(pad);
        self.s.push_str("</bookmark>\n");
    }

    fn open_folder(&mut self, id: NodeId, f: &'a Folder, pad: &str) {
        if self.strict {
            self.strict_losses(Some(id), folder_fields(f));
        }
        self.extensions(Some(id), folder_fields(f));
        self.check_node(Some(id), folder_strings(f));
        self.check_reserved(Some(id), Field::FolderMetadata, &f.metadata, false);
        let xml_id = self.id(id, Field::FolderId, f.id.as_deref());
        self.s.push_str(pad);
        self.s.push_str("<folder");
        self.attr("id", xml_id);
        self.date_attr("added", f.added.as_ref());
        self.attr("folded", f.folded.map(|v| if v { "yes" } else { "no" }));
        self.s.push_str(">\n");
        let inner = format!("{pad}  ");
        self.element(&inner, "title", f.title.as_deref());
        if !self.strict {
            let mut mp = BlockWriter::new(&inner);
            blocks::markport_folder(&mut mp, f);
            self.info(
                &inner,
                vec![(MARKPORT_OWNER.to_owned(), blocks::markport_ns_decl(), mp)],
                &f.metadata,
                false,
            );
        }
        self.element(&inner, "desc", f.desc.as_deref());
    }

    fn leaf(&mut self, id: NodeId, pad: &str) {
        match self.doc.node(id) {
            Node::Bookmark(b) => self.bookmark(id, b, pad),
            Node::Separator(sep) => {
                if self.strict {
                    self.strict_losses(Some(id), separator_fields(sep));
                    self.s.push_str(pad);
                    self.s.push_str("<separator/>\n");
                    return;
                }
                let strings = vec![
                    (Field::SeparatorTitle, opt(&sep.title)),
                    (Field::SeparatorExtra, attrs(&sep.extra)),
                    (Field::SeparatorMetadata, metadata(&sep.metadata)),
                ];
                self.check_node(Some(id), strings);
                self.check_reserved(Some(id), Field::SeparatorMetadata, &sep.metadata, false);
                self.extensions(Some(id), separator_fields(sep));
                let inner = format!("{pad}  ");
                let mut mp = BlockWriter::new(&inner);
                blocks::markport_separator(&mut mp, sep);
                if mp.is_empty() && sep.metadata.is_empty() {
                    self.s.push_str(pad);
                    self.s.push_str("<separator/>\n");
                    return;
                }
                self.s.push_str(pad);
                self.s.push_str("<separator>\n");
                self.info(
                    &inner,
                    vec![(MARKPORT_OWNER.to_owned(), blocks::markport_ns_decl(), mp)],
                    &sep.metadata,
                    false,
                );
                self.s.push_str(pad);
                self.s.push_str("</separator>\n");
            }
            Node::Alias(a) => {
                if self.strict {
                    // An alias left out takes its attributes with it: only
                    // the alias itself is then reported.
                    if !self.valid_targets.contains(a.target.as_str()) {
                        self.loss.record(
                            self.doc,
                            Some(id),
                            Field::Alias,
                            "--xbel-strict: an alias must refer to a valid id that is written",
                        );
                        return;
                    }
                    if !a.extra.is_empty() {
                        self.loss.record(
                            self.doc,
                            Some(id),
                            markport_model::Field::AliasExtra,
                            STRICT_WHY,
                        );
                    }
                }
                self.s.push_str(pad);
                self.s.push_str("<alias ref=\"");
                push_attr(&mut self.s, &a.target);
                self.s.push('"');
                let inner = format!("{pad}  ");
                let mut mp = BlockWriter::new(&inner);
                if !self.strict {
                    self.check_node(
                        Some(id),
                        vec![
                            (Field::Alias, vec![a.target.as_str()]),
                            (Field::AliasExtra, attrs(&a.extra)),
                        ],
                    );
                    blocks::markport_alias(&mut mp, &a.extra);
                    let extra = (!a.extra.is_empty()).then_some(Field::AliasExtra);
                    self.extensions(Some(id), extra.into_iter());
                }
                if mp.is_empty() {
                    self.s.push_str("/>\n");
                } else {
                    self.s.push_str(">\n");
                    self.info(
                        &inner,
                        vec![(MARKPORT_OWNER.to_owned(), blocks::markport_ns_decl(), mp)],
                        &[],
                        false,
                    );
                    self.s.push_str(pad);
                    self.s.push_str("</alias>\n");
                }
            }
            Node::Folder(_) => unreachable!("folders are opened, not leaves"),
            // A kind of node added to the model after this writer: nothing to write yet.
            _ => {}
        }
    }
}

type Strings<'a> = Vec<(Field, Vec<&'a str>)>;

fn opt(v: &Option<String>) -> Vec<&str> {
    v.as_deref().into_iter().collect()
}

fn date(v: &Option<DateValue>) -> Vec<&str> {
    match v {
        Some(DateValue::Raw(r)) => vec![&**r],
        _ => Vec::new(),
    }
}

fn attrs(extra: &[markport_model::Attribute]) -> Vec<&str> {
    extra
        .iter()
        .flat_map(|a| [a.name.as_str(), a.value.as_str()])
        .collect()
}

/// Whether a foreign block can be written so that it reads back as itself:
/// its owner and namespaces must be writable exactly, and its owner must not
/// be one the reader interprets (it would come back as typed fields).
fn foreign_writable(m: &Metadata, interprets_freedesktop: bool) -> bool {
    metadata(std::slice::from_ref(m))
        .into_iter()
        .all(|s| !has_unwritable(s))
        && m.owner != MARKPORT_OWNER
        && !(interprets_freedesktop && m.owner == crate::FREEDESKTOP_OWNER)
        && content_writable(m)
}

/// Whether a foreign block's content can go between `<metadata>` tags as
/// it is: written unchecked, `</metadata></info></bookmark><bookmark ...>`
/// would add a bookmark, and broken XML would make the file unreadable.
fn content_writable(m: &Metadata) -> bool {
    crate::xmltext::check_metadata_content(&m.xml, &m.namespaces).is_ok()
}

/// A foreign block's owner and namespace declarations (its content is
/// written back exactly as it was read, so it needs no check).
fn metadata(blocks: &[Metadata]) -> Vec<&str> {
    blocks
        .iter()
        .flat_map(|m| {
            std::iter::once(m.owner.as_str()).chain(
                m.namespaces
                    .iter()
                    .flat_map(|(p, u)| [p.as_str(), u.as_str()]),
            )
        })
        .collect()
}

/// Every string a bookmark's fields hold, by field.
fn bookmark_strings(b: &Bookmark) -> Strings<'_> {
    Field::of(Scope::Bookmark)
        .filter_map(|f| Some((f, f.get(b)?.strings())))
        .collect()
}

/// Every string a folder's fields hold, by field.
fn folder_strings(f: &Folder) -> Strings<'_> {
    vec![
        (Field::FolderTitle, opt(&f.title)),
        (Field::FolderDesc, opt(&f.desc)),
        (Field::FolderId, opt(&f.id)),
        (Field::FolderAdded, date(&f.added)),
        (Field::FolderModified, date(&f.modified)),
        (Field::FolderIcon, opt(&f.icon)),
        (Field::FolderMetadata, metadata(&f.metadata)),
        (Field::FolderExtra, attrs(&f.extra)),
    ]
}

/// Every string the document's own fields hold, by field.
fn document_strings(d: &Document) -> Strings<'_> {
    vec![
        (Field::DocumentTitle, opt(&d.header.title)),
        (Field::DocumentDesc, opt(&d.header.desc)),
        (Field::DocumentId, opt(&d.header.id)),
        (Field::DocumentAdded, date(&d.header.added)),
        (Field::DocumentModified, date(&d.header.modified)),
        (Field::DocumentMetadata, metadata(&d.header.metadata)),
        (Field::DocumentExtra, attrs(&d.header.extra)),
    ]
}

/// Deeper folders are written at this indentation: beyond it, indenting
/// would make the output grow with the square of the depth.
const MAX_INDENT_DEPTH: usize = 40;

/// In strict mode, the nodes whose id can be written: the first node with
/// each id that is an XML Name.
fn strict_ids(doc: &Document) -> (HashSet<NodeId>, HashSet<&str>) {
    let mut nodes = HashSet::new();
    let mut names = HashSet::new();
    for id in doc.preorder() {
        if let Some(x) = doc.node(id).id() {
            if is_name(x) && names.insert(x) {
                nodes.insert(id);
            }
        }
    }
    (nodes, names)
}

/// Write `doc` as XBEL.
pub fn write(
    doc: &Document,
    opts: &WriteOptions,
    out: &mut dyn Write,
) -> Result<LossReport, Error> {
    let strict = opts.xbel.strict;
    let (keep_ids, valid_targets) = if strict {
        strict_ids(doc)
    } else {
        Default::default()
    };
    let mut w = Writer {
        doc,
        strict,
        s: String::with_capacity(CHUNK * 2),
        loss: LossReport::new(),
        keep_ids,
        valid_targets,
    };
    if strict {
        let doc_fields = [
            (Field::DocumentModified, doc.header.modified.is_some()),
            (Field::DocumentMetadata, !doc.header.metadata.is_empty()),
            (Field::DocumentExtra, !doc.header.extra.is_empty()),
        ];
        w.strict_losses(None, doc_fields.into_iter().filter(|p| p.1).map(|p| p.0));
    }
    w.check_node(None, document_strings(doc));
    w.extensions(None, document_fields(doc));
    w.check_reserved(None, Field::DocumentMetadata, &doc.header.metadata, false);
    w.s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    w.s.push_str(DOCTYPE);
    w.s.push_str("<xbel version=\"1.0\"");
    let mut doc_id = doc.header.id.as_deref();
    if strict && doc_id.is_some_and(|i| !is_name(i) || w.valid_targets.contains(i)) {
        w.loss.record(
            doc,
            None,
            Field::DocumentId,
            "--xbel-strict: an XBEL id must be a unique XML Name",
        );
        doc_id = None;
    }
    w.attr("id", doc_id);
    w.date_attr("added", doc.header.added.as_ref());
    w.s.push_str(">\n");
    let mut comment_lost = false;
    for c in &doc.header.comments {
        // XML forbids `--` inside a comment and `-` just before `-->`.
        if c.contains("--") || c.ends_with('-') || has_unwritable(c) {
            comment_lost = true;
            continue;
        }
        w.s.push_str("  <!--");
        w.s.push_str(c);
        w.s.push_str("-->\n");
    }
    if comment_lost {
        w.loss.record(
            doc,
            None,
            Field::DocumentComments,
            "an XML comment cannot contain `--` or end in `-` (or hold characters XML forbids): left out",
        );
    }
    w.element("  ", "title", doc.header.title.as_deref());
    if !strict {
        let mut mp = BlockWriter::new("  ");
        blocks::markport_document(&mut mp, doc);
        w.info(
            "  ",
            vec![(MARKPORT_OWNER.to_owned(), blocks::markport_ns_decl(), mp)],
            &doc.header.metadata,
            false,
        );
    }
    w.element("  ", "desc", doc.header.desc.as_deref());

    let spaces = " ".repeat(2 * (MAX_INDENT_DEPTH + 1));
    let pad = |depth: usize| &spaces[..2 * depth.min(MAX_INDENT_DEPTH)];
    let mut depth = 1usize;
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                if let Node::Folder(f) = doc.node(id) {
                    w.open_folder(id, f, pad(depth));
                }
                depth += 1;
            }
            Step::Close(_) => {
                depth -= 1;
                w.s.push_str(pad(depth));
                w.s.push_str("</folder>\n");
            }
            Step::Leaf(id) => w.leaf(id, pad(depth)),
        }
        if w.s.len() >= CHUNK {
            out.write_all(w.s.as_bytes())?;
            w.s.clear();
        }
    }
    w.s.push_str("</xbel>\n");
    out.write_all(w.s.as_bytes())?;
    out.flush()?;
    Ok(w.loss)
}
