//! The routes: the page, and the API in the style of `pandoc server`.
//! Each POST takes a multipart form (one or more `file`, the options as
//! fields), holds one of the bounded conversion slots while it reads the
//! body and converts, and converts on a blocking thread under the time
//! limit.

use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Request, State as AxState};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{middleware, Router};
use base64::Engine as _;
use serde_json::{json, Value};

use markport::ops::{LinkMatch, Operation};
use markport::{Field, Input, Job, ReadOptions, Target, To, WriteOptions};

use crate::answer::{error_response, json_response, json_response_bytes, ApiError};
use crate::{guard, State};

/// Every route, behind the guard.
pub(crate) fn router(state: Arc<State>) -> Router {
    let limit = usize::try_from(state.config.max_size).unwrap_or(usize::MAX);
    Router::new()
        .route("/", get(page))
        .route("/api/version", get(version))
        .route("/api/formats", get(formats))
        .route("/api/convert", post(convert))
        .route("/api/check", post(check))
        .route("/api/info", post(info))
        .route("/api/profiles", get(crate::profiles::list))
        .fallback(not_found)
        // A body sent in chunks, with no length announced, is cut at the
        // limit as it is read.
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn_with_state(state.clone(), guard::check))
        .with_state(state)
}

/// `{"output", "base64", "filename", "report"}`, written straight into
/// one buffer: the output (tens of megabytes for a big collection) is
/// escaped once, not copied into a JSON value first.
fn made_json(made: Made) -> Vec<u8> {
    let (output, base64) = match String::from_utf8(made.output) {
        Ok(text) => (text, false),
        Err(e) => (
            base64::engine::general_purpose::STANDARD.encode(e.into_bytes()),
            true,
        ),
    };
    let mut out = Vec::with_capacity(output.len() + output.len() / 8 + 4096);
    out.extend_from_slice(b"{\"output\":");
    serde_json::to_writer(&mut out, &output).expect("a string serialises");
    drop(output);
    out.extend_from_slice(format!(",\"base64\":{base64},\"filename\":").as_bytes());
    serde_json::to_writer(&mut out, &made.filename).expect("a string serialises");
    out.extend_from_slice(b",\"report\":");
    out.extend_from_slice(made.report.as_bytes());
    out.extend_from_slice(b",\"summary\":");
    serde_json::to_writer(&mut out, &made.summary).expect("a summary serialises");
    out.extend_from_slice(b"}\n");
    out
}

async fn page(AxState(state): AxState<Arc<State>>) -> Response {
    // A search that failed offers no profile; the page works all the same.
    let profiles = crate::profiles::found(&state).await.unwrap_or_default();
    let mut r = Response::new(Body::from(state.page.with_profiles(&profiles)));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    r
}

async fn not_found() -> Response {
    error_response(StatusCode::NOT_FOUND, "no such page")
}

async fn version() -> Response {
    json_response(
        StatusCode::OK,
        &json!({ "version": env!("CARGO_PKG_VERSION"), "api": 1 }),
    )
}

/// The formats compiled in, and whether this server writes each (a tree
/// of files is not one download).
pub(crate) fn format_list() -> Value {
    let list: Vec<Value> = markport::FORMATS
        .iter()
        .map(|f| {
            json!({
                "name": f.name,
                "description": f.description,
                "extensions": f.extensions,
                "reads": true,
                "writes": writes(f),
            })
        })
        .collect();
    json!({ "formats": list })
}

fn writes(f: &markport::Format) -> bool {
    f.writable() && f.directory().is_none()
}

async fn formats() -> Response {
    json_response(StatusCode::OK, &format_list())
}

/// One uploaded file.
struct Upload {
    name: String,
    bytes: Vec<u8>,
}

/// A request's form: its files and its other fields, in order.
struct Form {
    files: Vec<Upload>,
    fields: Vec<(String, String)>,
}

