//! The browser profiles `markport profiles` finds on this machine, offered
//! to the page: listed by `GET /api/profiles`, and read, by id, as an
//! input of `/api/convert` and `/api/info` (field `profile`). A profile's
//! file is read through its format's reader, as `markport convert` reads a
//! path (places.sqlite immutable or as a private copy), never written; a
//! request names a profile only by the id this list gave, never by a
//! path, so no request reaches any other file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::State as AxState;
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use markport::profiles::Profile;

use crate::answer::{json_response, ApiError};
use crate::State;

/// Where profiles are looked for: the home directory, and the XDG config
/// directory under which the Chromium family keeps theirs.
#[derive(Debug, Clone)]
pub(crate) struct Homes {
    pub(crate) home: PathBuf,
    pub(crate) config: PathBuf,
}

/// A profile's id: a digest of its file's path, so the page never holds a
/// path and an id names nothing outside the list.
pub(crate) fn id(path: &Path) -> String {
    let digest = Sha256::digest(path.as_os_str().as_encoded_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The profiles found, searched once (the search reads each file to count
/// its bookmarks) on a blocking thread, then kept for the server's life;
/// requests that come while it runs wait for that one search.
pub(crate) async fn found(state: &Arc<State>) -> Result<Arc<Vec<Profile>>, ApiError> {
    let Some(homes) = state.config.profiles.clone() else {
        return Ok(Arc::new(Vec::new()));
    };
    state
        .profiles
        .get_or_try_init(|| async move {
            let list = tokio::task::spawn_blocking(move || {
                markport::profiles::search(&homes.home, &homes.config).profiles
            })
            .await
            .map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("looking for profiles stopped: {e}"),
                )
            })?;
            Ok(Arc::new(list))
        })
        .await
        .cloned()
}

/// The profile `id` names, or a 400 saying the list to ask.
pub(crate) async fn by_id(state: &Arc<State>, id: &str) -> Result<Profile, ApiError> {
    found(state)
        .await?
        .iter()
        .find(|p| self::id(&p.path) == id)
        .cloned()
        .ok_or_else(|| {
            ApiError::bad(format!(
                "profile: no profile {id:?} on this machine (GET /api/profiles lists them)"
            ))
        })
}

/// The name a profile goes by in reports: `firefox default-release`,
/// `chromium (snap) Default`.
pub(crate) fn name(p: &Profile) -> String {
    match p.variant {
        Some(v) => format!("{} ({v}) {}", p.browser, p.profile),
        None => format!("{} {}", p.browser, p.profile),
    }
}

/// `GET /api/profiles`: `{"profiles": [{"id", "browser", "variant",
/// "profile", "format", "default", "bookmarks", "error"}]}`.
pub(crate) async fn list(AxState(state): AxState<Arc<State>>) -> Response {
    match found(&state).await {
        Ok(list) => {
            let rows: Vec<Value> = list
                .iter()
                .map(|p| {
                    json!({
                        "id": id(&p.path),
                        "name": name(p),
                        "browser": p.browser,
                        "variant": p.variant,
                        "profile": p.profile,
                        "format": p.format,
                        "default": p.default,
                        "bookmarks": p.bookmarks,
                        "error": p.error,
                    })
                })
                .collect();
            json_response(StatusCode::OK, &json!({ "profiles": rows }))
        }
        Err(e) => e.response(),
    }
}
