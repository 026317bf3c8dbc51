//! Errors the API answers with, as HTTP answers: a status and a one-line
//! reason, as JSON `{"error": "..."}`, with `Retry-After` on a 429 of
//! [`crate::limits`]. The games in play refuse with their own
//! [`menagerie_play::error::ApiError`] (they know no HTTP framework); it
//! becomes this one through `?`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub reason: String,
    /// Seconds until a refused request may be made again (`Retry-After`,
    /// sent with a 429 of [`crate::limits`]).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, reason: impl Into<String>) -> Self {
        menagerie_play::error::ApiError::new(status, reason).into()
    }
    /// 429: a limit of [`crate::limits`] refused the request; it may be made
    /// again in `retry_after` seconds.
    pub fn too_many(reason: impl Into<String>, retry_after: u64) -> Self {
        menagerie_play::error::ApiError::too_many(reason, retry_after).into()
    }
    pub fn bad_request(reason: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, reason)
    }
    pub fn forbidden(reason: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, reason)
    }
    pub fn not_found(reason: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, reason)
    }
    pub fn conflict(reason: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, reason)
    }
    pub fn unprocessable(reason: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, reason)
    }
    pub fn internal(reason: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, reason)
    }
}

impl From<menagerie_play::error::ApiError> for ApiError {
    fn from(error: menagerie_play::error::ApiError) -> Self {
        let menagerie_play::error::ApiError { status, reason, retry_after } = error;
        ApiError { status, reason, retry_after }
    }
}

impl From<ApiError> for menagerie_play::error::ApiError {
    fn from(error: ApiError) -> Self {
        let ApiError { status, reason, retry_after } = error;
        menagerie_play::error::ApiError { status, reason, retry_after }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> Self {
        menagerie_play::error::ApiError::from(error).into()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.reason)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(serde_json::json!({ "error": self.reason }))).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(seconds));
        }
        response
    }
}