impl Form {
    fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None => Ok(false),
            Some("on" | "true" | "1" | "yes") => Ok(true),
            Some("off" | "false" | "0" | "no") => Ok(false),
            Some(v) => Err(ApiError::bad(format!("{name}: {v:?} is not true or false"))),
        }
    }

    /// Refuse a field this route does not know: a misspelt option must not
    /// be converted as if it had not been asked for.
    fn only(&self, known: &[&str]) -> Result<(), ApiError> {
        for (name, _) in &self.fields {
            if !known.contains(&name.as_str()) {
                return Err(ApiError::bad(format!(
                    "unknown field {name:?}; this route takes file, {}",
                    known.join(", ")
                )));
            }
        }
        if self.files.is_empty() && self.get("profile").is_none() {
            return Err(ApiError::bad(
                "no file: send one or more `file` parts, or a `profile` (GET /api/profiles)",
            ));
        }
        Ok(())
    }

    fn names(&self) -> Vec<String> {
        self.files.iter().map(|f| f.name.clone()).collect()
    }
}

fn multipart_error(e: axum::extract::multipart::MultipartError, max: u64) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request is larger than the limit of {max} bytes (markport serve --max-size)"
            ),
        )
    } else {
        ApiError::bad(format!("not a multipart form: {}", e.body_text()))
    }
}

/// Read the whole form (the body is bounded by the size limit).
async fn read_form(state: &State, request: Request) -> Result<Form, ApiError> {
    let max = state.config.max_size;
    // The body's announced length (bounded by the limit) sizes the first
    // file's buffer: one allocation, no copy as it grows.
    let mut announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(0, |n| n.min(max));
    let mut multipart = Multipart::from_request(request, &()).await.map_err(|e| {
        ApiError::bad(format!(
            "send a multipart/form-data body: {}",
            e.body_text()
        ))
    })?;
    let mut form = Form {
        files: Vec::new(),
        fields: Vec::new(),
    };
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(e, max))?
    {
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            let file_name = field.file_name().map(base_name).unwrap_or_default();
            let mut field = field;
            let mut bytes = Vec::with_capacity(usize::try_from(announced).unwrap_or(0));
            announced = 0;
            while let Some(chunk) = field.chunk().await.map_err(|e| multipart_error(e, max))? {
                bytes.extend_from_slice(&chunk);
            }
            bytes.shrink_to_fit();
            // A file input left empty in a plain form posts one part with
            // no name and no bytes.
            if file_name.is_empty() && bytes.is_empty() {
                continue;
            }
            let file_name = if file_name.is_empty() {
                format!("upload-{}", form.files.len() + 1)
            } else {
                file_name
            };
            form.files.push(Upload {
                name: file_name,
                bytes,
            });
        } else {
            let text = field.text().await.map_err(|e| multipart_error(e, max))?;
            form.fields.push((name, text));
        }
    }
    Ok(form)
}

/// The last component of a name a browser sent (some send a path).
fn base_name(name: &str) -> String {
    name.rsplit(['/', '\\']).next().unwrap_or("").to_string()
}

/// Take a conversion slot or answer 503: requests beyond the bound are
/// not queued, since each would hold its upload in memory while it waits.
fn slot(state: &State) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    state.conversions.clone().try_acquire_owned().map_err(|_| {
        let mut e = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy: as many conversions as this server runs at once are running; try again",
        );
        e.retry = true;
        e
    })
}

/// Run `work` on a blocking thread under the time limit. The slot goes
/// with the work and is given back when the work really ends, so a
/// conversion answered 503 at its limit still counts against the bound
/// until it stops.
async fn limited<T: Send + 'static>(
    state: &State,
    permit: tokio::sync::OwnedSemaphorePermit,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    limited_then_free(state, permit, move || (work(), ())).await
}

