//! Puzzles (docs/learn.md): the sets shipped in `data/puzzles/` kept in the
//! store with their Glicko-2 ratings, the next puzzle for a player (one it
//! has not played, near its puzzle rating), and rounds rated as lichess
//! rates them (the first round of an account on a puzzle, a game between
//! the solver and the puzzle). The shapes are lichess's where they fit
//! (`GET /api/puzzle/next`, `GET /api/puzzle/<id>`, `POST
//! /api/puzzle/batch/<variant>`).

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::puzzles::{self as stored, NewPuzzle, Round, StoredPuzzle};
use menagerie_learn::puzzle::{self, Puzzle};
use rand::seq::IndexedRandom;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::OnceCell;

/// How many of the nearest unplayed puzzles the next one is drawn from (a
/// player asking again does not get the same one).
const DRAWN_FROM: usize = 12;
/// The most rounds one batch may carry.
pub const MAX_BATCH: usize = 50;

/// The puzzles of one store: the shipped sets are stored once, before the
/// first puzzle is read.
#[derive(Default)]
pub struct Puzzles {
    seeded: OnceCell<()>,
}

/// A round as a batch reports it (lichess's `solutions`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    pub id: String,
    pub win: bool,
    /// Whether the round may be rated (lichess's; default true): only an
    /// account's first round on a puzzle is.
    #[serde(default = "rated_by_default")]
    pub rated: bool,
}

fn rated_by_default() -> bool {
    true
}

impl Puzzles {
    /// Stores the shipped puzzles the store lacks (one already stored keeps
    /// its rating and plays), once per server.
    async fn seeded(&self, hub: &Hub) -> Result<(), ApiError> {
        self.seeded
            .get_or_try_init(|| async {
                let shipped = puzzle::builtin().map_err(ApiError::internal)?;
                hub.store()
                    .transact(move |sql| {
                        for puzzle in &shipped {
                            let source = serde_json::to_string(&puzzle.source).unwrap_or_default();
                            stored::add(sql, &new_puzzle(puzzle, &source))?;
                        }
                        Ok(())
                    })
                    .await?;
                Ok(())
            })
            .await
            .map(drop)
    }

    /// Puzzle `id`.
    pub async fn puzzle(&self, hub: &Hub, id: &str) -> Result<StoredPuzzle, ApiError> {
        self.seeded(hub).await?;
        let key = id.to_owned();
        let found = hub.store().read(move |sql| stored::puzzle(sql, &key)).await?;
        found.ok_or_else(|| ApiError::not_found(format!("no puzzle {}", menagerie_core::shown(id))))
    }

    /// A puzzle of `variant` (any variant with puzzles if `None`) for
    /// `account` (anonymous: `None`): drawn from the unplayed ones nearest
    /// to its puzzle rating there.
    pub async fn next(
        &self,
        hub: &Hub,
        variant: Option<&str>,
        account: Option<&str>,
    ) -> Result<StoredPuzzle, ApiError> {
        self.seeded(hub).await?;
        let variant = match variant {
            Some(variant) => puzzle_variant(variant)?.to_owned(),
            None => {
                let variants = hub.store().read(stored::variants).await?;
                variants.choose(&mut rand::rng()).cloned().ok_or_else(|| ApiError::not_found("no puzzles"))?
            }
        };
        let account = account.map(str::to_owned);
        let (name, key) = (variant.clone(), account.clone());
        let nearest = hub
            .store()
            .read(move |sql| {
                let rating = match &key {
                    Some(account) => stored::player_rating(sql, account, &name)?.0.rating,
                    None => menagerie_league::glicko2::START_RATING,
                };
                stored::nearest(sql, &name, rating, key.as_deref(), DRAWN_FROM)
            })
            .await?;
        nearest.choose(&mut rand::rng()).cloned().ok_or_else(|| match account {
            Some(_) => ApiError::not_found(format!("you have played every {} puzzle", variant_name(&variant))),
            None => ApiError::not_found(format!("no {} puzzles", variant_name(&variant))),
        })
    }

