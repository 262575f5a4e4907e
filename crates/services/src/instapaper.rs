//! Instapaper's CSV export, every generation: `URL,Title,Selection,Folder`,
//! then `Timestamp` (Unix seconds, about 2019 on), then `Tags` (late 2025
//! on: `URL,Title,Selection,Folder,Timestamp,Tags`, the tags a JSON array
//! such as `["rust","to read"]`). Columns are found by name, in any order.
//! `Selection` is the highlighted text or summary (the description). Each
//! `Folder` (`Unread`, `Archive`, `Starred`, the user's own) becomes a
//! folder, in the order first met; a folder path such as `Work/Reading` is
//! the folder `Reading` inside `Work`. Only a `/` with no space beside it
//! separates: older exports have folder names such as `Blogs / Portfolios`,
//! one folder.

use std::borrow::Cow;

use markport_model::{
    Attribute, Bookmark, Budget, Diagnostic, Document, Error, Location, Parsed, ReadOptions,
};

use crate::folders::Paths;
use crate::{table, text};

pub use crate::table::RULES;

const REQUIRED: &[&str] = &["URL", "Title", "Selection", "Folder"];
const OPTIONAL: &[&str] = &["Timestamp", "Tags"];

/// How sure it is that `input` is an Instapaper export: a header of its
/// columns, the four it always has among them.
pub fn detect(input: &[u8]) -> Option<u8> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let line = input.split(|b| *b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let names: Vec<&str> = line
        .trim_end_matches('\r')
        .split(',')
        .map(str::trim)
        .collect();
    let known = |n: &str| {
        REQUIRED
            .iter()
            .chain(OPTIONAL)
            .any(|c| c.eq_ignore_ascii_case(n))
    };
    let has = |r: &&str| names.iter().any(|n| n.eq_ignore_ascii_case(r));
    (REQUIRED.iter().all(has) && names.iter().all(|n| known(n))).then_some(90)
}

/// The `Tags` column: a JSON array of strings; an older or hand-made
/// export's comma-separated list is read too. A value that is neither is
/// kept as written (the bookmark's extra `Tags`), with a warning.
fn tags(value: &str, b: &mut Bookmark, at: Location, diags: &mut Vec<Diagnostic>) {
    let value = value.trim();
    if value.is_empty() {
        return;
    }
    if value.starts_with('[') {
        match serde_json::from_str::<Vec<String>>(value) {
            Ok(tags) => {
                b.tags = tags
                    .into_iter()
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect();
            }
            Err(e) => {
                diags.push(Diagnostic::warning(
                    format!("Tags {value:?} is not a JSON array of strings ({e}); kept as written"),
                    Some(at),
                ));
                b.details_mut().extra.push(Attribute::new("Tags", value));
            }
        }
        return;
    }
    b.tags = value
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect();
}

/// Read an Instapaper CSV export.
pub fn read(input: &[u8], opts: &ReadOptions) -> Result<Parsed, Error> {
    let mut diags = Vec::new();
    let src = text(input, &mut diags);
    struct State {
        doc: Document,
        folders: Paths,
        columns: [usize; 4],
        timestamp: Option<usize>,
        tags: Option<usize>,
        budget: Budget,
    }
    let budget = Budget::new(opts, input.len());
    let start = |t: &table::Table| {
        let col = |n| t.column(n).expect("required columns are checked");
        State {
            doc: Document::new(),
            folders: Paths::default(),
            columns: [col("URL"), col("Title"), col("Selection"), col("Folder")],
            timestamp: t.column("Timestamp"),
            tags: t.column("Tags"),
            budget,
        }
    };
    let each = |s: &mut State, at, mut row: Vec<String>, diags: &mut Vec<Diagnostic>| {
        let [url, title, selection, folder] = s.columns;
        // No folder is Instapaper's own default, the unread list.
        let parent = match s
            .folders
            .get_tight(&mut s.doc, &row[folder], &mut s.budget)?
        {
            Some(id) => id,
            None => s
                .folders
                .get(&mut s.doc, "Unread", &mut s.budget)?
                .expect("a named folder"),
        };
        let mut b = Bookmark::new(std::mem::take(&mut row[url]));
        b.title = Some(std::mem::take(&mut row[title])).filter(|t| !t.is_empty());
        b.desc = Some(std::mem::take(&mut row[selection])).filter(|t| !t.is_empty());
        if let Some(ts) = s.timestamp {
            b.added = table::date(&row[ts], "Timestamp", at, diags);
        }
        if let Some(t) = s.tags {
            tags(&row[t], &mut b, at, diags);
        }
        s.budget.bookmark(&b)?;
        s.doc.push(Some(parent), b);
        Ok(())
    };
    let columns = table::Columns {
        service: "Instapaper CSV",
        required: REQUIRED,
        optional: OPTIONAL,
        open: false,
        url: "URL",
    };
    let part = table::Part {
        text: &src,
        lossy: matches!(src, Cow::Owned(_)),
        checking: opts.checking,
    };
    let State { doc, .. } = table::read(part, columns, &mut diags, start, each)?;
    Parsed::new(doc, diags).enforce(opts)
}

/// This format as the registry lists it (`markport::format("instapaper")`): its
/// name, description, extensions, detector, readers, writer and what the
/// writer carries, declared once here.
pub const FORMAT: markport_model::FormatDef = markport_model::FormatDef::reader(
    "instapaper",
    "Instapaper's CSV export, every generation; folder paths as folders",
    &[],
    detect,
    read,
)
.with_rules(RULES);
