//! How the server answers: JSON bodies, and the error shape every refusal
//! takes (`{"error", "line", "column"}`), for the routes and the guard
//! alike.

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};

/// What a refused conversion would have written: its `--json` report
/// and its plain summary.
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) report: Value,
    pub(crate) summary: Value,
}

/// An error as the API answers it: `{"error", "line", "column"}`, and the
/// file it is in when the request had several.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) error: String,
    pub(crate) line: Option<u32>,
    pub(crate) column: Option<u32>,
    pub(crate) file: Option<String>,
    /// A refused conversion's report and plain summary (boxed: an error
    /// travels by value through every `?`).
    pub(crate) refused: Option<Box<Refused>>,
    /// 503 for a full server: the client may try again at once.
    pub(crate) retry: bool,
    /// The work stopped at its deadline (the time limit): the route says
    /// which limit.
    pub(crate) late: bool,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, error: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: error.into(),
            line: None,
            column: None,
            file: None,
            refused: None,
            retry: false,
            late: false,
        }
    }

    pub(crate) fn bad(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, error)
    }

    /// A reading, operating or writing failure of the pipeline, located;
    /// one stopped at its deadline is `late`, whatever stage it was in.
    pub(crate) fn job(e: &markport::JobError, names: &[String]) -> ApiError {
        if e.error.kind == markport::ErrorKind::Cancelled {
            return ApiError::late();
        }
        let mut out = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.error.message.clone());
        if e.stage == markport::Stage::Write {
            out.status = StatusCode::UNPROCESSABLE_ENTITY;
            out.error = format!("writing: {}", e.error.message);
        }
        if let Some(loc) = e.error.location {
            out.line = Some(loc.line);
            out.column = Some(loc.column);
        }
        out.file = e.input.and_then(|i| names.get(i).cloned());
        if let (Some(from), markport::Stage::Read) = (e.from, e.stage) {
            out.error = format!("{} (reading as {})", out.error, from.name);
        }
        out
    }

    /// Work stopped at its deadline: 503 (the route names the limit).
    pub(crate) fn late() -> ApiError {
        let mut e = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the work took longer than the time limit (markport serve --time-limit)",
        );
        e.late = true;
        e
    }

    pub(crate) fn response(self) -> Response {
        let mut body = json!({
            "error": self.error,
            "line": self.line,
            "column": self.column,
        });
        if let Some(file) = self.file {
            body["file"] = json!(file);
        }
        if let Some(refused) = self.refused {
            body["report"] = refused.report;
            body["summary"] = refused.summary;
        }
        let mut r = json_response(self.status, &body);
        if self.retry {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        r
    }
}

/// Whether a request asks for a JSON answer.
pub(crate) fn wants_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("application/json"))
}

/// An error answer with no position.
pub(crate) fn error_response(status: StatusCode, error: &str) -> Response {
    ApiError::new(status, error).response()
}

pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut text = serde_json::to_vec_pretty(body).expect("JSON serialises");
    text.push(b'\n');
    let mut r = Response::new(Body::from(text));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}
