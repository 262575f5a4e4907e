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

/// The fields one column fills: none (the column is kept as extra), one,
/// or several when `--csv-map` names the column for each of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Targets(u16);

impl Targets {
    fn bit(t: Target) -> u16 {
        1 << Target::ALL.iter().position(|&x| x == t).unwrap_or(0)
    }

    fn insert(&mut self, t: Target) {
        self.0 |= Targets::bit(t);
    }

    /// Whether the column fills `t`.
    pub(crate) fn contains(self, t: Target) -> bool {
        self.0 & Targets::bit(t) != 0
    }

    /// Whether the column fills no field.
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The fields, in [`Target::ALL`]'s order.
    pub(crate) fn iter(self) -> impl Iterator<Item = Target> {
        Target::ALL.into_iter().filter(move |&t| self.contains(t))
    }
}

/// For each column of `header`, the fields it fills (none: kept as extra).
///
/// `--csv-map` comes first: each field it names takes the column it names
/// (one column may be named for several fields: `url=Link,title=Link`), or
/// none (`folder=`); a field named twice is an error naming it. Then each
/// other field takes the column with its most telling header name among
/// those neither `--csv-map` nor another field took.
pub(crate) fn assign(header: &[String], map: &[(String, String)]) -> Result<Vec<Targets>, Error> {
    let at = Some(Location { line: 1, column: 1 });
    let mut columns: Vec<Targets> = vec![Targets::default(); header.len()];
    let mut mapped = vec![false; header.len()];
    let mut decided: Vec<(Target, &str)> = Vec::new();
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
        if let Some((_, first)) = decided.iter().find(|(t, _)| *t == target) {
            let name = target.name();
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "--csv-map maps the field {name} twice ({name}={first} and {name}={column}): \
                     a field is read from one column"
                ),
                None,
            ));
        }
        decided.push((target, column.as_str()));
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
        columns[i].insert(target);
        mapped[i] = true;
    }
    let normals: Vec<String> = header.iter().map(|h| normal(h)).collect();
    for target in Target::ALL {
        if decided.iter().any(|(t, _)| *t == target) {
            continue;
        }
        // The column with the most telling name; on a tie the first.
        let best = target.aliases().iter().find_map(|alias| {
            (0..header.len()).find(|&i| !mapped[i] && columns[i].is_empty() && normals[i] == *alias)
        });
        if let Some(i) = best {
            columns[i].insert(target);
        }
    }
    if !columns.iter().any(|c| c.contains(Target::Url)) {
        // A link column that --csv-map gave to other fields only: say how
        // to keep it the link as well.
        let taken = (0..header.len())
            .find(|&i| mapped[i] && Target::Url.aliases().contains(&normals[i].as_str()));
        let message = match taken {
            Some(i) => {
                let fields: Vec<&str> = columns[i].iter().map(Target::name).collect();
                format!(
                    "no url column: --csv-map reads the column {:?} as {} only \
                     (add url={} for it to be the link as well)",
                    header[i].trim(),
                    fields.join(" and "),
                    header[i].trim()
                )
            }
            None => "not a bookmark CSV: no url, link or href column in the header \
                     (name the link column with --csv-map url=COLUMN)"
                .to_string(),
        };
        return Err(Error::new(ErrorKind::WrongFormat, message, at));
    }
    Ok(columns)
}
