//! Which column is which field: the header names a generic CSV is read by,
//! and `--csv-map` on top of them.

use markport_model::{Error, ErrorKind, Location};

/// A field a column can fill. The names are `--csv-map`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Url,
    Title,
    Tags,
    Description,
    Folder,
    Created,
    Private,
    Shared,
    ToRead,
}

impl Target {
    pub(crate) const ALL: [Target; 9] = [
        Target::Url,
        Target::Title,
        Target::Tags,
        Target::Description,
        Target::Folder,
        Target::Created,
        Target::Private,
        Target::Shared,
        Target::ToRead,
    ];

    /// The name `--csv-map` and the notes use.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Target::Url => "url",
            Target::Title => "title",
            Target::Tags => "tags",
            Target::Description => "description",
            Target::Folder => "folder",
            Target::Created => "created",
            Target::Private => "private",
            Target::Shared => "shared",
            Target::ToRead => "toread",
        }
    }

    /// The header names that mean this field, most telling first, as
    /// [`normal`] writes them (lower case, no `_`, `-` or space).
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Target::Url => &["url", "link", "href", "uri"],
            Target::Title => &["title", "name"],
            Target::Tags => &["tags", "tag", "labels", "keywords"],
            Target::Description => &[
                "description",
                "desc",
                "note",
                "notes",
                "excerpt",
                "comment",
                "comments",
                "extended",
            ],
            Target::Folder => &["folder", "collection", "path", "category"],
            Target::Created => &[
                "created",
                "createdat",
                "added",
                "dateadded",
                "timeadded",
                "date",
                "timestamp",
            ],
            Target::Private => &["private", "isprivate"],
            Target::Shared => &["shared", "public"],
            Target::ToRead => &["toread", "unread", "readlater"],
        }
    }
}

/// A header name as it is matched: trimmed, ASCII lower case, without `_`,
/// `-` and spaces (`Time Added`, `time_added` and `TimeAdded` are one name).
pub(crate) fn normal(name: &str) -> String {
    name.trim()
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether the header `name` is one the reader maps to a field (a writer
/// must not use it for a column of its own).
pub(crate) fn is_known(name: &str) -> bool {
    let n = normal(name);
    Target::ALL
        .iter()
        .any(|t| t.aliases().contains(&n.as_str()))
}

/// For each column of `header`, the field it fills (`None`: kept as extra).
pub(crate) fn assign(
    header: &[String],
    map: &[(String, String)],
) -> Result<Vec<Option<Target>>, Error> {
    let at = Some(Location { line: 1, column: 1 });
    let mut columns: Vec<Option<Target>> = vec![None; header.len()];
    let mut decided: Vec<Target> = Vec::new();
    for (field, column) in map {
        let target = Target::ALL
            .iter()
            .copied()
            .find(|t| t.name().eq_ignore_ascii_case(field.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
                Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "--csv-map: no field {field:?} (the fields are {})",
                        names.join(", ")
                    ),
                    None,
                )
            })?;
        decided.push(target);
        if column.trim().is_empty() {
            continue; // `field=`: no column is this field
        }
        let i = header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(column.trim()))
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Invalid,
                    format!("--csv-map {field}={column}: the header has no column {column:?}"),
                    at,
                )
            })?;
        columns[i] = Some(target);
    }
    let normals: Vec<String> = header.iter().map(|h| normal(h)).collect();
    for target in Target::ALL {
        if decided.contains(&target) {
            continue;
        }
        // The column with the most telling name; on a tie the first.
        let best = target.aliases().iter().find_map(|alias| {
            (0..header.len()).find(|&i| columns[i].is_none() && normals[i] == *alias)
        });
        if let Some(i) = best {
            columns[i] = Some(target);
        }
    }
    if !columns.contains(&Some(Target::Url)) {
        return Err(Error::new(
            ErrorKind::WrongFormat,
            "not a bookmark CSV: no url, link or href column in the header \
             (name the link column with --csv-map url=COLUMN)",
            at,
        ));
    }
    Ok(columns)
}
