//! `/api/games/...`: each request is parsed once into a [`Command`] (a
//! change) or a read, and handed to the hub. Changes run to their end even
//! if the client goes away.

use super::body::Body;
use crate::command::{Command, DrawBody, MoveBody, NewGame, SeatBody, TakebackBody};
use crate::error::ApiError;
use crate::hub::{Answer, Hub};
use crate::live::StateJson;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use menagerie_core::shown;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

type Shared = State<Arc<Hub>>;

#[derive(Deserialize)]
pub struct SeatQuery {
    seat: Option<String>,
}

impl IntoResponse for StateJson {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        match self {
            Answer::Started(value) => Json(value).into_response(),
            Answer::State(state) => state.into_response(),
        }
    }
}

/// Runs a command to its end even if the client goes away meanwhile. The
/// server drops the handler of a closed connection, and a change cut between
/// playing a move in memory and committing it would leave the game in
/// memory and in the store apart.
async fn run(hub: Arc<Hub>, command: Command) -> Result<Answer, ApiError> {
    tokio::spawn(async move { hub.run(command).await })
        .await
        .unwrap_or_else(|_| Err(ApiError::internal("the change failed")))
}

pub async fn create(State(hub): Shared, Body(request): Body<NewGame>) -> Result<(StatusCode, Answer), ApiError> {
    let command = Command::Create(request.parse()?);
    Ok((StatusCode::CREATED, run(hub, command).await?))
}

pub async fn read(
    State(hub): Shared,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> Result<StateJson, ApiError> {
    hub.state(&id, q.seat.as_deref()).await
}

pub async fn legal_moves(
    State(hub): Shared,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(hub.legal_moves(&id, q.seat.as_deref()).await?))
}

pub async fn position(
    State(hub): Shared,
    Path((id, ply)): Path<(String, String)>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    let ply: usize = ply.parse().map_err(|_| ApiError::bad_request(format!("ply {} is not a number", shown(&ply))))?;
    Ok(Json(hub.position(&id, q.seat.as_deref(), ply).await?))
}

pub async fn play(State(hub): Shared, Path(id): Path<String>, Body(body): Body<MoveBody>) -> Result<Answer, ApiError> {
    run(hub, body.parse(id)?).await
}

pub async fn resign(
    State(hub): Shared,
    Path(id): Path<String>,
    Body(body): Body<SeatBody>,
) -> Result<Answer, ApiError> {
    run(hub, body.resign(id)).await
}

pub async fn draw(State(hub): Shared, Path(id): Path<String>, Body(body): Body<DrawBody>) -> Result<Answer, ApiError> {
    run(hub, body.parse(id)?).await
}

pub async fn takeback(
    State(hub): Shared,
    Path(id): Path<String>,
    Body(body): Body<TakebackBody>,
) -> Result<Answer, ApiError> {
    run(hub, body.parse(id)?).await
}

pub async fn rematch(
    State(hub): Shared,
    Path(id): Path<String>,
    Body(body): Body<SeatBody>,
) -> Result<Answer, ApiError> {
    run(hub, body.rematch(id)).await
}
