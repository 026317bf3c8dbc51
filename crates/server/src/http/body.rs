//! JSON request bodies whose rejections are one-line API errors.

use super::listen::MAX_BODY;
use crate::error::ApiError;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;
use serde::de::DeserializeOwned;

/// A JSON body of type `T`.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let reason = match &rejection {
        JsonRejection::MissingJsonContentType(_) => "expected a JSON body (Content-Type: application/json)".to_owned(),
        _ if status == StatusCode::PAYLOAD_TOO_LARGE => format!("request body larger than {MAX_BODY} bytes"),
        _ => rejection.body_text(),
    };
    // Unprocessable JSON (wrong fields) is bad input like malformed JSON.
    let status = if status == StatusCode::UNPROCESSABLE_ENTITY { StatusCode::BAD_REQUEST } else { status };
    ApiError::new(status, reason)
}

/// Whether a request declares a JSON body (`application/json`, or a type
/// with a `+json` suffix), as [`Body`] requires.
pub fn declares_json(headers: &HeaderMap) -> bool {
    let Some(essence) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase())
    else {
        return false;
    };
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}
