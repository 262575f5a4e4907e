//! The loss matrix: formats x fields, generated from the registry.

use markport_model::{Field, Support};

use crate::registry::FORMATS;

fn cell(s: Support) -> &'static str {
    match s {
        Support::Full => "yes",
        Support::Partial(_) => "partly",
        Support::None => "no",
    }
}

/// The matrix as Markdown: one row per field, one column per format, then
/// the notes of every "partly" cell. `docs/loss-matrix.md` is exactly this.
pub fn markdown() -> String {
    let mut s = String::from(
        "# Loss matrix\n\n\
         What each format's writer carries, field by field: `yes` (every value is written and read back unchanged), \
         `partly` (see the notes below), `no` (reported lost whenever present). \
         Generated from the format registry by `markport formats --markdown`; a test fails when this file is stale.\n\n| field |",
    );
    for f in FORMATS {
        s.push_str(&format!(" {} |", f.name));
    }
    s.push_str("\n|---|");
    for _ in FORMATS {
        s.push_str("---|");
    }
    s.push('\n');
    for field in Field::ALL {
        s.push_str(&format!("| `{}` |", field.name()));
        for f in FORMATS {
            s.push_str(&format!(" {} |", cell((f.support)(*field))));
        }
        s.push('\n');
    }
    s.push_str("\n## Notes\n\n");
    for f in FORMATS {
        for field in Field::ALL {
            if let Support::Partial(note) = (f.support)(*field) {
                s.push_str(&format!("- {} `{}`: {}\n", f.name, field.name(), note));
            }
        }
    }
    s
}

/// The matrix as a plain-text table for terminals.
pub fn text() -> String {
    let width = Field::ALL.iter().map(|f| f.name().len()).max().unwrap_or(0);
    let mut s = format!("{:width$}", "field");
    for f in FORMATS {
        s.push_str(&format!("  {:>8}", f.name));
    }
    s.push('\n');
    for field in Field::ALL {
        s.push_str(&format!("{:width$}", field.name()));
        for f in FORMATS {
            s.push_str(&format!("  {:>8}", cell((f.support)(*field))));
        }
        s.push('\n');
    }
    s
}
