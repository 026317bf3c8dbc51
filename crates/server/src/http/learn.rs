//! Learning the games (docs/learn.md): the lessons' list and the puzzles,
//! at lichess's paths where they fit (`GET /api/puzzle/next`, `GET
//! /api/puzzle/{id}`, `POST /api/puzzle/batch/{variant}`).

use super::asker::{signed_in, Asker};
use super::body::Body;
use crate::bots::Scope;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{self, Charge};
use crate::puzzles::{puzzle_json, Puzzles, Solution};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::Value;
use std::sync::{Arc, LazyLock};

type Shared = State<Arc<Hub>>;
type ThePuzzles = Extension<Arc<Puzzles>>;

/// `GET /api/learn`: every lesson, each game's in turn.
pub async fn lessons() -> Result<Json<Value>, ApiError> {
    static LIST: LazyLock<Result<Value, String>> = LazyLock::new(|| {
        menagerie_learn::lesson::builtin()
            .map(|lessons| menagerie_learn::lesson::api_list(&lessons))
            .map_err(|e| e.to_string())
    });
    LIST.clone().map(Json).map_err(ApiError::internal)
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