    /// `account` played the `solutions` of `variant`'s puzzles: each rated
    /// if it is the account's first round on it. All or none (a puzzle
    /// that does not exist, or of another variant, refuses the batch).
    /// Answers lichess's shape: the rounds, and the account's puzzle rating
    /// after them.
    pub async fn play(
        &self,
        hub: &Hub,
        account: &str,
        variant: &str,
        solutions: Vec<Solution>,
    ) -> Result<Value, ApiError> {
        self.seeded(hub).await?;
        let variant = puzzle_variant(variant)?.to_owned();
        if solutions.len() > MAX_BATCH {
            return Err(ApiError::bad_request(format!("at most {MAX_BATCH} solutions a batch")));
        }
        let (account, now, name) = (account.to_owned(), now_ms(), variant_name(&variant));
        let (rounds, glicko) = hub
            .store()
            .transact(move |sql| {
                // Every puzzle checked before any round is played: a refused
                // batch writes nothing.
                for solution in &solutions {
                    match stored::puzzle(sql, &solution.id)? {
                        Some(found) if found.variant == variant => {}
                        _ => return Ok(Err(solution.id.clone())),
                    }
                }
                let mut rounds = Vec::new();
                for solution in &solutions {
                    let round = stored::play_round(sql, &account, &solution.id, solution.win, solution.rated, now)?;
                    rounds.extend(round);
                }
                Ok(Ok((rounds, stored::player_rating(sql, &account, &variant)?.0)))
            })
            .await?
            .map_err(|id| ApiError::bad_request(format!("no {name} puzzle {}", menagerie_core::shown(&id))))?;
        Ok(json!({
            "rounds": rounds.iter().map(round_json).collect::<Vec<_>>(),
            "glicko": {
                "rating": glicko.rating.round() as i64,
                "deviation": glicko.deviation.round() as i64,
                "provisional": glicko.provisional(),
            },
        }))
    }
}

/// The answer of `GET /api/puzzle/next` and `GET /api/puzzle/<id>`.
pub fn puzzle_json(puzzle: &StoredPuzzle) -> Value {
    json!({
        "puzzle": {
            "id": puzzle.id,
            "variant": puzzle.variant,
            "rating": puzzle.rating.rating.round() as i64,
            "plays": puzzle.plays,
            "position": puzzle.position,
            "solution": puzzle.solution,
            "themes": puzzle.themes,
        }
    })
}

fn round_json(round: &Round) -> Value {
    json!({ "id": round.puzzle, "win": round.win, "rated": round.rated, "ratingDiff": round.rating_diff })
}

fn new_puzzle<'a>(puzzle: &'a Puzzle, source: &'a str) -> NewPuzzle<'a> {
    NewPuzzle {
        id: &puzzle.id,
        variant: &puzzle.variant,
        position: &puzzle.position,
        solution: &puzzle.solution,
        themes: &puzzle.themes,
        source,
        rating: f64::from(puzzle.rating),
    }
}

/// `variant` if it is a game with puzzles: 400 for no such variant, 404
/// for one without puzzles (Lunch Chess: a puzzle must hold for every hand
/// the solver cannot see).
fn puzzle_variant(variant: &str) -> Result<&str, ApiError> {
    if !menagerie_games::variants().iter().any(|info| info.id == variant) {
        return Err(ApiError::bad_request(format!("unknown variant {}", menagerie_core::shown(variant))));
    }
    if puzzle::FILES.iter().any(|(game, _)| *game == variant) {
        return Ok(variant);
    }
    let why =
        if variant.starts_with("lunch") { ": a puzzle must hold for every hand the solver cannot see" } else { " yet" };
    Err(ApiError::not_found(format!("{} has no puzzles{why}", variant_name(variant))))
}

fn variant_name(variant: &str) -> String {
    menagerie_games::variants()
        .into_iter()
        .find(|info| info.id == variant)
        .map(|info| info.name.to_owned())
        .unwrap_or_else(|| variant.to_owned())
}
