//! The loss matrix: formats x fields, generated from the registry.

use markport_model::{Field, Support};

use crate::registry::writable;
use crate::FORMATS;

fn cell(s: Support) -> &'static str {
    match s {
        Support::Full => "yes",
        Support::Partial(_) => "partly",
        Support::None => "no",
    }
}

/// The matrix as Markdown: one row per field, one column per writable
/// format, then the notes of every "partly" cell and the formats markport
/// only reads. `docs/loss-matrix.md` is exactly this.
pub fn markdown() -> String {
    let mut s = String::from(
        "# Loss matrix\n\n\
         What each format's writer carries, field by field: `yes` (every value is written and read back unchanged), \
         `partly` (see the notes below), `no` (reported lost whenever present). \
         Generated from the format registry by `markport formats --markdown`; a test fails when this file is stale.\n\n| field |",
    );
    for f in writable() {
        s.push_str(&format!(" {} |", f.name));
    }
    s.push_str("\n|---|");
    for _ in writable() {
        s.push_str("---|");
    }
    s.push('\n');
    for field in Field::ALL {
        s.push_str(&format!("| `{}` |", field.name()));
        for f in writable() {
            s.push_str(&format!(" {} |", cell((f.support)(*field))));
        }
        s.push('\n');
    }
    s.push_str("\n## Notes\n\n");
    for f in writable() {
        for field in Field::ALL {
            if let Support::Partial(note) = (f.support)(*field) {
                s.push_str(&format!("- {} `{}`: {}\n", f.name, field.name(), note));
            }
        }
    }
    let read_only = read_only_names();
    if !read_only.is_empty() {
        s.push_str(&format!(
            "\n## Read only\n\nmarkport reads these formats but does not write them, so they have no column: {read_only}.\n"
        ));
    }
    s
}

fn read_only_names() -> String {
    FORMATS
        .iter()
        .filter(|f| !f.writable())
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The matrix as a plain-text table for terminals.
pub fn text() -> String {
    let width = Field::ALL.iter().map(|f| f.name().len()).max().unwrap_or(0);
    let mut s = format!("{:width$}", "field");
    for f in writable() {
        s.push_str(&format!("  {:>8}", f.name));
    }
    s.push('\n');
    for field in Field::ALL {
        s.push_str(&format!("{:width$}", field.name()));
        for f in writable() {
            s.push_str(&format!("  {:>8}", cell((f.support)(*field))));
        }
        s.push('\n');
    }
    let read_only = read_only_names();
    if !read_only.is_empty() {
        s.push_str(&format!("read only (no writer): {read_only}\n"));
    }
    s
}
