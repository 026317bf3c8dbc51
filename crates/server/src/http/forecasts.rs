//! Conditional moves (docs/api.md, "Conditional moves"): a seat of a
//! correspondence game reads and replaces the lines it queued while its
//! opponent is to move. The rules are [`crate::forecast`]'s.

use super::body::Body;
use super::seats::seat_for;
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::forecast;
use crate::hub::Hub;
use crate::store::forecasts;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

type Shared = State<Arc<Hub>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatQuery {
    seat: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForecastBody {
    seat: Option<String>,
    lines: Vec<Vec<String>>,
}

/// `GET /api/games/{id}/forecasts?seat=`: the seat's queued lines.
pub async fn read(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    let secret = seat_for(&hub, &headers, &id, q.seat).await?;
    let slot = hub.slot(&id).await?;
    let seat = slot.live.lock().await.seat(secret.as_deref())?;
    let lines = hub.store().read(move |sql| forecasts::lines(sql, &id, seat.index())).await?;
    Ok(Json(json!({ "lines": lines })))
}

/// `POST /api/games/{id}/forecasts {"seat"?, "lines"}`: replaces the
/// seat's lines (`[]`: none), checked at the game's position.
pub async fn replace(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(body): Body<ForecastBody>,
) -> Result<Json<Value>, ApiError> {
    let secret = seat_for(&hub, &headers, &id, body.seat).await?;
    let slot = hub.slot(&id).await?;
    // Checked and stored under the game's lock: no move slips in between.
    let live = slot.live.lock().await;
    let seat = live.seat(secret.as_deref())?;
    if !TimeControl::is_correspondence(live.record.time_control) {
        return Err(ApiError::conflict("conditional moves are for correspondence games (days a move)"));
    }
    let lines = if body.lines.is_empty() {
        Vec::new()
    } else {
        forecast::check(live.game.as_ref(), seat, &body.lines).map_err(ApiError::unprocessable)?
    };
    let (game, stored) = (id.clone(), lines.clone());
    hub.store()
        .transact(move |sql| forecasts::set_lines(sql, &game, seat.index(), &stored, crate::clock::now_ms()))
        .await?;
    drop(live);
    Ok(Json(json!({ "lines": lines })))
}
