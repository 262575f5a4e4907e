//! The writer: a standalone page people want to use (the "recommended shape
//! of a published xFolk page", section 4 of
//! `../shared/corpus/peers/xfolk/NOTES.md`).
//!
//! One `h1`, a `nav` of folders, a `section` per folder with headings by
//! depth, `ul > li.xfolkentry` entries that xFolk and mf2 parsers both read,
//! a little CSS (phone-sized, light and dark, print) and a filter box whose
//! script only adds to a page that works without it. Everything from the
//! document is escaped; private bookmarks and script links are withheld
//! unless asked for, and every withheld or unrepresentable value is reported.

use std::io::Write;

use markport_model::{
    document_fields, folder_fields, Document, Error, Field, Folder, LossReport, Node, NodeId, Step,
    WriteOptions,
};

use crate::entry::{unwritable, write_paragraphs, write_text, Entries, STYLE};
use crate::tags::segment_for;
use crate::text::{collapse, is_block_normal};
use crate::GENERATOR;

/// Sections nest in each other down to this depth; deeper folders are
/// written as sections that name their parent (`data-parent`), so a very
/// deep tree stays linear in size and in parsing time.
pub const MAX_NESTING: usize = 12;

const SCRIPT: &str = include_str!("filter.js");

struct Writer<'d> {
    doc: &'d Document,
    opts: &'d WriteOptions,
    out: String,
    loss: LossReport,
    tag_base: String,
}

pub(crate) fn write(
    doc: &Document,
    opts: &WriteOptions,
    sink: &mut dyn Write,
) -> Result<LossReport, Error> {
    let mut w = Writer {
        doc,
        opts,
        out: String::with_capacity(1 << 16),
        loss: LossReport::new(),
        tag_base: opts
            .xfolk
            .tag_base
            .clone()
            .unwrap_or_else(|| "tags/".to_owned()),
    };
    w.head();
    w.nav();
    w.out.push_str("<main class=\"h-feed\">\n");
    // Runs of bookmarks become lists; folders become sections.
    let mut depth = 0usize;
    let mut open_list = false;
    // Open sections, as (folder, written as a nested section).
    let mut sections: Vec<(NodeId, bool)> = Vec::new();
    for step in doc.walk() {
        match step {
            Step::Open(id) => {
                w.close_list(&mut open_list);
                depth += 1;
                let nested = depth <= MAX_NESTING;
                if !nested {
                    // Flat from here: close the flat section of the parent.
                    if let Some(&(_, false)) = sections.last() {
                        w.out.push_str("</section>\n");
                    }
                }
                w.section(id, depth, sections.last().map(|s| s.0), nested, true);
                sections.push((id, nested));
            }
            Step::Close(_) => {
                w.close_list(&mut open_list);
                let (_, nested) = sections.pop().expect("balanced walk");
                depth -= 1;
                w.out.push_str("</section>\n");
                if !nested {
                    // The parent continues in a section of its own.
                    if let Some(&(parent, false)) = sections.last() {
                        let grand = sections.len().checked_sub(2).map(|i| sections[i].0);
                        w.section(parent, depth, grand, false, false);
                    }
                }
            }
            Step::Leaf(id) => {
                if !open_list {
                    w.out.push_str("<ul class=\"entries\">\n");
                    open_list = true;
                }
                w.leaf(id);
            }
        }
        if w.out.len() >= 1 << 16 {
            sink.write_all(w.out.as_bytes()).map_err(Error::io)?;
            w.out.clear();
        }
    }
    w.close_list(&mut open_list);
    w.out.push_str("</main>\n<script>\n");
    w.out.push_str(SCRIPT);
    w.out.push_str("</script>\n</body>\n</html>\n");
    sink.write_all(w.out.as_bytes()).map_err(Error::io)?;
    Ok(w.loss)
}