/// [`limited`], for work that leaves something to free (a collection read,
/// freed string by string, which takes a good part of a conversion's
/// time): the slot is given back and the answer goes out first, then what
/// is left is freed on the same thread, so the person waits only for the
/// answer, and a client that sends its next request on the answer is
/// never refused as busy by its own last one.
async fn limited_then_free<T: Send + 'static, L: 'static>(
    state: &State,
    permit: tokio::sync::OwnedSemaphorePermit,
    work: impl FnOnce() -> (T, L) + Send + 'static,
) -> Result<T, ApiError> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::task::spawn_blocking(move || {
        let (out, left) = work();
        drop(permit);
        let _ = tx.send(out);
        drop(left);
    });
    let limit = state.config.time_limit;
    match tokio::time::timeout(limit, rx).await {
        Ok(Ok(out)) => Ok(out),
        // The sender went without sending: the work panicked.
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the conversion stopped",
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the conversion took longer than the time limit of {} s (markport serve --time-limit)",
                limit.as_secs_f64()
            ),
        )),
    }
}

fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("application/json"))
}

fn named_format(form: &Form, field: &str) -> Result<Option<&'static markport::Format>, ApiError> {
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
fn job_of(form: &mut Form, profile: Option<&PathBuf>) -> Result<Job, ApiError> {
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
    job.operations = ops;
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

/// `file.html` to `file.xbel`: the first upload's name with the output
/// format's extension, in characters safe in a header.
fn output_name(first: &str, format: &markport::Format) -> String {
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
struct Made {
    output: Vec<u8>,
    filename: String,
    /// The `--json` report, serialised in its fields' order.
    report: String,
    /// The plain summary, line by line.
    summary: markport::report::Summary,
}

async fn convert(AxState(state): AxState<Arc<State>>, request: Request) -> Response {
    let permit = match slot(&state) {
        Ok(p) => p,
        Err(e) => return e.response(),
    };
    let json_answer = wants_json(request.headers());
    let answer = async {
        let mut form = read_form(&state, request).await?;
        let profile = chosen_profile(&state, &form).await?;
        let names = input_names(profile.as_ref(), &form);
        let to_named = form.get("to").is_some();
        let job = job_of(&mut form, profile.as_ref().map(|p| &p.path))?;
        limited_then_free(&state, permit, move || run_convert(job, &names, to_named)).await?
    }
    .await;
    match answer {
        Err(e) => e.response(),
        Ok(made) if json_answer => json_response_bytes(StatusCode::OK, made_json(made)),
        Ok(made) => {
            let mut r = Response::new(Body::from(made.output));
            let h = r.headers_mut();
            // Never shown in the page's origin: a download, whatever it holds.
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/octet-stream"),
            );
            h.insert(
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&format!("attachment; filename=\"{}\"", made.filename))
                    .expect("a name of safe ASCII"),
            );
            r
        }
    }
}

/// The profile a form names by its id (`profile`), if any.
async fn chosen_profile(
    state: &Arc<State>,
    form: &Form,
) -> Result<Option<markport::profiles::Profile>, ApiError> {
    match form.get("profile") {
        None => Ok(None),
        Some(id) => {
            let id = id.to_string();
            crate::profiles::by_id(state, &id).await.map(Some)
        }
    }
}

/// The inputs' names in the job's order: a profile's (`firefox
/// default-release`), then the uploads'.
fn input_names(profile: Option<&markport::profiles::Profile>, form: &Form) -> Vec<String> {
    profile
        .map(crate::profiles::name)
        .into_iter()
        .chain(form.names())
        .collect()
}

/// The conversion, and the collection it leaves to free after the answer.
fn run_convert(
    job: Job,
    names: &[String],
    to_named: bool,
) -> (Result<Made, ApiError>, Option<markport::Done>) {
    match convert_job(job, names, to_named) {
        Ok((made, done)) => (Ok(made), Some(done)),
        Err(e) => (Err(e), None),
    }
}

