//! Whether a foreign `<metadata>` block's content can be written back as it was read.

use markport_markup::xml::{is_name, is_xml_char, push_escaped, Escaping};

/// Check that a foreign block's content (`xml`, with the namespace
/// declarations it relies on) is well-formed, balanced XML content: what the
/// XBEL writer can put between `<metadata>` and `</metadata>` so that it reads
/// back as the same block and nothing else. `Err` says what is wrong.
///
/// One pass with quick-xml and a depth counter: linear, no recursion.
pub fn check_metadata_content(xml: &str, namespaces: &[(String, String)]) -> Result<(), String> {
    use quick_xml::events::Event;
    use quick_xml::name::ResolveResult;

    if let Some(c) = xml.chars().find(|&c| !is_xml_char(c)) {
        return Err(format!("U+{:04X} cannot appear in XML", c as u32));
    }
    let mut wrapped = String::with_capacity(xml.len() + 64);
    wrapped.push_str("<m");
    for (p, uri) in namespaces {
        if !p.is_empty() && !is_name(p) {
            return Err(format!("{p:?} is not a namespace prefix"));
        }
        wrapped.push_str(if p.is_empty() { " xmlns" } else { " xmlns:" });
        wrapped.push_str(p);
        wrapped.push_str("=\"");
        push_escaped(&mut wrapped, uri, Escaping::Attribute);
        wrapped.push('"');
    }
    wrapped.push('>');
    let content_end = wrapped.len() + xml.len();
    wrapped.push_str(xml);
    wrapped.push_str("</m>");

    let mut r = quick_xml::NsReader::from_str(&wrapped);
    r.config_mut().check_end_names = true;
    r.config_mut().check_comments = true;
    let mut depth = 0usize;
    loop {
        let at = r.buffer_position() as usize;
        let (ns, event) = r
            .read_resolved_event()
            .map_err(|e| format!("not well-formed XML: {e}"))?;
        let start = match &event {
            Event::Start(e) | Event::Empty(e) => Some(e.clone()),
            _ => None,
        };
        if let Some(e) = start {
            if matches!(ns, ResolveResult::Unknown(_)) {
                return Err("an element uses an undeclared namespace prefix".into());
            }
            for a in e.attributes().with_checks(true) {
                let a = a.map_err(|e| format!("not well-formed XML: {e}"))?;
                a.unescape_value()
                    .map_err(|e| format!("not well-formed XML: {e}"))?;
                let (ans, _) = r.resolve_attribute(a.key);
                if matches!(ans, ResolveResult::Unknown(_)) {
                    return Err("an attribute uses an undeclared namespace prefix".into());
                }
            }
        }
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                if depth == 1 && at != content_end {
                    // The wrapper closed early: the content has an end tag
                    // it never opened.
                    return Err("an end tag closes an element the content did not open".into());
                }
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            Event::Empty(_) | Event::Comment(_) | Event::CData(_) | Event::PI(_) => {}
            Event::Text(t) => {
                t.unescape()
                    .map_err(|e| format!("not well-formed XML: {e}"))?;
            }
            Event::Decl(_) | Event::DocType(_) => {
                return Err("a declaration cannot appear inside an element".into());
            }
            Event::Eof => return Err("not well-formed XML: unclosed element".into()),
        }
    }
    match r.read_event() {
        Ok(Event::Eof) => Ok(()),
        _ => Err("an end tag closes an element the content did not open".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_content_must_be_well_formed_and_balanced() {
        let ns = [("k".to_string(), "urn:k".to_string())];
        for ok in [
            "",
            "text &amp; more",
            "<a x=\"1\"><b/>t<!-- c --></a><k:c k:y=\"2\"/>",
            "<![CDATA[<x>]]><?pi x?>",
        ] {
            assert_eq!(check_metadata_content(ok, &ns), Ok(()), "{ok}");
        }
        for bad in [
            "</metadata></info></bookmark><bookmark href=\"https://evil.example/\"><title>x</title>",
            "</m><m>",
            "<a>",
            "<a></b>",
            "a < b",
            "&nope;",
            "<a x=\"1\" x=\"2\"/>",
            "<z:a/>",
            "<?xml version=\"1.0\"?>",
            "bell \u{7}",
            "<!-- a -- b -->",
        ] {
            assert!(check_metadata_content(bad, &ns).is_err(), "{bad}");
        }
    }
}
