//! The XBEL writer: UTF-8, declaration, DOCTYPE, two-space indent.

use std::collections::HashSet;
use std::io::Write;

use markport_model::{
    bookmark_fields, document_fields, folder_fields, separator_fields, Bookmark, DateValue,
    Document, Error, Field, Folder, Holder, LossReport, Metadata, Node, NodeId, Step, Value,
    WriteOptions,
};

use markport_markup::xml::{has_unwritable, is_name, Indent, XmlWriter};

use crate::block::BlockWriter;
use crate::floccus::Plan;
use crate::names::{FREEDESKTOP_OWNER, MARKPORT_OWNER};
use crate::{freedesktop, markport_block};

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
    s: XmlWriter,
    loss: LossReport,
    /// Strict mode: the nodes whose id is written.
    keep_ids: HashSet<NodeId>,
    /// Strict mode: the ids written, which aliases may refer to.
    valid_targets: HashSet<&'a str>,
    /// The current node's freedesktop and markport blocks, kept between
    /// nodes so that their buffers are allocated once.
    fd: BlockWriter,
    mp: BlockWriter,
    /// A file Floccus syncs: the ids given to items that need one.
    floccus: Option<crate::floccus::Plan>,
}

impl<'a> Writer<'a> {
    /// Record a loss for each field holding characters XML cannot carry.
    /// In strict mode only the fields strict output writes are checked (the
    /// others are reported as not carried at all). The header's comments are
    /// checked apart: they are written as comments, not as text.
    fn check_node<'h>(&mut self, node: Option<NodeId>, on: impl Into<Holder<'h>>) {
        let on = on.into();
        for field in Field::of(on.scope()) {
            if field == Field::DocumentComments || (self.strict && !STRICT_NATIVE.contains(&field))
            {
                continue;
            }
            if field.get(on).is_some_and(|v| v.any_string(has_unwritable)) {
                self.record_unwritable(node, field);
            }
        }
    }

    /// Write node `id` with `write`, and record the fields holding
    /// characters XML cannot carry. The strings are checked where they are
    /// escaped; only a node where escaping left something out (or whose
    /// foreign blocks, left out when unwritable, hold such characters) is
    /// searched field by field. Strict output leaves fields out, so strict
    /// mode checks the fields it writes before writing (in `bookmark` and
    /// `open_folder`).
    fn checked(&mut self, id: NodeId, write: impl FnOnce(&mut Self)) {
        let node = self.doc.node(id);
        let on = Holder::from(node);
        if self.strict {
            return write(self);
        }
        self.s.take_dropped();
        self.fd.take_dropped();
        self.mp.take_dropped();
        write(self);
        let dropped = self.s.take_dropped() | self.fd.take_dropped() | self.mp.take_dropped();
        let foreign = match node {
            Node::Bookmark(b) => &b.details().metadata[..],
            Node::Folder(f) => &f.metadata[..],
            Node::Separator(s) => &s.metadata[..],
            _ => &[],
        };
        if dropped || holds_unwritable(foreign) {
            self.check_node(Some(id), on);
            if let Node::Alias(a) = node {
                if has_unwritable(&a.target) {
                    self.record_unwritable(Some(id), Field::Alias);
                }
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
            m.owner == MARKPORT_OWNER || (freedesktop && m.owner == FREEDESKTOP_OWNER)
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

    fn element(&mut self, pad: Indent, name: &str, text: Option<&str>) {
        if let Some(t) = text {
            self.s.text_element(pad, name, &[], t);
        }
    }

    /// The id a Floccus file gives `node` in place of its own, if any.
    fn floccus_id(&self, node: NodeId) -> Option<String> {
        self.floccus.as_ref()?.ids.get(&node).cloned()
    }

    fn attr(&mut self, name: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.s.attr(name, v);
        }
    }

    fn date_attr(&mut self, name: &str, value: Option<&DateValue>) {
        match value {
            Some(DateValue::Instant(t)) => self.s.attr_with(name, |out| t.push_w3c(out)),
            Some(DateValue::Raw(r)) => self.s.attr(name, r),
            None => {}
        }
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

    fn bookmark(&mut self, id: NodeId, b: &'a Bookmark, pad: Indent) {
        let more = b.details();
        if self.strict {
            self.strict_losses(Some(id), bookmark_fields(b));
            self.check_node(Some(id), b);
        }
        // `<bookmark:private/>` says true; false is in markport's block.
        self.extensions(Some(id), bookmark_fields(b));
        if !self.strict && b.private == Some(false) {
            self.loss
                .record_extension(self.doc, Some(id), Field::BookmarkPrivate, EXTENSION_WHY);
        }
        self.check_reserved(Some(id), Field::BookmarkMetadata, &more.metadata, true);
        let xml_id = self.id(id, Field::BookmarkId, more.id.as_deref());
        let given = self.floccus_id(id);
        self.s.open(pad, "bookmark");
        self.s.attr("href", &b.href);
        self.attr("id", given.as_deref().or(xml_id));
        self.date_attr("added", b.added.as_ref());
        self.date_attr("modified", b.modified.as_ref());
        self.date_attr("visited", more.visited.as_ref());
        let inner = pad.deeper(1);
        self.fd.reset(inner);
        self.mp.reset(inner);
        if !self.strict {
            freedesktop::write(&mut self.fd, b);
            markport_block::write_bookmark(&mut self.mp, b);
        }
        let has_inner = b.title.is_some()
            || b.desc.is_some()
            || (!self.strict
                && (!self.fd.is_empty() || !self.mp.is_empty() || !more.metadata.is_empty()));
        if !has_inner {
            self.s.end_empty();
            return;
        }
        self.s.end_start_tag();
        self.element(inner, "title", b.title.as_deref());
        if !self.strict {
            write_info(
                &mut self.s,
                inner,
                &[
                    (FREEDESKTOP_OWNER, freedesktop::NAMESPACES, &self.fd),
                    (MARKPORT_OWNER, markport_block::NAMESPACES, &self.mp),
                ],
                &more.metadata,
                true,
            );
        }
        self.element(inner, "desc", b.desc.as_deref());
        self.s.end_tag(pad, "bookmark");
    }

    fn open_folder(&mut self, id: NodeId, f: &'a Folder, pad: Indent) {
        if self.strict {
            self.strict_losses(Some(id), folder_fields(f));
            self.check_node(Some(id), f);
        }
        self.extensions(Some(id), folder_fields(f));
        self.check_reserved(Some(id), Field::FolderMetadata, &f.metadata, false);
        let xml_id = self.id(id, Field::FolderId, f.id.as_deref());
        let given = self.floccus_id(id);
        self.s.open(pad, "folder");
        self.attr("id", given.as_deref().or(xml_id));
        self.date_attr("added", f.added.as_ref());
        self.attr("folded", f.folded.map(|v| if v { "yes" } else { "no" }));
        self.s.end_start_tag();
        let inner = pad.deeper(1);
        self.element(inner, "title", f.title.as_deref());
        if !self.strict {
            self.mp.reset(inner);
            markport_block::write_folder(&mut self.mp, f);
            write_info(
                &mut self.s,
                inner,
                &[(MARKPORT_OWNER, markport_block::NAMESPACES, &self.mp)],
                &f.metadata,
                false,
            );
        }
        self.element(inner, "desc", f.desc.as_deref());
    }

    fn leaf(&mut self, id: NodeId, pad: Indent) {
        match self.doc.node(id) {
            Node::Bookmark(b) => self.bookmark(id, b, pad),
            Node::Separator(sep) => {
                if self.strict {
                    self.strict_losses(Some(id), separator_fields(sep));
                    self.s.empty_element(pad, "separator", &[]);
                    return;
                }
                self.check_reserved(Some(id), Field::SeparatorMetadata, &sep.metadata, false);
                self.extensions(Some(id), separator_fields(sep));
                let inner = pad.deeper(1);
                self.mp.reset(inner);
                markport_block::write_separator(&mut self.mp, sep);
                if self.mp.is_empty() && sep.metadata.is_empty() {
                    self.s.empty_element(pad, "separator", &[]);
                    return;
                }
                self.s.start_tag(pad, "separator");
                write_info(
                    &mut self.s,
                    inner,
                    &[(MARKPORT_OWNER, markport_block::NAMESPACES, &self.mp)],
                    &sep.metadata,
                    false,
                );
                self.s.end_tag(pad, "separator");
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
                self.s.open(pad, "alias");
                self.s.attr("ref", &a.target);
                let inner = pad.deeper(1);
                self.mp.reset(inner);
                if !self.strict {
                    markport_block::write_alias(&mut self.mp, &a.extra);
                    let extra = (!a.extra.is_empty()).then_some(Field::AliasExtra);
                    self.extensions(Some(id), extra.into_iter());
                }
                if self.mp.is_empty() {
                    self.s.end_empty();
                } else {
                    self.s.end_start_tag();
                    write_info(
                        &mut self.s,
                        inner,
                        &[(MARKPORT_OWNER, markport_block::NAMESPACES, &self.mp)],
                        &[],
                        false,
                    );
                    self.s.end_tag(pad, "alias");
                }
            }
            Node::Folder(_) => unreachable!("folders are opened, not leaves"),
            // A kind of node added to the model after this writer: nothing to write yet.
            _ => {}
        }
    }
}

/// An interpreted block to write: its owner, the namespaces it declares, its body.
type Block<'b> = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'b BlockWriter,
);

/// `<info>` with the interpreted blocks that have content and the foreign
/// blocks that can be written; nothing when there are none.
fn write_info(
    s: &mut XmlWriter,
    pad: Indent,
    blocks: &[Block<'_>],
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
    s.start_tag(pad, "info");
    for (owner, namespaces, b) in blocks {
        b.finish(s, owner, namespaces);
    }
    for m in foreign
        .iter()
        .filter(|m| foreign_writable(m, interprets_freedesktop))
    {
        s.open(pad.deeper(1), "metadata");
        s.attr("owner", &m.owner);
        for (p, uri) in &m.namespaces {
            if p.is_empty() {
                s.attr("xmlns", uri);
            } else {
                s.attr(&format!("xmlns:{p}"), uri);
            }
        }
        if m.xml.is_empty() {
            s.end_empty();
        } else {
            // Checked well-formed and balanced by `content_writable`.
            s.raw(">");
            s.raw(&m.xml);
            s.raw("</metadata>\n");
        }
    }
    s.end_tag(pad, "info");
}

/// Whether the owner or namespaces of any of `blocks` hold characters XML
/// cannot carry (such a block is left out, so escaping never sees them).
fn holds_unwritable(blocks: &[Metadata]) -> bool {
    Value::Metadata(blocks).any_string(has_unwritable)
}

/// Whether a foreign block can be written so that it reads back as itself:
/// its owner and namespaces must be writable exactly, and its owner must not
/// be one the reader interprets (it would come back as typed fields).
fn foreign_writable(m: &Metadata, interprets_freedesktop: bool) -> bool {
    !holds_unwritable(std::slice::from_ref(m))
        && m.owner != MARKPORT_OWNER
        && !(interprets_freedesktop && m.owner == FREEDESKTOP_OWNER)
        && content_writable(m)
}

/// Whether a foreign block's content can go between `<metadata>` tags as
/// it is: written unchecked, `</metadata></info></bookmark><bookmark ...>`
/// would add a bookmark, and broken XML would make the file unreadable.
fn content_writable(m: &Metadata) -> bool {
    crate::metadata_check::check_metadata_content(&m.xml, &m.namespaces).is_ok()
}

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
        s: XmlWriter::new(),
        loss: LossReport::new(),
        keep_ids,
        valid_targets,
        fd: BlockWriter::new(Indent::NONE),
        mp: BlockWriter::new(Indent::NONE),
        floccus: None,
    };
    if !strict {
        w.floccus = crate::floccus::plan(doc, &mut w.loss);
    }
    if strict {
        let doc_fields = [
            (Field::DocumentModified, doc.header.modified.is_some()),
            (Field::DocumentMetadata, !doc.header.metadata.is_empty()),
            (Field::DocumentExtra, !doc.header.extra.is_empty()),
        ];
        w.strict_losses(None, doc_fields.into_iter().filter(|p| p.1).map(|p| p.0));
    }
    w.check_node(None, &doc.header);
    w.extensions(None, document_fields(doc));
    w.check_reserved(None, Field::DocumentMetadata, &doc.header.metadata, false);
    w.s.reserve(CHUNK * 2);
    w.s.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    w.s.raw(DOCTYPE);
    w.s.open(Indent::NONE, "xbel");
    w.s.attr("version", "1.0");
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
    w.s.end_start_tag();
    let mut comment_lost = false;
    for (i, c) in doc.header.comments.iter().enumerate() {
        let c = match &w.floccus {
            Some(Plan {
                comment: (at, new), ..
            }) if *at == i => new.as_str(),
            _ => c.as_str(),
        };
        // XML forbids `--` inside a comment and `-` just before `-->`.
        if c.contains("--") || c.ends_with('-') || has_unwritable(c) {
            comment_lost = true;
            continue;
        }
        w.s.indent(Indent::of(1));
        w.s.raw("<!--");
        w.s.raw(c);
        w.s.raw("-->\n");
    }
    if comment_lost {
        w.loss.record(
            doc,
            None,
            Field::DocumentComments,
            "an XML comment cannot contain `--` or end in `-` (or hold characters XML forbids): left out",
        );
    }
    w.element(Indent::of(1), "title", doc.header.title.as_deref());
    if !strict {
        let mut mp = BlockWriter::new(Indent::of(1));
        markport_block::write_document(&mut mp, doc);
        write_info(
            &mut w.s,
            Indent::of(1),
            &[(MARKPORT_OWNER, markport_block::NAMESPACES, &mp)],
            &doc.header.metadata,
            false,
        );
    }
    w.element(Indent::of(1), "desc", doc.header.desc.as_deref());

    let pad = Indent::of;
    let mut depth = 1usize;
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                if let Node::Folder(f) = doc.node(id) {
                    w.checked(id, |w| w.open_folder(id, f, pad(depth)));
                }
                depth += 1;
            }
            Step::Close(_) => {
                depth -= 1;
                w.s.end_tag(pad(depth), "folder");
            }
            Step::Leaf(id) => w.checked(id, |w| w.leaf(id, pad(depth))),
        }
        if w.s.len() >= CHUNK {
            out.write_all(w.s.as_str().as_bytes())?;
            w.s.clear();
        }
    }
    w.s.end_tag(Indent::NONE, "xbel");
    out.write_all(w.s.as_str().as_bytes())?;
    out.flush()?;
    Ok(w.loss)
}
