//! What `/api/convert` makes: the job a form asks for (mapped as the
//! command maps the same flags), run by the library's one pipeline into an
//! answer held within the request's memory reservation ([`Capped`]), and
//! the answer's body: the file, or the JSON of the file, the report and
//! the summary, made as it goes out ([`Streamed`]).

use std::path::PathBuf;
use std::time::Instant;

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::Value;

use markport::ops::{LinkMatch, Operation};
use markport::{Field, Input, Job, ReadOptions, Target, To, WriteOptions};

use crate::answer::ApiError;
use crate::form::Form;
use crate::memory::{lock, Capped, Held, Stop};
use crate::stream::Streamed;

/// Whether this server writes `f`: a format of one file (a tree of files
/// is not one download).
pub(crate) fn writes(f: &markport::Format) -> bool {
    f.writable() && f.directory().is_none()
}

/// The formats compiled in, and whether this server writes each.
pub(crate) fn format_list() -> Value {
    let list: Vec<Value> = markport::FORMATS
        .iter()
        .map(|f| {
            serde_json::json!({
                "name": f.name,
                "description": f.description,
                "extensions": f.extensions,
                "reads": true,
                "writes": writes(f),
            })
        })
        .collect();
    serde_json::json!({ "formats": list })
}

pub(crate) fn named_format(
    form: &Form,
    field: &str,
) -> Result<Option<&'static markport::Format>, ApiError> {
    match form.get(field) {
        None => Ok(None),
        Some(name) => markport::format(name).map(Some).ok_or_else(|| {
            let names: Vec<_> = markport::FORMATS.iter().map(|f| f.name).collect();
            ApiError::bad(format!(
                "{field}: no format {name:?}; the formats are {}",
                names.join(", ")
            ))
        }),
    }
}

/// The fields `/api/convert` takes besides `file`.
const CONVERT_FIELDS: &[&str] = &[
    "to",
    "for",
    "from",
    "strict",
    "dedupe",
    "keep_duplicates",
    "folders_as_tags",
    "public_only",
    "flatten",
    "only_folder",
    "fail_on_loss",
    "allow_loss",
    "fail_on_extension",
    "allow_empty",
    "xbel_strict",
    "include_private",
    "profile",
];

/// The job a form asks for, as `crates/cli/src/flags.rs` maps the same
/// flags, with the operations in the command's order.
pub(crate) fn job_of(form: &mut Form, profile: Option<&PathBuf>) -> Result<Job, ApiError> {
    form.only(CONVERT_FIELDS)?;
    // `for`: the program the file is for, as `--for` takes it; it picks
    // the format when `to` does not, names the role folders its way and
    // says what its import will drop or change.
    let destination = match form.get("for") {
        None => None,
        Some(name) => Some(markport::destination(name).ok_or_else(|| {
            let names: Vec<_> = markport::destination_names().collect();
            ApiError::bad(format!(
                "for: {name:?} is not a destination markport knows ({})",
                names.join(", ")
            ))
        })?),
    };
    let to_name = match (form.get("to"), destination) {
        (Some(to), _) => to,
        (None, Some(d)) => d.format().name,
        (None, None) => {
            let names: Vec<_> = markport::writable()
                .filter(|f| writes(f))
                .map(|f| f.name)
                .collect();
            return Err(ApiError::bad(format!(
                "to: name the output format ({}), or the program with `for`",
                names.join(", ")
            )));
        }
    };
    let format = markport::format(to_name)
        .filter(|f| writes(f))
        .ok_or_else(|| {
            let names: Vec<_> = markport::writable()
                .filter(|f| writes(f))
                .map(|f| f.name)
                .collect();
            ApiError::bad(format!(
                "to: this server does not write {to_name:?}; it writes {}",
                names.join(", ")
            ))
        })?;
    let mut options = WriteOptions::default();
    options.xbel.strict = form.flag("xbel_strict")?;
    options.xfolk.include_private = form.flag("include_private")?;
    // A profile's file is read by its path, through its format's reader
    // (a database as an immutable open or a private copy), first.
    let inputs = profile
        .map(|p| Input::Path(p.clone()))
        .into_iter()
        .chain(
            std::mem::take(&mut form.files)
                .into_iter()
                .map(|u| Input::Bytes(u.bytes)),
        )
        .collect();
    let mut job = Job::new(inputs, To::Format { format, options });
    job.destination = destination;
    job.from = named_format(form, "from")?;
    let mut read = ReadOptions::default();
    read.strict = form.flag("strict")?;
    job.read = read;
    job.keep_duplicates = form.flag("keep_duplicates")?;
    job.operations = operations(form)?;
    job.allow_loss = match form.get("allow_loss") {
        None => Vec::new(),
        Some(list) => list
            .split(',')
            .map(|n| {
                n.trim()
                    .parse::<Field>()
                    .map_err(|e| ApiError::bad(format!("allow_loss: {e}")))
            })
            .collect::<Result<_, _>>()?,
    };
    job.fail_on_loss = form.flag("fail_on_loss")? || !job.allow_loss.is_empty();
    job.fail_on_extension = form.flag("fail_on_extension")?;
    job.allow_empty = form.flag("allow_empty")?;
    Ok(job)
}

