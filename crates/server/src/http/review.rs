//! Computer reviews of finished games over HTTP (docs/api.md, "Game
//! review"): `POST /api/games/{id}/analysis` asks for one (an account, by
//! the page's session or an API token), `GET` reads it (anyone: a finished
//! game is public). The queue and who may ask are
//! [`crate::review::Reviews`]'.

use super::asker::Asker;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::review::{Answer, Reviews};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use std::sync::Arc;

type Shared = State<Arc<Hub>>;
type TheReviews = Extension<Arc<Reviews>>;

/// `POST /api/games/{id}/analysis`: 200 and the review if done, else 202
/// and where it stands, queued now if nobody had asked.
pub async fn request(
    State(hub): Shared,
    Extension(reviews): TheReviews,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    // Runs to its end even if the client goes away: a review half queued
    // would leave this node's claim on the game taken.
    let answer = tokio::spawn(async move { reviews.request(&hub, &asker.account.id, &id).await })
        .await
        .unwrap_or_else(|_| Err(crate::error::ApiError::internal("the review request failed").into()))?;
    Ok(respond(answer))
}

/// `GET /api/games/{id}/analysis`: 200 and the review if done, 202 and
/// where it stands if on its way, 404 if nobody asked for it.
pub async fn read(
    State(hub): Shared,
    Extension(reviews): TheReviews,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(respond(reviews.read(&hub, &id).await?))
}

fn respond(answer: Answer) -> Response {
    match answer {
        Answer::Done(review) => (StatusCode::OK, Json(review)).into_response(),
        Answer::Pending(status) => (StatusCode::ACCEPTED, Json(status.to_json())).into_response(),
        // Not an error: the game is there, its review is not (a page asks
        // each finished game whether it has one).
        Answer::NotAsked => StatusCode::NO_CONTENT.into_response(),
    }
}
