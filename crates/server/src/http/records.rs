//! Game records over HTTP (docs/records.md): `GET /api/games/{id}/record`
//! answers a game's record as PGN text; `POST /api/games/import` starts a
//! game from one. A record may be larger than other requests' bodies
//! ([`MAX_RECORD_BODY`]).

use crate::error::ApiError;
use crate::hub::{Hub, ImportGame};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::Arc;

/// The path that takes records: its bodies may be up to [`MAX_RECORD_BODY`].
pub const IMPORT_PATH: &str = "/api/games/import";

/// The largest body `POST /api/games/import` takes: a long Lunch Chess
/// game's complete record, every draw included, is some tens of kilobytes.
pub const MAX_RECORD_BODY: usize = 512 * 1024;

/// PGN's media type.
const PGN: &str = "application/vnd.chess-pgn; charset=utf-8";

pub async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = super::ratings::record_with_players(&hub, &id, false).await?;
    let disposition = format!("inline; filename=\"menagerie-{id}.pgn\"");
    Ok(([(header::CONTENT_TYPE, PGN.to_owned()), (header::CONTENT_DISPOSITION, disposition)], text).into_response())
}

pub async fn import(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json")));
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "expected a JSON body (Content-Type: application/json)",
        ));
    }
    let request: ImportGame = serde_json::from_slice(&body).map_err(|e| ApiError::bad_request(format!("{e}")))?;
    // Runs to its end even if the client goes away: a game half stored
    // would be a game without its moves.
    let answer = tokio::spawn(async move { hub.import(request).await })
        .await
        .unwrap_or_else(|_| Err(ApiError::internal("the import failed").into()))?;
    Ok((StatusCode::CREATED, Json(answer)))
}