/// The operations a form asks for, in the command's order.
fn operations(form: &Form) -> Result<Vec<Operation>, ApiError> {
    let mut ops = Vec::new();
    if let Some(path) = form.get("only_folder") {
        ops.push(Operation::OnlyFolder(path.to_string()));
    }
    if form.flag("public_only")? {
        ops.push(Operation::PublicOnly);
    }
    match form.get("dedupe") {
        None | Some("off" | "none") => {}
        Some("exact" | "on" | "true") => ops.push(Operation::Dedupe),
        Some(level @ ("normal" | "loose")) => ops.push(Operation::DedupeBy {
            by: if level == "normal" {
                LinkMatch::Normal
            } else {
                LinkMatch::Loose
            },
            keep_empty: false,
        }),
        Some(v) => {
            return Err(ApiError::bad(format!(
                "dedupe: {v:?} is not off, exact, normal or loose"
            )))
        }
    }
    if form.flag("folders_as_tags")? {
        ops.push(Operation::FoldersAsTags);
    }
    if form.flag("flatten")? {
        ops.push(Operation::Flatten);
    }
    Ok(ops)
}

/// `file.html` to `file.xbel`: the first upload's name with the output
/// format's extension, in characters safe in a header.
pub(crate) fn output_name(first: &str, format: &markport::Format) -> String {
    let stem = first.rsplit_once('.').map_or(first, |(s, _)| s);
    let mut stem: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ' ' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let trimmed = stem.trim_matches(['.', ' ']).to_string();
    stem = if trimmed.is_empty() {
        "bookmarks".into()
    } else {
        trimmed
    };
    // A format whose file has a fixed name is saved under it; Firefox's
    // first extension is its compressed form, which the API does not
    // make.
    match format.name {
        "chromium" => return "Bookmarks".into(),
        "desktop" => return "recently-used.xbel".into(),
        _ => {}
    }
    let ext = match format.name {
        "firefox" => "json",
        _ => format.extensions.first().copied().unwrap_or(format.name),
    };
    format!("{stem}.{ext}")
}

/// What the refused gate was, in the command's words.
fn refusal_text(done: &markport::Done, allow: &[Field]) -> String {
    match done.refused {
        Some(markport::Refusal::Loss) => {
            let names: Vec<_> = done
                .loss
                .not_allowed(allow)
                .iter()
                .map(|f| f.name())
                .collect();
            format!(
                "nothing written: fail_on_loss ({} not allowed)",
                names.join(", ")
            )
        }
        Some(markport::Refusal::Extension) => "nothing written: fail_on_extension".into(),
        Some(markport::Refusal::Empty) => {
            "nothing written: no bookmark is left; allow_empty writes it anyway".into()
        }
        None => String::new(),
    }
}

/// What a conversion made.
pub(crate) struct Made {
    output: Vec<u8>,
    filename: String,
    /// The `--json` report, serialised in its fields' order.
    report: Vec<u8>,
    /// The plain summary, line by line.
    summary: markport::report::Summary,
}

