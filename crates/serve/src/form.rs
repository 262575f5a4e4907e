//! A POST's multipart form, read whole before anything else is taken for
//! it (no conversion slot is held while a client sends): within the body
//! timeout, its bytes reserved from the memory pool as they arrive, and
//! no larger than the size limit.

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{header, StatusCode};

use crate::answer::ApiError;
use crate::memory::{lock, Charged, Held};
use crate::State;

/// One uploaded file.
pub(crate) struct Upload {
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
}

/// A request's form: its files and its other fields, in order.
pub(crate) struct Form {
    pub(crate) files: Vec<Upload>,
    pub(crate) fields: Vec<(String, String)>,
}

impl Form {
    /// The last value of `name`, when not empty.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    /// A yes-or-no field (absent: no).
    pub(crate) fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None => Ok(false),
            Some("on" | "true" | "1" | "yes") => Ok(true),
            Some("off" | "false" | "0" | "no") => Ok(false),
            Some(v) => Err(ApiError::bad(format!("{name}: {v:?} is not true or false"))),
        }
    }

    /// Refuse a field this route does not know: a misspelt option must not
    /// be converted as if it had not been asked for.
    pub(crate) fn only(&self, known: &[&str]) -> Result<(), ApiError> {
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

    /// The uploads' names, in order.
    pub(crate) fn names(&self) -> Vec<String> {
        self.files.iter().map(|f| f.name.clone()).collect()
    }

    /// The bytes uploaded, all files together.
    pub(crate) fn upload_size(&self) -> u64 {
        self.files.iter().map(|f| f.bytes.len() as u64).sum()
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

/// Read the whole form within the body timeout, its bytes reserved in
/// `held` as they arrive: a body cut by the memory limit is answered as
/// the limit says (503 or 413), one not there in time 408 (and its
/// connection closed, the rest of the body never read).
pub(crate) async fn read_form(
    state: &State,
    request: Request,
    held: &Held,
) -> Result<Form, ApiError> {
    let limit = state.config.body_timeout;
    let (parts, body) = request.into_parts();
    let request = Request::from_parts(parts, Body::new(Charged::new(body, held.clone())));
    match tokio::time::timeout(limit, read_body(state, request)).await {
        Ok(form) => form.map_err(|e| lock(held).refusal().unwrap_or(e)),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body did not arrive within {} s (markport serve --body-timeout)",
                limit.as_secs_f64()
            ),
        )),
    }
}

/// Read the whole form (the body is bounded by the size limit).
async fn read_body(state: &State, request: Request) -> Result<Form, ApiError> {
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
pub(crate) fn base_name(name: &str) -> String {
    name.rsplit(['/', '\\']).next().unwrap_or("").to_string()
}
