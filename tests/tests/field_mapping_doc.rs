//! crates/model/src/mapping.md (the rustdoc of `markport_model::mapping`)
//! says where each field comes from and goes to in every format. It is held
//! to what the code does: the registry's `support` for the write side, the
//! corpus samples as read for the read side.

use std::collections::BTreeMap;

use markport::{Field, Support, FORMATS};
use markport_tests::{corpus_samples, read_sample, root};

/// The cell of a format that has no place for the field on that side.
const NONE: &str = "—";

/// One row of a field's table.
struct Row {
    read: String,
    written: String,
}

impl Row {
    fn reads(&self) -> bool {
        !self.read.is_empty() && self.read != NONE
    }

    fn writes(&self) -> bool {
        !self.written.is_empty() && self.written != NONE
    }
}

/// The page's sections in page order: the field's name and its rows by format.
type Sections = Vec<(String, BTreeMap<String, Row>)>;

fn page() -> String {
    let path = root().join("crates/model/src/mapping.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cells of a table row, split on the `|`s that are not escaped.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// Each `### name` section and its table `| format | read from | written as |`,
/// and what is wrong with the page's shape: a row must name a registered
/// format, once, in registry order, with no empty cell.
fn sections(text: &str) -> (Sections, Vec<String>) {
    let order = |name: &str| FORMATS.iter().position(|f| f.name == name);
    let mut out: Sections = Vec::new();
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = n + 1;
        if let Some(name) = line.strip_prefix("### ") {
            out.push((name.trim().to_string(), BTreeMap::new()));
            continue;
        }
        if line.starts_with("## ") || line.starts_with("# ") {
            continue;
        }
        if !line.starts_with('|') {
            continue;
        }
        let Some((field, rows)) = out.last_mut() else {
            problems.push(format!(
                "line {at}: a table before the first field's section"
            ));
            continue;
        };
        let c = cells(line);
        if c.len() != 3 {
            problems.push(format!("line {at} ({field}): {} cells, not 3", c.len()));
            continue;
        }
        if c[0] == "format" || c[0].chars().all(|ch| ch == '-') {
            continue;
        }
        let Some(pos) = order(&c[0]) else {
            problems.push(format!("line {at} ({field}): no format named {:?}", c[0]));
            continue;
        };
        if rows.contains_key(&c[0]) {
            problems.push(format!("line {at} ({field}): {} has a second row", c[0]));
        }
        if rows.keys().any(|k| order(k) > Some(pos)) {
            problems.push(format!(
                "line {at} ({field}): {} is out of the registry's order",
                c[0]
            ));
        }
        if c[1].is_empty() || c[2].is_empty() {
            problems.push(format!(
                "line {at} ({field}): an empty cell for {} (write {NONE} for none)",
                c[0]
            ));
        }
        rows.insert(
            c[0].clone(),
            Row {
                read: c[1].clone(),
                written: c[2].clone(),
            },
        );
    }
    (out, problems)
}

fn field_rows(sections: &Sections, field: Field) -> Option<&BTreeMap<String, Row>> {
    sections
        .iter()
        .find(|(name, _)| name == field.name())
        .map(|(_, rows)| rows)
}

#[test]
fn every_field_has_one_section_in_field_order_and_every_row_is_well_formed() {
    let (sections, mut problems) = sections(&page());
    let names: Vec<&str> = sections.iter().map(|(n, _)| n.as_str()).collect();
    let fields: Vec<&str> = Field::ALL.iter().map(|f| f.name()).collect();
    for f in &fields {
        if !names.contains(f) {
            problems.push(format!("{f} has no section"));
        }
    }
    for n in &names {
        if !fields.contains(n) {
            problems.push(format!("the section {n} names no field"));
        }
    }
    if problems.is_empty() {
        assert_eq!(names, fields, "sections are in Field::ALL order, once each");
    }
    assert!(problems.is_empty(), "mapping.md:\n{}", problems.join("\n"));
}

/// A writer that carries a field (any support but `None`) has a row saying
/// how; a format that does not carry it (every field of a read-only format)
/// has no row claiming it is written.
#[test]
fn the_written_side_is_what_the_registry_says() {
    let (sections, _) = sections(&page());
    let mut problems = Vec::new();
    for format in FORMATS {
        for field in Field::ALL.iter().copied() {
            let Some(rows) = field_rows(&sections, field) else {
                problems.push(format!("{field} has no section"));
                continue;
            };
            let row = rows.get(format.name);
            let carried = format.writable() && (format.support)(field) != Support::None;
            match (carried, row) {
                (true, Some(r)) if r.writes() => {}
                (true, _) => problems.push(format!(
                    "{field}: {} writes it ({:?}) but has no row saying as what",
                    format.name,
                    (format.support)(field)
                )),
                (false, Some(r)) if r.writes() => problems.push(format!(
                    "{field}: the {} row says it is written as {:?}, but {} does not write it (write {NONE})",
                    format.name, r.written, format.name
                )),
                (false, _) => {}
            }
        }
    }
    assert!(problems.is_empty(), "mapping.md:\n{}", problems.join("\n"));
}

/// Every field a format's corpus samples hold once read has a row of that
/// format saying where it is read from; every format has samples, so every
/// reader is held to its rows.
#[test]
fn every_field_a_sample_holds_says_where_it_is_read_from() {
    let (sections, _) = sections(&page());
    let samples = corpus_samples();
    let mut problems = Vec::new();
    for format in FORMATS {
        if !samples.iter().any(|(f, _)| f == format.name) {
            problems.push(format!(
                "{} has no sample under corpus/: its read side is unchecked",
                format.name
            ));
        }
    }
    for (format, path) in &samples {
        let census = read_sample(format, path).census();
        for field in Field::ALL.iter().copied().filter(|f| census.has(*f)) {
            let reads = field_rows(&sections, field)
                .and_then(|rows| rows.get(format.as_str()))
                .is_some_and(Row::reads);
            if !reads {
                let name = path.strip_prefix(root()).unwrap_or(path);
                problems.push(format!(
                    "{field}: {} holds it as {format} reads it, but the {format} row says nothing of where it is read from",
                    name.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "mapping.md:\n{}", problems.join("\n"));
}

/// The anchor rustdoc gives a heading: ASCII letters lower-cased, letters,
/// digits, `-` and `_` kept, spaces as `-`, the rest (the dots) left out.
fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_ascii_lowercase())
            } else if c == ' ' {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The model's field docs link to their sections (`crate::mapping#bookmarktags`):
/// every link names a section that exists, and every field with a member
/// of its own (all but the `.form` fields) is linked from somewhere.
#[test]
fn the_model_links_each_field_to_its_section() {
    let (sections, _) = sections(&page());
    let slugs: BTreeMap<String, &str> = sections
        .iter()
        .map(|(name, _)| (slug(name), name.as_str()))
        .collect();
    assert_eq!(slugs.len(), sections.len(), "two sections share an anchor");
    let mut linked = Vec::new();
    let mut problems = Vec::new();
    let dir = root().join("crates/model/src");
    for file in ["document.rs", "header.rs", "node.rs", "lib.rs"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for (at, _) in text.match_indices("crate::mapping#") {
            let anchor: String = text[at + "crate::mapping#".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            match slugs.get(&anchor) {
                Some(name) => linked.push(name.to_string()),
                None => problems.push(format!("{file}: a link to #{anchor}, no such section")),
            }
        }
    }
    for field in Field::ALL {
        if field.date_of_form().is_none() && !linked.iter().any(|l| l == field.name()) {
            problems.push(format!("no field doc in the model links to {field}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
