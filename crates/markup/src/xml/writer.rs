//! One small XML element writer: tags, attributes, text and indentation
//! appended to a string that the caller flushes when it likes.

use super::escape::{push_escaped, Escaping};
use super::MAX_INDENT_DEPTH;

/// How far a line is indented, in two-space steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Indent {
    spaces: usize,
}

impl Indent {
    /// No indentation.
    pub const NONE: Indent = Indent { spaces: 0 };

    /// The indentation of a node at nesting depth `depth`: two spaces a
    /// level, no deeper than [`MAX_INDENT_DEPTH`] levels, so output stays
    /// linear in the input however deep it nests.
    pub fn of(depth: usize) -> Indent {
        Indent {
            spaces: 2 * depth.min(MAX_INDENT_DEPTH),
        }
    }

    /// `levels` further levels in. Not capped: it is meant for the few
    /// fixed levels of a node's own content below a capped node.
    pub fn deeper(self, levels: usize) -> Indent {
        Indent {
            spaces: self.spaces + 2 * levels,
        }
    }

    /// The number of spaces written.
    pub fn spaces(self) -> usize {
        self.spaces
    }
}

/// Appends XML to a string: start tags with attributes, text, end tags,
/// empty elements, each line indented by an [`Indent`].
///
/// ```
/// use markport_markup::xml::{Indent, XmlWriter};
///
/// let mut w = XmlWriter::new();
/// w.open(Indent::NONE, "folder");
/// w.attr("id", "f\"1");
/// w.end_start_tag();
/// w.text_element(Indent::of(1), "title", &[], "A & B");
/// w.empty_element(Indent::of(1), "separator", &[]);
/// w.end_tag(Indent::NONE, "folder");
/// assert_eq!(
///     w.as_str(),
///     "<folder id=\"f&quot;1\">\n  <title>A &amp; B</title>\n  <separator/>\n</folder>\n"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct XmlWriter {
    out: String,
    text: Escaping,
    attribute: Escaping,
    /// Whether escaping left a character out since [`XmlWriter::take_dropped`].
    dropped: bool,
}

impl Default for XmlWriter {
    fn default() -> Self {
        XmlWriter::new()
    }
}

impl XmlWriter {
    /// A writer with XML's own escaping: [`Escaping::Text`] for content,
    /// [`Escaping::Attribute`] for attribute values.
    pub fn new() -> XmlWriter {
        XmlWriter::with_escaping(Escaping::Text, Escaping::Attribute)
    }

    /// A writer that escapes as GLib does ([`Escaping::GMarkup`] for both).
    pub fn gmarkup() -> XmlWriter {
        XmlWriter::with_escaping(Escaping::GMarkup, Escaping::GMarkup)
    }

    fn with_escaping(text: Escaping, attribute: Escaping) -> XmlWriter {
        XmlWriter {
            out: String::new(),
            text,
            attribute,
            dropped: false,
        }
    }

    /// Reserve room for `additional` more bytes.
    pub fn reserve(&mut self, additional: usize) {
        self.out.reserve(additional);
    }

    /// Write `indent`'s spaces.
    pub fn indent(&mut self, indent: Indent) {
        const SPACES: &str = "                                                                ";
        let mut n = indent.spaces;
        while n > 0 {
            let step = n.min(SPACES.len());
            self.out.push_str(&SPACES[..step]);
            n -= step;
        }
    }

    /// Begin a start tag on a line of its own: `<name`, attributes follow.
    pub fn open(&mut self, indent: Indent, name: &str) {
        self.indent(indent);
        self.out.push('<');
        self.out.push_str(name);
    }

