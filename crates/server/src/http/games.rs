//! `/api/games/...`: each request is parsed once into a [`Command`] (a
//! change) or a read, and handed to the hub. Changes run to their end even
//! if the client goes away.

use super::accounts;
use super::body::Body;
use crate::command::{Command, DrawBody, MoveBody, NewGame, SeatBody, Setup, TakebackBody};
use crate::error::ApiError;
use crate::hub::{Answer, Hub};
use crate::live::StateJson;
use crate::store::ratings::{mark_rated, perf_of};
use crate::store::Mode;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
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

/// What the games in play answer, sent as JSON (they know no HTTP).
pub struct Sent<T>(pub T);

impl IntoResponse for Sent<StateJson> {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0 .0).into_response()
    }
}

impl IntoResponse for Sent<Answer> {
    fn into_response(self) -> Response {
        match self.0 {
            Answer::Started(value) => Json(value).into_response(),
            Answer::State(state) => Sent(state).into_response(),
        }
    }
}

/// Runs a command to its end even if the client goes away meanwhile. The
/// server drops the handler of a closed connection, and a change cut between
/// playing a move in memory and committing it would leave the game in
/// memory and in the store apart.
async fn run(hub: Arc<Hub>, command: Command) -> Result<Answer, ApiError> {
    let answer = tokio::spawn(async move { hub.run(command).await }).await;
    Ok(answer.map_err(|_| ApiError::internal("the change failed"))??)
}

/// `POST /api/games`: a new game; the seats its creator takes are held by
/// the browser and its account, if logged in.
///
/// `"rated": true` (default false) rates it: only for an account, against
/// the computer or a friend who takes the seat with an account.
pub async fn create(
    State(hub): Shared,
    headers: HeaderMap,
    Body(mut request): Body<Value>,
) -> Result<(StatusCode, Sent<Answer>), ApiError> {
    let rated = match request.as_object_mut().and_then(|fields| fields.remove("rated")) {
        None => false,
        Some(Value::Bool(rated)) => rated,
        Some(_) => return Err(ApiError::bad_request("rated: expected true or false")),
    };
    let request: NewGame = serde_json::from_value(request).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let setup = Setup { rated, ..request.parse()? };
    // The rule of rated games first ([`Setup::check_rated`]), then who may ask.
    setup.check_rated()?;
    if rated && setup.mode != Mode::Local && super::asker::signed_in(&hub, &headers).await?.is_none() {
        return Err(super::lobby::needs_account("a rated game"));
    }
    let perf = perf_of(&setup.variant).to_owned();
    let answer = run(Arc::clone(&hub), Command::Create(setup)).await?;
    if let Answer::Started(started) = &answer {
        if let Some(id) = started["id"].as_str() {
            super::seats::hold_seats(&hub, &headers, id, super::seats::creator_seats(started)).await?;
            if rated {
                let game = id.to_owned();
                hub.store().transact(move |sql| mark_rated(sql, &game, &perf)).await?;
            }
        }
    }
    Ok((StatusCode::CREATED, Sent(answer)))
}

/// The seat a request acts for: the secret it presents, or its account's seat.
async fn seat(hub: &Hub, headers: &HeaderMap, id: &str, presented: Option<String>) -> Result<Option<String>, ApiError> {
    super::seats::seat_for(hub, headers, id, presented).await
}

pub async fn read(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> Result<Sent<StateJson>, ApiError> {
    let presented = q.seat.clone();
    let seat = seat(&hub, &headers, &id, q.seat).await?;
    let state = hub.state(&id, seat.as_deref()).await?;
    if let Some(secret) = presented {
        super::seats::hold_presented(&hub, &headers, &id, &secret).await?;
    }
    Ok(Sent(state))
}

pub async fn legal_moves(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    let seat = seat(&hub, &headers, &id, q.seat).await?;
    Ok(Json(hub.legal_moves(&id, seat.as_deref()).await?))
}

pub async fn position(
    State(hub): Shared,
    headers: HeaderMap,
    Path((id, ply)): Path<(String, String)>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    let ply: usize = ply.parse().map_err(|_| ApiError::bad_request(format!("ply {} is not a number", shown(&ply))))?;
    let seat = seat(&hub, &headers, &id, q.seat).await?;
    Ok(Json(hub.position(&id, seat.as_deref(), ply).await?))
}

pub async fn play(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(mut body): Body<MoveBody>,
) -> Result<Sent<Answer>, ApiError> {
    body.seat = seat(&hub, &headers, &id, body.seat).await?;
    run(hub, body.parse(id)?).await.map(Sent)
}

pub async fn resign(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(mut body): Body<SeatBody>,
) -> Result<Sent<Answer>, ApiError> {
    body.seat = seat(&hub, &headers, &id, body.seat).await?;
    run(hub, body.resign(id)).await.map(Sent)
}

pub async fn draw(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(mut body): Body<DrawBody>,
) -> Result<Sent<Answer>, ApiError> {
    body.seat = seat(&hub, &headers, &id, body.seat).await?;
    run(hub, body.parse(id)?).await.map(Sent)
}

pub async fn takeback(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(mut body): Body<TakebackBody>,
) -> Result<Sent<Answer>, ApiError> {
    body.seat = seat(&hub, &headers, &id, body.seat).await?;
    run(hub, body.parse(id)?).await.map(Sent)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimBody {
    #[serde(default)]
    seat: Option<String>,
    /// `win` or `draw`.
    result: String,
}

/// `POST /api/games/{id}/claim`: the win or a draw of a game the opponent left.
pub async fn claim(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(body): Body<ClaimBody>,
) -> Result<Sent<StateJson>, ApiError> {
    let draw = match body.result.as_str() {
        "win" => false,
        "draw" => true,
        other => {
            return Err(ApiError::bad_request(format!(
                "bad result {}: expected \"win\" or \"draw\"",
                menagerie_core::shown(other)
            )))
        }
    };
    let seat = seat(&hub, &headers, &id, body.seat).await?;
    Ok(Sent(hub.claim(&id, seat.as_deref(), draw).await?))
}

/// `GET /api/games/{id}/claim?seat=...`: whether the seat may claim the
/// game its opponent left now, and why not.
pub async fn claimable(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    let seat = seat(&hub, &headers, &id, q.seat).await?;
    let refusal = hub.claimable(&id, seat.as_deref()).await?;
    Ok(Json(serde_json::json!({ "claimable": refusal.is_none(), "reason": refusal })))
}

pub async fn rematch(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(mut body): Body<SeatBody>,
) -> Result<Sent<Answer>, ApiError> {
    body.seat = seat(&hub, &headers, &id, body.seat).await?;
    // A tournament pairs its players' next games itself. (A store that
    // keeps no accounts has no tournaments: its error is no refusal.)
    if matches!(accounts::tournament_of_game(&hub, &id).await, Ok(Some(_))) {
        return Err(ApiError::bad_request("a tournament game has no rematch: the tournament pairs your next game"));
    }
    let rematch = body.rematch(id);
    let answer = run(Arc::clone(&hub), rematch).await?;
    // The rematch's seats are held by whoever asked for it, like a new game's.
    if let Answer::Started(started) = &answer {
        if let Some(id) = started["id"].as_str() {
            super::seats::hold_seats(&hub, &headers, id, super::seats::creator_seats(started)).await?;
        }
    }
    Ok(Sent(answer))
}