fn convert_job(
    job: Job,
    names: &[String],
    to_named: bool,
) -> Result<(Made, markport::Done), ApiError> {
    let input_bytes: usize = job
        .inputs
        .iter()
        .map(|i| match i {
            Input::Bytes(b) => b.len(),
            _ => 0,
        })
        .sum();
    let to = job.to.clone();
    let destination = job.destination;
    let allow = job.allow_loss.clone();
    let To::Format { format, .. } = &to else {
        unreachable!("the API makes formats only")
    };
    // Room for an output twice the input's size, reserved, not touched:
    // the buffer does not grow by copies as the writer fills it.
    let mut output = Vec::with_capacity(input_bytes.saturating_mul(2));
    let done =
        markport::run(job, Target::Stream(&mut output)).map_err(|e| ApiError::job(&e, names))?;
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
    let report = serde_json::to_string(&report).expect("a report serialises");
    Ok((
        Made {
            output,
            filename,
            report,
            summary,
        },
        done,
    ))
}

/// `/api/check`: every problem in each file, by rule (docs/check.md).
async fn check(AxState(state): AxState<Arc<State>>, request: Request) -> Response {
    let permit = match slot(&state) {
        Ok(p) => p,
        Err(e) => return e.response(),
    };
    let answer = async {
        let mut form = read_form(&state, request).await?;
        form.only(&["from"])?;
        let from = named_format(&form, "from")?;
        let files = std::mem::take(&mut form.files);
        limited(&state, permit, move || {
            let mut out = Vec::new();
            for f in files {
                let checked = markport_check::check_input(Input::Bytes(f.bytes), from)
                    .map_err(|e| located(&e, &f.name))?;
                out.push(json!({
                    "file": f.name,
                    "format": checked.from.format.name,
                    "problems": checked.problems,
                }));
            }
            Ok::<_, ApiError>(json!({ "files": out }))
        })
        .await?
    }
    .await;
    match answer {
        Ok(v) => json_response(StatusCode::OK, &v),
        Err(e) => e.response(),
    }
}

fn located(e: &markport::Error, file: &str) -> ApiError {
    let mut out = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.message.clone());
    if let Some(loc) = e.location {
        out.line = Some(loc.line);
        out.column = Some(loc.column);
    }
    out.file = Some(file.to_string());
    out
}

/// `/api/info`: what each file holds, for the page to show before it
/// converts: its format, counts, what the reader noticed, and its folders
/// as a flat list in document order with their depth (flat, so no
/// structure in the answer is as deep as the input).
async fn info(AxState(state): AxState<Arc<State>>, request: Request) -> Response {
    let permit = match slot(&state) {
        Ok(p) => p,
        Err(e) => return e.response(),
    };
    let answer = async {
        let mut form = read_form(&state, request).await?;
        form.only(&["from", "strict", "profile"])?;
        let from = named_format(&form, "from")?;
        let mut opts = ReadOptions::default();
        opts.strict = form.flag("strict")?;
        let profile = chosen_profile(&state, &form).await?;
        let files = std::mem::take(&mut form.files);
        limited(&state, permit, move || {
            let mut out = Vec::new();
            if let Some(p) = profile {
                let name = crate::profiles::name(&p);
                let read = markport::read(Input::Path(p.path), from, &opts)
                    .map_err(|e| ApiError::job(&e, std::slice::from_ref(&name)))?;
                out.push(crate::report::info(&name, &read));
            }
            for f in files {
                let name = f.name;
                let read = markport::read(Input::Bytes(f.bytes), from, &opts)
                    .map_err(|e| ApiError::job(&e, std::slice::from_ref(&name)))
                    .map_err(|mut e| {
                        e.file = Some(name.clone());
                        e
                    })?;
                out.push(crate::report::info(&name, &read));
            }
            Ok::<_, ApiError>(json!({ "files": out }))
        })
        .await?
    }
    .await;
    match answer {
        Ok(v) => json_response(StatusCode::OK, &v),
        Err(e) => e.response(),
    }
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
        assert_eq!(base_name("C:\\Users\\me\\f.html"), "f.html");
        let chromium = markport::format("chromium").unwrap();
        assert_eq!(output_name("f.html", chromium), "Bookmarks");
        let firefox = markport::format("firefox").unwrap();
        assert_eq!(output_name("f.html", firefox), "f.json");
    }
}
