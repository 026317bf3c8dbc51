//! Errors the API answers with: a status and a one-line reason (the web
//! layer sends them as JSON `{"error": "..."}`).

use http::StatusCode;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub reason: String,
    /// Seconds until a refused request may be made again (`Retry-After`,
    /// sent with a 429 of a rate limit).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, reason: impl Into<String>) -> Self {
        // One line, always: a reason that spans lines would break clients that log it.
        let reason: String = reason.into();
        let reason = reason.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ");
        ApiError { status, reason, retry_after: None }
    }
    /// 429: a rate limit refused the request; it may be made
    /// again in `retry_after` seconds.
    pub fn too_many(reason: impl Into<String>, retry_after: u64) -> Self {
        ApiError { retry_after: Some(retry_after.max(1)), ..Self::new(StatusCode::TOO_MANY_REQUESTS, reason) }
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

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.reason)
    }
}

impl std::error::Error for ApiError {}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> Self {
        match error {
            // Another node changed the game first: the client may look again and retry.
            crate::store::StoreError::Stale { .. } => ApiError::conflict(error.to_string()),
            _ => ApiError::internal(format!("storage failed: {error}")),
        }
    }
}