impl Writer<'_> {
    fn lose(&mut self, node: Option<NodeId>, field: Field, why: &str) {
        self.loss.record(self.doc, node, field, why);
    }

    fn text(&mut self, s: &str) {
        write_text(&mut self.out, s);
    }

    fn close_list(&mut self, open: &mut bool) {
        if *open {
            self.out.push_str("</ul>\n");
            *open = false;
        }
    }

    fn head(&mut self) {
        let doc = self.doc;
        let title = doc
            .header
            .title
            .as_deref()
            .map(|t| collapse(&t.replace(unwritable, "")))
            .filter(|t| !t.is_empty());
        if doc.header.title.is_some() && title.as_deref() != doc.header.title.as_deref() {
            self.lose(
                None,
                Field::DocumentTitle,
                "page titles are read with whitespace collapsed",
            );
        }
        if doc.header.title.is_none() {
            self.lose(
                None,
                Field::DocumentTitle,
                "an untitled collection is published as \"Bookmarks\"",
            );
        }
        let title = title.unwrap_or_else(|| "Bookmarks".to_owned());
        self.out.push_str(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"",
        );
        self.out.push_str(GENERATOR);
        self.out.push_str("\">\n<title>");
        self.text(&title);
        self.out.push_str("</title>\n<style>\n");
        self.out.push_str(STYLE);
        self.out
            .push_str("</style>\n</head>\n<body>\n<header>\n<h1>");
        self.text(&title);
        self.out.push_str("</h1>\n");
        if let Some(d) = &doc.header.desc {
            if !is_block_normal(d) || d.contains(unwritable) {
                self.lose(None, Field::DocumentDesc, crate::entry::text_loss(d));
            }
            self.out.push_str("<div class=\"intro\">");
            self.paragraphs(d);
            self.out.push_str("</div>\n");
        }
        // Without --tag-base the tag links point at pages that do not exist
        // (yet: a site generator may make them), so a click filters instead.
        self.out.push_str(if self.opts.xfolk.tag_base.is_none() {
            "<p class=\"filter\" hidden data-tag-links=\"filter\">"
        } else {
            "<p class=\"filter\" hidden>"
        });
        self.out.push_str(
            "<label>Filter <input type=\"search\" id=\"filter\" \
             placeholder=\"words, or tag:name\" autocomplete=\"off\"></label> \
             <output id=\"shown\" aria-live=\"polite\"></output></p>\n",
        );
        self.loss.record_unsupported(
            doc,
            None,
            document_fields(doc),
            crate::support,
            "an xFolk page has no place for it",
        );
    }

    fn paragraphs(&mut self, text: &str) {
        write_paragraphs(&mut self.out, text);
    }

    /// The table of folders (six levels; deeper ones are reached from their parents).
    fn nav(&mut self) {
        let doc = self.doc;
        if !doc.ids().any(|id| matches!(doc.node(id), Node::Folder(_))) {
            self.out.push_str("</header>\n");
            return;
        }
        self.out.push_str("<nav aria-label=\"Folders\">\n<ul>\n");
        let mut depth = 0usize;
        for step in doc.walk() {
            match step {
                Step::Open(id) => {
                    depth += 1;
                    if depth <= 6 {
                        let title = self.folder_title(id);
                        self.out
                            .push_str(&format!("<li><a href=\"#f{}\">", id.index()));
                        self.text(&title);
                        self.out.push_str("</a>");
                        if doc
                            .children(Some(id))
                            .iter()
                            .any(|&c| matches!(doc.node(c), Node::Folder(_)))
                            && depth < 6
                        {
                            self.out.push_str("\n<ul>\n");
                        } else {
                            self.out.push_str("</li>\n");
                        }
                    }
                }
                Step::Close(id) => {
                    if depth < 6
                        && doc
                            .children(Some(id))
                            .iter()
                            .any(|&c| matches!(doc.node(c), Node::Folder(_)))
                    {
                        self.out.push_str("</ul></li>\n");
                    }
                    depth -= 1;
                }
                Step::Leaf(_) => {}
            }
        }
        self.out.push_str("</ul>\n</nav>\n</header>\n");
    }

    fn folder_title(&self, id: NodeId) -> String {
        self.doc
            .node(id)
            .title()
            .map(|t| collapse(&t.replace(unwritable, "")))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "Untitled folder".to_owned())
    }

    /// Open the section of folder `id`; `first` is false for the
    /// continuation of a flat section after one of its subfolders.
    fn section(
        &mut self,
        id: NodeId,
        depth: usize,
        parent: Option<NodeId>,
        nested: bool,
        first: bool,
    ) {
        let Node::Folder(f) = self.doc.node(id) else {
            return;
        };
        let f: &Folder = f;
        let n = id.index();
        if !first {
            self.out.push_str(&format!(
                "<section class=\"folder h-feed\" data-folder=\"{n}\">\n"
            ));
            return;
        }
        let level = (depth + 1).min(6);
        self.out.push_str(&format!(
            "<section id=\"f{n}\" class=\"folder h-feed\" data-folder=\"{n}\" aria-labelledby=\"f{n}-h\""
        ));
        if !nested {
            if let Some(p) = parent {
                self.out
                    .push_str(&format!(" data-parent=\"{}\"", p.index()));
            }
        }
        if let Some(fid) = &f.id {
            self.out.push_str(" data-id=\"");
            self.text(fid);
            self.out.push('"');
        }
        self.out
            .push_str(&format!(">\n<h{level} id=\"f{n}-h\" class=\"p-name\">"));
        let title = self.folder_title(id);
        match f.title.as_deref() {
            None => self.lose(
                Some(id),
                Field::FolderTitle,
                "an untitled folder is published as \"Untitled folder\"",
            ),
            Some(t) if t.contains(unwritable) => self.lose(
                Some(id),
                Field::FolderTitle,
                "control characters a page cannot carry are left out",
            ),
            Some(t) if collapse(t) != t || t.is_empty() => self.lose(
                Some(id),
                Field::FolderTitle,
                "headings are read with whitespace collapsed",
            ),
            _ => {}
        }
        self.text(&title);
        self.out.push_str(&format!("</h{level}>\n"));
        if let Some(d) = &f.desc {
            if !is_block_normal(d) || d.contains(unwritable) {
                self.lose(Some(id), Field::FolderDesc, crate::entry::text_loss(d));
            }
            self.out.push_str("<div class=\"folder-description\">");
            self.paragraphs(d);
            self.out.push_str("</div>\n");
        }
        self.loss.record_unsupported(
            self.doc,
            Some(id),
            folder_fields(f),
            crate::support,
            "an xFolk page has no place for it",
        );
    }

    fn leaf(&mut self, id: NodeId) {
        let base = &self.tag_base;
        let href = |t: &str| format!("{base}{}", segment_for(t));
        Entries::new(self.doc, &self.opts.xfolk).write(&mut self.out, &mut self.loss, id, &href);
    }
}