    /// An attribute of the tag begun by [`XmlWriter::open`]: ` name="value"`.
    pub fn attr(&mut self, name: &str, value: &str) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        self.dropped |= push_escaped(&mut self.out, value, self.attribute);
        self.out.push('"');
    }

    /// An attribute whose value `write` appends as it is, unescaped: for
    /// values made only of characters no escaping touches (digits, `-`,
    /// `:`, `+`, `T`, `Z`), such as dates, so they need no string of their own.
    pub fn attr_with(&mut self, name: &str, write: impl FnOnce(&mut String)) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        write(&mut self.out);
        self.out.push('"');
    }

    /// End a start tag whose content follows on lines of its own: `>` and a line end.
    pub fn end_start_tag(&mut self) {
        self.out.push_str(">\n");
    }

    /// End the tag begun by [`XmlWriter::open`] as an empty element: `/>` and a line end.
    pub fn end_empty(&mut self) {
        self.out.push_str("/>\n");
    }

    /// A start tag without attributes on a line of its own.
    pub fn start_tag(&mut self, indent: Indent, name: &str) {
        self.open(indent, name);
        self.end_start_tag();
    }

    /// An end tag on a line of its own.
    pub fn end_tag(&mut self, indent: Indent, name: &str) {
        self.indent(indent);
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push_str(">\n");
    }

    /// An element holding only text, on one line.
    pub fn text_element(&mut self, indent: Indent, name: &str, attrs: &[(&str, &str)], text: &str) {
        self.open(indent, name);
        for (k, v) in attrs {
            self.attr(k, v);
        }
        self.out.push('>');
        self.text(text);
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push_str(">\n");
    }

    /// An empty element on one line.
    pub fn empty_element(&mut self, indent: Indent, name: &str, attrs: &[(&str, &str)]) {
        self.open(indent, name);
        for (k, v) in attrs {
            self.attr(k, v);
        }
        self.end_empty();
    }

    /// Escaped element content.
    pub fn text(&mut self, s: &str) {
        self.dropped |= push_escaped(&mut self.out, s, self.text);
    }

    /// Markup written as it is: declarations, comments, content the caller
    /// has checked is well-formed.
    pub fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// Whether text or an attribute value written since the last call held
    /// a character XML cannot carry (left out); resets the answer. A writer
    /// that asks after each node checks every string it wrote in the same
    /// pass that escaped it, and looks for the field only when one did.
    pub fn take_dropped(&mut self) -> bool {
        std::mem::take(&mut self.dropped)
    }

    /// What has been written since the last [`XmlWriter::clear`].
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// The length of [`XmlWriter::as_str`] in bytes.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// Whether nothing has been written since the last [`XmlWriter::clear`].
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// Forget what was written (after flushing it), keeping the allocation.
    pub fn clear(&mut self) {
        self.out.clear();
    }

    /// The text written.
    pub fn into_string(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_is_capped_but_content_goes_deeper_than_its_node() {
        assert_eq!(Indent::of(3).spaces(), 6);
        assert_eq!(Indent::of(10_000).spaces(), 2 * MAX_INDENT_DEPTH);
        assert_eq!(
            Indent::of(10_000).deeper(2).spaces(),
            2 * MAX_INDENT_DEPTH + 4
        );
        assert_eq!(Indent::NONE.spaces(), 0);
    }

    #[test]
    fn open_attr_and_the_two_tag_ends() {
        let mut w = XmlWriter::new();
        w.open(Indent::of(1), "bookmark");
        w.attr("href", "a?b=1&c=\"2\"\n");
        w.end_empty();
        w.open(Indent::NONE, "x");
        w.end_start_tag();
        assert_eq!(
            w.as_str(),
            "  <bookmark href=\"a?b=1&amp;c=&quot;2&quot;&#xA;\"/>\n<x>\n"
        );
    }

    #[test]
    fn start_and_end_tags_stand_on_lines_of_their_own() {
        let mut w = XmlWriter::new();
        w.start_tag(Indent::of(1), "info");
        w.end_tag(Indent::of(1), "info");
        assert_eq!(w.as_str(), "  <info>\n  </info>\n");
    }

    #[test]
    fn text_elements_escape_text_and_attributes_differently() {
        let mut w = XmlWriter::new();
        w.text_element(Indent::of(2), "mp:attr", &[("name", "a\tb")], "x\ty\r");
        assert_eq!(
            w.as_str(),
            "    <mp:attr name=\"a&#x9;b\">x\ty&#xD;</mp:attr>\n"
        );
    }

    #[test]
    fn empty_elements_carry_their_attributes() {
        let mut w = XmlWriter::gmarkup();
        w.empty_element(Indent::NONE, "mime:mime-type", &[("type", "text/plain's")]);
        assert_eq!(w.as_str(), "<mime:mime-type type=\"text/plain&apos;s\"/>\n");
    }

    #[test]
    fn gmarkup_escapes_text_as_glib_does() {
        let mut w = XmlWriter::gmarkup();
        w.text("it's \u{1}\r");
        assert_eq!(w.as_str(), "it&apos;s &#x1;\r");
    }

    #[test]
    fn raw_is_written_as_it_is_and_clear_starts_over() {
        let mut w = XmlWriter::default();
        w.raw("<!--a&b-->");
        assert_eq!(w.len(), 10);
        assert!(!w.is_empty());
        w.clear();
        assert!(w.is_empty());
        w.raw("<x/>");
        assert_eq!(w.into_string(), "<x/>");
    }
}
