//! Learning the games (docs/learn.md): the lessons' list and the puzzles,
//! at lichess's paths where they fit (`GET /api/puzzle/next`, `GET
//! /api/puzzle/{id}`, `POST /api/puzzle/batch/{variant}`).

use super::asker::{signed_in, Asker};
use super::body::Body;
use crate::bots::Scope;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::lessons;
use crate::limits::{self, Charge};
use crate::puzzles::{puzzle_json, Puzzles, Solution};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

type Shared = State<Arc<Hub>>;
type ThePuzzles = Extension<Arc<Puzzles>>;

/// `GET /api/learn`: every lesson, each game's in turn.
pub async fn lessons() -> Result<Json<Value>, ApiError> {
    Ok(Json(lessons::list()?))
}

/// `GET /api/learn/{id}`: one lesson's steps.
pub async fn lesson(Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(lessons::lesson_json(&id)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TryBody {
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/learn/{id}/{step}` `{"move"}`: the verdict on a move tried at
/// a step (counted from 1): `{"verdict": "done", "say", "last"}` or
/// `{"verdict": "wrong", "why", "last"}`. A signed-in player's progress
/// grows with each step done.
pub async fn try_step(
    State(hub): Shared,
    headers: HeaderMap,
    Path((id, step)): Path<(String, usize)>,
    Body(body): Body<TryBody>,
) -> Result<Json<Value>, ApiError> {
    let Some(step) = step.checked_sub(1) else { return Err(ApiError::not_found("steps are counted from 1")) };
    let account = signed_in(&hub, &headers).await?;
    Ok(Json(lessons::try_move(&hub, account.as_ref().map(|a| a.id.as_str()), &id, step, &body.mv).await?))
}

/// `GET /api/learn/progress`: the signed-in player's steps done in each
/// lesson begun (`{"progress": {}}` without an account: the page keeps it).
pub async fn progress(State(hub): Shared, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    match signed_in(&hub, &headers).await? {
        Some(account) => Ok(Json(lessons::progress(&hub, &account.id).await?)),
        None => Ok(Json(serde_json::json!({ "progress": {} }))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressBody {
    progress: serde_json::Map<String, Value>,
}

/// `POST /api/learn/progress` `{"progress": {"<lesson>": steps}}`: progress
/// a browser kept before its player signed in, taken into the account.
pub async fn keep_progress(
    State(hub): Shared,
    headers: HeaderMap,
    Body(body): Body<ProgressBody>,
) -> Result<Json<Value>, ApiError> {
    let Some(account) = signed_in(&hub, &headers).await? else {
        return Err(ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "sign in to keep your progress in your account",
        ));
    };
    Ok(Json(lessons::merge(&hub, &account.id, &body.progress).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    variant: Option<String>,
}

/// `GET /api/puzzle/next?variant=<id>`: a puzzle the asker has not played,
/// near its puzzle rating in the variant (anyone's: a new player's).
pub async fn next(
    State(hub): Shared,
    Extension(puzzles): ThePuzzles,
    headers: HeaderMap,
    Query(query): Query<NextQuery>,
) -> Result<Json<Value>, ApiError> {
    let account = signed_in(&hub, &headers).await?;
    let puzzle = puzzles.next(&hub, query.variant.as_deref(), account.as_ref().map(|a| a.id.as_str())).await?;
    Ok(Json(puzzle_json(&puzzle)))
}

/// `GET /api/puzzle/{id}`: one puzzle.
pub async fn puzzle(
    State(hub): Shared,
    Extension(puzzles): ThePuzzles,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(puzzle_json(&puzzles.puzzle(&hub, &id).await?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchBody {
    solutions: Vec<Solution>,
}

/// `POST /api/puzzle/batch/{variant}` `{"solutions": [{"id", "win",
/// "rated"}]}`: rounds played, by the page's session or a token with
/// lichess's `puzzle:write`; each account's first round on a puzzle is
/// rated. Answers the rounds and the puzzle rating after them.
pub async fn batch(
    State(hub): Shared,
    Extension(puzzles): ThePuzzles,
    headers: HeaderMap,
    Path(variant): Path<String>,
    Body(body): Body<BatchBody>,
) -> Result<Json<Value>, ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    asker.require_any(&[Scope::PuzzleWrite])?;
    let charge = Charge::new(&limits::PUZZLE_BATCHES_PER_ACCOUNT, asker.account.id.clone());
    limits::count(hub.store(), vec![charge]).await?;
    Ok(Json(puzzles.play(&hub, &asker.account.id, &variant, body.solutions).await?))
}
