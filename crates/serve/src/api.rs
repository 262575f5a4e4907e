//! The routes: the page, and the API in the style of `pandoc server`.
//! Each POST reads its whole multipart form first (one or more `file`,
//! the options as fields; no slot is held while a client sends), then
//! takes one of the bounded conversion slots and reserves the memory its
//! documents may take, and converts on a blocking thread under the time
//! limit, whose deadline the pipeline checks, so a conversion past it
//! stops and gives back its slot and memory.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State as AxState};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde_json::json;

use markport::{Input, ReadOptions};

use crate::answer::{error_response, json_response, wants_json, ApiError};
use crate::convert::{format_list, job_of, named_format, run_convert, Room};
use crate::form::{read_form, Form};
use crate::memory::{document_budget, give_back, lock, Held};
use crate::State;

/// Every route (the guard is before them, in [`crate::listen`]).
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
        .with_state(state)
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

async fn formats() -> Response {
    json_response(StatusCode::OK, &format_list())
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

/// Reserve `bytes` in all for the request (its upload and what its
/// documents may take), or answer 503 (not now) or 413 (never).
fn reserve(held: &Held, bytes: u64) -> Result<(), ApiError> {
    let mut r = lock(held);
    match r.grow_to(bytes) {
        Ok(()) => Ok(()),
        Err(_) => Err(r.refusal().expect("a refusal is recorded")),
    }
}

/// Run `work` on a blocking thread under the time limit, with the
/// deadline it must stop at (given to its reads). The slot goes with the
/// work and is given back when the work ends (at its deadline at the
/// latest, when it checks it), so a conversion answered 503 at its limit
/// counts against the bound until it stops.
async fn limited<T: Send + 'static>(
    state: &State,
    permit: tokio::sync::OwnedSemaphorePermit,
    held: Held,
    work: impl FnOnce(Instant) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    limited_then_free(state, permit, held, move |deadline| (work(deadline), ())).await
}

/// [`limited`], for work that leaves something to free (a collection read,
/// freed string by string, which takes a good part of a conversion's
/// time): the slot is given back and the answer goes out first, then what
/// is left is freed on the same thread, so the person waits only for the
/// answer, and a client that sends its next request on the answer is
/// never refused as busy by its own last one. The memory it held is
/// given back to the system, and the reservation let go, only after.
async fn limited_then_free<T: Send + 'static, L: 'static>(
    state: &State,
    permit: tokio::sync::OwnedSemaphorePermit,
    held: Held,
    work: impl FnOnce(Instant) -> (Result<T, ApiError>, L) + Send + 'static,
) -> Result<T, ApiError> {
    let limit = state.config.time_limit;
    let deadline = Instant::now() + limit;
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::task::spawn_blocking(move || {
        let (out, left) = work(deadline);
        drop(permit);
        let _ = tx.send(out);
        drop(left);
        give_back();
        drop(held);
    });
    let late = || {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the conversion took longer than the time limit of {} s (markport serve --time-limit)",
                limit.as_secs_f64()
            ),
        )
    };
    match tokio::time::timeout(limit, rx).await {
        Ok(Ok(Err(e))) if e.late => Err(late()),
        Ok(Ok(out)) => out,
        // The sender went without sending: the work panicked.
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the conversion stopped",
        )),
        Err(_) => Err(late()),
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

/// The bytes a request's inputs hold, and how many there are: the
/// uploads, and a profile's file by its size.
fn inputs_size(form: &Form, profile: Option<&markport::profiles::Profile>) -> (u64, usize) {
    let file = profile.map(|p| std::fs::metadata(&p.path).map_or(0, |m| m.len()));
    (
        form.upload_size() + file.unwrap_or(0),
        form.files.len() + usize::from(file.is_some()),
    )
}

async fn convert(AxState(state): AxState<Arc<State>>, request: Request) -> Response {
    let json_answer = wants_json(request.headers());
    let held = state.memory.reserve();
    let answer = async {
        let mut form = read_form(&state, request, &held).await?;
        let permit = slot(&state)?;
        let profile = chosen_profile(&state, &form).await?;
        let names = input_names(profile.as_ref(), &form);
        let to_named = form.get("to").is_some();
        let (upload, inputs) = inputs_size(&form, profile.as_ref());
        let mut job = job_of(&mut form, profile.as_ref().map(|p| &p.path))?;
        let budget = document_budget(upload, inputs, state.config.memory_budget);
        let beside = budget.saturating_mul(inputs as u64);
        reserve(&held, upload.saturating_add(beside))?;
        job.read.memory_budget = Some(budget);
        let room = Room {
            held: held.clone(),
            beside,
        };
        limited_then_free(&state, permit, held.clone(), move |deadline| {
            run_convert(job, &names, to_named, room, deadline)
        })
        .await
    }
    .await;
    match answer {
        Err(e) => e.response(),
        Ok(made) => made.answer(json_answer, held),
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

/// The read options of a route that reads its inputs one at a time: the
/// memory budget of the whole upload, reserved beside it.
fn one_at_a_time(
    state: &State,
    held: &Held,
    form: &Form,
    profile: Option<&markport::profiles::Profile>,
) -> Result<ReadOptions, ApiError> {
    let (upload, _) = inputs_size(form, profile);
    let budget = document_budget(upload, 1, state.config.memory_budget);
    reserve(held, upload.saturating_add(budget))?;
    let mut opts = ReadOptions::default();
    opts.memory_budget = Some(budget);
    Ok(opts)
}

/// `/api/check`: every problem in each file, by rule (docs/check.md).
async fn check(AxState(state): AxState<Arc<State>>, request: Request) -> Response {
    let held = state.memory.reserve();
    let answer = async {
        let mut form = read_form(&state, request, &held).await?;
        let permit = slot(&state)?;
        form.only(&["from"])?;
        let from = named_format(&form, "from")?;
        let mut opts = one_at_a_time(&state, &held, &form, None)?;
        let files = std::mem::take(&mut form.files);
        limited(&state, permit, held.clone(), move |deadline| {
            opts.deadline = Some(deadline);
            let mut out = Vec::new();
            for f in files {
                let checked =
                    markport_check::check_input_with(Input::Bytes(f.bytes), from, opts.clone())
                        .map_err(|e| located(&e, &f.name))?;
                out.push(json!({
                    "file": f.name,
                    "format": checked.from.format.name,
                    "problems": checked.problems,
                }));
            }
            Ok::<_, ApiError>(json!({ "files": out }))
        })
        .await
    }
    .await;
    match answer {
        Ok(v) => json_response(StatusCode::OK, &v),
        Err(e) => e.response(),
    }
}

fn located(e: &markport::Error, file: &str) -> ApiError {
    if e.kind == markport::ErrorKind::Cancelled {
        return ApiError::late();
    }
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
    let held = state.memory.reserve();
    let answer = async {
        let mut form = read_form(&state, request, &held).await?;
        let permit = slot(&state)?;
        form.only(&["from", "strict", "profile"])?;
        let from = named_format(&form, "from")?;
        let profile = chosen_profile(&state, &form).await?;
        let mut opts = one_at_a_time(&state, &held, &form, profile.as_ref())?;
        opts.strict = form.flag("strict")?;
        let files = std::mem::take(&mut form.files);
        limited(&state, permit, held.clone(), move |deadline| {
            opts.deadline = Some(deadline);
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
        .await
    }
    .await;
    match answer {
        Ok(v) => json_response(StatusCode::OK, &v),
        Err(e) => e.response(),
    }
}
