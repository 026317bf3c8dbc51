//! `GET /api/time`: the server's clock, so that a page counts the clocks
//! down in step with the server that decides when a flag falls.

use crate::clock::now_ms;
use axum::http::header;
use axum::response::IntoResponse;
use axum::Json;
use serde_json::json;

pub async fn now() -> impl IntoResponse {
    ([(header::CACHE_CONTROL, "no-store")], Json(json!({ "now": now_ms() })))
}