impl Made {
    /// The answer: `{"output", "base64", "filename", "report",
    /// "summary"}` with `json`, else the file as an attachment; either
    /// made as it goes out, holding the request's reservation until then.
    pub(crate) fn answer(self, json: bool, held: Held) -> Response {
        if !json {
            let mut r = Response::new(Body::new(Streamed::file(self.output, held)));
            let h = r.headers_mut();
            // Never shown in the page's origin: a download, whatever it holds.
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/octet-stream"),
            );
            h.insert(
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&format!("attachment; filename=\"{}\"", self.filename))
                    .expect("a name of safe ASCII"),
            );
            return r;
        }
        let text = std::str::from_utf8(&self.output).is_ok();
        let mut tail = format!("\",\"base64\":{},\"filename\":", !text).into_bytes();
        serde_json::to_writer(&mut tail, &self.filename).expect("a string serialises");
        tail.extend_from_slice(b",\"report\":");
        tail.extend_from_slice(&self.report);
        tail.extend_from_slice(b",\"summary\":");
        serde_json::to_writer(&mut tail, &self.summary).expect("a summary serialises");
        tail.extend_from_slice(b"}\n");
        let body = Streamed::json(b"{\"output\":\"".to_vec(), self.output, text, tail, held);
        let mut r = Response::new(Body::new(body));
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        r
    }
}

/// Where a conversion's answer is made: in the request's reservation,
/// beside its documents' budget, until its deadline.
pub(crate) struct Room {
    pub(crate) held: Held,
    pub(crate) beside: u64,
}

/// The conversion, and the collection it leaves to free after the answer.
pub(crate) fn run_convert(
    job: Job,
    names: &[String],
    to_named: bool,
    room: Room,
    deadline: Instant,
) -> (Result<Made, ApiError>, Option<markport::Done>) {
    match convert_job(job, names, to_named, room, deadline) {
        Ok((made, done)) => (Ok(made), Some(done)),
        Err(e) => (Err(e), None),
    }
}

/// Why a [`Capped`] writer stopped, as the answer says it.
fn stopped(why: Stop, held: &Held) -> ApiError {
    match why {
        Stop::Time => ApiError::late(),
        Stop::Memory => lock(held)
            .refusal()
            .unwrap_or_else(|| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "out of memory")),
    }
}

fn convert_job(
    mut job: Job,
    names: &[String],
    to_named: bool,
    room: Room,
    deadline: Instant,
) -> Result<(Made, markport::Done), ApiError> {
    let input_bytes: usize = job
        .inputs
        .iter()
        .map(|i| match i {
            Input::Bytes(b) => b.len(),
            _ => 0,
        })
        .sum();
    job.read.deadline = Some(deadline);
    let to = job.to.clone();
    let destination = job.destination;
    let allow = job.allow_loss.clone();
    let To::Format { format, .. } = &to else {
        unreachable!("the API makes formats only")
    };
    // Room for an output twice the input's size, reserved, not touched:
    // the buffer does not grow by copies as the writer fills it. What it
    // holds is what the reservation counts.
    let mut output = Capped::new(
        room.held.clone(),
        room.beside,
        deadline,
        input_bytes.saturating_mul(2),
    );
    let done = markport::run(job, Target::Stream(&mut output)).map_err(|e| {
        output
            .stopped
            .map_or_else(|| ApiError::job(&e, names), |why| stopped(why, &room.held))
    })?;
    let filename = output_name(&names[0], format);
    let report = markport::report::Report::new(&done, names, &filename, format.name, destination);
    let said = destination.map_or(String::new(), |d| {
        markport::report::for_words(d, to_named, format.name)
    });
    let summary =
        markport::report::Summary::new(&done, names, &filename, format.name, &said, destination);
    if done.refused.is_some() {
        let mut e = ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            refusal_text(&done, &allow),
        );
        e.refused = Some(Box::new(crate::answer::Refused {
            report: serde_json::to_value(&report).expect("a report serialises"),
            summary: serde_json::to_value(&summary).expect("a summary serialises"),
        }));
        return Err(e);
    }
    let mut written = output.then();
    if serde_json::to_writer(&mut written, &report).is_err() {
        let why = written.stopped.unwrap_or(Stop::Memory);
        return Err(stopped(why, &room.held));
    }
    Ok((
        Made {
            output: output.bytes,
            filename,
            report: written.bytes,
            summary,
        },
        done,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names_are_safe_in_a_header() {
        let xbel = markport::format("xbel").unwrap();
        assert_eq!(output_name("bookmarks.html", xbel), "bookmarks.xbel");
        assert_eq!(output_name("a\"b\r\n.html", xbel), "a_b__.xbel");
        assert_eq!(output_name("..", xbel), "bookmarks.xbel");
        assert_eq!(crate::form::base_name("C:\\Users\\me\\f.html"), "f.html");
        let chromium = markport::format("chromium").unwrap();
        assert_eq!(output_name("f.html", chromium), "Bookmarks");
        let firefox = markport::format("firefox").unwrap();
        assert_eq!(output_name("f.html", firefox), "f.json");
    }
}
